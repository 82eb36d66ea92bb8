"""The worker process of AsyncVectorEnv: owns a contiguous block of sub-environments.

Protocol (over one duplex pipe per worker):

- step: the parent writes actions to shared memory and sends ``b"S"`` (or sends
  ``b"P"`` followed by the pickled actions); the worker steps its block and answers
  ``b""`` when no sub-env reported info or a non-shared observation, else a pickled
  ``("ok", [(index, obs or None, info), ...])``.
- ``("some", (kind, [(index, action or seed), ...], options))`` steps or resets those
  sub-envs (send/async_reset) and answers with one or more ``("part", results, errors,
  done)`` messages, the last with ``done`` True (see :meth:`WorkerBlock.some`).
- other commands are pickled ``(name, payload)`` tuples answered with ``("ok", value)``.
- any exception answers ``("error", [(index, type name, message, traceback, pickled exc),
  ...])`` and the worker keeps serving. A step is taken by every sub-env of the block even
  when one raises, so the list holds each failing sub-env; ``("close", None)`` closes every
  sub-env and answers ``("ok", [failures])`` in the same form, then ends the loop.
"""

from __future__ import annotations

import pickle
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from palaestra.vector._processes import SPIN_SECONDS, polling_window, read_soon
from palaestra.vector._vector_env import AutoresetMode
from palaestra.vector.utils._shared_memory import read_from_shared_memory, write_to_shared_memory

__all__ = ["ParentBlock", "WorkerBlock", "WorkerConfig", "answer", "async_worker"]

STEP = b"S"
STEP_PICKLED = b"P"
#: Results of send/async_reset wait in the worker at most about this long for company.
FLUSH_SECONDS = 2e-4


@dataclass
class WorkerConfig:
    """What a worker needs besides its pipe: its envs' slice and the shared buffers."""

    first_index: int
    factories: bytes | list[Any]
    autoreset_mode: AutoresetMode
    observation_space: Any = None
    obs_buffer: Any = None
    rewards: Any = None
    terminations: Any = None
    truncations: Any = None
    actions: Any = None
    action_space: Any = None
    num_envs: int = 0
    semaphore: Any = None
    extras: dict[str, Any] = field(default_factory=dict)
    #: The class that holds the envs (:class:`WorkerBlock` or a subclass, picklable by name).
    block_type: Any = None
    #: Whether the worker polls for its next command before sleeping: not when the workers
    #: outnumber the cores, where a polling worker holds a core that another one needs.
    polls: bool = True
    #: Threads the block may step its sub-envs on (where :meth:`WorkerBlock.steps_in_threads`;
    #: 1 for any other block).
    threads: int = 1


