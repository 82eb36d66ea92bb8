"""Natively batched MuJoCo envs: every sub-env's physics stepped in parallel, off the GIL.

Three ways to step, chosen by the env class:

- **Array steps** (classes that set ``scores_batches``: HalfCheetah, Hopper, Walker2d,
  Swimmer, InvertedPendulum, InvertedDoublePendulum, Reacher, Pusher v5, and the first
  five's v4): all simulations live in one ``mujoco.batch.Batch`` (MuJoCo 4), stepped by
  one C call on MuJoCo's own thread pool; the first sub-env scores the whole batch from
  ``(num_envs, ...)`` arrays with the same formulas its single step uses. Classes that also
  set ``resets_batches`` (all of those v5 ids) start their episodes in the batch's rows too
  (:meth:`MujocoEnv.start_batch`).
- **Gathered array steps** (Ant, Humanoid and HumanoidStandup v5, whose scoring reads the contact forces
  ``mujoco.batch`` does not compute): each sub-env's own data steps on helper threads,
  then the fields the scoring reads are gathered into arrays
  (:class:`~palaestra_mujoco._gathered_sim.GatheredSimulation`) and scored as above.
- **Threaded sub-env steps** (every other env): each sub-env's own ``begin_step`` and
  ``end_step`` run in the calling thread, and helper threads run the ``mj_step`` calls in
  between (the bindings release the GIL inside them).

Either way the numbers are those of ``SyncVectorEnv`` of ``make(id)`` envs (the tests check
it bit for bit), and :class:`~palaestra.plugin.BatchedVectorEnv` does the time limit,
autoreset and info bookkeeping once for the batch instead of once per sub-env in wrapper
layers.
"""

from __future__ import annotations

import warnings
import weakref
from typing import Any, ClassVar

import numpy as np

from palaestra.error import InvalidEnvArgumentValue, UnsupportedMode
from palaestra.plugin import (
    AutoresetMode,
    BatchedVectorEnv,
    check_num_envs,
    check_num_workers,
    invalid_actions,
    logger,
    per_env_values,
    render_before_reset,
    usable_cores,
)
from palaestra_mujoco import v4
from palaestra_mujoco._batch_infos import batched_infos, merged_infos
from palaestra_mujoco._batch_sim import BatchSimulation, batch_available
from palaestra_mujoco._episode_starts import EpisodeStarts, resets_as_suite_envs, starts_as_suite_envs
from palaestra_mujoco._gathered_sim import GatheredSimulation
from palaestra_mujoco._native import compiled
from palaestra_mujoco._row_starts import RowStarts
from palaestra_mujoco._threads import Crew, run_physics
from palaestra_mujoco.ant import AntEnv
from palaestra_mujoco.half_cheetah import HalfCheetahEnv
from palaestra_mujoco.hopper import HopperEnv
from palaestra_mujoco.humanoid import HumanoidEnv, HumanoidStandupEnv
from palaestra_mujoco.inverted_double_pendulum import InvertedDoublePendulumEnv
from palaestra_mujoco.inverted_pendulum import InvertedPendulumEnv
from palaestra_mujoco.mujoco_env import MujocoEnv
from palaestra_mujoco.pusher import PusherEnv
from palaestra_mujoco.reacher import ReacherEnv
from palaestra_mujoco.swimmer import SwimmerEnv
from palaestra_mujoco.walker2d import Walker2dEnv

__all__ = [
    "AntV4VectorEnv",
    "BatchSimulation",
    "AntVectorEnv",
    "HalfCheetahV4VectorEnv",
    "HopperV4VectorEnv",
    "HumanoidStandupV4VectorEnv",
    "HumanoidV4VectorEnv",
    "InvertedDoublePendulumV4VectorEnv",
    "InvertedPendulumV4VectorEnv",
    "PusherV4VectorEnv",
    "ReacherV4VectorEnv",
    "SwimmerV4VectorEnv",
    "Walker2dV4VectorEnv",
    "HalfCheetahVectorEnv",
    "HopperVectorEnv",
    "HumanoidStandupVectorEnv",
    "HumanoidVectorEnv",
    "InvertedDoublePendulumVectorEnv",
    "InvertedPendulumVectorEnv",
    "MujocoVectorEnv",
    "PusherVectorEnv",
    "ReacherVectorEnv",
    "SwimmerVectorEnv",
    "Walker2dVectorEnv",
    "available_cores",
]


