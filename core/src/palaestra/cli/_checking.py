"""`palaestra check`: the env checker over ids, a plugin's ids, or every id."""

from __future__ import annotations

import argparse
import sys
import warnings
from typing import TextIO

from palaestra import logger
from palaestra._api import make
from palaestra._plugins._host import get_host
from palaestra._tools._env_checker import check_env, check_space_limit
from palaestra.error import DependencyNotInstalled, EnvCheckError

__all__ = ["cmd_check"]


def _plugin_ids(plugin: str) -> list[str]:
    """Every id the plugin ``plugin`` (its entry-point name) registers."""
    host = get_host()
    records = host.installed.table.get(plugin)
    if not records:
        raise ValueError(
            f"No installed plugin is called {plugin!r}; `palaestra list` shows what is installed."
        )
    host.loader.load_namespace(plugin)
    registry = host.registry
    distribution = records[0].distribution
    ids = sorted(env_id for env_id in registry if registry.owner(env_id) == distribution)
    if not ids:
        raise ValueError(_why_no_ids(plugin, distribution))
    return ids


def _why_no_ids(plugin: str, distribution: str) -> str:
    """Why ``check --plugin`` found nothing to check in an installed plugin, and what to give instead."""
    host = get_host()
    hookless = host.hints.hookless_hint(plugin)
    if hookless:
        return hookless
    on_demand = [
        p for p, record in host.installed.catalog.wildcards.items() if record.distribution == distribution
    ]
    if on_demand:
        return (
            f"The plugin {plugin!r} ({distribution}) makes its envs on demand ({', '.join(p + '*' for p in on_demand)}), "
            f"so there is no list to check: give the ids, e.g. palaestra check {on_demand[0]}CartPole-v1"
        )
    provides = [
        f"vectorizer {name!r}"
        for name, (_, owner) in host.loader.vectorizers.items()
        if owner == distribution
    ]
    provides += [
        f"wrapper set {name!r}"
        for name, (_, owner) in host.loader.wrapper_sets.items()
        if owner == distribution
    ]
    if provides:
        return (
            f"The plugin {plugin!r} ({distribution}) provides no envs to check, only {', '.join(provides)}."
        )
    return f"The plugin {plugin!r} ({distribution}) registered no envs."


def _check_one(env_id: str, skip_render: bool) -> tuple[list[str], list[str]]:
    """Run ``check_env`` on ``env_id``'s unwrapped env: ``(warnings, advice)`` it gave, once each.

    Advice is what Gymnasium's checker says about any env with unbounded or unnormalised Box
    spaces (many reference envs are built so); warnings are everything else.
    """
    notes = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = make(env_id)
        try:
            try:
                check_env(env.unwrapped, skip_render_check=skip_render)
            except DependencyNotInstalled as e:  # rendering needs what is not installed
                if skip_render:
                    raise
                check_env(env.unwrapped, skip_render_check=True)
                notes.append(f"render checks skipped: {str(e).splitlines()[0]} (or pass --skip-render)")
            with warnings.catch_warnings(record=True) as limits:
                warnings.simplefilter("always")
                check_space_limit(env.unwrapped.action_space, "action")
                check_space_limit(env.unwrapped.observation_space, "observation")
        finally:
            env.close()
    advice = {logger.plain_text(str(w.message)) for w in limits}
    messages = list(dict.fromkeys([logger.plain_text(str(w.message)) for w in caught] + notes))
    return [m for m in messages if m not in advice], [m for m in messages if m in advice]


def cmd_check(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run ``check_env`` on each env; warnings are listed, any violation fails the command.

    A plugin author checks a whole suite with ``--plugin NAME``.
    """
    out = out or sys.stdout
    ids = list(args.ids) + (_plugin_ids(args.plugin) if args.plugin else [])
    if not ids:
        raise ValueError("Give env ids to check, or --plugin NAME for every env of an installed plugin.")
    failed = []
    for env_id in ids:
        try:
            messages, advice = _check_one(env_id, args.skip_render)
        except DependencyNotInstalled as e:  # e.g. the retired MuJoCo v2/v3 ids, or a missing extra
            print(f"{env_id}: skipped, cannot be made here: {e}", file=out)
            continue
        except EnvCheckError as e:
            print(f"{env_id}: FAILED check_env: {e}", file=out)
            failed.append(env_id)
            continue
        except Exception as e:  # the env (or making it) broke: a failure of that env, not of the run
            print(f"{env_id}: FAILED check_env: {type(e).__name__}: {e}", file=out)
            failed.append(env_id)
            continue
        for kind, lines in (("warning", messages), ("advice", advice)):
            for line in lines:
                print(f"{env_id}: {kind}: {line}", file=out)
        count = f"{len(messages)} warning" + ("" if len(messages) == 1 else "s")
        if advice:
            count += f", {len(advice)} advice on Box bounds that Gymnasium's checker gives too"
        print(f"{env_id}: passed check_env ({count})", file=out)
    if failed:
        raise EnvCheckError(f"{len(failed)} of {len(ids)} envs failed check_env: {', '.join(failed)}")
    return 0
