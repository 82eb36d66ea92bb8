"""The CLI subcommands."""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections import defaultdict
from typing import Any, TextIO

from palaestra._plugins._default import get_host
from palaestra._registry._api import make

__all__ = ["cmd_info", "cmd_list", "cmd_run"]


def cmd_list(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print ids grouped by namespace, each group headed by its distribution."""
    out = out or sys.stdout
    host = get_host()
    registry = host.registry
    groups: dict[str, list[str]] = defaultdict(list)
    for env_id in registry:
        owner = registry.owner(env_id) or "registered in this process"
        ns = registry[env_id].namespace or "(default namespace)"
        groups[f"{ns}  [{owner}]"].append(env_id)
    for header in sorted(groups):
        print(header, file=out)
        for env_id in sorted(groups[header]):
            print(f"  {env_id}", file=out)
    for ns, failure in sorted(host.failures().items()):
        print(f"{ns}  [FAILED TO LOAD] {failure}", file=out)
    if not groups:
        print(
            'No environments registered. Install a suite, e.g. pip install "palaestra[classic-control]"',
            file=out,
        )
    return 0


def cmd_info(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print the spec, spaces and render modes of one env."""
    out = out or sys.stdout
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = make(args.id)
    try:
        spec = env.spec
        assert spec is not None
        print(spec.pprint(disable_print=True, include_entry_points=True), file=out)
        print(f"distribution={get_host().registry.owner(spec.id)}", file=out)
        print(f"observation_space={env.observation_space}", file=out)
        print(f"action_space={env.action_space}", file=out)
        print(f"render_modes={env.metadata.get('render_modes', [])}", file=out)
        print(f"render_fps={env.metadata.get('render_fps')}", file=out)
    finally:
        env.close()
    return 0


def _bar(done: int, total: int, width: int = 30) -> str:
    filled = int(width * done / max(total, 1))
    return f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total}"


def cmd_run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run a random agent for ``--episodes`` episodes and summarise the returns."""
    out = out or sys.stdout
    if args.episodes <= 0:
        raise ValueError(f"--episodes must be positive, got {args.episodes}")
    if args.seed is not None and args.seed < 0:
        raise ValueError(f"--seed must be a non-negative integer, got {args.seed}")
    kwargs: dict[str, Any] = {}
    if args.max_steps is not None:
        kwargs["max_episode_steps"] = args.max_steps
    env = make(args.id, **kwargs)
    returns: list[float] = []
    lengths: list[int] = []
    start = time.perf_counter()
    try:
        if args.seed is not None:
            env.action_space.seed(args.seed)
        for episode in range(args.episodes):
            seed = None if args.seed is None else args.seed + episode
            total, length = _episode(env, seed)
            returns.append(total)
            lengths.append(length)
            if not args.no_progress:
                print(f"\r{_bar(episode + 1, args.episodes)}", end="", file=sys.stderr, flush=True)
        if not args.no_progress:
            print(file=sys.stderr)
    finally:
        env.close()
    elapsed = time.perf_counter() - start
    for i, (ret, length) in enumerate(zip(returns, lengths, strict=True)):
        print(f"episode {i}: return={ret:.3f} length={length}", file=out)
    mean = sum(returns) / len(returns)
    steps = sum(lengths)
    print(
        f"{args.id}: {len(returns)} episodes, mean return {mean:.3f}, "
        f"min {min(returns):.3f}, max {max(returns):.3f}, {steps} steps, "
        f"{steps / max(elapsed, 1e-9):.0f} steps/s",
        file=out,
    )
    return 0


def _episode(env: Any, seed: int | None) -> tuple[float, int]:
    env.reset(seed=seed)
    total, length = 0.0, 0
    while True:
        _, reward, terminated, truncated, _ = env.step(env.action_space.sample())
        total += float(reward)
        length += 1
        if terminated or truncated:
            return total, length
