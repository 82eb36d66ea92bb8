"""Vector versions of the numpy/torch/jax conversion wrappers."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from palaestra._base._wrapper_spec import RecordConstructorArgs
from palaestra.vector import VectorEnv, VectorWrapper
from palaestra.wrappers.array_conversion import ConvertingWrapper

__all__ = ["ArrayConversion", "JaxToNumpy", "JaxToTorch", "NumpyToTorch"]


class ArrayConversion(ConvertingWrapper, VectorWrapper[Any, Any, Any], RecordConstructorArgs):
    """Run a vector env written for one array framework from another.

    Actions and reset options go to ``env_xp``; observations, rewards, flags and infos
    come back in ``target_xp``.
    """

    def __init__(
        self,
        env: VectorEnv[Any, Any, Any],
        env_xp: ModuleType | str,
        target_xp: ModuleType | str,
        env_device: Any = None,
        target_device: Any = None,
    ) -> None:
        VectorWrapper.__init__(self, env)
        self._setup_conversion(env_xp, target_xp, env_device, target_device)

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Convert the actions, step, convert everything returned."""
        results = self.env.step(self._to_env(actions))
        return tuple(self._to_agent(r) for r in results)


class NumpyToTorch(ArrayConversion):
    """Torch tensors in and out of a numpy vector env."""

    def __init__(self, env: VectorEnv[Any, Any, Any], device: Any = None) -> None:
        RecordConstructorArgs.__init__(self, device=device)
        super().__init__(env, env_xp="numpy", target_xp="torch", target_device=device)
        self.device = device


class JaxToNumpy(ArrayConversion):
    """numpy arrays in and out of a jax vector env."""

    def __init__(self, env: VectorEnv[Any, Any, Any]) -> None:
        RecordConstructorArgs.__init__(self)
        super().__init__(env, env_xp="jax", target_xp="numpy")


class JaxToTorch(ArrayConversion):
    """Torch tensors in and out of a jax vector env."""

    def __init__(self, env: VectorEnv[Any, Any, Any], device: Any = None) -> None:
        RecordConstructorArgs.__init__(self, device=device)
        super().__init__(env, env_xp="jax", target_xp="torch", target_device=device)
        self.device = device
