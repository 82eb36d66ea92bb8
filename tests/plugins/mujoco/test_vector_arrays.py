"""MujocoVectorEnv's array steps (one mujoco.batch.Batch, scored as arrays): Sync's numbers, bit for bit."""

import re
import warnings

import numpy as np
import pytest

import palaestra
from palaestra.plugin import add_info
from palaestra.vector import AutoresetMode, SyncVectorEnv
from palaestra_mujoco import v4
from palaestra_mujoco._batch_infos import merged_infos
from palaestra_mujoco._gathered_sim import GatheredSimulation
from palaestra_mujoco.hopper import HopperEnv
from palaestra_mujoco.vector import MujocoVectorEnv

from .test_vector import assert_same_info, play_side_by_side


def assert_steps_alike(batched, sync, actions):
    """Step both with each batch of ``actions`` (as float32); every result equal. Returns the last."""
    for act in actions.astype(np.float32):
        mine, theirs = batched.step(act), sync.step(act)
        for x, y in zip(mine[:4], theirs[:4], strict=True):
            assert x.dtype == y.dtype and np.array_equal(x, y)
        assert_same_info(mine[4], theirs[4], "step")
    return mine


ARRAY_IDS = [
    "HalfCheetah-v5",
    "Hopper-v5",
    "InvertedDoublePendulum-v5",
    "InvertedPendulum-v5",
    "Pusher-v5",
    "Reacher-v5",
    "Swimmer-v5",
    "Walker2d-v5",
]


@pytest.mark.parametrize("env_id", ARRAY_IDS)
def test_envs_that_read_no_contact_forces_step_as_arrays(env_id):
    env = palaestra.make_vec(env_id, 2)
    assert env.steps_arrays
    env.close()


@pytest.mark.parametrize("env_id", ["Ant-v5", "Humanoid-v5", "HumanoidStandup-v5"])
def test_envs_that_read_contact_forces_are_scored_as_arrays_of_their_own_data(env_id):
    """mujoco.batch computes no contact forces: each sub-env's data steps on threads, gathered."""
    env = palaestra.make_vec(env_id, 2)
    assert env.steps_arrays and isinstance(env._sim, GatheredSimulation)
    env.close()


