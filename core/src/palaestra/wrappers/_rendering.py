"""Rendering wrappers that ``make`` may add for ``*_list`` render modes."""

from __future__ import annotations

from typing import Any, SupportsFloat

from palaestra._core import Env, Wrapper
from palaestra.utils._record_constructor import RecordConstructorArgs

__all__ = ["RenderCollection"]


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
            raise ValueError("RenderCollection needs an env with a render_mode, got None")
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
        frames = self.frame_list
        if self.pop_frames:
            self.frame_list = []
        return frames
