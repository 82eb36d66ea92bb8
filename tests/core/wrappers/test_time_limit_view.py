"""TimeLimit's public view of its count: what code that steps an env itself reads and hands back."""

import pytest

import palaestra
from palaestra.wrappers import TimeLimit

pytestmark = pytest.mark.needs_plugins


def test_elapsed_and_max_episode_steps_are_readable_and_the_count_settable():
    env = palaestra.make("CartPole-v1", max_episode_steps=5)
    limit = env
    while not isinstance(limit, TimeLimit):
        limit = limit.env
    env.reset(seed=0)
    env.step(0)
    env.step(0)
    assert limit.elapsed_steps == 2 and limit.max_episode_steps == 5
    limit.elapsed_steps = 4  # e.g. a compiled kernel stepped it twice more and hands the count back
    *_, truncated, _ = env.step(0)
    assert truncated and limit.elapsed_steps == 5
    env.reset(seed=0)
    assert limit.elapsed_steps == 0
