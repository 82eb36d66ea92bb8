"""Bit-identical rollouts against Gymnasium 1.4.0 for every classic-control env and variant."""

import warnings

import gymnasium
import numpy as np
import pytest

import palaestra

CASES = [
    ("CartPole-v1", {}),
    ("CartPole-v0", {}),
    ("CartPole-v1", {"sutton_barto_reward": True}),
    ("MountainCar-v0", {}),
    ("MountainCar-v0", {"goal_velocity": 0.01}),
    ("MountainCarContinuous-v0", {}),
    ("MountainCarContinuous-v0", {"goal_velocity": 0.02}),
    ("Pendulum-v1", {}),
    ("Pendulum-v1", {"g": 9.81}),
    ("Acrobot-v1", {}),
]
RESET_OPTIONS = {
    "CartPole": [None, {"low": -0.2, "high": 0.2}],
    "MountainCar": [None, {"low": -0.55, "high": -0.45}],
    "MountainCarContinuous": [None, {"low": -1.0, "high": -0.3}],
    "Pendulum": [None, {"x_init": 0.5, "y_init": 0.25}],
    "Acrobot": [None, {"low": -0.5, "high": 0.5}],
}


def assert_same(a, b, what):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        assert isinstance(a, np.ndarray) and isinstance(b, np.ndarray), what
        assert a.dtype == b.dtype and a.shape == b.shape, what
        assert a.tobytes() == b.tobytes(), f"{what}: {a} != {b}"
    else:
        assert type(a) is type(b) or (isinstance(a, float) and isinstance(b, float)), (
            f"{what}: {type(a)} vs {type(b)}"
        )
        assert a == b, f"{what}: {a!r} != {b!r}"


def actions_for(space, rng, n):
    if isinstance(space, gymnasium.spaces.Discrete):
        return [int(a) for a in rng.integers(0, int(space.n), n)]
    # include out-of-range torques/forces: both envs clip them
    return [rng.uniform(-3.0, 3.0, size=space.shape).astype(np.float32) for _ in range(n)]


@pytest.mark.parametrize(("env_id", "kwargs"), CASES, ids=lambda v: str(v))
def test_rollouts_match_gymnasium_bit_for_bit(env_id, kwargs):
    name = env_id.split("-")[0]
    rng = np.random.default_rng(1234)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # CartPole-v0 is out of date, by design
        ours = palaestra.make(env_id, **kwargs)
        ref = gymnasium.make(env_id, **kwargs)
        for seed in range(12):
            options = RESET_OPTIONS[name][seed % 2]
            o1, i1 = ours.reset(seed=seed, options=options)
            o2, i2 = ref.reset(seed=seed, options=options)
            assert_same(o1, o2, f"{env_id} reset seed={seed}")
            assert i1 == i2
            for t, action in enumerate(actions_for(ref.action_space, rng, 600)):
                r1 = ours.step(action)
                r2 = ref.step(action)
                where = f"{env_id} seed={seed} t={t}"
                assert_same(r1[0], r2[0], f"{where} obs")
                assert_same(r1[1], r2[1], f"{where} reward")
                assert r1[2] is r2[2] and r1[3] is r2[3], where
                assert r1[4] == r2[4], where
                if r1[2] or r1[3]:
                    break


