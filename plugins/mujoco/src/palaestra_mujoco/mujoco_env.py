"""MujocoEnv: the base class of the MuJoCo suite, usable for your own models too."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from palaestra import Env, error, spaces  # error: these classes are defined when raised
from palaestra.plugin import invalid_action, real_array, warn_no_render_mode
from palaestra_mujoco._gl import import_mujoco
from palaestra_mujoco._model_cache import compile_model
from palaestra_mujoco._render import RENDER_MODES, SceneRenderer

__all__ = [
    "DEFAULT_SIZE",
    "MODELS_DIR",
    "MujocoEnv",
    "constructor_arguments",
    "expand_model_path",
    "gather_plan",
    "load_model",
]

DEFAULT_SIZE = 480
MODELS_DIR = Path(__file__).parent / "assets"


def expand_model_path(model_path: str | os.PathLike[str]) -> str:
    """The file behind ``model_path``.

    A bare file name (``"hopper.xml"``) names a model bundled with this package; a path
    starting with ``/``, ``.`` or ``~``, or any path that exists, names a file of yours.

    Raises:
        FileNotFoundError: Neither exists; the message lists the bundled models.
    """
    text = os.fspath(model_path)
    explicit = text.startswith(("/", ".", "~"))
    candidates = [Path(text).expanduser()] if explicit else [MODELS_DIR / text, Path(text)]
    for candidate in candidates:
        if candidate.is_file():
            return str(candidate)
    bundled = sorted(p.name for p in MODELS_DIR.glob("*.xml"))
    raise FileNotFoundError(
        f"MuJoCo model file {text!r} not found (looked at {[str(c) for c in candidates]}); give a path to "
        f"your MJCF file or one of the bundled models: {bundled}"
    )


def _declared_total_mass(mujoco: Any, model: Any) -> float | None:
    """The model's ``<numeric name="total_mass">``, if it declares one."""
    index = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_NUMERIC, "total_mass")
    if index < 0:
        return None
    return float(model.numeric_data[model.numeric_adr[index]])


def load_model(source: str | os.PathLike[str]) -> tuple[Any, Any]:
    """Compile an MJCF file or text into ``(MjModel, MjData)``, honouring ``total_mass``.

    Args:
        source: A model path (see :func:`expand_model_path`) or MJCF text (starts with ``<``).
    """
    mujoco = import_mujoco()
    if isinstance(source, str) and source.lstrip().startswith("<"):
        model = mujoco.MjModel.from_xml_string(source)
    else:
        model = compile_model(mujoco, expand_model_path(source), str(MODELS_DIR))
    data = mujoco.MjData(model)
    total_mass = _declared_total_mass(mujoco, model)
    if total_mass is not None:
        mujoco.mj_setTotalmass(model, total_mass)
        mujoco.mj_setConst(model, data)  # constants that depend on the masses
    return model, data


_FLOAT32 = np.dtype(np.float32)
_PLAIN_NUMBERS = (float, int)


