"""Q-learning from asynchronous stepping: learn Taxi-v4 with send/recv on slow, uneven envs.

Each sub-env waits a random time per step (exponential, mean 1 ms), as an env behind a remote
simulator would. The loop is EnvPool's asynchronous one: ``recv()`` returns the first
``--batch-size`` sub-envs ready, the agent picks their actions, ``send()`` steps them, and the
Q-table learns from each transition as it comes (Q-learning is off-policy: the order of
transitions does not matter). It prints progress, the speed of send/recv against full-batch
``step`` on the same envs, and the greedy policy's mean return; it exits non-zero below
``--goal``.

    uvx nox -s example -- async_q_learning.py [--steps 300000] [--num-envs 16] [--batch-size 4]

(or ``python examples/async_q_learning.py`` in the workspace venv: it needs numpy only.)
It runs for about a minute on a 2-core machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

import palaestra


class Latency(palaestra.Wrapper):
    """Wait a random time before each step, like a remote simulator (the waiting takes no CPU)."""

    def __init__(self, env: Any, mean: float, index: int) -> None:
        super().__init__(env)
        self.mean = mean
        self.delays = np.random.default_rng(10_000 + index)

    def step(self, action: Any) -> Any:
        """Wait, then step."""
        time.sleep(self.delays.exponential(self.mean))
        return self.env.step(action)


def slow_taxi(index: int, mean: float) -> Any:
    """Taxi-v4 behind a random wait per step."""
    return Latency(palaestra.make("Taxi-v4"), mean, index)


def make_envs(args: argparse.Namespace) -> Any:
    """One worker per slow Taxi: they wait in parallel, and the waiting takes no CPU."""
    import functools

    fns = [functools.partial(slow_taxi, i, args.latency) for i in range(args.num_envs)]
    return palaestra.vector.AsyncVectorEnv(fns, num_workers=args.num_envs, autoreset_mode="SameStep")


def learn(args: argparse.Namespace) -> tuple[np.ndarray, float]:
    """Q-learning on send/recv; the table and the env-steps per second."""
    envs = make_envs(args)
    q = np.zeros((500, 6))
    rng = np.random.default_rng(args.seed)
    envs.batch_size = args.batch_size
    envs.async_reset(seed=args.seed)
    done_steps, report, start = 0, args.steps // 10, time.perf_counter()
    returns: list[float] = []
    running = np.zeros(args.num_envs)
    pending: dict[int, tuple[int, int]] = {}  # sub-env -> the state and action it was sent with
    obs, _, _, _, info = envs.recv()
    while done_steps < args.steps:
        ids = info["env_id"]
        epsilon = max(0.05, 1.0 - done_steps / (0.6 * args.steps))
        greedy = q[obs].argmax(axis=1)
        actions = np.where(rng.random(len(ids)) < epsilon, rng.integers(0, 6, len(ids)), greedy)
        envs.send(actions, ids)
        next_obs, rewards, terminated, truncated, info = envs.recv()
        # recv may return other sub-envs than those just sent: learn from each as it comes,
        # keyed by env_id (the state and action each sub-env was sent with are remembered).
        for row, i in enumerate(info["env_id"].tolist()):
            if i in pending:
                state, action = pending.pop(i)
                ended = terminated[row] or truncated[row]
                landed = info["final_obs"][row] if ended else next_obs[row]
                target = rewards[row] + (0.0 if terminated[row] else args.gamma * q[landed].max())
                q[state, action] += args.alpha * (target - q[state, action])
                running[i] += rewards[row]
                if ended:
                    returns.append(running[i])
                    running[i] = 0.0
        for i, state, action in zip(ids.tolist(), obs.tolist(), actions.tolist(), strict=True):
            pending[i] = (state, action)
        obs = next_obs
        done_steps += len(ids)
        if done_steps >= report:
            report += args.steps // 10
            recent = np.mean(returns[-100:]) if returns else float("nan")
            rate = done_steps / (time.perf_counter() - start)
            print(
                f"{done_steps:8,d} steps, {rate:7,.0f} steps/s, mean return of the last 100 episodes {recent:7.2f}",
                flush=True,
            )
    rate = done_steps / (time.perf_counter() - start)
    envs.close()
    return q, rate


def full_batch_rate(args: argparse.Namespace, seconds: float = 3.0) -> float:
    """Env-steps per second of full-batch ``step`` on the same slow envs (random actions)."""
    envs = make_envs(args)
    envs.reset(seed=args.seed)
    actions = np.zeros(args.num_envs, dtype=np.int64)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        envs.step(actions)
        count += args.num_envs
    rate = count / (time.perf_counter() - start)
    envs.close()
    return rate


def evaluate(q: np.ndarray, episodes: int, seed: int) -> float:
    """The greedy policy's mean return (no waiting)."""
    env = palaestra.make("Taxi-v4")
    total = 0.0
    for episode in range(episodes):
        obs, _ = env.reset(seed=seed + episode)
        while True:
            obs, reward, terminated, truncated, _ = env.step(int(q[obs].argmax()))
            total += float(reward)
            if terminated or truncated:
                break
    return total / episodes


def main() -> int:
    """Learn, compare speeds, evaluate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300_000)
    parser.add_argument("--num-envs", type=int, default=16)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--latency", type=float, default=0.001, help="mean seconds a step waits")
    parser.add_argument("--alpha", type=float, default=0.1)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--goal", type=float, default=5.0, help="greedy mean return to reach")
    args = parser.parse_args()
    print(
        f"Q-learning on {args.num_envs} slow Taxi-v4 envs, recv of the first {args.batch_size} ready",
        flush=True,
    )
    q, rate = learn(args)
    baseline = full_batch_rate(args)
    print(
        f"send/recv: {rate:,.0f} env-steps/s; full-batch step on the same envs: {baseline:,.0f} ({rate / baseline:.2f}x)"
    )
    mean_return = evaluate(q, 50, args.seed)
    reached = mean_return >= args.goal
    verdict = "reached" if reached else "did NOT reach"
    print(f"greedy policy: mean return {mean_return:.2f} over 50 episodes ({verdict} {args.goal:g})")
    return 0 if reached else 1


if __name__ == "__main__":
    sys.exit(main())
