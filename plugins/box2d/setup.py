"""The optional C kernel of palaestra-box2d (the rest is in pyproject.toml).

BipedalWalker's lidar: without a compiler the package installs without it and the walker
asks Box2D for its ray casts, with the same numbers. No multiply-add fusing: it would round
once where Box2D rounds twice. (Declared here, not in pyproject.toml, where setuptools
still calls extension modules experimental.)
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "palaestra_box2d._compiled",
            sources=["src/palaestra_box2d/_compiled.c"],
            extra_compile_args=["-ffp-contract=off"],
            optional=True,
        )
    ]
)
