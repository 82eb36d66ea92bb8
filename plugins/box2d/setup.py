"""The optional C kernels of palaestra-box2d (the rest is in pyproject.toml).

``_compiled``: BipedalWalker's lidar. ``_stepping``: the batched envs' compiled steps,
through the Box2D binding's own exported functions, on threads outside the GIL. Without a
compiler the package installs without them and the envs do the same work in Python, with
the same numbers. No multiply-add fusing: it would round once where Box2D and Python round twice. (Declared
here, not in pyproject.toml, where setuptools still calls extension modules experimental.)
"""

import os

from setuptools import Extension, setup

HEADERS = ["_buffers.h", "_stepping.h", "_crew.h"]
#: The kernels' crews (_crew.c) are POSIX threads where there are some.
THREADS = ["-pthread"] if os.name == "posix" else []

SOURCES = {
    "_compiled": ["_compiled.c", "_buffers.c"],
    "_stepping": ["_stepping.c", "_lander_kernel.c", "_walker_kernel.c", "_crew.c", "_buffers.c"],
}

setup(
    ext_modules=[
        Extension(
            f"palaestra_box2d.{name}",
            sources=[f"src/palaestra_box2d/{source}" for source in sources],
            depends=[f"src/palaestra_box2d/{header}" for header in HEADERS],
            extra_compile_args=["-ffp-contract=off", *THREADS],
            extra_link_args=THREADS,
            optional=True,
        )
        for name, sources in SOURCES.items()
    ]
)
