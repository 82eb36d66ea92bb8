"""The ``palaestra`` command line: list, info, run."""

from palaestra.cli._main import main

__all__ = ["main"]
