"""Vector rendering wrappers: a real (dummy-driver) pygame window and real tiled mp4 files."""

import os
import warnings

import gymnasium
import numpy as np
import pytest

import palaestra
from palaestra.wrappers.vector import HumanRendering, RecordVideo
from tests.core.wrappers.test_rendering import video_info

# Uses the reference suites' envs (CartPole-v1, ...): needs the plugins installed.
pytestmark = pytest.mark.needs_plugins


def cartpoles(lib, n=4, mode="NEXT_STEP"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return lib.make_vec(
            "CartPole-v1",
            n,
            vectorization_mode="sync",
            render_mode="rgb_array",
            vector_kwargs={"autoreset_mode": lib.vector.AutoresetMode[mode]},
        )


def test_human_rendering_tiles_the_sub_envs_into_one_window():
    import pygame

    env = HumanRendering(cartpoles(palaestra))
    assert env.render_mode == "human" and "human" in env.metadata["render_modes"]
    env.reset(seed=0)
    assert (env.num_rows, env.num_cols) == (2, 2)
    shown = pygame.surfarray.array3d(pygame.display.get_surface()).transpose(1, 0, 2)
    assert shown.shape == (400, 600, 3)
    frames = env.env.render()
    # Each quarter of the window holds one sub-env frame at half size (nearest neighbour).
    assert np.array_equal(shown[:200, :300], frames[0][::2, ::2])
    assert np.array_equal(shown[200:, 300:], frames[3][::2, ::2])
    env.close()


def test_human_rendering_fits_a_requested_screen_size():
    import pygame

    env = HumanRendering(cartpoles(palaestra, n=3), screen_size=(900, 200))
    env.reset(seed=0)
    env.step(np.zeros(3, dtype=np.int64))
    assert (env.num_rows, env.num_cols) == (1, 3)
    assert pygame.display.get_surface().get_size() == (900, 200)
    env.close()


def test_human_rendering_errors_name_the_cause():
    with pytest.raises(ValueError, match="Expected env.render_mode to be one of"):
        HumanRendering(palaestra.make_vec("CartPole-v1", 2, vectorization_mode="sync"))


def run_episodes(env, episodes):
    env.reset(seed=0)
    actions = np.ones(env.num_envs, dtype=np.int64)
    ended = 0
    while ended < episodes:
        _, _, terminated, truncated, _ = env.step(actions)
        ended += bool(terminated[0] or truncated[0])
    env.step(actions)
    env.close()


def frames_handed_to_the_writer(env):
    """Wrap ``env.stop_recording`` to note how many frames each video gets."""
    counts, stop = [], env.stop_recording

    def counting_stop():
        counts.append(len(env.recorded_frames))
        stop()

    env.stop_recording = counting_stop
    return counts


@pytest.mark.filterwarnings("ignore:.*same-step:UserWarning")
@pytest.mark.parametrize("mode", ["NEXT_STEP", "SAME_STEP"])
def test_record_video_records_the_reference_frames(tmp_path, mode):
    ours = RecordVideo(cartpoles(palaestra, mode=mode), str(tmp_path / "ours"))
    ref = gymnasium.wrappers.vector.RecordVideo(cartpoles(gymnasium, mode=mode), str(tmp_path / "ref"))
    ours_counts, ref_counts = frames_handed_to_the_writer(ours), frames_handed_to_the_writer(ref)
    run_episodes(ours, 3)
    run_episodes(ref, 3)
    assert ours_counts == ref_counts and len(ours_counts) == 2
    names = sorted(os.listdir(tmp_path / "ours"))
    assert (
        names == sorted(os.listdir(tmp_path / "ref")) == ["rl-video-episode-0.mp4", "rl-video-episode-1.mp4"]
    )
    # Every recorded frame is in the file (moviepy, used by Gymnasium, sometimes drops the last one).
    assert [video_info(tmp_path / "ours" / name) for name in names] == [(n, (1200, 800)) for n in ours_counts]


def test_record_video_first_only_and_aspect_ratio(tmp_path):
    env = RecordVideo(
        cartpoles(palaestra, n=4),
        str(tmp_path / "grid"),
        video_aspect_ratio=(6, 1),
        step_trigger=lambda i: i == 0,
        video_length=5,
    )
    run_episodes(env, 1)
    assert (env.frame_rows, env.frame_cols) == (1, 4)
    assert video_info(tmp_path / "grid" / "rl-video-step-0.mp4") == (6, (2400, 400))
    first = RecordVideo(
        cartpoles(palaestra, n=4), str(tmp_path / "first"), record_first_only=True, video_length=3
    )
    run_episodes(first, 1)
    assert video_info(tmp_path / "first" / "rl-video-episode-0.mp4") == (4, (600, 400))


def test_record_video_refuses_non_array_renders(tmp_path):
    with pytest.raises(ValueError, match="incompatible with RecordVideo"):
        RecordVideo(palaestra.make_vec("CartPole-v1", 2, vectorization_mode="sync"), str(tmp_path / "v"))
