"""RayVectorEnv: sub-environments in Ray actors, a contiguous block per actor."""

from __future__ import annotations

import contextlib
import copy as copy_module
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from palaestra import Env
from palaestra.error import (
    AlreadyPendingCallError,
    ClosedEnvironmentError,
    NoAsyncCallError,
    VectorTimeoutError,
    WorkerDiedError,
)
from palaestra.plugin import (
    AutoresetMode,
    Snapshot,
    SubEnvVectorEnv,
    VectorSnapshot,
    actions_per_env,
    batch_differing_spaces,
    batch_space,
    batched_spaces,
    check_timeout,
    concatenate,
    create_empty_array,
    logger,
    per_env_values,
    reset_arguments,
    resolve_autoreset_mode,
    split_blocks,
    vector_restore_plan,
)
from palaestra.spaces import Space
from palaestra_ray._merge import join_observations, merge_infos
from palaestra_ray._placement import (
    ActorOptions,
    ActorsNotPlacedError,
    actor_state,
    alive_node_ids,
    not_placed_error,
    options_per_actor,
    placement_plan,
)
from palaestra_ray._recv import RayEngine
from palaestra_ray._restart import replace_lost, restart
from palaestra_ray._runtime import (
    _cluster_cpus,
    _describe,
    _first_line,
    _ray,
    _remote_block,
    _reraise,
    _start_ray,
)

__all__ = ["RayVectorEnv"]

CLOSE_GRACE = 5.0
#: What a lost actor does: end the run, or be rebuilt (see RayVectorEnv's on_actor_failure).
FAILURE_MODES = ("raise", "restart")
#: Seconds the actors get to be scheduled and build their sub-envs, unless told otherwise.
BUILD_TIMEOUT = 60.0


