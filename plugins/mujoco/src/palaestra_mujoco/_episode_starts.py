"""How a natively batched MuJoCo env starts its sub-envs' episodes (a part of :class:`MujocoVectorEnv`).

Three ways, chosen when the vector env is made:

- **In the batch's rows** (array-stepped classes that set ``resets_batches``): each started
  sub-env's start state is drawn as its own reset draws it and written into the rows, the
  rest of its state zeroed as ``mj_resetData`` leaves it; the first sub-env observes the rows.
  For suite starts (``SuiteEnv.start_state``) the draws come from the rules held in rows
  (:class:`~palaestra_mujoco._row_starts.RowStarts`) wherever nothing changed since the
  sub-env's last start.
- **On the crew** (gathered suite envs: Ant, the humanoids): the draws in the calling thread,
  each sub-env's reset of its own data on the helper threads.
- **Each sub-env's own reset**, for every other class.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra.plugin import BatchedVectorEnv
from palaestra_mujoco._batch_sim import BatchSimulation
from palaestra_mujoco._gathered_sim import GatheredSimulation
from palaestra_mujoco._locomotion import SuiteEnv
from palaestra_mujoco._row_starts import RowStarts
from palaestra_mujoco._start_draws import compiled_starts_hold
from palaestra_mujoco.mujoco_env import MujocoEnv

__all__ = ["EpisodeStarts", "resets_as_suite_envs", "starts_as_suite_envs"]


class EpisodeStarts(BatchedVectorEnv):
    """The episode starts of :class:`~palaestra_mujoco.vector.MujocoVectorEnv` (its base: see the module).

    The vector env sets what these read when it is made, and changes them when it leaves
    the array steps.
    """

    envs: list[MujocoEnv]
    _sim: BatchSimulation | GatheredSimulation | None
    _held: RowStarts | None  # the suite starts' rules, held in rows
    _starts_rows: bool  # episodes start in the batch's rows
    _starts_on_crew: bool  # a gathered suite env's resets run on the crew
    _observations: np.ndarray
    _infos: list[dict[str, Any]]

    def begin_reset(
        self, seed: int | list[int | None] | None, options: dict[str, Any] | None
    ) -> tuple[np.ndarray, dict[str, Any] | None]:
        """The template's; the sub-envs it resets start as their own starts do (``reset()`` reads them again)."""
        mask, options = super().begin_reset(seed, options)
        if isinstance(self._sim, BatchSimulation):
            self._sim.retime(mask)
        return mask, options

    def reset_envs(self, mask: np.ndarray, options: dict[str, Any] | None) -> None:
        """Reset each sub-env in ``mask`` with its generator (sub-env ``i`` seeded ``seed + i``)."""
        if self._starts_rows:
            self._start_rows(mask.nonzero()[0])
            return
        if self._starts_on_crew:
            self._start_on_crew(mask.nonzero()[0].tolist())
            return
        for i in mask.nonzero()[0].tolist():
            env = self.envs[i]
            env.np_random = self.rng(i)
            observation, info = env.reset(options=options)
            self._observations[i] = observation
            self._infos[i] = info
            if self._sim is not None:
                self._sim.push(i)

    def _start_rows(self, rows: np.ndarray) -> None:
        """Start the episodes of sub-envs ``rows`` in the batch: a sub-env's reset, done as arrays.

        Each sub-env draws its start state with its generator, as its reset would: from the
        rules held for it where nothing changed since it last started
        (:class:`~palaestra_mujoco._row_starts.RowStarts`, one C loop), otherwise as the
        first sub-env draws them (:meth:`MujocoEnv.start_states`, the specification); the rows
        get it, the first sub-env observes them (:meth:`MujocoEnv.start_batch`).
        """
        sim, envs, indices = self._sim, self.envs, rows.tolist()
        assert isinstance(sim, BatchSimulation)
        normal = self._held is not None and envs[0].velocity_noise == "normal"  # type: ignore[attr-defined]
        if self._held is not None and compiled_starts_hold(normal):
            self._start_held(self._held, sim, indices, rows, normal)
        else:
            self._start_as_envs(indices, rows)
        sim.restart(rows)
        infos = self._infos
        for i, info in zip(indices, envs[0].start_batch(sim, rows, self._observations), strict=True):
            infos[i] = info

    def _start_held(
        self, held: RowStarts, sim: BatchSimulation, indices: list[int], rows: np.ndarray, normal: bool
    ) -> None:
        """Draw the starts of sub-envs ``indices`` from their held rules, each run the loop leaves as envs would."""
        done, generators = 0, self.generators
        while done < len(indices):
            done = held.start(generators, sim, indices, done, normal)
            if done < len(indices):  # a run of sub-envs that start as their own starts do
                run = held.stale_run(sim, indices, done)
                self._start_as_envs(indices[done : done + run], rows[done : done + run])
                for i in indices[done : done + run]:
                    held.hold(i, self.envs[i], generators[i])
                done += run

    def _start_as_envs(self, indices: list[int], rows: np.ndarray) -> None:
        """Draw and time the starts of sub-envs ``indices`` (rows ``rows``) as their own resets would."""
        sim = self._sim
        assert isinstance(sim, BatchSimulation)
        self.envs[0].start_states(self._with_generators(indices), rows, sim.qpos, sim.qvel)
        sim.time_starts(indices)

    def _with_generators(self, indices: list[int]) -> list[MujocoEnv]:
        """Sub-envs ``indices``, each holding its generator (:meth:`rng`) for the start it draws."""
        envs, generators, shared = self.envs, self.generators, self.shared_generator
        started = []
        for i in indices:
            env, generator = envs[i], generators[i]
            if generator is None or shared:  # rng(i) makes one, or gives the shared one
                generator = self.rng(i)
            if env._np_random is not generator:  # handed over once: the same object from then on
                env.np_random = generator
            started.append(env)
        return started

    def _start_on_crew(self, indices: list[int]) -> None:
        """Reset sub-envs ``indices`` as their own resets do, the MuJoCo part on the crew.

        Each sub-env is timed and draws its start with its generator here (the first draws
        them all as arrays where it can, :meth:`MujocoEnv.start_states`); resetting its data,
        setting the state and ``mj_forward`` run on the helper threads
        (:meth:`GatheredSimulation.start`); then each is observed and reports its reset info.
        """
        sim, envs = self._sim, self.envs
        assert isinstance(sim, GatheredSimulation)
        started: list[Any] = self._with_generators(indices)  # suite envs (resets_as_suite_envs)
        for env in started:
            env.time_episode()
        qpos, qvel = np.empty((len(indices), sim.qpos.shape[1])), np.empty((len(indices), sim.qvel.shape[1]))
        envs[0].start_states(started, np.arange(len(indices)), qpos, qvel)
        sim.start(indices, qpos, qvel)
        observations, infos = self._observations, self._infos
        for i, env in zip(indices, started, strict=True):
            observations[i] = env._get_obs()
            infos[i] = env._get_reset_info()


def resets_as_suite_envs(env_class: type[MujocoEnv]) -> bool:
    """Whether ``env_class``'s reset is a suite env's: reset data, set a drawn start state, observe.

    The start is drawn before the data is reset (it reads none of it): ``start_state`` is the suite's.
    """
    return (
        env_class.reset is MujocoEnv.reset
        and env_class.reset_model is SuiteEnv.reset_model
        and env_class.start_state is SuiteEnv.start_state
        and env_class.set_state is MujocoEnv.set_state
    )


def starts_as_suite_envs(env_class: type[MujocoEnv]) -> bool:
    """Whether ``env_class`` draws its starts as a suite env does (what :class:`RowStarts` holds)."""
    return (
        issubclass(env_class, SuiteEnv)
        and env_class.start_state is SuiteEnv.start_state
        and env_class.start_states is SuiteEnv.start_states
    )
