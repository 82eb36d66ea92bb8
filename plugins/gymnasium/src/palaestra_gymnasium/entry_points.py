"""Gymnasium entry points of palaestra's registered ids, by name.

``gymnasium.make`` reads ``"palaestra_gymnasium.entry_points:CartPole-v1"`` as module and
attribute: this module answers each attribute with a creator of that palaestra id. Specs of
palaestra envs seen through the bridge name their entry point so, which keeps them JSON
serialisable (``EnvSpec.to_json``; Minari stores it with a dataset and makes the env again).
"""

from __future__ import annotations

from typing import Any

from palaestra_gymnasium._specs import creator_of


def __getattr__(name: str) -> Any:
    if name.startswith("__"):  # the import system's and pickle's questions, not ids
        raise AttributeError(name)
    return creator_of(name, vector=False)
