"""RayVectorEnv beside AsyncVectorEnv and Gymnasium's SyncVectorEnv, then on a two-node cluster.

No goal: this shows where the Ray round trip stops mattering. First Ray starts locally with
this machine's CPUs; then two ``ray start`` nodes on this machine (a head and a second
node, one CPU each, see tests/fixtures/ray_cluster.py) run one actor each, and the run
reports the round trip (a step of one CartPole per actor) and env-steps/s for CartPole and
HalfCheetah with 1 and 4 sub-envs per actor (docs/ray.md quotes these).
"""

import os
import shutil
import sys
import time
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
from tests.fixtures.ray_cluster import TwoNodes

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
    two_nodes()


def two_nodes() -> None:
    """Round trip and env-steps/s with one actor on each of two nodes."""
    cluster = TwoNodes(shutil.which("ray", path=str(Path(sys.executable).parent)) or "ray")
    cluster.start()
    os.environ["RAY_AUTH_MODE"] = "token"
    try:
        ray.init(address=cluster.address, log_to_driver=False)
        for env_id, action in (("CartPole-v1", 1), ("HalfCheetah-v5", np.full(6, 0.3, dtype=np.float32))):
            for per_actor in (1, 4):
                n = 2 * per_actor
                envs = RayVectorEnv(
                    [lambda env_id=env_id: palaestra.make(env_id)] * n,
                    num_actors=2,
                    actor_options={"num_cpus": 1},
                    placement="spread",
                )
                assert len(set(envs.actor_nodes())) == 2
                actions = np.stack([action] * n)
                envs.reset(seed=0)
                best = float("inf")
                for _ in range(5):
                    start = time.perf_counter()
                    for _ in range(200):
                        envs.step(actions)
                    best = min(best, (time.perf_counter() - start) / 200)
                envs.close()
                print(
                    f"two nodes, {env_id}, {per_actor} sub-env(s) per actor: {best * 1e3:6.2f} ms per step "
                    f"(round trip), {n / best:8.0f} env-steps/s"
                )
    finally:
        ray.shutdown()
        cluster.stop()


if __name__ == "__main__":
    main()
