"""RLlib PPO on a palaestra env through the Gymnasium bridge, its env runners on the Ray cluster.

RLlib makes each env runner's envs with ``gymnasium.make(id)``; the module form of the id,
``palaestra_gymnasium:palaestra/CartPole-v1``, makes every runner import the bridge first,
which registers palaestra's ids with Gymnasium (whatever Gymnasium RLlib brings: it pins
gymnasium 1.2.2, so give RLlib a virtual environment of its own; ``nox -s rllib`` builds one).

    python examples/rllib_ppo.py [--env-id palaestra_gymnasium:palaestra/CartPole-v1]
        [--iterations 8] [--env-runners 2] [--address auto] [--goal 150]

``--address auto`` joins a running cluster (see docs/ray.md, "Running on several machines");
without it Ray starts on this machine. Prints each iteration's mean episode return and exits
non-zero unless the best reaches ``--goal``.
Needs ``ray[rllib]``, torch and ``palaestra[classic-control,gymnasium]`` on every node.
The default 8 iterations take about a minute on a 2-core machine, Ray's start included (CI runs
them in ``nox -s rllib``, whose venv takes a few minutes to build the first time).
"""

import argparse
import os
import sys

os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")  # workers use this interpreter

import ray
from ray.rllib.algorithms.ppo import PPOConfig


def main() -> int:
    """Train and report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-id", default="palaestra_gymnasium:palaestra/CartPole-v1")
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--env-runners", type=int, default=2)
    parser.add_argument("--address", default=None, help='"auto" (or an address) to join a cluster')
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--goal", type=float, default=float("-inf"), help="mean return to reach")
    args = parser.parse_args()

    ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
    config = (
        PPOConfig()
        .environment(args.env_id)
        .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=2)
        .training(lr=3e-4, train_batch_size_per_learner=2000, minibatch_size=250, num_epochs=6)
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    best = float("-inf")
    try:
        for iteration in range(args.iterations):
            result = algo.train()
            mean_return = result["env_runners"].get("episode_return_mean", float("nan"))
            best = max(best, mean_return)
            print(f"iteration {iteration + 1}: mean episode return {mean_return:.1f}", flush=True)
    finally:
        algo.stop()
        ray.shutdown()
    print(f"best mean return {best:.1f} (goal {args.goal:g})")
    return 0 if best >= args.goal else 1


if __name__ == "__main__":
    sys.exit(main())
