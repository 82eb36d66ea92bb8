"""RayVectorEnv beside AsyncVectorEnv and Gymnasium's SyncVectorEnv, in one run.

No goal: this shows where the Ray round trip (about a millisecond per step) stops
mattering. Ray starts locally with this machine's CPUs.
"""

import os
import sys
import warnings
from pathlib import Path

os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")  # workers use this interpreter

import gymnasium
import numpy as np
import ray

import palaestra
from palaestra.vector import AsyncVectorEnv
from palaestra_ray import RayVectorEnv

sys.path.insert(0, str(Path(__file__).parent.parent))
from benchmarks.bench_vector import play_round

N = 8


def rates(envs, actions, steps=200, rounds=3):
    """Env-steps per second of each vector env, best round, rounds alternating."""
    best = [float("inf")] * len(envs)
    for _ in range(rounds):
        for k, env in enumerate(envs):
            best[k] = min(best[k], play_round(env, steps, actions))
    for env in envs:
        env.close()
    return [steps * N / seconds for seconds in best]


def main() -> None:
    """Print env-steps/s of the three vectorizers on a cheap and a heavy env."""
    warnings.simplefilter("ignore")
    ray.init(include_dashboard=False, log_to_driver=False)
    for env_id, actions in (
        ("CartPole-v1", np.array([i % 2 for i in range(N)])),
        ("HalfCheetah-v5", np.full((N, 6), 0.3, dtype=np.float32)),
    ):
        gym_fns = [lambda env_id=env_id: gymnasium.make(env_id)] * N
        fns = [lambda env_id=env_id: palaestra.make(env_id)] * N
        gym_sync, ours_async, ours_ray = rates(
            [gymnasium.vector.SyncVectorEnv(gym_fns), AsyncVectorEnv(fns), RayVectorEnv(fns)], actions
        )
        print(
            f"{env_id} x{N}: gymnasium sync {gym_sync:9.0f}/s  palaestra async {ours_async:9.0f}/s  "
            f"palaestra ray {ours_ray:9.0f}/s  (ray/gymnasium-sync x{ours_ray / gym_sync:.2f})"
        )
    ray.shutdown()


if __name__ == "__main__":
    main()
