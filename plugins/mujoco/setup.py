"""The optional C modules of palaestra-mujoco (the rest is in pyproject.toml).

``_compiled``: the row fills of a batch's episode starts (see ``_start_draws.py``),
Python's squares of a column (``_powers.py``), numpy's sums of squares of each row
(``_row_sums.py``) and the end of some envs' array steps (their ``plain_end_batch``).
``_normals``: numpy's standard normal draw for the starts with normal velocity noise,
linked from the static library numpy ships for extensions (``numpy/random/lib``), built
only where that library is found. Without a compiler the package installs without them
and all of it is done in Python, with the same numbers. (Declared here, not in
pyproject.toml, where setuptools still calls extension modules experimental.)
"""

import sys
from pathlib import Path

from setuptools import Extension, setup

MATH = [] if sys.platform == "win32" else ["m"]  # pow, as Python's float power calls it
HEADERS = ["src/palaestra_mujoco/_bitgen.h"]


def numpy_random_library() -> Path | None:
    """The folder of numpy's ``npyrandom`` static library, or ``None`` (no numpy, or none shipped)."""
    try:
        import numpy
    except ImportError:
        return None
    folder = Path(numpy.__file__).parent / "random" / "lib"
    return folder if any(folder.glob("*npyrandom*")) else None


extensions = [
    Extension(
        "palaestra_mujoco._compiled",
        sources=["src/palaestra_mujoco/_compiled.c"],
        depends=HEADERS,
        extra_compile_args=["-ffp-contract=off"],
        libraries=MATH,
        optional=True,
    )
]
library = numpy_random_library()
if library is not None:
    extensions.append(
        Extension(
            "palaestra_mujoco._normals",
            sources=["src/palaestra_mujoco/_normals.c"],
            depends=HEADERS,
            library_dirs=[str(library)],
            libraries=["npyrandom", *MATH],
            optional=True,
        )
    )

setup(ext_modules=extensions)
