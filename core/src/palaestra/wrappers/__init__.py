"""Wrappers that change an environment's behaviour without touching its code.

Wrappers with heavy optional dependencies (torch, jax, opencv, video writers) import them
only when constructed; renamed Gymnasium 0.x wrappers raise an ``AttributeError`` naming
their replacement.
"""

from typing import Any

from palaestra.wrappers import utils
from palaestra.wrappers._actions import (
    ClipAction,
    DiscretizeAction,
    RepeatAction,
    RescaleAction,
    StickyAction,
    TransformAction,
)
from palaestra.wrappers._atari import AtariPreprocessing
from palaestra.wrappers._common import (
    Autoreset,
    OrderEnforcing,
    PassiveEnvChecker,
    RecordEpisodeStatistics,
    TimeLimit,
)
from palaestra.wrappers._observations import (
    AddRenderObservation,
    DiscretizeObservation,
    DtypeObservation,
    FilterObservation,
    FlattenObservation,
    GrayscaleObservation,
    RescaleObservation,
    ReshapeObservation,
    ResizeObservation,
    TransformObservation,
)
from palaestra.wrappers._rendering import (
    AddWhiteNoise,
    HumanRendering,
    ObstructView,
    RecordVideo,
    RenderCollection,
)
from palaestra.wrappers._rewards import ClipReward, NormalizeReward, TransformReward
from palaestra.wrappers._stateful_observations import (
    DelayObservation,
    FrameStackObservation,
    MaxAndSkipObservation,
    NormalizeObservation,
    TimeAwareObservation,
)
from palaestra.wrappers.array_conversion import ArrayConversion, JaxToNumpy, JaxToTorch, NumpyToTorch
from palaestra.wrappers.compatibility import EnvCompatibility

__all__ = [
    "AtariPreprocessing",
    "EnvCompatibility",
    "ArrayConversion",
    "JaxToNumpy",
    "JaxToTorch",
    "NumpyToTorch",
    "vector",
    "RecordVideo",
    "ObstructView",
    "HumanRendering",
    "AddWhiteNoise",
    "AddRenderObservation",
    "Autoreset",
    "ClipAction",
    "ClipReward",
    "DelayObservation",
    "DiscretizeAction",
    "DiscretizeObservation",
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "FrameStackObservation",
    "GrayscaleObservation",
    "MaxAndSkipObservation",
    "NormalizeObservation",
    "NormalizeReward",
    "OrderEnforcing",
    "PassiveEnvChecker",
    "RecordEpisodeStatistics",
    "RenderCollection",
    "RepeatAction",
    "ReshapeObservation",
    "RescaleAction",
    "RescaleObservation",
    "ResizeObservation",
    "StickyAction",
    "TimeAwareObservation",
    "TimeLimit",
    "TransformAction",
    "TransformObservation",
    "TransformReward",
    "utils",
]

# Gymnasium 0.x names and what replaced them.
_RENAMED = {
    "FrameStack": "FrameStackObservation",
    "PixelObservationWrapper": "AddRenderObservation",
    "ResizeObservationV0": "ResizeObservation",
    "AutoResetWrapper": "Autoreset",
    "ClipRewardV0": "ClipReward",
    "TimeAwareObservationV0": "TimeAwareObservation",
    "GrayScaleObservation": "GrayscaleObservation",
    "RecordEpisodeStatisticsV0": "RecordEpisodeStatistics",
    "StepAPICompatibility": "palaestra.wrappers.EnvCompatibility (for Gym 0.21-API envs)",
    "VectorListInfo": "palaestra.wrappers.vector.DictInfoToList",
}


def __getattr__(name: str) -> Any:
    if name == "vector":  # imported on first use: it pulls in palaestra.vector
        import importlib

        return importlib.import_module("palaestra.wrappers.vector")
    if name in _RENAMED:
        raise AttributeError(
            f"palaestra.wrappers.{name} was renamed or removed (as in Gymnasium 1.0); use {_RENAMED[name]} instead."
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
