"""Frames and windows for MuJoCo envs.

Offscreen modes go through :class:`mujoco.Renderer` (depth in metres); ``"human"`` opens
MuJoCo's own passive viewer through :class:`~palaestra_mujoco.rendering.WindowViewer`. Both
are created on the first ``render`` call, so an env that never renders never touches OpenGL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from palaestra import error  # its classes used here are defined when first raised
from palaestra_mujoco._gl import OFFSCREEN_MODES, cannot_render, import_mujoco

if TYPE_CHECKING:
    from palaestra_mujoco.rendering import WindowViewer

__all__ = ["OFFSCREEN_MODES", "RENDER_MODES", "SceneRenderer"]

RENDER_MODES = ("human", *OFFSCREEN_MODES)


def _camera_index(model: Any, camera_id: int | None, camera_name: str | None) -> int:
    """The model camera to render from, or -1 for the free (configurable) camera."""
    mujoco = import_mujoco()
    if camera_id is not None and camera_name is not None:
        raise ValueError("Give camera_id or camera_name, not both.")
    names = [mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_CAMERA, i) for i in range(model.ncam)]
    if camera_name is not None:
        index = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_CAMERA, camera_name)
        if index < 0:
            raise ValueError(
                f"camera_name {camera_name!r} is not a camera of this model; its cameras: {names}"
            )
        return int(index)
    if camera_id is None:
        return -1
    if not -1 <= camera_id < model.ncam:
        raise ValueError(
            f"camera_id {camera_id} is out of range: the model has {model.ncam} cameras "
            f"({names}); use -1 for the free camera"
        )
    return int(camera_id)


class SceneRenderer:
    """Renders an env's ``MjData`` from one camera.

    Args:
        model, data: The env's simulation.
        width, height: Frame size of the offscreen modes.
        camera_id, camera_name: A camera of the model (fixed view); neither means the free
            camera, placed by ``camera_config``.
        camera_config: :class:`mujoco.MjvCamera` attributes (``distance``, ``elevation``,
            ``azimuth``, ``lookat``, ``trackbodyid``, ``type``, ...), set as given, as
            Gymnasium sets them: ``trackbodyid`` alone does not make the camera follow
            the body; ``"type": mujoco.mjtCamera.mjCAMERA_TRACKING`` does.
        max_geom: Capacity of the scene in geoms.
        visual_options: ``{mjtVisFlag: bool}`` switches for the scene.
        fps: Pace of the ``"human"`` window.
    """

    def __init__(
        self,
        model: Any,
        data: Any,
        *,
        width: int,
        height: int,
        camera_id: int | None,
        camera_name: str | None,
        camera_config: dict[str, Any] | None,
        max_geom: int,
        visual_options: dict[int, bool] | None,
        fps: float,
    ) -> None:
        self.model, self.data = model, data
        self.width, self.height = width, height
        self.camera_index = _camera_index(model, camera_id, camera_name)
        self.camera_config = dict(camera_config or {})
        self.max_geom = max_geom
        self.visual_options = dict(visual_options or {})
        self.fps = fps
        self._offscreen: Any = None
        self._depth_offscreen: Any = None
        self._camera: Any = None
        self._scene_option: Any = None
        self._window: WindowViewer | None = None

    # -- cameras ---------------------------------------------------------------------

    def _configure(self, camera: Any) -> None:
        mujoco = import_mujoco()
        if self.camera_index >= 0:
            camera.type = mujoco.mjtCamera.mjCAMERA_FIXED
            camera.fixedcamid = self.camera_index
            return
        camera.type = mujoco.mjtCamera.mjCAMERA_FREE
        camera.fixedcamid = -1
        # Start from the middle of the model, at a distance that shows all of it.
        camera.lookat[:] = np.median(self.data.geom_xpos, axis=0)
        camera.distance = self.model.stat.extent
        for key, value in self.camera_config.items():
            if not hasattr(camera, key):
                raise ValueError(f"default_camera_config: {key!r} is not an attribute of mujoco.MjvCamera")
            if isinstance(value, (np.ndarray, list, tuple)):
                getattr(camera, key)[:] = value
            else:
                setattr(camera, key, value)

    def _scene_setup(self) -> None:
        if self._camera is not None:
            return
        mujoco = import_mujoco()
        self._camera = mujoco.MjvCamera()
        self._configure(self._camera)
        self._scene_option = mujoco.MjvOption()
        for flag, value in self.visual_options.items():
            self._scene_option.flags[flag] = value

    # -- offscreen -------------------------------------------------------------------

    def _new_offscreen(self) -> Any:
        mujoco = import_mujoco()
        try:
            return mujoco.Renderer(self.model, height=self.height, width=self.width, max_geom=self.max_geom)
        except Exception as exc:
            raise cannot_render(exc) from exc

    def _frame(self, depth: bool) -> np.ndarray:
        self._scene_setup()
        if depth:
            if self._depth_offscreen is None:
                self._depth_offscreen = self._new_offscreen()
                self._depth_offscreen.enable_depth_rendering()
            renderer = self._depth_offscreen
        else:
            if self._offscreen is None:
                self._offscreen = self._new_offscreen()
            renderer = self._offscreen
        renderer.update_scene(self.data, camera=self._camera, scene_option=self._scene_option)
        return renderer.render()  # type: ignore[no-any-return]

    # -- window ----------------------------------------------------------------------

    def _show(self) -> None:
        if self._window is None:
            from palaestra_mujoco.rendering import WindowViewer  # windows only: loaded on the first

            self._window = WindowViewer(
                self.model,
                self.data,
                max_geom=self.max_geom,
                visual_options=self.visual_options,
                fps=self.fps,
            )
            self._configure(self._window.cam)
        self._window.render()

    def render(self, mode: str) -> Any:
        """The frame for ``mode`` (``None`` for ``"human"``, which draws the window)."""
        if mode == "rgb_array":
            return self._frame(depth=False)
        if mode == "depth_array":
            return self._frame(depth=True)
        if mode == "rgbd_tuple":
            return self._frame(depth=False), self._frame(depth=True)
        if mode == "human":
            self._show()
            return None
        raise error.UnsupportedMode(f"render mode {mode!r} is not one of {RENDER_MODES}")

    def close(self) -> None:
        """Release the OpenGL contexts and close the window."""
        for renderer in (self._offscreen, self._depth_offscreen):
            if renderer is not None:
                renderer.close()
        self._offscreen = self._depth_offscreen = None
        if self._window is not None:
            self._window.close()
            self._window = None
