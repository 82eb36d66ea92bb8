"""Cheap checks run once on the first reset/step/render of every env made by ``make``.

Every finding speaks Gymnasium 1.4.0's words exactly, so ``pytest.raises(..., match=...)``
and warning filters written against Gymnasium keep matching: problems that break the API
contract raise :class:`~palaestra.error.EnvCheckError` (an ``AssertionError``, as Gymnasium
asserts them); questionable but workable choices warn. What to do about each finding is in
the docs (``docs/checking.md``).
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from palaestra import logger, spaces
from palaestra.error import EnvCheckError, EnvCheckTypeError
from palaestra.spaces import _imported

__all__ = [
    "check_action_space",
    "check_obs",
    "check_observation_space",
    "data_shares_objects",
    "env_data_reuse_passive_checker",
    "env_render_passive_checker",
    "env_reset_passive_checker",
    "env_step_passive_checker",
    "space_of",
]

# Gymnasium's guide to writing an env; palaestra's Env has the same interface.
CUSTOM_ENV_GUIDE = "https://gymnasium.farama.org/introduction/create_custom_env/"


if TYPE_CHECKING:
    BoxCheck = Callable[[spaces.Box, str], None]

# Gymnasium's wording of the bound-shape assertion differs by space and bound ("have have"
# in two of the four); kept as is so messages match character for character.
_BOUND_SHAPE_VERB = {
    ("observation", "low"): "have",
    ("observation", "high"): "have have",
    ("action", "low"): "have have",
    ("action", "high"): "have",
}


def _is(value: Any, *kinds: str) -> bool:
    """``isinstance(value, spaces.<kind>)`` for any of ``kinds``, importing no space module."""
    for kind in kinds:
        cls = _imported(kind)
        if cls is not None and isinstance(value, cls):
            return True
    return False


def violation(message: str, kind: type[EnvCheckError] = EnvCheckError) -> EnvCheckError:
    """A finding, worded exactly as Gymnasium words it.

    Nothing is added, not even an exception note: ``pytest.raises(match=...)`` matches the
    notes too, and tests written against Gymnasium anchor whole messages (``^...$``).
    """
    return kind(message)


def space_of(env: Any, kind: str, see: str) -> Any:
    """``env``'s ``{kind}_space``, or Gymnasium's ``AttributeError`` (``see`` ends its message)."""
    try:
        return getattr(env, f"{kind}_space")
    except AttributeError:
        raise AttributeError(f"The environment must specify an {kind} space. {see}") from None


def _check_box(space: spaces.Box, kind: str) -> None:
    for name in ("low", "high"):
        bound = np.asarray(getattr(space, name))
        if bound.shape != space.shape:
            verb = _BOUND_SHAPE_VERB.get((kind, name), "have")
            raise violation(
                f"The Box {kind} space shape and {name} shape {verb} different shapes, "
                f"{name} shape: {bound.shape}, box shape: {space.shape}",
            )
    if np.any(space.low == space.high):
        logger.warn(f"A Box {kind} space maximum and minimum values are equal.")
    elif kind == "observation" and np.any(space.high < space.low):
        logger.warn(f"A Box {kind} space low value is greater than a high value.")


def _require(condition: Any, message: str) -> None:
    if not condition:
        raise violation(message)


def _check_counts(space: Any, kind: str) -> None:
    """Discrete spaces whose attributes were changed into nonsense after construction."""
    if _is(space, "Discrete"):
        _require(
            space.n > 0,
            f"Discrete {kind} space's number of elements must be positive, actual number of elements: {space.n}",
        )
        _require(
            space.shape == (), f"Discrete {kind} space's shape should be empty, actual shape: {space.shape}"
        )
    elif _is(space, "MultiDiscrete"):
        _require(
            space.shape == space.nvec.shape,
            f"Multi-discrete {kind} space's shape must be equal to the nvec shape, space shape: "
            f"{space.shape}, nvec shape: {space.nvec.shape}",
        )
        _require(
            np.all(space.nvec > 0),
            f"Multi-discrete {kind} space's all nvec elements must be greater than 0, actual nvec: {space.nvec}",
        )
    elif _is(space, "MultiBinary"):
        _require(
            np.all(np.asarray(space.shape) > 0),
            f"Multi-binary {kind} space's all shape elements must be greater than 0, actual shape: {space.shape}",
        )


def _check_space(space: Any, kind: str, check_box: BoxCheck | None) -> None:
    if not _is(space, "Space"):
        raise violation(
            f"{kind} space does not inherit from `gymnasium.spaces.Space`, actual type: {type(space)}",
            EnvCheckTypeError,
        )
    if _is(space, "Box"):
        (check_box or _check_box)(space, kind)
    elif _is(space, "Discrete", "MultiDiscrete", "MultiBinary"):
        _check_counts(space, kind)
    elif _is(space, "Tuple", "Dict"):
        subspaces = space.spaces.values() if _is(space, "Dict") else space.spaces
        _require(len(subspaces) > 0, f"An empty {type(space).__name__} {kind} space is not allowed.")
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
    if _is(space, "Discrete"):
        if not isinstance(obs, (np.int64, int)):
            logger.warn(f"{pre} should be an int or np.int64, actual type: {type(obs)}")
    elif _is(space, "Box") and space.shape != ():
        if not isinstance(obs, np.ndarray):
            logger.warn(f"{pre} was expecting a numpy array, actual type: {type(obs)}")
        elif obs.dtype != space.dtype:
            logger.warn(
                f"{pre} was expecting numpy array dtype to be {space.dtype}, actual type: {obs.dtype}"
            )
    elif _is(space, "MultiBinary", "MultiDiscrete") and not isinstance(obs, np.ndarray):
        logger.warn(f"{pre} was expecting a numpy array, actual type: {type(obs)}")


def _check_obs_parts(obs: Any, space: Any, pre: str, method: str) -> None:
    if _is(space, "Tuple"):
        if not isinstance(obs, tuple):
            logger.warn(f"{pre} was expecting a tuple, actual type: {type(obs)}")
        _require(
            hasattr(obs, "__len__") and len(obs) == len(space.spaces),
            f"{pre} length is not same as the observation space length, obs length: "
            f"{len(obs) if hasattr(obs, '__len__') else None}, space length: {len(space.spaces)}",
        )
        for sub_obs, sub_space in zip(obs, space.spaces, strict=True):
            check_obs(sub_obs, sub_space, method)
    elif _is(space, "Dict"):
        _require(isinstance(obs, dict), f"{pre} must be a dict, actual type: {type(obs)}")
        _require(
            obs.keys() == space.spaces.keys(),
            f"{pre} observation keys is not same as the observation space keys, obs keys: "
            f"{list(obs.keys())}, space keys: {list(space.spaces.keys())}",
        )
        for key, sub_space in space.spaces.items():
            check_obs(obs[key], sub_space, method)


def check_obs(obs: Any, space: spaces.Space[Any], method: str) -> None:
    """Warn when ``obs`` has the wrong type or lies outside ``space``.

    Raises:
        EnvCheckError: A Tuple/Dict observation has the wrong structure.
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
                f"The {what} returned by `{previous_source}` and the following `{source}` share "
                "an object, therefore, modifying one will modify the other. Environments should "
                f"return new {what[:-1]} data on every call "
                "as users commonly keep the data returned to them."
            )