@pytest.mark.parametrize("env_id", ["InvertedDoublePendulum-v4", "Ant-v4", "Humanoid-v4", "Reacher-v4"])
def test_the_others_step_sub_env_by_sub_env(env_id):
    """A step scored by each sub-env itself, or a v4 step of its own: threaded steps."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # v4 is out of date
        env = palaestra.make_vec(env_id, 2)
    assert not env.steps_arrays
    env.close()


def test_a_subclass_that_changes_the_step_does_not_inherit_array_steps():
    class Bouncier(HopperEnv):
        def end_step(self, begun):
            observation, reward, terminated, truncated, info = super().end_step(begun)
            return observation, reward * 2, terminated, truncated, info

    batched = type("BouncierVectorEnv", (MujocoVectorEnv,), {"env_class": Bouncier})(2)
    assert not batched.steps_arrays
    batched.reset(seed=0)
    rewards = batched.step(np.zeros((2, 3), dtype=np.float32))[1]
    single = Bouncier()
    single.reset(seed=0)
    assert rewards[0] == single.step(np.zeros(3, dtype=np.float32))[1]
    batched.close()


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("Hopper-v5", {"terminate_when_unhealthy": False, "healthy_reward": 2}),
        (
            "Hopper-v5",
            {"exclude_current_positions_from_observation": False, "healthy_state_range": (-5.0, 5.0)},
        ),
        ("Walker2d-v5", {"healthy_z_range": (0.9, 1.9), "ctrl_cost_weight": np.float64(0.01)}),
        ("HalfCheetah-v5", {"forward_reward_weight": 2, "ctrl_cost_weight": 0.25, "frame_skip": 3}),
        (
            "Swimmer-v5",
            {"exclude_current_positions_from_observation": False, "ctrl_cost_weight": np.float32(0.5)},
        ),
        ("Reacher-v5", {"reward_dist_weight": 2, "reward_control_weight": np.float64(0.5)}),
        ("Pusher-v5", {"reward_near_weight": 0.25, "reward_control_weight": 3}),
        ("InvertedPendulum-v5", {"reset_noise_scale": 0.1}),
        ("InvertedDoublePendulum-v5", {"healthy_reward": 2, "reset_noise_scale": 0.3}),
        ("Ant-v5", {"include_cfrc_ext_in_observation": False, "terminate_when_unhealthy": False}),
        (
            "Ant-v5",
            {
                "exclude_current_positions_from_observation": False,
                "main_body": "torso",
                "contact_force_range": (-0.5, 2.0),
                "ctrl_cost_weight": np.float32(0.25),
                "healthy_z_range": (0.4, 0.9),
            },
        ),
        (
            "Humanoid-v5",
            {
                "include_cinert_in_observation": False,
                "include_qfrc_actuator_in_observation": False,
                "exclude_current_positions_from_observation": False,
                "contact_cost_range": (0.0, 1e-4),
                "terminate_when_unhealthy": False,
            },
        ),
        ("Humanoid-v5", {"include_cvel_in_observation": False, "include_cfrc_ext_in_observation": False}),
        ("HumanoidStandup-v5", {"uph_cost_weight": 2, "impact_cost_range": (0.0, 1e-6), "frame_skip": 3}),
    ],
)
def test_arguments_change_both_alike(env_id, kwargs):
    """Integer weights, numpy weights, kept positions, no termination: same values and dtypes."""
    ended = play_side_by_side(
        env_id, AutoresetMode.NEXT_STEP, 2, steps=60, num_envs=3, max_episode_steps=25, **kwargs
    )
    assert ended >= 3


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
def test_actions_of_other_dtypes_are_priced_as_the_single_env_prices_them(dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batched = palaestra.make_vec("Hopper-v5", 3)
        sync = palaestra.make_vec("Hopper-v5", 3, vectorization_mode="sync")
    batched.reset(seed=1), sync.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(20):
        actions = rng.uniform(-2, 2, (3, 3)).astype(dtype)
        mine, theirs = batched.step(actions), sync.step(actions)
        assert np.array_equal(mine[1], theirs[1])
        assert_same_info(mine[4], theirs[4], "step")
    batched.close(), sync.close()


def test_frames_and_snapshots_read_the_batch_state():
    """The sub-envs' own data is brought up to date before it is drawn or saved."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batched = palaestra.make_vec("Hopper-v5", 2, render_mode="rgb_array", width=48, height=32)
        sync = SyncVectorEnv(
            [lambda: palaestra.make("Hopper-v5", render_mode="rgb_array", width=48, height=32)] * 2
        )
    batched.reset(seed=5), sync.reset(seed=5)
    actions = np.random.default_rng(5).uniform(-1, 1, (8, 2, 3)).astype(np.float32)
    for a in actions:
        batched.step(a), sync.step(a)
    assert np.array_equal(batched.render_env(1), sync.envs[1].render())
    assert not np.array_equal(batched.envs[0].data.qpos, sync.envs[0].unwrapped.data.qpos)  # behind
    batched.sync_envs()
    for name in ("qpos", "qvel", "xpos", "cvel"):  # state and derived quantities
        assert np.array_equal(getattr(batched.envs[0].data, name), getattr(sync.envs[0].unwrapped.data, name))
    batched.step(actions[0]), sync.step(actions[0])
    assert not np.array_equal(batched.envs[1].data.qpos, sync.envs[1].unwrapped.data.qpos)  # behind again
    assert len(batched.sub_env_snapshots) == 2  # snapshots bring the data up to date first
    assert np.array_equal(batched.envs[1].data.qpos, sync.envs[1].unwrapped.data.qpos)
    batched.close(), sync.close()


def test_restoring_sub_env_snapshots_moves_the_batch():
    env = palaestra.make_vec("Walker2d-v5", 2, vector_kwargs={"num_workers": 2})
    env.reset(seed=2)
    actions = np.random.default_rng(2).uniform(-1, 1, (12, 2, 6)).astype(np.float32)
    for a in actions[:4]:
        env.step(a)
    saved = env.sub_env_snapshots
    first = [env.step(a)[0] for a in actions[4:]]
    env.sub_env_snapshots = saved
    again = [env.step(a)[0] for a in actions[4:]]
    assert all(np.array_equal(x, y) for x, y in zip(first, again, strict=True))
    env.close()


