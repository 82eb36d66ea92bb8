"""Registries at ecosystem scale: a plugin with thousands of ids, registered and listed.

A fake installed plugin declares and registers N ids (``big/Env<i>-v0``) in a temporary
site folder. For each N this measures, in fresh processes:

- *register*: loading the plugin (its hook registers N specs) with palaestra, beside
  Gymnasium registering the same N ids with ``gymnasium.register``;
- *list*: ``palaestra list`` as a whole process (declarations only: no plugin import);
- *len + in*: ``len(registry)`` and a membership test in a fresh process.

Goal: 10,000 ids registered and listed in <= 1 s each.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import compile_bytecode

SIZES = (1_000, 2_000, 4_000, 8_000, 10_000)
ROUNDS = 3

REGISTER_PALAESTRA = """
import time, palaestra
start = time.perf_counter()
palaestra.get_host().loader.load_namespace("big")
print(time.perf_counter() - start)
"""
REGISTER_GYMNASIUM = """
import time, gymnasium
start = time.perf_counter()
for i in range({n}):
    gymnasium.register(f"big/Env{{i}}-v0", entry_point="big_envs.env:Env")
print(time.perf_counter() - start)
"""
LEN_IN = """
import time, palaestra
start = time.perf_counter()
assert len(palaestra.registry) >= {n} and "big/Env7-v0" in palaestra.registry
print(time.perf_counter() - start)
"""


def make_plugin(site: Path, n: int) -> None:
    """A distribution ``big-envs`` declaring and registering ``n`` ids."""
    info = site / "big_envs-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: big-envs\nVersion: 1.0\n")
    ids = "\n".join(f"big/Env{i}-v0 = big" for i in range(n))
    (info / "entry_points.txt").write_text(
        f"[palaestra.plugins]\nbig = big_envs._hooks\n\n[palaestra.env_ids]\n{ids}\n"
    )
    package = site / "big_envs"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "_hooks.py").write_text(
        "from palaestra import hookimpl\n\n\n@hookimpl\ndef palaestra_register_envs(registrar):\n"
        f"    for i in range({n}):\n"
        "        registrar.register(f'Env{i}-v0', entry_point='big_envs.env:Env')\n"
    )


def run(code: str, env: dict[str, str]) -> float:
    """The seconds the snippet prints (timed inside the process)."""
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def wall(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def measure(n: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder) / "site"
        make_plugin(site, n)
        env = {k: v for k, v in os.environ.items() if not k.startswith("PALAESTRA_")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPATH"] = str(site)
        env["PALAESTRA_CACHE_DIR"] = str(Path(folder) / "cache")
        wall(["-m", "palaestra.cli", "list"], env)  # writes the discovery cache once
        samples: dict[str, list[float]] = {"register": [], "gymnasium register": [], "list": [], "len+in": []}
        for _ in range(ROUNDS):
            samples["register"].append(run(REGISTER_PALAESTRA, env))
            samples["gymnasium register"].append(run(REGISTER_GYMNASIUM.format(n=n), env))
            samples["list"].append(wall(["-m", "palaestra.cli", "list"], env))
            samples["len+in"].append(run(LEN_IN.format(n=n), env))
        return {key: statistics.median(values) for key, values in samples.items()}


def main() -> None:
    compile_bytecode()
    print(f"Registry scale (medians of {ROUNDS}; seconds; `list` is a whole process)")
    print(f"{'ids':>7} {'register':>9} {'gymnasium':>10} {'list':>7} {'len+in':>7}")
    for n in SIZES:
        m = measure(n)
        print(
            f"{n:>7} {m['register']:>9.3f} {m['gymnasium register']:>10.3f} {m['list']:>7.3f} {m['len+in']:>7.3f}"
        )
    print("goal: 10,000 ids registered and listed in <= 1 s each")


if __name__ == "__main__":
    main()
