"""Episode starts from the rules held in rows (RowStarts): each sub-env's own start, bit for bit."""

import threading
import warnings

import numpy as np
import pytest

import palaestra
from palaestra.vector import AutoresetMode
from palaestra_mujoco import _native
from palaestra_mujoco._row_starts import RowStarts

from .test_vector_arrays import assert_steps_alike

needs_compiled = pytest.mark.skipif(
    _native.compiled is None, reason="palaestra_mujoco._compiled was not built (no C compiler at install)"
)

# The array-stepped ids whose starts are the suite's (Reacher and Pusher draw targets of their own).
HELD_IDS = [
    "HalfCheetah-v5",  # normal velocity noise
    "Hopper-v5",
    "InvertedDoublePendulum-v5",  # normal velocity noise
    "InvertedPendulum-v5",
    "Swimmer-v5",
    "Walker2d-v5",
]


def pair(env_id, num_envs, mode=AutoresetMode.NEXT_STEP, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batched = palaestra.make_vec(env_id, num_envs, autoreset_mode=mode, **kwargs)
        sync = palaestra.make_vec(
            env_id, num_envs, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}, **kwargs
        )
    return batched, sync


def counting(batched):
    """The sub-envs that start as their own starts do (the Python path), in order, as a growing list."""
    counted = []
    original = batched._start_as_envs

    def spy(indices, rows):
        counted.extend(indices)
        original(indices, rows)

    batched._start_as_envs = spy
    return counted


def actions_for(env, steps, seed=0):
    low, high = env.single_action_space.low, env.single_action_space.high
    return np.random.default_rng(seed).uniform(low, high, (steps, env.num_envs, *low.shape))


def play(batched, sync, actions, mode=AutoresetMode.NEXT_STEP):
    """Step both alike (every result equal); the sub-envs started in all, and those started by reset()."""
    started = reset_started = 0
    for t, act in enumerate(actions.astype(np.float32)):
        mine, theirs = batched.step(act), sync.step(act)
        for x, y in zip(mine[:4], theirs[:4], strict=True):
            assert x.dtype == y.dtype and np.array_equal(x, y), f"step {t}"
        done = mine[2] | mine[3]
        if mode is AutoresetMode.DISABLED and done.any():
            x, y = batched.reset(options={"reset_mask": done}), sync.reset(options={"reset_mask": done})
            assert np.array_equal(x[0], y[0])
            reset_started += int(done.sum())
        elif t + 1 < len(actions) or mode is AutoresetMode.SAME_STEP:
            started += int(done.sum())  # started in the next step (or in this one)
    return started + reset_started, reset_started


@needs_compiled
@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@pytest.mark.parametrize("env_id", HELD_IDS)
def test_after_its_first_start_each_sub_env_starts_from_its_held_rules(env_id, mode):
    batched, sync = pair(env_id, 4, mode, max_episode_steps=5)
    counted = counting(batched)
    assert isinstance(batched._held, RowStarts)
    (a, _), (b, _) = batched.reset(seed=3), sync.reset(seed=3)
    assert np.array_equal(a, b) and counted == [0, 1, 2, 3]
    started, by_reset = play(batched, sync, actions_for(batched, 24), mode)
    assert started >= 16
    assert len(counted) == 4 + by_reset  # reset() takes a sub-env's rules again; autoresets start from them
    batched.close(), sync.close()


@needs_compiled
def test_a_timestep_changed_in_a_sub_envs_model_times_its_next_episode_again():
    """Domain randomization during a run: the changed sub-env starts on its own, its next episode timed anew."""
    batched, sync = pair("Hopper-v5", 3, max_episode_steps=4)
    counted = counting(batched)
    batched.reset(seed=1), sync.reset(seed=1)
    actions = actions_for(batched, 16, seed=1)
    assert_steps_alike(batched, sync, actions[:2])
    for subs in (batched.envs, [env.unwrapped for env in sync.envs]):
        subs[2].model.opt.timestep = 0.004  # counts from its next start
    assert_steps_alike(batched, sync, actions[2:])
    assert counted == [0, 1, 2, 2]
    assert batched.envs[2]._dt == 0.004 * batched.envs[2].frame_skip
    batched.close(), sync.close()


@needs_compiled
@pytest.mark.parametrize(
    "bit_generator",
    [np.random.PCG64, np.random.MT19937, np.random.Philox, np.random.SFC64, np.random.PCG64DXSM],
)
def test_generators_set_through_set_attr_are_taken_at_the_next_starts(bit_generator):
    batched, sync = pair("InvertedPendulum-v5", 3, max_episode_steps=3)
    counted = counting(batched)
    batched.reset(seed=2), sync.reset(seed=2)
    for env in (batched, sync):
        env.set_attr("np_random", [np.random.Generator(bit_generator(50 + k)) for k in range(3)])
    assert_steps_alike(batched, sync, actions_for(batched, 14, seed=2))
    assert counted == [0, 1, 2, 0, 1, 2]  # reset(), then each sub-env's first start after set_attr
    batched.close(), sync.close()


