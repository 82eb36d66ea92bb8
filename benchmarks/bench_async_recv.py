"""Asynchronous stepping (send/recv of the first k ready) against full-batch step, on latency-bound envs.

Each sub-env's step waits for a time drawn from an exponential distribution (mean 2 ms) or a
heavy-tailed one (Pareto, shape 1.5, the same mean), as an env behind a simulator, a remote
service or a tool call would; the waiting leaves the CPU free, so two cores suffice for 64 of
them. Measured, on the same envs and draws:

- palaestra's ``AsyncVectorEnv`` (one worker per sub-env): full-batch ``step``, and
  ``send``/``recv`` with ``batch_size`` k = N/4 and N/2 (and N, which must cost nothing);
- Gymnasium 1.4.0's ``AsyncVectorEnv`` ``step``;
- Tianshou's ``SubprocVectorEnv`` with ``wait_num=k``, when Tianshou is installed;

and, to show that send/recv costs nothing where steps are CPU-bound, CartPole-v1 and
HalfCheetah-v5 with k = N. Prints env-steps per second (rounds of the contenders
interleaved, best round kept) and ratios.

    python benchmarks/bench_async_recv.py [--seconds 3] [--sizes 16 64]
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import palaestra
from palaestra import spaces

MEAN_SECONDS = 0.002


class LatencyEnv(palaestra.Env):
    """An env whose step waits a random time (most of a real remote env's step is waiting)."""

    def __init__(self, index: int = 0, tail: str = "exponential") -> None:
        self.observation_space = spaces.Box(-1.0, 1.0, (8,), np.float32)
        self.action_space = spaces.Discrete(2)
        self.tail = tail
        self.delays = np.random.default_rng(1000 + index)
        self.t = 0

    def _delay(self) -> float:
        if self.tail == "exponential":
            return float(self.delays.exponential(MEAN_SECONDS))
        # Pareto with shape 1.5 has mean 3 * scale; heavy tail, capped at 50 means
        return float(min(self.delays.pareto(1.5) * MEAN_SECONDS / 2 + MEAN_SECONDS / 3, 50 * MEAN_SECONDS))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start an episode (no wait)."""
        super().reset(seed=seed)
        self.t = 0
        return np.zeros(8, np.float32), {}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Wait the drawn time, then step (an episode lasts 100 steps)."""
        time.sleep(self._delay())
        self.t += 1
        return np.full(8, self.t % 7 / 7, np.float32), 1.0, self.t % 100 == 0, False, {}


def gymnasium_latency_env(index: int, tail: str) -> Any:
    import gymnasium

    class GymLatencyEnv(gymnasium.Env):
        def __init__(self) -> None:
            self.inner = LatencyEnv(index, tail)
            self.observation_space = gymnasium.spaces.Box(-1.0, 1.0, (8,), np.float32)
            self.action_space = gymnasium.spaces.Discrete(2)

        def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
            return self.inner.reset(seed=seed)

        def step(self, action: Any) -> Any:
            return self.inner.step(action)

    return GymLatencyEnv()


def rate_of(run: Callable[[float], int], seconds: float) -> float:
    """Env-steps per second of ``run`` (which steps for about ``seconds`` and returns its count)."""
    start = time.perf_counter()
    count = run(seconds)
    return count / (time.perf_counter() - start)


def full_batch(envs: Any, n: int, actions: Any = None) -> Callable[[float], int]:
    envs.reset(seed=0)
    actions = np.zeros(n, dtype=np.int64) if actions is None else actions

    def run(seconds: float) -> int:
        end, count = time.perf_counter() + seconds, 0
        while time.perf_counter() < end:
            envs.step(actions)
            count += n
        return count

    return run


def palaestra_recv(envs: Any, k: int) -> Callable[[float], int]:
    envs.batch_size = k
    envs.async_reset(seed=0)
    actions = np.zeros(k, dtype=np.int64)

    def run(seconds: float) -> int:
        end, count = time.perf_counter() + seconds, 0
        while time.perf_counter() < end:
            info = envs.recv()[4]
            envs.send(actions, info["env_id"])
            count += k
        return count

    return run


def tianshou_wait(n: int, k: int, tail: str) -> Callable[[float], int] | None:
    try:
        from tianshou.env import SubprocVectorEnv
    except ImportError:
        return None
    envs = SubprocVectorEnv([lambda i=i: gymnasium_latency_env(i, tail) for i in range(n)], wait_num=k)
    envs.reset()
    ready = np.arange(n)

    def run(seconds: float) -> int:
        nonlocal ready
        end, count = time.perf_counter() + seconds, 0
        while time.perf_counter() < end:
            result = envs.step(np.zeros(len(ready), dtype=np.int64), id=ready)
            ready = (
                np.asarray(result[-1]["env_id"])
                if isinstance(result[-1], dict)
                else np.array([info["env_id"] for info in result[-1]])
            )
            count += len(ready)
        return count

    run.close = envs.close  # type: ignore[attr-defined]
    return run


def latency_rows(n: int, tail: str, seconds: float, rounds: int) -> list[tuple[str, float]]:
    import gymnasium

    fns = [lambda i=i: LatencyEnv(i, tail) for i in range(n)]
    ours_step = palaestra.vector.AsyncVectorEnv(fns, num_workers=n)
    ours_recv = {k: palaestra.vector.AsyncVectorEnv(fns, num_workers=n) for k in (n // 4, n // 2, n)}
    theirs = gymnasium.vector.AsyncVectorEnv([lambda i=i: gymnasium_latency_env(i, tail) for i in range(n)])
    contenders: dict[str, Callable[[float], int]] = {
        "palaestra step": full_batch(ours_step, n),
        **{f"palaestra recv k={k}": palaestra_recv(envs, k) for k, envs in ours_recv.items()},
        "Gymnasium step": full_batch(theirs, n),
    }
    for k in (n // 4, n // 2):
        tianshou = tianshou_wait(n, k, tail)
        if tianshou is not None:
            contenders[f"Tianshou wait_num={k}"] = tianshou
    best = dict.fromkeys(contenders, 0.0)
    for _ in range(rounds):
        for name, run in contenders.items():
            best[name] = max(best[name], rate_of(run, seconds))
    for envs in (ours_step, *ours_recv.values(), theirs):
        envs.close()
    for run in contenders.values():
        close = getattr(run, "close", None)
        if close is not None:
            close()
    return list(best.items())


def cpu_rows(seconds: float, rounds: int) -> list[tuple[str, float]]:
    rows = []
    for env_id, n in (("CartPole-v1", 16), ("HalfCheetah-v5", 8)):
        step_envs = palaestra.make_vec(env_id, n, vectorization_mode="async")
        recv_envs = palaestra.make_vec(env_id, n, vectorization_mode="async")
        contenders = {
            f"{env_id} step": _sampled_step(step_envs, n),
            f"{env_id} recv k=N": _sampled_recv(recv_envs),
        }
        best = dict.fromkeys(contenders, 0.0)
        for _ in range(rounds):
            for name, run in contenders.items():
                best[name] = max(best[name], rate_of(run, seconds))
        rows += list(best.items())
        step_envs.close()
        recv_envs.close()
    return rows


def _sampled_step(envs: Any, n: int) -> Callable[[float], int]:
    return full_batch(envs, n, envs.action_space.sample())


def _sampled_recv(envs: Any) -> Callable[[float], int]:
    envs.async_reset(seed=0)
    actions = envs.action_space.sample()

    def run(seconds: float) -> int:
        end, count = time.perf_counter() + seconds, 0
        while time.perf_counter() < end:
            info = envs.recv()[4]
            envs.send(actions, info["env_id"])
            count += len(info["env_id"])
        return count

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 64])
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print(f"env-steps/s, best of {args.rounds} interleaved rounds of {args.seconds:g} s (2-core machine)")
    for tail in ("exponential", "heavy-tailed"):
        for n in args.sizes:
            rows = latency_rows(n, tail, args.seconds, args.rounds)
            base = dict(rows)["palaestra step"]
            print(f"\n{tail} step times (mean {MEAN_SECONDS * 1e3:g} ms), N={n}:")
            for name, rate in rows:
                print(f"  {name:28s} {rate:10,.0f}   {rate / base:5.2f}x palaestra step")
    print("\nCPU-bound steps (send/recv with k = N against step):")
    rows = cpu_rows(args.seconds, args.rounds)
    for name, rate in rows:
        print(f"  {name:28s} {rate:10,.0f}")
    try:
        import tianshou  # noqa: F401
    except ImportError:
        print("\n(Tianshou rows appear when tianshou is installed: pip install tianshou)")


if __name__ == "__main__":
    main()
