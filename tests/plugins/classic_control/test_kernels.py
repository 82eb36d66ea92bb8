"""The suite's fast paths (palaestra_classic_control._kernels) equal their specifications bit for bit."""

import math

import numpy as np
import pytest

from palaestra_classic_control import _kernels, acrobot
from palaestra_classic_control._ops import SCALAR
from palaestra_classic_control.acrobot import AcrobotEnv
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


def layouts(state):
    """The same values in a C-ordered, a Fortran-ordered and a strided (non-contiguous) array."""
    strided = np.empty((4, state.shape[1] * 2))[:, ::2]
    strided[:] = state
    return {"C": state.copy(), "Fortran": np.asfortranarray(state), "strided": strided}


@pytest.mark.parametrize("k", [EULER, SEMI_IMPLICIT], ids=["euler", "semi-implicit"])
@pytest.mark.parametrize("n", [1, 16, _kernels.COMPILED_BATCH, _kernels.COMPILED_BATCH + 1, 1000])
def test_batched_cartpole_equals_the_rule_in_every_memory_layout(k, n):
    """Whichever path a batch takes (compiled or arrays), it is integrate() on each column."""
    for seed in range(5):
        state, force = random_batch(n, seed)
        expected, expected_fell = spec_batch(state, force, k)
        on_arrays = np.array(integrate(*state, force, k, np.cos, np.sin))
        assert on_arrays.tobytes() == expected.tobytes()  # the rule on arrays is the rule on floats
        for layout, given in layouts(state).items():
            new, fell = _kernels.integrate_batch(given, force[::-1][::-1], k, LIMITS)
            assert new.flags.c_contiguous, layout
            assert new.tobytes() == expected.tobytes(), layout
            assert np.array_equal(fell, expected_fell), layout


def test_the_compiled_path_is_taken_where_it_is_exact():
    state, force = random_batch(16, 0)
    if _kernels.compiled is None or not _kernels.LIBM_IS_NUMPY:
        pytest.skip("no compiled kernel, or libm rounds cos/sin unlike numpy here")
    calls = []
    real = _kernels.compiled

    class Spy:
        def cartpole_integrate(self, *args):
            calls.append(len(args[1]))
            return real.cartpole_integrate(*args)

    _kernels.compiled = Spy()
    try:
        _kernels.integrate_batch(state, force, EULER, LIMITS)
        _kernels.integrate_batch(*random_batch(_kernels.COMPILED_BATCH + 1, 0), EULER, LIMITS)
    finally:
        _kernels.compiled = real
    assert calls == [16]


def test_a_fortran_ordered_state_steps_the_vector_env():
    """A state set by the user in any layout (or restored from a snapshot) steps as a C one."""
    import palaestra

    reference = palaestra.make_vec("CartPole-v1", num_envs=8, vectorization_mode="vector_entry_point")
    fortran = palaestra.make_vec("CartPole-v1", num_envs=8, vectorization_mode="vector_entry_point")
    reference.reset(seed=4)
    fortran.reset(seed=4)
    fortran.unwrapped.state = np.asfortranarray(fortran.unwrapped.state)
    for step in range(30):
        actions = np.arange(8) % 2 ^ (step % 3 == 0)
        expected, got = reference.step(actions), fortran.step(actions)
        for a, b in zip(expected[:4], got[:4], strict=True):
            assert np.asarray(a).tobytes() == np.asarray(b).tobytes()


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


def test_the_compiled_float32_step_equals_the_numpy_scalar_step():
    """The compiled MountainCarContinuous move against the env's numpy-scalar step, the rule."""
    if _kernels.compiled_move is None:
        pytest.skip("built without a C compiler: every step is the plain one")
    rng = np.random.default_rng(3)
    env = Continuous_MountainCarEnv()
    taken = 0
    for _ in range(20000):
        state = np.array([rng.uniform(-1.25, 0.65), rng.uniform(-0.08, 0.08)], dtype=np.float32)
        force = np.array([rng.uniform(-1.5, 1.5)], dtype=np.float32)
        env.state = state.copy()
        env._own_state = None  # force the numpy-scalar path
        obs, reward, terminated, _, _ = env._step_scalars(force)
        position, velocity = state.tolist()
        compiled = _kernels.compiled_move(position, velocity, force.item(0), env._constants32)
        if compiled is not None:
            taken += 1
            assert compiled == (float(obs[0]), float(obs[1]), terminated, reward)
    assert taken > 10000  # the common step is the compiled one


