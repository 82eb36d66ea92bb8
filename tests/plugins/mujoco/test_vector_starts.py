"""MujocoVectorEnv's episodes started in the batch's rows: the sub-envs' own resets, bit for bit."""

import warnings
from importlib.resources import files

import numpy as np
import pytest

import palaestra
from palaestra import spaces
from palaestra.vector import AutoresetMode
from palaestra_mujoco import MujocoEnv
from palaestra_mujoco.vector import MujocoVectorEnv

from .test_vector import assert_same_info, play_side_by_side
from .test_vector_arrays import ARRAY_IDS

STARTS_IN_ROWS = ARRAY_IDS  # every array-stepped v5 env starts its episodes in the rows

# What a step continues from, and what every forward stage derives from it (positions,
# velocities, accelerations, forces). Not compared: diagnostics (memory high-water marks,
# solver statistics, a copied-in model signature) and sparse-Jacobian slots MuJoCo leaves
# unwritten, which hold whatever the memory held.
_COMPARED = (
    "time", "qpos", "qvel", "act", "qacc_warmstart", "ctrl", "qfrc_applied", "xfrc_applied",
    "xpos", "xquat", "xmat", "xipos", "ximat", "geom_xpos", "geom_xmat", "site_xpos", "subtree_com",
    "cinert", "cdof", "cvel", "cdof_dot", "M", "qfrc_bias", "qfrc_passive", "actuator_length",
    "actuator_velocity", "actuator_force", "qfrc_actuator", "qfrc_smooth", "qacc_smooth", "ncon",
    "nefc", "efc_pos", "efc_force", "qfrc_constraint", "qacc", "cacc", "cfrc_int", "cfrc_ext",
    "sensordata", "energy",
)  # fmt: skip


def data_differences(batched, sync):
    """The fields of :data:`_COMPARED` in which some sub-env's MjData differs from Sync's."""
    batched.sync_envs()
    differences = []
    for i, env in enumerate(batched.envs):
        mine, theirs = env.data, sync.envs[i].unwrapped.data
        for name in _COMPARED:
            x, y = np.asarray(getattr(mine, name)), np.asarray(getattr(theirs, name))
            if x.shape != y.shape or not np.array_equal(x, y, equal_nan=x.dtype.kind == "f"):
                differences.append((i, name))
    return differences


