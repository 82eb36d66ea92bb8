"""Frames of the JAX envs, drawn by the matching classic-control or toy-text env.

The functional envs keep no drawing code of their own: a render state is one env of the
same game from another suite, given the functional state and asked for its frame.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

from palaestra.error import DependencyNotInstalled

__all__ = ["ClassicFrames", "DrawnByEnv"]

RENDER_HINT = 'pip install "palaestra-jax[render]" (the classic-control and toy-text suites with pygame)'


class ClassicFrames:
    """An env of ``module:name`` (made with ``render_mode="rgb_array"``) that draws states."""

    def __init__(self, module: str, name: str) -> None:
        try:
            env_class = getattr(importlib.import_module(module), name)
        except ImportError as error:
            raise DependencyNotInstalled(
                f"Rendering the JAX envs needs {module.split('.')[0]}: {RENDER_HINT}"
            ) from error
        self.env = env_class(render_mode="rgb_array")
        self.env.reset(seed=0)  # every attribute the drawing reads exists from here on

    def frame(self, **state: Any) -> Any:
        """Set the drawing env's state attributes to ``state`` and return its frame."""
        for name, value in state.items():
            setattr(self.env, name, value)
        return self.env.render()

    def close(self) -> None:
        """Close the drawing env."""
        self.env.close()


class DrawnByEnv:
    """``render_init``/``render_close`` of a functional env whose frames ``drawn_by`` draws.

    ``drawn_by`` is ``(module, env class)`` of the other suite's env; the functional env
    implements only ``render_image``, giving that env its state.
    """

    drawn_by: ClassVar[tuple[str, str]]

    def render_init(self, params: Any = None, **kwargs: Any) -> ClassicFrames:
        """An env of the other suite that draws the frames."""
        return ClassicFrames(*self.drawn_by)

    def render_close(self, render_state: ClassicFrames, params: Any = None) -> None:
        """Close the drawing env."""
        render_state.close()
