"""The engine of natively batched envs: ``send``/``recv`` over a vector env that steps all its sub-envs at once.

The sub-envs sent so far are stepped together once no more actions can come (every sub-env
sent to, or the batch asked for): an env that steps any subset
(:meth:`~palaestra.vector.BatchedVectorEnv.step_some`) steps those alone, any other waits for
all of them. See :mod:`palaestra.vector._recv` for the ledger every engine keeps.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra.error import InvalidAction, NoAsyncCallError
from palaestra.spaces._batching import batch_space, concatenate, create_empty_array, iterate
from palaestra.spaces._box import Box
from palaestra.spaces._discrete import Discrete
from palaestra.vector._recv import READY, RecvEngine, take_info, take_rows

__all__ = ["FullBatchEngine"]


class FullBatchEngine(RecvEngine):
    """send/recv for a vector env that steps its sub-envs together (a natively batched env).

    Every sub-env is ready at once: once each has an action, one ``step`` of the whole
    batch makes every result ready, and ``recv`` hands them out ``batch_size`` at a time
    (``batch_size`` divides ``num_envs``, so the rounds meet). A batched env that can step
    some sub-envs while the others hold still (``steps_some``) also steps the sub-envs sent
    so far when ``recv`` needs their results and no more can come: any ``batch_size``, any
    subset, as the sync vectorizer.
    """

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.pending: dict[int, Any] = {}
        self.current: tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]] | None = None
        # Results of a step of some sub-envs, while rows of an earlier step wait to be received:
        # each sub-env's ready result is in the step ``source`` names (0: current).
        self.earlier: dict[int, tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]] = {}
        self.source = np.zeros(self.num_envs, dtype=np.int64)
        self.steps_taken = 0
        self.steps_some = not self.needs_divisor(env)
        # Stepping some sub-envs at a time, results are no longer all ready at once: take turns.
        self.takes_turns = self.steps_some

    @classmethod
    def needs_divisor(cls, env: Any) -> bool:
        """Rounds meet only when ``batch_size`` divides ``num_envs``, unless the env steps some sub-envs."""
        return not getattr(env, "steps_some", False)

    takes_turns = False

    def _split(self, actions: Any, ids: np.ndarray) -> list[Any] | None:
        """One action per sub-env, each checked now: a send that is not refused here is stepped.

        The batch is stepped once every sub-env has an action, by the env's own ``step``; an
        action that could not be part of it is refused by the ``send`` that brings it, so the
        actions already sent are never held up by it. Discrete-like actions must be in the
        space; Box actions must have its shape and be finite (the envs clip the rest).
        """
        per_env = super()._split(actions, ids)
        assert per_env is not None
        space = self.env.single_action_space
        if _acceptable_batch(space, actions, len(ids)):
            return per_env
        bad = [(i, a) for i, a in zip(ids.tolist(), per_env, strict=True) if not _acceptable(space, a)]
        if bad:
            raise InvalidAction(
                f"{self.name}.send: the actions of sub-envs {[i for i, _ in bad]} "
                f"({', '.join(repr(a) for _, a in bad)}) are not actions of {space}; send each sub-env "
                "an action of its single_action_space (Box actions finite, of its shape)"
            )
        return per_env

    def start_reset(
        self, ids: np.ndarray, seed: Any, seeds: list[Any], options: dict[str, Any] | None
    ) -> None:
        with self.env._recv_internal():
            obs, infos = self.env.reset(seed=seed, options=options)
        n = self.num_envs
        self._keep((obs, np.zeros(n), np.zeros(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_), infos), ids)
        self.arrived(ids)

    def start_step(self, ids: np.ndarray, actions: list[Any] | None) -> None:
        assert actions is not None
        listed = ids.tolist()
        pending = self.pending
        for i, action in zip(listed, actions, strict=True):
            pending[i] = action
        if len(pending) < self.num_envs:
            return
        space = self.env.single_action_space
        try:  # every action was checked when sent (_split): the batch casts
            ordered = [pending[i] for i in range(self.num_envs)]
            batch = concatenate(space, ordered, create_empty_array(space, n=self.num_envs))
            with self.env._recv_internal():
                result = self.env.step(batch)
        except BaseException:
            # Refused by the env's own step: the earlier sends keep their actions, and the
            # sub-envs of this one take actions again.
            for i in listed:
                del pending[i]
            raise
        self.pending = {}
        self._keep(result, np.arange(self.num_envs))
        self.arrived(range(self.num_envs))

    def collect(self, timeout: float | None) -> None:
        if self.pending and self.steps_some:
            self._step_pending()
            return
        missing = sorted(set(range(self.num_envs)) - set(self.pending))
        raise NoAsyncCallError(
            f"{self.name}.recv: its sub-envs step together, and sub-envs {missing} have no action yet; "
            "send() them one first",
            "send",
        )

    def _step_pending(self) -> None:
        """Step the sub-envs sent so far; the others hold still (``step_some``)."""
        pending = self.pending
        ids = np.array(sorted(pending), dtype=np.int64)
        stepping = np.zeros(self.num_envs, dtype=np.bool_)
        stepping[ids] = True
        filler = pending[int(ids[0])]  # a checked action: the held sub-envs' rows are put back
        space = self.env.single_action_space
        ordered = [pending.get(i, filler) for i in range(self.num_envs)]
        batch = concatenate(space, ordered, create_empty_array(space, n=self.num_envs))
        self.pending = {}
        try:
            with self.env._recv_internal():
                result = self.env.step_some(batch, stepping)
        except BaseException:
            self.failed(ids.tolist())  # no result comes: they take actions again
            raise
        self._keep(result, ids)
        self.arrived(ids)

    def _keep(
        self, result: tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]], ids: np.ndarray
    ) -> None:
        """Hold a step's results for ``ids``; rows of earlier steps still waiting stay readable."""
        waiting = self._listed(READY)
        if waiting and self.current is not None:
            self.steps_taken += 1
            kept = {int(s) for s in self.source[waiting]}
            self.earlier = {
                s: r
                for s, r in {**self.earlier, self.steps_taken: self.current}.items()
                if s in kept or s == self.steps_taken
            }
            self.source[[i for i in waiting if self.source[i] == 0]] = self.steps_taken
        else:
            self.earlier = {}
            self.source[:] = 0
        self.source[ids] = 0
        self.current = result

    def batch(self, ids: np.ndarray) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        assert self.current is not None, "results come from a step or reset"
        if self.earlier and self.source[ids].any():
            return self._batch_across_steps(ids)
        return self._rows(self.current, ids)

    def _batch_across_steps(
        self, ids: np.ndarray
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Rows of several steps' results, one sub-env at a time (rare: odd batch sizes)."""
        assert self.current is not None, "results come from a step or reset"
        rows = []
        for i in ids.tolist():
            s = int(self.source[i])
            obs, rewards, terminated, truncated, infos = self._rows(
                self.current if s == 0 else self.earlier[s], np.array([i])
            )
            single = next(iter(iterate(batch_space(self.env.single_observation_space, 1), obs)))
            rows.append(
                (single, float(rewards[0]), bool(terminated[0]), bool(truncated[0]), [_row_info(infos)])
            )
        return self.batch_of(rows)

    def _rows(
        self, result: tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]], ids: np.ndarray
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        obs, rewards, terminated, truncated, infos = result
        return (
            take_rows(self.env.single_observation_space, obs, self.num_envs, ids),
            np.asarray(rewards)[ids],
            np.asarray(terminated)[ids],
            np.asarray(truncated)[ids],
            take_info(infos, ids),
        )


