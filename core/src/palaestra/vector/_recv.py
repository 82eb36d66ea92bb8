"""Asynchronous stepping: ``send`` actions to some sub-envs, ``recv`` the first ``batch_size`` ready.

EnvPool's names, for every vector env. The ledger here keeps, per sub-env, whether its last
result was received (it may be sent an action), whether it is stepping (in flight), or
whether its result waits to be received; every action sent yields exactly one result. An
engine drives one vectorizer: :class:`~palaestra.vector._batch_recv.FullBatchEngine` serves
any vector env (its sub-envs are stepped together once each has an action: natively batched
envs), and the sync and async vectorizers (``_async_recv.py``) have engines that step each
sub-env on its own.

A batch ``recv`` returns holds ``batch_size`` ready results, in sub-env order (so with
``batch_size == num_envs`` it equals ``step``'s), with ``info["env_id"]``. When more are ready
than asked for, those sent earliest go first (each ``send`` takes a ticket), so sub-envs of
equal cost are served in turn whichever worker holds them. ``recv`` batches the results before
it marks them received: an interrupt (Ctrl-C) while it batches leaves them for the next
``recv``; one while an engine exchanges messages with workers closes the vector env, saying
why (what was in flight cannot be told apart from what was lost).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from palaestra.error import AlreadyPendingCallError, InvalidAction, InvalidEnvArgumentValue, NoAsyncCallError
from palaestra.spaces._batching import batch_space, concatenate, create_empty_array, iterate
from palaestra.vector._autoreset import reset_arguments
from palaestra.vector._info import add_info
from palaestra.vector._spaces import actions_per_env

__all__ = ["IN_FLIGHT", "READY", "RecvEngine", "check_batch_size", "take_info", "take_rows"]

IDLE, IN_FLIGHT, READY = 0, 1, 2


def check_batch_size(batch_size: Any, num_envs: int, name: str) -> int:
    """``batch_size`` as an int in ``[1, num_envs]``.

    Raises:
        InvalidEnvArgumentValue: Anything else, naming the range.
    """
    if (
        isinstance(batch_size, bool)
        or not isinstance(batch_size, numbers.Integral)
        or not 1 <= int(batch_size) <= num_envs
    ):
        raise InvalidEnvArgumentValue(
            f"{name}: batch_size must be an integer in [1, num_envs={num_envs}] (how many sub-envs "
            f"recv() returns at a time), got {batch_size!r}"
        )
    return int(batch_size)


def take_rows(space: Any, batched: Any, num_envs: int, ids: np.ndarray) -> Any:
    """Rows ``ids`` of a batch of ``num_envs`` observations of ``space`` (the single-env space)."""
    if isinstance(batched, np.ndarray) and batched.dtype != object:
        return batched[ids]
    items = list(iterate(batch_space(space, num_envs), batched))
    return concatenate(space, [items[i] for i in ids], create_empty_array(space, n=len(ids)))


def take_info(infos: dict[str, Any], ids: np.ndarray) -> dict[str, Any]:
    """The rows ``ids`` of a batched info dict (keys no chosen sub-env reported are dropped)."""
    out: dict[str, Any] = {}
    for key, value in infos.items():
        if key.startswith("_") and key[1:] in infos:
            continue  # masks travel with their key
        mask = infos.get(f"_{key}")
        if mask is None or not np.any(mask[ids]):
            continue
        out[key] = take_info(value, ids) if isinstance(value, dict) else value[ids]
        out[f"_{key}"] = mask[ids]
    return out


class RecvEngine:
    """The ledger and the API; subclasses start steps and resets and collect their results.

    Args:
        env: The vector env served.
    """

    @classmethod
    def needs_divisor(cls, env: Any) -> bool:
        """Whether ``env``'s ``batch_size`` must divide ``num_envs`` (sub-envs that step together)."""
        return False

    #: Whether sub-envs take tickets (see :meth:`_start`); not needed where every result of a
    #: step is ready at once and handed out in sub-env order, which turns by itself.
    takes_turns = True

    def __init__(self, env: Any) -> None:
        self.env = env
        self.name = type(env).__name__
        self.num_envs = int(env.num_envs)
        self.status = np.zeros(self.num_envs, dtype=np.int8)  # IDLE, IN_FLIGHT or READY
        self.arrival: list[int] = []  # ready sub-envs, first to arrive first
        # Each sub-env's place in the queue of actions sent (lower: sent earlier); see _start.
        # (Python lists: a send or recv touches a few entries, where numpy's calls cost more.)
        self.tickets = [0] * self.num_envs
        self.issued = 0
        self.rounds = [0] * self.num_envs  # how many actions (or resets) each sub-env was sent
        self._action_spaces: dict[int, Any] = {}

    # -- the API ------------------------------------------------------------------------

    @property
    def outstanding(self) -> bool:
        """Whether some result was sent for and not yet received."""
        return bool(self.status.any())

    def check_idle(self, call: str) -> None:
        """Raise unless every result was received (``step``/``reset`` need every sub-env)."""
        if self.outstanding:
            where = [
                f"{ids} {what}"
                for ids, what in ((self._listed(IN_FLIGHT), "in flight"), (self._listed(READY), "ready"))
                if ids
            ]
            raise AlreadyPendingCallError(
                f"Calling `{call}` while results of send/async_reset are outstanding: sub-envs "
                f"{' and '.join(where)}. recv() them first (step and reset act on every sub-env at once).",
                "recv",
            )

    def async_reset(self, seed: Any = None, options: dict[str, Any] | None = None) -> None:
        """Reset every sub-env; their results come from :meth:`recv`."""
        self.check_idle("async_reset")

        seeds, options, mask = reset_arguments(seed, options, self.num_envs)
        if mask is not None:
            raise ValueError(
                "async_reset resets every sub-env (it takes no reset_mask); for some of them, use "
                "reset(options={'reset_mask': mask}) while no result is outstanding"
            )
        ids = np.arange(self.num_envs)
        self._start(ids, lambda: self.start_reset(ids, seed, seeds, options))

    def send(self, actions: Any, env_ids: Any = None) -> None:
        """Step sub-envs ``env_ids`` (default: those of the last :meth:`recv`) with ``actions``."""
        ids = self._check_ids(env_ids)
        per_env = self._split(actions, ids)
        self._start(ids, lambda: self.start_step(ids, per_env))
        self.last_ids = None

    def _start(self, ids: np.ndarray, start: Any) -> None:
        """Mark ``ids`` in flight with new tickets and start them.

        The tickets go to the back of the queue in the order of the old ones, so a sub-env
        that waited longer (one left over when an earlier ``recv`` took part of its send)
        stays ahead of those sent with it: the queue turns, and every sub-env gets its turn.
        If starting raises, the sub-envs the engine neither finished nor failed take actions
        again (a sync engine's finished ones keep their results); an interrupt while an engine
        that talks to workers was sending closes the vector env.
        """
        if self.takes_turns:
            tickets, rounds = self.tickets, self.rounds
            issued = self.issued
            for i in sorted(ids.tolist(), key=tickets.__getitem__):
                issued += 1
                tickets[i] = issued
                rounds[i] += 1
            self.issued = issued
        self.status[ids] = IN_FLIGHT
        try:
            start()
        except BaseException as e:
            self._interrupted(e, "send")
            unstarted = ids[self.status[ids] == IN_FLIGHT]
            self.status[unstarted] = IDLE
            raise

    def recv(
        self, timeout: float | None = None
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """``batch_size`` ready results (the earliest sent first), in sub-env order, with ``info["env_id"]``."""
        k = self.env.batch_size
        try:
            while True:
                self.advance(k)
                if len(self.arrival) >= k:
                    break
                if not np.any(self.status == IN_FLIGHT):
                    raise self._starved(k)
                self.collect(timeout)
        except BaseException as e:
            self._interrupted(e, "recv")
            raise
        ids, rest = self._chosen(k)
        obs, rewards, terminated, truncated, infos = self.batch(ids)  # reads; takes nothing yet
        infos["env_id"] = ids.astype(np.int32)
        # Received: plain stores, with no call between them for an interrupt to land on.
        self.arrival = rest
        self.status[ids] = IDLE
        self.last_ids = ids
        return obs, rewards, terminated, truncated, infos

    def _chosen(self, k: int) -> tuple[np.ndarray, list[int]]:
        """The ``k`` ready sub-envs to hand out (those sent earliest), sorted, and the ready others."""
        ready = self.arrival
        if len(ready) == k:
            return np.sort(np.array(ready, dtype=np.int64)), []
        by_ticket = sorted(ready, key=self.tickets.__getitem__) if self.takes_turns else ready
        return np.sort(np.array(by_ticket[:k], dtype=np.int64)), by_ticket[k:]

    def advance(self, k: int) -> None:
        """Do work that is due before ``k`` results are handed out (nothing here; see the async engine)."""

    #: Whether the engine exchanges messages with workers: an interrupt then closes the env.
    closes_on_interrupt = False

    def _interrupted(self, error: BaseException, during: str) -> None:
        if self.closes_on_interrupt and not isinstance(error, Exception) and not self.env.closed:
            self.close_after_interrupt(
                f"{type(error).__name__} interrupted `{during}` while it exchanged messages with the "
                "workers, so the results in flight were lost"
            )

    def close_after_interrupt(self, reason: str) -> None:
        """Close the vector env after an interrupt cut an exchange with its workers short."""
        self.env.close(terminate=True)

    last_ids: np.ndarray | None = None

    # -- for the engines ----------------------------------------------------------------

    def arrived(self, ids: Sequence[int] | np.ndarray) -> None:
        """Mark results ready, in the order they came."""
        listed = ids.tolist() if isinstance(ids, np.ndarray) else list(ids)
        if listed:
            self.status[listed] = READY
            self.arrival.extend(listed)

    def waiting(self, ids: Sequence[int] | np.ndarray) -> bool:
        """Whether every sub-env of ``ids`` has a result that ``recv`` has not handed out yet."""
        return bool((self.status[ids] == READY).all())

    def failed(self, ids: Sequence[int]) -> None:
        """Sub-envs whose step raised: no result will come; they take actions again."""
        for i in ids:
            if self.status[i] == IN_FLIGHT:
                self.status[i] = IDLE

    def start_reset(
        self, ids: np.ndarray, seed: Any, seeds: list[Any], options: dict[str, Any] | None
    ) -> None:
        """Begin resetting ``ids`` (``seed`` as given to async_reset; ``seeds`` per sub-env)."""
        raise NotImplementedError

    def start_step(self, ids: np.ndarray, actions: list[Any] | None) -> None:
        """Begin stepping ``ids`` with their actions (None: the engine already holds them)."""
        raise NotImplementedError

    def collect(self, timeout: float | None) -> None:
        """Wait until at least one more result arrived (or raise why none can)."""
        raise NotImplementedError

    def batch(self, ids: np.ndarray) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The ready results of ``ids`` (sorted), batched.

        It must leave them in place (a sub-env's next start replaces them): ``recv`` marks
        them received only once they are batched, so an interrupt in between loses nothing.
        """
        raise NotImplementedError

    def batch_of(
        self, rows: list[tuple[Any, float, bool, bool, list[dict[str, Any]]]]
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Sub-env results ``(obs, reward, terminated, truncated, infos)`` as one batch, in order.

        ``infos`` lists each sub-env's info dicts in the order a step adds them (a SAME_STEP
        final first), as :meth:`SyncVectorEnv.step_sub_env` returns them.
        """
        space = self.env.single_observation_space
        obs = concatenate(
            space, [row[0] for row in rows], create_empty_array(space, n=len(rows), fn=np.zeros)
        )
        infos: dict[str, Any] = {}
        for position, row in enumerate(rows):
            for info in row[4]:
                add_info(infos, info, position, len(rows))
        return (
            obs,
            np.array([row[1] for row in rows], dtype=np.float64),
            np.array([row[2] for row in rows], dtype=np.bool_),
            np.array([row[3] for row in rows], dtype=np.bool_),
            infos,
        )

    # -- checks ---------------------------------------------------------------------------

    def _listed(self, status: int) -> list[int]:
        listed: list[int] = np.flatnonzero(self.status == status).tolist()
        return listed

    def _check_ids(self, env_ids: Any) -> np.ndarray:
        if env_ids is None:
            if self.last_ids is None:
                raise NoAsyncCallError(
                    f"{self.name}.send: no env_ids given and no recv() since the last send; pass "
                    "env_ids (info['env_id'] of the batch the actions answer)",
                    "recv",
                )
            return self.last_ids
        ids = np.asarray(env_ids)
        if ids.ndim != 1 or ids.dtype.kind not in "iu" or not len(ids):
            raise InvalidAction(
                f"{self.name}.send: env_ids must be a non-empty 1-d array of sub-env indices "
                f"(info['env_id']), got {env_ids!r:.80}"
            )
        listed = ids.tolist()
        if min(listed) < 0 or max(listed) >= self.num_envs:
            bad = [i for i in listed if not 0 <= i < self.num_envs]
            raise InvalidAction(
                f"{self.name}.send: env_ids {bad} are not sub-envs of this vector env (0 to {self.num_envs - 1})"
            )
        if len(set(listed)) != len(listed):
            raise InvalidAction(f"{self.name}.send: env_ids {listed} name a sub-env twice")
        if self.status[ids].any():
            busy = [i for i in listed if self.status[i] != IDLE]
            ready = [i for i in busy if self.status[i] == READY]
            raise AlreadyPendingCallError(
                f"{self.name}.send: sub-envs {busy} have a result not yet received"
                + (f" ({ready} wait in recv())" if ready else " (still stepping)")
                + "; send to a sub-env only after recv() returned its last result",
                "recv",
            )
        return ids if ids.dtype == np.int64 else ids.astype(np.int64)

    def _split(self, actions: Any, ids: np.ndarray) -> list[Any] | None:
        """One action per sub-env of ``ids`` (an engine may take them another way and return None)."""
        count = len(ids)
        given = len(actions) if hasattr(actions, "__len__") and not isinstance(actions, dict) else None
        if given is not None and given != count:
            raise InvalidAction(
                f"{self.name}.send got {given} actions for {count} env_ids; pass one action per sub-env "
                "named, in the order of env_ids"
            )
        space = self._action_spaces.get(count)
        if space is None:
            space = self._action_spaces[count] = batch_space(self.env.single_action_space, count)
        return list(actions_per_env(space, actions, count, f"{self.name}.send"))

    def _starved(self, k: int) -> Exception:
        ready, idle = len(self.arrival), self._listed(IDLE)
        return NoAsyncCallError(
            f"{self.name}.recv: {k} results are asked for (batch_size) but only {ready} can come: "
            f"sub-envs {idle} have no action; send() them one first",
            "send",
        )
