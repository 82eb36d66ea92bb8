"""The end of some envs' array steps in one C loop: the numpy version's bits, or nothing written."""

import math
import types

import numpy as np
import pytest

import palaestra
from palaestra_mujoco import _locomotion, _native, half_cheetah, inverted_double_pendulum, vector
from palaestra_mujoco._planar import SCORE_COLUMNS
from palaestra_mujoco.hopper import HopperEnv

needs_compiled = pytest.mark.skipif(
    _native.compiled is None, reason="palaestra_mujoco._compiled was not built (no C compiler at install)"
)

UPRIGHT_IDS = ["Hopper-v5", "Walker2d-v5", "Hopper-v4", "Walker2d-v4"]
ENDED_IN_C = [
    *UPRIGHT_IDS,
    "HalfCheetah-v5",
    "HalfCheetah-v4",
    "InvertedPendulum-v5",
    "InvertedPendulum-v4",
    "InvertedDoublePendulum-v5",
]
WALKED_IN_C = ["Ant-v5", "Humanoid-v5"]  # walk_ends: tested in test_walk_ends.py
# make warns that the v4 ids are out of date (v5 exists), as it should.
pytestmark = pytest.mark.filterwarnings("ignore:.*is out of date:DeprecationWarning")


def batch(env_id, num_envs=48, **kwargs):
    """An array-stepped vector env of ``env_id``, reset, its first sub-env and batch simulation."""
    envs = palaestra.make_vec(env_id, num_envs, vector_kwargs={"num_workers": 1}, **kwargs)
    envs.reset(seed=0)
    return envs, envs.unwrapped.envs[0], envs.unwrapped._sim


def awkward_state(sim, rng, first):
    """States on every side of the rules: bounds hit exactly, NaN, infinities, -0.0, wild speeds."""
    n, nq = sim.qpos.shape
    qpos = first.init_qpos + rng.normal(0, 0.3, (n, nq))
    qvel = rng.normal(0, 8, sim.qvel.shape)
    # Heights, pitches and pole angles on the bounds of the envs' ranges, and just past them.
    qpos[::5, 1] = rng.choice(
        [0.7, 0.8, 2.0, 1.25, 0.2, -0.2, 0.2000000000000001, math.inf, math.nan], len(qpos[::5])
    )
    qpos[1::5, min(2, nq - 1)] = rng.choice([-0.2, 0.2, -1.0, 1.0, -0.0, math.nan], len(qpos[1::5]))
    qvel[2::7, 0] = rng.choice([10.0, -10.0, math.inf, -math.inf, math.nan, -0.0, 150.0], len(qvel[2::7]))
    # On Hopper's state range and beyond.
    qvel[3::7, -1] = rng.choice([100.0, -100.0, 99.99, math.nan, -1e150], len(qvel[3::7]))
    qpos[4::9, 0] = rng.choice([math.inf, -0.0, 1e308, math.nan], len(qpos[4::9]))
    sim.qpos[:], sim.qvel[:] = qpos, qvel
    sim.dt[::4] = rng.choice([0.008, 1e-300, 1e300], len(sim.dt[::4]))
    if "site_xpos" in sim.outputs:  # InvertedDoublePendulum's tip, on and around the 1 m line
        tips = sim.outputs["site_xpos"][:, 0]
        tips[:] = rng.normal(0, 1, tips.shape) * 10.0 ** rng.integers(-3, 100, tips.shape)
        tips[::3, 2] = rng.choice([1.0, 0.9999999999999999, 1.25, math.nan, -0.0], len(tips[::3]))
        sim.outputs["qfrc_constraint"][::2] = rng.normal(0, 30, sim.outputs["qfrc_constraint"][::2].shape)


def with_outputs_to_write(sim):
    """The batch's arrays, its outputs (MuJoCo's, read-only) as copies a test may write."""
    outputs = {name: field.copy() for name, field in sim.outputs.items()}
    return types.SimpleNamespace(qpos=sim.qpos, qvel=sim.qvel, dt=sim.dt, outputs=outputs)