V4_ARRAY_IDS = ["HalfCheetah-v4", "Hopper-v4", "Walker2d-v4", "Swimmer-v4", "InvertedPendulum-v4"]


@pytest.mark.parametrize("env_id", V4_ARRAY_IDS)
def test_v4_runners_step_as_arrays_with_v4s_rewards_and_info_keys(env_id):
    """v4's info keys (Swimmer-v4 reports one column under two keys) and v4's healthy reward."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # v4 is out of date
        assert palaestra.make_vec(env_id, 1).steps_arrays
        ended = play_side_by_side(
            env_id, AutoresetMode.SAME_STEP, 2, steps=50, num_envs=3, max_episode_steps=20
        )
    assert ended >= 3


def test_v4_info_columns_are_separate_arrays():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = palaestra.make_vec("Swimmer-v4", 2)
    env.reset(seed=0)
    info = env.step(np.zeros((2, 2), dtype=np.float32))[4]
    assert np.array_equal(info["reward_fwd"], info["forward_reward"])
    assert not np.shares_memory(info["reward_fwd"], info["forward_reward"])
    env.close()


def test_a_v4_subclass_still_needs_to_say_it_scores_batches():
    assert "scores_batches" in vars(v4.HopperEnv) and "scores_batches" not in vars(v4.AntEnv)


def add_info_one_by_one(infos, num_envs):
    batched = {}
    for i, info in infos:
        add_info(batched, info, i, num_envs)
    return batched


def assert_merged_like_add_info(columns, from_step, resets):
    """merged_infos gives add_info's dict of the step rows and the starts, sub-env by sub-env."""
    merged = merged_infos(columns, from_step, resets, len(from_step))
    rows = [(i, {key: column[i] for key, column in columns.items()}) for i in np.flatnonzero(from_step)]
    expected = add_info_one_by_one(sorted(rows + resets, key=lambda pair: pair[0]), len(from_step))
    assert list(merged) == list(expected)
    for key, value in expected.items():
        assert merged[key].dtype == value.dtype and np.array_equal(merged[key], value), key


@pytest.mark.parametrize("first_is_reset", [True, False])
def test_merged_infos_are_add_info_sub_env_by_sub_env(first_is_reset):
    """Keys in first-appearance order, dtypes from each key's first holder, masks of holders."""
    columns = {"x_position": np.array([0.5, 1.5, 2.5, 3.5]), "reward_survive": np.array([1, 0, 1, 1])}
    reset_row = 0 if first_is_reset else 2
    resets = [(reset_row, {"x_position": 9.0, "z_distance_from_origin": -0.25})]
    from_step = np.ones(4, dtype=np.bool_)
    from_step[reset_row] = False
    from_step[3] = False  # not reported
    assert_merged_like_add_info(columns, from_step, resets)


@pytest.mark.parametrize(
    "resets",
    [
        [(1, {}), (3, {})],
        [],
        [(1, {"x": 7.5}), (3, {"x": np.float64(-2.0), "y": 0.25})],
        [(0, {"x": 7.5, "y": 1.0}), (1, {"x": 1.5})],
        [(1, {"y": 7.5})],  # not the columns' first key: the general merge
        [(1, {"x": 7})],  # an int: add_info's own dtype rule
    ],
    ids=["starts report nothing", "rows not reported", "the columns' first keys", "a start first", "other order",
         "an int"],
)  # fmt: skip
def test_merged_infos_of_starts_that_report_the_columns_first_keys_are_add_info(resets):
    """The MuJoCo starts report none or the first keys of a step's info: merged a column at a time."""
    columns = {"x": np.array([10.0, 0.0, 10.0, 1.0]), "y": np.arange(4.0), "n": np.array([1, 2, 3, 4])}
    kept = {key: column.copy() for key, column in columns.items()}
    from_step = np.array([True, False, True, False])
    from_step[[i for i, _ in resets]] = False
    assert_merged_like_add_info(columns, from_step, resets)
    assert all(np.array_equal(columns[key], kept[key]) for key in kept)  # asked again in SAME_STEP


