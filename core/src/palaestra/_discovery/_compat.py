"""Whether a plugin was built for the installed core: its ``palaestra`` requirement, checked.

A plugin states the core versions it supports as its dependency on ``palaestra``
(``Requires-Dist: palaestra>=0.1,<0.2``); discovery reads that line with the plugin's name
and version. The comparison covers what such a range uses (``==``, ``!=``, ``<``, ``<=``,
``>``, ``>=``, ``~=`` and ``==X.*``) on release numbers, without a dependency on
``packaging``.
"""

from __future__ import annotations

import re

__all__ = ["incompatibility", "palaestra_requirement"]

_REQUIREMENT = re.compile(r"^palaestra(?![\w.-])\s*(?:\[[^\]]*\])?\s*\(?([^;)]*)\)?\s*(?:;.*)?$")
_CLAUSE = re.compile(r"^(===|==|!=|<=|>=|~=|<|>)\s*([0-9][0-9A-Za-z.*+!-]*)$")


def palaestra_requirement(requires_dist: str) -> str | None:
    """The version specifier of a ``Requires-Dist`` value that names ``palaestra`` (else None)."""
    match = _REQUIREMENT.match(requires_dist.strip())
    return None if match is None else match.group(1).strip()


def _release(version: str) -> tuple[int, ...]:
    numbers = []
    for part in version.split("+")[0].split("."):
        digits = re.match(r"\d+", part)
        if digits is None:
            break
        numbers.append(int(digits.group()))
        if digits.group() != part:  # a pre-, post- or dev-release suffix ends the release
            break
    return tuple(numbers)


def _padded(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    width = max(len(a), len(b))
    return a + (0,) * (width - len(a)), b + (0,) * (width - len(b))


def _holds(op: str, version: str, bound: str) -> bool:
    if bound.endswith(".*"):
        prefix = _release(bound[:-2])
        matches = _release(version)[: len(prefix)] == prefix
        return matches if op == "==" else not matches
    mine, theirs = _padded(_release(version), _release(bound))
    if op == "~=":
        upper = _release(bound)[:-1]
        return mine >= theirs and _release(version)[: len(upper)] == upper
    return {
        "==": mine == theirs,
        "===": version == bound,
        "!=": mine != theirs,
        "<": mine < theirs,
        "<=": mine <= theirs,
        ">": mine > theirs,
        ">=": mine >= theirs,
    }[op]


def incompatibility(specifier: str, core_version: str) -> str | None:
    """Why ``core_version`` falls outside ``specifier`` (None if inside, or if unreadable)."""
    for clause in filter(None, (c.strip() for c in specifier.split(","))):
        match = _CLAUSE.match(clause)
        if match is not None and not _holds(match.group(1), core_version, match.group(2)):
            return f"it needs palaestra {specifier}, and palaestra {core_version} is installed"
    return None
