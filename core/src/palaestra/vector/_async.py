"""AsyncVectorEnv: sub-environments in worker processes, several per worker."""

from __future__ import annotations

import multiprocessing as mp
import pickle
import time
import weakref
from collections.abc import Callable, Sequence
from copy import deepcopy
from typing import Any, ClassVar

import numpy as np

from palaestra import logger
from palaestra._base._arguments import check_timeout
from palaestra._env._core import Env
from palaestra._env._snapshot import Snapshot, VectorSnapshot, vector_restore_plan
from palaestra._env._suite import step_before_reset
from palaestra.error import (
    AlreadyPendingCallError,
    ClosedEnvironmentError,
    NoAsyncCallError,
    VectorTimeoutError,
    WorkerDiedError,
)
from palaestra.spaces import Space
from palaestra.spaces._batching import concatenate
from palaestra.vector._async_buffers import allocate
from palaestra.vector._async_calls import AsyncState, closes_if_interrupted
from palaestra.vector._async_recv import AsyncEngine
from palaestra.vector._autoreset import per_env_values, reset_arguments, resolve_autoreset_mode
from palaestra.vector._cores import usable_cores
from palaestra.vector._info import add_info
from palaestra.vector._main_guard import check_main_guard, main_script_hidden
from palaestra.vector._processes import (
    Worker,
    check_arguments,
    fork_safe_context,
    plan_blocks,
    raise_failures,
    reap,
    receive,
    send,
    shutdown,
)
from palaestra.vector._spaces import actions_per_env, batched_spaces
from palaestra.vector._vector_env import AutoresetMode, SubEnvVectorEnv
from palaestra.vector._worker import STEP, STEP_PICKLED, ParentBlock, WorkerBlock, WorkerConfig, async_worker
from palaestra.vector.utils._mpi import clear_mpi_env_vars
from palaestra.vector.utils._pickling import ship_factories
from palaestra.vector.utils._shared_memory import read_from_shared_memory

__all__ = ["AsyncState", "AsyncVectorEnv"]

CLOSE_GRACE = 2.0


#: The least time the workers get to build their sub-envs when ``step_timeout`` is set.
STARTUP_SECONDS = 60.0


