"""MuJoCo rendering under Gymnasium's names: MujocoRenderer, OffScreenViewer, WindowViewer.

Code written against ``gymnasium.envs.mujoco.mujoco_rendering`` runs with these after changing
the import, and gets the same frames: the same free camera, the same raw depth buffer, the same
segmentation layout (``(object type, object id)`` per pixel, ``-1`` for the background), the
same markers and text overlays. The envs of this suite render through their own
:class:`~palaestra_mujoco._render.SceneRenderer` (their depth is in metres); these classes are
for users' own models and code ported from Gymnasium.

Offscreen frames need an offscreen OpenGL backend (EGL or OSMesa without a display; chosen
for you before MuJoCo is imported); the window is MuJoCo's own passive viewer.
"""

from __future__ import annotations

import atexit
import contextlib
import threading
import time
import weakref
from typing import Any

import numpy as np

from palaestra.error import UnsupportedMode
from palaestra_mujoco._gl import OFFSCREEN_MODES, cannot_render, has_display, import_mujoco

__all__ = ["OFFSCREEN_MODES", "MujocoRenderer", "OffScreenViewer", "WindowViewer"]

_DEFAULT_MARKER = {
    "size": (0.01, 0.01, 0.01),
    "pos": (0.0, 0.0, 0.0),
    "mat": tuple(np.eye(3).flatten()),
    "rgba": (1.0, 1.0, 1.0, 1.0),
}


class _Viewer:
    """What both viewers share: model and data, camera, visual options, markers and overlays."""

    def __init__(
        self,
        model: Any,
        data: Any,
        width: int | None,
        height: int | None,
        max_geom: int,
        visual_options: dict[int, bool] | None,
    ) -> None:
        mujoco = import_mujoco()
        self.model, self.data = model, data
        self.width, self.height, self.max_geom = width, height, max_geom
        self.cam = mujoco.MjvCamera()
        self.vopt = mujoco.MjvOption()
        self.pert = mujoco.MjvPerturb()
        for flag, value in (visual_options or {}).items():
            self.vopt.flags[flag] = value
        self._markers: list[dict[str, Any]] = []
        self._overlays: dict[int, list[str]] = {}

    def add_overlay(self, gridpos: int, text1: str, text2: str) -> None:
        """Write ``text1``/``text2`` (two columns) at ``gridpos`` (a ``mujoco.mjtGridPos``) on the next frame."""
        lines = self._overlays.setdefault(gridpos, ["", ""])
        lines[0] += text1 + "\n"
        lines[1] += text2 + "\n"

    def add_marker(self, **marker_params: Any) -> None:
        """Draw a decorative geom in the next frame.

        Keywords: ``type`` (a ``mujoco.mjtGeom``, sphere by default), ``size``, ``pos``,
        ``mat`` (3x3 rotation, flattened), ``rgba`` and ``label``.
        """
        self._markers.append(marker_params)

    def _draw_markers(self, scene: Any) -> None:
        mujoco = import_mujoco()
        for marker in self._markers:
            if scene.ngeom >= scene.maxgeom:
                raise RuntimeError(
                    f"Ran out of geoms for markers: maxgeom is {scene.maxgeom}; pass a larger max_geom"
                )
            unknown = set(marker) - {"type", "label", *_DEFAULT_MARKER}
            if unknown:
                raise ValueError(
                    f"add_marker: unknown keywords {sorted(unknown)}; use type, size, pos, mat, rgba, label"
                )
            params = {
                key: np.asarray(marker.get(key, value), np.float64) for key, value in _DEFAULT_MARKER.items()
            }
            geom = scene.geoms[scene.ngeom]
            mujoco.mjv_initGeom(
                geom,
                marker.get("type", mujoco.mjtGeom.mjGEOM_SPHERE),
                size=params["size"],
                pos=params["pos"],
                mat=params["mat"].reshape(9),
                rgba=params["rgba"],
            )
            if marker.get("label"):
                geom.label = str(marker["label"])
            scene.ngeom += 1

    def make_context_current(self) -> None:
        """Make this viewer's OpenGL context the current one (several viewers may coexist)."""

    def free(self) -> None:
        """Release the OpenGL resources."""

    def close(self) -> None:
        """Release everything; the viewer cannot be used afterwards."""
        self.free()