def test_each_simulation_runs_on_its_sub_envs_own_model():
    """Domain randomization: edits to one sub-env's model (gravity, timestep) act as in Sync."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batched = palaestra.make_vec("Hopper-v5", 3)
        sync = palaestra.make_vec("Hopper-v5", 3, vectorization_mode="sync")
    for subs in (batched.envs, [env.unwrapped for env in sync.envs]):
        subs[1].model.opt.gravity[2] = -3.7
        subs[2].model.opt.timestep = 0.004  # counts from the next reset, as in the single env
    (a, _), (b, _) = batched.reset(seed=4), sync.reset(seed=4)
    assert np.array_equal(a, b)
    last = assert_steps_alike(batched, sync, np.random.default_rng(4).uniform(-1, 1, (30, 3, 3)))
    assert not np.array_equal(last[0][0], last[0][1])
    batched.close(), sync.close()


def pair(env_id, num_envs, autoreset_mode=AutoresetMode.NEXT_STEP):
    """The batched env and SyncVectorEnv of ``env_id`` in ``autoreset_mode``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batched = palaestra.make_vec(env_id, num_envs, autoreset_mode=autoreset_mode)
        sync = palaestra.make_vec(
            env_id, num_envs, vectorization_mode="sync", vector_kwargs={"autoreset_mode": autoreset_mode}
        )
    return batched, sync


@pytest.mark.parametrize("autoreset_mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize(
    ("env_id", "name", "change"),
    [
        ("Hopper-v5", "init_qpos", lambda k, old: old + 0.05 * k),  # its z info reads it
        ("Hopper-v5", "_healthy_reward", lambda k, old: old + k),
        ("Ant-v5", "_ctrl_cost_weight", lambda k, old: old * (k + 1)),
        ("InvertedPendulum-v5", "_reset_noise_scale", lambda k, old: old * (k + 1)),
        ("Reacher-v5", "frame_skip", lambda k, old: old + k),
    ],
)
def test_sub_envs_set_apart_step_each_on_their_own_as_in_sync(env_id, name, change, autoreset_mode):
    """Array steps score every row with sub-env 0's settings: differing values leave them."""
    batched, sync = pair(env_id, 3, autoreset_mode)
    batched.reset(seed=5), sync.reset(seed=5)
    actions = np.random.default_rng(5).uniform(-0.3, 0.3, (40, *batched.action_space.shape))
    assert_steps_alike(batched, sync, actions[:5])
    values = [change(k, getattr(env, name)) for k, env in enumerate(batched.envs)]
    with pytest.warns(
        UserWarning, match=f"sub-envs now differ in '{name}'.*each sub-env steps on its own"
    ) as seen:
        batched.set_attr(name, values)
    assert seen[0].filename == __file__  # said where set_attr was called
    sync.set_attr(name, values)
    assert not batched.steps_arrays and not batched.resets_arrays
    assert_steps_alike(batched, sync, actions[5:])
    assert np.array_equal(batched.reset(seed=6)[0], sync.reset(seed=6)[0])
    assert_steps_alike(batched, sync, actions[:10])
    batched.close(), sync.close()


def test_one_value_for_all_sub_envs_keeps_the_array_steps():
    batched, sync = pair("Hopper-v5", 3)
    batched.reset(seed=1), sync.reset(seed=1)
    for env in (batched, sync):
        env.set_attr("_healthy_reward", 2.5)
        env.set_attr("init_qpos", [e.init_qpos.copy() for e in batched.envs])  # equal copies
    assert batched.steps_arrays
    assert_steps_alike(batched, sync, np.random.default_rng(1).uniform(-1, 1, (30, 3, 3)))


def test_a_generator_set_on_a_sub_env_starts_its_next_episodes():
    batched, sync = pair("InvertedPendulum-v5", 3)
    batched.reset(seed=2), sync.reset(seed=2)
    for env in (batched, sync):
        env.set_attr("np_random", [np.random.default_rng(100 + k) for k in range(3)])
    assert batched.steps_arrays  # generators are each sub-env's own in the batch too
    assert_steps_alike(batched, sync, np.random.default_rng(2).uniform(-3, 3, (40, 3, 1)))
    assert batched.get_attr("np_random_seed") == (-1, -1, -1)