# Ray's actor states before an actor runs anywhere.
class RayVectorEnv(SubEnvVectorEnv[Any, Any, np.ndarray]):
    """Run sub-environments in Ray actors, on this machine or across a Ray cluster.

    Each actor runs a contiguous block of sub-envs as a :class:`~palaestra.vector.SyncVectorEnv`
    and the batches are joined here, so observations, rewards, flags, infos and autoreset
    behave as a SyncVectorEnv of the same env functions does. A step costs a Ray round
    trip (about a millisecond), so use it for envs whose steps are slow or for more envs
    than one machine holds; for cheap envs on one machine, AsyncVectorEnv is faster.

    Ray is started with ``ray.init(**ray_init_kwargs)`` when it is not running yet, and
    left running when this env closes (``ray.shutdown()`` stops it).

    Args:
        env_fns: Functions that each build one sub-environment; Ray pickles them to the
            actors (with cloudpickle, so lambdas work).
        num_actors: Number of actors (default: the cluster's CPU count, at most
            ``len(env_fns)``).
        actor_options: Ray actor options, as ``ActorClass.options(**options)`` takes them
            (``num_cpus``, ``resources``, ``scheduling_strategy``, ``runtime_env``...): one dict
            for every actor, a sequence of dicts (one per actor), or a function
            ``actor_index -> dict``. An actor that names ``resources`` but no ``num_cpus``
            holds 1 CPU (Ray's default); give ``num_cpus=0`` to place it by the resource alone.
        placement: Where the actors go: ``"pack"`` (as few nodes as possible, a PACK
            placement group), ``"spread"`` (evenly over the alive nodes, exactly: a
            STRICT_SPREAD placement group with one bundle per node), a list of node ids
            (``ray.nodes()[i]["NodeID"]``; actor k on node ``k % len``), or None (Ray decides).
        ray_init_kwargs: Arguments of ``ray.init`` when this env starts Ray (e.g.
            ``{"address": "auto"}`` to join a cluster); ignored, with a warning, when Ray runs.
        copy: Return new observation arrays (else one buffer, overwritten every step).
        observation_mode: ``"same"``, ``"different"`` or a ``(batched, single)`` pair.
        autoreset_mode: An :class:`~palaestra.vector.AutoresetMode` or its value.
        step_timeout: Default timeout in seconds for every ``*_wait`` (None waits forever).
        build_timeout: Seconds for the actors to be scheduled and build their sub-envs (None
            waits forever). Past it, actors Ray never scheduled raise
            :class:`~palaestra_ray.ActorsNotPlacedError` (a ``VectorTimeoutError``) saying what
            they asked for and what the cluster has free; actors stuck building raise
            ``VectorTimeoutError`` naming their sub-envs.
        on_actor_failure: What a lost actor (killed, crashed, its node gone) does to a step
            or reset: ``"raise"`` (``WorkerDiedError`` naming every lost sub-env; the env
            closes) or ``"restart"``: the lost actors are rebuilt on live nodes (retrying
            until ``build_timeout``, as Ray may need time to declare a node dead), their
            sub-envs reset, and the step returns their rows truncated, with the info key
            ``actor_lost`` (and its ``_actor_lost`` mask) marking them; the other sub-envs'
            results are those of the step. A reset is redone on the rebuilt actors.
        snapshot_every: With ``on_actor_failure="restart"``, take a snapshot of every
            sub-env each this many steps (a call to every actor); a rebuilt actor's
            sub-envs are then restored from their last one instead of reset, their rows
            (reported truncated) carry the observation of that snapshot's step, and they go
            on from there. Needs envs that support :meth:`~palaestra.Env.snapshot`.
    """

    recv_engine = RayEngine

    def __init__(
        self,
        env_fns: Sequence[Callable[[], Env[Any, Any]]],
        num_actors: int | None = None,
        actor_options: ActorOptions = None,
        ray_init_kwargs: dict[str, Any] | None = None,
        copy: bool = True,
        observation_mode: str | tuple[Space[Any], Space[Any]] = "same",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        step_timeout: float | None = None,
        build_timeout: float | None = BUILD_TIMEOUT,
        placement: str | Sequence[str] | None = None,
        on_actor_failure: str = "raise",
        snapshot_every: int | None = None,
    ) -> None:
        self.closed = False
        self._actors: list[Any] = []
        self._group: Any = None
        self._pending: tuple[str, list[Any], list[int] | None] | None = None
        if len(env_fns) == 0:
            raise ValueError("RayVectorEnv needs at least one env function, got an empty sequence")
        if num_actors is not None and (not isinstance(num_actors, (int, np.integer)) or num_actors < 1):
            raise ValueError(f"`num_actors` must be a positive integer or None, got {num_actors!r}")
        self.env_fns = env_fns
        self.num_envs = len(env_fns)
        self.copy = copy
        self.observation_mode = observation_mode
        self.autoreset_mode = resolve_autoreset_mode(autoreset_mode)
        self.step_timeout = check_timeout(step_timeout, "step_timeout")
        self.build_timeout = check_timeout(build_timeout, "build_timeout")
        self.placement = placement
        if on_actor_failure not in FAILURE_MODES:
            raise ValueError(
                f"`on_actor_failure` must be one of {FAILURE_MODES}, got {on_actor_failure!r}: 'raise' ends "
                "the run with WorkerDiedError, 'restart' rebuilds the lost actors and goes on"
            )
        self.on_actor_failure = on_actor_failure
        if snapshot_every is not None and (
            isinstance(snapshot_every, bool)
            or not isinstance(snapshot_every, (int, np.integer))
            or snapshot_every < 1
        ):
            raise ValueError(
                f"`snapshot_every` must be a positive number of steps or None, got {snapshot_every!r}"
            )
        if snapshot_every is not None and on_actor_failure != "restart":
            raise ValueError(
                "`snapshot_every` keeps snapshots to restore restarted actors from; it needs "
                f"on_actor_failure='restart' (got {on_actor_failure!r})"
            )
        self.snapshot_every = snapshot_every
        self._steps = 0
        self._kept: dict[int, tuple[VectorSnapshot, Any]] = {}  # actor -> (block snapshot, its observations)
        self._lost: list[int] = []  # actors a restartable wait found dead
        # Each actor's last reset arguments (None: the reset left its block alone).
        self._reset_calls: dict[int, tuple[list[Any], Any] | None] = {}
        ray = _ray()
        _start_ray(ray, ray_init_kwargs)
        self.num_actors = min(num_actors or _cluster_cpus(ray), self.num_envs)
        self.blocks = split_blocks(self.num_envs, self.num_actors)
        #: Each actor's options as given (placement adds its scheduling strategy when starting).
        self.actor_options = options_per_actor(actor_options, self.num_actors)
        self._plan = placement_plan(placement, self.actor_options, alive_node_ids(ray))
        try:
            self._start_actors(ray)
        except BaseException:
            self.close(terminate=True)
            raise

    # -- construction -----------------------------------------------------------------

    def _start_actors(self, ray: Any) -> None:
        block_class = _remote_block()
        per_actor = self._scheduled_options(ray)
        self._actors = [
            (block_class.options(**options) if options else block_class).remote(block.start)
            for options, block in zip(per_actor, self.blocks, strict=True)
        ]
        built = []
        for actor, block in zip(self._actors, self.blocks, strict=True):
            fns = [self.env_fns[i] for i in block]
            try:
                built.append(actor.build.remote(fns))
            except Exception as e:  # Ray pickles the arguments here
                raise TypeError(
                    f"env_fns[{block.start}:{block.stop}] cannot be sent to a Ray actor: {e}. "
                    "Use functions Ray can pickle (module-level functions, functools.partial, lambdas "
                    "without unpicklable captures)."
                ) from e
        per_env = [s for described in self._get(built, "build", self.build_timeout) for s in described]
        self._check_spaces(per_env)
        # A custom (batched, single) pair describes the whole batch: blocks then batch with
        # "different" (shapes and dtypes only); every sub-env's space was checked above.
        mode = self.observation_mode if isinstance(self.observation_mode, str) else "different"
        self.actor_pids = tuple(
            self._get(
                [a.start.remote(mode, self.autoreset_mode) for a in self._actors], "start", self.build_timeout
            )
        )

    def _scheduled_options(self, ray: Any) -> list[dict[str, Any]]:
        """Each actor's options with the placement's scheduling strategy added."""
        kind, plan = self._plan
        per_actor = [dict(options) for options in self.actor_options]
        if kind == "nodes":
            from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

            for options, node in zip(per_actor, plan, strict=True):
                options["scheduling_strategy"] = NodeAffinitySchedulingStrategy(node_id=node, soft=False)
        elif kind == "group":
            from ray.util.placement_group import placement_group
            from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

            strategy, bundles, bundle_of_actor = plan
            self._group = placement_group(bundles, strategy=strategy)
            ready, _ = ray.wait([self._group.ready()], timeout=self.build_timeout)
            if not ready:
                raise ActorsNotPlacedError(
                    f"Ray could not reserve the {strategy} placement group for placement="
                    f"{self.placement!r} within the build deadline of {self.build_timeout:g} s: bundles "
                    f"{bundles} (one per {'node' if strategy == 'STRICT_SPREAD' else 'actor'}); the "
                    f"cluster has free {ray.available_resources()!r}. Ask for less per actor, use fewer "
                    "actors, or pass build_timeout=None to wait. The vector env has been closed.",
                    indices=tuple(range(self.num_envs)),
                )
            for options, index in zip(per_actor, bundle_of_actor, strict=True):
                options["scheduling_strategy"] = PlacementGroupSchedulingStrategy(
                    self._group, placement_group_bundle_index=index
                )
        return per_actor

    def actor_nodes(self) -> tuple[str | None, ...]:
        """The id of the node each actor runs on (None where Ray does not say)."""
        return tuple(actor_state(actor)[1] for actor in self._actors)

    def _check_spaces(self, per_env: list[tuple[Any, Any, dict[str, Any], Any]]) -> None:
        obs_spaces = [s[0] for s in per_env]
        act_spaces = [s[1] for s in per_env]
        spaces = batched_spaces(obs_spaces, act_spaces, self.observation_mode, "RayVectorEnv")
        self.single_observation_space, self.observation_space = spaces[0], spaces[1]
        self.single_action_space, self.action_space = spaces[2], spaces[3]
        self.metadata = dict(per_env[0][2])
        self.metadata["autoreset_mode"] = self.autoreset_mode
        self.render_mode = per_env[0][3]
        if self.observation_mode == "different":
            self._block_obs_spaces = [batch_differing_spaces([obs_spaces[i] for i in b]) for b in self.blocks]
        else:
            self._block_obs_spaces = [batch_space(self.single_observation_space, len(b)) for b in self.blocks]
        self._observations = create_empty_array(self.single_observation_space, n=self.num_envs, fn=np.zeros)
        self._block_obs: list[Any] = [None] * self.num_actors

    # -- talking to the actors ------------------------------------------------------------

    def _get(
        self, refs: list[Any], what: str, timeout: float | None = None, active: list[int] | None = None
    ) -> list[Any]:
        """The answers of the actors ``active`` (default all), errors re-raised naming the culprit.

        With ``on_actor_failure="restart"``, a step or reset whose actors died returns None
        for them and lists them in ``self._lost`` instead of raising.
        """
        ray = _ray()
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            return ray.get(refs, timeout=timeout)  # type: ignore[no-any-return]
        except (ray.exceptions.RayError, ray.exceptions.GetTimeoutError):
            pass  # find out which actor failed, after all have answered or the time is up
        blocks = self.blocks if active is None else [self.blocks[k] for k in active]
        remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
        _, waiting = ray.wait(refs, num_returns=len(refs), timeout=remaining)
        if waiting:
            late_actors = [refs.index(r) for r in waiting]
            late = [blocks[k] for k in late_actors]
            if what == "build":
                placing = not_placed_error(
                    ray, self._actors, self.blocks, self.actor_options, late_actors, timeout
                )
                if placing is not None:
                    self.close(terminate=True)
                    raise placing
            self.close(terminate=True)
            raise VectorTimeoutError(
                f"The Ray actor(s) running {_describe(late)} did not answer `{what}` within {timeout} s; "
                "the vector env has been closed.",
                indices=tuple(i for block in late for i in block),
            )
        results: list[Any] = []
        failures: list[Any] = []
        dead: list[Any] = []
        for ref, block in zip(refs, blocks, strict=True):
            try:
                results.append(ray.get(ref))
            except ray.exceptions.RayActorError as e:
                dead.append((block, e))
                results.append(None)
            except ray.exceptions.RayTaskError as e:
                failures.append(e)
                results.append(None)
        if dead and self.on_actor_failure == "restart" and what in ("step", "reset"):
            order = list(range(self.num_actors)) if active is None else active
            self._lost = [order[blocks.index(block)] for block, _ in dead]
            if failures:
                _reraise(failures[0], failures[1:])
            return results
        if dead:  # every lost sub-env is named, not only the first dead actor's
            self.close(terminate=True)
            raise WorkerDiedError(
                f"The Ray {'actor' if len(dead) == 1 else 'actors'} running {_describe([b for b, _ in dead])} "
                f"died during `{what}`; the "
                f"vector env has been closed. Ray says: {_first_line(dead[0][1])}",
                indices=tuple(i for block, _ in dead for i in block),
                exitcode=None,
            ) from None
        if failures:  # every actor's failure reported: the first raised, the others in its note
            _reraise(failures[0], failures[1:])
        return results

    def _send(self, what: str, calls: list[Any], active: list[int] | None = None) -> None:
        self._pending = (what, calls, active)

    def _wait(self, what: str, timeout: float | None) -> list[Any]:
        if self.closed:
            raise ClosedEnvironmentError(
                f"Trying to call `{what}_wait` on a closed RayVectorEnv; make a new one."
            )
        if self._pending is None or self._pending[0] != what:
            raise NoAsyncCallError(f"Calling `{what}_wait` without any prior call to `{what}_async`.", what)
        _, refs, active = self._pending
        self._pending = None
        seconds = self.step_timeout if timeout is None else check_timeout(timeout, "timeout")
        return self._get(refs, what, seconds, active)

    def _assert_ready(self, name: str, engine: bool = True) -> None:
        if self.closed:
            raise ClosedEnvironmentError(f"Trying to call `{name}` on a closed RayVectorEnv; make a new one.")
        if engine:  # send/recv results outstanding: calls on every sub-env wait for recv
            self._check_no_results_outstanding(name)
        if self._pending is not None:
            raise AlreadyPendingCallError(
                f"Calling `{name}` while waiting for a pending call to `{self._pending[0]}` to complete",
                self._pending[0],
            )

    def _batch(self, parts: list[Any], active: list[int]) -> tuple[Any, dict[str, Any]]:
        infos: dict[str, Any] = {}
        for k, (obs, part_infos) in zip(active, parts, strict=True):
            self._block_obs[k] = obs
            merge_infos(infos, part_infos, self.blocks[k].start, self.num_envs)
        # copy=False fills one buffer every time, as SyncVectorEnv does.
        out = self._observations
        if self.copy:
            out = create_empty_array(self.single_observation_space, n=self.num_envs, fn=np.zeros)
        return join_observations(
            self._block_obs, self._block_obs_spaces, self.single_observation_space, out
        ), infos

    # -- reset and step -------------------------------------------------------------------

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset sub-envs (all, or those in ``options["reset_mask"]``)."""
        self.reset_async(seed=seed, options=options)
        return self.reset_wait()

    def reset_async(
        self, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> None:
        """Send the reset to the actors without waiting."""
        self._assert_ready("reset_async")
        seeds, options, mask = reset_arguments(seed, options, self.num_envs)
        calls = []
        for k, block in enumerate(self.blocks):
            if mask is not None and not mask[block.start : block.stop].any():
                # Left alone: its current observations (a failed step or send/recv may have moved
                # them since the last batch this process holds).
                self._reset_calls[k] = None
                calls.append(self._actors[k].observations.remote())
                continue
            block_options = options
            if mask is not None:
                block_options = {**(options or {}), "reset_mask": mask[block.start : block.stop].copy()}
            block_seeds = [seeds[i] for i in block]
            self._reset_calls[k] = (block_seeds, block_options)
            calls.append(self._actors[k].reset.remote(block_seeds, block_options))
        self._send("reset", calls, list(range(self.num_actors)))

    def reset_wait(self, timeout: float | None = None) -> tuple[Any, dict[str, Any]]:
        """Wait for the reset; ``timeout`` seconds (default ``step_timeout``)."""
        assert self._pending is not None or self.closed
        active = self._pending[2] if self._pending is not None else None
        parts = self._wait("reset", timeout)
        active = active or list(range(self.num_actors))
        if self._lost:  # rebuilt actors do the reset they missed
            lost, self._lost = self._lost, []
            self._restart(lost)
            redone = self._get(
                [self._redo_reset(k) for k in lost],
                "reset",
                self.step_timeout,
                lost,
            )
            for k, part in zip(lost, redone, strict=True):
                parts[active.index(k)] = part
        return self._batch(parts, active)

    def _redo_reset(self, k: int) -> Any:
        """The reset a rebuilt actor missed (or its observations, where the reset left it alone)."""
        call = self._reset_calls[k]
        return self._actors[k].observations.remote() if call is None else self._actors[k].reset.remote(*call)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every sub-env."""
        self.step_async(actions)
        return self.step_wait()

    def step_async(self, actions: Any) -> None:
        """Send each actor its block's actions without waiting."""
        self._assert_ready("step_async")
        if isinstance(actions, np.ndarray) and len(actions) == self.num_envs:
            chunks = [actions[b.start : b.stop] for b in self.blocks]
        else:
            per_env = actions_per_env(self.action_space, actions, self.num_envs, "RayVectorEnv")
            chunks = [self._block_actions(per_env, b) for b in self.blocks]
        self._send("step", [a.step.remote(c) for a, c in zip(self._actors, chunks, strict=True)])

    def _block_actions(self, per_env: list[Any], block: range) -> Any:
        out = create_empty_array(self.single_action_space, n=len(block), fn=np.zeros)
        return concatenate(self.single_action_space, [per_env[i] for i in block], out)

    def step_wait(
        self, timeout: float | None = None
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Wait for the step; ``timeout`` seconds (default ``step_timeout``)."""
        parts = self._wait("step", timeout)
        lost, self._lost = self._lost, []
        if lost:
            parts = self._replace_lost(parts, lost)
        observations, infos = self._batch([(p[0], p[4]) for p in parts], list(range(self.num_actors)))
        rewards, terminations, truncations = (np.concatenate([p[k] for p in parts]) for k in (1, 2, 3))
        if lost:
            mask = np.zeros(self.num_envs, dtype=np.bool_)
            for k in lost:
                mask[self.blocks[k].start : self.blocks[k].stop] = True
            infos["actor_lost"], infos["_actor_lost"] = mask, mask.copy()
        self._steps += 1
        if self.snapshot_every is not None and self._steps % self.snapshot_every == 0:
            self._keep_snapshots()
        return observations, rewards, terminations, truncations, infos

    def _keep_snapshots(self) -> None:
        """Each actor's block snapshot, with the block's observations of this step."""
        parts = self._get([a.snapshot.remote() for a in self._actors], "snapshot", self.step_timeout)
        self._kept = {k: (part, copy_module.deepcopy(self._block_obs[k])) for k, part in enumerate(parts)}

    # -- restarting lost actors (see _restart) ----------------------------------------------

    def _replace_lost(self, parts: list[Any], lost: list[int]) -> list[Any]:
        return replace_lost(self, parts, lost)

    def _restart(self, lost: list[int]) -> None:
        restart(self, lost)

    # -- calls and attributes ---------------------------------------------------------------

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call method ``name`` on every sub-env (or read the attribute)."""
        self.call_async(name, *args, **kwargs)
        return self.call_wait()

    def call_async(self, name: str, /, *args: Any, **kwargs: Any) -> None:
        """Send the call to the actors without waiting."""
        self._assert_ready("call_async")
        self._send("call", [a.call.remote(name, args, kwargs) for a in self._actors])

    def call_wait(self, timeout: float | None = None) -> tuple[Any, ...]:
        """Wait for the call's results, one per sub-env."""
        return tuple(value for part in self._wait("call", timeout) for value in part)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute ``name`` of every sub-env."""
        return self.call(name)

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | Any) -> None:
        """Set ``name`` on every sub-env (one value for all, or one per sub-env)."""
        self._assert_ready("set_attr")
        values = per_env_values(values, self.num_envs)
        calls = [
            a.set_attr.remote(name, [values[i] for i in b])
            for a, b in zip(self._actors, self.blocks, strict=True)
        ]
        self._get(calls, "set_attr", self.step_timeout)

    def render(self) -> tuple[Any, ...]:
        """Each sub-env's frame."""
        return self.call("render")

    # -- snapshots ---------------------------------------------------------------------------

    def snapshot(self) -> VectorSnapshot:
        """Save every sub-env's state (taken in the actors)."""
        self._assert_ready("snapshot")
        parts = self._get([a.snapshot.remote() for a in self._actors], "snapshot", self.step_timeout)
        return VectorSnapshot(
            tuple(s for p in parts for s in p.envs), tuple(f for p in parts for f in p.autoreset)
        )

    def restore(self, snapshot: VectorSnapshot | Snapshot | Sequence[Snapshot]) -> None:
        """Return the sub-envs to a saved state (see :meth:`palaestra.vector.VectorEnv.restore`).

        Each actor checks its sub-envs' snapshots before changing them; when one does not
        fit, other actors' sub-envs may already be restored, so restore a fitting snapshot
        before stepping on.
        """
        self._assert_ready("restore")
        snapshots, pending = vector_restore_plan(snapshot, self.num_envs)
        calls = [
            a.restore.remote(VectorSnapshot(tuple(snapshots[i] for i in b), tuple(pending[i] for i in b)))
            for a, b in zip(self._actors, self.blocks, strict=True)
        ]
        self._get(calls, "restore", self.step_timeout)

    # -- closing -----------------------------------------------------------------------------

    def close_extras(self, timeout: float | None = None, terminate: bool = False, **kwargs: Any) -> None:
        """Close the sub-envs and stop the actors (Ray itself keeps running).

        Args:
            timeout: Seconds to wait for the sub-envs to close (default 5).
            terminate: Skip closing the sub-envs and kill the actors at once.
            **kwargs: Ignored (accepted for signature compatibility).
        """
        ray = _ray()
        self._pending = None
        actors, self._actors = self._actors, []
        if not ray.is_initialized():
            return  # Ray was shut down, and the actors with it (a call now would restart Ray)
        if not terminate and actors:
            try:
                ray.wait(
                    [a.close.remote() for a in actors],
                    num_returns=len(actors),
                    timeout=CLOSE_GRACE if timeout is None else timeout,
                )
            except Exception as e:  # a dead actor cannot close its envs; kill the rest anyway
                logger.warn(f"RayVectorEnv could not close every sub-env: {e}")
        for actor in actors:
            with contextlib.suppress(Exception):  # already gone
                ray.kill(actor)
        group, self._group = self._group, None
        if group is not None:
            from ray.util.placement_group import remove_placement_group

            with contextlib.suppress(Exception):  # already removed with its job
                remove_placement_group(group)

    def close(self, **kwargs: Any) -> None:
        """Close the sub-envs and stop the actors (idempotent); always returns."""
        if self.closed:
            return
        self.closed = True
        self.close_extras(**kwargs)

    def __repr__(self) -> str:
        label = f"{self.spec.id}, " if self.spec is not None else ""
        return f"RayVectorEnv({label}num_envs={self.num_envs}, num_actors={getattr(self, 'num_actors', '?')})"
