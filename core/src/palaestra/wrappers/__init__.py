"""Wrappers that change an environment's behaviour without touching its code.

Wrappers with heavy optional dependencies (torch, jax, opencv, video writers) import them
only when constructed; renamed Gymnasium 0.x wrappers raise an ``AttributeError`` naming
their replacement.
"""

from typing import Any

from palaestra.wrappers import utils
from palaestra.wrappers._actions import ClipAction as ClipAction
from palaestra.wrappers._actions import DiscretizeAction as DiscretizeAction
from palaestra.wrappers._actions import RepeatAction as RepeatAction
from palaestra.wrappers._actions import RescaleAction as RescaleAction
from palaestra.wrappers._actions import StickyAction as StickyAction
from palaestra.wrappers._actions import TransformAction as TransformAction
from palaestra.wrappers._atari import AtariPreprocessing as AtariPreprocessing
from palaestra.wrappers._common import Autoreset as Autoreset
from palaestra.wrappers._common import OrderEnforcing as OrderEnforcing
from palaestra.wrappers._common import PassiveEnvChecker as PassiveEnvChecker
from palaestra.wrappers._common import RecordEpisodeStatistics as RecordEpisodeStatistics
from palaestra.wrappers._common import TimeLimit as TimeLimit
from palaestra.wrappers._observations import AddRenderObservation as AddRenderObservation
from palaestra.wrappers._observations import DiscretizeObservation as DiscretizeObservation
from palaestra.wrappers._observations import DtypeObservation as DtypeObservation
from palaestra.wrappers._observations import FilterObservation as FilterObservation
from palaestra.wrappers._observations import FlattenObservation as FlattenObservation
from palaestra.wrappers._observations import GrayscaleObservation as GrayscaleObservation
from palaestra.wrappers._observations import RescaleObservation as RescaleObservation
from palaestra.wrappers._observations import ReshapeObservation as ReshapeObservation
from palaestra.wrappers._observations import ResizeObservation as ResizeObservation
from palaestra.wrappers._observations import TransformObservation as TransformObservation
from palaestra.wrappers._rendering import AddWhiteNoise as AddWhiteNoise
from palaestra.wrappers._rendering import HumanRendering as HumanRendering
from palaestra.wrappers._rendering import ObstructView as ObstructView
from palaestra.wrappers._rendering import RecordVideo as RecordVideo
from palaestra.wrappers._rendering import RenderCollection as RenderCollection
from palaestra.wrappers._rewards import ClipReward as ClipReward
from palaestra.wrappers._rewards import NormalizeReward as NormalizeReward
from palaestra.wrappers._rewards import TransformReward as TransformReward
from palaestra.wrappers._stateful_observations import DelayObservation as DelayObservation
from palaestra.wrappers._stateful_observations import FrameStackObservation as FrameStackObservation
from palaestra.wrappers._stateful_observations import MaxAndSkipObservation as MaxAndSkipObservation
from palaestra.wrappers._stateful_observations import NormalizeObservation as NormalizeObservation
from palaestra.wrappers._stateful_observations import TimeAwareObservation as TimeAwareObservation
from palaestra.wrappers.array_conversion import ArrayConversion as ArrayConversion
from palaestra.wrappers.array_conversion import JaxToNumpy as JaxToNumpy
from palaestra.wrappers.array_conversion import JaxToTorch as JaxToTorch
from palaestra.wrappers.array_conversion import NumpyToTorch as NumpyToTorch
from palaestra.wrappers.compatibility import EnvCompatibility as EnvCompatibility

__all__ = [
    "AddRenderObservation",
    "AddWhiteNoise",
    "ArrayConversion",
    "AtariPreprocessing",
    "Autoreset",
    "ClipAction",
    "ClipReward",
    "DelayObservation",
    "DiscretizeAction",
    "DiscretizeObservation",
    "DtypeObservation",
    "EnvCompatibility",
    "FilterObservation",
    "FlattenObservation",
    "FrameStackObservation",
    "GrayscaleObservation",
    "HumanRendering",
    "JaxToNumpy",
    "JaxToTorch",
    "MaxAndSkipObservation",
    "NormalizeObservation",
    "NormalizeReward",
    "NumpyToTorch",
    "ObstructView",
    "OrderEnforcing",
    "PassiveEnvChecker",
    "RecordEpisodeStatistics",
    "RecordVideo",
    "RenderCollection",
    "RepeatAction",
    "RescaleAction",
    "RescaleObservation",
    "ReshapeObservation",
    "ResizeObservation",
    "StickyAction",
    "TimeAwareObservation",
    "TimeLimit",
    "TransformAction",
    "TransformObservation",
    "TransformReward",
    "utils",
    "vector",
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