@needs_compiled
def test_one_generator_shared_by_every_sub_env_draws_in_sub_env_order():
    batched, sync = pair("InvertedDoublePendulum-v5", 4, max_episode_steps=3)
    batched.reset(seed=5), sync.reset(seed=5)
    for env in (batched, sync):
        env.set_attr("np_random", np.random.default_rng(77))  # one object for all, as in SyncVectorEnv
    assert_steps_alike(batched, sync, actions_for(batched, 14, seed=5))
    assert batched._held._bitgens.all()  # held: the shared generator is each sub-env's
    batched.close(), sync.close()


@needs_compiled
@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("init_qpos", lambda env: env.init_qpos.astype(np.float32)),
        ("init_qvel", lambda env: [list(env.init_qvel)] * 3),
        ("_reset_noise_scale", lambda env: True),
        ("_reset_noise_scale", lambda env: np.float32(0.25)),
    ],
)
def test_rules_the_loop_does_not_read_as_numpy_would_start_each_time_on_their_own(name, value):
    batched, sync = pair("Hopper-v5", 3, max_episode_steps=3)
    counted = counting(batched)
    for env in (batched, sync):
        env.set_attr(name, value(batched.envs[0]))  # one value for all: the array steps stay
    assert batched.steps_arrays
    batched.reset(seed=4), sync.reset(seed=4)
    started, _ = play(batched, sync, actions_for(batched, 12, seed=4))
    assert started >= 6 and len(counted) == 3 + started  # every start on its own
    batched.close(), sync.close()


@needs_compiled
def test_a_scale_set_after_the_rules_were_held_raises_numpys_error_at_the_next_start():
    batched, sync = pair("InvertedPendulum-v5", 2, max_episode_steps=2)
    batched.reset(seed=3), sync.reset(seed=3)
    actions = actions_for(batched, 2, seed=3)
    play(batched, sync, actions)  # both episodes end
    for env in (batched, sync):
        env.set_attr("_reset_noise_scale", 10**400)
        with pytest.raises(OverflowError, match="int too large to convert to float"):
            env.step(actions[0].astype(np.float32))
    batched.close(), sync.close()


@needs_compiled
def test_an_int_noise_scale_is_held_as_numpy_converts_it():
    batched, sync = pair("Walker2d-v5", 3, max_episode_steps=3)
    counted = counting(batched)
    for env in (batched, sync):
        env.set_attr("_reset_noise_scale", 1)
    batched.reset(seed=4), sync.reset(seed=4)
    started, _ = play(batched, sync, actions_for(batched, 12, seed=4))
    assert started >= 6 and counted == [0, 1, 2]
    batched.close(), sync.close()


@needs_compiled
def test_a_rule_set_on_a_sub_env_directly_counts_from_the_next_reset():
    """As array steps read every setting through the vector env: set_attr takes it at once."""
    batched, twin = (palaestra.make_vec("InvertedPendulum-v5", 3, max_episode_steps=3) for _ in range(2))
    batched.reset(seed=6), twin.reset(seed=6)  # the twin is left alone
    batched.envs[1].init_qpos = batched.envs[1].init_qpos + 0.5  # behind the vector env's back
    actions = actions_for(batched, 8, seed=6).astype(np.float32)
    for act in actions:
        assert np.array_equal(batched.step(act)[0], twin.step(act)[0])  # the held start stands
    moved, _ = batched.reset(seed=6)
    assert moved[1, 0] != twin.reset(seed=6)[0][1, 0]  # reset() took it
    batched.close(), twin.close()


@needs_compiled
def test_a_generator_whose_lock_another_thread_holds_is_left_to_numpy():
    """Generators draw under their lock with the GIL released: the loop must not wait for one, holding the GIL."""
    batched, sync = pair("InvertedPendulum-v5", 4, max_episode_steps=2)
    counted = counting(batched)
    batched.reset(seed=8), sync.reset(seed=8)
    actions = actions_for(batched, 6, seed=8)
    assert_steps_alike(batched, sync, actions[:2])  # every sub-env's episode ends here
    holding, go = threading.Event(), threading.Event()

    def hold():
        with batched.generators[2].bit_generator.lock:
            holding.set()
            go.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait(5)
    threading.Timer(0.05, go.set).start()  # numpy's own wait takes over, then finishes
    try:
        assert_steps_alike(batched, sync, actions[2:3])  # the starts
    finally:
        go.set()
        holder.join()
    assert counted == [0, 1, 2, 3, 2]
    assert_steps_alike(batched, sync, actions[3:])
    batched.close(), sync.close()