class WorkerBlock:
    """The sub-environments of one worker and their step/reset logic.

    A vectorizer may step its block by other means (a compiled kernel stepping every
    sub-env at once, say): subclass it, override :meth:`step`, and name the subclass as
    :attr:`AsyncVectorEnv.block_type <palaestra.vector.AsyncVectorEnv.block_type>`. Every
    other command is answered by these methods on the sub-envs themselves, after
    :meth:`settle`.
    """

    def __init__(self, conn: Any, config: WorkerConfig, envs: list[Any]) -> None:
        self.conn = conn
        self.config = config
        self.first = config.first_index
        self.index = self.first
        self.envs = envs
        self.autoreset = [False] * len(self.envs)
        self.durations = [0.0] * len(self.envs)  # each sub-env's last send/async_reset step, in seconds
        self.failures: list[tuple[int, BaseException]] = []  # the last step's or reset's, by sub-env index
        n = config.num_envs
        self.rewards = np.frombuffer(config.rewards, dtype=np.float64, count=n)
        self.terminations = np.frombuffer(config.terminations, dtype=np.bool_, count=n)
        self.truncations = np.frombuffer(config.truncations, dtype=np.bool_, count=n)
        self.actions = None
        if config.actions is not None:
            self.actions = read_from_shared_memory(config.action_space, config.actions, n=n)
        self._views: Any = None
        if config.obs_buffer is not None:
            # One view per sub-env, made once; a plain array space is written by assignment.
            views = read_from_shared_memory(config.observation_space, config.obs_buffer, n=n)
            self._views = views if isinstance(views, np.ndarray) else None
            self._nested = None if self._views is not None else config.obs_buffer

    @classmethod
    def steps_in_threads(cls, env: Any) -> bool:
        """Whether blocks of sub-envs like ``env`` step on several threads outside the GIL.

        ``env`` is one sub-env as the vector env's factories build it. True (a block whose
        compiled kernel takes such envs, say): :class:`AsyncVectorEnv` makes its workers the
        blocks' threads, up to ``THREADS_PER_BLOCK`` a block, and tells each block its share
        as :attr:`WorkerConfig.threads`. False here: one process per worker.
        """
        return False

    @classmethod
    def prepare(cls) -> None:
        """Called in the parent before any worker starts: what is done here, forked workers inherit.

        Nothing here; a block whose kernel checks itself once a process (the Box2D blocks)
        does that check here, so workers started by forking do not repeat it.
        """

    def settle(self) -> None:
        """Bring every sub-env up to date before a command other than a step reads or changes it.

        Nothing to do here: the sub-envs are stepped through their own methods. A block that
        keeps some of their state elsewhere while stepping writes it back here.
        """

    def _put_obs(self, index: int, obs: Any) -> Any:
        if self._views is not None:
            self._views[index] = obs
            return None
        if self.config.obs_buffer is None:
            return obs
        write_to_shared_memory(self.config.observation_space, index, obs, self._nested)
        return None

    def step(self, actions: Any) -> list[tuple[int, Any, dict[str, Any]]]:
        """Step every env of the block; return ``(index, obs or None, info)`` for each.

        A sub-env that raises does not stop the others: every sub-env takes the step, the
        failures are kept in :attr:`failures` (index, exception) and the caller reports them.
        """
        results: list[tuple[int, Any, dict[str, Any]]] = []
        self.failures = []
        for j in range(len(self.envs)):
            try:
                self._step_one(j, actions, results)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as e:
                self.failures.append((self.first + j, e))
        return results

    def _step_one(
        self, j: int, actions: Any, results: list[tuple[int, Any, dict[str, Any]]], quiet: bool = False
    ) -> None:
        env, mode = self.envs[j], self.config.autoreset_mode
        i = self.index = self.first + j
        if mode is AutoresetMode.NEXT_STEP and self.autoreset[j]:
            obs, info = env.reset()
            reward, terminated, truncated = 0.0, False, False
        else:
            if mode is AutoresetMode.DISABLED and self.autoreset[j]:
                raise RuntimeError(
                    f"Sub-env {i} ended its episode and autoreset_mode is DISABLED; reset it with "
                    "reset(options={'reset_mask': mask}) before stepping again"
                )
            action = actions[j] if actions is not None else self._shared_action(i)
            obs, reward, terminated, truncated, info = env.step(action)
            if mode is AutoresetMode.SAME_STEP and (terminated or truncated):
                # Gymnasium's AsyncVectorEnv order: final_info before final_obs.
                results.append((i, None, {"final_info": info, "final_obs": obs}))
                obs, info = env.reset()
        self.rewards[i], self.terminations[i], self.truncations[i] = reward, terminated, truncated
        self.autoreset[j] = bool(terminated or truncated)
        shared = self._put_obs(i, obs)
        if not quiet or info or shared is not None:  # quiet: only what shared memory lacks
            results.append((i, shared, info))

    def _shared_action(self, i: int) -> Any:
        assert self.actions is not None
        action = self.actions[i]
        return action.copy() if action.ndim else action[()]

    def reset(self, payload: tuple[list[Any], Any, Any]) -> list[tuple[int, Any, dict[str, Any]]]:
        """Reset the envs selected by the mask with their seeds.

        As in :meth:`step`, a sub-env that raises does not stop the others: each is reset
        (so none is left silently mid-episode) and the failures go to :attr:`failures`.
        """
        seeds, options, mask = payload
        results = []
        self.failures = []
        for j, env in enumerate(self.envs):
            i = self.index = self.first + j
            if mask is not None and not mask[i]:
                continue
            try:
                obs, info = env.reset(seed=seeds[j], options=options)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as e:
                self.failures.append((i, e))
                continue
            self.autoreset[j] = False
            self.terminations[i] = self.truncations[i] = False
            results.append((i, self._put_obs(i, obs), info))
        return results

    def some(self, payload: tuple[str, list[Any], Any]) -> bytes:
        """Step or reset some sub-envs (send/async_reset), reporting results as they finish.

        Each ``("part", finished, results, errors, done)`` message names the sub-envs whose
        result is complete (observation, reward and flags in shared memory), with
        ``(index, obs or None, info)`` for those that also have an info or an observation
        that is not shared (a SAME_STEP final comes first, as in a step). Results of quick
        sub-envs go together; once the unsent ones took :data:`FLUSH_SECONDS`, they go at
        once, so a slow sub-env does not hold back those done before it. The last part,
        ``done`` True, is returned; earlier ones go through :attr:`emit`. Actions are read
        from shared memory when ``items`` holds indices alone.
        """
        kind, items, options = payload
        clock = time.perf_counter
        finished: list[int] = []
        results: list[tuple[int, Any, dict[str, Any]]] = []
        errors: list[tuple[Any, ...]] = []
        actions: list[Any] | None = None
        since = started = clock()
        last = len(items) - 1
        for position, item in enumerate(items):
            pickled = isinstance(item, tuple)  # (index, action or seed); an index alone: shared action
            i: int = item[0] if pickled else item
            value = item[1] if pickled else None
            j = i - self.first
            self.index = i
            try:
                if kind == "reset":
                    obs, info = self.envs[j].reset(seed=value, options=options)
                    self.autoreset[j] = False
                    self.rewards[i], self.terminations[i], self.truncations[i] = 0.0, False, False
                    results.append((i, self._put_obs(i, obs), info))
                else:
                    if pickled:  # the action of sub-env j in its place
                        actions = actions or [None] * len(self.envs)
                        actions[j] = value
                    self._step_one(j, actions if pickled else None, results, quiet=True)
                finished.append(i)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as e:
                errors.append(error_record(i, e))
            now = clock()
            self.durations[j] = now - started
            started = now
            # Send what is done before a sub-env whose last step was slow, or once it waited long.
            if position < last and (
                now - since >= FLUSH_SECONDS
                or self.durations[_item_index(items[position + 1]) - self.first] >= FLUSH_SECONDS
            ):
                self.emit(pickle.dumps(("part", finished, results, errors, False)))
                finished, results, errors, since = [], [], [], now
        return pickle.dumps(("part", finished, results, errors, True))

    def emit(self, data: bytes) -> None:
        """Send a part of a reply before the reply itself (the parent's block keeps it instead)."""
        self.conn.send_bytes(data)

    def call(self, payload: tuple[str, tuple[Any, ...], dict[str, Any]]) -> list[Any]:
        """Call (or read) an attribute on every env of the block."""
        name, args, kwargs = payload
        out = []
        for j, env in enumerate(self.envs):
            self.index = self.first + j
            value = env.get_wrapper_attr(name)
            out.append(value(*args, **kwargs) if callable(value) else value)
        return out

    def snapshot(self, _: Any) -> list[tuple[Any, bool]]:
        """Each env's snapshot and whether it awaits an autoreset."""
        out = []
        for j, env in enumerate(self.envs):
            self.index = self.first + j
            out.append((env.snapshot(), self.autoreset[j]))
        return out

    def restore(self, payload: tuple[list[Any], list[bool]]) -> None:
        """Restore every env of the block, after checking that each snapshot fits."""
        snapshots, pending = payload
        for j, env in enumerate(self.envs):
            self.index = self.first + j
            env._check_snapshot(snapshots[j])
        for j, env in enumerate(self.envs):
            self.index = self.first + j
            env._restore_snapshot(snapshots[j])
        self.autoreset = list(pending)

    def set_attr(self, payload: tuple[str, list[Any]]) -> None:
        """Set an attribute on every env of the block."""
        name, values = payload
        for j, env in enumerate(self.envs):
            self.index = self.first + j
            env.set_wrapper_attr(name, values[j])

    def spaces(self, _: Any) -> list[tuple[Any, Any, dict[str, Any], Any]]:
        """Each env's spaces, metadata and render mode (checked by the parent)."""
        return [(e.observation_space, e.action_space, dict(e.metadata), e.render_mode) for e in self.envs]

    def close(self) -> list[tuple[Any, ...]]:
        """Close every env (once); the failures, as error records, after all were closed."""
        failures = []
        envs, self.envs = self.envs, []
        for j, env in enumerate(envs):
            try:
                env.close()
            except Exception as e:  # closing one must not stop the others
                failures.append(error_record(self.first + j, e))
        return failures


