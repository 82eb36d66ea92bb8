"""Where a first CartPole step's milliseconds go inside the process, by part of palaestra.

``python -X importtime`` sees only ``import`` statements, not the modules palaestra's lazy
names load through ``importlib.import_module``; so each sample here is a fresh interpreter
that wraps the import system's module loader and times every module it executes (its own
time: finding and loading its children is theirs), then times the whole start from after
numpy's import to the first step's return. Bytecode is compiled first; medians of
``BENCH_ROUNDS`` (default 7) processes. docs/plugins.md ("What a first step costs") shows
the table this prints.
"""

from __future__ import annotations

import collections
import os
import statistics
import subprocess
import sys

from _common import compile_bytecode

SAMPLE = r"""
import time
import numpy, numpy.random
import importlib._bootstrap_external as external

stack, own = [], []
execute = external._LoaderBasics.exec_module


def timed(loader, module):
    start = time.perf_counter()
    stack.append(0.0)
    try:
        return execute(loader, module)
    finally:
        elapsed = time.perf_counter() - start
        children = stack.pop()
        own.append((module.__name__, elapsed - children))
        if stack:
            stack[-1] += elapsed


external._LoaderBasics.exec_module = timed
start = time.perf_counter()
import palaestra
env = palaestra.make("CartPole-v1")
env.reset(seed=0)
env.step(env.action_space.sample())
print("TOTAL", (time.perf_counter() - start) * 1e3)
for name, seconds in own:
    print("MODULE", name, seconds * 1e3)
"""

# (part, the module-name prefixes that make it up), first match wins.
PARTS = (
    ("palaestra_classic_control (hook module, CartPole, helpers)", ("palaestra_classic_control",)),
    (
        "discovery and the plugin host (cache, declared ids, hook calls, registrars)",
        ("palaestra._discovery", "palaestra._plugins", "palaestra.hookspecs", "palaestra._base._markers"),
    ),
    (
        "registry, ids, EnvSpec and the make pipeline",
        (
            "palaestra._registry",
            "palaestra._api",
            "palaestra._env._spec",
            "palaestra._base._ids",
            "palaestra._base._plain",
        ),
    ),
    ("make's wrappers and the passive env checker", ("palaestra.wrappers", "palaestra._env._passive_checks")),
    ("spaces (Space, Box, Discrete)", ("palaestra.spaces",)),
    ("palaestra.error", ("palaestra.error",)),
    (
        "what suites use (the kit, the canvas mixin, action checks)",
        ("palaestra._env._canvas", "palaestra._env._suite", "palaestra.plugin"),
    ),
    ("package, Env/Wrapper, seeding, logger, lazy exports", ("palaestra",)),
)
OTHER = "standard library beyond the floor"


def part_of(module: str) -> str:
    """The part a module belongs to (its name's first matching prefix)."""
    for part, prefixes in PARTS:
        if module.startswith(prefixes):
            return part
    return OTHER


def main() -> None:
    """Compile, sample, print the parts (modules, median ms) and the totals."""
    compile_bytecode()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PALAESTRA_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-c", SAMPLE], env=env, check=True, capture_output=True)  # warm-up
    totals, per_part, counts = [], collections.defaultdict(list), collections.Counter()
    for _ in range(int(os.environ.get("BENCH_ROUNDS", "7"))):
        out = subprocess.run(
            [sys.executable, "-c", SAMPLE], env=env, check=True, capture_output=True, text=True
        ).stdout
        sums: collections.Counter[str] = collections.Counter()
        counts.clear()
        for line in out.splitlines():
            kind, *rest = line.split()
            if kind == "TOTAL":
                totals.append(float(rest[0]))
            elif kind == "MODULE":
                part = part_of(rest[0])
                sums[part] += float(rest[1])
                counts[part] += 1
        for part in counts:
            per_part[part].append(sums[part])
    print("| part | modules | ms |\n|---|---:|---:|")
    medians = {part: statistics.median(values) for part, values in per_part.items()}
    for part, ms in sorted(medians.items(), key=lambda item: -item[1]):
        print(f"| {part} | {counts[part]} | {ms:.1f} |")
    imports = sum(medians.values())
    total = statistics.median(totals)
    print(
        f"\nfrom after numpy's import to the first step: {total:.1f} ms; {sum(counts.values())} modules "
        f"imported in {imports:.1f} ms (sum of the parts' medians), {total - imports:.1f} ms of work"
    )


if __name__ == "__main__":
    main()
