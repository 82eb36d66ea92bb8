"""jax, or an error that names the extra to install."""

from __future__ import annotations

import importlib
from typing import Any

from palaestra.error import DependencyNotInstalled

INSTALL_HINT = 'pip install "palaestra[jax]"'


def import_jax() -> Any:
    """The ``jax`` module (``jax.numpy`` and ``jax.random`` loaded with it)."""
    try:
        jax = importlib.import_module("jax")
        for part in ("jax.numpy", "jax.random"):
            importlib.import_module(part)
    except ImportError as error:
        raise DependencyNotInstalled(
            f"The phys2d and tabular envs run on JAX, which is not installed: {INSTALL_HINT} "
            "(or: pip install jax)"
        ) from error
    return jax
