"""Utilities for batching spaces and elements across sub-environments."""

from palaestra.vector.utils._space_utils import (
    batch_differing_spaces,
    batch_space,
    concatenate,
    create_empty_array,
    iterate,
)

__all__ = [
    "batch_differing_spaces",
    "batch_space",
    "concatenate",
    "create_empty_array",
    "iterate",
]