class AsyncVectorEnv(SubEnvVectorEnv[Any, Any, np.ndarray]):
    """Run sub-environments in worker processes, ``num_workers`` of them.

    Each worker owns a contiguous block of sub-envs and steps them in a loop, so cheap
    envs pay the inter-process cost once per worker rather than once per env. Actions
    (when numeric and of the action space's dtype), observations, rewards and flags travel
    through shared memory; the pipes carry one-byte commands and, only when a sub-env
    reports one, its info. Waiting blocks on the pipe and the process sentinel, so a dead
    worker is noticed at once and nothing spins.

    Args:
        env_fns: Functions that each build one sub-environment.
        shared_memory: Pass observations through shared memory (numeric spaces only).
        copy: Return copies of the batched observations.
        context: ``"fork"``, ``"spawn"`` or ``"forkserver"``. None: the platform's default, except
            ``"forkserver"`` once JAX is imported (forking its threads can deadlock).
        daemon: Run workers as daemons (they die with the parent).
        worker: Replacement for :func:`palaestra.vector.async_worker` (same signature).
        observation_mode: ``"same"``, ``"different"`` or a ``(batched, single)`` pair.
        autoreset_mode: An :class:`AutoresetMode` or its value.
        max_concurrency: At most this many workers execute commands at the same time.
        num_workers: Blocks of sub-envs, one per worker (default: the cores this process may
            use, its affinity capped by a cgroup CPU quota; at most ``len(env_fns)``). Where
            the :attr:`block_type` steps its sub-envs on threads outside the GIL
            (:meth:`WorkerBlock.steps_in_threads <palaestra.vector.WorkerBlock.steps_in_threads>`),
            the workers are the blocks' threads, up to ``THREADS_PER_BLOCK`` a block.
        step_timeout: Default timeout in seconds for every ``*_wait`` (None waits forever);
            building the sub-envs at construction gets at least :data:`STARTUP_SECONDS`.
        in_parent: Step the last block in this process, in ``*_wait`` while the worker
            processes step theirs: one process fewer, and no core idles while the parent
            waits. That block's sub-envs live here (they cannot time out or die alone).
    """

    def __init__(
        self,
        env_fns: Sequence[Callable[[], Env[Any, Any]]],
        shared_memory: bool = True,
        copy: bool = True,
        context: str | None = None,
        daemon: bool = True,
        worker: Callable[..., None] | None = None,
        observation_mode: str | tuple[Space[Any], Space[Any]] = "same",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        max_concurrency: int | None = None,
        num_workers: int | None = None,
        step_timeout: float | None = None,
        in_parent: bool = False,
    ) -> None:
        self._workers: list[Worker] = []
        self._local: ParentBlock | None = None
        self.closed = False
        self._reaped = False  # every worker is stopped: closing is complete
        self._closed_because: str | None = None  # set when an interrupt forced a close
        self._state = AsyncState.DEFAULT
        self._has_reset = False  # step before any reset is refused here, once, not by each sub-env
        check_arguments(env_fns, context, max_concurrency, num_workers, step_timeout, copy)
        self.env_fns = env_fns
        self.shared_memory = shared_memory
        self.copy = copy
        self.context = context if context is not None else fork_safe_context(env_fns)
        self.daemon = daemon
        self.worker = worker or async_worker
        self.observation_mode = observation_mode
        self.autoreset_mode = resolve_autoreset_mode(autoreset_mode)
        self.max_concurrency = max_concurrency
        self.step_timeout = check_timeout(step_timeout, "step_timeout")
        self.num_envs = len(env_fns)
        cores = usable_cores()
        # One worker per core this process may use (its affinity and CPU quota), never more than sub-envs.
        self.num_workers = min(num_workers or cores, self.num_envs)
        # More workers than cores: none polls for its next message (each would hold a core
        # another needs), so the coordination does not grow with the number of workers.
        self._polls = self.num_workers <= cores
        self.in_parent = bool(in_parent)
        ctx = mp.get_context(self.context)
        threaded = self._describe_spaces(env_fns[0])
        self._blocks, self._block_threads = plan_blocks(self.num_envs, self.num_workers, cores, threaded)
        self.num_blocks = len(self._blocks)
        if self.num_blocks > 1 or not self.in_parent:  # some worker process will start
            check_main_guard(ctx.get_start_method(), type(self).__name__)
        self._allocate(ctx)
        self.block_type.prepare()
        self._start(ctx)
        if self.in_parent:
            self._build_local()
        self._finalizer = weakref.finalize(self, shutdown, self._workers, 0.0, False)
        self._check_worker_spaces()

    recv_engine = AsyncEngine
    #: What holds each block's sub-envs (a WorkerBlock subclass may step them by other means).
    block_type: ClassVar[type[WorkerBlock]] = WorkerBlock

    # -- construction -----------------------------------------------------------------

    def _describe_spaces(self, env_fn: Callable[[], Env[Any, Any]]) -> bool:
        """Spaces and metadata from one env built here; whether the blocks will step in threads."""
        # One env in this process gives the spaces needed to size the shared buffers.
        probe = env_fn()
        try:
            self.metadata = dict(probe.metadata)
            self.metadata["autoreset_mode"] = self.autoreset_mode
            self.render_mode = probe.render_mode
            self._probe_spaces = (probe.observation_space, probe.action_space)
            return self.block_type.steps_in_threads(probe)
        finally:
            probe.close()

    def _allocate(self, ctx: Any) -> None:
        obs_space, act_space = self._probe_spaces
        if isinstance(self.observation_mode, tuple):
            self.observation_space, self.single_observation_space = self.observation_mode
        else:
            self.single_observation_space = obs_space
        self.single_action_space = act_space
        shared = allocate(
            self.single_observation_space,
            act_space,
            self.num_envs,
            ctx,
            self.shared_memory,
            type(self).__name__,
        )
        self._obs_buffer, self.observations, self._reread_obs = (
            shared.obs_buffer,
            shared.observations,
            shared.reread_obs,
        )
        self._rewards_buffer, self._flags_buffers = shared.rewards_buffer, shared.flags_buffers
        self._rewards, self._terminations, self._truncations = (
            shared.rewards,
            shared.terminations,
            shared.truncations,
        )
        self._actions_buffer, self._action_view = shared.actions_buffer, shared.action_view
        self._env_obs: list[Any] = [None] * self.num_envs

    def _start(self, ctx: Any) -> None:
        fork = ctx.get_start_method() == "fork"
        semaphore = ctx.BoundedSemaphore(self.max_concurrency) if self.max_concurrency else None
        blocks = self._blocks[:-1] if self.in_parent else self._blocks
        for w, block in enumerate(blocks):
            config = self._config(block, fork, semaphore)
            parent, child = ctx.Pipe(duplex=True)
            process = ctx.Process(
                target=self.worker,
                name=f"Worker<AsyncVectorEnv>-{w}",
                args=(child, parent, config),
                daemon=self.daemon,
            )
            with clear_mpi_env_vars(), main_script_hidden():
                process.start()
            child.close()
            self._workers.append(Worker(process, parent, tuple(block)))
        self.processes = [w.process for w in self._workers]
        self.parent_pipes = [w.conn for w in self._workers]

    def _config(self, block: range, fork: bool, semaphore: Any) -> WorkerConfig:
        return WorkerConfig(
            first_index=block.start,
            factories=ship_factories(self.env_fns, block, fork, self.context),
            autoreset_mode=self.autoreset_mode,
            observation_space=self.single_observation_space,
            obs_buffer=self._obs_buffer,
            rewards=self._rewards_buffer,
            terminations=self._flags_buffers[0],
            truncations=self._flags_buffers[1],
            actions=self._actions_buffer,
            action_space=self.single_action_space,
            num_envs=self.num_envs,
            semaphore=semaphore,
            block_type=self.block_type,
            polls=self._polls,
            threads=self._block_threads[self._blocks.index(block)],
        )

    def _build_local(self) -> None:
        """The parent's own block (the last one), built after the workers started theirs."""
        block = self._blocks[-1]
        envs: list[Env[Any, Any]] = []
        try:
            for fn in self.env_fns[block.start : block.stop]:
                envs.append(fn())
        except BaseException:
            for env in envs:
                env.close()
            self.close(terminate=True)
            raise
        config = self._config(block, True, None)  # "fork": its factories are never pickled
        self._local = ParentBlock(self.block_type(None, config, envs), tuple(block))

    def _check_worker_spaces(self) -> None:
        # Building the sub-envs (and starting workers from a fork server) may take far longer
        # than a step: step_timeout bounds it only when it is longer than STARTUP_SECONDS.
        startup = None if self.step_timeout is None else max(self.step_timeout, STARTUP_SECONDS)
        try:
            self._gather(self._deadline(startup), lambda reply: None)
            per_env: list[Any] = []
            self._send_all(("spaces", None))
            self._gather(self._deadline(startup), per_env.extend)
        except BaseException:
            self.close(terminate=True)
            raise
        obs_spaces = [s[0] for s in per_env]
        act_spaces = [s[1] for s in per_env]
        mode = "custom" if isinstance(self.observation_mode, tuple) else self.observation_mode
        try:
            spaces = batched_spaces(
                obs_spaces, act_spaces, mode if mode != "custom" else self.observation_mode, "AsyncVectorEnv"
            )
        except (RuntimeError, ValueError, TypeError):
            self.close(terminate=True)
            raise
        if not isinstance(self.observation_mode, tuple):
            self.single_observation_space, self.observation_space = spaces[0], spaces[1]
        self.action_space = spaces[3]

    # -- messaging ----------------------------------------------------------------------

    def _deadline(self, timeout: float | None) -> float | None:
        seconds = self.step_timeout if timeout is None else check_timeout(timeout, "timeout")
        return None if seconds is None else time.monotonic() + seconds

    def _send_all(self, message: Any) -> None:
        data = message if isinstance(message, bytes) else pickle.dumps(message)
        for target in self._targets():
            self._send(target, data)

    def _targets(self) -> list[Worker | ParentBlock]:
        """Every block's holder, in sub-env order: the workers, then the parent's own block."""
        return [*self._workers, self._local] if self._local is not None else list(self._workers)

    def _send(self, worker: Worker | ParentBlock, data: bytes) -> None:
        """Send to one worker; a dead worker closes the vector env and is named in the error.

        The parent's own block keeps the command until :meth:`_gather` runs it.
        """
        if isinstance(worker, ParentBlock):
            worker.pending = data
            return
        try:
            send(worker, data)
        except WorkerDiedError:
            self._state = AsyncState.DEFAULT
            self.close(terminate=True)
            raise

    def _gather(self, deadline: float | None, sink: Callable[[Any], None]) -> None:
        """Collect one reply from every worker, then log every sub-env error and raise the first.

        The parent's own block runs its command first (while the workers run theirs); its
        reply is taken last, in sub-env order.
        """
        errors: list[tuple[Any, ...]] = []
        local = self._local.run() if self._local is not None else None
        spin = self._local.reply_window() if self._local is not None else None
        if not self._polls:
            spin = 0.0
        for worker in self._workers:
            try:
                reply = receive(worker, deadline, spin)
            except (WorkerDiedError, VectorTimeoutError):
                self._state = AsyncState.DEFAULT
                self.close(terminate=True)
                raise
            if reply is None:
                continue
            if reply[0] == "error":
                errors.extend(reply[1])
            else:
                sink(reply[1])
        if local is not None:
            if local[0] == "error":
                errors.extend(local[1])
            else:
                sink(local[1])
        if errors:
            self._state = AsyncState.DEFAULT
            raise_failures(errors, "AsyncVectorEnv", "")

    def _closed_error(self, name: str) -> ClosedEnvironmentError:
        reason = self._closed_because
        why = f" (closed because {reason})" if reason else ""
        return ClosedEnvironmentError(
            f"Trying to operate on `{type(self).__name__}`, after a call to `close()`. `{name}` needs a "
            f"running env{why}; make a new one."
        )

    def _assert_ready(self, name: str, engine: bool = True) -> None:
        if self.closed:
            raise self._closed_error(name)
        if engine:  # send/recv results outstanding: calls on every sub-env wait for recv
            self._check_no_results_outstanding(name)
        if self._state is not AsyncState.DEFAULT:
            raise AlreadyPendingCallError(
                # Gymnasium ends each of these messages with a period, except reset_async's
                f"Calling `{name}` while waiting for a pending call to `{self._state.value}` to complete"
                + ("" if name == "reset_async" else "."),
                str(self._state.value),
            )

    def _assert_waiting(self, state: AsyncState, name: str) -> None:
        if self.closed:
            raise self._closed_error(name)
        if self._state is not state:
            raise NoAsyncCallError(
                f"Calling `{name}` without any prior call to `{state.value}_async`.", str(state.value)
            )

    # -- reset ----------------------------------------------------------------------------

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset sub-envs (all, or those in ``options["reset_mask"]``)."""
        self.reset_async(seed=seed, options=options)
        return self.reset_wait()

    @closes_if_interrupted
    def reset_async(
        self, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> None:
        """Send the reset to the workers without waiting."""
        self._assert_ready("reset_async")
        seeds, options, mask = reset_arguments(seed, options, self.num_envs)
        self._has_reset = True
        for worker in self._targets():
            payload = ([seeds[i] for i in worker.indices], options, mask)
            self._send(worker, pickle.dumps(("reset", payload)))
        self._state = AsyncState.WAITING_RESET

    @closes_if_interrupted
    def reset_wait(self, timeout: float | None = None) -> tuple[Any, dict[str, Any]]:
        """Wait for the reset; ``timeout`` seconds (default ``step_timeout``)."""
        self._assert_waiting(AsyncState.WAITING_RESET, "reset_wait")
        infos: dict[str, Any] = {}
        self._gather(self._deadline(timeout), lambda results: self._collect(results, infos))
        self._state = AsyncState.DEFAULT
        return self._batched_observations(), infos

    # -- step -----------------------------------------------------------------------------

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every sub-env."""
        self.step_async(actions)
        return self.step_wait()

    @closes_if_interrupted
    def step_async(self, actions: Any) -> None:
        """Send the actions to the workers without waiting."""
        self._assert_ready("step_async")
        if not self._has_reset:
            raise step_before_reset(self)
        view = self._action_view
        if (
            view is not None
            and isinstance(actions, np.ndarray)
            and actions.dtype == view.dtype
            and actions.shape == view.shape
        ):
            np.copyto(view, actions)
            self._send_all(STEP)
        else:
            per_env = actions_per_env(self.action_space, actions, self.num_envs, type(self).__name__)
            for worker in self._targets():
                chunk = [per_env[i] for i in worker.indices]
                self._send(worker, STEP_PICKLED + pickle.dumps(chunk))
        self._state = AsyncState.WAITING_STEP

    @closes_if_interrupted
    def step_wait(
        self, timeout: float | None = None
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Wait for the step; ``timeout`` seconds (default ``step_timeout``)."""
        self._assert_waiting(AsyncState.WAITING_STEP, "step_wait")
        infos: dict[str, Any] = {}
        self._gather(self._deadline(timeout), lambda results: self._collect(results, infos))
        self._state = AsyncState.DEFAULT
        return (
            self._batched_observations(),
            self._rewards.copy(),
            self._terminations.copy(),
            self._truncations.copy(),
            infos,
        )

    def _collect(self, results: list[tuple[int, Any, dict[str, Any]]], infos: dict[str, Any]) -> None:
        for index, obs, info in results:
            if obs is not None:
                self._env_obs[index] = obs
            if info:
                add_info(infos, info, index, self.num_envs)

    def _batched_observations(self) -> Any:
        if not self.shared_memory:
            self.observations = concatenate(self.single_observation_space, self._env_obs, self.observations)
        elif self._reread_obs:  # strings and OneOf pairs are read as new objects, not views
            self.observations = read_from_shared_memory(
                self.single_observation_space, self._obs_buffer, n=self.num_envs
            )
        if not self.copy:
            return self.observations
        if isinstance(self.observations, np.ndarray):
            return self.observations.copy()
        return deepcopy(self.observations)

    # -- call / attributes ------------------------------------------------------------------

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call method ``name`` on every sub-env (or read the attribute)."""
        self.call_async(name, *args, **kwargs)
        return self.call_wait()

    @closes_if_interrupted
    def call_async(self, name: str, /, *args: Any, **kwargs: Any) -> None:
        """Send the call to the workers without waiting.

        ``name`` is positional-only, so the method called may itself take a ``name`` keyword.
        """
        self._assert_ready("call_async")
        self._send_all(("call", (name, args, kwargs)))
        self._state = AsyncState.WAITING_CALL

    @closes_if_interrupted
    def call_wait(self, timeout: float | None = None) -> tuple[Any, ...]:
        """Wait for the call's results, one per sub-env."""
        self._assert_waiting(AsyncState.WAITING_CALL, "call_wait")
        results: list[Any] = []
        self._gather(self._deadline(timeout), results.extend)
        self._state = AsyncState.DEFAULT
        return tuple(results)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute ``name`` of every sub-env."""
        return self.call(name)

    @closes_if_interrupted
    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | Any) -> None:
        """Set ``name`` on every sub-env (one value for all, or one per sub-env)."""
        self._assert_ready("set_attr")
        values = per_env_values(values, self.num_envs)
        for worker in self._targets():
            self._send(worker, pickle.dumps(("setattr", (name, [values[i] for i in worker.indices]))))
        self._gather(self._deadline(None), lambda _: None)

    def render(self) -> tuple[Any, ...]:
        """Each sub-env's frame."""
        return self.call("render")

    # -- snapshots ----------------------------------------------------------------------------

    @closes_if_interrupted
    def snapshot(self) -> VectorSnapshot:
        """Save every sub-env's state (taken in the workers, pickled back to the parent)."""
        self._assert_ready("snapshot")
        self._send_all(("snapshot", None))
        saved: list[tuple[Snapshot, bool]] = []
        self._gather(self._deadline(None), saved.extend)
        return VectorSnapshot(tuple(s for s, _ in saved), tuple(p for _, p in saved))

    @closes_if_interrupted
    def restore(self, snapshot: VectorSnapshot | Snapshot | Sequence[Snapshot]) -> None:
        """Return the sub-envs to a saved state (see :meth:`VectorEnv.restore`).

        Each worker checks its sub-envs' snapshots before changing them; when one does not
        fit, sub-envs of other workers may already be restored, so restore a fitting
        snapshot before stepping on.
        """
        self._assert_ready("restore")
        snapshots, pending = vector_restore_plan(snapshot, self.num_envs)
        for worker in self._targets():
            part = ([snapshots[i] for i in worker.indices], [pending[i] for i in worker.indices])
            self._send(worker, pickle.dumps(("restore", part)))
        self._gather(self._deadline(None), lambda _: None)

    # -- closing ----------------------------------------------------------------------------

    def close_extras(self, timeout: float | None = None, terminate: bool = False, **kwargs: Any) -> None:
        """Stop the workers: finish a pending call, ask them to close, then force.

        Args:
            timeout: Seconds to wait for a pending call and for the workers to close.
            terminate: Skip the graceful close and terminate the workers at once.
            **kwargs: Ignored (accepted for signature compatibility).

        Raises:
            Exception: A sub-env's ``close`` raised (the first; all are logged), after every
                sub-env was closed and every worker stopped.
        """
        workers = getattr(self, "_workers", [])
        graceful = not terminate and all(w.process.is_alive() for w in workers)
        engine = self.__dict__.get("_recv")
        if graceful and engine is not None and any(engine.due):  # results in flight: take them first
            graceful = engine.drain(CLOSE_GRACE if timeout is None else timeout)
        if self._state is not AsyncState.DEFAULT:
            logger.warn(
                f"Calling `close` while waiting for a pending call to `{self._state.value}` to complete."
            )
        if graceful and self._state is not AsyncState.DEFAULT:
            try:
                self._gather(self._deadline(timeout if timeout is not None else CLOSE_GRACE), lambda _: None)
            except Exception:
                graceful = False
        self._state = AsyncState.DEFAULT
        failures = shutdown(workers, CLOSE_GRACE if timeout is None else timeout, graceful)
        if self._local is not None:
            local, self._local = self._local, None
            failures += local.block.close()
        self._finish_close()
        raise_failures(failures, "AsyncVectorEnv", "close")

    def close(self, **kwargs: Any) -> None:
        """Close the workers.

        Re-entrant: whatever interrupts it (a second Ctrl-C included), it ends with every
        worker stopped (terminated, then killed after the grace period), and calling it
        again afterwards does nothing. A sub-env's close error is raised once every sub-env
        was closed.
        """
        if self._reaped:
            return
        self.closed = True
        try:
            self.close_extras(**kwargs)
        finally:
            self._finish_close()

    def _finish_close(self) -> None:
        """Make sure no worker is left (kills through interrupts); closing is then done."""
        reap(getattr(self, "_workers", []))
        self._reaped = True
        finalizer = getattr(self, "_finalizer", None)
        if finalizer is not None:
            finalizer.detach()
