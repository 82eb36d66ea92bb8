"""Sphinx extension: per-dimension tables of an env's observation and action, and the Atari games.

``env-spaces`` makes the env at build time and writes two tables: each observation
dimension (or range of dimensions) with its meaning and its bounds as the space states them,
and each action (a Box's dimensions, or a Discrete's values). The meanings are the env's own
``dimension_meanings`` (written once, beside the env; ``palaestra info`` prints the same
tables); the bounds come from its spaces, and the build fails when the meanings do not cover
them exactly:

    ```{env-spaces} CartPole-v1
    ```

``atari-games`` lists every ``ALE/<Game>-v5`` id with its minimal action set.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive

os.environ.setdefault("MUJOCO_GL", "egl")


def _table(header: list[str], rows: list[list[str]]) -> nodes.table:
    table = nodes.table()
    group = nodes.tgroup(cols=len(header))
    table += group
    for _ in header:
        group += nodes.colspec(colwidth=1)
    head, body = nodes.thead(), nodes.tbody()
    for cells, parent in [(header, head), *((row, body) for row in rows)]:
        line = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            entry += nodes.paragraph(text=cell)
            line += entry
        parent += line
    group += head
    group += body
    return table


class EnvSpaces(Directive):
    """Tables of one env's observation and action, a row per dimension (or range of them)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        """The two tables, each under a short heading line."""
        import palaestra
        from palaestra._tools._dimensions import dimension_tables

        env_id = self.arguments[0]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env = palaestra.make(env_id)
        try:
            tables = dimension_tables(env)
            if not tables:
                raise ValueError(f"env-spaces: {env_id} states no dimension_meanings")
            out: list[nodes.Node] = []
            for what, header, rows in tables:
                space = env.observation_space if what == "observation" else env.action_space
                out.append(nodes.paragraph(text=f"{env_id} {what}: {space}"))
                out.append(_table(header, rows))
            return out
        except ValueError as e:
            raise ValueError(f"env-spaces: {env_id}: {e}") from e
        finally:
            env.close()


class AtariGames(Directive):
    """Every ALE/<Game>-v5 id with the meanings of its minimal action set."""

    def run(self) -> list[nodes.Node]:
        """One table row per game."""
        import palaestra
        from palaestra_atari._games import V5_GAMES, pascal_name

        rows = []
        for game in V5_GAMES:
            env_id = f"ALE/{pascal_name(game)}-v5"
            env = palaestra.make(env_id)
            try:
                meanings = env.unwrapped.get_action_meanings()
            finally:
                env.close()
            rows.append([env_id, str(len(meanings)), ", ".join(f"{i} {m}" for i, m in enumerate(meanings))])
        return [_table(["Id", "Actions", "Minimal action set (value and meaning)"], rows)]


def setup(app: Any) -> dict[str, Any]:
    """Register the two directives."""
    app.add_directive("env-spaces", EnvSpaces)
    app.add_directive("atari-games", AtariGames)
    return {"parallel_read_safe": True, "version": "1"}