# The cores this process may run on (the kit's usable_cores; this name is kept for callers).
available_cores = usable_cores


# What mj_rnePostConstraint computes after a step and mujoco.batch does not.
_BODY_FORCES = frozenset({"cacc", "cfrc_int", "cfrc_ext"})


def _one_knob(name: str, num_workers: Any, num_threads: Any) -> int | None:
    """The threads asked for: ``num_workers``, or the deprecated ``num_threads`` (with a warning)."""
    if num_threads is None:
        return check_num_workers(num_workers, name)
    if num_workers is not None:
        raise InvalidEnvArgumentValue(
            f"{name}: num_threads={num_threads!r} and num_workers={num_workers!r} name the same thing; "
            "give num_workers alone (make_vec(id, n, vector_kwargs={'num_workers': k}))"
        )
    warnings.warn(
        f"{name}: num_threads is deprecated; pass make_vec(id, n, vector_kwargs={{'num_workers': "
        f"{num_threads!r}}}), the knob every vectorizer and batched env takes",
        DeprecationWarning,
        stacklevel=4,
    )
    return check_num_workers(num_threads, name)


class MujocoVectorEnv(EpisodeStarts):
    """``num_envs`` copies of one MuJoCo env, their physics stepped in ``num_workers`` threads.

    Returns exactly what ``SyncVectorEnv`` of ``make(id)`` envs returns for the same seeds
    and actions, in every autoreset mode: the sub-envs are the suite's single envs.

    For your own :class:`MujocoEnv`, subclass with ``env_class = YourEnv``; the env must
    implement ``begin_step``/``end_step`` (the halves of a step around the physics). A
    class that also sets ``scores_batches = True`` in its own body (it is not inherited)
    and implements ``begin_batch``/``end_batch`` is stepped with array operations on one
    ``mujoco.batch.Batch``: its sub-envs' ``data`` are then brought up to date only when
    rendered or snapshotted (or by :meth:`sync_envs`); each simulation runs on its
    sub-env's own ``MjModel``. Such a batch reads its sub-envs' settings through the vector
    env: change them with :meth:`set_attr` or :meth:`call`, which take effect at once; one set
    on a sub-env directly (``envs.envs[i].init_qpos = ...``) counts from that sub-env's next
    ``reset()`` (its model, domain randomization, is read live).

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``make_vec`` passes the id's).
        render_mode: ``"rgb_array"``, ``"depth_array"``, ``"rgbd_tuple"`` or ``None``
            (a batch of windows is refused: render one sub-env with :meth:`render_env`).
        autoreset_mode: An :class:`~palaestra.vector.AutoresetMode` or its value.
        num_workers: Threads stepping physics, the calling one included; default: the
            cores this process may use (at most ``num_envs``). ``1`` steps in the caller.
            ``make_vec`` passes ``vector_kwargs={"num_workers": k}`` here. No more threads
            than usable cores are started (:attr:`physics_threads`: more would only wait
            for each other); ``num_workers`` keeps what was asked.
        num_threads: The old name of ``num_workers`` (deprecated: it warns).
        **kwargs: The single env's constructor arguments.
    """

    #: The single env each sub-env is.
    env_class: ClassVar[type[MujocoEnv]]
    snapshot_fields: ClassVar[tuple[str, ...]] = (
        *BatchedVectorEnv.snapshot_fields,
        "sub_env_snapshots",
        "_observations",
        "_infos",
    )
    row_axes: ClassVar[dict[str, int | None] | None] = {
        "sub_env_snapshots": None,
        "_observations": 0,
        "_infos": None,
    }

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        num_workers: int | None = None,
        num_threads: int | None = None,
        **kwargs: Any,
    ) -> None:
        name = type(self).__name__
        num_threads = _one_knob(name, num_workers, num_threads)
        if render_mode == "human":
            raise UnsupportedMode(
                f"{name} renders offscreen only (one window per sub-env would help nobody); use "
                "render_mode='rgb_array', or make(id, render_mode='human') to watch a single env"
            )
        if num_threads is None:
            num_threads = available_cores()
        num_envs = check_num_envs(num_envs)
        if self.env_class.begin_step is MujocoEnv.begin_step or self.env_class.end_step is MujocoEnv.end_step:
            raise TypeError(
                f"{name}: {self.env_class.__name__} implements step() as one piece; implement begin_step() "
                "and end_step() instead (MujocoEnv.step runs the physics between them) to batch it"
            )
        self.envs: list[MujocoEnv] = [
            self.env_class(render_mode=render_mode, **kwargs) for _ in range(num_envs)
        ]
        first = self.envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self.metadata = {**first.metadata, "autoreset_mode": self.autoreset_mode}
        self.num_workers = self.num_threads = min(num_threads, num_envs)
        # Threads beyond the cores only wait for each other: more workers start no more.
        self.physics_threads = min(self.num_workers, available_cores())
        self._observations = np.zeros((num_envs, *(first.observation_space.shape or ())), dtype=np.float64)
        self._infos: list[dict[str, Any]] = [{} for _ in range(num_envs)]
        self._all = list(range(num_envs))
        self._crew: Crew | None = None
        self._sim: BatchSimulation | GatheredSimulation | None = None
        scores_batches = vars(self.env_class).get("scores_batches") is True
        reads_body_forces = not _BODY_FORCES.isdisjoint(first.batch_outputs)
        in_one_batch = scores_batches and not reads_body_forces and batch_available()
        if in_one_batch:
            self._sim = BatchSimulation(self.envs, self.physics_threads, first.batch_outputs)
        else:  # the sub-envs' own data step, on helper threads
            self._start_crew()
            if scores_batches:  # the batch computes no body forces (or this MuJoCo has no batch)
                self._sim = GatheredSimulation(self.envs, self._crew, first.batch_outputs)
        self._columns: dict[str, np.ndarray] = {}  # the last array step's info, a column a key
        # Episodes start in the batch's rows (MujocoEnv.start_batch) where class and model allow;
        # a gathered suite env's start (its reset, which nothing overrides) runs on the crew.
        self._starts_rows = (
            self._sim is not None
            and self._sim.restarts
            and vars(self.env_class).get("resets_batches") is True
        )
        self._starts_on_crew = isinstance(self._sim, GatheredSimulation) and resets_as_suite_envs(
            self.env_class
        )
        # The rules of a suite env's starts, held in rows (the class must draw them as the suite does).
        self._held = (
            RowStarts(num_envs, first.model.nq, first.model.nv)
            if self._starts_rows and starts_as_suite_envs(self.env_class) and not self.shared_generator
            else None
        )

    @property
    def steps_arrays(self) -> bool:
        """Whether the sub-envs are scored as arrays.

        Their physics runs in one ``mujoco.batch.Batch``, or, for envs that read contact
        forces, in each sub-env's own data on threads, gathered into arrays after the step.
        ``set_attr`` with values that differ between sub-envs turns this off for good.
        """
        return self._sim is not None

    @property
    def resets_arrays(self) -> bool:
        """Whether episodes start in the batch's rows instead of by each sub-env's own reset."""
        return self._starts_rows

    # -- hooks ---------------------------------------------------------------------------

    def check_actions(self, actions: Any) -> np.ndarray:
        """A ``(num_envs, action_dim)`` batch of finite numbers (out-of-range ones MuJoCo clamps)."""
        arr = actions if actions.__class__ is np.ndarray else np.asarray(actions)
        shape = self.action_space.shape
        if arr.shape != shape or arr.dtype.kind not in "fiu" or not all_finite(arr):
            raise invalid_actions(self, actions)
        return arr

    def advance(self, actions: np.ndarray, stepping: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Step the sub-envs that step, as arrays of the batch or sub-env by sub-env in threads."""
        if self._sim is not None:
            return self._advance_arrays(self._sim, actions, stepping)
        return self._advance_threads(actions, stepping)

    def _advance_threads(
        self, actions: np.ndarray, stepping: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each sub-env's ``begin_step``, all the physics in parallel, each ``end_step``.

        The threads run only MuJoCo's C code (the GIL released) and a loop around it; the
        Python halves of the steps run in this thread. Interleaving Python between the
        physics calls instead would hand the GIL back and forth for every sub-env.
        """
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        envs, observations, infos = self.envs, self._observations, self._infos
        indices = self._all if stepping is None else stepping.nonzero()[0].tolist()
        begun = [envs[k].begin_step(actions[k]) for k in indices]
        run_physics(self._crew, envs, indices)
        for k, before in zip(indices, begun, strict=True):
            observation, reward, ended, _, info = envs[k].end_step(before)
            observations[k] = observation
            rewards[k] = reward
            terminated[k] = ended
            infos[k] = info
        return rewards, terminated

    def _advance_arrays(
        self, sim: BatchSimulation | GatheredSimulation, actions: np.ndarray, stepping: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Step the batch in one C call; the first sub-env scores every row.

        Rows that do not step (they are reset after this) get scored too, from their old
        state: the template discards their results and the reset overwrites them.
        """
        first = self.envs[0]
        begun = first.begin_batch(sim, actions)
        sim.ctrl[:] = actions
        sim.step(None if stepping is None else stepping.nonzero()[0])
        rewards, terminated, self._columns = first.end_batch(begun, sim, self._observations)
        return rewards, terminated

    def tally_step(
        self,
        rewards: np.ndarray,
        terminated: np.ndarray,
        resetting: np.ndarray | None,
        held: np.ndarray | None,
    ) -> tuple[np.ndarray, np.ndarray, int]:
        """The template's :meth:`~palaestra.plugin.BatchedVectorEnv.tally_step`, in one C loop where it can.

        After a batch's physics each numpy call costs several times what it costs in a tight
        loop (the physics has pushed numpy's objects out of the caches); the loop does the
        template's eight. The template's numpy is the specification (a test holds them equal).
        """
        if compiled is not None and held is None and type(self).truncations is BatchedVectorEnv.truncations:
            n = self.num_envs
            truncated, done = np.empty(n, dtype=np.bool_), np.empty(n, dtype=np.bool_)
            buffers = (self.steps, rewards, terminated, truncated, done)
            count = compiled.tally_step(buffers, self.max_episode_steps, resetting)
            if count is not None:
                return truncated, done, count
        return super().tally_step(rewards, terminated, resetting, held)

    def observe(self) -> np.ndarray:
        """Every sub-env's latest observation, as a new array."""
        observations: np.ndarray = self._observations.copy()
        return observations

    def info(self, reported: np.ndarray, reset: np.ndarray) -> dict[str, Any]:
        """The reported sub-envs' latest infos, batched as ``SyncVectorEnv`` batches them."""
        if self._sim is not None:
            # The template reports each sub-env after the step that moved it or the reset
            # that started it: those not reset in this call stepped in it.
            if reported is self._everyone:  # every step's own call: no mask arithmetic needed
                if reset is self._nobody:  # a step that started no episode
                    return merged_infos(self._columns, reported, [], self.num_envs)
                started = reset.nonzero()[0].tolist()
                if len(started) < self.num_envs:
                    resets = [(i, self._infos[i]) for i in started]
                    return merged_infos(self._columns, ~reset, resets, self.num_envs)
            else:
                from_step = reported & ~reset
                if np.count_nonzero(from_step):
                    resets = [(i, self._infos[i]) for i in (reported & reset).nonzero()[0].tolist()]
                    return merged_infos(self._columns, from_step, resets, self.num_envs)
        chosen = reported.nonzero()[0].tolist()
        if not chosen:
            return {}
        return batched_infos([self._infos[i] for i in chosen], reported, chosen, self.num_envs)

    # -- snapshots -----------------------------------------------------------------------

    @property
    def sub_env_snapshots(self) -> list[Any]:
        """Each sub-env's snapshot (its full MjData); assigning one restores them."""
        self.sync_envs()
        return [env.snapshot() for env in self.envs]

    @sub_env_snapshots.setter
    def sub_env_snapshots(self, snapshots: list[Any]) -> None:
        for i, (env, snapshot) in enumerate(zip(self.envs, snapshots, strict=True)):
            env.restore(snapshot)
            if self._sim is not None:
                self._sim.push(i)

    def sync_envs(self) -> None:
        """Bring every sub-env's ``data`` up to date (array steps leave it behind until asked)."""
        if self._sim is not None:
            for i in range(self.num_envs):
                self._sim.pull(i)

    # -- the sub-envs, as SyncVectorEnv exposes them ---------------------------------------

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call method ``name`` on every sub-env (or read the attribute if not callable).

        As ``SyncVectorEnv.call``; a sub-env's error carries its index as ``sub_env_index``.
        With array steps the sub-envs see their current state, and what the call changes in
        it (``set_state``, ...) is what the next step continues from.
        """
        self.sync_envs()
        results = []
        try:
            for i, env in enumerate(self.envs):
                try:
                    attribute = getattr(env, name)
                    results.append(attribute(*args, **kwargs) if callable(attribute) else attribute)
                except Exception as error:
                    error.sub_env_index = i  # type: ignore[attr-defined]
                    raise
        finally:
            self._push_all()
        return tuple(results)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute ``name`` of every sub-env."""
        self.sync_envs()
        return tuple(getattr(env, name) for env in self.envs)

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | Any) -> None:
        """Set ``name`` on every sub-env (one value for all, or one per sub-env).

        A sub-env's ``np_random`` is the generator its next episodes start from. Array
        steps score every row with sub-env 0's settings: values that differ between
        sub-envs make each sub-env step on its own from then on (see :attr:`steps_arrays`).
        """
        self.sync_envs()
        values = per_env_values(values, self.num_envs)
        for env, value in zip(self.envs, values, strict=True):
            setattr(env, name, value)
        if name == "np_random":  # the generators the sub-envs' starts draw from
            self.generators[:] = values
        elif self._sim is not None and not all(_same(value, values[0]) for value in values):
            self._step_each_on_its_own(name)
        self._push_all()

    def _step_each_on_its_own(self, name: str) -> None:
        """Leave the array steps: each sub-env steps and resets as its own env (sub-envs synced)."""
        logger.warn(
            f"{type(self).__name__}: the sub-envs now differ in {name!r}, and array steps score every "
            "sub-env with sub-env 0's settings; from now on each sub-env steps on its own, as in "
            "SyncVectorEnv (the same numbers, slower). Give every sub-env the same value to keep array steps",
            stacklevel=3,  # the caller of set_attr
        )
        self._sim, self._starts_rows, self._starts_on_crew, self._columns = None, False, False, {}
        self._start_crew()

    def _start_crew(self) -> None:
        """Helper threads for the sub-envs' own physics steps, where there are threads to spare."""
        if self.physics_threads > 1 and self._crew is None:
            self._crew = Crew(self.physics_threads - 1)
            weakref.finalize(self, self._crew.close)

    def _push_all(self) -> None:
        if self._sim is not None:
            for i in range(self.num_envs):
                self._sim.push(i)

    # -- rendering -----------------------------------------------------------------------

    def render(self) -> tuple[Any, ...] | None:
        """Every sub-env's frame, as ``SyncVectorEnv.render`` returns them."""
        if self.render_mode is None:
            return super().render()  # warns, as every env does without a render mode
        return tuple(self.render_env(i) for i in range(self.num_envs))

    def render_env(self, index: int) -> Any:
        """Sub-env ``index``'s frame in the render mode (cheaper than rendering all of them)."""
        if not 0 <= index < self.num_envs:
            raise IndexError(f"{type(self).__name__} has sub-envs 0 to {self.num_envs - 1}, not {index}")
        if not self._has_reset:
            raise render_before_reset(self)
        if self._sim is not None:
            self._sim.pull(index)
        return self.envs[index].render()

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the threads and release the sub-envs' renderers."""
        if self._crew is not None:
            self._crew.close()
        self._sim = None
        for env in self.envs:
            env.close()


def all_finite(array: np.ndarray) -> bool:
    """``np.isfinite(array).all()``, in C where it can (float64 and float32 arrays in one piece)."""
    if compiled is not None:
        finite: bool | None = compiled.all_finite(array)
        if finite is not None:
            return finite
    return bool(np.isfinite(array).all())


def _same(value: Any, first: Any) -> bool:
    """Whether a sub-env's value is sub-env 0's (arrays by their numbers; ``False`` when unsure)."""
    if value is first:
        return True
    if type(value) is not type(first):
        return False
    try:
        if isinstance(value, np.ndarray):
            return value.dtype == first.dtype and bool(np.array_equal(value, first))
        return bool(value == first)
    except Exception:  # a value that does not compare: treat it as different
        return False


def _batched(env_class: type[MujocoEnv], env_id: str) -> type[MujocoVectorEnv]:
    version = "V4" if env_id.endswith("-v4") else ""
    name = env_class.__name__.removesuffix("Env") + version + "VectorEnv"
    doc = f"``{env_id}`` batched: :class:`MujocoVectorEnv` of :class:`~{env_class.__module__}.{env_class.__name__}`."
    return type(name, (MujocoVectorEnv,), {"env_class": env_class, "__doc__": doc, "__module__": __name__})


AntVectorEnv = _batched(AntEnv, "Ant-v5")
HalfCheetahVectorEnv = _batched(HalfCheetahEnv, "HalfCheetah-v5")
HopperVectorEnv = _batched(HopperEnv, "Hopper-v5")
HumanoidVectorEnv = _batched(HumanoidEnv, "Humanoid-v5")
HumanoidStandupVectorEnv = _batched(HumanoidStandupEnv, "HumanoidStandup-v5")
InvertedDoublePendulumVectorEnv = _batched(InvertedDoublePendulumEnv, "InvertedDoublePendulum-v5")
InvertedPendulumVectorEnv = _batched(InvertedPendulumEnv, "InvertedPendulum-v5")
PusherVectorEnv = _batched(PusherEnv, "Pusher-v5")
ReacherVectorEnv = _batched(ReacherEnv, "Reacher-v5")
SwimmerVectorEnv = _batched(SwimmerEnv, "Swimmer-v5")
Walker2dVectorEnv = _batched(Walker2dEnv, "Walker2d-v5")

AntV4VectorEnv = _batched(v4.AntEnv, "Ant-v4")
HalfCheetahV4VectorEnv = _batched(v4.HalfCheetahEnv, "HalfCheetah-v4")
HopperV4VectorEnv = _batched(v4.HopperEnv, "Hopper-v4")
HumanoidV4VectorEnv = _batched(v4.HumanoidEnv, "Humanoid-v4")
HumanoidStandupV4VectorEnv = _batched(v4.HumanoidStandupEnv, "HumanoidStandup-v4")
InvertedDoublePendulumV4VectorEnv = _batched(v4.InvertedDoublePendulumEnv, "InvertedDoublePendulum-v4")
InvertedPendulumV4VectorEnv = _batched(v4.InvertedPendulumEnv, "InvertedPendulum-v4")
PusherV4VectorEnv = _batched(v4.PusherEnv, "Pusher-v4")
ReacherV4VectorEnv = _batched(v4.ReacherEnv, "Reacher-v4")
SwimmerV4VectorEnv = _batched(v4.SwimmerEnv, "Swimmer-v4")
Walker2dV4VectorEnv = _batched(v4.Walker2dEnv, "Walker2d-v4")