_NO_DEFAULT = object()


def _reset_parameters(reset: Any) -> tuple[tuple[str, ...], Any] | None:
    """The parameter names of a plain function or method ``reset``, and ``seed``'s default.

    The same answer as ``inspect.signature(reset).parameters`` (names, and the default of
    ``seed``: ``_NO_DEFAULT`` when it has none or is absent), read straight from the code
    object, as inspect costs a first reset about 0.1 ms. ``None`` for anything inspect has to
    work out (builtins, partials, wrapped or annotated-signature callables).
    """
    function = reset.__func__ if type(reset) is types.MethodType else reset
    if (
        type(function) is not types.FunctionType
        or hasattr(function, "__wrapped__")
        or hasattr(function, "__signature__")
    ):
        return None
    code = function.__code__
    flags = code.co_flags
    count = code.co_argcount + code.co_kwonlyargcount
    count += bool(flags & inspect.CO_VARARGS) + bool(flags & inspect.CO_VARKEYWORDS)
    names = code.co_varnames[:count]
    if function is not reset:
        names = names[1:]  # the bound instance
    default: Any = _NO_DEFAULT
    keyword_defaults = function.__kwdefaults__ or {}
    if "seed" in keyword_defaults:
        default = keyword_defaults["seed"]
    elif "seed" in code.co_varnames[: code.co_argcount]:
        defaults = function.__defaults__ or ()
        at = code.co_varnames.index("seed") - (code.co_argcount - len(defaults))
        if at >= 0:
            default = defaults[at]
    return names, default


