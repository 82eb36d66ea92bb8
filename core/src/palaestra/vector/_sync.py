"""SyncVectorEnv: sub-environments stepped one after another in this process."""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from copy import deepcopy
from typing import Any

import numpy as np

from palaestra import logger
from palaestra._base._arguments import check_flag
from palaestra._env._core import Env
from palaestra._env._snapshot import Snapshot, VectorSnapshot, vector_restore_plan
from palaestra.error import InvalidEnvArgumentValue
from palaestra.spaces import Space
from palaestra.vector._autoreset import per_env_values, reset_arguments, resolve_autoreset_mode
from palaestra.vector._cores import check_num_workers
from palaestra.vector._info import add_info
from palaestra.vector._recv import RecvEngine
from palaestra.vector._spaces import actions_per_env, batched_spaces
from palaestra.vector._vector_env import AutoresetMode, SubEnvVectorEnv
from palaestra.vector.utils import concatenate, create_empty_array

__all__ = ["SyncVectorEnv"]


class _SyncEngine(RecvEngine):
    """send/recv of a SyncVectorEnv: each sub-env sent an action steps at once, in turn."""

    def __init__(self, env: SyncVectorEnv) -> None:
        super().__init__(env)
        self.vector = env
        self.results: dict[int, tuple[Any, float, bool, bool, list[dict[str, Any]]]] = {}

    def start_reset(
        self, ids: np.ndarray, seed: Any, seeds: list[Any], options: dict[str, Any] | None
    ) -> None:
        self._run(ids, lambda i: self.vector.reset_sub_env(i, seeds[i], options), "reset")

    def start_step(self, ids: np.ndarray, actions: list[Any] | None) -> None:
        assert actions is not None
        given = dict(zip(ids.tolist(), actions, strict=True))
        self._run(ids, lambda i: self.vector.step_sub_env(i, given[i]), "step")

    def _run(self, ids: np.ndarray, one: Callable[[int], Any], during: str) -> None:
        failures: list[tuple[int, Exception]] = []
        for i in ids.tolist():
            try:
                self.results[i] = one(i)
            except Exception as e:
                failures.append((i, e))
                self.failed([i])
                continue
            self.arrived([i])
        if failures:
            _raise_first(failures, during)

    def collect(self, timeout: float | None) -> None:
        raise AssertionError("a sync sub-env's result is ready as soon as it is sent")  # pragma: no cover

    def batch(self, ids: np.ndarray) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        results = self.results  # kept until the sub-env's next start replaces it
        return self.batch_of([results[i] for i in ids.tolist()])


