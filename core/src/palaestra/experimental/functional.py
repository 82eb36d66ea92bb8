"""``FuncEnv``: an environment written as pure functions of an explicit state.

A functional env keeps no state of its own: the caller holds the state and passes it, with
a random number generator (any object: a numpy ``Generator``, a JAX key...) and optional
parameters, to each function. That makes an env easy to batch, compile or differentiate
with function transformations (``transform``), which is what hardware-accelerated
backends need. The API follows Gymnasium's and may change with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

import numpy as np

from palaestra.spaces import Space

__all__ = ["FuncEnv"]

StateType = TypeVar("StateType")
ObsType = TypeVar("ObsType")
ActType = TypeVar("ActType")
RewardType = TypeVar("RewardType")
TerminalType = TypeVar("TerminalType")
RenderStateType = TypeVar("RenderStateType")
Params = TypeVar("Params")

# The functions ``transform`` rewrites: everything that maps states forward.
_TRANSFORMED = ("initial", "transition", "observation", "reward", "terminal", "state_info", "transition_info")


class FuncEnv(Generic[StateType, ObsType, ActType, RewardType, TerminalType, RenderStateType, Params]):
    """Template for a stateless environment; subclasses implement the functions they need.

    Required: ``initial``, ``transition``, ``observation``, ``reward``, ``terminal``.
    Optional: ``state_info`` and ``transition_info`` (empty dicts by default), the render
    trio ``render_init``/``render_image``/``render_close``, and ``get_default_params``.
    Constants belong on the class (or in ``options``) and are read by name.

    Args:
        options: Attribute overrides set on the instance (e.g. ``{"gravity": 9.8}``).

    Example:
        >>> class Counter(FuncEnv):
        ...     def initial(self, rng, params=None): return 0
        ...     def transition(self, state, action, rng, params=None): return state + action
        ...     def observation(self, state, rng, params=None): return state
        ...     def reward(self, state, action, next_state, rng, params=None): return 1.0
        ...     def terminal(self, state, rng, params=None): return state >= 3
        >>> env = Counter()
        >>> env.terminal(env.transition(env.initial(None), 3, None), None)
        True
    """

    observation_space: Space[Any]
    action_space: Space[Any]

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        for name, value in (options or {}).items():
            setattr(self, name, value)
        self.default_params = self.get_default_params()

    def initial(self, rng: Any, params: Params | None = None) -> StateType:
        """The state an episode starts in."""
        raise NotImplementedError(f"{type(self).__name__} must implement `initial(rng, params)`.")

    def transition(
        self, state: StateType, action: ActType, rng: Any, params: Params | None = None
    ) -> StateType:
        """The state after taking ``action`` in ``state``."""
        raise NotImplementedError(
            f"{type(self).__name__} must implement `transition(state, action, rng, params)`."
        )

    def observation(self, state: StateType, rng: Any, params: Params | None = None) -> ObsType:
        """What the agent observes in ``state``."""
        raise NotImplementedError(f"{type(self).__name__} must implement `observation(state, rng, params)`.")

    def reward(
        self, state: StateType, action: ActType, next_state: StateType, rng: Any, params: Params | None = None
    ) -> RewardType:
        """The reward of the transition ``state`` --``action``--> ``next_state``."""
        raise NotImplementedError(
            f"{type(self).__name__} must implement `reward(state, action, next_state, rng, params)`."
        )

    def terminal(self, state: StateType, rng: Any, params: Params | None = None) -> TerminalType:
        """Whether ``state`` ends the episode."""
        raise NotImplementedError(f"{type(self).__name__} must implement `terminal(state, rng, params)`.")

    def state_info(self, state: StateType, params: Params | None = None) -> dict[str, Any]:
        """Extra information about ``state`` (the ``info`` of a reset)."""
        return {}

    def transition_info(
        self, state: StateType, action: ActType, next_state: StateType, params: Params | None = None
    ) -> dict[str, Any]:
        """Extra information about a transition (the ``info`` of a step)."""
        return {}

    def transform(self, func: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
        """Replace each state function by ``func(function)``, e.g. ``jax.jit`` or ``jax.vmap``.

        Applies to ``initial``, ``transition``, ``observation``, ``reward``, ``terminal``,
        ``state_info`` and ``transition_info`` of this instance.
        """
        for name in _TRANSFORMED:
            setattr(self, name, func(getattr(self, name)))

    def render_init(self, params: Params | None = None, **kwargs: Any) -> RenderStateType:
        """Create what rendering needs (a canvas, a window...)."""
        raise NotImplementedError(f"{type(self).__name__} does not render (no `render_init`).")

    def render_image(
        self, state: StateType, render_state: RenderStateType, params: Params | None = None
    ) -> tuple[RenderStateType, np.ndarray]:
        """Draw ``state``; returns the (possibly updated) render state and an RGB frame."""
        raise NotImplementedError(f"{type(self).__name__} does not render (no `render_image`).")

    def render_close(self, render_state: RenderStateType, params: Params | None = None) -> None:
        """Release what ``render_init`` created."""
        raise NotImplementedError(f"{type(self).__name__} does not render (no `render_close`).")

    def get_default_params(self, **kwargs: Any) -> Params | None:
        """The parameters used when a function gets ``params=None`` (None by default)."""
        return None
