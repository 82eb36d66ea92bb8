"""Vectorised environments: several sub-environments stepped as one batch."""

from palaestra._env._snapshot import VectorSnapshot as VectorSnapshot
from palaestra.vector import utils as utils
from palaestra.vector._async import AsyncVectorEnv as AsyncVectorEnv
from palaestra.vector._batched import BatchedVectorEnv as BatchedVectorEnv
from palaestra.vector._sync import SyncVectorEnv as SyncVectorEnv
from palaestra.vector._vector_env import AutoresetMode as AutoresetMode
from palaestra.vector._vector_env import VectorActionWrapper as VectorActionWrapper
from palaestra.vector._vector_env import VectorEnv as VectorEnv
from palaestra.vector._vector_env import VectorObservationWrapper as VectorObservationWrapper
from palaestra.vector._vector_env import VectorRewardWrapper as VectorRewardWrapper
from palaestra.vector._vector_env import VectorWrapper as VectorWrapper
from palaestra.vector._worker import async_worker as async_worker

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