def begun_batch(first, sim, rng):
    """The first half of a batch step with random actions, x before the step awkward too (where noted)."""
    actions = rng.uniform(-1, 1, (len(sim.qpos), first.action_space.shape[0]))
    begun = first.begin_batch(sim, actions)
    if begun is not None:
        begun[0][::6] = rng.choice([math.nan, math.inf, -0.0], len(begun[0][::6]))
    return begun


def ends_of_both(first, sim, begun, width):
    """The C loop's end of the batch and the numpy one's, each into observations of its own."""
    compiled_observations, plain_observations = np.full((2, len(sim.qpos), width), 7.0)
    with np.errstate(
        invalid="ignore"
    ):  # numpy's sin of an infinite angle warns, in both (as in the single env)
        compiled = first.compiled_end_batch(begun, sim, compiled_observations)
    with np.errstate(all="ignore"):  # numpy warns of inf - inf; the single env's Python floats do not, nor C
        plain = first.plain_end_batch(begun, sim, plain_observations)
    return compiled, compiled_observations, plain, plain_observations


def same_bits(mine, spec):
    return mine.dtype == spec.dtype and mine.shape == spec.shape and mine.tobytes() == spec.tobytes()


def assert_same_ends(compiled, compiled_observations, plain, plain_observations):
    assert compiled is not None
    (rewards, terminated, info), (spec_rewards, spec_terminated, spec_info) = compiled, plain
    assert same_bits(rewards, spec_rewards)
    assert same_bits(terminated, spec_terminated)
    assert list(info) == list(spec_info)
    for key in info:
        assert same_bits(info[key], spec_info[key]), key
    assert same_bits(compiled_observations, plain_observations)  # NaN payloads and -0.0 too


def ended_alike(envs, first, sim, rng, awkward, begun_of, ends_of):
    """Three rounds of awkward states, each ended by the C loop and by numpy alike: the terminations counted."""
    terminations = 0
    for _ in range(3):
        awkward(sim, rng, first)
        ends = ends_of(first, sim, begun_of(first, sim, rng), envs.single_observation_space.shape[0])
        assert_same_ends(*ends)
        terminations += ends[0][1].sum()
    return terminations


@needs_compiled
@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        *((env_id, {}) for env_id in ENDED_IN_C),
        (
            "Hopper-v5",
            {"terminate_when_unhealthy": False, "exclude_current_positions_from_observation": False},
        ),
        (
            "Walker2d-v4",
            {"terminate_when_unhealthy": False, "exclude_current_positions_from_observation": False},
        ),
        ("HalfCheetah-v5", {"exclude_current_positions_from_observation": False}),
    ],
)
def test_the_c_end_of_a_batch_step_is_the_numpy_one_bit_for_bit(env_id, kwargs):
    envs, first, sim = batch(env_id, **kwargs)
    sim = with_outputs_to_write(sim)
    terminations = ended_alike(
        envs, first, sim, np.random.default_rng(11), awkward_state, begun_batch, ends_of_both
    )
    can_end = not env_id.startswith("HalfCheetah") and kwargs.get("terminate_when_unhealthy", True)
    assert (terminations > 0) == can_end  # the awkward states include falls
    envs.close()


@needs_compiled
@pytest.mark.parametrize(
    ("kwargs", "edit"),
    [
        ({"healthy_z_range": (1, 2**53), "healthy_angle_range": (-1, 1), "forward_reward_weight": 3}, None),
        ({"healthy_state_range": (-2, 2)}, None),
        ({}, lambda env: setattr(env, "velocity_bound", None)),  # then velocities are not clipped
        ({}, lambda env: setattr(env, "velocity_bound", math.inf)),
    ],
    ids=["int-rules", "narrow-state-range", "unclipped", "infinite-bound"],
)
def test_rules_given_as_exact_ints_or_without_clipping_stay_in_c(kwargs, edit):
    envs, first, sim = batch("Hopper-v5", **kwargs)
    if edit is not None:
        edit(first)
    awkward_state(sim, np.random.default_rng(2), first)
    begun = first.begin_batch(sim, np.zeros((len(sim.qpos), 3)))
    assert_same_ends(*ends_of_both(first, sim, begun, envs.single_observation_space.shape[0]))
    envs.close()


