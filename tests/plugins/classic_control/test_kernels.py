"""The suite's fast paths (palaestra_classic_control._kernels) equal their specifications bit for bit."""

import math

import numpy as np
import pytest

from palaestra_classic_control import _kernels
from palaestra_classic_control.cartpole import PHYSICS, failed, integrate
from palaestra_classic_control.continuous_mountain_car import Continuous_MountainCarEnv

NAMES = ("polemass_length", "total_mass", "gravity", "length", "masspole", "tau")
EULER = (*(PHYSICS[name] for name in NAMES), True)
SEMI_IMPLICIT = (*EULER[:-1], False)
LIMITS = (PHYSICS["x_threshold"], PHYSICS["theta_threshold_radians"])


def spec_batch(state, force, k):
    """The specification: integrate() and failed() on each column, in Python floats."""
    columns = [
        integrate(*c, f, k, math.cos, math.sin) for c, f in zip(state.T.tolist(), force.tolist(), strict=True)
    ]
    new = np.array(columns).T
    return new, np.array([failed(c[0], c[2], *LIMITS) for c in columns])


def random_batch(n, seed):
    rng = np.random.default_rng(seed)
    state = rng.uniform(-3.0, 3.0, (4, n))
    state[:, : n // 4] = rng.uniform(-0.05, 0.05, (4, n // 4))  # also ordinary states
    return state, np.where(rng.integers(0, 2, n) == 1, 10.0, -10.0)


@pytest.mark.skipif(
    not _kernels.LOOP_IS_EXACT, reason="numpy's cos/sin round unlike libm's here: no loop path"
)
@pytest.mark.parametrize("k", [EULER, SEMI_IMPLICIT], ids=["euler", "semi-implicit"])
@pytest.mark.parametrize("path", ["compiled", "python loop"])
def test_small_batch_paths_equal_the_specification(k, path, monkeypatch):
    if path == "python loop":
        monkeypatch.setattr(_kernels, "compiled", None)
    elif _kernels.compiled is None:
        pytest.fail("the compiled kernels were not built (a C compiler is needed)")
    for seed in range(20):
        state, force = random_batch(_kernels.SMALL_BATCH, seed)
        new, fell = _kernels.integrate_batch(state, force, k, LIMITS, np.empty((5, state.shape[1])))
        expected, expected_fell = spec_batch(state, force, k)
        assert new.tobytes() == expected.tobytes() and np.array_equal(fell, expected_fell)


@pytest.mark.parametrize("k", [EULER, SEMI_IMPLICIT], ids=["euler", "semi-implicit"])
def test_the_array_path_equals_the_specification_on_arrays(k):
    state, force = random_batch(1000, 1)
    new, fell = _kernels.integrate_batch(state, force, k, LIMITS, np.empty((5, 1000)))
    expected = np.array(integrate(*state, force, k, np.cos, np.sin))  # the same function, on arrays
    assert new.tobytes() == expected.tobytes()
    assert np.array_equal(fell, failed(expected[0], expected[2], *LIMITS))
    if _kernels.LOOP_IS_EXACT:  # and then on floats too
        assert new.tobytes() == spec_batch(state, force, k)[0].tobytes()


def test_the_compiled_cartpole_kernel_checks_its_buffers():
    if _kernels.compiled is None:
        pytest.skip("built without a C compiler")
    state, force = random_batch(4, 0)
    constants = (*EULER, *LIMITS)
    with pytest.raises(TypeError, match="state must hold 16 items of format 'd'"):
        _kernels.compiled.cartpole_integrate(
            state[:, :2].copy(), force, constants, np.empty_like(state), np.empty(4, bool)
        )
    with pytest.raises(TypeError, match="failed must hold 4 items of format '\\?'"):
        _kernels.compiled.cartpole_integrate(state, force, constants, np.empty_like(state), np.empty(4))
    with pytest.raises(TypeError, match="constants must be a tuple of 9 numbers"):
        _kernels.compiled.cartpole_integrate(state, force, EULER, np.empty_like(state), np.empty(4, bool))


def test_the_float32_step_equals_numpys_scalar_step():
    """move_float32 (and the compiled move) against the env's numpy-scalar step, the specification."""
    rng = np.random.default_rng(3)
    env = Continuous_MountainCarEnv()
    k32, k = env._constants32, env._constants64
    for _ in range(20000):
        state = np.array([rng.uniform(-1.25, 0.65), rng.uniform(-0.08, 0.08)], dtype=np.float32)
        force = np.array([rng.uniform(-1.5, 1.5)], dtype=np.float32)
        env.state = state.copy()
        env._own_state = None  # force the numpy-scalar path
        obs, reward, terminated, _, _ = env._step_scalars(force)
        position, velocity = state.tolist()
        fast = _kernels.move_float32(position, velocity, force.item(0), k32, k)
        assert fast == (float(obs[0]), float(obs[1]), terminated, reward)
        if _kernels.compiled_move is not None:
            compiled = _kernels.compiled_move(position, velocity, force.item(0), k32)
            assert compiled is None or compiled == fast
