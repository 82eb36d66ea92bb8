"""Class names Gymnasium keeps for env modes that are keyword arguments of another env."""

from __future__ import annotations

from palaestra.error import Error

__all__ = ["mode_is_a_keyword"]


def mode_is_a_keyword(name: str, keyword: str, env_id: str) -> Error:
    """The error for instantiating mode class ``name``: make ``env_id`` with ``keyword=True``."""
    return Error(  # Gymnasium's words
        f"Error initializing {name} Environment.\n"
        "Currently, we do not support initializing this mode of environment by calling the class directly.\n"
        f"To use this environment, instead create it by specifying the {keyword} keyword in gym.make, i.e.\n"
        f'gym.make("{env_id}", {keyword}=True)'
    )