def vec_pair(env_id, num_envs, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # v4 is out of date
        batched = palaestra.make_vec(env_id, num_envs, **kwargs)
        sync = palaestra.make_vec(env_id, num_envs, vectorization_mode="sync", **kwargs)
    return batched, sync


@pytest.mark.parametrize("env_id", STARTS_IN_ROWS)
def test_envs_with_a_noisy_start_start_their_episodes_in_the_rows(env_id):
    env = palaestra.make_vec(env_id, 2)
    assert env.steps_arrays and env.resets_arrays
    env.close()


@pytest.mark.parametrize("env_id", ["Hopper-v4", "Ant-v5"])
def test_the_others_reset_each_sub_env_itself(env_id):
    """A v4 runner, gathered steps."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = palaestra.make_vec(env_id, 2)
    assert not env.resets_arrays
    env.close()


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@pytest.mark.parametrize("env_id", STARTS_IN_ROWS)
def test_episodes_started_in_the_rows_play_as_sync(env_id, mode):
    """Observations, rewards, infos (reset infos included) through many episodes, in every mode."""
    ended = play_side_by_side(env_id, mode, 2, steps=40, num_envs=4, max_episode_steps=9)
    assert ended >= 12


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
def test_a_start_against_a_limit_is_observed_with_its_constraint_force(mode):
    """InvertedDoublePendulum observes the constraint force: the started rows are brought forward."""
    env = palaestra.make_vec("InvertedDoublePendulum-v5", 8, reset_noise_scale=2.0)
    forces = env.reset(seed=1)[0][:, 8]
    assert np.count_nonzero(forces) >= 2  # carts started beyond the rail's ends
    env.close()
    ended = play_side_by_side(
        "InvertedDoublePendulum-v5", mode, 2, steps=30, num_envs=4, max_episode_steps=3, reset_noise_scale=2.0
    )
    assert ended >= 20


@pytest.mark.parametrize(
    ("env_id", "drawn"), [("Reacher-v5", ["goal"]), ("Pusher-v5", ["goal_pos", "cylinder_pos"])]
)
def test_targets_drawn_for_started_rows_are_the_sub_envs_own(env_id, drawn):
    """Reacher's goal and Pusher's cylinder: attributes of each sub-env, as after its own reset."""
    batched, sync = vec_pair(env_id, 3, max_episode_steps=4)
    batched.reset(seed=5), sync.reset(seed=5)
    for t in range(10):
        actions = np.zeros((3, *batched.single_action_space.shape), dtype=np.float32)
        batched.step(actions), sync.step(actions)
        for name in drawn:
            mine, theirs = batched.get_attr(name), sync.get_attr(name)
            assert all(np.array_equal(a, b) for a, b in zip(mine, theirs, strict=True)), (t, name)
    assert len({tuple(goal) for goal in batched.get_attr(drawn[-1])}) == 3  # each its own draw
    batched.close(), sync.close()


@pytest.mark.parametrize("env_id", STARTS_IN_ROWS)
def test_a_started_sub_envs_data_is_what_its_own_reset_leaves(env_id):
    """Every field of MjData, derived ones included, right after a reset and after autoresets."""
    batched, sync = vec_pair(env_id, 3, max_episode_steps=5)
    batched.reset(seed=11), sync.reset(seed=11)
    assert data_differences(batched, sync) == []
    rng = np.random.default_rng(11)
    low, high = batched.single_action_space.low, batched.single_action_space.high
    for t in range(12):
        actions = rng.uniform(low, high, (3, *low.shape)).astype(np.float32)
        batched.step(actions), sync.step(actions)
        assert data_differences(batched, sync) == [], t
    batched.close(), sync.close()


GATHERED_IDS = ["Ant-v5", "Humanoid-v5", "HumanoidStandup-v5"]


@pytest.mark.parametrize("env_id", GATHERED_IDS)
def test_gathered_envs_start_their_episodes_on_the_crew(env_id):
    env = palaestra.make_vec(env_id, 2)
    assert env._starts_on_crew and not env.resets_arrays
    env.close()


@pytest.mark.parametrize("num_workers", [1, 3])
@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@pytest.mark.parametrize("env_id", GATHERED_IDS)
def test_a_gathered_start_on_the_crew_leaves_each_sub_envs_data_as_its_own_reset(env_id, mode, num_workers):
    """Every field of MjData after resets and autoresets, observations and infos too, on any threads."""
    batched = palaestra.make_vec(
        env_id, 4, max_episode_steps=3, autoreset_mode=mode, vector_kwargs={"num_workers": num_workers}
    )
    sync = palaestra.make_vec(
        env_id, 4, max_episode_steps=3, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}
    )
    (a, ia), (b, ib) = batched.reset(seed=2), sync.reset(seed=2)
    assert np.array_equal(a, b) and data_differences(batched, sync) == []
    assert_same_info(ia, ib, "reset")
    rng = np.random.default_rng(2)
    low, high = batched.single_action_space.low, batched.single_action_space.high
    for t in range(8):
        actions = rng.uniform(low, high, (4, *low.shape)).astype(np.float32)
        mine, theirs = batched.step(actions), sync.step(actions)
        assert all(np.array_equal(x, y) for x, y in zip(mine[:4], theirs[:4], strict=True)), t
        assert_same_info(mine[4], theirs[4], f"step {t}")
        if mode is AutoresetMode.DISABLED and (mine[2] | mine[3]).any():
            mask = mine[2] | mine[3]
            (x, ix), (y, iy) = (
                batched.reset(options={"reset_mask": mask}),
                sync.reset(options={"reset_mask": mask}),
            )
            assert np.array_equal(x, y)
            assert_same_info(ix, iy, f"partial reset at {t}")
        assert data_differences(batched, sync) == [], t
    batched.close(), sync.close()


def test_a_gathered_env_with_its_own_reset_model_resets_each_sub_env_itself():
    class Crouching(palaestra.make("Ant-v5").unwrapped.__class__):
        def reset_model(self):
            observation = super().reset_model()
            return observation

    env = type("CrouchingVectorEnv", (MujocoVectorEnv,), {"env_class": Crouching})(2)
    assert not env._starts_on_crew
    env.close()


def test_frames_and_snapshots_right_after_a_start_are_the_resets():
    batched, sync = vec_pair("Hopper-v5", 2, render_mode="rgb_array", width=48, height=32)
    batched.reset(seed=5), sync.reset(seed=5)
    assert np.array_equal(batched.render_env(1), sync.envs[1].render())
    saved = batched.sub_env_snapshots
    actions = np.random.default_rng(5).uniform(-1, 1, (6, 2, 3)).astype(np.float32)
    first = [batched.step(a)[0] for a in actions]
    batched.sub_env_snapshots = saved
    assert [batched.step(a)[0].tolist() for a in actions] == [x.tolist() for x in first]
    batched.close(), sync.close()


def test_a_model_with_more_state_than_positions_and_velocities_resets_each_sub_env_itself():
    """A mocap body's start pose comes from the model: the rows would miss it, so no row starts."""
    xml = (files("palaestra_mujoco") / "assets" / "inverted_pendulum.xml").read_text()
    mocap = xml.replace("<worldbody>", '<worldbody><body name="marker" mocap="true" pos="0 0 2"/>', 1)
    assert mocap != xml
    batched, sync = vec_pair("InvertedPendulum-v5", 3, xml_file=mocap)
    assert batched.steps_arrays and not batched.resets_arrays
    (a, _), (b, _) = batched.reset(seed=2), sync.reset(seed=2)
    assert np.array_equal(a, b)
    rng = np.random.default_rng(2)
    for _ in range(20):
        actions = rng.uniform(-3, 3, (3, 1)).astype(np.float32)
        assert np.array_equal(batched.step(actions)[0], sync.step(actions)[0])
    assert data_differences(batched, sync) == []
    batched.close(), sync.close()


def test_your_own_env_starts_its_episodes_in_the_rows_when_it_says_so():
    """The documented recipe: ``resets_batches``, ``start_state``, ``start_batch``; Sync's numbers."""
    slider = """<mujoco><worldbody><body name="cart"><joint name="x" type="slide" axis="1 0 0"/>
    <geom type="box" size=".1 .1 .1"/></body></worldbody>
    <actuator><motor joint="x" ctrlrange="-1 1"/></actuator></mujoco>"""

    class Slider(MujocoEnv):
        scores_batches = True
        resets_batches = True

        def __init__(self, render_mode=None):
            box = spaces.Box(-np.inf, np.inf, (2,), np.float64)
            super().__init__(slider, 2, observation_space=box, render_mode=render_mode)

        def start_state(self):
            return self.init_qpos + self.np_random.uniform(-1, 1, 1), self.init_qvel.copy()

        def reset_model(self):
            self.set_state(*self.start_state())
            return np.concatenate((self._qpos, self._qvel))

        def _reset_info(self, qpos):
            return {"x": qpos.item(0)}

        def start_batch(self, sim, rows, observations):
            observations[rows, 0], observations[rows, 1] = sim.qpos[rows, 0], sim.qvel[rows, 0]
            return [self._reset_info(qpos) for qpos in sim.qpos[rows]]

        def begin_step(self, action):
            self._ctrl[:] = action

        def end_step(self, begun):
            x = self._qpos.item(0)
            return np.concatenate((self._qpos, self._qvel)), x, x > 0.5, False, {"x": x}

        def begin_batch(self, sim, actions):
            return None

        def end_batch(self, begun, sim, observations):
            x = sim.qpos[:, 0].copy()
            observations[:, 0], observations[:, 1] = sim.qpos[:, 0], sim.qvel[:, 0]
            return x, x > 0.5, {"x": x}

    batched = type("SliderVectorEnv", (MujocoVectorEnv,), {"env_class": Slider})(4, max_episode_steps=6)
    assert batched.resets_arrays
    sync = palaestra.vector.SyncVectorEnv([lambda: palaestra.wrappers.TimeLimit(Slider(), 6)] * 4)
    (a, ia), (b, ib) = batched.reset(seed=9), sync.reset(seed=9)
    assert np.array_equal(a, b) and np.array_equal(ia["x"], ib["x"])
    rng = np.random.default_rng(9)
    for _ in range(30):
        actions = rng.uniform(-1, 1, (4, 1)).astype(np.float32)
        mine, theirs = batched.step(actions), sync.step(actions)
        for x, y in zip(mine[:4], theirs[:4], strict=True):
            assert np.array_equal(x, y)
        assert list(mine[4]) == list(theirs[4])
        assert all(np.array_equal(mine[4][key], theirs[4][key]) for key in theirs[4])
    batched.close(), sync.close()
