"""Gym 0.21-API environments through EnvCompatibility and register(apply_api_compatibility=True)."""

import numpy as np
import pytest

import palaestra
from palaestra.error import Error
from palaestra.spaces import Box, Discrete
from palaestra.wrappers.compatibility import EnvCompatibility, convert_to_terminated_truncated


class OldStyleWalk:
    """A hand-written Gym 0.21-style env: seed(), obs-only reset, 4-tuple step, render(mode=...).

    Walks right by the action; done at position 5 (a termination) or, with its own time
    limit, after ``limit`` steps with ``info["TimeLimit.truncated"]`` set.
    """

    metadata = {"render.modes": ["human", "rgb_array", "ansi"], "video.frames_per_second": 15}

    def __init__(self, limit=8, step_size=1):
        self.limit, self.step_size = limit, step_size
        self.observation_space = Box(-20, 20, (1,), np.float32)
        self.action_space = Discrete(3)
        self.rng = np.random.RandomState()
        self.renders = []

    def seed(self, seed=None):
        self.rng = np.random.RandomState(seed)
        return [seed]

    def reset(self):
        self.pos, self.t = int(self.rng.randint(-2, 3)), 0
        return np.array([self.pos], np.float32)

    def step(self, action):
        self.pos += (int(action) - 1) * self.step_size
        self.t += 1
        info = {"t": self.t}
        done = self.pos >= 5
        if self.t >= self.limit and not done:
            done, info["TimeLimit.truncated"] = True, True
        return np.array([self.pos], np.float32), float(self.pos), done, info

    def render(self, mode="human"):
        self.renders.append(mode)
        if mode == "rgb_array":
            return np.full((4, 4, 3), self.pos + 10, np.uint8)
        if mode == "ansi":
            return f"pos={self.pos}"
        return None

    def close(self):
        self.closed_by_compat = True


def test_done_splits_into_terminated_and_truncated():
    env = EnvCompatibility(OldStyleWalk(limit=3))
    obs, info = env.reset(seed=1)
    assert info == {} and obs.dtype == np.float32
    results = [env.step(1) for _ in range(3)]
    assert [(r[2], r[3]) for r in results] == [(False, False), (False, False), (False, True)]
    assert "TimeLimit.truncated" not in results[-1][4] and results[-1][4]["t"] == 3
    env = EnvCompatibility(OldStyleWalk(limit=20))
    env.reset(seed=1)
    ended = [env.step(2) for _ in range(8)]
    finished = next(r for r in ended if r[2] or r[3])
    assert finished[2] is True and finished[3] is False  # reaching the goal is a termination


def test_seeding_goes_through_the_old_seed_method():
    env = EnvCompatibility(OldStyleWalk())
    starts = {float(env.reset(seed=s)[0][0]) for s in range(20)}
    assert len(starts) > 1
    assert env.reset(seed=4)[0][0] == env.reset(seed=4)[0][0]


def test_render_mode_is_fixed_at_construction():
    human = EnvCompatibility(OldStyleWalk(), render_mode="human")
    human.reset(seed=0)
    human.step(1)
    assert human.env.renders == ["human", "human"]
    arrays = EnvCompatibility(OldStyleWalk(), render_mode="rgb_array")
    arrays.reset(seed=0)
    assert arrays.render().shape == (4, 4, 3) and arrays.env.renders == ["rgb_array"]
    with pytest.raises(ValueError, match=r"render_mode='depth_array' is not supported by OldStyleWalk"):
        EnvCompatibility(OldStyleWalk(), render_mode="depth_array")
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert EnvCompatibility(OldStyleWalk()).render() is None


def test_bad_legacy_envs_are_named():
    class NoSeed(OldStyleWalk):
        seed = None

    with pytest.raises(Error, match=r"NoSeed has no seed\(\) method"):
        EnvCompatibility(NoSeed()).reset(seed=3)

    class NewApi(OldStyleWalk):
        def step(self, action):
            return *super().step(action)[:3], False, {}

    env = EnvCompatibility(NewApi())
    env.reset()
    with pytest.raises(TypeError, match="returned 5 values; a Gym 0.21-API env returns"):
        env.step(1)
    with pytest.raises(TypeError, match=r"has no \['step'\]"):
        EnvCompatibility(type("Half", (), {"reset": lambda self: 0})())
    with pytest.warns(UserWarning, match=r"ignoring \['x'\]"):
        EnvCompatibility(OldStyleWalk()).reset(options={"x": 1})


def test_registered_legacy_env_is_made_with_the_current_api(isolated):
    palaestra.register(
        "OldWalk-v0",
        entry_point=OldStyleWalk,
        max_episode_steps=50,
        kwargs={"limit": 6},
        apply_api_compatibility=True,
    )
    env = palaestra.make("OldWalk-v0", render_mode="ansi", step_size=2)
    assert env.spec.apply_api_compatibility is True and env.render_mode == "ansi"
    assert env.metadata["render_fps"] == 15
    assert isinstance(env.unwrapped, EnvCompatibility) and env.unwrapped.env.step_size == 2
    obs, _ = env.reset(seed=2)
    results = [env.step(1) for _ in range(6)]
    assert results[-1][3] is True and env.render() == f"pos={int(obs[0])}"
    again = palaestra.make(env.spec)
    assert np.array_equal(again.reset(seed=2)[0], obs) and again.render() == f"pos={int(obs[0])}"
    assert "apply_api_compatibility=True" in palaestra.spec("OldWalk-v0").pprint(disable_print=True)
    env.close()
    assert env.unwrapped.env.closed_by_compat


def test_conversion_function_alone():
    assert convert_to_terminated_truncated((1, 0.5, True, {"TimeLimit.truncated": True, "a": 1})) == (
        1,
        0.5,
        False,
        True,
        {"a": 1},
    )
    assert convert_to_terminated_truncated((1, 0.5, True, {}))[2:4] == (True, False)