class OffScreenViewer(_Viewer):
    """Renders frames into memory, from the free camera or a camera of the model.

    Args:
        model, data: The simulation.
        width, height: Frame size (at most the model's ``<visual><global offwidth offheight>``).
        max_geom: Scene capacity in geoms.
        visual_options: ``{mjtVisFlag: bool}`` switches.
    """

    def __init__(
        self,
        model: Any,
        data: Any,
        width: int,
        height: int,
        max_geom: int = 1000,
        visual_options: dict[int, bool] | None = None,
    ) -> None:
        super().__init__(model, data, width, height, max_geom, visual_options)
        mujoco = import_mujoco()
        limits = (model.vis.global_.offwidth, model.vis.global_.offheight)
        if width > limits[0] or height > limits[1]:
            raise ValueError(
                f"A {width}x{height} frame does not fit the model's offscreen buffer of {limits[0]}x{limits[1]}; "
                'render smaller frames or raise it in the model: <visual><global offwidth="..." offheight="..."/>'
            )
        self._context = _open_context(width, height)
        self.con = mujoco.MjrContext(model, mujoco.mjtFontScale.mjFONTSCALE_150)
        mujoco.mjr_setBuffer(mujoco.mjtFramebuffer.mjFB_OFFSCREEN, self.con)
        self.scn = mujoco.MjvScene(model, max_geom)
        self.viewport = mujoco.MjrRect(0, 0, width, height)
        # The free camera looks at the middle of the model from a distance that shows all of it.
        self.cam.type = mujoco.mjtCamera.mjCAMERA_FREE
        self.cam.fixedcamid = -1
        self.cam.lookat[:] = np.median(data.geom_xpos, axis=0)
        self.cam.distance = model.stat.extent

    def make_context_current(self) -> None:
        """Make this viewer's OpenGL context current."""
        if self._context is not None:
            self._context.make_current()

    def _print_overlays(self) -> None:
        """Each corner's two columns of text, in the large font, over the frame."""
        mujoco = import_mujoco()
        font = mujoco.mjtFontScale.mjFONTSCALE_150
        for corner, columns in self._overlays.items():
            left, right = (column.encode() for column in columns)
            mujoco.mjr_overlay(font, corner, self.viewport, left, right, self.con)

    def render(
        self, render_mode: str | None, camera_id: int | None = None, segmentation: bool = False
    ) -> Any:
        """The frame for ``render_mode``.

        ``"rgb_array"`` is uint8 HxWx3, ``"depth_array"`` float32 HxW (the raw depth buffer, in
        [0, 1]), ``"rgbd_tuple"`` both.

        Args:
            render_mode: One of the three modes.
            camera_id: Switch to this model camera (``-1``: the free camera) from now on.
            segmentation: Instead of colours, each pixel's ``(object type, object id)`` (int32,
                ``-1`` where nothing is drawn).
        """
        if render_mode not in OFFSCREEN_MODES:
            raise UnsupportedMode(f"OffScreenViewer renders {list(OFFSCREEN_MODES)}, not {render_mode!r}")
        mujoco = import_mujoco()
        self.make_context_current()
        if camera_id is not None:
            free = camera_id == -1
            self.cam.type = mujoco.mjtCamera.mjCAMERA_FREE if free else mujoco.mjtCamera.mjCAMERA_FIXED
            self.cam.fixedcamid = camera_id
        scene = self.scn
        mujoco.mjv_updateScene(
            self.model, self.data, self.vopt, self.pert, self.cam, mujoco.mjtCatBit.mjCAT_ALL, scene
        )
        flags = (mujoco.mjtRndFlag.mjRND_SEGMENT, mujoco.mjtRndFlag.mjRND_IDCOLOR)
        for flag in flags:
            scene.flags[flag] = segmentation
        self._draw_markers(scene)
        mujoco.mjr_render(self.viewport, scene, self.con)
        self._print_overlays()
        for flag in flags:
            scene.flags[flag] = False
        height, width = self.viewport.height, self.viewport.width
        rgb = np.zeros((height, width, 3), np.uint8)
        depth = np.zeros((height, width), np.float32)
        mujoco.mjr_readPixels(rgb, depth, self.viewport, self.con)
        self._markers.clear()
        rgb, depth = rgb[::-1], depth[::-1]  # OpenGL's rows run bottom to top
        if segmentation:
            rgb = self._segments(rgb)
        if render_mode == "rgb_array":
            return rgb
        if render_mode == "depth_array":
            return depth
        return rgb, depth

    def _segments(self, colours: np.ndarray) -> np.ndarray:
        """Turn the id colours (1 + segment id, little-endian over RGB) into ``(type, id)`` pairs."""
        codes = colours[..., 0].astype(np.int64) | colours[..., 1].astype(np.int64) << 8
        codes |= colours[..., 2].astype(np.int64) << 16
        count = self.scn.ngeom
        table = np.full((count + 1, 2), -1, np.int32)
        for i in range(count):
            geom = self.scn.geoms[i]
            if geom.segid != -1:
                table[geom.segid + 1] = (geom.objtype, geom.objid)
        codes[codes > count] = 0
        segments: np.ndarray = table[codes]
        return segments

    def free(self) -> None:
        """Release the OpenGL context and MuJoCo's render context."""
        context, self._context = getattr(self, "_context", None), None
        if context is not None:
            context.make_current()
            self.con.free()
            context.free()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter shutdown there is nothing to free
            self.free()