@needs_compiled
def test_the_loop_stops_where_nothing_is_held_and_refuses_malformed_rows():
    held = RowStarts(3, 2, 2)
    sim = type("Sim", (), {})()
    sim.qpos, sim.qvel = np.zeros((3, 2)), np.zeros((3, 2))
    sim.timing = ([type("Options", (), {"timestep": 0.01})()] * 3, np.full(3, 0.01))
    generators = [np.random.default_rng(k) for k in range(3)]
    assert held.start(generators, sim, [0, 1, 2], 0, normal=False) == 0  # nothing held yet
    for i in range(3):
        env = type(
            "Env", (), {"_reset_noise_scale": 0.1, "init_qpos": np.ones(2), "init_qvel": np.zeros(2)}
        )()
        held.hold(i, env, generators[i])
    assert (
        held.start(generators, sim, [0, 5, 1], 0, normal=False) == 1
    )  # no row 5: Python's indexing names it
    assert held.start(generators, sim, [1, 2], 0, normal=False) == 2
    expected = [np.ones(2) + np.random.default_rng(k).uniform(-0.1, 0.1, 4)[:2] for k in range(3)]
    assert np.array_equal(sim.qpos, expected)
    sim.timing[1][2] = np.nan  # to be timed again
    assert held.start(generators, sim, [0, 2], 0, normal=False) == 1
    with pytest.raises(TypeError, match="held_starts"):
        _native.compiled.held_starts((), sim.timing, [0], 0, sim.qpos, sim.qvel, None)
    with pytest.raises(TypeError, match="one per sub-env"):
        held.start(generators, type("Sim", (), {"timing": sim.timing, "qpos": np.zeros((3, 3)), "qvel": sim.qvel})(),
                   [0], 0, normal=False)  # fmt: skip


def test_a_copy_of_the_held_rules_holds_nothing():
    """The held addresses are this process's, of these generators: a copy or a pickle takes the rules again."""
    import copy
    import pickle

    held = RowStarts(3, 2, 4)
    held.hold(1, type("Env", (), {"_reset_noise_scale": 0.1, "init_qpos": np.ones(2), "init_qvel": np.ones(4)})(),
              np.random.default_rng(0))  # fmt: skip
    assert held._bitgens[1] != 0
    for twin in (copy.deepcopy(held), pickle.loads(pickle.dumps(held))):
        assert not twin._bitgens.any() and twin._generators == [None] * 3
        assert twin._init_qpos.shape == (3, 2) and twin._init_qvel.shape == (3, 4)


@needs_compiled
def test_python_run_by_a_timestep_read_cannot_pull_the_rows_from_under_the_loop():
    generators = [np.random.default_rng(k) for k in range(2)]
    held = RowStarts(2, 1, 1)
    for i in range(2):
        env = type(
            "Env", (), {"_reset_noise_scale": 0.1, "init_qpos": np.ones(1), "init_qvel": np.zeros(1)}
        )()
        held.hold(i, env, generators[i])

    class Meddling:
        @property
        def timestep(self):
            generators.clear()  # the vector env's generators gone while the loop reads the timestep
            return 0.01

    sim = type("Sim", (), {"qpos": np.zeros((2, 1)), "qvel": np.zeros((2, 1))})()
    sim.timing = ([Meddling(), Meddling()], np.full(2, 0.01))
    assert held.start(generators, sim, [0, 1], 0, normal=False) == 0  # stopped, nothing drawn
    assert not sim.qpos.any()


@needs_compiled
@pytest.mark.parametrize("env_id", ["InvertedPendulum-v5", "InvertedDoublePendulum-v5"])
def test_a_run_of_calls_snapshots_and_partial_resets_starts_as_the_plain_path(env_id):
    """Held starts against the same vector env with none held (its Python path, the specification)."""
    runs = []
    for holds in (True, False):
        env = palaestra.make_vec(env_id, 5, max_episode_steps=6)
        if not holds:
            env._held = None
        schedule = np.random.default_rng(11)
        actions = actions_for(env, 60, seed=11).astype(np.float32)
        seen, saved = [env.reset(seed=11)[0]], None
        for t, act in enumerate(actions):
            event = schedule.integers(12)
            if event == 0:
                saved = env.snapshot()
            elif event == 1 and saved is not None:
                env.restore(saved)
            elif event == 2:
                env.call("state_vector")  # pushes every sub-env
            elif event == 3:
                seen.append(env.reset(options={"reset_mask": schedule.random(5) < 0.4})[0])
            elif event == 4:
                env.set_attr("np_random", [np.random.default_rng(t * 10 + k) for k in range(5)])
            seen.extend(env.step(act)[:4])
        runs.append(seen)
        env.close()
    assert all(np.array_equal(x, y) for x, y in zip(*runs, strict=True))
