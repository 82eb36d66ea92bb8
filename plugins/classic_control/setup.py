"""The optional C kernels of palaestra-classic-control (the rest is in pyproject.toml).

MountainCarContinuous's float32 step and batched CartPole's physics: without a compiler the
package installs without them and computes the same numbers in Python. No multiply-add
fusing: it would round once where Python rounds twice. (Declared here, not in
pyproject.toml, where setuptools still calls extension modules experimental.)
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "palaestra_classic_control._compiled",
            sources=["src/palaestra_classic_control/_compiled.c"],
            extra_compile_args=["-ffp-contract=off"],
            optional=True,
        )
    ]
)
