"""palaestra-jax: the phys2d and tabular envs give Gymnasium 1.4.0's numbers, as JAX arrays."""

import os
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason='palaestra-jax needs jax (pip install "palaestra[jax]")')

import palaestra  # noqa: E402
from palaestra.error import DependencyNotInstalled, InvalidAction  # noqa: E402
from palaestra_jax import CartPoleFunctional  # noqa: E402

# Both libraries warn that phys2d/CartPole-v0 is out of date (v1 exists), as they should.
pytestmark = pytest.mark.filterwarnings("ignore:.*is out of date:DeprecationWarning")

ACTIONS = {
    "phys2d/CartPole-v0": lambda rng: int(rng.integers(2)),
    "phys2d/CartPole-v1": lambda rng: int(rng.integers(2)),
    "phys2d/Pendulum-v0": lambda rng: rng.uniform(-3, 3, (1,)).astype(np.float32),  # out of range: clipped
    "tabular/Blackjack-v0": lambda rng: int(rng.integers(2)),
    "tabular/CliffWalking-v0": lambda rng: np.array([rng.integers(4)], dtype=np.int32),
}
IDS = list(ACTIONS)


def gymnasium_or_skip():
    pytest.importorskip("flax", reason="Gymnasium's JAX envs (the reference) need flax")
    import gymnasium

    return gymnasium


def same(a, b):
    return np.array_equal(np.asarray(a), np.asarray(b))


@pytest.mark.parametrize("env_id", IDS)
def test_episodes_match_gymnasium(env_id):
    gymnasium = gymnasium_or_skip()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = gymnasium.make(env_id)
    ours = palaestra.make(env_id)
    for seed in range(4):
        (a, ia), (b, ib) = ours.reset(seed=seed), ref.reset(seed=seed)
        assert same(a, b) and ia == ib == {}
        assert isinstance(a, jax.Array)
        rng = np.random.default_rng(seed)
        for t in range(300):
            action = ACTIONS[env_id](rng)
            x, y = ours.step(action), ref.step(action)
            assert same(x[0], y[0]), f"{env_id} seed {seed} step {t}"
            assert x[1] == y[1] and type(x[1]) is type(y[1]) is float
            assert x[2:] == y[2:]
            if x[2] or x[3]:
                break


@pytest.mark.parametrize("env_id", IDS)
def test_specs_and_metadata_match_gymnasium(env_id):
    gymnasium = gymnasium_or_skip()
    ours, ref = palaestra.spec(env_id), gymnasium.spec(env_id)
    for field in ("max_episode_steps", "reward_threshold", "disable_env_checker", "order_enforce"):
        assert getattr(ours, field) == getattr(ref, field), field
    assert (ours.vector_entry_point is None) == (ref.vector_entry_point is None)
    env = palaestra.make(env_id)
    assert env.unwrapped.metadata["jax"] is True
    assert env.metadata["render_fps"] == ref.make().metadata["render_fps"]


@pytest.mark.parametrize("env_id", ["phys2d/CartPole-v1", "phys2d/Pendulum-v0"])
def test_vector_envs_match_gymnasium_until_the_first_autoreset(env_id):
    gymnasium = gymnasium_or_skip()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = gymnasium.make_vec(env_id, 6)
    ours = palaestra.make_vec(env_id, 6)
    assert type(ours).__name__ == type(ref).__name__
    assert same(ours.reset(seed=2)[0], ref.reset(seed=2)[0])
    rng = np.random.default_rng(2)
    for _ in range(200):
        actions = np.stack([ACTIONS[env_id](rng) for _ in range(6)])
        x, y = ours.step(actions), ref.step(actions)
        for part in range(4):
            assert same(x[part], y[part])
        if np.asarray(x[2] | x[3]).any():
            break


def test_on_an_autoreset_step_the_other_sub_envs_still_move():
    """Gymnasium 1.4.0's adapter rebuilds the batch from the previous states there; ours does not."""
    env = palaestra.make_vec("phys2d/CartPole-v1", 4)
    obs, _ = env.reset(seed=1)
    step = jax.jit(CartPoleFunctional().transition)
    rng = np.random.default_rng(0)
    pending = None
    for _ in range(300):
        actions = rng.integers(0, 2, 4)
        new_obs, rewards, terminated, truncated, _ = env.step(actions)
        if pending is not None:
            for i in np.flatnonzero(~pending):
                assert same(new_obs[i], step(obs[i], int(actions[i])))
            assert not np.asarray(terminated)[pending].any() and (np.asarray(rewards) == 1.0).all()
            return
        done = np.asarray(terminated | truncated)
        if done.any():
            pending = done
        obs = new_obs
    pytest.fail("no episode ended")


def test_a_functional_env_rolls_out_under_jit_vmap_and_scan():
    """The FuncEnv's functions compose with JAX transformations: a batched scan gives the adapter's steps."""
    func = CartPoleFunctional()
    keys = jax.random.split(jax.random.PRNGKey(0), 3)
    states = jax.vmap(func.initial)(keys)
    actions = jax.numpy.array(np.random.default_rng(0).integers(0, 2, (20, 3)))

    def one_step(state, action):
        nxt = jax.vmap(func.transition)(state, action)
        return nxt, jax.vmap(func.terminal, in_axes=(0, None))(nxt, None)

    final, terminals = jax.jit(lambda s: jax.lax.scan(one_step, s, actions))(states)
    state = states[1]
    single = jax.jit(func.transition)
    for t in range(20):
        state = single(state, actions[t, 1])
    assert np.allclose(final[1], state, rtol=0, atol=1e-6) and terminals.shape == (20, 3)


