"""Every MiniGrid and BabyAI env comes through the bridge.

Each is made by its Gymnasium id (no module named) and stepped, with the same observations as
Gymnasium's for the same seed and actions.

MiniGrid's spaces include its own ``MissionSpace``, which palaestra carries as it is
(``palaestra_gymnasium.GymnasiumSpace``) while the standard spaces are rebuilt exactly.
"""

import subprocess
import sys
import warnings

import numpy as np
import pytest

minigrid = pytest.importorskip("minigrid", reason="MiniGrid is not installed (pip install minigrid)")

import gymnasium  # noqa: E402

import palaestra  # noqa: E402
from palaestra_gymnasium import GymnasiumSpace, from_gymnasium_space, to_gymnasium_space  # noqa: E402

IDS = sorted(i for i in gymnasium.registry if i.startswith(("MiniGrid-", "BabyAI-")))


def same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b


@pytest.mark.parametrize("env_id", IDS)
def test_every_minigrid_and_babyai_id_is_made_and_stepped_as_gymnasium_steps_it(env_id):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            theirs = gymnasium.make(env_id)
            b, _ = theirs.reset(seed=3)
        except Exception as e:  # MiniGrid's own packaging (WFC patterns, extras) can fail
            with pytest.raises(type(e)):
                palaestra.make(f"gymnasium/{env_id}").reset(seed=3)
            pytest.skip(f"Gymnasium cannot make {env_id} here either: {type(e).__name__}: {e}")
        ours = palaestra.make(f"gymnasium/{env_id}")
    assert isinstance(ours.observation_space["mission"], GymnasiumSpace)
    a, _ = ours.reset(seed=3)
    assert same(a, b) and a in ours.observation_space
    for action in (2, 0, 2, 1, 2):
        a, b = ours.step(action), theirs.step(action)
        assert all(same(x, y) for x, y in zip(a, b, strict=True))
    ours.close()
    theirs.close()


def test_a_foreign_space_samples_seeds_and_compares_through_the_original():
    theirs = gymnasium.make("MiniGrid-Empty-5x5-v0").observation_space["mission"]
    ours = from_gymnasium_space(theirs)
    assert isinstance(ours, palaestra.spaces.Space) and ours.space is theirs
    assert to_gymnasium_space(ours) is theirs  # back across: the original
    ours.seed(0)
    drawn = ours.sample()
    theirs.seed(0)
    assert drawn == theirs.sample() and drawn in ours
    assert ours.np_random is theirs.np_random
    assert ours == from_gymnasium_space(theirs) and ours != palaestra.spaces.Discrete(2)
    assert "MissionSpace" in repr(ours) and ours.mission_func is theirs.mission_func


def test_an_unknown_palaestra_space_type_reaches_gymnasium_as_it_is():
    class Parity(palaestra.spaces.Space):
        def __init__(self):
            super().__init__((), np.int64)

        def sample(self, mask=None, probability=None):
            return int(self.np_random.integers(0, 50)) * 2

        def contains(self, x):
            return isinstance(x, int) and x % 2 == 0

    ours = Parity()
    theirs = to_gymnasium_space(ours)
    assert isinstance(theirs, gymnasium.Space) and theirs.space is ours
    assert from_gymnasium_space(theirs) is ours
    theirs.seed(5)
    assert theirs.sample() % 2 == 0 and 4 in theirs and 3 not in theirs


def test_a_fresh_process_finds_minigrid_by_its_gymnasium_id():
    code = "import palaestra\nenv = palaestra.make('gymnasium/MiniGrid-Empty-5x5-v0')\nprint(env.reset(seed=0)[0]['mission'])\n"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "get to the green goal square", run.stderr[-2000:]


def test_a_bare_minigrid_id_points_to_its_bridged_id():
    with pytest.raises(
        palaestra.error.NameNotFound, match=r"Did you mean: `gymnasium/MiniGrid-Empty-5x5-v0`\?"
    ):
        palaestra.make("MiniGrid-Empty-5x5-v0")
