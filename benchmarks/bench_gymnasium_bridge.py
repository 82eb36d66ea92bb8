"""The Gymnasium bridge's cost per step, and what Gymnasium users gain through it.

Goal: a CartPole step through ``to_gymnasium`` (and through ``gymnasium.make("palaestra/...")``)
costs at most 5% more than the same step through ``palaestra.make``.
"""

import sys
import warnings
from pathlib import Path

import gymnasium

import palaestra
import palaestra_gymnasium

sys.path.insert(0, str(Path(__file__).parent))
from _common import per_call_pair

BUDGET = 1.05  # bridged step time / plain step time


def stepper(env):
    """A zero-argument function stepping ``env`` with alternating actions."""
    env.reset(seed=0)
    state = {"i": 0}

    def step():
        state["i"] ^= 1
        _, _, terminated, truncated, _ = env.step(state["i"])
        if terminated or truncated:
            env.reset()

    return step


def compare(label: str, plain, bridged) -> None:
    """Print the plain and bridged step times and the overhead against the budget."""
    t_plain, t_bridged = per_call_pair(stepper(plain), stepper(bridged), 50000, repeat=9)
    ratio = t_bridged / t_plain
    verdict = "ok" if ratio <= BUDGET else f"OVER BUDGET {BUDGET:g}"
    print(
        f"{label:52s} plain {t_plain * 1e6:6.2f}us  bridged {t_bridged * 1e6:6.2f}us  x{ratio:5.3f}  {verdict}"
    )


def main() -> None:
    """Bridge overhead on CartPole: the adapter alone, and Gymnasium's make around it."""
    warnings.simplefilter("ignore")
    compare(
        "to_gymnasium(palaestra.make('CartPole-v1'))",
        palaestra.make("CartPole-v1"),
        palaestra_gymnasium.to_gymnasium(palaestra.make("CartPole-v1")),
    )
    t_gym, t_ours = per_call_pair(
        stepper(gymnasium.make("CartPole-v1")),
        stepper(gymnasium.make("palaestra/CartPole-v1")),
        50000,
        repeat=9,
    )
    print(
        f"{'gymnasium.make: palaestra/CartPole-v1 vs CartPole-v1':52s} gymnasium {t_gym * 1e6:6.2f}us  "
        f"palaestra {t_ours * 1e6:6.2f}us  speed-up x{t_gym / t_ours:5.2f}"
    )


if __name__ == "__main__":
    main()
