"""Who owns each default-namespace env name, decided from metadata alone.

A plugin that registers un-namespaced ids (``CartPole-v1``) declares their names in the
entry-point group ``palaestra.default_names`` (``CartPole = "classic_control"``). So
``make("CartPole-v1")`` loads only the declaring plugin, and two distributions declaring one
name is a conflict whatever their names' order: the name is refused (naming both) until the
user picks a winner, while every other id of both plugins keeps working.
"""

from __future__ import annotations

from collections.abc import Mapping

from palaestra._discovery._scan import IDS_GROUP, NAMES_GROUP, PluginRecord
from palaestra.error import Error, PluginConflictError

__all__ = ["NameOwners", "same_distribution"]


_KEYS: dict[str, str] = {}  # a plugin load compares its distribution's name once per id


def _key(distribution: str) -> str:
    key = _KEYS.get(distribution)
    if key is None:
        key = _KEYS[distribution] = distribution.lower().replace("_", "-").replace(".", "-")
    return key


def same_distribution(a: str, b: str) -> bool:
    """Whether two distribution names are one (compared as normalised names)."""
    return _key(a) == _key(b)


class NameOwners:
    """The declared owners of default-namespace env names, and the user's preferences.

    Args:
        declared: Env name -> the plugins declaring it (from discovery).
        prefer: Env name -> the distribution to use where several declare it.
    """

    def __init__(self, declared: Mapping[str, list[PluginRecord]], prefer: Mapping[str, str]) -> None:
        self._declared = {
            name: records if len(records) < 2 else self._distinct(records)
            for name, records in declared.items()
        }
        self._prefer = {name: _key(dist) for name, dist in prefer.items()}

    @staticmethod
    def _distinct(records: list[PluginRecord]) -> list[PluginRecord]:
        seen: dict[str, PluginRecord] = {}
        for record in records:
            seen.setdefault(_key(record.distribution), record)
        return list(seen.values())

    def names(self) -> list[str]:
        """Every declared name."""
        return sorted(self._declared)

    def owner(self, name: str) -> PluginRecord | None:
        """The plugin to load for ``name``; None when no installed plugin declares it.

        Raises:
            PluginConflictError: Several distributions declare it and none is preferred.
            Error: The preferred distribution does not declare it.
        """
        records = self._declared.get(name, [])
        if len(records) <= 1:
            return records[0] if records else None
        chosen = self._prefer.get(name)
        if chosen is None:
            raise self._conflict(name, records)
        for record in records:
            if _key(record.distribution) == chosen:
                return record
        raise Error(
            f"PALAESTRA_PREFER (or prefer=) picks {chosen!r} for {name!r}, but only "
            f"{' and '.join(r.distribution for r in records)} declare it"
        )

    def declaring(self, name: str) -> list[str]:
        """The distributions declaring ``name``."""
        return [r.distribution for r in self._declared.get(name, [])]

    def may_register(self, record: PluginRecord, name: str, env_id: str | None = None) -> bool:
        """Whether ``record``'s plugin may register default-namespace ``name`` (as ``env_id``).

        Raises:
            Error: It registers a name it does not declare (the message says how to declare it).
        """
        records = self._declared.get(name, [])
        mine = any(_key(r.distribution) == _key(record.distribution) for r in records)
        if not mine:
            raise Error(
                f"it registers the default-namespace env {name!r} without declaring it; add its ids "
                f'(`"{env_id or name}" = "{record.namespace}"`) to the entry-point group "{IDS_GROUP}" of its '
                f'pyproject.toml (or the name, `{name} = "{record.namespace}"`, to "{NAMES_GROUP}") so '
                "that palaestra knows the owner without importing every plugin"
            )
        try:
            owner = self.owner(name)
        except (PluginConflictError, Error):
            return False  # refused until the user picks one; the other ids still register
        return owner is not None and _key(owner.distribution) == _key(record.distribution)

    def prefer(self, name: str, distribution: str) -> None:
        """Use ``distribution``'s env for default-namespace ``name``."""
        self._prefer[name] = _key(distribution)

    def conflicts(self) -> dict[str, tuple[str, ...]]:
        """Names several distributions declare with no preference: name -> distributions."""
        return {
            name: tuple(r.distribution for r in records)
            for name, records in sorted(self._declared.items())
            if len(records) > 1 and name not in self._prefer
        }

    @staticmethod
    def _conflict(name: str, records: list[PluginRecord]) -> PluginConflictError:
        dists = tuple(r.distribution for r in records)
        # Recommend no one, unless one of them is the published suite that owns the name.
        from palaestra._discovery._suites import reference_distribution  # a conflict's message only

        reference = [d for d in dists if _key(d) == _key(reference_distribution(name) or "")]
        pick = reference[0] if reference else "<distribution>"
        advice = (
            f"{reference[0]} is palaestra's published suite for it; to use it: "
            if reference
            else "Check which one you trust, then pick it: "
        )
        return PluginConflictError(
            f"The environment name {name!r} is declared by more than one distribution: "
            f"{' and '.join(dists)}. Uninstall one, or pick one. {advice}"
            f"PALAESTRA_PREFER={name}={pick} (or PluginHost(prefer={{{name!r}: {pick!r}}})); "
            "their namespaced ids work either way.",
            namespace=None,
            distributions=dists,
        )