def test_parameters_change_by_name_and_unknown_ones_are_named():
    env = palaestra.make("phys2d/CartPole-v1", sutton_barto_reward=True)
    env.reset(seed=0)
    assert env.step(1)[1] == 0.0
    with pytest.raises(palaestra.error.InvalidEnvArguments, match="gravty"):
        palaestra.make("phys2d/CartPole-v1", gravty=3.0)
    blackjack = palaestra.make("tabular/Blackjack-v0", sutton_and_barto=False, natural=True)
    assert blackjack.unwrapped.func_env.default_params.natural is True


def test_bad_input_is_refused_with_the_culprit_named():
    env = palaestra.make("phys2d/Pendulum-v0")
    with pytest.raises(RuntimeError, match="call reset"):
        env.unwrapped.step(np.zeros(1, np.float32))
    env.reset(seed=0)
    with pytest.raises(InvalidAction, match="nan"):
        env.step(np.array([np.nan], np.float32))
    with pytest.raises(InvalidAction):
        env.step(np.zeros(2, np.float32))
    cart = palaestra.make("phys2d/CartPole-v1")
    cart.reset(seed=0)
    with pytest.raises(InvalidAction):
        cart.step(2)
    with pytest.raises(ValueError, match="seed must be a non-negative int"):
        cart.reset(seed=-1)
    vec = palaestra.make_vec("phys2d/CartPole-v1", 3)
    vec.reset(seed=0)
    with pytest.raises(ValueError, match="got 2 actions for 3 sub-environments"):
        vec.step(np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="takes no reset_mask"):
        vec.reset(options={"reset_mask": np.ones(3, bool)})


@pytest.mark.parametrize(
    ("env_id", "shape"),
    [
        ("phys2d/CartPole-v1", (400, 600, 3)),
        ("phys2d/Pendulum-v0", (500, 500, 3)),
        ("tabular/CliffWalking-v0", (256, 768, 3)),
        ("tabular/Blackjack-v0", (376, 384, 3)),
    ],
)
def test_frames_are_drawn_by_the_matching_suite(env_id, shape):
    pytest.importorskip("pygame", reason="rendering needs pygame")
    env = palaestra.make(env_id, render_mode="rgb_array")
    env.reset(seed=3)
    first = env.render()
    assert first.shape == shape and first.dtype == np.uint8
    rng = np.random.default_rng(0)
    frames = [first]
    for _ in range(3):
        _, _, terminated, _, _ = env.step(ACTIONS[env_id](rng))
        frames.append(env.render())
        if terminated:
            break
    assert any(not np.array_equal(first, f) for f in frames[1:]) or env_id == "tabular/Blackjack-v0"
    env.close()


def test_envs_pickle_with_their_arguments():
    env = palaestra.make("phys2d/CartPole-v1", sutton_barto_reward=True).unwrapped
    clone = pickle.loads(pickle.dumps(env))
    assert clone.func_env.default_params.sutton_barto_reward is True


def test_without_jax_making_an_env_names_the_extra():
    code = (
        "import sys; sys.modules['jax'] = None\n"
        "import palaestra\n"
        "try:\n    palaestra.make('phys2d/CartPole-v1')\n"
        "except Exception as error:\n    print(type(error).__name__, error)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=os.environ
    )
    assert "DependencyNotInstalled" in out.stdout and 'pip install "palaestra[jax]"' in out.stdout, (
        out.stdout + out.stderr
    )


def test_without_the_plugin_the_namespace_names_the_extra():
    from palaestra._discovery._suites import install_hint

    hint = install_hint("phys2d", "CartPole", set())
    assert hint is not None and 'pip install "palaestra[jax]"' in hint and "palaestra-jax" in hint
    assert issubclass(DependencyNotInstalled, ImportError)


def test_through_the_gymnasium_bridge_they_are_gymnasiums_envs():
    gymnasium = gymnasium_or_skip()
    from palaestra_gymnasium import to_gymnasium

    ours = to_gymnasium(palaestra.make("phys2d/CartPole-v1"))
    assert isinstance(ours, gymnasium.Env) and ours.unwrapped.metadata["jax"] is True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = gymnasium.make("phys2d/CartPole-v1")
    assert same(ours.reset(seed=5)[0], ref.reset(seed=5)[0])
    for action in (0, 1, 1, 0, 1):
        x, y = ours.step(action), ref.step(action)
        assert same(x[0], y[0]) and x[1:] == y[1:]


@pytest.mark.parametrize("sutton_barto", [False, True])
def test_cartpole_rewards_equal_gymnasiums_and_compile_without_control_flow(sutton_barto):
    """The reward is selects (no lax.cond): Gymnasium's values and dtype, and no conditional in the step."""
    from gymnasium.envs.phys2d import cartpole as reference

    ours, theirs = CartPoleFunctional(), reference.CartPoleFunctional()
    our_params = ours.default_params._replace(sutton_barto_reward=sutton_barto)
    their_params = reference.CartPoleParams(sutton_barto_reward=sutton_barto)
    for state in (
        [0.0, 0.0, 0.0, 0.0],
        [3.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.5, 0.0],
    ):  # upright, off track, fallen
        state = jax.numpy.asarray(state, jax.numpy.float32)
        mine = ours.reward(state, 1, state, None, our_params)
        reference_reward = theirs.reward(state, 1, state, None, their_params)
        assert float(mine) == float(reference_reward) and mine.dtype == reference_reward.dtype
        assert mine.weak_type == reference_reward.weak_type
    states = jax.numpy.zeros((8, 4), jax.numpy.float32)
    step = jax.jit(jax.vmap(lambda s: ours.reward(s, 1, s, None, our_params)))
    lowered = step.lower(states).as_text()
    assert "stablehlo.case" not in lowered and "stablehlo.if" not in lowered
