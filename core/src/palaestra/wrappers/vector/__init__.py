"""Wrappers for vector environments.

The conversion wrappers (``NumpyToTorch``, ``JaxToNumpy``, ``JaxToTorch``,
``ArrayConversion``) import torch or jax only when constructed.
"""

from palaestra.wrappers.vector._array_conversion import ArrayConversion as ArrayConversion
from palaestra.wrappers.vector._array_conversion import JaxToNumpy as JaxToNumpy
from palaestra.wrappers.vector._array_conversion import JaxToTorch as JaxToTorch
from palaestra.wrappers.vector._array_conversion import NumpyToTorch as NumpyToTorch
from palaestra.wrappers.vector._common import DictInfoToList as DictInfoToList
from palaestra.wrappers.vector._common import RecordEpisodeStatistics as RecordEpisodeStatistics
from palaestra.wrappers.vector._rendering import HumanRendering as HumanRendering
from palaestra.wrappers.vector._rendering import RecordVideo as RecordVideo
from palaestra.wrappers.vector._stateful import NormalizeObservation as NormalizeObservation
from palaestra.wrappers.vector._stateful import NormalizeReward as NormalizeReward
from palaestra.wrappers.vector._transforms import ClipAction as ClipAction
from palaestra.wrappers.vector._transforms import ClipReward as ClipReward
from palaestra.wrappers.vector._transforms import DtypeObservation as DtypeObservation
from palaestra.wrappers.vector._transforms import FilterObservation as FilterObservation
from palaestra.wrappers.vector._transforms import FlattenObservation as FlattenObservation
from palaestra.wrappers.vector._transforms import GrayscaleObservation as GrayscaleObservation
from palaestra.wrappers.vector._transforms import RescaleAction as RescaleAction
from palaestra.wrappers.vector._transforms import RescaleObservation as RescaleObservation
from palaestra.wrappers.vector._transforms import ReshapeObservation as ReshapeObservation
from palaestra.wrappers.vector._transforms import ResizeObservation as ResizeObservation
from palaestra.wrappers.vector._transforms import TransformAction as TransformAction
from palaestra.wrappers.vector._transforms import TransformObservation as TransformObservation
from palaestra.wrappers.vector._transforms import TransformReward as TransformReward
from palaestra.wrappers.vector._transforms import VectorizeTransformAction as VectorizeTransformAction
from palaestra.wrappers.vector._transforms import (
    VectorizeTransformObservation as VectorizeTransformObservation,
)
from palaestra.wrappers.vector._transforms import VectorizeTransformReward as VectorizeTransformReward

__all__ = [
    "ArrayConversion",
    "ClipAction",
    "ClipReward",
    "DictInfoToList",
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "GrayscaleObservation",
    "HumanRendering",
    "JaxToNumpy",
    "JaxToTorch",
    "NormalizeObservation",
    "NormalizeReward",
    "NumpyToTorch",
    "RecordEpisodeStatistics",
    "RecordVideo",
    "RescaleAction",
    "RescaleObservation",
    "ReshapeObservation",
    "ResizeObservation",
    "TransformAction",
    "TransformObservation",
    "TransformReward",
    "VectorizeTransformAction",
    "VectorizeTransformObservation",
    "VectorizeTransformReward",
]
