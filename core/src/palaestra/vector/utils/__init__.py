"""Utilities for batching spaces and elements across sub-environments."""

from palaestra.spaces._batching import batch_differing_spaces as batch_differing_spaces
from palaestra.spaces._batching import batch_space as batch_space
from palaestra.spaces._batching import concatenate as concatenate
from palaestra.spaces._batching import create_empty_array as create_empty_array
from palaestra.spaces._batching import iterate as iterate
from palaestra.vector.utils._mpi import clear_mpi_env_vars as clear_mpi_env_vars
from palaestra.vector.utils._pickling import CloudpickleWrapper as CloudpickleWrapper
from palaestra.vector.utils._shared_memory import create_shared_memory as create_shared_memory
from palaestra.vector.utils._shared_memory import read_from_shared_memory as read_from_shared_memory
from palaestra.vector.utils._shared_memory import write_to_shared_memory as write_to_shared_memory

__all__ = [
    "CloudpickleWrapper",
    "batch_differing_spaces",
    "batch_space",
    "clear_mpi_env_vars",
    "concatenate",
    "create_empty_array",
    "create_shared_memory",
    "iterate",
    "read_from_shared_memory",
    "write_to_shared_memory",
]
