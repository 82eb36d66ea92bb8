"""MujocoVectorEnv: the batched MuJoCo envs give SyncVectorEnv's numbers, with threads."""

import gc
import os
import pickle
import threading
import warnings

import numpy as np
import pytest

import palaestra
from palaestra.error import InvalidAction, ResetNeeded, UnsupportedMode
from palaestra.vector import AutoresetMode, SyncVectorEnv
from palaestra_mujoco.vector import BatchSimulation, HopperVectorEnv, MujocoVectorEnv, available_cores

from .test_envs import IDS

MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED]


def assert_same_info(mine, theirs, where):
    assert list(mine) == list(theirs), where
    for key, value in theirs.items():
        if key in ("final_obs",):
            for a, b in zip(mine[key], value, strict=True):
                assert (a is None and b is None) or np.array_equal(a, b), where
        elif isinstance(value, dict):
            assert_same_info(mine[key], value, where)
        else:
            assert mine[key].dtype == value.dtype, (where, key)
            assert np.array_equal(mine[key], value), (where, key)


def play_side_by_side(env_id, mode, num_threads, steps, num_envs=3, seed=7, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batched = palaestra.make_vec(
            env_id, num_envs, vector_kwargs={"num_workers": num_threads}, autoreset_mode=mode, **kwargs
        )
        sync = palaestra.make_vec(
            env_id, num_envs, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}, **kwargs
        )
    assert isinstance(batched, MujocoVectorEnv) and isinstance(sync, SyncVectorEnv)
    try:
        (a, ia), (b, ib) = batched.reset(seed=seed), sync.reset(seed=seed)
        assert np.array_equal(a, b)
        assert_same_info(ia, ib, "reset")
        rng = np.random.default_rng(seed)
        low, high = batched.single_action_space.low, batched.single_action_space.high
        ended = 0
        for t in range(steps):
            actions = rng.uniform(low, high, (num_envs, *low.shape)).astype(np.float32)
            mine, theirs = batched.step(actions), sync.step(actions)
            for part, (x, y) in enumerate(zip(mine[:4], theirs[:4], strict=True)):
                assert x.dtype == y.dtype and np.array_equal(x, y), f"{env_id} step {t} part {part}"
            assert_same_info(mine[4], theirs[4], f"{env_id} step {t}")
            done = mine[2] | mine[3]
            ended += int(done.sum())
            if mode is AutoresetMode.DISABLED and done.any():
                x, y = batched.reset(options={"reset_mask": done}), sync.reset(options={"reset_mask": done})
                assert np.array_equal(x[0], y[0])
                assert_same_info(x[1], y[1], f"{env_id} partial reset at {t}")
        return ended
    finally:
        batched.close()
        sync.close()


@pytest.mark.parametrize("env_id", IDS)
def test_every_id_batched_equals_sync_vector_env(env_id):
    """Observations, rewards, flags and infos bit for bit, two threads, episodes ending by the limit."""
    play_side_by_side(env_id, AutoresetMode.NEXT_STEP, 2, steps=30, max_episode_steps=12)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("num_threads", [1, 2, 3])
def test_autoreset_modes_equal_sync_when_episodes_end(mode, num_threads):
    """Hopper falls often: terminations, truncations and resets in every mode, with any thread count."""
    ended = play_side_by_side("Hopper-v5", mode, num_threads, steps=90, num_envs=4, max_episode_steps=40)
    assert ended > 4


def test_make_vec_uses_the_batched_env_with_the_ids_time_limit():
    env = palaestra.make_vec("Hopper-v5", 2)
    assert isinstance(env, HopperVectorEnv)
    assert env.max_episode_steps == 1000
    assert env.num_threads == min(2, available_cores())
    assert env.metadata["render_fps"] == 125
    assert env.single_action_space.shape == (3,) and env.observation_space.shape == (2, 11)
    env.close()


def test_constructor_arguments_reach_every_sub_env():
    env = palaestra.make_vec("HalfCheetah-v5", 2, ctrl_cost_weight=0.5, vector_kwargs={"num_workers": 1})
    assert [sub._ctrl_cost_weight for sub in env.envs] == [0.5, 0.5]
    env.close()
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        palaestra.make_vec("HalfCheetah-v5", 2, bogus=1)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_bad_thread_counts_are_named(bad):
    with pytest.raises(
        ValueError, match=rf"HopperVectorEnv: num_workers must be a positive integer .* got {bad!r}"
    ):
        palaestra.make_vec("Hopper-v5", 2, vector_kwargs={"num_workers": bad})