def _item_index(item: Any) -> int:
    """The sub-env index of an item of a ``some`` command."""
    return item[0] if isinstance(item, tuple) else item  # type: ignore[no-any-return]


def error_record(index: int, error: BaseException) -> tuple[Any, ...]:
    """``(index, type name, message, traceback, pickled exception or None)`` of a failure."""
    blob: bytes | None
    try:
        blob = pickle.dumps(error)
        pickle.loads(blob)
    except Exception:  # unpicklable exceptions are sent as text
        blob = None
    text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    return (index, type(error).__name__, str(error), text, blob)


def _error_reply(failures: list[tuple[int, BaseException]]) -> bytes:
    return pickle.dumps(("error", [error_record(index, error) for index, error in failures]))


def answer(block: WorkerBlock, message: bytes) -> tuple[bytes, bool]:
    """The reply to one command, and whether it closed the block.

    The body of a worker's loop; the parent runs it too for the block it steps itself
    (``AsyncVectorEnv(..., in_parent=True)``). A failure becomes an ``"error"`` reply.
    """
    try:
        if message == STEP or message[:1] == STEP_PICKLED:
            results = block.step(None if message == STEP else pickle.loads(message[1:]))
            if block.failures:
                return _error_reply(block.failures), False
            reported = [r for r in results if r[2] or r[1] is not None]
            return (pickle.dumps(("ok", reported)) if reported else b""), False
        command, payload = pickle.loads(message)
        block.settle()
        if command == "close":
            return pickle.dumps(("ok", block.close())), True
        if command == "some":
            return block.some(payload), False
        handlers: dict[str, Callable[[Any], Any]] = {
            "reset": block.reset,
            "call": block.call,
            "setattr": block.set_attr,
            "spaces": block.spaces,
            "snapshot": block.snapshot,
            "restore": block.restore,
        }
        reply = handlers[command](payload)
        if command == "reset" and block.failures:
            return _error_reply(block.failures), False
        return pickle.dumps(("ok", reply)), False
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:
        return _error_reply([(block.index, e)]), False


