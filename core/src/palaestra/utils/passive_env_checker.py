"""Cheap checks run once on the first reset/step/render of every env made by ``make``.

Problems that break the API contract raise :class:`~palaestra.error.EnvCheckError` (an
``AssertionError`` too, as Gymnasium asserts them); questionable but workable choices warn.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from palaestra import logger, spaces
from palaestra.error import EnvCheckError, EnvCheckTypeError

__all__ = [
    "check_action_space",
    "check_obs",
    "check_observation_space",
    "data_shares_objects",
    "env_data_reuse_passive_checker",
    "env_render_passive_checker",
    "env_reset_passive_checker",
    "env_step_passive_checker",
]


BoxCheck = Callable[[spaces.Box, str], None]


def _check_box(space: spaces.Box, kind: str) -> None:
    # Shapes first: bounds replaced after construction may no longer broadcast.
    for name in ("low", "high"):
        bound = np.asarray(getattr(space, name))
        if bound.shape != space.shape:
            raise EnvCheckError(
                f"The Box {kind} space's {name} has shape {bound.shape}, but the space's shape is "
                f"{space.shape}; build a new Box instead of replacing its bounds."
            )
    if np.any(space.low == space.high):
        logger.warn(f"A Box {kind} space maximum and minimum values are equal.")
    elif kind == "observation" and np.any(space.high < space.low):
        logger.warn(f"A Box {kind} space low value is greater than a high value.")


def _check_counts(space: spaces.Space[Any], kind: str) -> None:
    """Discrete spaces whose attributes were changed into nonsense after construction."""
    name = type(space).__name__
    if isinstance(space, spaces.Discrete):
        if not space.n > 0 or space.shape != ():
            raise EnvCheckError(
                f"The Discrete {kind} space needs n > 0 and shape (), actual n={space.n}, shape={space.shape}."
            )
    elif isinstance(space, spaces.MultiDiscrete):
        if space.shape != space.nvec.shape or not np.all(space.nvec > 0):
            raise EnvCheckError(
                f"The {name} {kind} space needs positive counts of the space's shape, actual nvec "
                f"{space.nvec} (shape {space.nvec.shape}) for shape {space.shape}."
            )
    elif isinstance(space, spaces.MultiBinary) and not np.all(np.asarray(space.shape) > 0):
        raise EnvCheckError(f"The {name} {kind} space needs a positive shape, actual shape: {space.shape}.")


def _check_space(space: Any, kind: str, check_box: BoxCheck | None) -> None:
    if not isinstance(space, spaces.Space):
        raise EnvCheckTypeError(
            f"The {kind} space does not inherit from `palaestra.spaces.Space`, actual type: "
            f"{type(space)}. Build it from palaestra.spaces."
        )
    if isinstance(space, spaces.Box):
        (check_box or _check_box)(space, kind)
    elif isinstance(space, (spaces.Discrete, spaces.MultiDiscrete, spaces.MultiBinary)):
        _check_counts(space, kind)
    elif isinstance(space, (spaces.Tuple, spaces.Dict)):
        subspaces = space.spaces.values() if isinstance(space, spaces.Dict) else space.spaces
        if len(subspaces) == 0:
            raise EnvCheckError(f"An empty {type(space).__name__} {kind} space is not allowed.")
        for sub in subspaces:
            _check_space(sub, kind, check_box)


def check_observation_space(
    space: Any, *, space_type: str = "observation", check_box_space_fn: BoxCheck | None = None
) -> None:
    """Check an observation space is a valid palaestra space.

    Args:
        space: The space (Tuple and Dict spaces are checked member by member).
        space_type: The word used for the space in messages.
        check_box_space_fn: Replaces the check of each Box, called as ``fn(box, space_type)``.
    """
    _check_space(space, space_type, check_box_space_fn)


def check_action_space(
    space: Any, *, space_type: str = "action", check_box_space_fn: BoxCheck | None = None
) -> None:
    """Check an action space is a valid palaestra space (arguments as :func:`check_observation_space`)."""
    _check_space(space, space_type, check_box_space_fn)


def _check_obs_type(obs: Any, space: spaces.Space[Any], pre: str) -> None:
    if isinstance(space, spaces.Discrete):
        if not isinstance(obs, (np.int64, int)):
            logger.warn(f"{pre} should be an int or np.int64, actual type: {type(obs)}")
    elif isinstance(space, spaces.Box) and space.shape != ():
        if not isinstance(obs, np.ndarray):
            logger.warn(f"{pre} was expecting a numpy array, actual type: {type(obs)}")
        elif obs.dtype != space.dtype:
            logger.warn(
                f"{pre} was expecting numpy array dtype to be {space.dtype}, actual type: {obs.dtype}"
            )
    elif isinstance(space, (spaces.MultiBinary, spaces.MultiDiscrete)) and not isinstance(obs, np.ndarray):
        logger.warn(f"{pre} was expecting a numpy array, actual type: {type(obs)}")


def _check_obs_parts(obs: Any, space: spaces.Space[Any], pre: str, method: str) -> None:
    if isinstance(space, spaces.Tuple):
        if not isinstance(obs, tuple) or len(obs) != len(space.spaces):
            raise EnvCheckError(f"{pre} must be a tuple of length {len(space.spaces)}, actual: {obs!r}")
        for sub_obs, sub_space in zip(obs, space.spaces, strict=True):
            check_obs(sub_obs, sub_space, method)
    elif isinstance(space, spaces.Dict):
        if not isinstance(obs, dict) or obs.keys() != space.spaces.keys():
            raise EnvCheckError(f"{pre} must be a dict with keys {list(space.spaces)}, actual: {obs!r}")
        for key, sub_space in space.spaces.items():
            check_obs(obs[key], sub_space, method)


def check_obs(obs: Any, space: spaces.Space[Any], method: str) -> None:
    """Warn when ``obs`` has the wrong type or lies outside ``space``.

    Raises:
        Error: A Tuple/Dict observation has the wrong structure.
    """
    pre = f"The obs returned by the `{method}()` method"
    _check_obs_type(obs, space, pre)
    _check_obs_parts(obs, space, pre, method)
    try:
        inside = obs in space
    except Exception as e:
        logger.warn(f"{pre} is not within the observation space with exception: {e}")
        return
    if not inside:
        logger.warn(f"{pre} is not within the observation space.")


def data_shares_objects(data_1: Any, data_2: Any) -> bool:
    """Whether two observations (or infos) share a mutable object or array memory."""
    if type(data_1) is not type(data_2):
        return False
    if isinstance(data_1, dict):
        return data_1 is data_2 or any(
            data_shares_objects(data_1[k], data_2[k]) for k in data_1.keys() & data_2.keys()
        )
    if isinstance(data_1, tuple):
        return any(data_shares_objects(a, b) for a, b in zip(data_1, data_2, strict=False))
    if isinstance(data_1, np.ndarray):
        if data_1.dtype == object:
            return data_1 is data_2 or any(
                data_shares_objects(a, b) for a, b in zip(data_1.flat, data_2.flat, strict=False)
            )
        return bool(np.shares_memory(data_1, data_2))
    return False


def env_data_reuse_passive_checker(
    previous: tuple[Any, Any], current: tuple[Any, Any], previous_source: str, source: str
) -> None:
    """Warn when consecutive results share objects (users often keep old observations)."""
    for what, old, new in (("observations", previous[0], current[0]), ("infos", previous[1], current[1])):
        if data_shares_objects(old, new):
            logger.warn(
                f"The {what} returned by `{previous_source}` and the following `{source}` share an "
                "object, therefore, modifying one will modify the other. Environments should "
                f"return new {what[:-1]} data on every call."
            )


def env_reset_passive_checker(env: Any, **kwargs: Any) -> Any:
    """Check ``reset``'s signature and result, returning the result."""
    params = inspect.signature(env.reset).parameters
    for arg in ("seed", "options"):
        if arg not in params and "kwargs" not in params:
            logger.deprecation(f"`Env.reset` must accept `{arg}` as a keyword argument.")
    seed_param = params.get("seed")
    if seed_param is not None and seed_param.default is not None:
        logger.warn(
            "The default seed argument in `Env.reset` should be `None`, otherwise the environment "
            f"will by default always be deterministic. Actual default: {seed_param}"
        )
    result = env.reset(**kwargs)
    if not isinstance(result, tuple) or len(result) != 2:
        logger.warn(f"`env.reset()` should return `(obs, info)`, actual: {type(result)}")
        return result
    obs, info = result
    check_obs(obs, env.observation_space, "reset")
    if not isinstance(info, dict):
        raise EnvCheckError(
            f"The second element returned by `env.reset()` was not a dictionary, actual type: {type(info)}"
        )
    return result


