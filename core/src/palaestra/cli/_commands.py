"""The CLI subcommands that make and run envs: `info`, `run`, `bench`, `play`."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from typing import Any, TextIO

import numpy as np

from palaestra._api import make, make_vec
from palaestra._base._lazy import load_env_creator
from palaestra._env._core import Env
from palaestra._plugins._host import get_host
from palaestra._tools._dimensions import dimension_tables
from palaestra.error import SnapshotError, SnapshotNotSupported
from palaestra.spaces import Box

__all__ = ["cmd_bench", "cmd_info", "cmd_play", "cmd_run"]


def cmd_info(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print the spec, spaces and render modes of one env."""
    out = out or sys.stdout
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = _make_env(args.id)
    try:
        spec = env.spec
        assert spec is not None
        print(spec.pprint(disable_print=True, include_entry_points=True), file=out)
        print(f"distribution={get_host().registry.owner(spec.id)}", file=out)
        print(f"observation_space={_shown(env.observation_space)}", file=out)
        print(f"action_space={_shown(env.action_space)}", file=out)
        print(f"render_modes={env.metadata.get('render_modes', [])}", file=out)
        print(f"render_fps={env.metadata.get('render_fps')}", file=out)
        print(f"snapshots={_snapshot_support(env)}", file=out)
        batched = _batching(spec)
        if batched:
            print(f"batched={batched}", file=out)
        _print_dimensions(env, out)
    finally:
        env.close()
    return 0


def _shown(space: Any) -> Any:
    """``space`` as printed: a Box's bounds without "-0." (Gymnasium writes -0.0 for some of them)."""
    if isinstance(space, Box) and (np.signbit(space.low) & (space.low == 0)).any():
        return Box(space.low + 0.0, space.high + 0.0, space.shape, space.dtype)  # + 0.0: -0.0 becomes 0.0
    return space


def _print_dimensions(env: Env[Any, Any], out: TextIO) -> None:
    """Each observation dimension and action with its meaning and bounds, where the env says them."""
    try:
        tables = dimension_tables(env)
    except ValueError:
        return  # meanings written for other arguments (a v4 id, an option that changes the space)
    for what, header, rows in tables:
        print(f"{what}:", file=out)
        widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=True)]
        for cells in (header, *rows):
            line = "  ".join(str(cell).ljust(width) for cell, width in zip(cells, widths, strict=True))
            print(f"  {line.rstrip()}", file=out)


def _batching(spec: Any) -> str | None:
    """How ``make_vec`` batches the env natively (its class's ``describe_batching()``, if it says), or None."""
    entry_point = spec.vector_entry_point
    if entry_point is None:
        return None
    creator = entry_point if callable(entry_point) else load_env_creator(entry_point)
    describe = getattr(creator, "describe_batching", None)
    name = getattr(creator, "__name__", repr(creator))
    return f"{name}: {describe()}" if callable(describe) else name


def _make_env(env_id: str, **kwargs: Any) -> Env[Any, Any]:
    """``make(env_id)``, first telling a vectorizer's name (``ray/actors``) from an env id."""
    host = get_host()
    if env_id in host.installed.declarations.vectorizers or env_id in host.loader.vectorizers:
        raise ValueError(
            f"{env_id!r} is a vectorizer, not an environment id: it runs envs, as in "
            f"palaestra bench CartPole-v1 --num-envs 4 --mode {env_id} (or make_vec(id, n, "
            f"vectorization_mode={env_id!r}))"
        )
    return make(env_id, **kwargs)


def _snapshot_support(env: Env[Any, Any]) -> str:
    """Whether the env takes snapshots, tried after a reset (state is set there)."""
    try:
        env.reset(seed=0)
        env.unwrapped.snapshot()
    except SnapshotNotSupported:
        return f"no ({env.unwrapped.snapshot_unsupported_reason})"
    except SnapshotError as e:
        return f"broken ({e})"
    return "yes"


