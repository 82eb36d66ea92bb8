"""What each lazy import seam of the core buys: the milliseconds a first step would pay without it.

A seam (an import inside a function, or a name a module's ``__getattr__`` loads) is kept only
where it defers an optional dependency or buys a measured start-up cost (docs/architecture.md,
"Lazy seams"). For each module a seam defers, a fresh interpreter takes the path a user's
first step takes (``make("CartPole-v1")``, ``reset``, ``step``; or ``make_vec`` for the vector
seams), then times importing that module: what the seam spares that path. Bytecode is compiled
first; medians of ``BENCH_ROUNDS`` (default 9) processes. A module the path already imported
costs nothing, and its seam buys nothing: those that bought under half a millisecond (the
metadata scanner, the built-in plugin, the compatibility wrapper, the trust check, the mask
checks, the recv engines, the CLI's checker) are plain imports now.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

from _common import compile_bytecode

SINGLE = (
    "import palaestra\n"
    "env = palaestra.make('CartPole-v1')\n"
    "env.reset(seed=0)\n"
    "env.step(env.action_space.sample())\n"
)
CLI = "import palaestra.cli._main\n"
SAMPLE = """
import importlib, sys, time
{path}
before = set(sys.modules)
start = time.perf_counter()
for name in {modules!r}:
    importlib.import_module(name)
elapsed = time.perf_counter() - start
print(elapsed * 1e3, len(set(sys.modules) - before))
"""

#: (what the seam defers, the path it is measured after, the modules it defers).
SEAMS = [
    ("the vector package, for make_vec (palaestra._api)", SINGLE, ["palaestra._registry._make_vec"]),
    ("every wrapper (palaestra.wrappers' lazy names)", SINGLE, ["palaestra.wrappers._all"]),
    ("the ten spaces and spaces.utils (palaestra.spaces' lazy names)", SINGLE, ["palaestra.spaces._all"]),
    ("the plugin kit's names (palaestra.plugin)", SINGLE, ["palaestra.plugin._all"]),
    ("importlib.metadata, for __version__", SINGLE, ["importlib.metadata"]),
    ("snapshots (palaestra._env._snapshot)", SINGLE, ["palaestra._env._snapshot"]),
    ("json (EnvSpec.to_json/from_json)", SINGLE, ["json"]),
    ("difflib (did-you-mean on error paths)", SINGLE, ["difflib"]),
    (
        "the not-found explainer and the suites catalogue",
        SINGLE,
        ["palaestra._registry._not_found", "palaestra._discovery._suites"],
    ),
    ("pluggy (hooks beyond plain functions)", SINGLE, ["pluggy"]),
    ("tempfile (SDL's runtime folder, for pygame)", SINGLE, ["tempfile"]),
    ("the rendering wrappers make adds for missing render modes", SINGLE, ["palaestra.wrappers._rendering"]),
    ("version matching (discovery's scanner)", SINGLE, ["palaestra._discovery._compat"]),
    ("the step timers (palaestra bench)", CLI, ["palaestra._tools._performance"]),
    ("play (palaestra play)", CLI, ["palaestra._tools._play"]),
]

#: Pseudo-modules: import every lazy name of a package.
EXPANSIONS = {
    "palaestra.wrappers._all": "import palaestra.wrappers as w\nfor n in w.__all__: getattr(w, n)\n",
    "palaestra.spaces._all": "import palaestra.spaces as s\nfor n in s.__all__: getattr(s, n)\ns.utils\n",
    "palaestra.plugin._all": "import palaestra.plugin as p\nfor n in p.__all__: getattr(p, n)\n",
}


def sample(path: str, modules: list[str]) -> tuple[float, int]:
    """One fresh process: ``path``, then the import of ``modules``: (ms, modules newly loaded)."""
    real = [m for m in modules if m not in EXPANSIONS]
    extra = "".join(EXPANSIONS[m] for m in modules if m in EXPANSIONS)
    code = SAMPLE.format(path=path, modules=real)
    if extra:
        code = code.replace("for name in", extra + "for name in", 1)  # the package names first
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env)
    ms, count = out.stdout.split()
    return float(ms), int(count)


def main() -> None:
    """Compile, then time each seam's modules after the path it sits off."""
    compile_bytecode()
    rounds = int(os.environ.get("BENCH_ROUNDS", "9"))
    print(f"{'what the seam defers':72s} {'ms':>6s} {'modules':>8s}")
    for label, path, modules in SEAMS:
        samples = [sample(path, modules) for _ in range(rounds)]
        ms = statistics.median(s[0] for s in samples)
        count = statistics.median(s[1] for s in samples)
        print(f"{label:72s} {ms:6.2f} {count:8.0f}")


if __name__ == "__main__":
    main()
