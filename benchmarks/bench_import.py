"""Whole-process import time of palaestra vs gymnasium (goal: palaestra <= 0.6x)."""

import statistics
import subprocess
import sys
import time

RUNS = 15


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
    lookup = process_time("import palaestra; palaestra.spec('CartPole-v1')")
    print(f"interpreter start: {baseline * 1e3:.1f} ms")
    print(f"import gymnasium:  {gym * 1e3:.1f} ms")
    print(f"import palaestra:  {ours * 1e3:.1f} ms  ratio {ours / gym:.2f} (goal <= 0.60)")
    print(
        f"import + find the owner of 'CartPole-v1' (plugin discovery): {lookup * 1e3:.1f} ms "
        f"(+{(lookup - ours) * 1e3:.1f} ms)"
    )


if __name__ == "__main__":
    main()