class _Progress:
    """A one-line progress display on stderr, redrawn at most ten times a second; off unless a terminal."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.enabled = total, enabled and sys.stderr.isatty()
        self._next_draw = 0.0

    def show(self, episodes_done: int, steps: int, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now < self._next_draw:
            return
        self._next_draw = now + 0.1
        width = 30
        filled = int(width * episodes_done / max(self.total, 1))
        bar = "#" * filled + "." * (width - filled)
        print(
            f"\r[{bar}] episode {min(episodes_done + 1, self.total)}/{self.total}, step {steps}",
            end="",
            file=sys.stderr,
            flush=True,
        )

    def clear(self) -> None:
        if self.enabled:
            print("\r\x1b[K", end="", file=sys.stderr, flush=True)


def cmd_run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run a random agent for ``--episodes`` episodes; print each episode as it ends, then a summary.

    On a terminal a progress line (episode and step) is redrawn on stderr while it runs.
    """
    out = out or sys.stdout
    if args.episodes <= 0:
        raise ValueError(f"--episodes must be positive, got {args.episodes}")
    if args.seed is not None and args.seed < 0:
        raise ValueError(f"--seed must be a non-negative integer, got {args.seed}")
    kwargs: dict[str, Any] = {}
    if args.max_steps is not None:
        kwargs["max_episode_steps"] = args.max_steps
    env = _make_env(args.id, **kwargs)
    progress = _Progress(args.episodes, not args.no_progress)
    returns: list[float] = []
    lengths: list[int] = []
    start = time.perf_counter()
    try:
        if args.seed is not None:
            env.action_space.seed(args.seed)
        for episode in range(args.episodes):
            seed = None if args.seed is None else args.seed + episode
            total, length = _episode(env, seed, lambda steps, e=episode: progress.show(e, steps))
            returns.append(total)
            lengths.append(length)
            progress.clear()
            # Counted from 1, as the progress line counts them.
            print(f"episode {episode + 1}: return={total:.3f} length={length}", file=out, flush=True)
    finally:
        progress.clear()
        env.close()
    elapsed = time.perf_counter() - start
    mean = sum(returns) / len(returns)
    steps = sum(lengths)
    print(
        f"{args.id}: {len(returns)} episode{'' if len(returns) == 1 else 's'}, mean return {mean:.3f}, "
        f"min {min(returns):.3f}, max {max(returns):.3f}, {steps} steps, "
        f"{steps / max(elapsed, 1e-9):.0f} steps/s",
        file=out,
    )
    return 0


def _episode(env: Any, seed: int | None, tick: Any) -> tuple[float, int]:
    env.reset(seed=seed)
    total, length = 0.0, 0
    while True:
        _, reward, terminated, truncated, _ = env.step(env.action_space.sample())
        total += float(reward)
        length += 1
        tick(length)
        if terminated or truncated:
            return total, length


