"""Argument parsing and dispatch; every failure is one line on stderr and a non-zero exit."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence

from palaestra.cli._checking import cmd_check
from palaestra.cli._commands import cmd_bench, cmd_info, cmd_play, cmd_run
from palaestra.cli._listing import LONG_GROUP, cmd_list, versions
from palaestra.error import Error

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The ``palaestra`` argument parser."""
    parser = argparse.ArgumentParser(prog="palaestra", description="Reinforcement-learning environments.")
    parser.add_argument(
        "--version", action="store_true", help="print the version of the core and of each installed plugin"
    )
    sub = parser.add_subparsers(dest="command", metavar="command")

    def command(name: str, summary: str, details: str = "") -> argparse.ArgumentParser:
        # help= is the line in `palaestra --help`; description= heads `palaestra NAME --help`
        return sub.add_parser(
            name, help=summary, description=f"{summary[0].upper()}{summary[1:]}. {details}".strip()
        )

    def env_id(command_parser: argparse.ArgumentParser) -> None:
        command_parser.add_argument("id", help="an environment id, e.g. CartPole-v1 or grid/Walk-v0")

    listing = command(
        "list",
        "list environment ids by namespace, with their distribution",
        "Also retired ids, namespaces resolved on demand and plugin vectorizers. Imports no plugin. "
        f"A group of more than {LONG_GROUP} ids is summed up in one line unless --all or a pattern is given.",
    )
    listing.add_argument(
        "patterns",
        nargs="*",
        metavar="pattern",
        help="show only ids containing one of these (case-insensitive; * and ? as wildcards), e.g. pong 'ALE/*'",
    )
    listing.add_argument("--all", action="store_true", help="list every id of every group")
    info = command(
        "info", "show an environment's spec, spaces and render modes", "Also whether it takes snapshots."
    )
    env_id(info)
    run = command(
        "run", "run a random agent and report episode returns", "One line per episode, then a summary."
    )
    env_id(run)
    run.add_argument("--episodes", type=int, default=3, help="number of episodes (default 3)")
    run.add_argument("--seed", type=int, default=None, help="seed of the first episode")
    run.add_argument("--max-steps", type=int, default=None, help="override max_episode_steps")
    run.add_argument(
        "--no-progress", action="store_true", help="hide the progress bar (shown only on a terminal)"
    )
    check = command(
        "check",
        "run check_env on environments (API conformance)",
        "Warnings are listed; a contract violation fails the command (exit status 1).",
    )
    check.add_argument("ids", nargs="*", metavar="id", help="environment ids, e.g. CartPole-v1 grid/Walk-v0")
    check.add_argument("--plugin", default=None, help="also check every env this installed plugin registers")
    check.add_argument("--skip-render", action="store_true", help="do not check rendering")
    bench = command(
        "bench",
        "measure steps per second with random actions",
        "A single env through make(), or with --num-envs a vector env through make_vec.",
    )
    env_id(bench)
    bench.add_argument("--seconds", type=float, default=3.0, help="how long to measure (default 3)")
    bench.add_argument("--num-envs", type=int, default=None, help="measure make_vec with this many envs")
    bench.add_argument(
        "--mode",
        default=None,
        help="make_vec's vectorization_mode (needs --num-envs): sync, async, vector_entry_point, ns/name",
    )
    play = command("play", "play an environment with the keyboard in a window", "Needs a display and pygame.")
    env_id(play)
    play.add_argument(
        "--key", action="append", default=[], metavar="KEYS=ACTION", help="e.g. --key a=0 --key wd=[1,0.5]"
    )
    play.add_argument("--noop", default=None, help="action when no mapped key is pressed (JSON, default 0)")
    play.add_argument("--seed", type=int, default=None, help="seed of every reset")
    play.add_argument("--fps", type=int, default=None, help="frames per second (default: the env's)")
    play.add_argument("--zoom", type=float, default=None, help="window scale")
    return parser


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    with contextlib.suppress(OSError, ValueError):
        os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        print(versions())
        return 0
    if args.command is None:
        parser.error("a command is required (list, info, run, check, bench or play)")
    commands = {
        "list": cmd_list,
        "info": cmd_info,
        "run": cmd_run,
        "check": cmd_check,
        "bench": cmd_bench,
        "play": cmd_play,
    }
    try:
        return commands[args.command](args)
    except BrokenPipeError:  # `palaestra list | head`: the reader has all it wanted
        _silence_stdout()
        return 1
    except (Error, ValueError, TypeError, ImportError, KeyError, AttributeError) as e:
        message = str(e).splitlines()[0] if str(e) else type(e).__name__
        # The first line, then the advice palaestra adds in notes (after Gymnasium's words).
        advice = " ".join(note.splitlines()[0] for note in getattr(e, "__notes__", ()) if note.strip())
        print(f"palaestra: error: {message}" + (f". {advice}" if advice else ""), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("palaestra: interrupted", file=sys.stderr)
        return 130
