"""Whole-process import time of palaestra vs gymnasium (goal: palaestra <= 0.6x)."""

import statistics
import subprocess
import sys
import time

RUNS = 15

# numpy and the core are imported first: make() needs them anyway, and they are not discovery.
DISCOVERY = """
import time, palaestra, palaestra._env._core, palaestra._api
start = time.perf_counter()
palaestra.get_host().registry.find_spec("CartPole-v1")
print(f"{(time.perf_counter() - start) * 1e3:.1f} ms")
"""


def process_time(code: str) -> float:
    """Median wall-clock seconds of a fresh interpreter running ``code``."""
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    """Print both import times, the ratio and the cost of resolving an un-namespaced id."""
    baseline = process_time("pass")
    gym = process_time("import gymnasium")
    ours = process_time("import palaestra")
    discovery = subprocess.run(
        [sys.executable, "-c", DISCOVERY], check=True, capture_output=True, text=True
    ).stdout.strip()
    print(f"interpreter start: {baseline * 1e3:.1f} ms")
    print(f"import gymnasium:  {gym * 1e3:.1f} ms")
    print(f"import palaestra:  {ours * 1e3:.1f} ms  ratio {ours / gym:.2f} (goal <= 0.60)")
    print(f"finding the owner of an un-namespaced id (entry points + hook modules): {discovery}")


if __name__ == "__main__":
    main()
