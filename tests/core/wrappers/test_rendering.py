"""Rendering wrappers with real pygame windows (dummy driver), real mp4 files and OpenCV."""

import os

import gymnasium
import imageio_ffmpeg
import numpy as np
import pytest

import palaestra
from palaestra.error import InvalidProbability
from palaestra.wrappers import AddWhiteNoise, HumanRendering, ObstructView, RecordVideo, ResizeObservation
from tests.fixtures.checker import outcome
from tests.fixtures.gridworld import make_gridworld_class
from tests.fixtures.image_env import make_image_env_class

# Uses the reference suites' envs (CartPole-v1, ...): needs the plugins installed.
pytestmark = pytest.mark.needs_plugins

PalImage, GymImage = make_image_env_class(palaestra), make_image_env_class(gymnasium)


def video_info(path):
    """(number of frames, (width, height)) of an mp4, read with the bundled ffmpeg."""
    frames, _ = imageio_ffmpeg.count_frames_and_secs(str(path))
    reader = imageio_ffmpeg.read_frames(str(path))
    meta = next(reader)
    reader.close()
    return frames, tuple(meta["size"])


def test_human_rendering_shows_rgb_frames_in_a_window():
    import pygame

    env = HumanRendering(palaestra.make("CartPole-v1", render_mode="rgb_array"))
    assert env.render_mode == "human" and "human" in env.metadata["render_modes"]
    env.reset(seed=0)
    env.step(0)
    assert env.render() is None
    assert pygame.display.get_surface().get_size() == (600, 400)
    env.close()
    with pytest.raises(ValueError, match="Expected env.render_mode to be one of"):
        HumanRendering(palaestra.make("CartPole-v1"))


def test_make_falls_back_to_human_rendering(isolated):
    palaestra.register("Grid-v0", entry_point=make_gridworld_class(palaestra))
    with pytest.warns(UserWarning, match="HumanRendering wrapper is being applied"):
        env = palaestra.make("Grid-v0", render_mode="human")
    assert type(env).__name__ == "HumanRendering" and env.unwrapped.render_mode == "rgb_array"
    env.reset(seed=0)
    env.close()


def test_record_video_writes_the_reference_files(tmp_path):
    ours = RecordVideo(palaestra.make("CartPole-v1", render_mode="rgb_array"), str(tmp_path / "ours"))
    ref = gymnasium.wrappers.RecordVideo(
        gymnasium.make("CartPole-v1", render_mode="rgb_array"), str(tmp_path / "ref")
    )
    lengths = {}
    for env in (ours, ref):
        for episode in range(10):
            env.reset(seed=episode)
            steps = 0
            while steps < 30:
                steps += 1
                _, _, terminated, truncated, _ = env.step(episode % 2)
                if terminated or truncated:
                    break
            lengths[episode] = steps
        env.close()
    names = sorted(os.listdir(tmp_path / "ours"))
    assert (
        names
        == sorted(os.listdir(tmp_path / "ref"))
        == [
            "rl-video-episode-0.mp4",
            "rl-video-episode-1.mp4",
            "rl-video-episode-8.mp4",
        ]
    )
    for name in names:
        count, size = video_info(tmp_path / "ours" / name)
        episode = int(name.split("-")[-1].split(".")[0])
        assert count == lengths[episode] + 1  # the reset frame plus one per step
        assert size == (600, 400)  # 600 wide stays 600 wide


def test_record_video_step_trigger_and_length(tmp_path):
    env = RecordVideo(
        palaestra.make("Pendulum-v1", render_mode="rgb_array"),
        str(tmp_path / "clips"),
        step_trigger=lambda s: s % 50 == 0,
        video_length=10,
        name_prefix="clip",
        fps=20,
    )
    env.reset(seed=0)
    for _ in range(120):
        env.step(np.zeros(1, np.float32))
    env.close()
    assert sorted(os.listdir(tmp_path / "clips")) == [
        "clip-step-0.mp4",
        "clip-step-100.mp4",
        "clip-step-50.mp4",
    ]
    # As in Gymnasium, a clip holds video_length + 1 frames (it stops once it has more than video_length).
    assert video_info(tmp_path / "clips" / "clip-step-50.mp4")[0] == 11


def test_record_video_rejects_non_array_render_modes(tmp_path):
    with pytest.raises(ValueError, match="incompatible with RecordVideo"):
        RecordVideo(palaestra.make("FrozenLake-v1", render_mode="ansi"), str(tmp_path / "none"))


@pytest.mark.parametrize(
    ("ours_wrapper", "ref_wrapper", "kwargs"),
    [
        (AddWhiteNoise, gymnasium.wrappers.AddWhiteNoise, {"probability_of_noise_per_pixel": 0.3}),
        (
            AddWhiteNoise,
            gymnasium.wrappers.AddWhiteNoise,
            {"probability_of_noise_per_pixel": 0.5, "is_noise_grayscale": True},
        ),
        (
            ObstructView,
            gymnasium.wrappers.ObstructView,
            {"obstructed_pixels_ratio": 0.2, "obstruction_width": 3},
        ),
    ],
)
def test_noise_wrappers_match_gymnasium(ours_wrapper, ref_wrapper, kwargs):
    ours = ours_wrapper(PalImage(render_mode="rgb_array"), **kwargs)
    ref = ref_wrapper(GymImage(render_mode="rgb_array"), **kwargs)
    ours.reset(seed=3)
    ref.reset(seed=3)
    for _ in range(3):
        assert np.array_equal(ours.render(), ref.render())
        ours.step(np.zeros(2, np.float32))
        ref.step(np.zeros(2, np.float32))
    with pytest.raises((InvalidProbability, ValueError)):
        ours_wrapper(
            PalImage(render_mode="rgb_array"), **{next(iter(kwargs)): 1.5, **dict(list(kwargs.items())[1:])}
        )


