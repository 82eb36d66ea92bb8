"""The dataclass twins of ``EnvSpec`` and ``WrapperSpec``: their fields, declared once as dataclasses.

Imported only when something asks one of the two classes for its dataclass fields (see
:mod:`palaestra._base._plain`). Each twin declares the fields in Gymnasium
1.4.0's order, which is the order of the class's ``__init__``, repr and ``to_json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["EnvSpec", "WrapperSpec"]


@dataclass
class WrapperSpec:
    """Fields of :class:`palaestra._base._wrapper_spec.WrapperSpec`."""

    name: str
    entry_point: str
    kwargs: dict[str, Any] | None


@dataclass
class EnvSpec:
    """Fields of :class:`palaestra._env._spec.EnvSpec`."""

    id: str
    entry_point: Any = None
    reward_threshold: float | None = None
    nondeterministic: bool = False
    max_episode_steps: int | None = None
    order_enforce: bool = True
    disable_env_checker: bool = False
    kwargs: dict[str, Any] = field(default_factory=dict)
    namespace: str | None = field(init=False)
    name: str = field(init=False)
    version: int | None = field(init=False)
    additional_wrappers: tuple[WrapperSpec, ...] = field(default_factory=tuple)
    vector_entry_point: Any = None
    apply_api_compatibility: bool = False
