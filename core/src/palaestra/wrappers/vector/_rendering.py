"""Vector rendering wrappers: a tiled pygame window and tiled mp4 recordings of the sub-envs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from palaestra import logger
from palaestra._base._save_video import Trigger
from palaestra._base._wrapper_spec import RecordConstructorArgs
from palaestra.vector import AutoresetMode, VectorEnv, VectorWrapper
from palaestra.wrappers._recording import FrameWindow, VideoRecorder

__all__ = ["HumanRendering", "RecordVideo"]


def _frames_of(env: VectorEnv[Any, Any, Any], num_envs: int, wrapper: str) -> list[np.ndarray]:
    """One array frame per sub-env from ``env.render()``."""
    frames = env.render()
    if not isinstance(frames, Sequence) or len(frames) != num_envs:
        raise TypeError(
            f"{wrapper} expects env.render() to return one frame per sub-env ({num_envs}), got {frames!r:.80}"
        )
    out = [f[-1] if isinstance(f, list) else f for f in frames]
    if not all(isinstance(f, np.ndarray) for f in out):
        raise TypeError(f"{wrapper} expects numpy array frames, got {[type(f).__name__ for f in out]}")
    return out


def tile(frames: Sequence[np.ndarray], rows: int, cols: int) -> np.ndarray:
    """Lay equally sized HxWxC frames out row by row on a ``rows x cols`` grid (black where empty)."""
    h, w, c = frames[0].shape
    grid = np.zeros((rows * h, cols * w, c), dtype=frames[0].dtype)
    for i, frame in enumerate(frames):
        r, k = divmod(i, cols)
        grid[r * h : (r + 1) * h, k * w : (k + 1) * w] = frame
    return grid


class HumanRendering(VectorWrapper[Any, Any, Any], RecordConstructorArgs):
    """Show all sub-envs of an ``rgb_array`` vector env tiled in one pygame window.

    Args:
        env: A vector env rendering arrays.
        screen_size: Window size ``(width, height)``; default: one sub-env frame's size.
            The grid is chosen to fill the window; frames are scaled by nearest neighbour.
    """

    ACCEPTED_RENDER_MODES = ("rgb_array", "rgb_array_list", "depth_array", "depth_array_list")

    def __init__(self, env: VectorEnv[Any, Any, Any], screen_size: tuple[int, int] | None = None) -> None:
        VectorWrapper.__init__(self, env)
        RecordConstructorArgs.__init__(self, screen_size=screen_size)
        if env.render_mode not in self.ACCEPTED_RENDER_MODES:
            raise ValueError(
                f"Expected env.render_mode to be one of {list(self.ACCEPTED_RENDER_MODES)} but got '{env.render_mode}'"
            )
        if "render_fps" not in env.metadata:
            raise ValueError(
                "The base environment must specify 'render_fps' to be used with the HumanRendering wrapper"
            )
        if "human" not in env.metadata.get("render_modes", []):
            self.metadata = {**env.metadata, "render_modes": [*env.metadata.get("render_modes", []), "human"]}
        self.screen_size = screen_size
        self.num_rows: int | None = None
        self.num_cols: int | None = None
        self.window = FrameWindow(self.metadata["render_fps"])

    @property
    def render_mode(self) -> str:  # type: ignore[override]
        """Always ``"human"``."""
        return "human"

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset and show the sub-envs."""
        result = self.env.reset(seed=seed, options=options)
        self._show()
        return result

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Step and show the sub-envs."""
        result = self.env.step(actions)
        self._show()
        return result

    def _layout(self, frame_h: int, frame_w: int) -> tuple[int, int, int, int]:
        """Grid rows and columns, and the scaled frame size, filling the window best."""
        width, height = self.screen_size or (frame_w, frame_h)
        best: tuple[float, int, int] = (-1.0, 1, self.num_envs)
        for rows in range(1, self.num_envs + 1):
            cols = -(-self.num_envs // rows)
            scale = min(width / (cols * frame_w), height / (rows * frame_h))
            if scale > best[0]:
                best = (scale, rows, cols)
        scale, rows, cols = best
        return rows, cols, max(1, int(frame_h * scale)), max(1, int(frame_w * scale))

    def _show(self) -> None:
        frames = _frames_of(self.env, self.num_envs, "HumanRendering")
        h, w = frames[0].shape[:2]
        rows, cols, sh, sw = self._layout(h, w)
        self.num_rows, self.num_cols = rows, cols
        ys = (np.arange(sh) * h) // sh
        xs = (np.arange(sw) * w) // sw
        scaled = [np.asarray(f, dtype=np.uint8)[ys][:, xs] for f in frames]
        width, height = self.screen_size or (w, h)
        canvas = np.zeros((height, width, 3), dtype=np.uint8)
        grid = tile(scaled, rows, cols)
        canvas[: grid.shape[0], : grid.shape[1]] = grid[:height, :width]
        self.window.show(canvas)

    def close(self, **kwargs: Any) -> None:
        """Close the window and the env."""
        self.window.close()
        self.env.close(**kwargs)


class RecordVideo(VideoRecorder, VectorWrapper[Any, Any, Any], RecordConstructorArgs):
    """Record the sub-envs of an ``rgb_array`` vector env, tiled into one video.

    Episodes are counted on the first sub-env. The grid's aspect ratio is chosen
    closest to ``video_aspect_ratio``.

    Args:
        env: A vector env rendering arrays.
        video_folder: Where videos go (created if missing).
        video_aspect_ratio: Wanted ``(width, height)`` ratio of the tiled frame.
        record_first_only: Record only the first sub-env.
        episode_trigger: Record episode ``i`` (of sub-env 0) when ``episode_trigger(i)``
            (default, when no trigger is given: :func:`capped_cubic_video_schedule`).
        step_trigger: Start recording at vector step ``i`` when ``step_trigger(i)``.
        video_length: Frames per video (0: whole episodes).
        name_prefix: File name prefix.
        fps: Frames per second (default: the env's ``render_fps``, else 30).
        disable_logger: Ignored (kept for Gymnasium compatibility).
        gc_trigger: Run the garbage collector after saving a video of episode ``i``.
    """

    def __init__(
        self,
        env: VectorEnv[Any, Any, Any],
        video_folder: str,
        video_aspect_ratio: tuple[int, int] = (1, 1),
        record_first_only: bool = False,
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
            video_aspect_ratio=video_aspect_ratio,
            record_first_only=record_first_only,
            episode_trigger=episode_trigger,
            step_trigger=step_trigger,
            video_length=video_length,
            name_prefix=name_prefix,
            fps=fps,
            disable_logger=disable_logger,
            gc_trigger=gc_trigger,
        )
        VectorWrapper.__init__(self, env)
        mode = env.metadata.get("autoreset_mode")
        if mode is None:
            logger.warn(
                f"{env} metadata doesn't specify its autoreset mode ({env.metadata!r}), therefore, defaulting "
                "to next step."
            )
            mode = AutoresetMode.NEXT_STEP
        elif mode == AutoresetMode.SAME_STEP:
            logger.warn(
                "Vector environment's autoreset mode is same-step (https://farama.org/Vector-Autoreset-Mode). "
                "Recorded episodes will not contain the last frame of the episode."
            )
        self.autoreset_mode = mode
        self.has_autoreset = False
        self.record_first_only = record_first_only
        self.video_aspect_ratio = video_aspect_ratio
        self.frame_rows = -1
        self.frame_cols = -1
        self._setup_recorder(
            self, video_folder, episode_trigger, step_trigger, video_length, name_prefix, fps, gc_trigger
        )

    def _choose_grid(self, n: int, h: int, w: int) -> None:
        """The divisor grid of ``n`` frames whose aspect ratio is closest to the wanted one."""
        target = self.video_aspect_ratio[0] / self.video_aspect_ratio[1]
        best = (float("inf"), 1, n)
        for rows in range(1, int(n**0.5) + 1):
            if n % rows == 0:
                cols = n // rows
                diff = abs((cols * w) / (rows * h) - target)
                if diff < best[0]:
                    best = (diff, rows, cols)
        self.frame_rows, self.frame_cols = best[1], best[2]

    def _capture_frame(self) -> None:
        frames = _frames_of(self.env, self.num_envs, "RecordVideo")
        if self.record_first_only:
            frames = frames[:1]
        if self.frame_rows == -1:
            h, w = frames[0].shape[:2]
            self._choose_grid(len(frames), h, w)
        self.recorded_frames.append(tile(frames, self.frame_rows, self.frame_cols))

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset; a reset of sub-env 0 starts a new episode."""
        if options is None or "reset_mask" not in options or options["reset_mask"][0]:
            self._new_episode()
        obs, info = self.env.reset(seed=seed, options=options)
        self._after_frame()
        self.has_autoreset = False
        return obs, info

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Step; follow sub-env 0's episodes; capture a tiled frame while recording."""
        obs, rewards, terminations, truncations, info = self.env.step(actions)
        ended = bool(terminations[0] or truncations[0])
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            if self.has_autoreset:
                self._new_episode()
            self.has_autoreset = ended
        elif self.autoreset_mode == AutoresetMode.SAME_STEP and ended:
            self._new_episode()
        self._new_step()
        self._after_frame()
        return obs, rewards, terminations, truncations, info

    def close(self, **kwargs: Any) -> None:
        """Close the env and save a recording in progress."""
        self.env.close(**kwargs)
        if self.recording:
            self.stop_recording()
