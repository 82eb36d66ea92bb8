"""Writing rendered frames to mp4 files (imageio with its bundled ffmpeg, loaded on use)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import numpy as np

from palaestra import logger
from palaestra.error import DependencyNotInstalled

__all__ = ["capped_cubic_video_schedule", "save_video", "write_mp4"]

INSTALL_HINT = 'pip install "palaestra[video]"  (imageio and imageio-ffmpeg, which bundles ffmpeg)'


#: A recording schedule: given an episode (or step) index, whether to record from there.
Trigger: TypeAlias = "Callable[[int], bool]"


def capped_cubic_video_schedule(episode_id: int) -> bool:
    """Record episodes 0, 1, 8, 27, ... (perfect cubes) below 1000, then every 1000th."""
    if episode_id < 1000:
        return bool(round(episode_id ** (1.0 / 3)) ** 3 == episode_id)
    return episode_id % 1000 == 0


def _imageio() -> Any:
    try:
        # optional dependency: imageio and its ffmpeg binary (palaestra[video])
        import imageio.v2 as imageio
        import imageio_ffmpeg  # type: ignore[import-untyped]  # noqa: F401 - the ffmpeg binary imageio uses
    except ImportError as e:
        raise DependencyNotInstalled(f"Saving videos needs imageio and imageio-ffmpeg: {INSTALL_HINT}") from e
    return imageio


def write_mp4(path: str, frames: Sequence[np.ndarray], fps: float) -> None:
    """Write uint8 HxWx3 ``frames`` to ``path`` as H.264 mp4 (sizes kept exactly).

    Raises:
        DependencyNotInstalled: imageio or imageio-ffmpeg is missing.
        ValueError: No frames, or frames of different shapes.
    """
    if len(frames) == 0:
        raise ValueError(f"No frames to write to {path}")
    shapes = {np.shape(f) for f in frames}
    if len(shapes) != 1:
        raise ValueError(f"All frames of a video must have one shape, got {sorted(shapes)}")
    imageio = _imageio()
    # macro_block_size=1 keeps odd sizes (600 wide stays 600, not 608).
    with imageio.get_writer(
        path, fps=fps, codec="libx264", macro_block_size=1, ffmpeg_log_level="error"
    ) as writer:
        for frame in frames:
            writer.append_data(np.asarray(frame, dtype=np.uint8))


def save_video(
    frames: list[np.ndarray],
    video_folder: str,
    episode_trigger: Trigger | None = None,
    step_trigger: Trigger | None = None,
    video_length: int | None = None,
    name_prefix: str = "rl-video",
    episode_index: int = 0,
    step_starting_index: int = 0,
    save_logger: str | None = None,
    fps: float = 30,
    **kwargs: Any,
) -> None:
    """Save an episode's frames as ``{name_prefix}-episode-{i}.mp4`` and/or step clips.

    Args:
        frames: The episode's frames (e.g. from ``render_mode="rgb_array_list"``).
        video_folder: Where to write (created if missing).
        episode_trigger: Whether to save episode ``episode_index`` (default: capped cubic).
        step_trigger: Whether to start a clip at a step index.
        video_length: Frames per video (whole episode when ``None``).
        name_prefix: File name prefix.
        episode_index: Index of this episode.
        step_starting_index: Step index of ``frames[1]``.
        save_logger: Ignored (kept for Gymnasium compatibility).
        fps: Frames per second (Gymnasium passes it through ``**kwargs``).
        **kwargs: ``fps`` may also be given here.
    """
    if not isinstance(frames, list):
        logger.error(f"Expected a list of frames, got a {type(frames)} instead.")
    fps = kwargs.pop("fps", fps)
    if episode_trigger is None and step_trigger is None:
        episode_trigger = capped_cubic_video_schedule
    folder = os.path.abspath(video_folder)
    os.makedirs(folder, exist_ok=True)
    prefix = os.path.join(folder, name_prefix)
    if episode_trigger is not None and episode_trigger(episode_index):
        write_mp4(f"{prefix}-episode-{episode_index}.mp4", frames[:video_length], fps)
    if step_trigger is not None:
        for step_index, frame_index in enumerate(range(1, len(frames)), start=step_starting_index):
            if step_trigger(step_index):
                end = frame_index + video_length if video_length is not None else None
                write_mp4(f"{prefix}-step-{step_index}.mp4", frames[frame_index:end], fps)