@pytest.mark.parametrize("shape", [(12, 16), (48, 40)])
def test_resize_observation_matches_gymnasium(shape):
    ours = ResizeObservation(PalImage(), shape)
    ref = gymnasium.wrappers.ResizeObservation(GymImage(), shape)
    assert repr(ours.observation_space) == repr(ref.observation_space)
    a, _ = ours.reset(seed=1)
    b, _ = ref.reset(seed=1)
    assert a.shape == (*shape, 3) and np.array_equal(a, b)


def test_resize_observation_errors():
    with pytest.raises(TypeError, match="shape to be a tuple"):
        ResizeObservation(PalImage(), [12, 16])
    with pytest.raises(TypeError, match="requires a Box observation space"):
        ResizeObservation(palaestra.make("FrozenLake-v1"), (2, 2))


def test_save_video_matches_gymnasium_file_names(tmp_path):
    from gymnasium.utils.save_video import save_video as reference

    from palaestra.utils.save_video import capped_cubic_video_schedule, save_video

    frames = [np.full((32, 48, 3), i * 20, dtype=np.uint8) for i in range(12)]
    for episode in (0, 1, 2, 8):
        save_video(
            frames,
            str(tmp_path / "ours"),
            episode_index=episode,
            step_trigger=lambda s: s == 4,
            video_length=5,
            fps=10,
        )
        reference(
            frames,
            str(tmp_path / "ref"),
            episode_index=episode,
            step_trigger=lambda s: s == 4,
            video_length=5,
            fps=10,
        )
    assert sorted(os.listdir(tmp_path / "ours")) == sorted(os.listdir(tmp_path / "ref"))
    assert [capped_cubic_video_schedule(i) for i in (0, 1, 2, 8, 27, 28, 1000, 1500, 2000)] == [
        True,
        True,
        False,
        True,
        True,
        False,
        True,
        False,
        True,
    ]


OUT_OF_RANGE = {
    "AddWhiteNoise": lambda lib, env: lib.wrappers.AddWhiteNoise(env, probability_of_noise_per_pixel=1.0),
    "ObstructView": lambda lib, env: lib.wrappers.ObstructView(
        env, obstructed_pixels_ratio=-0.1, obstruction_width=2
    ),
    "ObstructView width": lambda lib, env: lib.wrappers.ObstructView(
        env, obstructed_pixels_ratio=0.1, obstruction_width=0
    ),
    "StickyAction": lambda lib, env: lib.wrappers.StickyAction(env, repeat_action_probability=1),
    "StickyAction duration": lambda lib, env: lib.wrappers.StickyAction(
        env, 0.5, repeat_action_duration=(1, 2, 3)
    ),
    "NormalizeReward": lambda lib, env: lib.wrappers.NormalizeReward(env, gamma=float("nan")),
    "NormalizeReward epsilon": lambda lib, env: lib.wrappers.NormalizeReward(env, epsilon=0.0),
    "NormalizeObservation": lambda lib, env: lib.wrappers.NormalizeObservation(env, epsilon=-1),
    "DelayObservation": lambda lib, env: lib.wrappers.DelayObservation(env, delay=-1),
    "FrameStackObservation": lambda lib, env: lib.wrappers.FrameStackObservation(env, stack_size=0),
    "FrameStackObservation padding": lambda lib, env: lib.wrappers.FrameStackObservation(
        env, 2, padding_type="zeros"
    ),
    "MaxAndSkipObservation": lambda lib, env: lib.wrappers.MaxAndSkipObservation(env, skip=1),
    "DiscretizeObservation": lambda lib, env: lib.wrappers.DiscretizeObservation(
        lib.wrappers.FlattenObservation(env), bins=[2, 2]
    ),
    "RenderCollection": lambda lib, env: lib.wrappers.RenderCollection(lib.wrappers.RenderCollection(env)),
    "RecordVideo": lambda lib, env: lib.wrappers.RecordVideo(type(env)(render_mode="ansi"), "unused"),
    "AddRenderObservation": lambda lib, env: lib.wrappers.AddRenderObservation(type(env)()),
    "Wrapper of a non-env": lambda lib, env: lib.Wrapper("not an env"),
}


@pytest.mark.parametrize("case", sorted(OUT_OF_RANGE))
def test_bad_constructor_arguments_get_gymnasiums_words_first(case):
    def build(lib, cls):
        error, _ = outcome(lambda: OUT_OF_RANGE[case](lib, cls(render_mode="rgb_array")))
        assert error is not None
        return error

    ours, theirs = build(palaestra, PalImage), build(gymnasium, GymImage)
    assert type(theirs).__name__ in {cls.__name__ for cls in type(ours).__mro__}
    assert str(ours).startswith(str(theirs)), (str(ours), str(theirs))
    wrapper = case.split()[0]
    if wrapper in (
        "AddWhiteNoise",
        "ObstructView",
        "StickyAction",
        "NormalizeReward",
        "NormalizeObservation",
    ):
        assert str(ours).endswith(f"({wrapper})")  # and names the wrapper
