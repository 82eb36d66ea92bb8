"""Vectorised environments and their utilities."""

from palaestra.vector import utils

__all__ = ["utils"]
