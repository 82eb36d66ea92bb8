"""Ant's and Humanoid's end of an array step in one C loop (walk_ends): numpy's bits, or nothing written."""

import math

import numpy as np
import pytest

from palaestra_mujoco import _native

from .test_compiled_ends import awkward_state, batch, ended_alike, same_bits, with_outputs_to_write

needs_compiled = pytest.mark.skipif(
    _native.compiled is None, reason="palaestra_mujoco._compiled was not built (no C compiler at install)"
)


def awkward_forces(sim, rng):
    """Contact forces on Ant's clipping bounds and past them, zeros of both signs, wild sizes."""
    forces = sim.outputs["cfrc_ext"]
    forces[:] = rng.normal(0, 1, forces.shape) * 10.0 ** rng.integers(-3, 4, forces.shape)
    flat = forces.reshape(len(forces), -1)
    flat[::3, 7] = rng.choice([1.0, -1.0, -0.0, 0.0, 1.0000000000000002, 50.0], len(flat[::3]))
    flat[1::4, 6] = rng.choice([-1.0, 3.0, -0.0], len(flat[1::4]))


def awkward_walk(sim, rng, first):
    awkward_state(sim, rng, first)
    awkward_forces(sim, rng)
    for name in ("xipos", "xpos", "cinert", "cvel", "qfrc_actuator"):
        if name in sim.outputs:
            sim.outputs[name][:] = rng.normal(0, 3, sim.outputs[name].shape)


def walk_begun(first, sim, rng):
    """The first half of a batch step with random actions, the tracked x-y before the step awkward too."""
    actions = rng.uniform(-0.4, 0.4, (len(sim.qpos), first.action_space.shape[0]))
    before, ctrl = first.begin_batch(sim, actions)
    before = before.copy()
    before[::6, 0] = rng.choice([math.nan, math.inf, -0.0], len(before[::6]))
    return before, ctrl


def ends_of_both(first, sim, begun, width):
    compiled_observations, plain_observations = np.full((2, len(sim.qpos), width), 7.0)
    with np.errstate(all="ignore"):  # numpy warns of inf - inf and overflows in both halves' numpy parts
        compiled = first.compiled_end_batch(begun, sim, compiled_observations)
        plain = first.plain_end_batch(begun, sim, plain_observations)
    return compiled, compiled_observations, plain, plain_observations


@needs_compiled
@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("Ant-v5", {}),
        ("Ant-v5", {"terminate_when_unhealthy": False, "exclude_current_positions_from_observation": False}),
        ("Ant-v5", {"include_cfrc_ext_in_observation": False, "contact_force_range": (-0.5, 2)}),
        ("Ant-v5", {"healthy_z_range": (-1, 1), "forward_reward_weight": 2, "main_body": "torso"}),
        ("Humanoid-v5", {}),
        ("Humanoid-v5", {"terminate_when_unhealthy": False, "contact_cost_range": (-1.0, 1e-3)}),
        (
            "Humanoid-v5",
            {"include_cinert_in_observation": False, "include_qfrc_actuator_in_observation": False,
             "exclude_current_positions_from_observation": False},
        ),
        ("Humanoid-v5", {"include_cvel_in_observation": False, "include_cfrc_ext_in_observation": False}),
    ],
)  # fmt: skip
def test_the_c_end_of_a_walkers_batch_step_is_the_numpy_one_bit_for_bit(env_id, kwargs):
    envs, first, sim = batch(env_id, num_envs=40, **kwargs)
    sim = with_outputs_to_write(sim)
    terminations = ended_alike(
        envs, first, sim, np.random.default_rng(5), awkward_walk, walk_begun, ends_of_both
    )
    assert (terminations > 0) == kwargs.get("terminate_when_unhealthy", True)
    envs.close()


@needs_compiled
@pytest.mark.parametrize(
    ("env_id", "edit"),
    [
        ("Ant-v5", lambda env, sim: sim.outputs["cfrc_ext"].__setitem__((2, 3, 1), math.nan)),  # a NaN cost
        ("Humanoid-v5", lambda env, sim: sim.outputs["cfrc_ext"].__setitem__((1, 2, 0), 1e200)),  # overflows
        ("Ant-v5", lambda env, sim: setattr(env, "_healthy_reward", 1)),  # an int: int64 column
        ("Ant-v5", lambda env, sim: setattr(env, "_contact_force_range", (-1.0, 0.0))),  # signed zeros
        ("Humanoid-v5", lambda env, sim: setattr(env, "_contact_cost_range", (np.float64(-1.0), 10.0))),
        ("Humanoid-v5", lambda env, sim: setattr(env, "_forward_reward_weight", np.float64(1.25))),
        ("Humanoid-v5", lambda env, sim: setattr(env, "velocity_bound", 10.0)),  # the loop does not clip
    ],
    ids=["nan-force", "overflowing-cost", "int-healthy-reward", "zero-bound", "numpy-bound", "numpy-weight",
         "clipped-velocities"],
)  # fmt: skip
def test_what_numpy_reads_or_warns_otherwise_leaves_the_batch_to_numpy(env_id, edit):
    envs, first, sim = batch(env_id, num_envs=8)
    sim = with_outputs_to_write(sim)
    edit(first, sim)
    observations = np.full((8, envs.single_observation_space.shape[0]), 7.0)
    begun = walk_begun(first, sim, np.random.default_rng(3))
    assert first.compiled_end_batch(begun, sim, observations) is None
    assert (observations == 7.0).all()  # nothing written
    with np.errstate(all="ignore"):
        rewards, terminated, info = first.end_batch(begun, sim, observations)  # numpy's
        spec = first.plain_end_batch(begun, sim, observations.copy())
    assert same_bits(rewards, spec[0]) and same_bits(terminated, spec[1])
    assert all(info[key].dtype == spec[2][key].dtype for key in spec[2])
    envs.close()


@needs_compiled
def test_the_walk_loop_names_its_arguments_when_called_wrong():
    with pytest.raises(TypeError, match=r"walk_ends\(buffers: 19-tuple, rules: 9-tuple, extras"):
        _native.compiled.walk_ends((), (), (), 0)
