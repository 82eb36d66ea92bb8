"""What a failed lookup can be told besides the registry's own contents: the not-found hints.

The registry's explainer (:mod:`palaestra._registry._not_found`) asks these through its
narrow :class:`~palaestra._registry._not_found.Hints` interface: which names installed
plugins and published suites know, a suite to install, a plugin switched off or broken, an
id another library (the bridge's ``gymnasium/``) provides.
"""

from __future__ import annotations

from palaestra._base._ids import EnvId, plugin_namespace
from palaestra._discovery._ownership import InstalledPlugins
from palaestra._plugins._loading import PluginLoader

__all__ = ["LookupHints"]


class LookupHints:
    """The not-found hints, read from the installed plugins' declarations and the loader's record.

    Args:
        installed: What installed plugins declare.
        loader: Which plugins loaded, failed, or implement no hook.
    """

    def __init__(self, installed: InstalledPlugins, loader: PluginLoader) -> None:
        self.installed = installed
        self.loader = loader

    def known_names(self) -> set[str]:
        """Default-namespace env names declared by installed plugins or published suites."""
        from palaestra._discovery._suites import published_names  # start-up: an error path (1.7 ms)

        return set(self.installed.owners.names()) | published_names()

    def declares(self, name: str) -> bool:
        """Whether an installed plugin declares the default-namespace env name ``name``."""
        return name in self.installed.owners.names()

    def provided_elsewhere(self, env_id: str) -> str | None:
        """``ns/env_id`` where a plugin resolving ``ns/...`` on demand (the bridge's ``gymnasium/``) has it.

        For the not-found message only: asking may import the plugin and what it bridges.
        """
        for prefix in sorted(self.installed.catalog.wildcards):
            candidate = f"{prefix}{env_id}"
            try:
                self.loader.resolve(EnvId.parse(candidate))
            except Exception:  # a broken or unwilling plugin: no suggestion from it
                continue
            if candidate in self.loader.store.specs:
                return candidate
        return None

    def missing_hint(self, namespace: str | None, name: str) -> str | None:
        """Why nothing provides the id: a plugin switched off, a suite to install, a failed plugin."""
        from palaestra._discovery._suites import install_hint, suite_of  # start-up: an error path (1.7 ms)

        table = self.installed.table
        owner = suite_of(namespace, name)
        if owner is not None and owner not in table:
            reason = self.installed.switched_off(owner)
            if reason is not None:
                return reason
        hint = install_hint(namespace, name, set(table))
        if hint is not None:
            return hint
        if namespace is not None and plugin_namespace(namespace) in self.loader.hookless:
            return self.hookless_hint(plugin_namespace(namespace))
        relevant = [f for ns, f in self.loader.failures.items() if namespace in (None, ns)]
        if relevant:
            broken = "; ".join(str(f) for f in relevant)
            return f"It may be provided by a plugin that failed to load: {broken}"
        return None

    def hookless_hint(self, namespace: str) -> str | None:
        """Why the installed plugin ``namespace`` provides nothing (None if it implements hooks)."""
        reason = self.loader.hookless.get(namespace)
        if reason is None:
            return None
        record = self.loader.loaded.get(namespace)
        owner = f" ({record.distribution})" if record else ""
        end = "" if reason.endswith(("?", ".")) else "."
        return f"The plugin {namespace!r}{owner} is installed but implements no palaestra hook: {reason}{end}"
