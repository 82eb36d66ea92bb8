"""The environment and wrapper base classes under Gymnasium's module path (``gymnasium.core``).

``from gymnasium.core import Env, ObsType`` ports as ``from palaestra.core import Env, ObsType``.
"""

from palaestra._env._core import (
    ActionWrapper,
    ActType,
    Env,
    ObservationWrapper,
    ObsType,
    RenderFrame,
    RewardWrapper,
    Wrapper,
    WrapperActType,
    WrapperObsType,
)

__all__ = [
    "ActType",
    "ActionWrapper",
    "Env",
    "ObsType",
    "ObservationWrapper",
    "RenderFrame",
    "RewardWrapper",
    "Wrapper",
    "WrapperActType",
    "WrapperObsType",
]
