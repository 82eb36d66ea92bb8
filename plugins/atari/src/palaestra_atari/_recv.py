"""send/recv of AtariVectorEnv on ALE's own asynchronous vector interface.

ALE steps every game on its threads and hands out the first ``batch_size`` ready; its send
takes actions for exactly the games of its last batch. So here ``recv`` returns one ALE
batch (rows in sub-env order, as every palaestra ``recv``), and ``send`` takes actions for
exactly those games, in any order, and passes them on in ALE's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra.error import InvalidAction
from palaestra.plugin import RecvEngine

__all__ = ["AtariEngine"]


class AtariEngine(RecvEngine):
    """The send/recv engine of :class:`~palaestra_atari.vector.AtariVectorEnv`."""

    closes_on_interrupt = True  # a batch ALE gave out and an interrupt cut off would be lost

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.vector = env
        self.batches: list[tuple[np.ndarray, tuple[Any, ...]]] = []  # ALE's batches, as they came
        self.order: np.ndarray | None = None  # the games of ALE's last batch, in its order

    def start_reset(
        self, ids: np.ndarray, seed: Any, seeds: list[Any], options: dict[str, Any] | None
    ) -> None:
        env = self.vector
        if env.ale is None:
            raise env._closed()
        self.batches = []
        ale_seeds = env._reset_seeds(seed, self.num_envs)
        obs, ale_info = env.ale.reset(np.arange(self.num_envs), ale_seeds)
        env._waiting[:] = False
        n = len(obs)
        self._keep(
            env._finish(obs, np.zeros(n, np.int32), np.zeros(n, np.bool_), np.zeros(n, np.bool_), ale_info)
        )

    def start_step(self, ids: np.ndarray, actions: list[Any] | None) -> None:
        env = self.vector
        if env.ale is None:
            raise env._closed()
        assert actions is not None and self.order is not None
        self._drop_received()
        if sorted(ids.tolist()) != sorted(self.order.tolist()):
            raise InvalidAction(
                f"AtariVectorEnv.send: ALE's vector interface takes actions for exactly the games of the "
                f"last recv(), {sorted(self.order.tolist())}, together; got env_ids {ids.tolist()}"
            )
        given = dict(zip(ids.tolist(), actions, strict=True))
        ordered = np.asarray([given[i] for i in self.order.tolist()])
        if env.continuous:
            action_ids, strength = env._continuous(ordered)
        else:
            action_ids, strength = env._discrete(ordered), env._strength
        env.ale.send(action_ids, strength)

    def collect(self, timeout: float | None) -> None:
        env = self.vector
        if env.ale is None:
            raise env._closed()
        self._keep(env._finish(*env.ale.recv()))

    def _drop_received(self) -> None:
        self.batches = [kept for kept in self.batches if self.waiting(kept[0])]

    def _keep(self, result: tuple[Any, ...]) -> None:
        self._drop_received()
        order = np.asarray(result[4]["env_id"], dtype=np.int64)
        self.order = order
        self.batches.append((order, result))
        self.arrived(order.tolist())

    def batch(self, ids: np.ndarray) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        # Kept until the next batch or send drops those handed out: see RecvEngine.batch.
        order, (obs, rewards, terminated, truncated, infos) = self.batches[0]
        assert sorted(order.tolist()) == ids.tolist(), "recv hands out ALE's batches whole"
        rows = np.argsort(order)
        return obs[rows], rewards[rows], terminated[rows], truncated[rows], _rows(infos, rows)


def _rows(infos: dict[str, Any], rows: np.ndarray) -> dict[str, Any]:
    """ALE's batched info (arrays, finals with masks) in the order ``rows``; recv adds env_id."""
    return {
        key: _rows(value, rows) if isinstance(value, dict) else np.asarray(value)[rows]
        for key, value in infos.items()
        if key != "env_id"
    }
