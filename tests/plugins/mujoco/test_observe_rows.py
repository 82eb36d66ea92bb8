"""The started rows' observations in one C loop: SuiteEnv.observe_rows' numbers, or left to numpy."""

import math

import numpy as np
import pytest

import palaestra
from palaestra_mujoco import _locomotion, _native
from palaestra_mujoco.hopper import HopperEnv

needs_compiled = pytest.mark.skipif(
    _native.compiled is None, reason="palaestra_mujoco._compiled was not built (no C compiler at install)"
)


def started_batch(env_id, **kwargs):
    """A reset batch of 10 whose simulations hold awkward states, its first sub-env and its simulation."""
    envs = palaestra.make_vec(env_id, 10, vector_kwargs={"num_workers": 1}, **kwargs)
    envs.reset(seed=0)
    first, sim = envs.unwrapped.envs[0], envs.unwrapped._sim
    rng = np.random.default_rng(5)
    sim.qpos[:] = rng.normal(0, 3, sim.qpos.shape)
    sim.qvel[:] = rng.normal(0, 12, sim.qvel.shape)
    sim.qvel[::3, 0] = [math.nan, math.inf, -math.inf, -0.0][: len(sim.qvel[::3])]
    return envs, first, sim


@needs_compiled
@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("Hopper-v5", {}),
        ("Walker2d-v5", {"exclude_current_positions_from_observation": False}),
        ("HalfCheetah-v5", {}),
        ("InvertedPendulum-v5", {}),
        ("Swimmer-v5", {}),
    ],
)
def test_started_rows_observed_in_c_are_numpys(env_id, kwargs):
    envs, first, sim = started_batch(env_id, **kwargs)
    rows = np.array([7, 0, 3, 9])
    observations, spec = np.full((2, 10, envs.single_observation_space.shape[0]), 5.0)
    assert first._observed_in_c(sim, rows, observations)
    started = np.empty((len(rows), spec.shape[1]))
    first.observe_rows(sim, rows, started)
    spec[rows] = started
    assert observations.tobytes() == spec.tobytes()  # NaN bits too; the other rows untouched
    envs.close()


@needs_compiled
def test_what_the_loop_cannot_observe_is_left_to_numpy():
    envs, _, sim = started_batch("Hopper-v5")
    observations = np.full((10, 11), 5.0)
    loop = _native.compiled.observe_rows
    assert not loop(sim.qpos, sim.qvel, observations, [10], 1, 10.0)  # no row 10
    assert not loop(sim.qpos, sim.qvel, observations.astype(np.float32), [0], 1, 10.0)
    assert not loop(sim.qpos, sim.qvel, observations[:, :10], [0], 1, 10.0)  # not the layout's width
    assert not loop(
        sim.qpos, sim.qvel, observations, [0], 1, np.float64(10.0)
    )  # a bound numpy reads otherwise
    assert not loop(sim.qpos, sim.qvel, observations, [0], 1, 0.0)
    assert (observations == 5.0).all()
    with pytest.raises(TypeError, match=r"observe_rows\(qpos, qvel, observations, rows: list, skipped: int"):
        loop(sim.qpos, sim.qvel, observations, np.arange(2), 1, 10.0)
    envs.close()


class OwnObservationHopper(HopperEnv):
    """A subclass that observes otherwise: its started rows are observed its own way."""

    def observe_batch(self, qpos, qvel, observations):
        observations[:] = 1.5


def test_a_class_that_observes_otherwise_is_not_observed_in_c(monkeypatch):
    envs, _, sim = started_batch("Hopper-v5")
    own = OwnObservationHopper()
    observations = np.zeros((10, 11))
    assert not own._observed_in_c(sim, np.array([1]), observations)
    own.start_batch(sim, np.array([1, 4]), observations)
    assert (observations[[1, 4]] == 1.5).all() and not observations[[0, 2, 3]].any()
    monkeypatch.setattr(_locomotion, "compiled", None)
    assert not envs.unwrapped.envs[0]._observed_in_c(sim, np.array([1]), observations)
    own.close()
    envs.close()


def pendulum_batch():
    """InvertedDoublePendulum's batch with awkward states and constraint forces, its first sub-env, its outputs."""
    envs, first, sim = started_batch("InvertedDoublePendulum-v5")
    outputs = {name: field.copy() for name, field in sim.outputs.items()}  # MuJoCo's are read-only
    outputs["qfrc_constraint"][:, 0] = [15.0, -10.0, 10.0, math.nan, -0.0, 3.0, -math.inf, 9.99, 1e300, -12.0]
    sim.qpos[2, 1], sim.qpos[4, 2] = math.inf, -0.0
    return envs, first, type("Sim", (), {"qpos": sim.qpos, "qvel": sim.qvel, "outputs": outputs})()


@needs_compiled
def test_the_double_pendulums_started_rows_observed_in_c_are_numpys():
    envs, first, sim = pendulum_batch()
    rows = np.array([7, 0, 3, 9, 2, 4])
    observations, spec = np.full((2, 10, 9), 5.0)
    with np.errstate(
        invalid="ignore"
    ):  # numpy's sin of an infinite angle warns, in both (as in the single env)
        assert first._observed_in_c(sim, rows, observations)
        started = np.empty((len(rows), 9))
        first.observe_rows(sim, rows, started)
    spec[rows] = started
    assert observations.tobytes() == spec.tobytes()  # NaN bits and -0.0 too; the other rows untouched
    envs.close()


@needs_compiled
def test_what_the_pendulum_loop_cannot_observe_is_left_to_numpy():
    envs, first, sim = pendulum_batch()
    observations = np.full((10, 9), 5.0)
    loop = _native.compiled.pendulum_observe_rows
    angles = np.zeros((1, 2)), np.ones((1, 2))
    batch = (sim.qpos, sim.qvel, sim.outputs["qfrc_constraint"], observations)
    assert not loop(batch, angles, [10], 10.0)  # no row 10
    assert not loop(batch, angles, [0, 1], 10.0)  # angles for one row only
    assert not loop(batch, angles, [0], 0.0)  # signed zeros numpy's clipping may tell apart
    assert not loop(batch, angles, [0], np.float64(10.0))
    assert not loop((*batch[:3], observations[:, :8]), angles, [0], 10.0)  # not the layout's width
    assert not loop(batch, (angles[0].astype(np.float32), angles[1]), [0], 10.0)
    assert (observations == 5.0).all()
    with pytest.raises(
        TypeError, match=r"pendulum_observe_rows\(batch: 4-tuple, angles: 2-tuple, rows: list"
    ):
        loop(batch, angles, (0,), 10.0)
    first.velocity_bound = np.float64(10.0)  # a bound numpy reads otherwise: the numpy observation
    assert not first._observed_in_c(sim, np.array([0]), observations)
    envs.close()