@needs_compiled
@pytest.mark.parametrize(
    ("kwargs", "edit"),
    [
        ({"healthy_reward": 1}, None),  # an int: numpy's survive column is int64
        ({"healthy_z_range": (np.float64(0.7), math.inf)}, None),  # a numpy number
        ({"healthy_angle_range": (-(2**60), 0.2)}, None),  # an int numpy would round
        ({"forward_reward_weight": True}, None),
        ({}, lambda env: setattr(env, "velocity_bound", 0.0)),  # signed zeros to tell apart
        ({}, lambda env: setattr(env, "velocity_bound", math.nan)),
    ],
    ids=["int-healthy-reward", "numpy-bound", "huge-int", "bool-weight", "zero-bound", "nan-bound"],
)
def test_rules_the_loop_would_read_otherwise_leave_the_batch_to_numpy(kwargs, edit):
    envs, first, sim = batch("Hopper-v5", **kwargs)
    if edit is not None:
        edit(first)
    begun = first.begin_batch(sim, np.zeros((len(sim.qpos), 3)))
    observations = np.full((len(sim.qpos), envs.single_observation_space.shape[0]), 7.0)
    assert first.compiled_end_batch(begun, sim, observations) is None
    assert (observations == 7.0).all()  # nothing written
    rewards, terminated, info = first.end_batch(begun, sim, observations)  # numpy's, with its dtypes
    spec = first.plain_end_batch(begun, sim, observations.copy())
    assert info["reward_survive"].dtype == spec[2]["reward_survive"].dtype
    assert same_bits(rewards, spec[0]) and same_bits(terminated, spec[1])
    assert all(same_bits(info[key], spec[2][key]) for key in spec[2])
    envs.close()


@needs_compiled
def test_arrays_of_other_shapes_or_types_leave_the_batch_to_numpy():
    envs, first, sim = batch("Walker2d-v5", num_envs=8)
    begun = first.begin_batch(sim, np.zeros((8, 6)))
    width = envs.single_observation_space.shape[0]
    assert first.compiled_end_batch(begun, sim, np.zeros((8, width), dtype=np.float32)) is None
    assert first.compiled_end_batch(begun, sim, np.zeros((8, width + 1))) is None
    assert first.compiled_end_batch(begun, sim, np.zeros((8, 2 * width))[:, ::2]) is None  # numbers apart
    assert first.compiled_end_batch((begun[0][:7], begun[1]), sim, np.zeros((8, width))) is None
    envs.close()


@needs_compiled
def test_each_loop_names_its_arguments_when_called_wrong():
    compiled = _native.compiled
    with pytest.raises(TypeError, match=r"upright_ends\(buffers: 14-tuple, rules: 10-tuple, skipped: int"):
        compiled.upright_ends((), (), 1, True)
    with pytest.raises(TypeError, match=r"forward_ends\(buffers: 11-tuple, forward_weight, velocity_bound"):
        compiled.forward_ends((), 1.0, None)
    with pytest.raises(TypeError, match=r"balanced_ends\(buffers: 6-tuple, balance_limit\)"):
        compiled.balanced_ends(())


