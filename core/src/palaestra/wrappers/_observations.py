"""Observation wrappers that transform each observation on its own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from palaestra import spaces
from palaestra._base._wrapper_spec import RecordConstructorArgs
from palaestra._env._core import Env
from palaestra._env._wrapper_kinds import ObservationWrapper
from palaestra.error import DependencyNotInstalled
from palaestra.wrappers._bins import bin_grid
from palaestra.wrappers.utils import rescale_box

__all__ = [
    "AddRenderObservation",
    "DiscretizeObservation",
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "GrayscaleObservation",
    "ReshapeObservation",
    "RescaleObservation",
    "ResizeObservation",
    "TransformObservation",
]

_LUMA = np.array([0.2125, 0.7154, 0.0721])


class TransformObservation(ObservationWrapper[Any, Any, Any], RecordConstructorArgs):
    """Apply ``func`` to every observation.

    Args:
        env: The env.
        func: Maps an observation to the new observation.
        observation_space: The new observation space (the env's when ``None``).
    """

    def __init__(
        self, env: Env[Any, Any], func: Callable[[Any], Any], observation_space: spaces.Space[Any] | None
    ) -> None:
        RecordConstructorArgs.__init__(self, func=func, observation_space=observation_space)
        ObservationWrapper.__init__(self, env)
        if observation_space is not None:
            self.observation_space = observation_space
        self.func = func

    def observation(self, observation: Any) -> Any:
        """``func(observation)``."""
        return self.func(observation)


def _require_box(env: Env[Any, Any], name: str) -> spaces.Box:
    if not isinstance(env.observation_space, spaces.Box):
        raise TypeError(f"{name} requires a Box observation space, got {type(env.observation_space)}")
    return env.observation_space


def _filter_dict(space: spaces.Dict, keys: Sequence[Any]) -> tuple[spaces.Space[Any], Callable[[Any], Any]]:
    if not all(isinstance(key, str) for key in keys):
        raise TypeError(f"All filter keys must be strings for a Dict space, got {keys}")
    missing = [key for key in keys if key not in space.spaces]
    if missing:
        raise ValueError(
            f"All the `filter_keys` must be included in the observation space.\nFilter keys: {keys}\n"
            f"Observation keys: {list(space.spaces)}\nMissing keys: {missing}"
        )
    new_space = spaces.Dict({key: space[key] for key in keys}, sort_keys=space.sort_keys)
    if len(new_space) == 0:
        raise ValueError("The observation space is empty due to filtering all of the keys.")
    return new_space, lambda obs: {key: obs[key] for key in keys}


def _filter_tuple(space: spaces.Tuple, keys: Sequence[Any]) -> tuple[spaces.Space[Any], Callable[[Any], Any]]:
    if not all(isinstance(key, int) for key in keys):
        raise TypeError(f"All filter keys must be integers for a Tuple space, got {keys}")
    if len(set(keys)) != len(keys):
        raise ValueError(f"Duplicate keys exist, filter_keys: {keys}")
    missing = [key for key in keys if key > 0 and key >= len(space)]
    if missing:
        raise ValueError(
            f"All the `filter_keys` must be included in the length of the observation space.\nFilter keys: {keys}, "
            f"length of observation: {len(space)}, missing indexes: {missing}"
        )
    new_space = spaces.Tuple(space[key] for key in keys)
    if len(new_space) == 0:
        raise ValueError("The observation space is empty due to filtering all keys.")
    return new_space, lambda obs: tuple(obs[key] for key in keys)


class FilterObservation(TransformObservation, RecordConstructorArgs):
    """Keep only some keys of a Dict (or indices of a Tuple) observation.

    Args:
        env: An env with a Dict or Tuple observation space.
        filter_keys: The keys (strings) or indices (ints) to keep, in order.
    """

    def __init__(self, env: Env[Any, Any], filter_keys: Sequence[str | int]) -> None:
        if not isinstance(filter_keys, Sequence):
            raise TypeError(f"Expects `filter_keys` to be a Sequence, actual type: {type(filter_keys)}")
        RecordConstructorArgs.__init__(self, filter_keys=filter_keys)
        space = env.observation_space
        if isinstance(space, spaces.Dict):
            new_space, func = _filter_dict(space, filter_keys)
        elif isinstance(space, spaces.Tuple):
            new_space, func = _filter_tuple(space, filter_keys)
        else:
            raise ValueError(
                f"FilterObservation wrapper is only usable with `Dict` and `Tuple` observations, actual type: {type(space)}"
            )
        TransformObservation.__init__(self, env=env, func=func, observation_space=new_space)
        self.filter_keys = filter_keys


class FlattenObservation(TransformObservation, RecordConstructorArgs):
    """Flatten observations with :func:`palaestra.spaces.utils.flatten`."""

    def __init__(self, env: Env[Any, Any]) -> None:
        RecordConstructorArgs.__init__(self)
        space = env.observation_space
        TransformObservation.__init__(
            self,
            env=env,
            func=lambda obs: spaces.utils.flatten(space, obs),
            observation_space=spaces.utils.flatten_space(space),
        )


class GrayscaleObservation(TransformObservation, RecordConstructorArgs):
    """Convert RGB uint8 images to luminance.

    Args:
        env: An env with ``Box(0, 255, (H, W, 3), uint8)`` observations.
        keep_dim: Keep a trailing channel axis of size 1.
    """

    def __init__(self, env: Env[Any, Any], keep_dim: bool = False) -> None:
        space = _require_box(env, "GrayscaleObservation")
        if len(space.shape) != 3 or space.shape[-1] != 3:
            raise ValueError(
                f"GrayscaleObservation requires an image with 3 channels, got shape {space.shape}"
            )
        if not (np.all(space.low == 0) and np.all(space.high == 255) and space.dtype == np.uint8):
            raise ValueError("GrayscaleObservation requires observation bounds 0 to 255 and dtype uint8")
        RecordConstructorArgs.__init__(self, keep_dim=keep_dim)
        self.keep_dim = keep_dim
        shape = space.shape[:2] + ((1,) if keep_dim else ())

        def gray(obs: Any) -> np.ndarray:
            result = np.sum(np.multiply(obs, _LUMA), axis=-1).astype(np.uint8)
            return np.expand_dims(result, axis=-1) if keep_dim else result

        TransformObservation.__init__(
            self, env=env, func=gray, observation_space=spaces.Box(0, 255, shape=shape, dtype=np.uint8)
        )


def _check_resize(space: spaces.Box, shape: Any) -> None:
    if len(space.shape) not in {2, 3}:
        raise ValueError(f"ResizeObservation requires a 2D or 3D image, got shape {space.shape}")
    if not (np.all(space.low == 0) and np.all(space.high == 255)):
        raise ValueError("ResizeObservation requires observation bounds 0 to 255")
    if space.dtype != np.uint8:
        raise ValueError(f"ResizeObservation requires observation dtype uint8, got {space.dtype}")
    if not isinstance(shape, tuple):
        raise TypeError(f"ResizeObservation requires shape to be a tuple, got {type(shape)}")
    if len(shape) != 2:
        raise ValueError(f"ResizeObservation requires shape tuple of length 2, got {shape}")
    if not all(np.issubdtype(type(x), np.integer) for x in shape):
        raise TypeError(f"ResizeObservation requires shape elements to be integers, got {shape}")
    if not all(x > 0 for x in shape):
        raise ValueError(f"ResizeObservation requires shape elements to be greater than 0, got {shape}")


def import_cv2() -> Any:
    """Import OpenCV, or raise a typed error with the install command."""
    try:
        # optional dependency: OpenCV
        import cv2  # type: ignore[import-not-found,unused-ignore]
    except ImportError as e:
        raise DependencyNotInstalled(
            "opencv (cv2) is not installed; it is needed by ResizeObservation and AtariPreprocessing: "
            'pip install "palaestra[opencv]"  (or: pip install opencv-python-headless)'
        ) from e
    return cv2


class ResizeObservation(TransformObservation, RecordConstructorArgs):
    """Resize uint8 images to ``shape`` (height, width) with OpenCV's area interpolation.

    Args:
        env: An env with uint8 image observations in ``[0, 255]``.
        shape: ``(height, width)``.
    """

    def __init__(self, env: Env[Any, Any], shape: tuple[int, int]) -> None:
        space = _require_box(env, "ResizeObservation")
        _check_resize(space, shape)
        cv2 = import_cv2()
        self.shape = tuple(shape)
        self.cv2_shape = (shape[1], shape[0])
        new_space = spaces.Box(low=0, high=255, shape=self.shape + space.shape[2:], dtype=np.uint8)
        RecordConstructorArgs.__init__(self, shape=shape)
        TransformObservation.__init__(
            self,
            env=env,
            func=lambda obs: cv2.resize(obs, self.cv2_shape, interpolation=cv2.INTER_AREA).reshape(
                new_space.shape
            ),
            observation_space=new_space,
        )


class ReshapeObservation(TransformObservation, RecordConstructorArgs):
    """Reshape Box observations (``-1`` may stand for one dimension).

    Args:
        env: An env with a Box observation space.
        shape: The new shape (same number of elements).
    """

    def __init__(self, env: Env[Any, Any], shape: int | tuple[int, ...]) -> None:
        space = _require_box(env, "ReshapeObservation")
        if np.prod(shape) != np.prod(space.shape):
            raise ValueError(
                "ReshapeObservation requires the product of the new shape to match the original shape"
            )
        if not isinstance(shape, tuple):
            raise TypeError(f"ReshapeObservation requires shape to be a tuple, got {type(shape)}")
        if not all(np.issubdtype(type(x), np.integer) for x in shape):
            raise TypeError(f"ReshapeObservation requires shape elements to be integers, got {shape}")
        if not all(x > 0 or x == -1 for x in shape):
            raise ValueError(
                f"ReshapeObservation requires shape elements to be greater than 0 or -1, got {shape}"
            )
        new_space = spaces.Box(
            low=np.reshape(np.ravel(space.low), shape),
            high=np.reshape(np.ravel(space.high), shape),
            shape=shape,
            dtype=space.dtype,
        )
        self.shape = shape
        RecordConstructorArgs.__init__(self, shape=shape)
        TransformObservation.__init__(
            self, env=env, func=lambda obs: np.reshape(obs, shape), observation_space=new_space
        )


class RescaleObservation(TransformObservation, RecordConstructorArgs):
    """Map Box observations affinely onto ``[min_obs, max_obs]``."""

    def __init__(self, env: Env[Any, Any], min_obs: Any, max_obs: Any) -> None:
        space = _require_box(env, "RescaleObservation")
        RecordConstructorArgs.__init__(self, min_obs=min_obs, max_obs=max_obs)
        new_space, func, _ = rescale_box(space, min_obs, max_obs)
        TransformObservation.__init__(self, env=env, func=func, observation_space=new_space)


def _dtype_space(space: spaces.Space[Any], dtype: Any) -> spaces.Space[Any]:
    if isinstance(space, spaces.Box):
        return spaces.Box(low=space.low, high=space.high, shape=space.shape, dtype=dtype)
    if isinstance(space, spaces.Discrete):
        return spaces.Box(low=space.start, high=space.start + space.n - 1, shape=(), dtype=dtype)
    if isinstance(space, spaces.MultiDiscrete):
        return spaces.MultiDiscrete(space.nvec, dtype=dtype, start=space.start)
    if isinstance(space, spaces.MultiBinary):
        return spaces.Box(low=0, high=1, shape=space.shape, dtype=dtype)
    raise TypeError(
        f"DtypeObservation requires a Box, Discrete, MultiDiscrete, or MultiBinary space, got {type(space)}"
    )


class DtypeObservation(TransformObservation, RecordConstructorArgs):
    """Cast observations to ``dtype`` (Discrete and MultiBinary become Boxes)."""

    def __init__(self, env: Env[Any, Any], dtype: Any) -> None:
        new_space = _dtype_space(env.observation_space, dtype)
        self.dtype = dtype
        RecordConstructorArgs.__init__(self, dtype=dtype)
        assert new_space.dtype is not None
        cast = new_space.dtype.type
        TransformObservation.__init__(self, env=env, func=lambda obs: cast(obs), observation_space=new_space)


class AddRenderObservation(TransformObservation, RecordConstructorArgs):
    """Put the rendered frame into the observation (alone, or next to the state).

    Args:
        env: An env with an array render mode (not ``None`` or ``"human"``).
        render_only: Replace the observation by the frame.
        render_key: Key of the frame in a Dict observation.
        obs_key: Key of the original observation when it is not already a Dict.
    """

    def __init__(
        self, env: Env[Any, Any], render_only: bool = True, render_key: str = "pixels", obs_key: str = "state"
    ) -> None:
        RecordConstructorArgs.__init__(self, render_only=render_only, render_key=render_key, obs_key=obs_key)
        if env.render_mode in (None, "human"):
            raise ValueError(
                "AddRenderObservation requires render_mode to be not None and not 'human', got "
                f"{env.render_mode}: it observes rendered arrays. Make the env with render_mode='rgb_array'."
            )
        env.reset()  # one frame tells the shape of every frame
        frame = env.render()
        if not isinstance(frame, np.ndarray):
            raise TypeError(
                f"AddRenderObservation expects env.render() to return a numpy array, got {type(frame)} "
                f"(from {env}, render_mode={env.render_mode!r})"
            )
        pixel_space = spaces.Box(low=0, high=255, shape=frame.shape, dtype=np.uint8)
        space = env.observation_space
        if render_only:
            new_space: spaces.Space[Any] = pixel_space
            func: Callable[[Any], Any] = lambda _: self.render()  # noqa: E731
        elif isinstance(space, spaces.Dict):
            if render_key in space.spaces:
                raise ValueError(
                    f"AddRenderObservation render_key '{render_key}' already exists in the observation space"
                )
            new_space = spaces.Dict({render_key: pixel_space, **space.spaces}, sort_keys=space.sort_keys)
            func = lambda obs: {render_key: self.render(), **obs}  # noqa: E731
        else:
            new_space = spaces.Dict({obs_key: space, render_key: pixel_space})
            func = lambda obs: {obs_key: obs, render_key: self.render()}  # noqa: E731
        TransformObservation.__init__(self, env=env, func=func, observation_space=new_space)


class DiscretizeObservation(ObservationWrapper[Any, Any, Any], RecordConstructorArgs):
    """Map bounded Box observations to bin indices (one ``Discrete`` index or a ``MultiDiscrete``).

    Args:
        env: An env with a finite Box observation space.
        bins: Bins per dimension (one int for all, or one per dimension).
        multidiscrete: Return one index per dimension instead of one flat index.
    """

    def __init__(self, env: Env[Any, Any], bins: int | tuple[int, ...], multidiscrete: bool = False) -> None:
        space = _require_box(env, "DiscretizeObservation")
        self.low, self.high, self.bins = bin_grid(space, bins, "observation")
        self.n_dims = int(self.low.size)
        self.multidiscrete = multidiscrete
        RecordConstructorArgs.__init__(self, bins=bins, multidiscrete=multidiscrete)
        ObservationWrapper.__init__(self, env)
        self.bin_edges = [
            np.linspace(self.low[i], self.high[i], self.bins[i] + 1)[1:-1] for i in range(self.n_dims)
        ]
        self.observation_space = (
            spaces.MultiDiscrete(self.bins) if multidiscrete else spaces.Discrete(np.prod(self.bins))
        )

    def observation(self, observation: Any) -> Any:
        """The bin index (or indices) of ``observation``."""
        clipped = np.clip(np.ravel(observation), self.low, self.high - 1e-8)
        indices = [int(np.digitize(clipped[i], self.bin_edges[i])) for i in range(self.n_dims)]
        if self.multidiscrete:
            return np.array(indices, dtype=np.int64)
        flat = 0
        for i in range(self.n_dims):
            flat = flat * self.bins[i] + indices[i]
        return int(flat)

    def revert_observation(self, obs: Any) -> tuple[np.ndarray, np.ndarray]:
        """The lower and upper edges of the bin(s) ``obs`` names."""
        indices = np.asarray(obs, dtype=int) if self.multidiscrete else self._unflatten_index(obs)
        lows, highs = [], []
        for i, idx in enumerate(indices):
            edges = np.linspace(self.low[i], self.high[i], self.bins[i] + 1)
            lows.append(edges[idx])
            highs.append(edges[idx + 1])
        dtype = self.env.observation_space.dtype
        return np.array(lows, dtype=dtype), np.array(highs, dtype=dtype)

    def _unflatten_index(self, flat_index: Any) -> list[Any]:
        indices: list[Any] = []
        for b in reversed(self.bins):
            indices.insert(0, flat_index % b)
            flat_index //= b
        return indices