def _open_context(width: int, height: int) -> Any:
    mujoco = import_mujoco()
    try:
        context = mujoco.GLContext(width, height)
        context.make_current()
    except Exception as exc:
        raise cannot_render(exc) from exc
    return context


# Viewers with a window open. A viewer still drawing while the interpreter shuts down crashes
# in X, so open windows are closed at exit by a hook registered after MuJoCo's own (exit hooks
# run last-registered first).
_open_windows: weakref.WeakSet[WindowViewer] = weakref.WeakSet()


def _close_open_windows() -> None:
    for viewer in list(_open_windows):
        viewer.close()


class WindowViewer(_Viewer):
    """Shows the simulation in MuJoCo's interactive viewer window, paced to real time.

    Args:
        model, data: The simulation.
        width, height: Accepted for Gymnasium's signature; MuJoCo's viewer sizes its own window.
        max_geom: Scene capacity in geoms.
        visual_options: ``{mjtVisFlag: bool}`` switches.
        fps: Frames per second to pace :meth:`render` to (``None``: the model's timestep).

    Raises:
        UnsupportedMode: There is no display to open a window on.
    """

    def __init__(
        self,
        model: Any,
        data: Any,
        width: int | None = None,
        height: int | None = None,
        max_geom: int = 1000,
        visual_options: dict[int, bool] | None = None,
        fps: float | None = None,
    ) -> None:
        super().__init__(model, data, width, height, max_geom, visual_options)
        if not has_display():
            raise UnsupportedMode(
                'render_mode="human" needs a display and none is available (DISPLAY and '
                'WAYLAND_DISPLAY are unset); render with render_mode="rgb_array" instead, '
                "e.g. with palaestra.wrappers.RecordVideo"
            )
        import mujoco.viewer

        self.fps = fps if fps is not None else 1.0 / float(model.opt.timestep)
        before = set(threading.enumerate())
        self._window: Any = mujoco.viewer.launch_passive(model, data, show_left_ui=False, show_right_ui=False)
        # The viewer draws from its own thread; close() waits for it so the window is gone
        # (and its GL context released) before the process may exit.
        self._threads = [t for t in threading.enumerate() if t not in before]
        if not _open_windows:
            atexit.unregister(_close_open_windows)
            atexit.register(_close_open_windows)
        _open_windows.add(self)
        self.cam = self._window.cam  # the window's camera: configure it as Gymnasium's
        for flag, value in (visual_options or {}).items():
            self._window.opt.flags[flag] = value
        self._last_frame = 0.0
        self._had_texts = False

    def is_running(self) -> bool:
        """Whether the window is still open (the user may close it)."""
        return self._window is not None and bool(self._window.is_running())

    def render(self) -> None:
        """Show the current state, with the markers and overlays added since the last frame."""
        if not self.is_running():
            return  # closed by the user: keep simulating without it
        window = self._window
        with window.lock():
            window.user_scn.ngeom = 0
            self._draw_markers(window.user_scn)
        # The text calls take the viewer's lock themselves.
        texts = [
            (None, gridpos, t1.rstrip("\n"), t2.rstrip("\n")) for gridpos, (t1, t2) in self._overlays.items()
        ]
        if texts:
            window.set_texts(texts)
        elif self._had_texts:
            window.clear_texts()
        self._had_texts = bool(texts)
        window.sync()
        self._markers.clear()
        self._overlays.clear()
        pause = self._last_frame + 1.0 / self.fps - time.perf_counter()
        if pause > 0:
            time.sleep(pause)  # hold each frame for 1/fps so the motion plays at real speed
        self._last_frame = time.perf_counter()

    def free(self) -> None:
        """Close the window and wait for its drawing thread."""
        window, self._window = getattr(self, "_window", None), None
        if window is not None:
            window.close()
            for thread in self._threads:
                thread.join(timeout=5.0)
            _open_windows.discard(self)