class SyncVectorEnv(SubEnvVectorEnv[Any, Any, np.ndarray]):
    """Run sub-environments sequentially in the current process.

    Args:
        env_fns: Functions that each build one sub-environment.
        copy: Return a copy of the batched observations (else a buffer reused every step).
        observation_mode: ``"same"`` (all sub-envs share one space), ``"different"``
            (same shapes and dtypes, different bounds) or a ``(batched, single)`` pair.
        autoreset_mode: An :class:`AutoresetMode` or its value.
        num_workers: ``None`` or 1: the sub-envs step one after another in the calling
            thread (the knob every vectorizer takes; ``"async"`` runs ``k`` workers).
    """

    #: Every sub-env steps in the calling thread.
    num_workers = 1

    def __init__(
        self,
        env_fns: Sequence[Callable[[], Env[Any, Any]]],
        copy: bool = True,
        observation_mode: str | tuple[Space[Any], Space[Any]] = "same",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        num_workers: int | None = None,
    ) -> None:
        if len(env_fns) == 0:
            raise ValueError("SyncVectorEnv needs at least one env function, got an empty sequence")
        if (check_num_workers(num_workers, "SyncVectorEnv") or 1) > 1:
            raise InvalidEnvArgumentValue(
                f"SyncVectorEnv steps its sub-envs one after another in the calling thread: num_workers="
                f"{num_workers} cannot apply; for {num_workers} worker processes use "
                f"make_vec(..., vectorization_mode='async', vector_kwargs={{'num_workers': {num_workers}}})"
            )
        check_flag(copy, "copy", "return copies of the batched observations rather than shared buffers")
        self.env_fns = env_fns
        self.copy = copy
        self.observation_mode = observation_mode
        self.autoreset_mode = resolve_autoreset_mode(autoreset_mode)
        self.envs = [env_fn() for env_fn in env_fns]
        self.num_envs = len(self.envs)
        self.metadata = dict(self.envs[0].metadata)
        self.metadata["autoreset_mode"] = self.autoreset_mode
        self.render_mode = self.envs[0].render_mode
        spaces = batched_spaces(
            [e.observation_space for e in self.envs], [e.action_space for e in self.envs], observation_mode
        )
        self.single_observation_space, self.observation_space = spaces[0], spaces[1]
        self.single_action_space, self.action_space = spaces[2], spaces[3]
        self._env_obs: list[Any] = [None] * self.num_envs
        self._observations = create_empty_array(self.single_observation_space, n=self.num_envs, fn=np.zeros)
        # Per-step buffers: rewards, the two episode-end flags, and who resets next step.
        n = self.num_envs
        self._rewards = np.zeros(n)
        self._terminations, self._truncations, self._autoreset_envs = (
            np.zeros(n, np.bool_) for _ in range(3)
        )

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset sub-envs (all, or those in ``options["reset_mask"]``).

        Args:
            seed: An int (sub-env i gets ``seed + i``), a list of per-env seeds, or None.
            options: Passed to every sub-env's reset; ``reset_mask`` selects sub-envs.

        A sub-env that raises does not stop the others: every selected sub-env is reset, then
        the first error is raised (naming its sub-env), as in :meth:`step`.
        """
        self._check_no_results_outstanding("reset")
        seeds, options, mask = reset_arguments(seed, options, self.num_envs)
        if mask is None:
            mask = np.ones(self.num_envs, dtype=np.bool_)
        self._terminations[mask] = False
        self._truncations[mask] = False
        self._autoreset_envs[mask] = False
        infos: dict[str, Any] = {}
        failures: list[tuple[int, Exception]] = []
        for i, env in enumerate(self.envs):
            if mask[i]:
                try:
                    self._env_obs[i], env_info = env.reset(seed=seeds[i], options=options)
                except Exception as e:  # the others are still reset, as in step
                    failures.append((i, e))
                    continue
                add_info(infos, env_info, i, self.num_envs)
        if failures:
            _raise_first(failures, "reset")
        self._observations = concatenate(self.single_observation_space, self._env_obs, self._observations)
        return (deepcopy(self._observations) if self.copy else self._observations), infos

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every sub-env, autoresetting per :attr:`autoreset_mode`.

        A sub-env that raises does not stop the others: every sub-env takes the step, then
        the first error is raised (every one is logged), as in :class:`AsyncVectorEnv`.
        """
        self._check_no_results_outstanding("step")
        infos: dict[str, Any] = {}
        failures: list[tuple[int, Exception]] = []
        for i, action in enumerate(
            actions_per_env(self.action_space, actions, self.num_envs, "SyncVectorEnv")
        ):
            try:
                env_info, final = self._step_one(i, action)
            except Exception as e:
                failures.append((i, e))
                continue
            if final is not None:
                add_info(infos, final, i, self.num_envs)
            add_info(infos, env_info, i, self.num_envs)
        # Who resets next step, failures or not: a failed sub-env keeps its flags (as in
        # AsyncVectorEnv's workers), the others' are this step's.
        np.logical_or(self._terminations, self._truncations, out=self._autoreset_envs)
        if failures:
            _raise_first(failures, "step")
        self._observations = concatenate(self.single_observation_space, self._env_obs, self._observations)
        observations = deepcopy(self._observations) if self.copy else self._observations
        # The flag and reward buffers are reused next step: hand out copies.
        rewards, terminations, truncations = (
            buf.copy() for buf in (self._rewards, self._terminations, self._truncations)
        )
        return observations, rewards, terminations, truncations, infos

    def _step_one(self, i: int, action: Any) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """Step (or autoreset) sub-env ``i`` into the buffers; its info, and its finals (SAME_STEP)."""
        env, mode = self.envs[i], self.autoreset_mode
        if mode is AutoresetMode.NEXT_STEP and self._autoreset_envs[i]:
            self._env_obs[i], env_info = env.reset()
            self._rewards[i] = 0.0
            self._terminations[i] = False
            self._truncations[i] = False
            return env_info, None
        if mode is AutoresetMode.DISABLED and self._autoreset_envs[i]:
            raise RuntimeError(
                f"Sub-env {i} ended its episode and autoreset_mode is DISABLED; reset it with "
                "reset(options={'reset_mask': mask}) before stepping again"
            )
        obs, reward, terminated, truncated, env_info = env.step(action)
        self._env_obs[i] = obs
        self._rewards[i], self._terminations[i], self._truncations[i] = reward, terminated, truncated
        if mode is AutoresetMode.SAME_STEP and (terminated or truncated):
            self._env_obs[i], reset_info = env.reset()
            return reset_info, {"final_obs": obs, "final_info": env_info}
        return env_info, None

    recv_engine = _SyncEngine

    def reset_sub_env(
        self, i: int, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, float, bool, bool, list[dict[str, Any]]]:
        """Reset sub-env ``i`` alone (async_reset's part; a building block for vectorizers).

        Returns:
            ``(obs, 0.0, False, False, [info])``: its result as :meth:`step_sub_env` gives one.
        """
        obs, info = self.envs[i].reset(seed=seed, options=options)
        self._env_obs[i] = obs
        self._autoreset_envs[i] = False
        return obs, 0.0, False, False, [info]

    def step_sub_env(self, i: int, action: Any) -> tuple[Any, float, bool, bool, list[dict[str, Any]]]:
        """Step sub-env ``i`` alone, autoresetting per :attr:`autoreset_mode` (send's part).

        Returns:
            ``(obs, reward, terminated, truncated, infos)``; ``infos`` lists the dicts to batch
            in order (a SAME_STEP end gives ``{"final_obs", "final_info"}`` before the reset's).
        """
        env_info, final = self._step_one(i, action)
        terminated, truncated = bool(self._terminations[i]), bool(self._truncations[i])
        self._autoreset_envs[i] = terminated or truncated
        infos = [env_info] if final is None else [final, env_info]
        return self._env_obs[i], float(self._rewards[i]), terminated, truncated, infos

    def current_observations(self) -> Any:
        """Every sub-env's latest observation, batched (what a masked reset returns for the others).

        A building block for vectorizers that hold sub-envs in blocks (Ray's actors): after a
        step that raised, or steps through :meth:`step_sub_env`, the block's last batch is out
        of date, and this is not.
        """
        return concatenate(
            self.single_observation_space,
            self._env_obs,
            create_empty_array(self.single_observation_space, n=self.num_envs, fn=np.zeros),
        )

    def render(self) -> tuple[Any, ...]:
        """Each sub-env's frame."""
        return tuple(env.render() for env in self.envs)

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call method ``name`` on every sub-env (or read the attribute if not callable)."""
        results = []
        for i, env in enumerate(self.envs):
            try:
                function = env.get_wrapper_attr(name)
                results.append(function(*args, **kwargs) if callable(function) else function)
            except Exception as e:
                _name_sub_env(e, i)
                raise
        return tuple(results)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute ``name`` of every sub-env."""
        return self.call(name)

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | Any) -> None:
        """Set ``name`` on every sub-env (one value for all, or one per sub-env)."""
        values = per_env_values(values, self.num_envs)
        for env, value in zip(self.envs, values, strict=True):
            env.set_wrapper_attr(name, value)

    def snapshot(self) -> VectorSnapshot:
        """Save every sub-env's state and which of them await an autoreset."""
        return VectorSnapshot(
            tuple(env.snapshot() for env in self.envs), tuple(self._autoreset_envs.tolist())
        )

    def restore(self, snapshot: VectorSnapshot | Snapshot | Sequence[Snapshot]) -> None:
        """Return the sub-envs to a saved state (see :meth:`VectorEnv.restore`).

        Every snapshot is checked against its sub-env before any sub-env changes.
        """
        snapshots, pending = vector_restore_plan(snapshot, self.num_envs)
        for env, saved in zip(self.envs, snapshots, strict=True):
            env._check_snapshot(saved)
        for env, saved in zip(self.envs, snapshots, strict=True):
            env._restore_snapshot(saved)
        self._autoreset_envs[:] = pending

    def close_extras(self, **kwargs: Any) -> None:
        """Close every sub-env; a failure does not stop the others and is raised afterwards."""
        failures: list[tuple[int, Exception]] = []
        for i, env in enumerate(getattr(self, "envs", [])):
            try:
                env.close()
            except Exception as e:
                failures.append((i, e))
        if failures:
            _raise_first(failures, "close")


def _name_sub_env(error: Exception, index: int) -> None:
    # As with AsyncVectorEnv, the error says which sub-env raised it.
    error.sub_env_index = index  # type: ignore[attr-defined]


def _raise_first(failures: list[tuple[int, Exception]], during: str) -> None:
    """Raise the first sub-env error (naming its sub-env), listing the others in a note.

    The others are logged with their tracebacks unless they repeat the first (the same type
    and message, as when every sub-env is stepped before a reset): the raised one shows that.
    """
    index, first = failures[0]
    for other, error in failures[1:]:
        if type(error) is not type(first) or str(error) != str(first):
            logger.error(
                f"Received the following error from sub-env {other}:\n"
                + "".join(traceback.format_exception(type(error), error, error.__traceback__))
            )
    _name_sub_env(first, index)
    if hasattr(first, "add_note"):
        first.add_note(f"Raised by sub-env {index} of a SyncVectorEnv during {during}.")
        if len(failures) > 1:
            others = "; ".join(f"sub-env {i} raised {type(e).__name__}: {e}" for i, e in failures[1:])
            first.add_note(f"Also raised: {others}")
    raise first
