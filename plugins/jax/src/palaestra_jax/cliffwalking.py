"""CliffWalking as a JAX functional env (``tabular/CliffWalking-v0``).

Gymnasium 1.4.0's tabular CliffWalking: a 4x12 grid, start at row 3 column 0, the goal at
row 3 column 11 and the cliff between them. Stepping onto the cliff costs -100 and sends
the walker back to the start; every other step costs -1. Actions are int32 arrays of shape
``(1,)``: 0 up, 1 right, 2 down, 3 left; observations ``row * 12 + col`` of shape ``(1,)``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from palaestra import spaces
from palaestra.plugin import FuncEnv
from palaestra_jax._jax import import_jax
from palaestra_jax._render import ClassicFrames, DrawnByEnv
from palaestra_jax.functional_jax_env import CompiledJaxEnv

__all__ = ["CliffWalkingFunctional", "CliffWalkingJaxEnv", "EnvState"]

jax = import_jax()
jnp = jax.numpy

ROWS, COLS = 4, 12


class EnvState(NamedTuple):
    """Where the walker is, its last action (-1 before the first) and whether it just fell."""

    player_position: Any
    last_action: Any
    fallen: Any


def fell_off(position: Any) -> Any:
    """On the bottom row between the start and the goal."""
    return (position[0] == 3) * (position[1] >= 1) * (position[1] <= 10)


class CliffWalkingFunctional(DrawnByEnv, FuncEnv[EnvState, Any, Any, Any, Any, Any, None]):
    """CliffWalking as pure functions of an :class:`EnvState`."""

    drawn_by = ("palaestra_toy_text.cliffwalking", "CliffWalkingEnv")

    action_space = spaces.Box(low=0, high=3, shape=(1,), dtype=np.int32)
    observation_space = spaces.Box(low=0, high=ROWS * COLS - 1, shape=(1,), dtype=np.int32)

    def initial(self, rng: Any, params: None = None) -> EnvState:
        """At the start, no action yet, not fallen."""
        return EnvState(player_position=jnp.array([3, 0]), last_action=-1, fallen=False)

    def transition(self, state: EnvState, action: Any, key: Any, params: None = None) -> EnvState:
        """Move one cell (walls stop it); off the cliff edge means back to the start."""
        row, col = state.player_position
        moved = jnp.array(
            [
                row + (1 * (action == 2)) + (-1 * (action == 0)),
                col + (1 * (action == 1)) + (-1 * (action == 3)),
            ]
        )
        moved = jnp.array(
            [jnp.maximum(jnp.minimum(moved[0], 3), 0), jnp.maximum(jnp.minimum(moved[1], 11), 0)]
        )
        fallen = fell_off(moved)
        moved = jnp.array([moved[0] * (1 - fallen) + 3 * fallen, moved[1] * (1 - fallen)])
        return EnvState(player_position=moved.reshape((2,)), last_action=action[0], fallen=fallen)

    def observation(self, state: EnvState, rng: Any = None, params: None = None) -> Any:
        """``row * 12 + col`` as an int32 array of shape ``(1,)``."""
        return jnp.array(state.player_position[0] * COLS + state.player_position[1]).reshape((1,))

    def terminal(self, state: EnvState, rng: Any = None, params: None = None) -> Any:
        """At the goal."""
        return jnp.array_equal(state.player_position, jnp.array([3, 11]))

    def reward(
        self, state: EnvState, action: Any, next_state: EnvState, rng: Any = None, params: None = None
    ) -> Any:
        """-1 per step, -100 for the step that fell."""
        return jax.lax.convert_element_type(-1 + (-99 * next_state.fallen[0]), jnp.float32)

    def render_image(
        self, state: EnvState, render_state: ClassicFrames, params: None = None
    ) -> tuple[ClassicFrames, np.ndarray]:
        """The grid of ``state``, drawn as toy-text CliffWalking draws its walker."""
        row, col = (int(v) for v in np.asarray(state.player_position))
        last = int(state.last_action)
        return render_state, render_state.frame(s=row * COLS + col, lastaction=None if last < 0 else last)


class CliffWalkingJaxEnv(CompiledJaxEnv):
    """``tabular/CliffWalking-v0``: :class:`CliffWalkingFunctional` jit-compiled (it has no parameters)."""

    functional = CliffWalkingFunctional
    metadata = {"render_modes": ["rgb_array"], "render_fps": 50, "jax": True}
