"""Gymnasium vector entry points of palaestra's registered ids, by name.

``"palaestra_gymnasium.vector_entry_points:CartPole-v1"``: as :mod:`palaestra_gymnasium.entry_points`,
for ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``.
"""

from __future__ import annotations

from typing import Any

from palaestra_gymnasium._specs import creator_of


def __getattr__(name: str) -> Any:
    if name.startswith("__"):  # the import system's and pickle's questions, not ids
        raise AttributeError(name)
    return creator_of(name, vector=True)