def gather_plan(*parts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A flat view and indices with ``view[indices] == np.concatenate(parts)``, as a new array.

    ``parts`` are live float64 arrays of one ``MjData`` (``qpos``, ``qvel``, rows of
    ``xpos``, ...). They all live in MjData's memory, so one read-only view spanning them
    and a fixed index array pick them out again after every step; that indexing costs a
    fifth of ``np.concatenate``, which matters on a step path of a few microseconds.
    Only the indexed elements are ever read.
    """
    for part in parts:
        if part.dtype != np.float64 or not part.flags.c_contiguous:
            raise ValueError(f"gather_plan needs contiguous float64 arrays, got {part.dtype} {part.strides}")
    starts = [part.ctypes.data for part in parts]
    lowest = min(range(len(parts)), key=starts.__getitem__)
    origin, itemsize = starts[lowest], np.dtype(np.float64).itemsize
    if any((start - origin) % itemsize for start in starts):
        raise ValueError("gather_plan needs parts aligned to whole float64 elements")
    offsets = [(start - origin) // itemsize for start in starts]
    indices = np.concatenate(
        [np.arange(part.size) + offset for part, offset in zip(parts, offsets, strict=True)]
    )
    span = max(offset + part.size for part, offset in zip(parts, offsets, strict=True))
    view = np.lib.stride_tricks.as_strided(
        parts[lowest].reshape(-1), shape=(span,), strides=(itemsize,), writeable=False
    )
    return view, indices


def constructor_arguments(given: dict[str, Any]) -> dict[str, Any]:
    """A constructor's named arguments, from its ``locals()`` taken first thing.

    Each env's constructor states its parameters once, in its signature; this reads them
    back for the base class (which checks them and keeps them for pickling).
    """
    return {name: value for name, value in given.items() if name not in ("self", "kwargs", "__class__")}


def _positive_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


class MujocoEnv(Env[np.ndarray, np.ndarray]):
    """An env simulated by MuJoCo.

    Subclasses implement ``begin_step`` and ``end_step`` (or ``step``), ``reset_model`` (set the start state with
    :meth:`set_state`, return the first observation) and optionally ``_get_reset_info``.

    A model may declare ``<custom><numeric name="total_mass" data="..."/></custom>``: its
    masses and inertias are then scaled to that total when it is loaded (the replacement
    for MuJoCo's deprecated ``<compiler settotalmass>``).

    Args:
        model_path: MJCF file (see :func:`expand_model_path`) or the MJCF text itself
            (anything starting with ``<``).
        frame_skip: Physics steps per env step; ``dt = timestep * frame_skip``.
        observation_space: The observation space (subclasses may set it later instead).
        render_mode: One of ``"human"``, ``"rgb_array"``, ``"depth_array"`` (metres from the
            camera), ``"rgbd_tuple"`` or ``None``.
        width, height: Size of offscreen frames.
        camera_id, camera_name: Render from this camera of the model instead of the free one.
        default_camera_config: Placement of the free camera (see :class:`SceneRenderer`).
        max_geom: Scene capacity in geoms.
        visual_options: ``{mjtVisFlag: bool}`` switches for rendering.

    Attributes:
        model, data: The ``mujoco.MjModel`` and ``mujoco.MjData``.
        init_qpos, init_qvel: The model's initial state (reset noise is added to these).
        uses_body_forces: Whether each step also computes ``data.cfrc_ext``/``cacc``/
            ``cfrc_int`` (``mj_rnePostConstraint``). Suite envs that never read them switch
            it off; it never changes the motion.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}
    uses_body_forces = True
    # Besides these, a snapshot holds a full copy of ``data``: derived quantities (body
    # positions, contact forces) feed the next step's reward and observation.
    snapshot_fields: ClassVar[tuple[str, ...]] = ("_timestep", "_dt")
    # Kwargs that only change rendering: a snapshot restores across them.
    snapshot_ignores_kwargs: ClassVar[frozenset[str]] = frozenset(
        {
            "render_mode",
            "width",
            "height",
            "camera_id",
            "camera_name",
            "default_camera_config",
            "max_geom",
            "visual_options",
        }
    )

    def __init__(
        self,
        model_path: str | os.PathLike[str],
        frame_skip: int,
        observation_space: spaces.Space[Any] | None = None,
        render_mode: str | None = None,
        width: int = DEFAULT_SIZE,
        height: int = DEFAULT_SIZE,
        camera_id: int | None = None,
        camera_name: str | None = None,
        default_camera_config: dict[str, Any] | None = None,
        max_geom: int = 1000,
        visual_options: dict[int, bool] | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise error.UnsupportedMode(
                f"{type(self).__name__}: render_mode {render_mode!r} is not one of {list(RENDER_MODES)} or None"
            )
        self.frame_skip = _positive_int("frame_skip", frame_skip)
        self.width = _positive_int("width", width)
        self.height = _positive_int("height", height)
        self._mujoco = mujoco = import_mujoco()
        self.model, self.data = self._initialize_simulation(model_path)
        self.init_qpos = self.data.qpos.ravel().copy()
        self.init_qvel = self.data.qvel.ravel().copy()
        self.render_mode = render_mode
        self.camera_id, self.camera_name = camera_id, camera_name
        self.metadata = {**type(self).metadata, "render_fps": int(np.round(1.0 / self.dt))}
        if observation_space is not None:
            self.observation_space = observation_space
        self._set_action_space()
        # Views into MjData's buffers stay valid for the data's life; fetching them once
        # keeps the attribute lookups out of every step.
        self._qpos, self._qvel, self._ctrl = self.data.qpos, self.data.qvel, self.data.ctrl
        self._mj_step, self._mj_post = mujoco.mj_step, mujoco.mj_rnePostConstraint
        self._mj_forward = mujoco.mj_forward
        # MjData objects of dropped snapshots, reused: making one costs ~0.4 ms, copying into it ~4 us.
        self._spare_data: list[Any] = []
        # Refreshed on reset: a changed timestep or frame_skip counts from the next episode.
        self._options = self.model.opt  # a live view of the model's options, fetched once
        self._timestep = float(self._options.timestep)
        self._dt = self.dt
        self.mujoco_renderer = SceneRenderer(
            self.model,
            self.data,
            width=self.width,
            height=self.height,
            camera_id=camera_id,
            camera_name=camera_name,
            camera_config=default_camera_config,
            max_geom=max_geom,
            visual_options=visual_options,
            fps=self.metadata["render_fps"],
        )

    def _initialize_simulation(self, model_path: str | os.PathLike[str]) -> tuple[Any, Any]:
        is_text = isinstance(model_path, str) and model_path.lstrip().startswith("<")
        self.fullpath = None if is_text else expand_model_path(model_path)
        model, data = load_model(model_path)
        # The offscreen framebuffer must hold the requested frame size.
        model.vis.global_.offwidth = max(model.vis.global_.offwidth, self.width)
        model.vis.global_.offheight = max(model.vis.global_.offheight, self.height)
        return model, data

    def _set_action_space(self) -> spaces.Box:
        low, high = self.model.actuator_ctrlrange.astype(np.float32).T
        # An actuator without a control range takes any value.
        free = self.model.actuator_ctrllimited == 0
        low[free], high[free] = -np.inf, np.inf
        self.action_space = spaces.Box(low=low, high=high, dtype=np.float32)
        self._nu = self.model.nu
        self._shape = (self._nu,)
        return self.action_space

    # -- simulation ------------------------------------------------------------------

    @property
    def dt(self) -> float:
        """Simulated seconds per env step."""
        return float(self.model.opt.timestep) * self.frame_skip

    def set_state(self, qpos: np.ndarray, qvel: np.ndarray) -> None:
        """Set positions and velocities and recompute everything derived from them."""
        qpos, qvel = np.asarray(qpos), np.asarray(qvel)
        if qpos.shape != self._qpos.shape or qvel.shape != self._qvel.shape:
            raise ValueError(
                f"set_state: qpos must have shape {self._qpos.shape} and qvel {self._qvel.shape}, "
                f"got {qpos.shape} and {qvel.shape}"
            )
        self._qpos[:] = qpos
        self._qvel[:] = qvel
        self._mj_forward(self.model, self.data)

    def _snapshot_state(self) -> dict[str, Any]:
        state = super()._snapshot_state()
        spares = self._spare_data
        data = spares.pop() if spares else self._mujoco.MjData(self.model)
        self._mujoco.mj_copyData(data, self.model, self.data)  # every buffer, contacts included
        state["data"] = _DataCopy(data, spares)
        return state

    def _restore_state(self, state: Mapping[str, Any]) -> None:
        saved = state["data"].data
        if _model_sizes(saved.model) != _model_sizes(self.model):
            raise error.SnapshotError(
                f"the snapshot's MuJoCo model differs in size from {self}'s "
                f"(nq, nv, nu, nbody, ...: {_model_sizes(saved.model)} vs {_model_sizes(self.model)}); "
                "restore a snapshot into an env built the same way (same id, kwargs and wrappers)"
            )
        # Copy into the existing MjData: the renderer and cached views keep pointing at it.
        self._mujoco.mj_copyData(self.data, self.model, saved)
        super()._restore_state({name: value for name, value in state.items() if name != "data"})

    def do_simulation(self, ctrl: Any, n_frames: int) -> None:
        """Apply ``ctrl`` to the actuators and advance ``n_frames`` physics steps."""
        if np.shape(ctrl) != (self._nu,):
            raise ValueError(f"Action dimension mismatch. Expected {(self._nu,)}, found {np.shape(ctrl)}")
        self._step_physics(ctrl, n_frames)

    def _step_physics(self, ctrl: Any, n_frames: int) -> None:
        self._ctrl[:] = ctrl
        self._mj_step(self.model, self.data, n_frames)  # positional: pybind parses keywords slowly
        if self.uses_body_forces:
            self._mj_post(self.model, self.data)

    def _checked_action(self, action: Any) -> np.ndarray:
        """``action`` as an array of the action space's shape (values are clamped by MuJoCo)."""
        if action.__class__ is not np.ndarray:
            values = real_array(action)  # strings, bools and complex numbers are not controls
            if values is None:
                raise invalid_action(self, action, self.action_space)
            # Lists of numbers are priced in float64, whatever numbers they hold.
            action = values.astype(np.float64) if isinstance(action, (list, tuple)) else values
        if action.shape != (self._nu,):  # Gymnasium's words first
            mismatch = f"Action dimension mismatch. Expected {(self._nu,)}, found {action.shape}."
            raise invalid_action(self, action, self.action_space, mismatch)
        if action.dtype.kind not in "fiu":
            raise invalid_action(self, action, self.action_space)
        return action  # type: ignore[no-any-return]

    def weighted_square_sum(self, weight: float, values: np.ndarray) -> float:
        """``weight * sum(values**2)``, summed in the values' dtype as Gymnasium 1.4.0 sums it.

        A float32 action gives a float32 sum (then widened exactly); summing in float64
        would change rewards in the last bits. (A compiled version bought under 10% of a
        step, measured by ``benchmarks/bench_kernels.py``: the rule is all there is.)
        """
        return float(weight * np.square(values).sum())

    def _require_finite(self, action: np.ndarray, cost: float | None = None) -> None:
        """Refuse NaN and infinite actions before they reach MuJoCo.

        ``cost``, the sum of the action's squares (or any number that is finite whenever
        the action is), makes the common case one comparison.
        """
        if cost is None:
            cost = action.item(0) if action.size == 1 else None
        if cost is not None and cost - cost == 0:
            return
        if not np.isfinite(action).all():
            raise invalid_action(self, action, self.action_space)

    def state_vector(self) -> np.ndarray:
        """Positions followed by velocities, as one new array."""
        return np.concatenate((self._qpos, self._qvel))

    def get_body_com(self, body_name: str) -> np.ndarray:
        """World position of the named body's frame (a live view into ``data.xpos``)."""
        return self.data.body(body_name).xpos  # type: ignore[no-any-return]

    # -- episode ---------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Restore the model's initial state, then let :meth:`reset_model` perturb it."""
        super().reset(seed=seed)
        self.time_episode()
        self._mujoco.mj_resetData(self.model, self.data)
        observation = self.reset_model()
        info = self._get_reset_info()
        if self.render_mode == "human":
            self.render()
        return observation, info

    def time_episode(self) -> None:
        """Read the step's duration from the model again (domain randomization may change it)."""
        self._timestep = float(self._options.timestep)
        self._dt = self._timestep * self.frame_skip

    def reset_model(self) -> np.ndarray:
        """Set the start state of an episode and return its observation."""
        raise NotImplementedError

    def _get_reset_info(self) -> dict[str, Any]:
        return self._reset_info(self._qpos)

    def _reset_info(self, qpos: np.ndarray) -> dict[str, Any]:
        """The info of a reset whose episode starts at positions ``qpos`` (one env or a batch row)."""
        return {}

    def step(self, action: np.ndarray) -> tuple[np.ndarray, Any, bool, bool, dict[str, Any]]:
        """Advance one env step: :meth:`begin_step`, ``frame_skip`` physics steps, :meth:`end_step`.

        A subclass implements that pair, or overrides ``step`` itself (its env then has no
        batched version).
        """
        begun = self.begin_step(action)
        self._mj_step(self.model, self.data, self.frame_skip)  # positional: pybind parses keywords slowly
        if self.uses_body_forces:
            self._mj_post(self.model, self.data)
        return self.end_step(begun)

    def begin_step(self, action: np.ndarray) -> Any:
        """Check ``action``, set the controls and note what :meth:`end_step` needs from before.

        Everything an env step does before the physics; it must not step the physics
        (``MujocoVectorEnv`` steps many sub-envs' physics at once between the two halves).
        """
        raise NotImplementedError

    def end_step(self, begun: Any) -> tuple[np.ndarray, Any, bool, bool, dict[str, Any]]:
        """Score the step from the state after the physics (``begun``: what :meth:`begin_step` returned)."""
        raise NotImplementedError

    # -- batches ---------------------------------------------------------------------
    # MujocoVectorEnv steps the sub-envs of a class that sets ``scores_batches = True`` in
    # its own body (not inherited: a subclass that changes the step must say so again) as
    # arrays: all simulations in one ``mujoco.batch.Batch``, and the first sub-env scores
    # the whole batch with these two methods instead of each sub-env's begin/end_step.

    #: Derived ``MjData`` fields :meth:`end_batch` reads from ``sim.outputs`` (``"xpos"``, ...).
    #: Naming the body forces (``"cfrc_ext"``, ``"cfrc_int"``, ``"cacc"``), which
    #: ``mujoco.batch`` does not compute, steps each sub-env's own data on threads and
    #: gathers the fields into the arrays instead.
    batch_outputs: ClassVar[tuple[str, ...]] = ()

    def begin_batch(self, sim: Any, actions: np.ndarray) -> Any:
        """:meth:`begin_step` of every sub-env at once, from ``(num_envs, ...)`` arrays.

        Args:
            sim: The batch (:class:`~palaestra_mujoco.vector.BatchSimulation`): live
                ``qpos``, ``qvel`` arrays, ``outputs`` (the fields of :attr:`batch_outputs`)
                and ``dt`` (each sub-env's seconds per step).
            actions: The checked ``(num_envs, nu)`` actions; the controls are set from them
                after this returns (MuJoCo clamps them to the control ranges).

        Returns:
            Whatever :meth:`end_batch` needs from before the physics.
        """
        raise NotImplementedError

    def end_batch(
        self, begun: Any, sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """:meth:`end_step` of every sub-env at once: the same numbers, row by row.

        Fill ``observations`` (``(num_envs, ...)``, float64) and return the rewards
        (float64), terminations (bool) and info (one array per key, a row per sub-env).
        Rows of sub-envs that did not step are discarded.
        """
        raise NotImplementedError

    # A class that also sets ``resets_batches = True`` in its own body starts its sub-envs'
    # episodes in the batch's rows: each sub-env draws its start state (:meth:`start_state`,
    # its own generator, the same draws as its reset) and the first sub-env observes the new
    # rows with :meth:`start_batch`; a sub-env's own ``data`` is reset and brought forward
    # only when it is read. ``MujocoVectorEnv`` does so only for models whose state beyond
    # positions, velocities and user inputs is empty (no activations, mocap bodies,
    # equality constraints, ...), so that a reset's remaining state is all zeros.

    def start_state(self) -> tuple[np.ndarray, np.ndarray]:
        """Draw an episode's start positions and velocities from ``np_random`` (data untouched).

        :meth:`reset_model` of a class that batches its resets is ``set_state`` of these.
        """
        raise NotImplementedError

    def start_states(self, envs: Sequence[Any], rows: np.ndarray, qpos: np.ndarray, qvel: np.ndarray) -> None:
        """:meth:`start_state` of each of ``envs`` (sub-envs of this class) into its row ``rows[j]``.

        A class may draw them as arrays (the suite envs do); each sub-env's own generator
        must give the numbers its :meth:`start_state` would.
        """
        for i, env in zip(rows.tolist(), envs, strict=True):
            qpos[i], qvel[i] = env.start_state()

    def start_batch(self, sim: Any, rows: np.ndarray, observations: np.ndarray) -> list[dict[str, Any]]:
        """The reset observations and infos of the simulations ``rows`` after :meth:`start_state`.

        ``sim.qpos`` and ``sim.qvel`` hold the start states in those rows; fill their rows of
        ``observations`` as :meth:`reset_model` returns them and return each row's reset info.
        """
        raise NotImplementedError

    # -- rendering -------------------------------------------------------------------

    def render(self) -> Any:
        """A frame in the env's render mode (``None`` for ``"human"`` and without a mode)."""
        if self.render_mode is None:
            warn_no_render_mode(self)
            return None
        return self.mujoco_renderer.render(self.render_mode)

    def close(self) -> None:
        """Release rendering resources (the simulation itself needs no closing)."""
        renderer = getattr(self, "mujoco_renderer", None)
        if renderer is not None:
            renderer.close()


class _DataCopy:
    """A snapshot's copy of MjData; handed back to the env's spares when the snapshot is dropped."""

    __slots__ = ("_spares", "data")

    def __init__(self, data: Any, spares: list[Any] | None) -> None:
        self.data = data
        self._spares = spares

    def __reduce__(self) -> tuple[Any, ...]:
        return (_DataCopy, (self.data, None))  # unpickled elsewhere, it belongs to no env

    def __deepcopy__(self, memo: dict[int, Any]) -> _DataCopy:
        import copy  # snapshots only: most processes never deep-copy an env

        return _DataCopy(copy.copy(self.data), None)

    def __del__(self) -> None:
        if self._spares is not None and len(self._spares) < _MAX_SPARES:
            self._spares.append(self.data)


_MAX_SPARES = 4
_SIZE_FIELDS = ("nq", "nv", "nu", "na", "nbody", "njnt", "ngeom", "nsite", "nmocap", "neq", "ntendon")


def _model_sizes(model: Any) -> tuple[int, ...]:
    """The sizes that decide MjData's layout (with the total buffer sizes)."""
    return (*(getattr(model, name) for name in _SIZE_FIELDS), model.nbuffer, model.narena)
