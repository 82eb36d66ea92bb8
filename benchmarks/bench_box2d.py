"""Box2D envs vs Gymnasium: single-env steps through make().

Goals: LunarLander-v3 and BipedalWalker-v3 >= 1.2x (the physics, Box2D itself, is shared).
"""

import sys
import warnings
from pathlib import Path

import gymnasium

import palaestra

sys.path.insert(0, str(Path(__file__).parent))
from _common import per_call_pair, report
from bench_classic_control import stepper

GOALS = {"LunarLander-v3": 1.2, "BipedalWalker-v3": 1.2}
IDS = [
    "LunarLander-v3",
    "LunarLanderContinuous-v3",
    "BipedalWalker-v3",
    "BipedalWalkerHardcore-v3",
    "CarRacing-v3",
]


def main() -> None:
    """Time one step through the full make() wrapper stack for each env."""
    warnings.simplefilter("ignore")
    for env_id in IDS:
        number = 500 if env_id.startswith("CarRacing") else 10000  # Gymnasium's draws a big frame per step
        reference, ours = per_call_pair(stepper(gymnasium, env_id), stepper(palaestra, env_id), number)
        report(f"step {env_id}", reference, ours, goal=GOALS.get(env_id))


if __name__ == "__main__":
    main()
