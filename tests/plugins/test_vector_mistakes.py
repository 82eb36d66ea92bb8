"""One behaviour per mistake, whichever vectorizer runs the envs.

Stepping or rendering any vector env before its first reset raises one
palaestra.error.ResetNeeded, with Gymnasium's words first and then whose it is: sync, async,
the natively batched envs of every suite, the Box2D blocks (which step raw sub-envs in
workers) and the batched Atari games; no worker is asked, so no traceback is printed per
sub-env. A failure every sub-env repeats is logged once. A Box batch of the wrong shape names
the batch shape that was expected.
"""

import warnings

import numpy as np
import pytest

import palaestra
from palaestra.error import InvalidAction, ResetNeeded

STEP_WORDS = r"^Cannot call env\.step\(\) before calling env\.reset\(\)"
IDS = ["CartPole-v1", "Pendulum-v1", "Taxi-v4", "Blackjack-v1", "LunarLander-v3", "BipedalWalker-v3"]


def _vector(env_id, mode):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return palaestra.make_vec(env_id, 2, vectorization_mode=mode)


@pytest.mark.parametrize("mode", [None, "sync", "async"])
@pytest.mark.parametrize("env_id", IDS)
def test_step_before_reset_raises_reset_needed_once(env_id, mode):
    env = _vector(env_id, mode)
    try:
        with warnings.catch_warnings(record=True) as logged:
            warnings.simplefilter("always")
            with pytest.raises(ResetNeeded, match=STEP_WORDS) as info:
                env.step(env.action_space.sample())
        assert not [str(w.message) for w in logged], "nothing is logged: the error says it all"
        if mode != "sync":  # sync repeats its sub-env's own words; the others name themselves
            assert type(env).__name__ in str(info.value) and "reset it once" in str(info.value)
        env.reset(seed=0)
        env.step(env.action_space.sample())  # and once reset, it steps
    finally:
        env.close()


@pytest.mark.parametrize("env_id", ["HalfCheetah-v5", "ALE/Pong-v5"])
def test_step_before_reset_of_the_other_batched_suites(env_id):
    pytest.importorskip("mujoco" if "Cheetah" in env_id else "ale_py")
    env = _vector(env_id, None)
    try:
        with pytest.raises(ResetNeeded, match=STEP_WORDS):
            env.step(env.action_space.sample())
    finally:
        env.close()


def test_render_before_reset_raises_reset_needed():
    env = palaestra.make_vec("CartPole-v1", 2, render_mode="rgb_array")
    with pytest.raises(
        ResetNeeded, match=r"^Cannot call `env\.render\(\)` before calling `env\.reset\(\)` \(Cart"
    ):
        env.render()


def test_a_failure_every_sub_env_repeats_is_logged_once():
    """The Box2D blocks ask their workers; an attribute none has is one log and one error.

    (Windy landers step in Python, a block per worker process; the compiled blocks would be
    one block in this process, on threads.)
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = palaestra.make_vec("LunarLander-v3", 2, vector_kwargs={"num_workers": 2}, enable_wind=True)
    try:
        assert env.num_blocks == 2
        env.reset(seed=0)
        with warnings.catch_warnings(record=True) as logged:
            warnings.simplefilter("always")
            with pytest.raises(AttributeError, match="no_such_thing") as info:
                env.get_attr("no_such_thing")
        tracebacks = [str(w.message) for w in logged if "Received the following error" in str(w.message)]
        assert len(tracebacks) == 1
        assert any("but for repeats of this one" in note for note in info.value.__notes__)
        assert np.asarray(env.step(env.action_space.sample())[0]).shape == (2, 8)  # still usable
    finally:
        env.close()


@pytest.mark.parametrize("mode", [None, "sync", "async"])
def test_a_batch_of_the_wrong_shape_names_the_batch_shape(mode):
    """BipedalWalker: np.zeros(4) for 4 walkers is one number per walker, not one row of 4 each."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = palaestra.make_vec("BipedalWalker-v3", 4, vectorization_mode=mode)
    try:
        env.reset(seed=0)
        with pytest.raises(
            InvalidAction, match=r"of shape \(4, 4\), got an array of dtype float64 and shape \(4,\)"
        ) as info:
            env.step(np.zeros(4))
        assert str(info.value).startswith(f"{type(env).__name__}.step: actions")
        with pytest.raises(ValueError, match="got 3 actions for 4 sub-environments"):
            env.step(np.zeros((3, 4)))  # a wrong count says so
        env.step(np.zeros((4, 4)))
    finally:
        env.close()


WRONG_SHAPES = [
    ("CartPole-v1", np.zeros((4, 2), np.int64), r"shape \(4,\)"),
    ("Acrobot-v1", np.zeros((4, 1), np.int64), r"shape \(4,\)"),
    ("Taxi-v4", np.zeros((4, 2), np.int64), r"shape \(4,\)"),
    ("Pendulum-v1", np.zeros(4), r"shape \(4, 1\)"),
    ("MountainCarContinuous-v0", np.zeros(4), r"shape \(4, 1\)"),
    ("LunarLanderContinuous-v3", np.zeros(4), r"shape \(4, 2\)"),
    ("HalfCheetah-v5", np.zeros(4), r"shape \(4, 6\)"),
    ("phys2d/Pendulum-v0", np.zeros(4), r"shape \(4, 1\)"),
    ("phys2d/CartPole-v1", np.zeros((4, 2), np.int64), r"shape \(4,\)"),
]


@pytest.mark.parametrize(("env_id", "actions", "expected"), WRONG_SHAPES, ids=[c[0] for c in WRONG_SHAPES])
def test_every_batched_env_names_the_batch_shape_it_expected(env_id, actions, expected):
    if env_id.startswith("phys2d"):
        pytest.importorskip("jax")
    if "Cheetah" in env_id:
        pytest.importorskip("mujoco")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = palaestra.make_vec(env_id, 4)
    try:
        env.reset(seed=0)
        with pytest.raises(
            InvalidAction, match=rf"are not in the action space .*expected .*{expected}, got an array"
        ):
            env.step(actions)
    finally:
        env.close()