def env_step_passive_checker(env: Any, action: Any) -> Any:
    """Check ``step``'s result, returning it."""
    result = env.step(action)
    if not isinstance(result, tuple) or len(result) != 5:
        size = len(result) if isinstance(result, tuple) else type(result).__name__
        raise EnvCheckError(
            "Expected `Env.step` to return a five element tuple (obs, reward, terminated, "
            f"truncated, info), actual: {size}. A 4-tuple is the old Gym API; see the migration guide."
        )
    obs, reward, terminated, truncated, info = result
    for name, flag in (("terminated", terminated), ("truncated", truncated)):
        if not isinstance(flag, (bool, np.bool_)):
            logger.warn(f"Expects `{name}` signal to be a boolean, actual type: {type(flag)}")
    check_obs(obs, env.observation_space, "step")
    if not (np.issubdtype(type(reward), np.integer) or np.issubdtype(type(reward), np.floating)):
        logger.warn(
            "The reward returned by `step()` must be a float, int, np.integer or np.floating, "
            f"actual type: {type(reward)}"
        )
    elif np.isnan(reward):
        logger.warn("The reward is a NaN value.")
    elif np.isinf(reward):
        logger.warn("The reward is an inf value.")
    if not isinstance(info, dict):
        raise EnvCheckError(
            f"The `info` returned by `step()` must be a python dictionary, actual type: {type(info)}"
        )
    return result


