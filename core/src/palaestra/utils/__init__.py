"""Utilities for environment authors: pickling helpers, seeding, checks."""

from palaestra._base._colorize import colorize as colorize
from palaestra._base._ezpickle import EzPickle as EzPickle
from palaestra._base._record_constructor import RecordConstructorArgs as RecordConstructorArgs
from palaestra.utils import seeding as seeding

__all__ = ["EzPickle", "RecordConstructorArgs", "colorize", "seeding"]
