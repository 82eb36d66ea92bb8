"""Utilities for environment authors: pickling helpers, seeding, checks."""

from palaestra._base._ezpickle import EzPickle as EzPickle
from palaestra._base._wrapper_spec import RecordConstructorArgs as RecordConstructorArgs
from palaestra.logger import colorize as colorize
from palaestra.utils import seeding as seeding

__all__ = ["EzPickle", "RecordConstructorArgs", "colorize", "seeding"]
