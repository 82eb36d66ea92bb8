"""Spaces: the sets that observations and actions live in."""

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