def _check_render_return(mode: str, frame: Any) -> None:
    if mode == "human" and frame is not None:
        logger.warn(f"Human rendering should return `None`, got {type(frame)}")
    elif mode == "rgb_array":
        if (
            not isinstance(frame, np.ndarray)
            or frame.dtype != np.uint8
            or frame.ndim != 3
            or frame.shape[2] != 3
        ):
            logger.warn(f"RGB-array rendering should return a uint8 HxWx3 numpy array, got {frame!r:.80}")
    elif mode == "depth_array":
        if not isinstance(frame, np.ndarray) or frame.ndim != 2:
            logger.warn(f"Depth-array rendering should return a 2-d numpy array, got {type(frame)}")
    elif mode in ("ansi", "ascii"):
        if not isinstance(frame, str):
            logger.warn(f"ANSI/ASCII rendering should produce a string, got {type(frame)}")
    elif mode.endswith("_list"):
        if not isinstance(frame, list):
            logger.warn(f"Render mode `{mode}` should produce a list, got {type(frame)}")
        else:
            for item in frame:
                _check_render_return(mode[: -len("_list")], item)


def env_render_passive_checker(env: Any) -> Any:
    """Check render metadata and the first frame, returning the frame."""
    modes = env.metadata.get("render_modes")
    if modes is None:
        logger.warn("No render modes was declared in the environment (env.metadata['render_modes']).")
    else:
        if not isinstance(modes, (list, tuple)) or not all(isinstance(m, str) for m in modes):
            logger.warn(f"Expects the render_modes to be a sequence of strings, actual: {modes!r}")
        fps = env.metadata.get("render_fps")
        numeric = isinstance(fps, (int, float, np.integer, np.floating)) and not isinstance(fps, bool)
        if modes and fps is None:
            logger.warn("No render fps was declared in the environment (env.metadata['render_fps']).")
        elif modes and not numeric:
            logger.warn(
                f"Expects the `env.metadata['render_fps']` to be an integer or a float, actual type: {type(fps)}"
            )
        elif modes and not fps > 0:
            raise EnvCheckError(
                f"Expects the `env.metadata['render_fps']` to be greater than zero, actual value: {fps}"
            )
        if env.render_mode is not None and env.render_mode not in modes:
            raise EnvCheckError(
                f"The environment was initialized with an unsupported render mode "
                f"{env.render_mode!r}; supported: {modes}"
            )
    frame = env.render()
    if env.render_mode is not None:
        _check_render_return(env.render_mode, frame)
    return frame
