"""Timing helpers shared by the benchmarks: best-of-N wall-clock rates, printed as ratios."""

from __future__ import annotations

import compileall
import sysconfig
import time
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def compile_bytecode() -> None:
    """Compile the venv's and the checkout's modules, so timed processes do not time the compiler.

    This machine sets PYTHONDONTWRITEBYTECODE; whole-process timings run without it, after this.
    """
    folders = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], str(ROOT / "core" / "src")}
    folders |= {str(plugin) for plugin in (ROOT / "plugins").glob("*/src")}
    with warnings.catch_warnings():  # third-party sources' own SyntaxWarnings are not ours to print
        warnings.simplefilter("ignore")
        for folder in sorted(folders):
            compileall.compile_dir(folder, quiet=2)


def per_call(fn: Callable[[], object], number: int, repeat: int = 5) -> float:
    """Best seconds per call of ``fn`` over ``repeat`` runs of ``number`` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def per_call_pair(
    reference: Callable[[], object], ours: Callable[[], object], number: int, repeat: int = 7
) -> tuple[float, float]:
    """Best seconds per call of each function, their runs interleaved.

    Alternating the two keeps a slow spell of a shared VM from landing on one side only.
    """
    best = [float("inf"), float("inf")]
    for _ in range(repeat):
        for side, fn in enumerate((reference, ours)):
            start = time.perf_counter()
            for _ in range(number):
                fn()
            best[side] = min(best[side], (time.perf_counter() - start) / number)
    return best[0], best[1]


def report(label: str, reference: float, ours: float, unit: str = "us", goal: float | None = None) -> None:
    """Print reference vs palaestra time per call and the speed-up ratio."""
    ratio = reference / ours
    verdict = "" if goal is None else ("  ok" if ratio >= goal else f"  BELOW GOAL {goal:g}x")
    scale = 1e6 if unit == "us" else 1e3
    print(
        f"{label:44s} gymnasium {reference * scale:9.2f}{unit}  palaestra {ours * scale:9.2f}{unit}  "
        f"x{ratio:5.2f}{verdict}"
    )