def _serve(conn: Any, block: WorkerBlock) -> None:
    semaphore = block.config.semaphore
    polls = block.config.polls
    fast = polls
    spin = SPIN_SECONDS if polls else 0.0
    clock = time.perf_counter
    while True:
        # Commands of a fast stepping loop arrive within microseconds: poll before sleeping.
        message, fast = read_soon(conn, fast, spin)
        if semaphore is not None:
            semaphore.acquire()
        try:
            started = clock()
            reply, closed = answer(block, message)
            # Keep polling after heavy steps too, for about as long as a step (or a send's
            # steps): the next command follows the slowest worker's reply, and a sleeping
            # worker would pay a process wake-up (0.1 ms on a VM's idle core) on every step.
            # Polling yields the core between checks.
            if polls:
                spin = polling_window(clock() - started)
            conn.send_bytes(reply)
            if closed:
                return
        finally:
            if semaphore is not None:
                semaphore.release()


def async_worker(conn: Any, parent_conn: Any, config: WorkerConfig) -> None:
    """Entry point of a worker process (pass a replacement as ``worker=`` to customise).

    Args:
        conn: The worker's end of the pipe.
        parent_conn: The parent's end, closed here so EOF is seen when the parent dies.
        config: The worker's envs and shared buffers.
    """
    # Ctrl-C goes to the whole process group; the parent decides when workers stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent_conn is not None:
        parent_conn.close()
    try:
        block = _build(conn, config)
        if block is None:
            return
        conn.send_bytes(pickle.dumps(("ok", "ready")))
        try:
            _serve(conn, block)
        finally:
            block.close()
    except (EOFError, BrokenPipeError, ConnectionResetError):
        pass  # the parent went away; exit quietly


def _build(conn: Any, config: WorkerConfig) -> WorkerBlock | None:
    """Build the block's envs; report a failure (naming the env) and return None."""
    envs: list[Any] = []
    try:
        factories = config.factories if isinstance(config.factories, list) else pickle.loads(config.factories)
        for factory in factories:
            envs.append(factory())
        return (config.block_type or WorkerBlock)(conn, config, envs)
    except BaseException as e:
        conn.send_bytes(_error_reply([(config.first_index + len(envs), e)]))
        for env in envs:
            env.close()
        return None


class ParentBlock:
    """The block of sub-envs the parent steps itself, and the command it has yet to run."""

    def __init__(self, block: WorkerBlock, indices: tuple[int, ...]) -> None:
        self.block = block
        self.indices = indices
        self.pending: bytes | None = None
        self.parts: list[bytes] = []  # what its send/async_reset commands emitted before their reply
        block.emit = self.parts.append  # type: ignore[method-assign,assignment]
        self.seconds = 0.0  # how long the last command took

    def run(self) -> Any:
        """Run the pending command; its unpickled reply (``("ok", [])`` for a quiet step), or None."""
        message, self.pending = self.pending, None
        if message is None:
            return None
        started = time.perf_counter()
        reply, _ = answer(self.block, message)
        self.seconds = time.perf_counter() - started
        return pickle.loads(reply) if reply else ("ok", [])

    def reply_window(self) -> float:
        """How long to poll for the workers' replies after this block's command.

        The workers ran blocks as long as this one: they answer about now, so the parent
        polls for a while (its core has nothing else to do) rather than sleep and pay a
        wake-up (0.1 ms or more on a VM) when they do.
        """
        return polling_window(self.seconds)
