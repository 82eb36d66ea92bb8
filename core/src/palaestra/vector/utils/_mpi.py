"""Starting worker processes inside an MPI job."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

__all__ = ["clear_mpi_env_vars"]

# Open MPI and the PMI process managers announce a rank through these variables.
_MPI_PREFIXES = ("OMPI_", "PMI_")


@contextlib.contextmanager
def clear_mpi_env_vars() -> Iterator[None]:
    """Hide the MPI launcher's environment variables for the duration of the block.

    A worker started under ``mpirun`` inherits them, and importing ``mpi4py`` there (it
    calls ``MPI_Init``) makes the worker join the job as another rank, which can hang it.
    ``AsyncVectorEnv`` starts its workers inside this block; the variables are restored on
    exit, also after an exception.
    """
    removed = {key: value for key, value in os.environ.items() if key.startswith(_MPI_PREFIXES)}
    for key in removed:
        del os.environ[key]
    try:
        yield
    finally:
        os.environ.update(removed)
