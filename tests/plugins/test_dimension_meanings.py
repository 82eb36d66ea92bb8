"""Each env says what its dimensions mean, and the meanings cover its spaces exactly.

``dimension_meanings`` (beside each env) feed ``palaestra info`` and the docs' env pages,
whose build fails when they do not fit; this test says so first, id by id.
"""

import warnings

import pytest

import palaestra
from palaestra._tools._dimensions import dimension_tables, format_bound, space_rows
from palaestra.spaces import Box, Discrete

IDS = [
    "CartPole-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1", "Acrobot-v1",
    "LunarLander-v3", "LunarLanderContinuous-v3", "BipedalWalker-v3", "CarRacing-v3",
    "FrozenLake-v1", "FrozenLake8x8-v1", "CliffWalking-v1", "Taxi-v4", "Blackjack-v1",
    "HalfCheetah-v5", "Hopper-v5", "Walker2d-v5", "Swimmer-v5", "Ant-v5", "Humanoid-v5",
    "HumanoidStandup-v5", "InvertedPendulum-v5", "InvertedDoublePendulum-v5", "Reacher-v5", "Pusher-v5",
]  # fmt: skip


@pytest.mark.parametrize("env_id", IDS)
def test_the_meanings_cover_the_spaces(env_id):
    if env_id.endswith("-v5"):
        pytest.importorskip("mujoco")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = palaestra.make(env_id)
    try:
        tables = dimension_tables(env)
        assert [what for what, _, _ in tables] == ["observation", "action"]
        for _, _, rows in tables:
            assert rows and all(row[1] for row in rows)
    finally:
        env.close()


def test_a_map_of_another_width_says_its_own_cell_formula():
    env = palaestra.make("FrozenLake-v1", desc=["SFFFF", "FHFHF", "FFFFG"])
    assert dimension_tables(env)[0][2] == [["0", "the agent's cell, row * 5 + column", "0", "14"]]


def test_meanings_that_do_not_cover_the_space_say_by_how_much():
    with pytest.raises(ValueError, match="the observation has 3 dimensions; the meanings cover 2"):
        space_rows(Box(-1, 1, (3,)), ["x", "y"], "observation")
    with pytest.raises(ValueError, match="the action has 2 values; 3 meanings"):
        space_rows(Discrete(2), ["a", "b", "c"], "action")


def test_bounds_never_read_minus_zero():
    assert format_bound([-0.0, -0.0]) == "0"
    assert format_bound([-0.0, 1.0]) == "0 to 1"
    assert format_bound([float("-inf"), 2.5]) == "-inf to 2.5"
