"""Space sample()/contains() per call vs Gymnasium (goal: Box(-1,1,(6,)) sample >= 5x)."""

import sys
import warnings
from pathlib import Path

import gymnasium.spaces as gs
import numpy as np

import palaestra.spaces as ps

sys.path.insert(0, str(Path(__file__).parent))
from _common import per_call, report


def spaces(m):
    """The benchmarked spaces, built from module ``m``."""
    return {
        "Box(-1, 1, (6,), float32)": m.Box(-1, 1, (6,), np.float32),
        "Box unbounded (6,)": m.Box(-np.inf, np.inf, (6,), np.float32),
        "Box uint8 image (84, 84, 3)": m.Box(0, 255, (84, 84, 3), np.uint8),
        "Discrete(6)": m.Discrete(6),
        "MultiDiscrete([3, 4, 5])": m.MultiDiscrete([3, 4, 5]),
        "Dict(pos: Box, id: Discrete)": m.Dict({"pos": m.Box(-1, 1, (3,)), "id": m.Discrete(4)}),
        "Tuple(Discrete, Box)": m.Tuple([m.Discrete(3), m.Box(0, 1, (2,))]),
    }


def main() -> None:
    """Time sample() and contains() for each space, checking the streams agree."""
    warnings.simplefilter("ignore")
    ref, ours = spaces(gs), spaces(ps)
    for name in ref:
        ref[name].seed(0)
        ours[name].seed(0)
        a, b = ref[name].sample(), ours[name].sample()
        assert str(a) == str(b), f"streams differ for {name}"
        number = 200 if "image" in name else 20000
        goal = 5.0 if name.startswith("Box(-1") else 1.0
        report(
            f"sample   {name}",
            per_call(ref[name].sample, number),
            per_call(ours[name].sample, number),
            goal=goal,
        )
        x = a
        report(
            f"contains {name}",
            per_call(lambda r=ref[name], x=x: r.contains(x), number),
            per_call(lambda o=ours[name], x=x: o.contains(x), number),
            goal=1.0,
        )


if __name__ == "__main__":
    main()
