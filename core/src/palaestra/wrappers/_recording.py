"""Machinery shared by the single-env and vector rendering wrappers: mp4 recorder, pygame window."""

from __future__ import annotations

import gc
import os
from typing import Any

import numpy as np

from palaestra import logger
from palaestra._base._save_video import Trigger, _imageio, capped_cubic_video_schedule, write_mp4
from palaestra._env._canvas import import_pygame


class VideoRecorder:
    """Mixin holding a recording in progress and writing it to ``{video_folder}/{name}.mp4``.

    The host class calls :meth:`_setup_recorder` from ``__init__``, appends frames to
    ``recorded_frames`` and calls :meth:`start_recording` / :meth:`stop_recording`.
    """

    episode_id: int
    recorded_frames: list[Any]

    def _setup_recorder(
        self,
        env: Any,
        video_folder: str,
        episode_trigger: Trigger | None,
        step_trigger: Trigger | None,
        video_length: int,
        name_prefix: str,
        fps: float | None,
        gc_trigger: Trigger | None,
    ) -> None:
        if env.render_mode in {None, "human", "ansi"}:
            raise ValueError(
                f"Render mode is {env.render_mode}, which is incompatible with RecordVideo. Initialize your "
                "environment with a render_mode that returns an image, such as rgb_array. (rgb_array_list "
                "works too.)"
            )
        if fps is None:
            fps = env.metadata.get("render_fps", 30)

        _imageio()  # fail now, with the install hint, rather than at the end of an episode
        if episode_trigger is None and step_trigger is None:
            episode_trigger = capped_cubic_video_schedule
        self.episode_trigger = episode_trigger
        self.step_trigger = step_trigger
        self.gc_trigger = gc_trigger
        self.video_folder = os.path.abspath(video_folder)
        if os.path.isdir(self.video_folder):
            logger.warn(
                f"Overwriting existing videos at {self.video_folder} folder (try specifying a different "
                "`video_folder` for the `RecordVideo` wrapper if this is not desired)"
            )
        os.makedirs(self.video_folder, exist_ok=True)
        self.frames_per_sec = fps
        self.name_prefix = name_prefix
        self._video_name: str | None = None
        self.video_length: float = video_length if video_length != 0 else float("inf")
        self.recording = False
        self.recorded_frames = []
        self.render_history: list[Any] = []
        self.step_id = -1
        self.episode_id = -1

    def _maybe_start(self, trigger: Trigger | None, kind: str, index: int) -> None:
        if trigger is not None and trigger(index):
            self.start_recording(f"{self.name_prefix}-{kind}-{index}")

    def _new_episode(self) -> None:
        """Count an episode start; end an open-ended recording and maybe start a new one."""
        self.episode_id += 1
        if self.recording and self.video_length == float("inf"):
            self.stop_recording()
        self._maybe_start(self.episode_trigger, "episode", self.episode_id)

    def _new_step(self) -> None:
        self.step_id += 1
        self._maybe_start(self.step_trigger, "step", self.step_id)

    def _capture_frame(self) -> None:
        raise NotImplementedError

    def _after_frame(self) -> None:
        if self.recording:
            self._capture_frame()
            if len(self.recorded_frames) > self.video_length:
                self.stop_recording()

    def start_recording(self, video_name: str) -> None:
        """Start a new recording (saving the current one first)."""
        if self.recording:
            self.stop_recording()  # one recording at a time
        self._video_name, self.recording = video_name, True

    def stop_recording(self) -> None:
        """Write the recorded frames to ``{video_folder}/{video_name}.mp4``."""
        if not self.recording:
            raise RuntimeError("stop_recording was called, but no recording was started")
        if self.recorded_frames:
            write_mp4(
                os.path.join(self.video_folder, f"{self._video_name}.mp4"),
                self.recorded_frames,
                self.frames_per_sec,
            )
        else:
            logger.warn("Ignored saving a video as there were zero frames to save.")
        self.recording, self._video_name, self.recorded_frames = False, None, []
        if self.gc_trigger and self.gc_trigger(self.episode_id):
            gc.collect()

    def __del__(self) -> None:
        if getattr(self, "recorded_frames", None):
            logger.warn("Unable to save last video! Did you call close()?")


class FrameWindow:
    """A pygame window showing HxWx3 frames at a fixed rate (opened on the first frame)."""

    def __init__(self, fps: float) -> None:
        self.fps = fps
        self.size: tuple[int, int] | None = None
        self.window: Any = None
        self.clock: Any = None

    def show(self, frame: np.ndarray) -> None:
        """Blit ``frame`` (rows, columns, RGB) and wait for the next tick."""
        pygame = import_pygame()
        pixels = np.transpose(frame, (1, 0, 2))  # pygame surfaces are column-major
        if self.size is None:
            self.size = pixels.shape[:2]
        if self.size != pixels.shape[:2]:
            raise ValueError(f"The frame size changed from {self.size} to {pixels.shape[:2]}")
        if self.window is None:
            pygame.display.init()
            self.window = pygame.display.set_mode(self.size)
            self.clock = pygame.time.Clock()
        self.window.blit(pygame.surfarray.make_surface(pixels), (0, 0))
        pygame.event.pump()  # keeps the window responsive
        self.clock.tick(self.fps)
        pygame.display.flip()

    def close(self) -> None:
        """Close the window if one is open."""
        if self.window is not None:
            import_pygame().display.quit()
            self.window = None
