"""Refuse to start spawned workers from a script's unguarded top-level code.

The ``spawn`` and ``forkserver`` start methods import the main script again in every worker
process. A script that makes a vector env in its top-level code, outside an
``if __name__ == "__main__":`` block, would make it again in each worker; multiprocessing
then stops each worker with a RuntimeError, which the parent sees only as dead workers.
This check finds the script's top-level frame on the call stack and, when that line lies
outside a main guard, names the script, the line and the fix before any worker starts.
"""

from __future__ import annotations

import ast
import contextlib
import os
import sys
from collections.abc import Iterator
from types import FrameType

from palaestra import error

__all__ = ["check_main_guard", "main_script_hidden"]

_FIX = (
    "put the script's top-level code under a main guard:\n\n"
    '    if __name__ == "__main__":\n'
    "        main()  # the code that makes and steps the envs\n\n"
    "or start the workers by forking (Linux, no JAX or other threads imported): "
    "vector_kwargs={'context': 'fork'}"
)


def check_main_guard(start_method: str, who: str) -> None:
    """Raise :class:`palaestra.error.UnguardedMainError` for an unguarded top-level call.

    Args:
        start_method: The multiprocessing start method the workers will use.
        who: What starts the workers, for the message (``"AsyncVectorEnv"``).
    """
    if start_method == "fork":
        return
    main = sys.modules.get("__main__")
    script = getattr(main, "__file__", None)
    if main is None or not isinstance(script, str):
        return  # an interactive session or `python -c`: nothing is imported again
    frame = _top_level_frame(vars(main))
    if frame is None:
        return
    line = frame.f_lineno
    try:
        with open(script, encoding="utf-8") as source:
            tree = ast.parse(source.read(), script)
    except (OSError, SyntaxError, ValueError):
        return  # cannot read the script: let multiprocessing speak for itself
    if any(_is_main_guard(node) and node.lineno <= line <= (node.end_lineno or line) for node in tree.body):
        return
    raise error.UnguardedMainError(
        f"{who} starts its workers with the {start_method!r} start method, which runs your script "
        f"({script}) again in every worker, and line {line} runs at import, outside a main guard: each "
        f"worker would start workers of its own. To fix it, " + _FIX,
        script=script,
        line=line,
    )


@contextlib.contextmanager
def main_script_hidden() -> Iterator[None]:
    """Start worker processes as if ``__main__`` had no file when its ``__file__`` names none.

    ``python - < script.py`` sets ``__main__.__file__`` to ``"<stdin>"`` (``-c`` and notebooks
    leave it unset): ``spawn`` and ``forkserver`` then try to run ``<cwd>/<stdin>`` again in
    every worker (and in the fork server) and die with ``FileNotFoundError``. Nothing could be
    imported from such a script anyway, so workers start as they do from an interactive
    session, with the script's ``__file__`` restored afterwards.
    """
    main = sys.modules.get("__main__")
    script = getattr(main, "__file__", None)
    if main is None or not isinstance(script, str) or os.path.isfile(script):
        yield
        return
    del main.__file__
    try:
        yield
    finally:
        main.__file__ = script


def _top_level_frame(main_globals: dict[str, object]) -> FrameType | None:
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_globals is main_globals and frame.f_code.co_name == "<module>":
            return frame
        frame = frame.f_back
    return None


def _is_main_guard(node: ast.stmt) -> bool:
    """``if __name__ == "__main__":`` (either side of the comparison)."""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    test = node.test
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    constants = [s.value for s in sides if isinstance(s, ast.Constant)]
    return names == ["__name__"] and constants == ["__main__"]
