"""Wrappers for vector environments.

The conversion wrappers (``NumpyToTorch``, ``JaxToNumpy``, ``JaxToTorch``,
``ArrayConversion``) import torch or jax only when constructed.
"""

from palaestra.wrappers.vector._array_conversion import ArrayConversion, JaxToNumpy, JaxToTorch, NumpyToTorch
from palaestra.wrappers.vector._common import DictInfoToList, RecordEpisodeStatistics
from palaestra.wrappers.vector._rendering import HumanRendering, RecordVideo
from palaestra.wrappers.vector._stateful import NormalizeObservation, NormalizeReward
from palaestra.wrappers.vector._transforms import (
    ClipAction,
    ClipReward,
    DtypeObservation,
    FilterObservation,
    FlattenObservation,
    GrayscaleObservation,
    RescaleAction,
    RescaleObservation,
    ReshapeObservation,
    ResizeObservation,
    TransformAction,
    TransformObservation,
    TransformReward,
    VectorizeTransformAction,
    VectorizeTransformObservation,
    VectorizeTransformReward,
)

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