@pytest.mark.parametrize("env_id", ["Hopper-v5", "Ant-v5", "Humanoid-v4"])  # batch, gathered, threaded
def test_more_workers_than_cores_start_no_more_threads(env_id):
    """Threads beyond the usable cores would only wait for each other."""
    before = threading.active_count()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # v4 is out of date
        env = palaestra.make_vec(env_id, 8, vector_kwargs={"num_workers": 64})
    assert env.num_workers == 8  # what was asked, at most the sub-envs
    assert env.physics_threads == min(8, available_cores())
    if not isinstance(env._sim, BatchSimulation):  # Python helper threads (a batch's are MuJoCo's own)
        assert threading.active_count() == before + env.physics_threads - 1
    env.close()


def test_the_one_knob_sets_the_threads_and_the_old_name_warns():
    env = palaestra.make_vec("Hopper-v5", 3, vector_kwargs={"num_workers": 2})
    assert env.num_workers == env.num_threads == 2
    env.close()
    env = palaestra.make_vec("Hopper-v5", 2, vector_kwargs={"num_workers": 8})
    assert env.num_workers == 2  # never more threads than sub-envs
    env.close()
    with pytest.warns(
        DeprecationWarning,
        match=r"num_threads is deprecated; pass make_vec\(id, n, vector_kwargs=\{'num_workers': 2\}\)",
    ):
        env = palaestra.make_vec("Hopper-v5", 3, num_threads=2)
    assert env.num_workers == 2
    env.close()
    with pytest.raises(ValueError, match="num_threads=2 and num_workers=1 name the same thing"):
        HopperVectorEnv(2, num_workers=1, num_threads=2)


def test_wrong_actions_are_refused_before_any_sub_env_moves():
    env = palaestra.make_vec("Hopper-v5", 3, vector_kwargs={"num_workers": 2})
    env.reset(seed=0)
    before = [sub.data.qpos.copy() for sub in env.envs]
    with pytest.raises(InvalidAction, match="HopperVectorEnv.step got 2 actions for 3 sub-environments"):
        env.step(np.zeros((2, 3), dtype=np.float32))
    bad = np.zeros((3, 3), dtype=np.float32)
    bad[2, 1] = np.nan
    with pytest.raises(InvalidAction, match="NaN"):
        env.step(bad)
    assert all(np.array_equal(b, sub.data.qpos) for b, sub in zip(before, env.envs, strict=True))
    env.close()


def test_human_rendering_is_refused_with_the_alternatives():
    with pytest.raises(UnsupportedMode, match="render_mode='rgb_array'.*render_mode='human'"):
        HopperVectorEnv(2, render_mode="human")


def test_frames_are_the_sub_envs_frames():
    env = palaestra.make_vec("Reacher-v5", 2, render_mode="rgb_array", width=64, height=48)
    with pytest.raises(
        ResetNeeded, match=r"^Cannot call `env\.render\(\)` before calling `env\.reset\(\)` \(Reacher"
    ):
        env.render()
    env.reset(seed=1)
    frames = env.render()
    assert len(frames) == 2 and frames[0].shape == (48, 64, 3)
    assert np.array_equal(frames[1], env.render_env(1))
    assert not np.array_equal(frames[0], frames[1])  # different targets
    with pytest.raises(IndexError, match="sub-envs 0 to 1, not 2"):
        env.render_env(2)
    env.close()


def test_snapshot_restores_physics_generators_and_counters():
    env = palaestra.make_vec("Hopper-v5", 3, vector_kwargs={"num_workers": 2}, max_episode_steps=30)
    env.reset(seed=3)
    actions = np.random.default_rng(3).uniform(-1, 1, (60, 3, 3)).astype(np.float32)
    for a in actions[:10]:
        env.step(a)
    saved = env.snapshot()
    first = [env.step(a) for a in actions[10:]]
    env.restore(saved)
    again = [env.step(a) for a in actions[10:]]
    for x, y in zip(first, again, strict=True):
        for part in range(4):
            assert np.array_equal(x[part], y[part])
        assert np.array_equal(x[4]["x_position"], y[4]["x_position"])
    env.close()


def test_close_stops_the_threads():
    before = threading.active_count()
    env = palaestra.make_vec(
        "Ant-v5", 4, vector_kwargs={"num_workers": 3}
    )  # Ant's sub-envs step in Python threads, no more than the cores
    assert env.physics_threads == min(3, available_cores())
    assert threading.active_count() == before + env.physics_threads - 1
    env.reset(seed=0)
    env.step(np.zeros((4, 8), dtype=np.float32))
    env.close()
    assert threading.active_count() == before


