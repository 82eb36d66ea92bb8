"""Adapters that run a JAX :class:`~palaestra.experimental.functional.FuncEnv` as an env.

:class:`FunctionalJaxEnv` holds one state and one PRNG key and steps the functional env's
(jit-compiled) functions; :class:`FunctionalJaxVectorEnv` does the same for a batch, the
functions ``vmap``-ped over it. Observations are JAX arrays, as in Gymnasium; rewards and
flags of the single env are Python numbers, those of the vector env JAX arrays.

The PRNG keys are used exactly as Gymnasium 1.4.0's adapters use them (a split before each
initial state and each transition, a key per sub-env), so the same seed gives the same
episodes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from palaestra import Env, spaces
from palaestra.error import UnsupportedMode
from palaestra.plugin import (
    AutoresetMode,
    EzPickle,
    FuncEnv,
    VectorEnv,
    batch_space,
    check_num_envs,
    invalid_action,
    invalid_actions,
    np_random,
    render_before_reset,
    step_before_reset,
    warn_no_render_mode,
    wrong_action_count,
)
from palaestra_jax._jax import import_jax

__all__ = [
    "CompiledJaxEnv",
    "CompiledJaxVectorEnv",
    "FunctionalJaxEnv",
    "FunctionalJaxVectorEnv",
    "KeywordParams",
    "compiled",
]

jax = import_jax()
jnp, jrng = jax.numpy, jax.random


def _entropy_key() -> Any:
    """A key from OS entropy, for an env used before it is ever seeded."""
    generator, _ = np_random()
    return jrng.PRNGKey(generator.integers(0, 2**32 - 1, dtype="uint32"))


def _check_seed(owner: object, seed: Any) -> None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(
            f"{type(owner).__name__}.reset: seed must be a non-negative int or None, got {seed!r}"
        )


def _check_action(env: Env[Any, Any], action: Any) -> None:
    """Refuse an action outside the space; continuous ones need only the shape and finite values.

    Out-of-range continuous values are clipped by the dynamics, as in Gymnasium. An integer
    Box (tabular envs' choice of move) takes integers within its bounds: Gymnasium's JAX
    envs would index their tables with anything else and return nonsense.
    """
    space = env.action_space
    if isinstance(space, spaces.Box):
        arr = np.asarray(action)
        if arr.shape != space.shape:
            raise invalid_action(env, action, space)
        if space.dtype.kind in "iu":
            if arr.dtype.kind in "iu" and bool(((arr >= space.low) & (arr <= space.high)).all()):
                return
        elif arr.dtype.kind in "fiu" and np.isfinite(arr).all():
            return
    elif space.contains(action if isinstance(action, (int, np.integer, np.ndarray)) else np.asarray(action)):
        return
    raise invalid_action(env, action, space)


class FunctionalJaxEnv(Env[Any, Any]):
    """One episode at a time of a JAX functional env.

    Args:
        func_env: The functional env (its functions already transformed, e.g. jit-compiled).
        metadata: The env's metadata (``{"render_modes": [], "jax": True}`` by default).
        render_mode: ``"rgb_array"`` (if the functional env renders) or ``None``.
        spec: The env's spec.
    """

    def __init__(
        self,
        func_env: FuncEnv[Any, Any, Any, Any, Any, Any, Any],
        metadata: dict[str, Any] | None = None,
        render_mode: str | None = None,
        spec: Any = None,
    ) -> None:
        self.metadata = {"render_modes": [], "jax": True} if metadata is None else metadata
        if render_mode is not None and render_mode not in self.metadata.get("render_modes", []):
            raise UnsupportedMode(
                f"{type(self).__name__}: render_mode {render_mode!r} is not one of "
                f"{self.metadata.get('render_modes', [])} or None"
            )
        self.func_env = func_env
        self.observation_space = func_env.observation_space
        self.action_space = func_env.action_space
        self.render_mode = render_mode
        self.spec = spec
        self.render_state = func_env.render_init() if render_mode == "rgb_array" else None
        self.rng = _entropy_key()
        self.state: Any = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """A new initial state (from key ``seed`` when given)."""
        _check_seed(self, seed)
        super().reset(seed=seed)
        if seed is not None:
            self.rng = jrng.PRNGKey(seed)
        rng, self.rng = jrng.split(self.rng)
        self.state = self.func_env.initial(rng=rng)
        return self.func_env.observation(self.state, rng), self.func_env.state_info(self.state)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """One transition; the reward and termination as Python numbers."""
        if self.state is None:
            raise RuntimeError(f"{type(self).__name__}.step called before reset; call reset() first.")
        _check_action(self, action)
        rng, self.rng = jrng.split(self.rng)
        func = self.func_env
        next_state = func.transition(self.state, action, rng)
        observation = func.observation(next_state, rng)
        reward = func.reward(self.state, action, next_state, rng)
        terminated = func.terminal(next_state, rng)
        info = func.transition_info(self.state, action, next_state)
        self.state = next_state
        return observation, float(reward), bool(terminated), False, info

    def render(self) -> Any:
        """The current state as an RGB frame (``render_mode="rgb_array"``)."""
        if self.render_mode != "rgb_array":
            warn_no_render_mode(self)
            return None
        if self.state is None:
            raise RuntimeError(f"{type(self).__name__}.render called before reset; call reset() first.")
        self.render_state, image = self.func_env.render_image(self.state, self.render_state)
        return image

    def close(self) -> None:
        """Release the render state."""
        if self.render_state is not None:
            self.func_env.render_close(self.render_state)
            self.render_state = None


class FunctionalJaxVectorEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` copies of a JAX functional env stepped as one batch (``vmap``).

    Autoreset is NEXT_STEP: a sub-env that ended is reset on the following step. Unlike
    Gymnasium 1.4.0's adapter, the other sub-envs still advance on that step (Gymnasium's
    rebuilds the whole batch from the previous states there, undoing their transition);
    until the first autoreset the two give the same numbers.

    Args:
        func_env: The functional env (its functions already transformed, e.g. jit-compiled).
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``0``: none).
        metadata: The env's metadata.
        render_mode: ``"rgb_array"`` (the first sub-env's frame) or ``None``.
        spec: The env's spec.
    """

    def __init__(
        self,
        func_env: FuncEnv[Any, Any, Any, Any, Any, Any, Any],
        num_envs: int,
        max_episode_steps: int = 0,
        metadata: dict[str, Any] | None = None,
        render_mode: str | None = None,
        spec: Any = None,
    ) -> None:
        num_envs = check_num_envs(num_envs)
        self.metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP} if metadata is None else metadata
        self.func_env = func_env
        self.num_envs = num_envs
        self.single_observation_space = func_env.observation_space
        self.single_action_space = func_env.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = render_mode
        self.spec = spec
        self.time_limit = max_episode_steps or 0
        self.steps = jnp.zeros(num_envs, dtype=jnp.int32)
        self.prev_done = jnp.zeros(num_envs, dtype=jnp.bool_)
        self.render_state = func_env.render_init() if render_mode == "rgb_array" else None
        self.rng = _entropy_key()
        self.state: Any = None
        func_env.transform(jax.vmap)

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """New initial states for every sub-env (keys split from ``seed`` when given)."""
        if isinstance(seed, list):
            raise ValueError(
                f"{type(self).__name__}.reset takes one seed for the whole batch (the sub-envs' keys are split from it), "
                f"not a list: {seed!r}"
            )
        _check_seed(self, seed)
        if options and "reset_mask" in options:
            raise ValueError(f"{type(self).__name__} resets all sub-envs at once; it takes no reset_mask")
        if seed is not None:
            self.rng = jrng.PRNGKey(seed)
        rng, self.rng = jrng.split(self.rng)
        keys = jrng.split(rng, self.num_envs)
        self.state = self.func_env.initial(rng=keys)
        self.steps = jnp.zeros(self.num_envs, dtype=jnp.int32)
        self.prev_done = jnp.zeros(self.num_envs, dtype=jnp.bool_)
        return self.func_env.observation(self.state, keys), self.func_env.state_info(self.state)

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """One transition of every sub-env; those that ended last step start anew."""
        if self.state is None:
            raise step_before_reset(self)
        count = len(actions) if hasattr(actions, "__len__") else None
        if count != self.num_envs:
            raise wrong_action_count(count if count is not None else 1, self.num_envs, type(self).__name__)
        shape = getattr(actions, "shape", None)
        if shape is not None and tuple(shape) != self.action_space.shape:  # one row per sub-env
            raise invalid_actions(self, actions)
        func = self.func_env
        self.steps += 1
        rng, self.rng = jrng.split(self.rng)
        keys = jrng.split(rng, self.num_envs)
        next_state = func.transition(self.state, actions, keys)
        reward = func.reward(self.state, actions, next_state, keys)
        terminated = func.terminal(next_state, keys)
        truncated = self.steps >= self.time_limit if self.time_limit > 0 else jnp.zeros_like(terminated)
        info = func.transition_info(self.state, actions, next_state)
        if jnp.any(self.prev_done):
            to_reset = jnp.where(self.prev_done)[0]
            rng, self.rng = jrng.split(self.rng)
            fresh = func.initial(jrng.split(rng, to_reset.shape[0]))
            next_state = jax.tree_util.tree_map(lambda now, new: now.at[to_reset].set(new), next_state, fresh)
            self.steps = self.steps.at[to_reset].set(0)
            terminated = terminated.at[to_reset].set(False)
            truncated = truncated.at[to_reset].set(False)
        self.prev_done = jnp.logical_or(terminated, truncated)
        observation = func.observation(next_state, jrng.split(self.rng, self.num_envs))
        self.state = next_state
        return observation, reward, terminated, truncated, info

    def render(self) -> Any:
        """The first sub-env's frame (``render_mode="rgb_array"``)."""
        if self.render_mode != "rgb_array":
            return None
        if self.state is None:
            raise render_before_reset(self)
        first = jax.tree_util.tree_map(lambda leaf: leaf[0], self.state)
        self.render_state, image = self.func_env.render_image(first, self.render_state)
        return image

    def close_extras(self, **kwargs: Any) -> None:
        """Release the render state."""
        if self.render_state is not None:
            self.func_env.render_close(self.render_state)
            self.render_state = None


