"""Rendering wrappers that ``make`` may add for ``*_list`` render modes."""

from __future__ import annotations

from typing import Any, SupportsFloat

import numpy as np

from palaestra import logger
from palaestra._base._save_video import Trigger
from palaestra._base._wrapper_spec import RecordConstructorArgs
from palaestra._env._core import Env, Wrapper
from palaestra.error import InvalidProbability
from palaestra.wrappers._checks import require_fraction
from palaestra.wrappers._recording import FrameWindow, VideoRecorder

__all__ = ["AddWhiteNoise", "HumanRendering", "ObstructView", "RecordVideo", "RenderCollection"]


class RenderCollection(Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Collect a frame after every reset and step; ``render()`` returns the list.

    Args:
        env: An env whose ``render_mode`` returns single frames.
        pop_frames: Clear the list each time ``render`` returns it.
        reset_clean: Clear the list on ``reset``.
    """

    def __init__(self, env: Env[Any, Any], pop_frames: bool = True, reset_clean: bool = True) -> None:
        RecordConstructorArgs.__init__(self, pop_frames=pop_frames, reset_clean=reset_clean)
        Wrapper.__init__(self, env)
        if env.render_mode is None:
            raise ValueError(
                "Expected env.render_mode to be not None: RenderCollection collects rendered frames, so make "
                "the env with a render_mode"
            )
        if env.render_mode.endswith("_list"):
            raise ValueError(
                f"Expected env.render_mode to not end with '_list', got '{env.render_mode}': the env already "
                "collects its frames"
            )
        self.frame_list: list[Any] = []
        self.pop_frames = pop_frames
        self.reset_clean = reset_clean
        self.metadata = dict(env.metadata)
        modes = list(self.metadata.get("render_modes", []))
        if f"{env.render_mode}_list" not in modes:
            modes.append(f"{env.render_mode}_list")
        self.metadata["render_modes"] = modes

    @property
    def render_mode(self) -> str:  # type: ignore[override]
        """The wrapped mode with ``_list`` appended."""
        return f"{self.env.render_mode}_list"

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step and collect a frame."""
        result = self.env.step(action)
        self.frame_list.append(self.env.render())
        return result

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset (clearing the list if asked) and collect a frame."""
        result = self.env.reset(seed=seed, options=options)
        if self.reset_clean:
            self.frame_list = []
        self.frame_list.append(self.env.render())
        return result

    def render(self) -> list[Any]:
        """The collected frames."""
        if not self.pop_frames:
            return self.frame_list
        frames, self.frame_list = self.frame_list, []
        return frames


class HumanRendering(Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Show an ``rgb_array`` env's frames in a pygame window after every reset and step.

    ``make`` adds it when ``render_mode="human"`` is asked of an env that only renders arrays.
    """

    snapshot_fields = ()  # the window shows whatever comes next

    ACCEPTED_RENDER_MODES = ("rgb_array", "rgb_array_list", "depth_array", "depth_array_list")

    def __init__(self, env: Env[Any, Any]) -> None:
        RecordConstructorArgs.__init__(self)
        Wrapper.__init__(self, env)
        if env.render_mode not in self.ACCEPTED_RENDER_MODES:
            raise ValueError(
                f"Expected env.render_mode to be one of {list(self.ACCEPTED_RENDER_MODES)} but got '{env.render_mode}'"
            )
        if "render_fps" not in env.metadata:
            raise ValueError(
                "The base environment must specify 'render_fps' to be used with the HumanRendering wrapper"
            )
        if "human" not in self.metadata["render_modes"]:
            self.metadata = {**env.metadata, "render_modes": [*env.metadata["render_modes"], "human"]}
        self.window = FrameWindow(self.metadata["render_fps"])

    @property
    def render_mode(self) -> str:  # type: ignore[override]
        """Always ``"human"``."""
        return "human"

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step and show the frame."""
        result = self.env.step(action)
        self._show()
        return result

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset and show the frame."""
        result = self.env.reset(seed=seed, options=options)
        self._show()
        return result

    def render(self) -> None:
        """Frames are shown by ``reset``/``step``; nothing to return."""
        return None

    def _show(self) -> None:
        frame = self.env.render()
        if isinstance(frame, list):
            frame = frame[-1]
        if not isinstance(frame, np.ndarray):
            raise TypeError(f"HumanRendering expects env.render() to return a numpy array, got {type(frame)}")
        self.window.show(frame)

    def close(self) -> None:
        """Close the window and the env."""
        self.window.close()
        self.env.close()


def _noise(rng: np.random.Generator, shape: tuple[int, ...], grayscale: bool) -> np.ndarray:
    if grayscale:
        high = 255 * np.array([0.2989, 0.587, 0.114])
        return rng.integers((0, 0, 0), high, size=shape, dtype=np.uint8).sum(-1, keepdims=True).repeat(3, -1)  # type: ignore[no-any-return]
    return rng.integers(0, 255, size=shape, dtype=np.uint8)


class AddWhiteNoise(Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Replace random pixels of rendered frames with noise (draws from the env's generator).

    Args:
        env: An ``rgb_array`` env.
        probability_of_noise_per_pixel: Chance a pixel is replaced, in ``[0, 1)``.
        is_noise_grayscale: Grey noise instead of colour noise.
    """

    def __init__(
        self, env: Env[Any, Any], probability_of_noise_per_pixel: float, is_noise_grayscale: bool = False
    ) -> None:
        require_fraction(
            "AddWhiteNoise",
            "probability_of_noise_per_pixel",
            probability_of_noise_per_pixel,
            one_allowed=False,
            error=InvalidProbability,
            quoted=False,
        )
        RecordConstructorArgs.__init__(
            self,
            probability_of_noise_per_pixel=probability_of_noise_per_pixel,
            is_noise_grayscale=is_noise_grayscale,
        )
        Wrapper.__init__(self, env)
        self.probability_of_noise_per_pixel = probability_of_noise_per_pixel
        self.is_noise_grayscale = is_noise_grayscale

    def render(self) -> np.ndarray:
        """The frame with noise."""
        frame: Any = self.env.render()
        noise = _noise(self.np_random, frame.shape, self.is_noise_grayscale)
        mask = self.np_random.random(frame.shape[0:2]) < self.probability_of_noise_per_pixel
        return np.where(mask[..., None], noise, frame)


class ObstructView(Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Cover random square patches of rendered frames with noise.

    Args:
        env: An ``rgb_array`` env.
        obstructed_pixels_ratio: Approximate fraction of pixels covered, in ``[0, 1)``.
        obstruction_width: Side of each square patch (at least 1).
        is_noise_grayscale: Grey noise instead of colour noise.
    """

    def __init__(
        self,
        env: Env[Any, Any],
        obstructed_pixels_ratio: float,
        obstruction_width: int,
        is_noise_grayscale: bool = False,
    ) -> None:
        require_fraction(
            "ObstructView",
            "obstructed_pixels_ratio",
            obstructed_pixels_ratio,
            one_allowed=False,
            error=ValueError,
            quoted=False,
        )
        if obstruction_width < 1:
            raise ValueError(
                f"obstruction_width should be larger or equal than 1. Received {obstruction_width} (ObstructView)"
            )
        RecordConstructorArgs.__init__(
            self,
            obstructed_pixels_ratio=obstructed_pixels_ratio,
            obstruction_width=obstruction_width,
            is_noise_grayscale=is_noise_grayscale,
        )
        Wrapper.__init__(self, env)
        self.obstruction_centers_ratio = obstructed_pixels_ratio / obstruction_width**2
        self.obstruction_width = obstruction_width
        self.is_noise_grayscale = is_noise_grayscale

    def render(self) -> np.ndarray:
        """The frame with patches of noise."""
        frame: Any = self.env.render()
        height, width = frame.shape[0], frame.shape[1]
        count = int(height * width * self.obstruction_centers_ratio)
        centers = np.unravel_index(self.np_random.integers(0, height * width, count), (height, width))
        mask = np.zeros((height, width), dtype=bool)
        low = self.obstruction_width // 2
        high = self.obstruction_width - low
        for x, y in zip(*centers, strict=True):
            mask[max(x - low, 0) : min(x + high, height), max(y - low, 0) : min(y + high, width)] = True
        noise = _noise(self.np_random, frame.shape, self.is_noise_grayscale)
        return np.where(mask[..., None], noise, frame)


class RecordVideo(VideoRecorder, Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Record episodes (or step ranges) of an ``rgb_array`` env to mp4 files.

    Videos are written when a recording stops: at the next episode start, after
    ``video_length`` frames, or on ``close()``.

    Args:
        env: An env rendering arrays (``rgb_array`` or ``rgb_array_list``).
        video_folder: Where videos go (created if missing).
        episode_trigger: Record episode ``i`` when ``episode_trigger(i)``; the default
            (when no trigger is given) is :func:`capped_cubic_video_schedule`.
        step_trigger: Start recording at global step ``i`` when ``step_trigger(i)``.
        video_length: Frames per video (0: whole episodes).
        name_prefix: File name prefix.
        fps: Frames per second (default: the env's ``render_fps``, else 30).
        disable_logger: Ignored (kept for Gymnasium compatibility).
        gc_trigger: Run the garbage collector after saving a video of episode ``i``.
    """

    snapshot_fields = ()  # a restore does not rewind the video being written

    def __init__(
        self,
        env: Env[Any, Any],
        video_folder: str,
        episode_trigger: Trigger | None = None,
        step_trigger: Trigger | None = None,
        video_length: int = 0,
        name_prefix: str = "rl-video",
        fps: int | None = None,
        disable_logger: bool = True,
        gc_trigger: Trigger | None = lambda episode: True,
    ) -> None:
        RecordConstructorArgs.__init__(
            self,
            video_folder=video_folder,
            episode_trigger=episode_trigger,
            step_trigger=step_trigger,
            video_length=video_length,
            name_prefix=name_prefix,
            fps=fps,
            disable_logger=disable_logger,
            gc_trigger=gc_trigger,
        )
        Wrapper.__init__(self, env)
        self._setup_recorder(
            self, video_folder, episode_trigger, step_trigger, video_length, name_prefix, fps, gc_trigger
        )

    def _capture_frame(self) -> None:
        rendered = self.env.render()
        # A "*_list" render mode hands over every frame since the last call: keep them all
        # in the history and record the newest.
        if isinstance(rendered, list) and not rendered:
            logger.warn(
                "Trying to capture a frame but 'env.render()' has just been called; it cannot be captured."
            )
            return
        if isinstance(rendered, list):
            self.render_history.extend(rendered)
        newest = rendered[-1] if isinstance(rendered, list) else rendered
        if not isinstance(newest, np.ndarray):
            self.stop_recording()
            logger.warn(f"Recording stopped: render returned {type(newest)}, not a numpy array.")
            return
        self.recorded_frames.append(newest)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset; start (or end) an episode recording."""
        obs, info = self.env.reset(seed=seed, options=options)
        self._new_episode()
        self._after_frame()
        return obs, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step; capture a frame while recording."""
        result = self.env.step(action)
        self._new_step()
        self._after_frame()
        return result

    def render(self) -> Any:
        """The env's frame(s), plus frames the recorder consumed from a ``*_list`` mode."""
        out: Any = self.env.render()
        if self.recording and isinstance(out, list):
            self.recorded_frames += out
        if self.render_history:
            history, self.render_history = self.render_history, []
            return history + out
        return out

    def close(self) -> None:
        """Close the env and save a recording in progress."""
        self.env.close()
        if self.recording:
            self.stop_recording()
