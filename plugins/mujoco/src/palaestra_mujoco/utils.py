"""State helpers for MuJoCo envs, under the names ``gymnasium.envs.mujoco.utils`` uses.

A state here is MuJoCo's own flat vector (``mujoco.mj_getState``) of the parts named by a
``mujoco.mjtState`` spec: the full physics by default, or ``mjSTATE_INTEGRATION`` for
everything that affects the next step. For whole-env checkpoints (random generators,
counters, wrappers included) use ``env.snapshot()``/``env.restore()`` instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra.error import EnvCheckError
from palaestra_mujoco._gl import import_mujoco

__all__ = ["check_mujoco_reset_state", "get_state", "set_state"]


def _full_physics() -> Any:
    return import_mujoco().mjtState.mjSTATE_FULLPHYSICS


def get_state(env: Any, state_type: Any = None) -> np.ndarray:
    """The MuJoCo state of ``env`` (wrappers are looked through) as a new float64 vector.

    Args:
        env: A MuJoCo env, wrapped or not.
        state_type: A ``mujoco.mjtState`` spec; ``None`` means ``mjSTATE_FULLPHYSICS``.
    """
    mujoco = import_mujoco()
    spec = _full_physics() if state_type is None else state_type
    base = env.unwrapped
    state = np.empty(mujoco.mj_stateSize(base.model, spec))
    mujoco.mj_getState(base.model, base.data, state, spec)
    return state


def set_state(env: Any, state: np.ndarray, state_type: Any = None) -> np.ndarray:
    """Load ``state`` (from :func:`get_state` with the same ``state_type``) into ``env``.

    Returns:
        ``state``, as Gymnasium's helper does.

    Raises:
        ValueError: ``state`` has the wrong size for ``state_type`` and this model.
    """
    mujoco = import_mujoco()
    spec = _full_physics() if state_type is None else state_type
    base = env.unwrapped
    expected = mujoco.mj_stateSize(base.model, spec)
    if np.size(state) != expected:
        raise ValueError(
            f"set_state: the state has {np.size(state)} entries, but this model's state of kind "
            f"{spec} has {expected}; take it with get_state(env, state_type) from the same model"
        )
    mujoco.mj_setState(base.model, base.data, np.asarray(state, np.float64), spec)
    return state


def check_mujoco_reset_state(env: Any, seed: int = 1234, state_type: Any = None) -> None:
    """Check that ``env.reset(seed=seed)`` restores the same MuJoCo state after a step.

    Args:
        env: The env to check.
        seed: The reset seed.
        state_type: A ``mujoco.mjtState`` spec; ``None`` means ``mjSTATE_INTEGRATION``.

    Raises:
        EnvCheckError: The two reset states differ (also an ``AssertionError``, as Gymnasium raises).
    """
    spec = import_mujoco().mjtState.mjSTATE_INTEGRATION if state_type is None else state_type
    env.action_space.seed(seed)
    action = env.action_space.sample()
    env.reset(seed=seed)
    first = get_state(env, spec)
    env.step(action)
    env.reset(seed=seed)
    second = get_state(env, spec)
    if not np.array_equal(first, second):
        changed = np.flatnonzero(first != second)
        raise EnvCheckError(
            f"reset is not deterministic: after a step, reset(seed={seed}) gives another state "
            f"(entries {changed[:10].tolist()} of {first.size} differ); reset every part of the "
            "simulation in reset_model"
        )