def test_sub_envs_with_another_frame_skip_are_refused_at_reset():
    env = palaestra.make_vec("Swimmer-v5", 2)
    env.envs[1].frame_skip = 2
    with pytest.raises(ValueError, match="sub-env 1 has frame_skip 2 and sub-env 0 4.*same frame_skip"):
        env.reset(seed=0)
    env.close()


def test_a_mujoco_failure_in_the_batch_is_raised_as_mj_step_raises_it():
    """Too little arena memory: the same exception type as a single env's, naming the simulations."""
    from importlib.resources import files

    import mujoco

    xml = (files("palaestra_mujoco") / "assets" / "half_cheetah.xml").read_text()
    starved = xml.replace('<compiler angle="radian"', '<size memory="5K"/><compiler angle="radian"', 1)
    assert starved != xml
    env = palaestra.make_vec("HalfCheetah-v5", 2, xml_file=starved)
    env.reset(seed=0)

    def run_until_the_feet_touch_down():
        for _ in range(50):
            env.step(np.ones((2, 6), dtype=np.float32))

    with pytest.raises(
        mujoco.FatalError, match=r"simulations \(0, 1\); simulation 0: mj_stackAlloc: out of memory"
    ):
        run_until_the_feet_touch_down()
    env.close()


def test_your_own_env_steps_as_arrays_when_it_scores_batches():
    """The documented recipe: ``scores_batches``, ``begin_batch``/``end_batch``; Sync's numbers."""
    from palaestra import spaces
    from palaestra_mujoco import MujocoEnv

    slider = """<mujoco><worldbody><body name="cart"><joint name="x" type="slide" axis="1 0 0"/>
    <geom type="box" size=".1 .1 .1"/></body></worldbody>
    <actuator><motor joint="x" ctrlrange="-1 1"/></actuator></mujoco>"""

    class Slider(MujocoEnv):
        scores_batches = True
        batch_outputs = ("xpos",)

        def __init__(self, render_mode=None):
            box = spaces.Box(-np.inf, np.inf, (3,), np.float64)
            super().__init__(slider, 2, observation_space=box, render_mode=render_mode)

        def reset_model(self):
            self.set_state(self.init_qpos + self.np_random.uniform(-1, 1, 1), self.init_qvel)
            return np.concatenate((self._qpos, self._qvel, self.data.xpos[1, :1]))

        def begin_step(self, action):
            self._ctrl[:] = action
            return self._qpos.item(0)

        def end_step(self, x_before):
            x = self._qpos.item(0)
            observation = np.concatenate((self._qpos, self._qvel, self.data.xpos[1, :1]))
            return observation, (x - x_before) / self._dt, x > 2, False, {"x": x}

        def begin_batch(self, sim, actions):
            return sim.qpos[:, 0].copy()

        def end_batch(self, x_before, sim, observations):
            x = sim.qpos[:, 0].copy()
            observations[:, 0], observations[:, 1] = sim.qpos[:, 0], sim.qvel[:, 0]
            observations[:, 2] = sim.outputs["xpos"][:, 1, 0]
            return (x - x_before) / sim.dt, x > 2, {"x": x}

    batched = type("SliderVectorEnv", (MujocoVectorEnv,), {"env_class": Slider})(3, max_episode_steps=40)
    assert batched.steps_arrays
    sync = SyncVectorEnv([lambda: palaestra.wrappers.TimeLimit(Slider(), 40)] * 3)
    (a, _), (b, _) = batched.reset(seed=9), sync.reset(seed=9)
    assert np.array_equal(a, b)
    assert_steps_alike(batched, sync, np.random.default_rng(9).uniform(-1, 1, (60, 3, 1)))
    batched.close(), sync.close()


