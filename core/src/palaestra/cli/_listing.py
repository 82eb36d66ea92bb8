"""`palaestra list` and `--version`: what is installed and registered, read without importing plugins."""

from __future__ import annotations

import argparse
import fnmatch
import sys
from collections import defaultdict
from typing import Any, TextIO

import palaestra
from palaestra._base._ids import namespace_of
from palaestra._plugins._host import get_host

__all__ = ["LONG_GROUP", "cmd_list", "versions"]


def versions() -> str:
    """The core's version and each installed plugin's (namespace, distribution, version)."""
    host = get_host()
    lines = [f"palaestra {palaestra.__version__}"]
    for namespace in sorted(host.installed.table):
        for record in host.installed.table[namespace]:
            lines.append(f"  {namespace:<16} {record.distribution} {record.version}")
    if len(lines) == 1:
        lines.append("  no plugins installed")
    return "\n".join(lines)


#: Groups longer than this (the Atari suite's 249 legacy ids) are summed up in one line.
LONG_GROUP = 40


def _matcher(patterns: list[str]) -> Any:
    """Whether an id matches one of ``patterns``: a substring, or a glob with ``*``/``?``/``[``."""
    lowered = [p.lower() for p in patterns]

    def matches(env_id: str) -> bool:
        text = env_id.lower()
        return any(fnmatch.fnmatchcase(text, p) if any(c in p for c in "*?[") else p in text for p in lowered)

    return matches


def cmd_list(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print ids grouped by namespace, each group headed by its distribution.

    Then retired ids, namespaces resolved on demand, plugin vectorizers, and plugins that
    declare nothing, failed to load or conflict. Nothing is imported: all comes from metadata.
    With patterns, only matching ids (and their groups) are listed; without ``--all``, a
    group longer than :data:`LONG_GROUP` is one line with a few of its ids.
    """
    out = out or sys.stdout
    host = get_host()
    groups = _id_groups(host)
    patterns = list(getattr(args, "patterns", None) or [])
    if patterns:
        matches = _matcher(patterns)
        groups = {header: [i for i in ids if matches(i)] for header, ids in groups.items()}
        groups = {header: ids for header, ids in groups.items() if ids}
    show_all = bool(patterns) or getattr(args, "all", False)
    # Short groups first: a suite of a few ids is not lost below hundreds of legacy ones.
    for header in sorted(groups, key=lambda h: (len(groups[h]) > LONG_GROUP, h)):
        ids = sorted(groups[header])
        if len(ids) > LONG_GROUP and not show_all:
            print(
                f"{header}  {len(ids)} ids, e.g. {', '.join(ids[:3])}, ... "
                "(palaestra list --all shows them; palaestra list <pattern> finds some)",
                file=out,
            )
            continue
        print(header, file=out)
        for env_id in ids:
            print(f"  {env_id}", file=out)
    if patterns:
        if not groups:
            print(f"No environment id matches {' or '.join(patterns)}.", file=out)
        return 0
    for line in _other_listings(host):
        print(line, file=out)
    if not groups:
        print(
            'No environments registered. Install a suite, e.g. pip install "palaestra[classic-control]"',
            file=out,
        )
    return 0


def _id_groups(host: Any) -> dict[str, list[str]]:
    """``"namespace  [distribution]"`` -> its makeable ids (declared or registered here; no import)."""
    registry, declared, retired = (
        host.registry,
        host.installed.catalog.ids,
        host.installed.declarations.retired,
    )
    groups: dict[str, list[str]] = defaultdict(list)
    for env_id in registry:
        if env_id in retired:
            continue
        record = declared.get(env_id)
        owner = record.distribution if record else registry.owner(env_id) or "registered in this process"
        ns = namespace_of(env_id) or "(default namespace)"
        groups[f"{ns}  [{owner}]"].append(env_id)
    return groups


def _other_listings(host: Any) -> list[str]:
    """The listing's lines after the ids: what else installed plugins provide, or why not."""
    lines = []
    retired = sorted(host.installed.declarations.retired & set(host.installed.catalog.ids))
    if retired:
        lines.append(f"retired, not makeable here (make() names the version to use): {', '.join(retired)}")
    for prefix, record in sorted(host.installed.catalog.wildcards.items()):
        lines.append(f"{prefix}*  [{record.distribution}]  ids resolved on demand: make('{prefix}<Env-vN>')")
    vectorizers = {
        name: record.distribution for name, record in host.installed.declarations.vectorizers.items()
    }
    vectorizers.update({name: owner for name, (_, owner) in host.loader.vectorizers.items() if "/" in name})
    for name, distribution in sorted(vectorizers.items()):
        lines.append(f"{name}  [{distribution}]  vectorizer: make_vec(id, n, vectorization_mode='{name}')")
    for ns, record in sorted(host.undeclared_plugins().items()):
        lines.append(
            f"{ns}  [{record.distribution}]  declares no env ids: its ids (if any) are listed once "
            f"one is made, e.g. palaestra.make('{ns}/<Env-vN>')"
        )
    for ns, failure in sorted(dict(host.loader.failures).items()):
        lines.append(f"{ns}  [FAILED TO LOAD] {failure}")
    for name, distributions in host.installed.owners.conflicts().items():
        lines.append(
            f"{name}  [CONFLICT] declared by {' and '.join(distributions)}; pick one with "
            f"PALAESTRA_PREFER={name}=<distribution>"
        )
    return lines
