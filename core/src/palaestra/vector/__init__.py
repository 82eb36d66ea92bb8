"""Vectorised environments: several sub-environments stepped as one batch."""

from palaestra._snapshot import VectorSnapshot
from palaestra.vector import utils
from palaestra.vector._async import AsyncVectorEnv
from palaestra.vector._batched import BatchedVectorEnv
from palaestra.vector._sync import SyncVectorEnv
from palaestra.vector._vector_env import (
    AutoresetMode,
    VectorActionWrapper,
    VectorEnv,
    VectorObservationWrapper,
    VectorRewardWrapper,
    VectorWrapper,
)
from palaestra.vector._worker import async_worker

__all__ = [
    "AsyncVectorEnv",
    "AutoresetMode",
    "BatchedVectorEnv",
    "SyncVectorEnv",
    "VectorActionWrapper",
    "VectorEnv",
    "VectorObservationWrapper",
    "VectorRewardWrapper",
    "VectorSnapshot",
    "VectorWrapper",
    "async_worker",
    "utils",
]
