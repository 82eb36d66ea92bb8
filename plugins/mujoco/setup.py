"""The optional C kernel of palaestra-mujoco (the rest is in pyproject.toml).

Control and contact costs: without a compiler the package installs without it and the envs
compute the same numbers with numpy. (Declared here, not in pyproject.toml, where setuptools
still calls extension modules experimental.)
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "palaestra_mujoco._cost_kernel", sources=["src/palaestra_mujoco/_cost_kernel.c"], optional=True
        )
    ]
)
