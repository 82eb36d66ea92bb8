"""The optional C module of palaestra-mujoco (the rest is in pyproject.toml).

``_compiled``: the row fills of a batch's episode starts (see ``_start_draws.py``),
Python's squares of a column (``_powers.py``), numpy's sums of squares of each row
(``_row_sums.py``) and the end of some envs' array steps (their ``plain_end_batch``).
Without a compiler the package installs without it and all of them are done in Python,
with the same numbers. (Declared here, not in
pyproject.toml, where setuptools still calls extension modules experimental.)
"""

import sys

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "palaestra_mujoco._compiled",
            sources=["src/palaestra_mujoco/_compiled.c"],
            extra_compile_args=["-ffp-contract=off"],
            libraries=[] if sys.platform == "win32" else ["m"],  # pow, as Python's float power calls it
            optional=True,
        )
    ]
)
