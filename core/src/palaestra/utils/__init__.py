"""Utilities for environment authors: pickling helpers, seeding, checks."""

from palaestra.utils import seeding as seeding
from palaestra.utils._colorize import colorize as colorize
from palaestra.utils._ezpickle import EzPickle as EzPickle
from palaestra.utils._record_constructor import RecordConstructorArgs as RecordConstructorArgs

__all__ = ["EzPickle", "RecordConstructorArgs", "colorize", "seeding"]
