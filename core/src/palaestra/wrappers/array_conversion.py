"""Converting observations, actions, rewards and infos between numpy, torch and jax.

torch and jax are imported only when a conversion to or from them runs; a missing
framework raises :class:`~palaestra.error.DependencyNotInstalled` with the install command.
Frameworks are named by their module (``numpy``, ``torch``, ``jax.numpy``) or name.
"""

from __future__ import annotations

import functools
import importlib
import numbers
from collections.abc import Mapping
from types import ModuleType
from typing import Any, SupportsFloat

import numpy as np

from palaestra._base._wrapper_spec import RecordConstructorArgs
from palaestra._env._core import Env, Wrapper
from palaestra.error import DependencyNotInstalled

__all__ = [
    "ArrayConversion",
    "JaxToNumpy",
    "JaxToTorch",
    "NumpyToTorch",
    "array_conversion",
    "jax_to_numpy",
    "jax_to_torch",
    "numpy_to_jax",
    "numpy_to_torch",
    "torch_to_jax",
    "torch_to_numpy",
]

FRAMEWORKS = ("numpy", "torch", "jax")
_INSTALL = {
    "torch": "pip install torch  (CPU-only: pip install torch --index-url <your CPU wheel index>)",
    "jax": 'pip install "palaestra[jax]"  (or: pip install jax)',
}


def framework_name(xp: ModuleType | str) -> str:
    """``"numpy"``, ``"torch"`` or ``"jax"`` for a module or name such as ``jax.numpy``."""
    name = xp if isinstance(xp, str) else getattr(xp, "__name__", repr(xp))
    root = name.removeprefix("array_api_compat.").split(".")[0]
    if root not in FRAMEWORKS:
        raise ValueError(f"Unsupported array framework {name!r}; expected one of {list(FRAMEWORKS)}")
    return root


@functools.cache
def _import(framework: str) -> Any:
    try:
        if framework == "jax":
            importlib.import_module("jax")
            return importlib.import_module("jax.numpy")
        return importlib.import_module(framework)
    except ImportError as e:
        raise DependencyNotInstalled(
            f"{framework} is needed for this conversion: {_INSTALL[framework]}"
        ) from e


def _is_torch(value: Any) -> bool:
    return type(value).__module__.startswith("torch")


def _to_numpy(value: Any) -> np.ndarray:
    if _is_torch(value):
        return value.detach().cpu().numpy()  # type: ignore[no-any-return]
    return np.asarray(value)


def _convert_leaf(value: Any, framework: str, device: Any) -> Any:
    """One array or scalar into ``framework`` (on ``device`` where the framework has devices)."""
    if framework == "numpy":
        return _to_numpy(value)
    if framework == "torch":
        torch = _import("torch")
        if isinstance(value, torch.Tensor):
            return value if device is None else value.to(device)
        if not isinstance(value, np.ndarray | np.generic | numbers.Number):
            value = _to_numpy(value)  # e.g. a jax array
        if isinstance(value, np.ndarray) and (not value.flags.writeable or any(s < 0 for s in value.strides)):
            value = value.copy()  # torch cannot view read-only memory or negative strides
        return torch.as_tensor(value, device=device)
    jnp = _import("jax")
    array = jnp.asarray(_to_numpy(value) if _is_torch(value) else value)
    if device is not None:
        import jax  # optional dependency: jax

        array = jax.device_put(array, device)
    return array


def _is_array(value: Any) -> bool:
    return isinstance(value, np.ndarray | np.generic) or hasattr(value, "__dlpack__")


def array_conversion(value: Any, xp: ModuleType | str, device: Any = None) -> Any:
    """Convert ``value`` into arrays of ``xp``, recursing through dicts, tuples and lists.

    Numbers become 0-d arrays; ``None`` and strings pass through unchanged; named tuples
    and mapping types are rebuilt as their own type.

    Raises:
        TypeError: ``value`` holds something that is not an array, number or container.
    """
    framework = framework_name(xp)
    return _convert(value, framework, device)


def _convert(value: Any, framework: str, device: Any) -> Any:
    if value is None or isinstance(value, str | bytes):
        return value
    if _is_array(value) or isinstance(value, numbers.Number):
        return _convert_leaf(value, framework, device)
    if isinstance(value, Mapping):
        return type(value)(**{k: _convert(v, framework, device) for k, v in value.items()})
    if isinstance(value, tuple) and hasattr(value, "_make"):
        return type(value)._make(_convert(v, framework, device) for v in value)
    if isinstance(value, tuple | list):
        return type(value)(_convert(v, framework, device) for v in value)
    raise TypeError(f"No known conversion of {type(value)} to {framework} arrays")


