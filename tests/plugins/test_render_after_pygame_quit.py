"""Rendering survives another library calling ``pygame.quit()`` in the same process.

Gymnasium's own pygame envs quit pygame when they close (an env of theirs through the bridge,
next to palaestra's, does that); fonts and other pygame objects made before are dead after.
"""

import warnings

import numpy as np
import pytest

import palaestra

pytestmark = pytest.mark.needs_plugins

PAIRS = [
    ("FrozenLake-v1", "FrozenLake8x8-v1"),
    ("Blackjack-v1", "Taxi-v4"),
    ("CliffWalking-v1", "FrozenLake-v1"),
    ("CarRacing-v3", "CarRacing-v3"),
    ("CartPole-v1", "Acrobot-v1"),
    ("LunarLander-v3", "BipedalWalker-v3"),
]


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_renders_survive_pygame_quit_by_someone_else(first, second):
    pygame = pytest.importorskip("pygame", reason="rendering needs pygame (the render extra)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        before = palaestra.make(first, render_mode="rgb_array")
        before.reset(seed=0)
        frame = before.render()
        pygame.quit()  # as another library's env does when it closes
        after = palaestra.make(second, render_mode="rgb_array")
        after.reset(seed=0)
        assert after.render().ndim == 3
        assert np.array_equal(before.render(), frame)  # the first env draws the same picture again
        before.close()
        after.close()