class KeywordParams:
    """``get_default_params(**kwargs)`` of a functional env whose parameters are a ``params_type``."""

    params_type: ClassVar[Callable[..., Any]]

    def get_default_params(self, **kwargs: Any) -> Any:
        """The default parameters, with ``kwargs`` replacing some by name (others: TypeError)."""
        return self.params_type(**kwargs)


def compiled(functional: type[FuncEnv[Any, Any, Any, Any, Any, Any, Any]], parameters: dict[str, Any]) -> Any:
    """A ``functional`` env with ``parameters`` (keywords of its params) and jit-compiled functions."""
    env = functional()
    if parameters:
        if env.default_params is None:
            raise TypeError(f"{functional.__name__} has no parameters to set; got {sorted(parameters)}")
        env.default_params = env.get_default_params(**parameters)  # an unknown name is a TypeError
    env.transform(jax.jit)
    return env


class CompiledJaxEnv(FunctionalJaxEnv, EzPickle):
    """A registered JAX env: the class's ``functional`` env, jit-compiled.

    Args:
        render_mode: ``"rgb_array"`` or ``None``.
        **parameters: Values of the functional env's parameters, by name.
    """

    functional: ClassVar[type[FuncEnv[Any, Any, Any, Any, Any, Any, Any]]]

    def __init__(self, render_mode: str | None = None, **parameters: Any) -> None:
        EzPickle.__init__(self, render_mode=render_mode, **parameters)
        FunctionalJaxEnv.__init__(
            self, compiled(self.functional, parameters), metadata=self.metadata, render_mode=render_mode
        )


class CompiledJaxVectorEnv(FunctionalJaxVectorEnv, EzPickle):
    """A registered JAX vector env: the class's ``functional`` env, jit-compiled and ``vmap``-ped.

    Args:
        num_envs: Number of sub-environments.
        render_mode: ``"rgb_array"`` or ``None``.
        max_episode_steps: Steps before truncation (``make_vec`` passes the id's).
        **parameters: Values of the functional env's parameters, by name.
    """

    functional: ClassVar[type[FuncEnv[Any, Any, Any, Any, Any, Any, Any]]]

    def __init__(
        self, num_envs: int, render_mode: str | None = None, max_episode_steps: int = 200, **parameters: Any
    ) -> None:
        EzPickle.__init__(
            self,
            num_envs=num_envs,
            render_mode=render_mode,
            max_episode_steps=max_episode_steps,
            **parameters,
        )
        FunctionalJaxVectorEnv.__init__(
            self,
            compiled(self.functional, parameters),
            num_envs,
            max_episode_steps=max_episode_steps,
            metadata=self.metadata,
            render_mode=render_mode,
        )
