"""Pieces shared by the suite's envs: constructor plumbing, start-state noise, costs."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from palaestra import error, spaces  # error: these classes are defined when raised
from palaestra.plugin import EzPickle
from palaestra_mujoco._native import compiled
from palaestra_mujoco._row_sums import pairwise_holds, row_dots, square_sums
from palaestra_mujoco._start_draws import (
    WIDEST_NOISE,
    gather_rows,
    normal_starts,
    random_rows,
    uniform_rows,
    uniform_rows_hold,
    uniform_starts,
)
from palaestra_mujoco.mujoco_env import _PLAIN_NUMBERS, MujocoEnv, gather_plan

__all__ = ["WALK_TERMS", "PricedArm", "SuiteEnv", "contacts_possible", "norm", "row_norms"]

#: The terms of Ant's and Humanoid's step info (each env reports them in its ``walk_info_keys``
#: order); the C end of their batch steps fills its columns in this order.
WALK_TERMS = ("x_velocity", "y_velocity", "reward_forward", "reward_ctrl", "reward_contact", "reward_survive")


def norm(vector: np.ndarray) -> float:
    """Euclidean length by the same dot product ``np.linalg.norm`` uses (same last bits)."""
    return math.sqrt(vector.dot(vector))


def row_norms(vectors: np.ndarray) -> np.ndarray:
    """:func:`norm` of each row, by the same dot product per row (:func:`row_dots`)."""
    lengths: np.ndarray = np.sqrt(row_dots(vectors))
    return lengths


def contacts_possible(model: Any) -> bool:
    """Whether collision detection could find anything in ``model``.

    True where two geoms' contact type and affinity bits overlap, or the model declares
    explicit contact pairs or deformable (flex) objects.
    """
    types, affinities = model.geom_contype, model.geom_conaffinity
    overlapping = (types[:, None] & affinities[None, :]) | (affinities[:, None] & types[None, :])
    return bool(overlapping.any()) or model.npair > 0 or model.nflex > 0


_FLOAT32 = np.dtype(np.float32)
# Below this many starts at once, the arrays' fixed cost outweighs the per-row Python it saves.
_ARRAY_STARTS_FROM = 8
_RENDER_OPTIONS = frozenset(
    {"render_mode", "width", "height", "camera_id", "camera_name", "max_geom", "visual_options"}
)
_MODEL_ARGUMENTS = ("xml_file", "frame_skip", "default_camera_config")


class SuiteEnv(MujocoEnv, EzPickle):
    """A suite env: its constructor's arguments recorded once, the model loaded.

    Each env's ``__init__`` declares its keyword arguments and passes them here by name
    (``settings``), with its ``**kwargs`` (``options``). Every setting becomes
    ``self._<name>`` (``self._ctrl_cost_weight``, ...); ``xml_file``, ``frame_skip`` and
    ``default_camera_config`` load the model; the options are rendering options of
    :class:`MujocoEnv` (anything else is a ``TypeError``). The same arguments rebuild the
    env when it is pickled or copied.
    """

    # Two collision/solver stages buy nothing for one robot on a floor: splitting the
    # constraints into islands, and the bounding-volume culling between multi-geom bodies.
    # Skipping them saves 5-10% of a physics step, and the trajectories stay bit-identical
    # (checked by the differential tests). Envs with separate free objects keep them.
    skipped_stages: tuple[str, ...] = ("mjDSBL_ISLAND", "mjDSBL_MIDPHASE")
    velocity_noise = "uniform"
    # Only the envs that observe or price contact forces (Ant, the humanoids) need them.
    uses_body_forces = False
    # The control cost in float64 (as of data.ctrl) instead of in the action's dtype.
    prices_in_float64 = False
    #: Observed velocities are clipped to ``[-bound, bound]`` (``None``: not clipped).
    velocity_bound: float | None = None
    # Each env's constructor arguments, kept by __init__ as ``_<name>`` (those it has).
    _contact_cost_range: tuple[float, float]
    _contact_cost_weight: float
    _contact_force_range: tuple[float, float]
    _ctrl_cost_weight: float
    _exclude_current_positions_from_observation: bool
    _forward_reward_weight: float
    _healthy_angle_range: tuple[float, float]
    _healthy_reward: float
    _healthy_state_range: tuple[float, float]
    _healthy_z_range: tuple[float, float]
    _impact_cost_range: tuple[float, float]
    _impact_cost_weight: float
    _include_cfrc_ext_in_observation: bool
    _include_cinert_in_observation: bool
    _include_cvel_in_observation: bool
    _include_qfrc_actuator_in_observation: bool
    _reset_noise_scale: float
    _reward_control_weight: float
    _reward_dist_weight: float
    _reward_near_weight: float
    _terminate_when_unhealthy: bool
    _uph_cost_weight: float

    def __init__(self, settings: dict[str, Any], options: dict[str, Any]) -> None:
        unknown = sorted(set(options) - _RENDER_OPTIONS)
        if unknown:  # Python's own wording first: libraries (TorchRL) probe arguments by it
            more = f" (and {unknown[1:]})" if len(unknown) > 1 else ""
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument {unknown[0]!r}{more}"
            )
        _check_numbers(type(self).__name__, settings)
        EzPickle.__init__(self, **settings, **options)
        for name, value in settings.items():
            if name not in _MODEL_ARGUMENTS:
                setattr(self, f"_{name}", value)
        MujocoEnv.__init__(
            self,
            settings["xml_file"],
            settings["frame_skip"],
            observation_space=None,
            default_camera_config=settings["default_camera_config"],
            **options,
        )
        for stage in self.skipped_stages:
            self.model.opt.disableflags |= int(getattr(self._mujoco.mjtDisableBit, stage))
        if not contacts_possible(self.model):  # collision detection would find nothing
            self.model.opt.disableflags |= int(self._mujoco.mjtDisableBit.mjDSBL_CONTACT)

    def _layout(self, skipped: int, **extra_sizes: int) -> None:
        """Observation = positions after the first ``skipped``, velocities, then extras."""
        self._positions = self._qpos[skipped:]
        self._observed, self._observed_at = gather_plan(self._positions, self._qvel)
        sizes = {"skipped_qpos": skipped, "qpos": self.model.nq - skipped, "qvel": self.model.nv}
        self.observation_structure = {**sizes, **extra_sizes}
        self._box(sizes["qpos"] + sizes["qvel"] + sum(extra_sizes.values()))

    def _get_obs(self) -> np.ndarray:
        return self._observed[self._observed_at]  # type: ignore[no-any-return]

    # -- the runners' first half, for one env and for a batch (see MujocoEnv.begin_batch) --

    def begin_step(self, action: np.ndarray) -> Any:
        """Set the torques; note the x position before and the control cost."""
        return self._qpos.item(0), self._priced(action)

    def begin_batch(self, sim: Any, actions: np.ndarray) -> Any:
        """:meth:`begin_step` of every simulation: each x position and control cost."""
        return sim.qpos[:, 0].copy(), self.control_costs(actions)

    # -- the second half of a batch step: numpy's, or one C loop where a class's body allows --

    #: Whether :meth:`compiled_end_batch` ends this class's batch steps, read from the class's
    #: own body (not inherited): a subclass that changes a rule the loop mirrors is scored by
    #: numpy unless it says so again.
    ends_in_c = False

    def end_batch(
        self, begun: Any, sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """:meth:`end_step` of every simulation: :meth:`plain_end_batch`, in C where it can.

        The C loop (:meth:`compiled_end_batch`) runs where the class's own body sets
        ``ends_in_c`` and the compiled module was built; it leaves to numpy what it cannot do
        with the same numbers.
        """
        if compiled is not None and vars(type(self)).get("ends_in_c") is True:
            ended = self.compiled_end_batch(begun, sim, observations)
            if ended is not None:
                return ended
        return self.plain_end_batch(begun, sim, observations)

    def plain_end_batch(
        self, begun: Any, sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """:meth:`end_batch` with numpy: the specification of :meth:`compiled_end_batch`."""
        raise NotImplementedError

    def compiled_end_batch(
        self, begun: Any, sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]] | None:
        """:meth:`plain_end_batch` in one C loop; ``None``, nothing written, where it leaves the batch to numpy."""
        return None

    def control_costs(self, actions: np.ndarray, weight: Any = None) -> np.ndarray:
        """Each row's :meth:`control_cost` (or ``weighted_square_sum`` with ``weight``), as float64.

        A float32 action's cost is a float32 number, as in the single env.
        """
        if weight is None:
            weight = self._ctrl_cost_weight
            if self.prices_in_float64:
                actions = actions.astype(np.float64)
        if weight.__class__ in _PLAIN_NUMBERS:
            # Each row summed as numpy sums one action (square_sums), priced in its dtype.
            costs: np.ndarray = (weight * square_sums(actions)).astype(np.float64)
            return costs
        return np.array([self.weighted_square_sum(weight, row) for row in actions], dtype=np.float64)

    def observe_batch(self, qpos: np.ndarray, qvel: np.ndarray, observations: np.ndarray) -> None:
        """Each simulation's observation of :meth:`_layout` (positions after the skipped, velocities)."""
        skipped = self.observation_structure.get("skipped_qpos", 0)
        split = qpos.shape[1] - skipped
        observations[:, :split] = qpos[:, skipped:]
        velocities = observations[:, split : split + qvel.shape[1]]
        velocities[:] = qvel
        if self.velocity_bound is not None:
            np.maximum(velocities, -self.velocity_bound, out=velocities)
            np.minimum(velocities, self.velocity_bound, out=velocities)

    def control_cost(self, action: np.ndarray) -> float:
        """``ctrl_cost_weight * sum(action**2)`` in the action's dtype."""
        return self.weighted_square_sum(self._ctrl_cost_weight, action)

    def _priced(self, action: Any) -> float:
        """Check and price ``action`` and set it as the controls (the physics comes after).

        Returns:
            The control cost (:meth:`control_cost`; a NaN or infinite action is refused
            before it reaches MuJoCo).
        """
        if action.__class__ is not np.ndarray or action.dtype is not _FLOAT32 or action.shape != self._shape:
            action = self._checked_action(action)
        cost = self.control_cost(action)
        if cost - cost != 0:  # NaN or infinite: one comparison for the common case
            self._require_finite(action, cost)
        self._ctrl[:] = action
        return cost

    def reset_model(self) -> np.ndarray:
        """Start from :meth:`start_state`."""
        self.set_state(*self.start_state())
        return self._get_obs()

    def start_state(self) -> tuple[np.ndarray, np.ndarray]:
        """The model's initial state plus noise of ``reset_noise_scale``.

        Positions get uniform noise in ``[-scale, scale]``; velocities the same, or normal
        noise of that standard deviation when the env's ``velocity_noise`` is ``"normal"``.
        """
        rng, scale = self.np_random, self._reset_noise_scale
        nq, nv = len(self.init_qpos), len(self.init_qvel)
        if self.velocity_noise == "normal":
            qpos = self.init_qpos + rng.uniform(-scale, scale, nq)
            return qpos, self.init_qvel + scale * rng.standard_normal(nv)
        # One draw for both: uniform numbers come one after another from the stream, so the
        # first nq are those a draw of nq would give and the rest those of the next draw.
        noise = rng.uniform(-scale, scale, nq + nv)
        return self.init_qpos + noise[:nq], self.init_qvel + noise[nq:]

    def start_states(self, envs: Sequence[Any], rows: np.ndarray, qpos: np.ndarray, qvel: np.ndarray) -> None:
        """:meth:`start_state` of each of ``envs`` into its row of ``qpos`` and ``qvel``, as arrays.

        Each sub-env's noise is drawn by its own generator in one call per stream (the
        numbers its ``uniform`` and ``standard_normal`` would give, see :mod:`._start_draws`);
        the scaling and the sums are done for all rows at once. A C loop does whole starts where
        the compiled module was built (with normal velocity noise, where numpy's normal draw
        could be linked too).
        """
        if type(self).start_state is not SuiteEnv.start_state:
            super().start_states(envs, rows, qpos, qvel)  # a start of the class's own
            return
        # Whole starts in one C loop, as many as it can.
        if self.velocity_noise == "normal":
            done = normal_starts(envs, rows, qpos, qvel)
        else:
            done = uniform_starts(envs, rows, qpos, qvel)
        if done == len(envs):
            return
        envs, rows = envs[done:], rows[done:]
        if len(envs) < _ARRAY_STARTS_FROM:
            if envs:  # few left: each env's own start_state
                super().start_states(envs, rows, qpos, qvel)
            return
        scales = [env._reset_noise_scale for env in envs]
        plain = all(scale.__class__ in _PLAIN_NUMBERS for scale in scales)
        half_widths = np.array(scales if plain else [], dtype=np.float64)
        valid = ((half_widths >= 0) & (half_widths <= WIDEST_NOISE)).all()  # NaN fails both
        if not (plain and valid and uniform_rows_hold()):  # numpy's own words for a bad scale
            super().start_states(envs, rows, qpos, qvel)
            return
        nq, nv = qpos.shape[1], qvel.shape[1]
        normal = self.velocity_noise == "normal"
        doubles = np.empty((len(envs), nq if normal else nq + nv))
        normals = np.empty((len(envs), nv))
        init_qpos, init_qvel = np.empty((len(envs), nq)), np.empty((len(envs), nv))
        generators = [env.np_random for env in envs]
        if normal:  # each generator's uniforms, then its normals, sub-env by sub-env (they may share one)
            for rng, row, normals_row in zip(generators, doubles, normals, strict=True):
                rng.random(out=row)
                rng.standard_normal(out=normals_row)
        else:
            random_rows(generators, doubles)
        gather_rows(envs, "init_qpos", init_qpos)
        gather_rows(envs, "init_qvel", init_qvel)
        noise = uniform_rows(half_widths, doubles)
        qpos[rows] = init_qpos + noise[:, :nq]
        qvel[rows] = init_qvel + (half_widths.reshape(-1, 1) * normals if normal else noise[:, nq:])

    #: Whether an episode's first observation reads derived quantities (body positions,
    #: constraint forces): :meth:`start_batch` brings the started rows forward first.
    observes_derived = False

    def start_batch(self, sim: Any, rows: np.ndarray, observations: np.ndarray) -> list[dict[str, Any]]:
        """Observe the started rows as :meth:`observe_rows` does; each row's reset info."""
        if self.observes_derived:
            sim.forward(rows)
        if not self._observed_in_c(sim, rows, observations):
            started = np.empty((len(rows), observations.shape[1]), dtype=observations.dtype)
            self.observe_rows(sim, rows, started)
            observations[rows] = started
        if type(self)._reset_info is MujocoEnv._reset_info:  # an empty info each
            return [{} for _ in range(len(rows))]
        return [self._reset_info(positions) for positions in sim.qpos[rows]]

    def observe_rows(self, sim: Any, rows: Any, observations: np.ndarray) -> None:
        """The observations of simulations ``rows`` (indices, or ``slice(None)`` for all)."""
        self.observe_batch(sim.qpos[rows], sim.qvel[rows], observations)

    def _observed_in_c(self, sim: Any, rows: np.ndarray, observations: np.ndarray) -> bool:
        """Rows ``rows`` of ``observations`` as :meth:`observe_rows` gives them, in one C loop: whether done.

        Only for classes that observe as this one does (the loop mirrors :meth:`observe_batch`).
        """
        cls = type(self)
        if (
            compiled is None
            or cls.observe_rows is not SuiteEnv.observe_rows
            or cls.observe_batch is not SuiteEnv.observe_batch
        ):
            return False
        skipped = self.observation_structure.get("skipped_qpos", 0)
        observed: bool = compiled.observe_rows(
            sim.qpos, sim.qvel, observations, rows.tolist(), skipped, self.velocity_bound
        )
        return observed

    #: Ant's and Humanoid's step info after the position, in the env's own key order.
    walk_info_keys: tuple[str, ...] = ()

    def _walk_scored(
        self,
        before: Any,
        after: Any,
        ctrl: Any,
        contact: Any,
        healthy: Any,
        dt: Any,
        position: dict[str, Any],
    ) -> tuple[Any, dict[str, Any]]:
        """Ant's and Humanoid's reward and info: of one env from numbers, of a batch from arrays.

        ``before`` and ``after`` are the tracked x and y (a pair of numbers or of columns):
        forward speed times ``forward_reward_weight``, plus ``healthy_reward`` while healthy,
        minus the control and contact costs.
        """
        x_velocity = (after[0] - before[0]) / dt
        y_velocity = (after[1] - before[1]) / dt
        forward = x_velocity * self._forward_reward_weight
        survive = healthy * self._healthy_reward
        terms = dict(
            zip(WALK_TERMS, (x_velocity, y_velocity, forward, -ctrl, -contact, survive), strict=True)
        )
        return (forward + survive) - (ctrl + contact), {
            **position,
            **{key: terms[key] for key in self.walk_info_keys},
        }

    def _walk_ends(
        self,
        begun: tuple[np.ndarray, np.ndarray],
        sim: Any,
        observations: np.ndarray,
        walk: dict[str, Any],
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]] | None:
        """Ant's and Humanoid's ``compiled_end_batch``: one C loop (``walk_ends``) around numpy's BLAS parts.

        ``walk`` holds what differs between them: ``after`` (each row's tracked x-y), ``forces``
        (cfrc_ext, a row per sub-env), ``rules`` (``walk_ends``' nine), ``extras`` (observed parts
        after the velocities), ``open_range``, ``finite_state``, ``forces_observed`` and
        ``more_position`` (info columns after the distance). The distances from the origin are
        numpy's (BLAS), as :meth:`_planar_positions` takes them. ``None``, nothing observed, where
        the loop leaves the batch to numpy.
        """
        if self.velocity_bound is not None or not pairwise_holds():
            return None
        before, ctrl = begun
        n = len(ctrl)
        rewards, terminated = np.empty(n), np.empty(n, dtype=np.bool_)
        columns = [np.empty(n) for _ in range(8)]
        distance = row_norms(sim.qpos[:, :2].copy())
        buffers = (sim.qpos, sim.qvel, walk["forces"], before, walk["after"], observations, ctrl, sim.dt, distance,
                   rewards, terminated, *columns)  # fmt: skip
        skipped = self.observation_structure.get("skipped_qpos", 0)
        if not compiled.walk_ends(
            buffers,
            walk["rules"],
            walk["extras"],
            skipped,
            walk["open_range"],
            walk["finite_state"],
            self._terminate_when_unhealthy,
            walk["forces_observed"],
        ):
            return None
        x, y, *scored = columns  # the loop writes the terms in WALK_TERMS' order
        terms = dict(zip(WALK_TERMS, scored, strict=True))
        info = {
            "x_position": x,
            "y_position": y,
            "distance_from_origin": distance,
            **walk["more_position"],
            **{key: terms[key] for key in self.walk_info_keys},
        }
        return rewards, terminated, info

    def _planar_position(self) -> dict[str, float]:
        qpos = self._qpos
        return {
            "x_position": qpos.item(0),
            "y_position": qpos.item(1),
            "distance_from_origin": norm(qpos[:2]),
        }

    def _planar_positions(self, qpos: np.ndarray) -> dict[str, np.ndarray]:
        """:meth:`_planar_position` of each row of a batch's ``qpos``."""
        return {
            "x_position": qpos[:, 0].copy(),
            "y_position": qpos[:, 1].copy(),
            "distance_from_origin": row_norms(qpos[:, :2].copy()),
        }

    def _box(self, size: int) -> None:
        self.observation_space = spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float64)

    def _body_id(self, body: int | str) -> int:
        """The index of ``body`` (a name or an index), with an error listing the bodies."""
        mujoco = self._mujoco
        count = self.model.nbody
        index = (
            mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_BODY, body) if isinstance(body, str) else body
        )
        if not isinstance(index, (int, np.integer)) or not 0 <= index < count:
            bodies = [mujoco.mj_id2name(self.model, mujoco.mjtObj.mjOBJ_BODY, i) for i in range(count)]
            raise ValueError(f"{type(self).__name__}: no body {body!r} in the model; its bodies: {bodies}")
        return int(index)


