"""Argument parsing and dispatch; every failure is one line on stderr and a non-zero exit."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from palaestra.cli._commands import cmd_info, cmd_list, cmd_run
from palaestra.error import Error

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The ``palaestra`` argument parser."""
    parser = argparse.ArgumentParser(prog="palaestra", description="Reinforcement-learning environments.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list environment ids by namespace, with their distribution")
    info = sub.add_parser("info", help="show an environment's spec, spaces and render modes")
    info.add_argument("id")
    run = sub.add_parser("run", help="run a random agent and report episode returns")
    run.add_argument("id")
    run.add_argument("--episodes", type=int, default=3, help="number of episodes (default 3)")
    run.add_argument("--seed", type=int, default=None, help="seed of the first episode")
    run.add_argument("--max-steps", type=int, default=None, help="override max_episode_steps")
    run.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return the exit code."""
    args = build_parser().parse_args(argv)
    commands = {"list": cmd_list, "info": cmd_info, "run": cmd_run}
    try:
        return commands[args.command](args)
    except (Error, ValueError, TypeError, ImportError, KeyError) as e:
        message = str(e).splitlines()[0] if str(e) else type(e).__name__
        print(f"palaestra: error: {message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("palaestra: interrupted", file=sys.stderr)
        return 130