def _row_info(infos: dict[str, Any]) -> dict[str, Any]:
    """The one sub-env's info dict of a one-row batched info (its ``_key`` masks dropped)."""
    return {
        key: _row_info(value) if isinstance(value, dict) else value[0]
        for key, value in infos.items()
        if not (key.startswith("_") and key[1:] in infos) and bool(infos.get(f"_{key}", [True])[0])
    }


def _acceptable_batch(space: Any, actions: Any, count: int) -> bool:
    """Whether a whole array of actions is acceptable, checked at once (False: check each)."""
    if not isinstance(actions, np.ndarray) or actions.dtype.kind not in "biuf":
        return False
    if isinstance(space, Box):
        return bool(actions.shape == (count, *space.shape) and np.isfinite(actions).all())
    if isinstance(space, Discrete) and actions.shape == (count,) and actions.dtype.kind in "iu":
        start = int(space.start)
        return bool(count == 0 or (actions.min() >= start and actions.max() < start + int(space.n)))
    return False


def _acceptable(space: Any, action: Any) -> bool:
    """Whether a natively batched env could take ``action`` in a batch (Box: shape and finite)."""
    if isinstance(space, Box):
        try:
            array = np.asarray(action)
            return bool(
                array.shape == space.shape and array.dtype.kind in "biuf" and np.isfinite(array).all()
            )
        except (TypeError, ValueError):
            return False
    try:
        return bool(space.contains(action))
    except Exception:
        return False