class PricedArm(SuiteEnv):
    """Reacher and Pusher: the control reward is priced before the physics, as in Gymnasium."""

    def begin_step(self, action: np.ndarray) -> float:
        """Set the torques; note the control reward (priced before the physics, as in Gymnasium)."""
        action = self._checked_action(action)
        # Evaluated in the action's dtype (float32 for float32 actions), as Gymnasium 1.4.0 does.
        ctrl = -self.weighted_square_sum(self._reward_control_weight, action)
        self._require_finite(action, ctrl)
        self._ctrl[:] = action
        return ctrl

    def begin_batch(self, sim: Any, actions: np.ndarray) -> np.ndarray:
        """Each control reward (priced before the physics, as :meth:`begin_step` does)."""
        ctrl: np.ndarray = -self.control_costs(actions, self._reward_control_weight)
        return ctrl


def _check_numbers(env: str, settings: dict[str, Any]) -> None:
    """Refuse NaN anywhere and infinities in single numbers (ranges may be open: ``(0.7, inf)``).

    Raises:
        InvalidEnvArgumentValue: Names the argument and the value.
    """
    for name, value in settings.items():
        if isinstance(value, bool) or not isinstance(
            value, (int, float, np.integer, np.floating, tuple, list)
        ):
            continue
        values = value if isinstance(value, (tuple, list)) else (value,)
        try:
            numbers = np.asarray(values, dtype=np.float64)
        except (TypeError, ValueError):
            continue
        bad = np.isnan(numbers).any() or (
            not isinstance(value, (tuple, list)) and not np.isfinite(numbers).all()
        )
        if bad:
            raise error.InvalidEnvArgumentValue(
                f"{env}: {name}={value!r} is not a usable number; give a finite value"
                + (
                    " (a range may be open, e.g. (0.7, inf), but not NaN)"
                    if isinstance(value, (tuple, list))
                    else ""
                )
            )