def numpy_to_torch(value: Any, device: Any = None) -> Any:
    """Numpy arrays (nested in containers) to torch tensors."""
    return _convert(value, "torch", device)


def torch_to_numpy(value: Any) -> Any:
    """Torch tensors (nested in containers) to numpy arrays."""
    return _convert(value, "numpy", None)


def numpy_to_jax(value: Any) -> Any:
    """Numpy arrays (nested in containers) to jax arrays."""
    return _convert(value, "jax", None)


def jax_to_numpy(value: Any) -> Any:
    """Jax arrays (nested in containers) to numpy arrays."""
    return _convert(value, "numpy", None)


def jax_to_torch(value: Any, device: Any = None) -> Any:
    """Jax arrays (nested in containers) to torch tensors."""
    return _convert(value, "torch", device)


def torch_to_jax(value: Any, device: Any = None) -> Any:
    """Torch tensors (nested in containers) to jax arrays."""
    return _convert(value, "jax", device)


class ConvertingWrapper:
    """Mixin of the single-env and vector conversion wrappers: framework set-up and reset."""

    env: Any

    def _setup_conversion(
        self, env_xp: ModuleType | str, target_xp: ModuleType | str, env_device: Any, target_device: Any
    ) -> None:
        self._env_xp = framework_name(env_xp)
        self._target_xp = framework_name(target_xp)
        RecordConstructorArgs.__init__(
            self,  # type: ignore[arg-type]
            _disable_deepcopy=True,
            env_xp=self._env_xp,
            target_xp=self._target_xp,
            env_device=env_device,
            target_device=target_device,
        )
        _import(self._env_xp)
        _import(self._target_xp)  # fail at construction, with the install hint
        self._env_device = env_device
        self._target_device = target_device

    def _to_env(self, value: Any) -> Any:
        return _convert(value, self._env_xp, self._env_device)

    def _to_agent(self, value: Any) -> Any:
        return _convert(value, self._target_xp, self._target_device)

    def reset(self, *, seed: Any = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Reset (options converted to the env's framework) and convert the results."""
        if options:
            options = self._to_env(options)
        obs, info = self.env.reset(seed=seed, options=options)
        return self._to_agent(obs), self._to_agent(info)


class ArrayConversion(ConvertingWrapper, Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Run an env written for one array framework from another.

    Actions (and reset options) are converted to ``env_xp``; observations, infos and
    render frames to ``target_xp``; rewards become ``float`` and flags ``bool``.

    Args:
        env: The env.
        env_xp: The env's framework (module or name).
        target_xp: The agent's framework.
        env_device: Device for the env's arrays (torch/jax only).
        target_device: Device for the agent's arrays.
    """

    snapshot_fields = ()  # conversion only

    def __init__(
        self,
        env: Env[Any, Any],
        env_xp: ModuleType | str,
        target_xp: ModuleType | str,
        env_device: Any = None,
        target_device: Any = None,
    ) -> None:
        Wrapper.__init__(self, env)
        self._setup_conversion(env_xp, target_xp, env_device, target_device)

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Convert the action, step, convert the results."""
        obs, reward, terminated, truncated, info = self.env.step(self._to_env(action))
        return self._to_agent(obs), float(reward), bool(terminated), bool(truncated), self._to_agent(info)

    def render(self) -> Any:
        """The env's frame(s) in the agent's framework."""
        return self._to_agent(self.env.render())


class NumpyToTorch(ArrayConversion):
    """Give a numpy env torch tensors in and out (``device`` for the tensors)."""

    def __init__(self, env: Env[Any, Any], device: Any = None) -> None:
        RecordConstructorArgs.__init__(self, device=device)
        super().__init__(env, env_xp="numpy", target_xp="torch", target_device=device)
        self.device = device


class JaxToNumpy(ArrayConversion):
    """Give a jax env numpy arrays in and out."""

    def __init__(self, env: Env[Any, Any]) -> None:
        RecordConstructorArgs.__init__(self)
        super().__init__(env, env_xp="jax", target_xp="numpy")


class JaxToTorch(ArrayConversion):
    """Give a jax env torch tensors in and out (``device`` for the tensors)."""

    def __init__(self, env: Env[Any, Any], device: Any = None) -> None:
        RecordConstructorArgs.__init__(self, device=device)
        super().__init__(env, env_xp="jax", target_xp="torch", target_device=device)
        self.device = device