def cmd_bench(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Steps per second through ``make`` (or ``make_vec`` with ``--num-envs``), random actions."""
    from palaestra._tools._performance import benchmark_step  # start-up of the CLI (50 ms)

    out = out or sys.stdout
    if args.seconds <= 0:
        raise ValueError(f"--seconds must be positive, got {args.seconds}")
    if args.num_envs is None:
        if args.mode is not None:
            raise ValueError(
                f"--mode {args.mode} picks make_vec's vectorization, so it needs --num-envs N; "
                "without --num-envs, bench measures a single env through make()"
            )
        env = _make_env(args.id)
        try:
            rate = benchmark_step(env, target_duration=args.seconds, seed=0)
        finally:
            env.close()
        print(f"{args.id}: {rate:,.0f} steps/s through make()", file=out)
        return 0
    if args.num_envs <= 0:
        raise ValueError(f"--num-envs must be positive, got {args.num_envs}")
    rate, label = _vector_rate(args.id, args.num_envs, args.mode, args.seconds)
    print(f"{args.id}: {rate:,.0f} sub-env steps/s, {args.num_envs} envs in {label}", file=out)
    if args.mode == "async":
        sync_rate, _ = _vector_rate(args.id, args.num_envs, "sync", min(args.seconds, 1.0))
        note = async_note(args.id, sync_rate, rate)
        if note:
            print(note, file=out)
    return 0


def async_note(env_id: str, sync_rate: float, async_rate: float) -> str | None:
    """Why async measured slower than sync (None when it did not)."""
    if sync_rate <= async_rate:
        return None
    return (
        f"note: sync runs {sync_rate:,.0f} sub-env steps/s here, {sync_rate / async_rate:.1f}x async: one "
        f"{env_id} step takes about {1e6 / sync_rate:.0f} us, less than passing a step to worker "
        "processes and back costs. Async pays off for envs that take longer per step (tens of "
        "microseconds and up, e.g. MuJoCo, Box2D, Atari) or with more cores; for cheap envs "
        "use sync or the env's batched version (vectorization_mode='vector_entry_point')."
    )


def _vector_rate(env_id: str, num_envs: int, mode: str | None, seconds: float) -> tuple[float, str]:
    from palaestra._tools._performance import benchmark_vector_step  # start-up of the CLI (50 ms)

    envs = make_vec(env_id, num_envs=num_envs, vectorization_mode=mode)
    try:
        return benchmark_vector_step(envs, target_duration=seconds, seed=0), type(envs.unwrapped).__name__
    finally:
        envs.close()


def parse_action(text: str, action_space: Any, option: str) -> Any:
    """An action written as JSON: a number, or a list (made an array of the space's dtype)."""
    try:
        action = json.loads(text)
    except json.JSONDecodeError:
        raise ValueError(f"{option}: the action {text!r} is not a number or JSON list") from None
    if isinstance(action, list):
        return np.asarray(action, dtype=getattr(action_space, "dtype", None))
    return action


def parse_keys(pairs: list[str], action_space: Any) -> dict[str, Any] | None:
    """``["a=0", "wd=[1, 0.5]"]`` to ``play``'s ``keys_to_action``."""
    if not pairs:
        return None
    mapping: dict[str, Any] = {}
    for pair in pairs:
        keys, sep, value = pair.partition("=")
        if not sep or not keys:
            raise ValueError(f"--key expects KEYS=ACTION, e.g. --key a=0 or --key wd=[1,0.5]; got {pair!r}")
        mapping[keys] = parse_action(value, action_space, f"--key {pair!r}")
    return mapping


def cmd_play(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play the env with the keyboard in a window (Escape or closing the window quits)."""
    from palaestra._tools._play import (  # start-up of the CLI (1.9 ms)
        MissingKeysToAction,
        play,
    )  # pygame's keyboard, loaded when the command runs

    _require_display()
    env = make(args.id, render_mode="rgb_array")
    try:
        keys = parse_keys(args.key, env.action_space)
        noop = 0 if args.noop is None else parse_action(args.noop, env.action_space, "--noop")
        try:
            play(env, keys_to_action=keys, seed=args.seed, fps=args.fps, zoom=args.zoom, noop=noop)
        except MissingKeysToAction:
            raise ValueError(
                f"{args.id} has no keyboard mapping of its own; give one with --key, e.g. --key a=0 --key d=1"
            ) from None
    finally:
        env.close()
    return 0


def _require_display() -> None:
    """Refuse to play where no window can be seen (SDL would fall back to an invisible one)."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver in ("dummy", "offscreen"):
        raise ValueError(
            f"palaestra play needs a window, but SDL_VIDEODRIVER={driver!r} draws offscreen; unset it "
            "and run where there is a display (or record a video: palaestra.wrappers.RecordVideo)"
        )
    if sys.platform == "linux" and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise ValueError(
            "palaestra play needs a display, and none is available (DISPLAY and WAYLAND_DISPLAY are "
            "unset); run it on a desktop or through X forwarding, or record a video instead "
            "(palaestra.wrappers.RecordVideo)"
        )