class MujocoRenderer:
    """One viewer per render mode, made on first use, as Gymnasium's ``MujocoRenderer`` does.

    Args:
        model, data: The simulation.
        default_cam_config: :class:`mujoco.MjvCamera` attributes set on each new viewer's camera.
        width, height: Offscreen frame size (needed for the offscreen modes).
        max_geom: Scene capacity in geoms.
        camera_id, camera_name: Render from this model camera. With neither, a camera named
            ``"track"`` is looked up, and the free camera (set by ``default_cam_config``) is used.
        visual_options: ``{mjtVisFlag: bool}`` switches.
    """

    def __init__(
        self,
        model: Any,
        data: Any,
        default_cam_config: dict[str, Any] | None = None,
        width: int | None = None,
        height: int | None = None,
        max_geom: int = 1000,
        camera_id: int | None = None,
        camera_name: str | None = None,
        visual_options: dict[int, bool] | None = None,
    ) -> None:
        mujoco = import_mujoco()
        if camera_id is not None and camera_name is not None:
            raise ValueError("Both `camera_id` and `camera_name` cannot be specified at the same time.")
        self.model, self.data = model, data
        self.default_cam_config = default_cam_config
        self.width, self.height, self.max_geom = width, height, max_geom
        self._vopt = dict(visual_options or {})
        self._viewers: dict[str, Any] = {}
        self.viewer: Any = None
        if camera_id is not None:
            self.camera_id = camera_id
        elif camera_name is not None:
            self.camera_id = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_CAMERA, camera_name)
        else:
            # Gymnasium 1.4.0: with no camera named, the free camera, even if the model has a "track" one.
            self.camera_id = -1

    def render(self, render_mode: str | None) -> Any:
        """The frame for ``render_mode`` (``None`` for ``"human"``, which updates the window)."""
        if render_mode != "human" and (self.width is None or self.height is None):
            raise ValueError(
                f"The width: {self.width} and height: {self.height} cannot be `None` when the render_mode is not `human`."
            )
        viewer = self._get_viewer(render_mode)
        if render_mode == "human":
            viewer.render()
            return None
        return viewer.render(render_mode=render_mode, camera_id=self.camera_id)

    def _get_viewer(self, render_mode: str | None) -> Any:
        """The viewer for ``render_mode``, made (and its camera configured) on first use."""
        viewer = self._viewers.get(render_mode) if render_mode is not None else None
        if viewer is None:
            if render_mode == "human":
                viewer = WindowViewer(
                    self.model, self.data, self.width, self.height, self.max_geom, self._vopt
                )
            elif render_mode in OFFSCREEN_MODES:
                assert self.width is not None and self.height is not None
                viewer = OffScreenViewer(
                    self.model, self.data, self.width, self.height, self.max_geom, self._vopt
                )
            else:
                raise UnsupportedMode(
                    f"Unexpected mode: {render_mode}, expected modes: human, rgb_array, depth_array, or rgbd_tuple"
                )
            for key, value in (self.default_cam_config or {}).items():
                if isinstance(value, (np.ndarray, list, tuple)):
                    getattr(viewer.cam, key)[:] = value
                else:
                    setattr(viewer.cam, key, value)
            self._viewers[render_mode] = viewer
        self.viewer = viewer
        if len(self._viewers) > 1:
            viewer.make_context_current()  # one OpenGL context is current at a time
        return viewer

    def close(self) -> None:
        """Close every viewer made."""
        for viewer in self._viewers.values():
            viewer.close()
        self._viewers.clear()
        self.viewer = None
