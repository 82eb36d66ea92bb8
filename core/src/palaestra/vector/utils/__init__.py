"""Utilities for batching spaces and elements across sub-environments."""

from palaestra.vector.utils._mpi import clear_mpi_env_vars
from palaestra.vector.utils._pickling import CloudpickleWrapper
from palaestra.vector.utils._shared_memory import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)
from palaestra.vector.utils._space_utils import (
    batch_differing_spaces,
    batch_space,
    concatenate,
    create_empty_array,
    iterate,
)

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
