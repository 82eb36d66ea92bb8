"""render_mode="human" without a display: one clear refusal from every suite.

Without a display SDL would draw into a window nobody sees and ``render()`` would return
None as if all were well; every suite refuses instead, naming the fix, unless an offscreen
SDL driver was asked for (``SDL_VIDEODRIVER=dummy``, as the tests themselves do).
"""

import pytest

import palaestra
from palaestra.error import UnsupportedMode

pytest.importorskip("pygame", reason="the pygame suites' windows need pygame (pip install pygame-ce)")

IDS = [
    "CartPole-v1",
    "Pendulum-v1",
    "LunarLander-v3",
    "BipedalWalker-v3",
    "CarRacing-v3",
    "FrozenLake-v1",
    "Taxi-v4",
]


@pytest.fixture
def no_display(monkeypatch):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")


@pytest.mark.parametrize("env_id", IDS)
def test_human_without_a_display_is_refused_with_the_fix(env_id, no_display):
    env = palaestra.make(env_id, render_mode="human")
    with pytest.raises(
        UnsupportedMode, match=r'^render_mode="human" needs a display and none is available'
    ) as info:
        env.reset(seed=0)  # a human env draws its first frame in reset
    assert 'render_mode="rgb_array"' in str(info.value) and "SDL_VIDEODRIVER=dummy" in str(info.value)
    env.close()


def test_mujoco_refuses_in_the_same_words(no_display):
    pytest.importorskip("mujoco")
    env = palaestra.make("InvertedPendulum-v5", render_mode="human")
    with pytest.raises(UnsupportedMode, match=r'^render_mode="human" needs a display and none is available'):
        env.reset(seed=0)  # a human env draws its first frame in reset
    env.close()


@pytest.mark.parametrize("driver", ["dummy", "offscreen"])
def test_an_offscreen_driver_asked_for_draws_the_window_unseen(no_display, monkeypatch, driver):
    monkeypatch.setenv("SDL_VIDEODRIVER", driver)
    from palaestra._env._canvas import no_window_reason

    assert no_window_reason() is None
    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
    assert no_window_reason() == "DISPLAY and WAYLAND_DISPLAY are unset"
    monkeypatch.setenv("DISPLAY", ":0")
    assert no_window_reason() is None