def test_the_env_step_takes_the_compiled_move_and_gives_the_rules_numbers():
    """Two envs on the same actions, one forced onto the plain step: the same bits."""
    fast, plain = Continuous_MountainCarEnv(), Continuous_MountainCarEnv()
    fast.reset(seed=5)
    plain.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(3000):
        action = rng.uniform(-1.2, 1.2, 1).astype(np.float32)
        a = fast.step(action)
        b = plain._step_scalars(action)
        assert a[0].tobytes() == b[0].tobytes() and a[1:3] == b[1:3]
        if a[2]:
            fast.reset(seed=6)
            plain.reset(seed=6)


def acrobot_rows(n, seed):
    """Acrobot states from calm starts to the speed limits and past the angle range."""
    rng = np.random.default_rng(seed)
    state = np.column_stack(
        (
            rng.uniform(-4.0, 4.0, n),
            rng.uniform(-4.0, 4.0, n),
            rng.uniform(-15, 15, n),
            rng.uniform(-30, 30, n),
        )
    )
    state[: n // 4] = rng.uniform(-0.1, 0.1, (n // 4, 4))
    return state, np.array([-1.0, 0.0, 1.0])[rng.integers(0, 3, n)]


class Nips(AcrobotEnv):
    book_or_nips = "nips"


@pytest.mark.parametrize("model", [AcrobotEnv, Nips], ids=["book", "nips"])
@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "arrays"])
def test_batched_acrobot_equals_the_rule_on_each_row(model, compiled, monkeypatch):
    """Whichever path a batch takes, it is step_state() and observation() on each row in Python floats."""
    if compiled and (_kernels.compiled is None or not _kernels.LIBM_IS_NUMPY):
        pytest.skip("no compiled kernel, or libm rounds cos/sin unlike numpy here")
    if not compiled:
        monkeypatch.setattr(_kernels, "compiled", None)
    for seed in range(5):
        state, torque = acrobot_rows(64, seed)
        rows = [
            acrobot.step_state(row, t, model, SCALAR)
            for row, t in zip(state.tolist(), torque.tolist(), strict=True)
        ]
        expected = np.array([r[:4] for r in rows])
        expected_obs = np.array([acrobot.observation(*r[:4], math.cos, math.sin) for r in rows])
        new, obs, ended = _kernels.acrobot_batch(np.asfortranarray(state), torque, model)
        assert new.flags.c_contiguous and obs.flags.c_contiguous
        assert new.tobytes() == expected.tobytes()
        assert obs.tobytes() == expected_obs.tobytes()
        assert ended.tolist() == [bool(r[4]) for r in rows]


def test_the_compiled_acrobot_kernel_checks_its_buffers():
    if _kernels.compiled is None:
        pytest.skip("built without a C compiler")
    state, torque = acrobot_rows(4, 0)
    k = _kernels.acrobot_constants(AcrobotEnv)
    out, obs, ended = np.empty((4, 4)), np.empty((4, 6), np.float32), np.empty(4, bool)
    with pytest.raises(TypeError, match="observation must hold 24 items of format 'f'"):
        _kernels.compiled.acrobot_step(state, torque, k, out, np.empty((4, 6)), ended)
    with pytest.raises(TypeError, match="state must hold 16 items of format 'd'"):
        _kernels.compiled.acrobot_step(state[:2].copy(), torque, k, out, obs, ended)
    with pytest.raises(TypeError, match="constants must be a tuple of 17 numbers"):
        _kernels.compiled.acrobot_step(state, torque, k[:-1], out, obs, ended)


def test_batched_acrobot_observations_are_c_ordered():
    """SB3 hands observations to torch as they are: a Fortran-ordered batch changes its sums."""
    import palaestra

    env = palaestra.make_vec("Acrobot-v1", num_envs=3)
    assert env.reset(seed=0)[0].flags.c_contiguous
    assert env.step(np.array([0, 1, 2]))[0].flags.c_contiguous
