"""Building a v4 MuJoCo env on its v5 env: its model's edits, its arguments, its survival reward."""

from __future__ import annotations

from typing import Any

from palaestra.plugin import EzPickle
from palaestra_mujoco._locomotion import _RENDER_OPTIONS
from palaestra_mujoco.mujoco_env import MODELS_DIR, constructor_arguments

__all__ = [
    "PUSHER_V4_MODEL_EDITS",
    "WALKER2D_V4_MODEL_EDITS",
    "_arguments",
    "_build_on_v5",
    "_model_variant",
    "_v4_survival",
]


def _model_variant(name: str, *edits: tuple[str, str]) -> str:
    """The bundled model ``name`` as MJCF text with each ``(old, new)`` edit made once."""
    text = (MODELS_DIR / name).read_text()
    for old, new in edits:
        if text.count(old) != 1:
            raise ValueError(f"{name}: expected {old!r} exactly once")
        text = text.replace(old, new)
    return text


WALKER2D_V4_MODEL_EDITS = (
    (
        '<default class="foot">\n        <geom friction="1.9 0.1 0.1"',
        '<default class="foot">\n        <geom friction="0.9 0.1 0.1"',
    ),
)
PUSHER_V4_MODEL_EDITS = (
    (
        '<geom name="object" class="slider" size="0.05 0.05" density="0.01" contype="1" rgba="1 1 1 1"/>',
        '<geom type="sphere" size="0.05" density="0.00001" conaffinity="0" rgba="1 1 1 0"/>\n'
        '      <geom name="object" class="slider" size="0.05 0.05" density="0.00001" contype="1" conaffinity="0"'
        ' rgba="1 1 1 1"/>',
    ),
)


def _only_rendering(env: str, kwargs: dict[str, Any]) -> None:
    """v4 constructors pass anything else to MujocoEnv, which refuses it."""
    unknown = sorted(set(kwargs) - _RENDER_OPTIONS)
    if unknown:  # Python's own wording first: libraries (TorchRL) probe arguments by it
        more = f" (and {unknown[1:]})" if len(unknown) > 1 else ""
        raise TypeError(
            f"{env}.__init__() got an unexpected keyword argument {unknown[0]!r}{more}; v4 takes its task "
            f"arguments and rendering options {sorted(_RENDER_OPTIONS)} (the v5 id takes more)"
        )


_arguments = constructor_arguments  # each v4 constructor states its parameters once, too


def _build_on_v5(
    env: Any,
    v5_class: Any,
    task: dict[str, Any],
    kwargs: dict[str, Any],
    drop: tuple[str, ...] = (),
    **v5_settings: Any,
) -> None:
    """Build ``env`` as its v5 env from a v4 constructor's arguments.

    The rendering options (``kwargs``) are checked, the task arguments (less those in
    ``drop``, which v5 does not take) go to the v5 constructor with ``v5_settings`` (what
    v4 fixes), and the v4 arguments are what pickling rebuilds the env from.
    """
    _only_rendering(type(env).__name__, kwargs)
    v5_class.__init__(env, **{k: v for k, v in task.items() if k not in drop}, **v5_settings, **kwargs)
    EzPickle.__init__(env, **task, **kwargs)


def _v4_survival(env: Any, healthy: bool) -> float:
    """v4's healthy reward: paid while healthy, and always while ending on unhealthy is on."""
    survive: float = float(healthy or env._terminate_when_unhealthy) * env._healthy_reward
    return survive