def test_merged_infos_with_columns_of_arrays_are_add_info_too():
    columns = {"contacts": np.arange(8.0).reshape(4, 2), "x": np.arange(4.0)}
    resets = [(1, {"x": 7.5})]
    assert_merged_like_add_info(columns, np.array([True, False, True, True]), resets)


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.DISABLED], ids=lambda m: m.value)
@pytest.mark.parametrize(
    "env_id",
    [
        "InvertedPendulum-v5",
        "InvertedDoublePendulum-v5",
        "Walker2d-v5",
        "Reacher-v5",
        "Ant-v5",
        "Humanoid-v5",
    ],
)
def test_array_steps_equal_sync_in_the_other_autoreset_modes(env_id, mode):
    """Terminations (the pendulum falls within steps), truncations (Reacher's limit) and resets."""
    ended = play_side_by_side(env_id, mode, 2, steps=60, num_envs=4, max_episode_steps=20)
    assert ended >= 4


@pytest.mark.parametrize("env_id", ["Hopper-v5", "Ant-v5"])  # array steps and threaded steps
def test_call_get_attr_and_set_attr_work_as_in_sync(env_id):
    """Gymnasium code that calls into the sub-envs of its SyncVectorEnv keeps working."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batched = palaestra.make_vec(env_id, 2)
        sync = palaestra.make_vec(env_id, 2, vectorization_mode="sync")
    batched.reset(seed=6), sync.reset(seed=6)
    actions = np.random.default_rng(6).uniform(-1, 1, (10, 2, *batched.single_action_space.shape))
    assert_steps_alike(batched, sync, actions[:3])
    states = zip(batched.call("state_vector"), sync.call("state_vector"), strict=True)
    assert all(np.array_equal(a, b) for a, b in states)
    assert batched.get_attr("dt") == sync.get_attr("dt")
    start = sync.envs[0].unwrapped
    for env in (batched, sync):
        env.call("set_state", start.init_qpos, start.init_qvel)  # back to the model's start
        env.set_attr("frame_skip", [2, 2])
    assert batched.get_attr("frame_skip") == (2, 2)
    assert_steps_alike(batched, sync, actions[3:])
    with pytest.raises(AttributeError) as raised:
        batched.call("no_such_method")
    assert raised.value.sub_env_index == 0
    batched.close(), sync.close()


def test_a_frame_skip_set_on_one_sub_env_through_set_attr_takes_it_out_of_the_batch():
    """Set behind the vector env's back, it is refused at reset (above); set_attr says so and steps it."""
    batched, sync = pair("Hopper-v5", 2)
    batched.reset(seed=0), sync.reset(seed=0)
    with pytest.warns(UserWarning, match="differ in 'frame_skip'"):
        batched.set_attr("frame_skip", [4, 7])
    sync.set_attr("frame_skip", [4, 7])
    assert not batched.steps_arrays
    assert_steps_alike(batched, sync, np.random.default_rng(0).uniform(-1, 1, (20, 2, 3)))
    batched.close(), sync.close()


@pytest.mark.parametrize("num_workers", [1, 3])
def test_gathered_sub_envs_equal_sync_on_any_number_of_threads(num_workers):
    """Ant's own data stepped in the caller alone or on a crew, episodes ending and starting."""
    ended = play_side_by_side(
        "Ant-v5", AutoresetMode.NEXT_STEP, num_workers, steps=40, num_envs=4, max_episode_steps=7
    )
    assert ended >= 16


@pytest.mark.parametrize(
    "reset_value",
    [
        np.array([7.0, 8.0]),
        np.array([7, 8]),
        np.array([7.0, 8.0], dtype=np.float32),
        np.array([1, 2, 3]),
        7.5,
    ],
)
def test_merged_infos_of_array_columns_and_array_resets_are_add_info(reset_value):
    """Rows of arrays (Humanoid's tendons) with resets' arrays of the same or another shape or dtype.

    The first holder is a start: its array's dtype is the column's, as add_info decides it.
    """
    columns = {"tendon": np.arange(8.0).reshape(4, 2), "x": np.arange(4.0)}
    resets = [(0, {"tendon": reset_value, "x": 1.5}), (2, {"x": 2.5})]
    from_step = np.array([False, True, False, True])
    rows = [(i, {key: column[i] for key, column in columns.items()}) for i in (1, 3)]
    ordered = sorted(rows + resets, key=lambda pair: pair[0])
    try:
        expected = add_info_one_by_one(ordered, 4)
    except ValueError as refusal:  # add_info itself refuses rows of another shape: so does the merge
        with pytest.raises(ValueError, match=re.escape(str(refusal))):
            merged_infos(columns, from_step, resets, 4)
        return
    merged = merged_infos(columns, from_step, resets, 4)
    assert list(merged) == list(expected)
    for key, value in expected.items():
        assert merged[key].dtype == value.dtype and np.array_equal(merged[key], value), key