def test_an_error_in_a_thread_reaches_the_caller_and_the_env_stays_usable():
    env = palaestra.make_vec("Ant-v5", 4, vector_kwargs={"num_workers": 2})
    env.reset(seed=0)
    broken = env.envs[3]
    real_step = broken._mj_step

    def failing(*args):
        raise RuntimeError("simulated solver failure")

    broken._mj_step = failing
    with pytest.raises(RuntimeError, match="simulated solver failure"):
        env.step(np.zeros((4, 8), dtype=np.float32))
    broken._mj_step = real_step
    env.reset(seed=0)
    observations = env.step(np.zeros((4, 8), dtype=np.float32))[0]
    assert observations.shape == (4, 105)
    env.close()


def test_your_own_env_batches_when_it_splits_its_step():
    from palaestra import spaces
    from palaestra_mujoco import MujocoEnv

    slider = """<mujoco><worldbody><body><joint name="x" type="slide" axis="1 0 0"/>
    <geom type="box" size=".1 .1 .1"/></body></worldbody>
    <actuator><motor joint="x" ctrlrange="-1 1"/></actuator></mujoco>"""

    class Whole(MujocoEnv):
        def __init__(self, render_mode=None):
            box = spaces.Box(-np.inf, np.inf, (2,), np.float64)
            super().__init__(slider, 2, observation_space=box, render_mode=render_mode)

        def step(self, action):
            self.do_simulation(action, self.frame_skip)
            return self.state_vector(), 0.0, False, False, {}

        def reset_model(self):
            return self.state_vector()

    class Split(Whole):
        step = MujocoEnv.step

        def begin_step(self, action):
            self._ctrl[:] = action
            return self._qpos.item(0)

        def end_step(self, x_before):
            return self.state_vector(), self._qpos.item(0) - x_before, False, False, {"moved": True}

    with pytest.raises(TypeError, match="Whole implements step\\(\\) as one piece; implement begin_step"):
        type("WholeVectorEnv", (MujocoVectorEnv,), {"env_class": Whole})(2)
    env = type("SplitVectorEnv", (MujocoVectorEnv,), {"env_class": Split})(3, num_workers=2)
    env.reset(seed=0)
    obs, rewards, _, _, infos = env.step(np.array([[1.0], [0.0], [-1.0]], dtype=np.float32))
    assert rewards[0] > 0 and rewards[1] == 0 and rewards[2] < 0
    assert obs.shape == (3, 2) and infos["moved"].all()
    env.close()


def _resident_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads the resident set from /proc")
def test_making_and_closing_batched_envs_again_and_again_holds_memory_steady():
    """Each closed env's models, data and threads are freed.

    After a warm-up (the allocator's per-thread arenas fill once), hundreds more cycles add no
    more than noise.
    """

    def cycles(count):
        for i in range(count):
            envs = palaestra.make_vec("HalfCheetah-v5", 16)
            envs.reset(seed=i)
            envs.step(envs.action_space.sample())
            envs.close()
            del envs

    cycles(80)
    gc.collect()
    before = _resident_mib()
    threads = threading.active_count()
    cycles(240)
    gc.collect()
    assert _resident_mib() - before < 8, f"{before:.0f} -> {_resident_mib():.0f} MiB"
    assert threading.active_count() == threads


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
@pytest.mark.skipif(available_cores() < 2, reason="one usable core: no helper threads to let go")
def test_helpers_are_let_go_before_a_fork_and_the_child_steps_alike():
    """No helper thread crosses a fork; parent and child both start theirs again and agree."""
    envs = palaestra.make_vec("Ant-v5", 3, vector_kwargs={"num_workers": 2})
    envs.reset(seed=1)
    actions = np.full((3, 8), 0.3, dtype=np.float32)
    envs.step(actions)
    crew = envs._sim._crew
    assert crew.working == 1
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its copy of the env steps on helpers of its own
        try:
            alive = crew.working
            obs = envs.step(actions)[0]
            os.write(writer, pickle.dumps((alive, crew.working, obs)))
        finally:
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        alive_after_fork, alive_after_step, child_obs = pickle.loads(pipe.read())
    os.waitpid(pid, 0)
    assert crew.working == 0  # let go in the parent too, until its next step
    parent_obs = envs.step(actions)[0]
    assert (alive_after_fork, alive_after_step, crew.working) == (0, 1, 1)
    assert np.array_equal(child_obs, parent_obs)
    envs.close()
    assert crew.working == 0