def env_reset_passive_checker(env: Any, **kwargs: Any) -> Any:
    """Check ``reset``'s signature and result, returning the result."""
    fast = _reset_parameters(env.reset)
    usual = fast is not None and "seed" in fast[0] and "options" in fast[0] and fast[1] is None
    if not usual:  # the usual signature draws no warning; any other is judged by inspect
        _check_reset_signature(env.reset)
    result = env.reset(**kwargs)
    if not isinstance(result, tuple):
        logger.warn(
            "The result returned by `env.reset()` was not a tuple of the form `(obs, info)`, where "
            "`obs` is a observation and `info` is a dictionary containing additional information. "
            f"Actual type: `{type(result)}`"
        )
    elif len(result) != 2:
        logger.warn(
            "The result returned by `env.reset()` should be `(obs, info)` by default, , where `obs` "
            "is a observation and `info` is a dictionary containing additional information."
        )
    else:
        obs, info = result
        check_obs(obs, env.observation_space, "reset")
        _require(
            isinstance(info, dict),
            f"The second element returned by `env.reset()` was not a dictionary, actual type: {type(info)}",
        )
    return result


def _check_reset_signature(reset: Any) -> None:
    """Gymnasium's warnings about a ``reset`` without ``seed``/``options`` or with a seed default."""
    params = inspect.signature(reset).parameters
    if "seed" not in params and "kwargs" not in params:
        logger.deprecation(
            "Current gymnasium version requires that `Env.reset` can be passed a `seed` instead of "
            "using `Env.seed` for resetting the environment random number generator."
        )
    else:
        seed_param = params.get("seed")
        if seed_param is not None and seed_param.default is not None:
            logger.warn(
                "The default seed argument in `Env.reset` should be `None`, otherwise the environment "
                f"will by default always be deterministic. Actual default: {seed_param}"
            )
    if "options" not in params and "kwargs" not in params:
        logger.deprecation(
            "Current gymnasium version requires that `Env.reset` can be passed `options` to allow "
            "the environment initialisation to be passed additional information."
        )


def _check_flag(name: str, flag: Any) -> None:
    if not isinstance(flag, (bool, np.bool_)):
        logger.warn(f"Expects `{name}` signal to be a boolean, actual type: {type(flag)}")


def env_step_passive_checker(env: Any, action: Any) -> Any:
    """Check ``step``'s result, returning it (a 4-tuple of the old API passes with a deprecation)."""
    result = env.step(action)
    _require(isinstance(result, tuple), f"Expects step result to be a tuple, actual type: {type(result)}")
    if len(result) == 4:
        logger.deprecation(
            "Core environment is written in old step API which returns one bool instead of two. "
            "It is recommended to rewrite the environment with new step API. "
        )
        obs, reward, done, info = result
        _check_flag("done", done)
    elif len(result) == 5:
        obs, reward, terminated, truncated, info = result
        _check_flag("terminated", terminated)
        _check_flag("truncated", truncated)
    else:
        raise violation(
            "Expected `Env.step` to return a four or five element tuple, actual number of "
            f"elements returned: {len(result)}.",
        )
    check_obs(obs, env.observation_space, "step")
    if not (np.issubdtype(type(reward), np.integer) or np.issubdtype(type(reward), np.floating)):
        logger.warn(
            "The reward returned by `step()` must be a float, int, np.integer or np.floating, "
            f"actual type: {type(reward)}"
        )
    else:
        if np.isnan(reward):
            logger.warn("The reward is a NaN value.")
        if np.isinf(reward):
            logger.warn("The reward is an inf value.")
    _require(
        isinstance(info, dict),
        f"The `info` returned by `step()` must be a python dictionary, actual type: {type(info)}",
    )
    return result


