"""The suite's optional C module (``_compiled``), or ``None`` where it was built without a compiler.

Each module that uses it (:mod:`._start_draws`, :mod:`._powers`, :mod:`._row_sums`,
:mod:`._locomotion` for the end of a batch step) binds its own name ``compiled`` from
here, so that a test can switch one seam to its plain Python specification without the
others.
"""

from __future__ import annotations

from typing import Any

__all__ = ["compiled"]

try:
    from palaestra_mujoco import _compiled
except ImportError:  # built without a C compiler: every seam does the same in Python
    _compiled = None  # type: ignore[assignment]
compiled: Any = _compiled