@pytest.mark.parametrize("healthy_reward", [10.0, 2, -3.5, np.float32(4.0), 2**60])
def test_the_double_pendulums_array_scores_are_its_row_by_row_scores(healthy_reward):
    """Squares by C's pow of each number, the rest one operation at a time: the same bits and dtypes."""
    env = palaestra.make("InvertedDoublePendulum-v5", healthy_reward=healthy_reward).unwrapped
    rng = np.random.default_rng(12)
    columns = rng.standard_normal((4, 3000)) * rng.uniform(1e-3, 1e3, (4, 3000))
    columns[1, :1000] = rng.uniform(0.5, 2.5, 1000)  # tip heights around the 1 m line
    columns[:, 3000 - 4 :] = [[np.nan, 0.0, -0.0, 1.0]] * 4
    x, y, w1, w2 = columns
    fast, plain = env._scored_rows(x, y, w1, w2), env._plain_scored_rows(x, y, w1, w2)
    for mine, theirs in zip(fast[:2], plain[:2], strict=True):
        assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs, equal_nan=True)
    assert list(fast[2]) == list(plain[2])
    for key, column in plain[2].items():
        assert fast[2][key].dtype == column.dtype and np.array_equal(fast[2][key], column, equal_nan=True), (
            key
        )
    assert fast[1].any() and not fast[1].all()


def test_hoppers_batch_health_is_each_rows_own_health():
    """Inside the state range by every number (the batch) is inside by the extremes (one env)."""
    env = palaestra.make("Hopper-v5").unwrapped
    env.reset(seed=0)
    rng = np.random.default_rng(13)
    qpos = env.init_qpos + rng.uniform(-0.3, 0.3, (400, env.model.nq))
    qvel = rng.uniform(-120, 120, (400, env.model.nv))  # the range is (-100, 100)
    qpos[:50, 1] = 1.25  # healthy heights, so that the state range decides
    qvel[:60:5, 2], qvel[1:60:5, 0], qpos[2:60:5, 3] = np.nan, np.inf, -100.0
    qvel[3:60:5] = np.clip(qvel[3:60:5], -99, 99)
    expected = []
    for positions, velocities in zip(qpos, qvel, strict=True):
        env.set_state(positions, velocities)
        expected.append(env.is_healthy)
    assert env.healthy_batch(qpos, qvel).tolist() == expected
    assert 0 < sum(expected[:60]) < 60


@pytest.mark.parametrize("env_id", ["Hopper-v5", "InvertedPendulum-v5", "Ant-v5", "Humanoid-v5"])
def test_a_steps_info_is_not_changed_by_the_next_steps(env_id):
    """Info arrays are the caller's: starts merged into them leave nothing shared with later steps."""
    env = palaestra.make_vec(env_id, 4)
    env.reset(seed=3)
    kept: list[tuple[dict, dict]] = []
    actions = np.random.default_rng(0).uniform(-1, 1, (40, *env.action_space.shape))
    for act in actions:
        *_, info = env.step(act)
        kept.append((info, {key: value.copy() for key, value in info.items()}))
    started = [not value.all() for info, _ in kept for key, value in info.items() if key.startswith("_")]
    assert any(started)
    for info, copied in kept:
        assert all(np.array_equal(info[key], copied[key], equal_nan=True) for key in copied)
    env.close()


def test_merged_infos_of_steps_and_starts_that_report_nothing_are_empty():
    """InvertedPendulum's: no columns, empty reset infos."""
    assert_merged_like_add_info({}, np.array([True, False, True, False]), [(1, {}), (3, {})])
    assert merged_infos({}, np.array([True, False]), [(1, {})], 2) == {}