def _check_rgb(frame: Any) -> None:
    if not isinstance(frame, np.ndarray):
        logger.warn(f"RGB-array rendering should return a numpy array, got {type(frame)}")
        return
    if frame.dtype != np.uint8:
        logger.warn(f"RGB-array rendering should return a numpy array with dtype uint8, got {frame.dtype}")
    if frame.ndim != 3:
        logger.warn(f"RGB-array rendering should return a numpy array with three axes, got {frame.ndim}")
    elif frame.shape[2] != 3:
        logger.warn(
            "RGB-array rendering should return a numpy array in which the last axis has three "
            f"dimensions, got {frame.shape[2]}"
        )


def _check_render_return(mode: str, frame: Any) -> None:
    if mode == "human":
        if frame is not None:
            logger.warn(f"Human rendering should return `None`, got {type(frame)}")
    elif mode == "rgb_array":
        _check_rgb(frame)
    elif mode == "depth_array":
        if not isinstance(frame, np.ndarray):
            logger.warn(f"Depth-array rendering should return a numpy array, got {type(frame)}")
        elif frame.ndim != 2:
            logger.warn(f"Depth-array rendering should return a numpy array with two axes, got {frame.ndim}")
    elif mode in ("ansi", "ascii"):
        if not isinstance(frame, str):
            logger.warn(f"ANSI/ASCII rendering should produce a string, got {type(frame)}")
    elif mode.endswith("_list"):
        if not isinstance(frame, list):
            logger.warn(f"Render mode `{mode}` should produce a list, got {type(frame)}")
        else:
            for item in frame:
                _check_render_return(mode[: -len("_list")], item)


def _check_render_metadata(env: Any, modes: Any) -> None:
    if not isinstance(modes, (list, tuple)):
        logger.warn(
            f"Expects the render_modes to be a sequence (i.e. list, tuple), actual type: {type(modes)}"
        )
    elif not all(isinstance(m, str) for m in modes):
        logger.warn(f"Expects all render modes to be strings, actual types: {[type(m) for m in modes]}")
    fps = env.metadata.get("render_fps")
    if len(modes) > 0:  # an fps matters only where something renders
        if fps is None:
            logger.warn(
                "No render fps was declared in the environment (env.metadata['render_fps'] is None "
                "or not defined), rendering may occur at inconsistent fps."
            )
        elif not (np.issubdtype(type(fps), np.integer) or np.issubdtype(type(fps), np.floating)):
            logger.warn(
                f"Expects the `env.metadata['render_fps']` to be an integer or a float, actual type: {type(fps)}"
            )
        else:
            _require(
                fps > 0,
                f"Expects the `env.metadata['render_fps']` to be greater than zero, actual value: {fps}",
            )
    if len(modes) == 0:
        _require(
            env.render_mode is None,
            f"With no render_modes, expects the Env.render_mode to be None, actual value: {env.render_mode}",
        )
    else:
        _require(
            env.render_mode is None or env.render_mode in modes,
            "The environment was initialized successfully however with an unsupported render mode. "
            f"Render mode: {env.render_mode}, modes: {modes}",
        )


def env_render_passive_checker(env: Any) -> Any:
    """Check render metadata and the first frame, returning the frame."""
    modes = env.metadata.get("render_modes")
    if modes is None:
        logger.warn(
            "No render modes was declared in the environment (env.metadata['render_modes'] is None "
            "or not defined), you may have trouble when calling `.render()`."
        )
    else:
        _check_render_metadata(env, modes)
    frame = env.render()
    if env.render_mode is not None:
        _check_render_return(env.render_mode, frame)
    return frame
