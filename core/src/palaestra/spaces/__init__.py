"""Spaces: the sets that observations and actions live in.

Each space type's module is imported on first use, so an env made of a ``Box`` and a
``Discrete`` does not pay for the other eight.
"""

import importlib
import sys
from typing import TYPE_CHECKING, Any

from palaestra._base._lazy import load_export

if TYPE_CHECKING:
    from palaestra.spaces._box import Box as Box
    from palaestra.spaces._dict import Dict as Dict
    from palaestra.spaces._discrete import Discrete as Discrete
    from palaestra.spaces._graph import Graph as Graph
    from palaestra.spaces._graph import GraphInstance as GraphInstance
    from palaestra.spaces._multi_binary import MultiBinary as MultiBinary
    from palaestra.spaces._multi_discrete import MultiDiscrete as MultiDiscrete
    from palaestra.spaces._oneof import OneOf as OneOf
    from palaestra.spaces._sequence import Sequence as Sequence
    from palaestra.spaces._space import Space as Space
    from palaestra.spaces._text import Text as Text
    from palaestra.spaces._tuple import Tuple as Tuple
    from palaestra.spaces.utils import flatdim as flatdim
    from palaestra.spaces.utils import flatten as flatten
    from palaestra.spaces.utils import flatten_space as flatten_space
    from palaestra.spaces.utils import unflatten as unflatten


# Public name -> module defining it, resolved on first access (PEP 562). Written once: the
# imports above (for type checkers) are held to this table by tests/core/test_public_names.py.
_LAZY_NAMES = {
    "Box": "palaestra.spaces._box",
    "Dict": "palaestra.spaces._dict",
    "Discrete": "palaestra.spaces._discrete",
    "Graph": "palaestra.spaces._graph",
    "GraphInstance": "palaestra.spaces._graph",
    "MultiBinary": "palaestra.spaces._multi_binary",
    "MultiDiscrete": "palaestra.spaces._multi_discrete",
    "OneOf": "palaestra.spaces._oneof",
    "Sequence": "palaestra.spaces._sequence",
    "Space": "palaestra.spaces._space",
    "Text": "palaestra.spaces._text",
    "Tuple": "palaestra.spaces._tuple",
    "flatdim": "palaestra.spaces.utils",
    "flatten": "palaestra.spaces.utils",
    "flatten_space": "palaestra.spaces.utils",
    "unflatten": "palaestra.spaces.utils",
}
__all__ = list(_LAZY_NAMES)


# start-up: a first step uses two or three of the ten spaces; the rest and spaces.utils
# cost 4.2 ms (benchmarks/bench_lazy_seams.py).
def __getattr__(name: str) -> Any:
    if name in _LAZY_NAMES:
        return load_export(globals(), _LAZY_NAMES, name)
    if name == "utils":
        return importlib.import_module("palaestra.spaces.utils")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _imported(name: str) -> Any:
    """Class ``name`` if its module is imported already, else None.

    Nothing is an instance of a class whose module was never imported, so type tests run
    on every env (the passive checker's) ask this rather than importing all ten spaces.
    """
    module = sys.modules.get(_LAZY_NAMES[name])
    return None if module is None else getattr(module, name)


def __dir__() -> list[str]:
    return sorted(set(__all__) | set(globals()))
