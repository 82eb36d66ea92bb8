"""Utilities for environment authors: pickling helpers, seeding, checks."""

from palaestra.utils import seeding
from palaestra.utils._colorize import colorize
from palaestra.utils._ezpickle import EzPickle
from palaestra.utils._record_constructor import RecordConstructorArgs

__all__ = ["EzPickle", "RecordConstructorArgs", "colorize", "seeding"]
