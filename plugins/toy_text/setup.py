"""The optional C kernel of palaestra-toy-text (the rest is in pyproject.toml).

``_blackjack_kernel``: batched Blackjack's tables, dealt and played in one call each. Without
a compiler the package installs without it and the tables are played in Python, with the
same numbers. (Declared here, not in pyproject.toml, where setuptools still calls extension
modules experimental.)
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "palaestra_toy_text._blackjack_kernel",
            sources=["src/palaestra_toy_text/_blackjack_kernel.c"],
            optional=True,
        )
    ]
)