@needs_compiled
@pytest.mark.parametrize(
    ("env_id", "edit"),
    [
        ("HalfCheetah-v5", lambda env: setattr(env, "_forward_reward_weight", np.float64(1.0))),
        ("HalfCheetah-v5", lambda env: setattr(env, "velocity_bound", -1.0)),
        ("InvertedPendulum-v5", lambda env: setattr(env, "balance_limit", np.float64(0.2))),
        ("InvertedPendulum-v5", lambda env: setattr(env, "balance_limit", 2**54 + 1)),
        ("InvertedPendulum-v5", lambda env: setattr(env, "velocity_bound", 10.0)),  # the loop does not clip
        (
            "InvertedDoublePendulum-v5",
            lambda env: setattr(env, "_healthy_reward", 10),
        ),  # an int: int64 column
        ("InvertedDoublePendulum-v5", lambda env: setattr(env, "velocity_bound", np.float64(10.0))),
    ],
    ids=[
        "numpy-weight",
        "negative-bound",
        "numpy-limit",
        "huge-limit",
        "clipped-pendulum",
        "int-alive",
        "numpy-clip",
    ],
)
def test_the_other_loops_leave_rules_numpy_reads_otherwise_to_numpy(env_id, edit):
    envs, first, sim = batch(env_id, num_envs=8)
    edit(first)
    observations = np.full((8, envs.single_observation_space.shape[0]), 7.0)
    begun = begun_batch(first, sim, np.random.default_rng(3))
    assert first.compiled_end_batch(begun, sim, observations) is None
    assert (observations == 7.0).all()  # nothing written
    envs.close()


def test_the_columns_the_loops_fill_are_the_keys_of_a_single_step():
    for env_id, keys in [
        ("Hopper-v5", SCORE_COLUMNS),
        ("HalfCheetah-v5", half_cheetah.SCORE_COLUMNS),
        ("InvertedDoublePendulum-v5", inverted_double_pendulum.SCORE_COLUMNS),
    ]:
        env = palaestra.make(env_id)
        env.reset(seed=0)
        assert tuple(env.step(env.action_space.sample())[4]) == keys
        env.close()


def test_the_envs_that_end_in_c_are_those_tested_here():
    said = {
        cls.env_class
        for cls in vector.MujocoVectorEnv.__subclasses__()
        if vars(cls.env_class).get("ends_in_c")
    }
    tested = set()
    for env_id in ENDED_IN_C + WALKED_IN_C:
        env = palaestra.make(env_id)
        tested.add(type(env.unwrapped))
        env.close()
    assert said == tested


class LenientHopper(HopperEnv):
    """A subclass that changes a rule and does not say its rules are still Hopper's."""

    def healthy_batch(self, qpos, qvel):
        return np.ones(len(qpos), dtype=np.bool_)


def test_a_subclass_that_does_not_say_ends_in_c_is_scored_by_numpy(monkeypatch):
    first = LenientHopper()
    envs, _, sim = batch("Hopper-v5", num_envs=4)
    monkeypatch.setattr(LenientHopper, "compiled_end_batch", lambda *args: pytest.fail("the C loop ran"))
    _, terminated, _ = first.end_batch(first.begin_batch(sim, np.zeros((4, 3))), sim, np.zeros((4, 11)))
    assert not terminated.any()
    envs.close()
    first.close()


def test_without_the_compiled_module_the_numpy_end_runs(monkeypatch):
    envs, first, sim = batch("Hopper-v5", num_envs=4)
    monkeypatch.setattr(_locomotion, "compiled", None)
    monkeypatch.setattr(HopperEnv, "compiled_end_batch", lambda *args: pytest.fail("the C loop ran"))
    rewards, _, info = first.end_batch(first.begin_batch(sim, np.zeros((4, 3))), sim, np.zeros((4, 11)))
    assert list(info) == list(SCORE_COLUMNS) and rewards.shape == (4,)
    envs.close()


@needs_compiled
def test_a_square_python_cannot_take_leaves_the_double_pendulum_to_numpys_overflow_error():
    envs, first, sim = batch("InvertedDoublePendulum-v5", num_envs=4)
    sim = with_outputs_to_write(sim)
    sim.outputs["site_xpos"][2, 0, 0] = 1e200  # x**2 overflows: Python raises
    observations = np.full((4, 9), 7.0)
    assert first.compiled_end_batch(None, sim, observations) is None
    assert (observations == 7.0).all()  # nothing written
    with pytest.raises(OverflowError):
        first.end_batch(None, sim, observations)
    envs.close()
