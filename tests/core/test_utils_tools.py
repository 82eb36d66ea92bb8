"""utils.performance, utils.env_match and utils.play (real pygame window, dummy video driver)."""

import numpy as np
import pytest

import palaestra
from palaestra.utils.env_match import check_environments_match
from palaestra.utils.performance import (
    benchmark_init,
    benchmark_render,
    benchmark_step,
    benchmark_vector_step,
)
from palaestra.utils.play import MissingKeysToAction, PlayableGame, PlayPlot, display_arr, play
from tests.fixtures.image_env import make_image_env_class

ImageEnv = make_image_env_class(palaestra)


def image_env(**kwargs):
    return palaestra.wrappers.TimeLimit(ImageEnv(**kwargs), 30)


# -- performance -----------------------------------------------------------------------


def test_benchmarks_return_positive_rates():
    env = image_env(render_mode="rgb_array")
    assert benchmark_step(env, target_duration=0.05, seed=0) > 100
    assert benchmark_init(lambda: image_env(), target_duration=0.05) > 10
    env.reset(seed=0)
    assert benchmark_render(env, target_duration=0.05) > 100
    vec = palaestra.vector.SyncVectorEnv([image_env] * 2)
    assert benchmark_vector_step(vec, target_duration=0.05, seed=0) > 100


def test_benchmark_errors_name_the_fix():
    with pytest.raises(ValueError, match="needs an env made with a render_mode"):
        benchmark_render(image_env(), target_duration=0.01)
    for bad in (-1, float("nan")):
        with pytest.raises(ValueError, match=rf"target_duration must be a number of seconds >= 0.*got {bad}"):
            benchmark_step(image_env(), target_duration=bad)


class CountingEnv(ImageEnv):
    steps = inits = renders = 0

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        CountingEnv.inits += 1

    def step(self, action):
        CountingEnv.steps += 1
        return super().step(action)

    def render(self):
        CountingEnv.renders += 1
        return super().render()


def test_a_zero_duration_times_one_call_as_gymnasium_does():
    env = CountingEnv(render_mode="rgb_array")
    assert benchmark_step(env, target_duration=0) > 0 and CountingEnv.steps == 1
    assert benchmark_init(CountingEnv, target_duration=0) > 0 and CountingEnv.inits == 2
    env.reset(seed=0)
    assert benchmark_render(env, target_duration=0) > 0 and CountingEnv.renders == 1
    vec = palaestra.vector.SyncVectorEnv([image_env] * 2)
    assert benchmark_vector_step(vec, target_duration=0, seed=0) > 0


def test_vector_benchmark_counts_only_real_steps_in_disabled_mode():
    vec = palaestra.vector.SyncVectorEnv(
        [image_env] * 2, autoreset_mode=palaestra.vector.AutoresetMode.DISABLED
    )
    assert benchmark_vector_step(vec, target_duration=0.05, seed=1) > 100  # resets finished sub-envs itself


# -- env_match -------------------------------------------------------------------------


def test_identical_envs_match():
    check_environments_match(
        image_env(render_mode="rgb_array"), image_env(render_mode="rgb_array"), 40, seed=2
    )


def test_a_difference_is_reported_with_its_step():
    class LateDrift(ImageEnv):
        def step(self, action):
            obs, reward, terminated, truncated, info = super().step(action)
            return obs, reward + (1.0 if self.t == 5 else 0.0), terminated, truncated, info

    with pytest.raises(
        AssertionError, match=r"stepping \(step = 4\) reward is not equivalent, reward_a = .*, reward_b"
    ):
        check_environments_match(image_env(), palaestra.wrappers.TimeLimit(LateDrift(), 30), 10)
    check_environments_match(image_env(), palaestra.wrappers.TimeLimit(LateDrift(), 30), 10, skip_rew=True)


def test_info_comparison_modes():
    class MoreInfo(ImageEnv):
        def step(self, action):
            obs, reward, terminated, truncated, info = super().step(action)
            return obs, reward, terminated, truncated, {**info, "extra": 1}

    more = palaestra.wrappers.TimeLimit(MoreInfo(), 30)
    with pytest.raises(AssertionError, match="stepping \\(step = 0\\) info is not equivalent"):
        check_environments_match(image_env(), more, 3)
    check_environments_match(
        image_env(), palaestra.wrappers.TimeLimit(MoreInfo(), 30), 3, info_comparison="superset"
    )
    check_environments_match(
        image_env(), palaestra.wrappers.TimeLimit(MoreInfo(), 30), 3, info_comparison="keys-superset"
    )
    with pytest.raises(AssertionError, match="info keys are not equivalent"):
        check_environments_match(
            image_env(), palaestra.wrappers.TimeLimit(MoreInfo(), 30), 3, info_comparison="keys-equivalence"
        )
    with pytest.raises(ValueError, match="info_comparison must be one of"):
        check_environments_match(image_env(), image_env(), 3, info_comparison="loose")


@pytest.mark.needs_plugins
def test_space_mismatch_is_reported():
    with pytest.raises(AssertionError, match="action spaces differ"):
        check_environments_match(image_env(), palaestra.make("FrozenLake-v1"), 1)


