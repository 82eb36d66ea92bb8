"""The ``palaestra`` command line: list, info, run, check, bench, play."""

from palaestra.cli._main import main

__all__ = ["main"]
