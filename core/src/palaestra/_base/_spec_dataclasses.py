"""The dataclass twins of ``EnvSpec`` and ``WrapperSpec``: their fields, as real dataclasses.

Imported only when something asks one of the two classes for its dataclass fields (see
:mod:`palaestra._base._plain`). Each twin is made from a table of its fields in Gymnasium
1.4.0's order, which is the order of the hand-written class's ``__init__``, repr and
``to_json``, with annotations as strings as the hand-written classes have them;
``tests/core/test_plain_classes.py`` holds the two to each other.
"""

from __future__ import annotations

from dataclasses import field, make_dataclass

__all__ = ["EnvSpec", "WrapperSpec"]

WrapperSpec = make_dataclass(
    "WrapperSpec",
    [("name", "str"), ("entry_point", "str"), ("kwargs", "dict[str, Any] | None")],
)

EnvSpec = make_dataclass(
    "EnvSpec",
    [
        ("id", "str"),
        ("entry_point", "Any", None),
        ("reward_threshold", "float | None", None),
        ("nondeterministic", "bool", False),
        ("max_episode_steps", "int | None", None),
        ("order_enforce", "bool", True),
        ("disable_env_checker", "bool", False),
        ("kwargs", "dict[str, Any]", field(default_factory=dict)),
        ("namespace", "str | None", field(init=False)),  # the three parsed from the id
        ("name", "str", field(init=False)),
        ("version", "int | None", field(init=False)),
        ("additional_wrappers", "tuple[WrapperSpec, ...]", field(default_factory=tuple)),
        ("vector_entry_point", "Any", None),
        ("apply_api_compatibility", "bool", False),
    ],
)

for _twin in (WrapperSpec, EnvSpec):
    _twin.__module__ = __name__