@pytest.mark.parametrize("env_id", ["CartPole-v1", "MountainCar-v0", "Acrobot-v1"])
def test_stepping_past_termination_matches(env_id):
    """After termination Gymnasium keeps integrating (CartPole: reward 0 and one warning)."""
    ours = palaestra.make(env_id, max_episode_steps=-1, disable_env_checker=True)
    ref = gymnasium.make(env_id, max_episode_steps=-1, disable_env_checker=True)
    ours.reset(seed=3)
    ref.reset(seed=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        done_at = None
        for t in range(300):
            r1, r2 = ours.step(1), ref.step(1)
            assert_same(r1[0], r2[0], f"t={t}")
            assert r1[1:4] == r2[1:4]
            if r1[2] and done_at is None:
                done_at = t
    if env_id == "CartPole-v1":
        assert done_at is not None
        ours_warnings = [
            w for w in caught if "already returned terminated" in str(w.message) and "palaestra" in w.filename
        ]
        assert len(ours_warnings) <= 1


def test_unwrapped_env_matches_without_make():
    from gymnasium.envs.classic_control.cartpole import CartPoleEnv as RefCartPole

    from palaestra_classic_control.cartpole import CartPoleEnv

    ours, ref = CartPoleEnv(), RefCartPole()
    assert_same(ours.reset(seed=7)[0], ref.reset(seed=7)[0], "reset")
    for t in range(8):
        assert_same(ours.step(t % 2)[0], ref.step(t % 2)[0], "step")
    assert np.array_equal(ours.state, ref.state)


@pytest.fixture(params=["compiled kernel", "plain step"])
def float32_step(request, monkeypatch):
    """Run a test once with the compiled MountainCarContinuous kernel and once with the plain step."""
    from palaestra_classic_control import _kernels

    if request.param == "plain step":
        monkeypatch.setattr(_kernels, "compiled_move", None)
    return request.param


def test_the_compiled_float32_kernel_is_built():
    """The C kernel is built where a compiler exists, as in CI.

    Without one the package falls back to the plain steps silently: this test notices a broken build.
    """
    from palaestra_classic_control import _kernels

    assert _kernels.compiled_move is not None, (
        "palaestra_classic_control._compiled was not built: install a C compiler and the "
        "Python headers, then reinstall palaestra-classic-control (uv sync --reinstall-package "
        "palaestra-classic-control)"
    )


def test_the_kernel_leaves_clipped_forces_and_bounds_to_the_plain_step_and_checks_its_arguments():
    from palaestra_classic_control._compiled import mountain_car_continuous_move as move
    from palaestra_classic_control.continuous_mountain_car import Continuous_MountainCarEnv

    constants = Continuous_MountainCarEnv()._constants32
    position, velocity, terminated, reward = move(-0.5, 0.0, 0.5, constants)
    assert (position, velocity, terminated) == (np.float32(position), np.float32(velocity), False)
    assert reward == -0.5 * 0.5 * 0.1
    assert move(-0.5, 0.0, 1.5, constants) is None  # clipped force
    assert move(-0.5, 0.0, float("nan"), constants) is None
    assert move(-0.5, 0.0699, 1.0, constants) is None  # over the speed limit
    assert move(-1.19, -0.02, -1.0, constants) is None  # past the left end
    assert move(0.449, 0.06, 1.0, constants)[2] is True  # at the goal
    with pytest.raises(TypeError, match="takes 4 arguments, got 2"):
        move(0.0, 0.0)
    with pytest.raises(TypeError, match="tuple of 9 floats"):
        move(0.0, 0.0, 0.0, constants[:3])
    with pytest.raises(TypeError, match="must be real number, not str"):
        move(0.0, "fast", 0.0, constants)


def test_mountain_car_continuous_rollouts_match_without_the_kernel(float32_step):
    test_rollouts_match_gymnasium_bit_for_bit("MountainCarContinuous-v0", {})


def mountain_car_actions(rng, kind, observation, t):
    """Force sequences that reach every branch: clipping, speed limit, both ends, the goal."""
    if kind == "bang-bang":  # pumps energy: hits the speed limit, the right end and the goal
        return np.array([1.0 if observation[1] >= 0 else -1.0], np.float32)
    if kind == "left-wall":
        return np.array([-1.0 - rng.uniform(0, 1e-3)], np.float32)
    if kind == "tiny":  # down to float32 subnormals
        return (rng.standard_normal(1) * 10.0 ** rng.integers(-45, 1)).astype(np.float32)
    if kind == "edges":
        above, below = (
            np.nextafter(np.float32(1), np.float32(2)),
            np.nextafter(np.float32(-1), np.float32(-2)),
        )
        huge = np.finfo(np.float32).max  # infinities are refused (see test_non_finite_actions)
        return np.array([rng.choice([-1.0, 1.0, above, below, 0.0, -0.0, huge, -huge])], np.float32)
    if kind == "mixed-dtypes":  # float64 and int actions take the numpy-scalar path
        value = rng.uniform(-1.5, 1.5)
        return [np.array([value]), np.array([value], np.float32), np.array([round(value)])][t % 3]
    return rng.uniform(-1.5, 1.5, 1).astype(np.float32)


@pytest.mark.parametrize(
    "constants",
    [
        {},
        {"goal_velocity": 0.07},
        {"goal_velocity": 0.0700000001},  # between max_speed and its float32 rounding
        {"power": 0.002, "max_speed": 0.05},
        {"power": 1},
        {"min_position": -1.0, "goal_position": 0.3, "max_position": 0.5},
        {"min_action": -0.5, "max_action": 0.7},
        {"power": np.float32(0.0015)},  # not a plain number: numpy scalars all the way
    ],
    ids=str,
)
def test_mountain_car_continuous_float32_steps_match_for_every_branch(constants, float32_step):
    """The compiled step emulates numpy's float32 scalars in doubles: the same bits on every branch."""
    from gymnasium.envs.classic_control.continuous_mountain_car import Continuous_MountainCarEnv as Ref

    from palaestra_classic_control.continuous_mountain_car import Continuous_MountainCarEnv as Ours

    rng = np.random.default_rng(5)
    kinds = ["uniform", "bang-bang", "left-wall", "tiny", "edges", "mixed-dtypes"]
    for kind in kinds:
        ours, ref = Ours(), Ref()
        for name, value in constants.items():
            setattr(ours, name, value)
            setattr(ref, name, value)
        observation, _ = ref.reset(seed=len(kind))
        assert_same(ours.reset(seed=len(kind))[0], observation, "reset")
        for t in range(300):
            action = mountain_car_actions(rng, kind, observation, t)
            mine, theirs = ours.step(action.copy()), ref.step(action.copy())
            for i, what in enumerate(("obs", "reward", "terminated", "truncated")):
                assert_same(mine[i], theirs[i], f"{constants} {kind} t={t} {what}")
            observation = theirs[0]


def test_mountain_car_continuous_follows_state_and_constants_changed_from_outside(float32_step):
    from gymnasium.envs.classic_control.continuous_mountain_car import Continuous_MountainCarEnv as Ref

    from palaestra_classic_control.continuous_mountain_car import Continuous_MountainCarEnv as Ours

    ours, ref = Ours(), Ref()
    ours.reset(seed=0)
    ref.reset(seed=0)
    push = np.array([0.6], np.float32)
    for t in range(40):
        if t == 10:  # the returned observation is the state: editing it in place moves the car
            for env in (ours, ref):
                env.state[0] = -0.9
        if t == 20:  # a new state of another dtype
            for env in (ours, ref):
                env.state = np.array([-0.3, 0.01])
        if t == 30:
            for env in (ours, ref):
                env.power = 0.0025
                env.goal_velocity = 0.01
        assert_same(ours.step(push)[0], ref.step(push)[0], f"t={t}")
    assert ours.power == 0.0025 and ours.goal_velocity == 0.01


def test_mountain_car_continuous_refuses_nan_on_every_path(float32_step):
    from palaestra.error import InvalidAction
    from palaestra_classic_control.continuous_mountain_car import Continuous_MountainCarEnv

    env = Continuous_MountainCarEnv()
    env.reset(seed=0)
    env.step(np.array([0.5], np.float32))  # now the state is float32: the fast path
    before = env.state.copy()
    with pytest.raises(InvalidAction, match="Continuous_MountainCarEnv"):
        env.step(np.array([np.nan], np.float32))
    assert np.array_equal(env.state, before)


def test_cartpole_constants_changed_on_the_env_take_effect_like_the_reference():
    """Domain randomisation style: physical constants edited between and within episodes."""
    ours = palaestra.make("CartPole-v1", disable_env_checker=True)
    ref = gymnasium.make("CartPole-v1", disable_env_checker=True)
    changes = [
        {"gravity": 12.0, "length": 0.7},
        {"kinematics_integrator": "semi-implicit euler", "tau": 0.01},
        {"force_mag": 5.0, "x_threshold": 1.0, "theta_threshold_radians": 0.1},
        {"masspole": 0.3, "total_mass": 1.3, "polemass_length": 0.15},
    ]
    rng = np.random.default_rng(3)
    for episode, change in enumerate(changes):
        assert_same(ours.reset(seed=episode)[0], ref.reset(seed=episode)[0], "reset")
        for t in range(200):
            if t == 5:
                for name, value in change.items():
                    setattr(ours.unwrapped, name, value)
                    setattr(ref.unwrapped, name, value)
            action = int(rng.integers(0, 2))
            mine, theirs = ours.step(action), ref.step(action)
            assert_same(mine[0], theirs[0], f"{change} t={t}")
            assert mine[1:4] == theirs[1:4]
            if theirs[2] or theirs[3]:
                break
    assert ours.unwrapped.gravity == 12.0 and ours.unwrapped.force_mag == 5.0
