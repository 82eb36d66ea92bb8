"""Wrappers that change an environment's behaviour without touching its code.

Each wrapper's module is imported when the wrapper is first used (``make`` imports only the
wrappers it applies). Wrappers with heavy optional dependencies (torch, jax, opencv, video
writers) import them only when constructed; renamed Gymnasium 0.x wrappers raise an
``AttributeError`` naming their replacement.
"""

import importlib
from typing import TYPE_CHECKING, Any

from palaestra._base._lazy import load_export

if TYPE_CHECKING:
    from palaestra.wrappers import utils as utils
    from palaestra.wrappers import vector as vector
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


# Public name -> module defining it, resolved on first access (PEP 562). Written once: the
# imports above (for type checkers) are held to this table by tests/core/test_public_names.py.
_LAZY_NAMES = {
    "ClipAction": "palaestra.wrappers._actions",
    "DiscretizeAction": "palaestra.wrappers._actions",
    "RepeatAction": "palaestra.wrappers._actions",
    "RescaleAction": "palaestra.wrappers._actions",
    "StickyAction": "palaestra.wrappers._actions",
    "TransformAction": "palaestra.wrappers._actions",
    "AtariPreprocessing": "palaestra.wrappers._atari",
    "Autoreset": "palaestra.wrappers._common",
    "OrderEnforcing": "palaestra.wrappers._common",
    "PassiveEnvChecker": "palaestra.wrappers._common",
    "RecordEpisodeStatistics": "palaestra.wrappers._common",
    "TimeLimit": "palaestra.wrappers._common",
    "AddRenderObservation": "palaestra.wrappers._observations",
    "DiscretizeObservation": "palaestra.wrappers._observations",
    "DtypeObservation": "palaestra.wrappers._observations",
    "FilterObservation": "palaestra.wrappers._observations",
    "FlattenObservation": "palaestra.wrappers._observations",
    "GrayscaleObservation": "palaestra.wrappers._observations",
    "RescaleObservation": "palaestra.wrappers._observations",
    "ReshapeObservation": "palaestra.wrappers._observations",
    "ResizeObservation": "palaestra.wrappers._observations",
    "TransformObservation": "palaestra.wrappers._observations",
    "AddWhiteNoise": "palaestra.wrappers._rendering",
    "HumanRendering": "palaestra.wrappers._rendering",
    "ObstructView": "palaestra.wrappers._rendering",
    "RecordVideo": "palaestra.wrappers._rendering",
    "RenderCollection": "palaestra.wrappers._rendering",
    "ClipReward": "palaestra.wrappers._rewards",
    "NormalizeReward": "palaestra.wrappers._rewards",
    "TransformReward": "palaestra.wrappers._rewards",
    "DelayObservation": "palaestra.wrappers._stateful_observations",
    "FrameStackObservation": "palaestra.wrappers._stateful_observations",
    "MaxAndSkipObservation": "palaestra.wrappers._stateful_observations",
    "NormalizeObservation": "palaestra.wrappers._stateful_observations",
    "TimeAwareObservation": "palaestra.wrappers._stateful_observations",
    "ArrayConversion": "palaestra.wrappers.array_conversion",
    "JaxToNumpy": "palaestra.wrappers.array_conversion",
    "JaxToTorch": "palaestra.wrappers.array_conversion",
    "NumpyToTorch": "palaestra.wrappers.array_conversion",
    "EnvCompatibility": "palaestra.wrappers.compatibility",
}
_SUBMODULES = ("utils", "vector")
__all__ = [*_LAZY_NAMES, *_SUBMODULES]

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


# start-up: make applies two or three wrappers; the whole package costs 68 ms
# (benchmarks/bench_lazy_seams.py).
def __getattr__(name: str) -> Any:
    if name in _LAZY_NAMES:
        return load_export(globals(), _LAZY_NAMES, name)
    if name in _SUBMODULES:  # vector pulls in palaestra.vector
        return importlib.import_module(f"palaestra.wrappers.{name}")
    if name in _RENAMED:
        raise AttributeError(
            f"palaestra.wrappers.{name} was renamed or removed (as in Gymnasium 1.0); use {_RENAMED[name]} instead."
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(__all__) | set(globals()))