# -- play ------------------------------------------------------------------------------


def post_keys(*events):
    import pygame

    for kind, key in events:
        pygame.event.post(pygame.event.Event(kind, key=key))


@pytest.mark.needs_plugins
def test_play_maps_pressed_keys_to_actions_and_stops_on_escape():
    import pygame

    env = palaestra.make("CartPole-v1", render_mode="rgb_array")
    seen = []

    def record(obs_t, obs_tp1, action, reward, terminated, truncated, info):
        seen.append(int(action))
        if len(seen) == 2:
            post_keys((pygame.KEYDOWN, pygame.K_d))
        elif len(seen) == 5:
            post_keys((pygame.KEYUP, pygame.K_d), (pygame.KEYDOWN, pygame.K_a))
        elif len(seen) == 8:
            post_keys((pygame.KEYDOWN, pygame.K_ESCAPE))

    play(env, keys_to_action={"a": 0, "d": 1}, noop=0, fps=1000, callback=record, seed=0)
    # Events posted after a step are read at the end of that frame and act from the next step.
    assert seen == [0, 0, 1, 1, 1, 0, 0, 0]


@pytest.mark.needs_plugins
def test_play_wait_on_player_steps_only_while_a_key_is_held():
    import pygame

    env = palaestra.make("CartPole-v1", render_mode="rgb_array")
    seen = []

    def record(*step):
        seen.append(int(step[2]))
        if len(seen) == 3:
            post_keys((pygame.KEYUP, pygame.K_d), (pygame.KEYDOWN, pygame.K_ESCAPE))

    pygame.display.init()
    post_keys((pygame.KEYDOWN, pygame.K_d))
    play(env, keys_to_action={"d": 1}, fps=1000, callback=record, wait_on_player=True)
    assert seen == [1, 1, 1]


@pytest.mark.needs_plugins
def test_play_errors_name_the_fix():
    env = palaestra.make("CartPole-v1", render_mode="rgb_array")
    with pytest.raises(
        MissingKeysToAction,
        match=r"CartPole-v1 does not have explicit key to action mapping.*keys_to_action=",
    ):
        play(env)
    with pytest.raises(ValueError, match="Action 7 is not a valid action"):
        play(env, keys_to_action={"a": 7})
    with pytest.raises(TypeError, match="must be integers or strings"):
        play(env, keys_to_action={1.5: 0})
    with pytest.raises(ValueError, match="works only with rgb_array"):
        PlayableGame(palaestra.make("CartPole-v1"), {(97,): 0})
    with pytest.raises(ValueError, match="Zoom must be a positive float"):
        PlayableGame(env, {(97,): 0}, zoom=0)
    with pytest.raises(
        ValueError, match=r"noop=5 is not an action of Discrete\(2\); pass play\(\.\.\., noop="
    ):
        play(env, keys_to_action={"a": 0}, noop=5)


@pytest.mark.needs_plugins
def test_play_a_box_action_space_with_the_default_or_an_explicit_noop():
    import pygame

    env = palaestra.make("Pendulum-v1", render_mode="rgb_array")
    for noop in (0, np.array([0.5], np.float32)):  # 0: "do nothing", an array of zeros
        seen = []

        def record(*step, seen=seen):
            seen.append(step[2].copy())
            if len(seen) == 3:
                post_keys((pygame.KEYDOWN, pygame.K_ESCAPE))

        play(env, keys_to_action={"a": np.array([-2.0], np.float32)}, noop=noop, fps=1000, callback=record)
        expected = np.zeros(1, np.float32) if isinstance(noop, int) else noop
        assert all(np.array_equal(action, expected) and action.dtype == np.float32 for action in seen)


def test_display_arr_scales_and_centres_the_frame():
    import pygame

    screen = pygame.display.set_mode((40, 20))
    frame = np.zeros((5, 10, 3), np.uint8)
    frame[:, :, 0] = 200
    display_arr(screen, frame, video_size=(20, 10), transpose=True)
    pixels = pygame.surfarray.array3d(screen).transpose(1, 0, 2)
    assert pixels[10, 20].tolist() == [200, 0, 0] and pixels[0, 0].tolist() == [0, 0, 0]
    assert pixels[5:15, 10:30, 0].min() == 200
    with pytest.raises(TypeError, match="uint8"):
        display_arr(screen, frame.astype(np.float32), video_size=(20, 10), transpose=True)
    pygame.display.quit()


def test_play_plot_keeps_a_window_of_values():
    import matplotlib

    matplotlib.use("Agg")
    plotter = PlayPlot(
        lambda o, o2, a, r, te, tr, i: [r, a], horizon_timesteps=3, plot_names=["reward", "action"]
    )
    for t in range(5):
        plotter.callback(None, None, t % 2, float(t), False, False, {})
    assert [list(d) for d in plotter.data] == [[2.0, 3.0, 4.0], [0, 1, 0]]
    assert plotter.ax[0].get_xlim() == (2.0, 5.0) and plotter.ax[1].get_title() == "action"
    with pytest.raises(ValueError, match="returned 1 values for 2 plots"):
        PlayPlot(lambda *s: [1], 3, ["a", "b"]).callback(None, None, 0, 0.0, False, False, {})
