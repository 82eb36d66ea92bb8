"""Spaces: the sets that observations and actions live in."""

from palaestra.spaces._box import Box
from palaestra.spaces._dict import Dict
from palaestra.spaces._discrete import Discrete
from palaestra.spaces._graph import Graph, GraphInstance
from palaestra.spaces._multi_binary import MultiBinary
from palaestra.spaces._multi_discrete import MultiDiscrete
from palaestra.spaces._oneof import OneOf
from palaestra.spaces._sequence import Sequence
from palaestra.spaces._space import Space
from palaestra.spaces._text import Text
from palaestra.spaces._tuple import Tuple
from palaestra.spaces.utils import flatdim, flatten, flatten_space, unflatten

__all__ = [
    "Box",
    "Dict",
    "Discrete",
    "Graph",
    "GraphInstance",
    "MultiBinary",
    "MultiDiscrete",
    "OneOf",
    "Sequence",
    "Space",
    "Text",
    "Tuple",
    "flatdim",
    "flatten",
    "flatten_space",
    "unflatten",
]
