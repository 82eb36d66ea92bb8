"""Start noise of many sub-envs drawn as arrays: each sub-env's own generator, numpy's numbers."""

import threading

import numpy as np
import pytest

import palaestra
from palaestra_mujoco import _start_draws
from palaestra_mujoco._start_draws import (
    gather_rows,
    plain_gather_rows,
    plain_random_rows,
    random_rows,
    uniform_rows,
    uniform_rows_hold,
)
from palaestra_mujoco.mujoco_env import MujocoEnv

compiled = _start_draws.compiled
needs_compiled = pytest.mark.skipif(
    compiled is None, reason="palaestra_mujoco._compiled was not built (no C compiler at install)"
)


def test_uniform_rows_are_numpys_uniform_of_each_rows_doubles():
    assert uniform_rows_hold()
    rng = np.random.default_rng(3)
    half_widths = np.concatenate([[0.0, 1, 5e-3, 0.1], rng.uniform(0, 10, 60), rng.uniform(0, 1e-6, 20)])
    expected = np.array([np.random.default_rng(i).uniform(-h, h, 300) for i, h in enumerate(half_widths)])
    doubles = np.array([np.random.default_rng(i).random(300) for i in range(len(half_widths))])
    assert np.array_equal(uniform_rows(half_widths, doubles), expected)


def sub_envs(env_id, count, **kwargs):
    """``count`` sub-envs of ``env_id`` and a twin of each, with generators seeded alike.

    At least eight starts at once take the array draws (fewer are drawn sub-env by sub-env).
    """
    made = [palaestra.make(env_id, **kwargs).unwrapped for _ in range(2 * count)]
    for k, env in enumerate(made):
        env.np_random = np.random.default_rng(k % count)
    return made[:count], made[count:]


def drawn(envs, plain):
    rows = np.arange(len(envs))
    qpos, qvel = (
        np.full((len(envs), envs[0].model.nq), np.nan),
        np.full((len(envs), envs[0].model.nv), np.nan),
    )
    if plain:
        MujocoEnv.start_states(envs[0], envs, rows, qpos, qvel)
    else:
        envs[0].start_states(envs, rows, qpos, qvel)
    return qpos, qvel


@pytest.mark.parametrize("row_fills", ["compiled", "compiled without normals", "plain"])
@pytest.mark.parametrize("env_id", ["Hopper-v5", "HalfCheetah-v5", "InvertedDoublePendulum-v5", "Swimmer-v5"])
def test_array_starts_are_each_sub_envs_own_start_state(env_id, row_fills, monkeypatch):
    """Uniform and normal velocity noise; sub-envs with their own scales and initial states."""
    if row_fills == "plain":
        monkeypatch.setattr(_start_draws, "compiled", None)
    elif compiled is None:
        pytest.skip("palaestra_mujoco._compiled was not built (no C compiler at install)")
    elif row_fills == "compiled without normals":
        monkeypatch.setattr(_start_draws, "standard_normal", None)
    calls = []
    monkeypatch.setattr(
        "palaestra_mujoco._locomotion.uniform_rows", lambda *args: calls.append(1) or uniform_rows(*args)
    )
    fast, plain = sub_envs(env_id, 9)
    for group in (fast, plain):
        group[1]._reset_noise_scale, group[2]._reset_noise_scale = 0.5, 3  # set_attr, say
        group[3].init_qpos = group[3].init_qpos + 0.25
    for _ in range(3):  # the generators move on alike
        mine, theirs = drawn(fast, plain=False), drawn(plain, plain=True)
        assert np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1])
    assert not np.isnan(mine[0]).any() and len({tuple(row) for row in mine[0]}) == 9
    normal = fast[0].velocity_noise == "normal"
    normals_in_c = _start_draws.standard_normal is not None and _start_draws.normals_hold()
    whole_starts_in_c = row_fills != "plain" and (not normal or normals_in_c)
    assert len(calls) == (0 if whole_starts_in_c else 3)  # else the array draws, each time


@pytest.mark.parametrize(
    ("scale", "error", "words"),
    [
        (-0.1, ValueError, "high - low < 0"),
        (1e308, OverflowError, "high - low range exceeds valid bounds"),
        (float("nan"), OverflowError, "high - low range exceeds valid bounds"),
        ("wide", TypeError, "bad operand type for unary -"),
    ],
)
def test_a_scale_numpy_refuses_is_refused_in_numpys_words(scale, error, words):
    envs, _ = sub_envs("Hopper-v5", 8)
    envs[2]._reset_noise_scale = scale
    with pytest.raises(error, match=words):
        drawn(envs, plain=False)


def test_unusual_scales_and_a_numpy_that_rounds_otherwise_take_the_plain_draws(monkeypatch):
    fast, plain = sub_envs("Walker2d-v5", 8)
    for group in (fast, plain):
        group[1]._reset_noise_scale = np.float32(0.3)
    mine, theirs = drawn(fast, plain=False), drawn(plain, plain=True)
    assert np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1])
    monkeypatch.setattr("palaestra_mujoco._locomotion.uniform_rows_hold", lambda: False)
    monkeypatch.setattr(
        "palaestra_mujoco._locomotion.uniform_rows", lambda *args: pytest.fail("array draws used")
    )
    mine, theirs = drawn(fast, plain=False), drawn(plain, plain=True)
    assert np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1])


def test_a_class_with_its_own_start_state_draws_its_own_way():
    """Reacher draws its target by rejection: its own start_state, sub-env by sub-env."""
    fast, plain = sub_envs("Reacher-v5", 8)
    mine, theirs = drawn(fast, plain=False), drawn(plain, plain=True)
    assert np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1])
    assert [tuple(env.goal) for env in fast] == [tuple(env.goal) for env in plain]


def test_few_starts_at_once_are_drawn_sub_env_by_sub_env(monkeypatch):
    monkeypatch.setattr(
        "palaestra_mujoco._locomotion.uniform_rows", lambda *args: pytest.fail("array draws used")
    )
    fast, plain = sub_envs("Hopper-v5", 7)
    mine, theirs = drawn(fast, plain=False), drawn(plain, plain=True)
    assert np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1])


def test_sub_envs_sharing_a_generator_draw_each_ones_uniforms_then_its_normals():
    """InvertedDoublePendulum draws uniform positions, then normal velocities, per sub-env."""
    fast, plain = sub_envs("InvertedDoublePendulum-v5", 8)
    for group in (fast, plain):
        shared = np.random.default_rng(42)
        for env in group[2:5]:
            env.np_random = shared
    mine, theirs = drawn(fast, plain=False), drawn(plain, plain=True)
    assert np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1])


# -- whole starts in C (uniform velocity noise) against each sub-env's own start_state ------


@needs_compiled
@pytest.mark.parametrize(
    "unusual",
    [
        "float32 scale",
        "bool scale",
        "negative scale",
        "float32 init_qpos",
        "short init_qvel",
        "held generator",
    ],
)
def test_whole_starts_in_c_stop_before_a_row_they_cannot_do_and_draw_nothing_for_it(unusual):
    fast, plain = sub_envs("Walker2d-v5", 5)
    for group in (fast, plain):
        env = group[3]
        if unusual == "float32 scale":
            env._reset_noise_scale = np.float32(0.3)
        elif unusual == "bool scale":
            env._reset_noise_scale = True
        elif unusual == "negative scale":
            env._reset_noise_scale = -0.1
        elif unusual == "float32 init_qpos":
            env.init_qpos = env.init_qpos.astype(np.float32)
        elif unusual == "short init_qvel":
            env.init_qvel = env.init_qvel[:-1]
    rows = np.arange(5)
    qpos, qvel = np.full((5, 9), np.nan), np.full((5, 9), np.nan)
    holding, go = threading.Event(), threading.Event()

    def hold() -> None:  # numpy draws under this lock with the GIL released
        with fast[3].np_random.bit_generator.lock:
            holding.set()
            go.wait(5)

    holder = threading.Thread(target=hold)
    if unusual == "held generator":
        holder.start()
        holding.wait(5)
    try:
        assert _start_draws.uniform_starts(fast, rows, qpos, qvel) == 3
    finally:
        go.set()
        if unusual == "held generator":
            holder.join()
    assert fast[3].np_random.random() == plain[3].np_random.random()  # nothing drawn for row 3
    spec_qpos, spec_qvel = np.full_like(qpos, np.nan), np.full_like(qvel, np.nan)
    MujocoEnv.start_states(plain[0], plain[:3], rows[:3], spec_qpos, spec_qvel)
    assert np.array_equal(qpos[:3], spec_qpos[:3]) and np.array_equal(qvel[:3], spec_qvel[:3])
    assert np.isnan(qpos[3:]).all() and np.isnan(qvel[3:]).all()  # the stopped start's row untouched


@pytest.mark.parametrize(
    ("env_id", "starts", "switches"),
    [
        ("Hopper-v5", "uniform_starts", ["uniform_rows_hold", "compiled"]),
        (
            "InvertedDoublePendulum-v5",
            "normal_starts",
            ["uniform_rows_hold", "normals_hold", "compiled", "standard_normal"],
        ),
    ],
)
def test_whole_starts_in_c_need_the_modules_and_their_checks(env_id, starts, switches, monkeypatch):
    """Without the compiled module (or numpy's normal draw), or where a check fails, nothing is done."""
    envs, _ = sub_envs(env_id, 2)
    qpos = qvel = np.full((2, envs[0].model.nq), np.nan)
    for name in switches:
        value = (lambda: False) if name.endswith("_hold") else None
        monkeypatch.setattr(_start_draws, name, value)
        assert getattr(_start_draws, starts)(envs, np.arange(2), qpos, qvel) == 0, name
        monkeypatch.undo()
    assert np.isnan(qpos).all()
    monkeypatch.setattr(_start_draws, "standard_normal", None)
    assert not _start_draws.normals_hold.__wrapped__()  # nothing to check without numpy's normal draw


@needs_compiled
def test_whole_starts_in_c_refuse_outputs_that_do_not_fit():
    envs, _ = sub_envs("Hopper-v5", 2)
    generators = [env.np_random for env in envs]
    message = "qpos and qvel writable float64 arrays of as many rows, each row's numbers side by side"
    with pytest.raises(TypeError, match=message):
        compiled.uniform_starts(envs, generators, np.empty((3, 6)), np.empty((2, 6)), [0, 1])
    with pytest.raises(TypeError, match=message):
        compiled.uniform_starts(envs, generators, np.empty((2, 12))[:, ::2], np.empty((2, 6)), [0, 1])
    with pytest.raises(TypeError, match="generators and rows must be one per env"):
        compiled.uniform_starts(envs, generators[:1], np.empty((2, 6)), np.empty((2, 6)), [0, 1])
    with pytest.raises(TypeError, match=r"uniform_starts\(envs, generators, qpos, qvel, rows: list\)"):
        compiled.uniform_starts(envs, generators, np.empty((2, 6)), np.empty((2, 6)), np.arange(2))


@needs_compiled
def test_whole_starts_in_c_write_the_batchs_own_rows_and_no_other():
    """Rows that lie apart (a batch's fields): the starts' rows get their states, the rest keep theirs."""
    fast, plain = sub_envs("Hopper-v5", 3)
    batch = np.full((5, 20), np.nan)
    qpos, qvel = batch[:, 2:8], batch[:, 10:16]  # a row's numbers side by side, the rows 20 apart
    assert _start_draws.uniform_starts(fast, np.array([4, 0, 2]), qpos, qvel) == 3
    spec_qpos, spec_qvel = np.full((5, 6), np.nan), np.full((5, 6), np.nan)
    MujocoEnv.start_states(plain[0], plain, np.array([4, 0, 2]), spec_qpos, spec_qvel)
    assert np.array_equal(qpos, spec_qpos, equal_nan=True) and np.array_equal(qvel, spec_qvel, equal_nan=True)
    assert np.isnan(batch[:, :2]).all() and np.isnan(batch[:, 8:10]).all() and np.isnan(batch[:, 16:]).all()
    assert _start_draws.uniform_starts(fast[:1], np.array([5]), qpos, qvel) == 0  # no row 5: numpy's to name


# -- whole starts in C with normal velocity noise (numpy's own normal draw) ------------------

needs_normals = pytest.mark.skipif(
    compiled is None or _start_draws.standard_normal is None or not _start_draws.normals_hold(),
    reason="palaestra_mujoco._normals was not built here (numpy's static random library not found at install)",
)


@needs_compiled
@pytest.mark.parametrize("env_id", ["Hopper-v5", "InvertedDoublePendulum-v5", "HalfCheetah-v5"])
@pytest.mark.parametrize("count", [1, 3, 9])
def test_whole_starts_in_c_are_each_sub_envs_start_state(env_id, count):
    """Uniform velocity noise (Hopper) and normal (numpy's own normal draw), into a batch's rows."""
    fast, plain = sub_envs(env_id, count)
    normal = fast[0].velocity_noise == "normal"
    if normal and (_start_draws.standard_normal is None or not _start_draws.normals_hold()):
        pytest.skip(
            "palaestra_mujoco._normals was not built here (numpy's static random library not found at install)"
        )
    for group in (fast, plain):
        group[0]._reset_noise_scale = 2  # an int, as numpy converts it
        group[-1].init_qpos = group[-1].init_qpos - 0.5
        if count > 2:
            group[1]._reset_noise_scale = 0.0
            group[2].np_random = group[0].np_random  # a shared generator: rows drawn in order
    nq, nv = fast[0].model.nq, fast[0].model.nv
    batch = np.full((count + 2, 2 * (nq + nv)), np.nan)
    qpos, qvel = batch[:, :nq], batch[:, nq + 3 : nq + 3 + nv]  # rows that lie apart, as a batch's do
    rows = np.arange(count)[::-1] + 1  # in any order
    starts = _start_draws.normal_starts if normal else _start_draws.uniform_starts
    for _ in range(2):
        assert starts(fast, rows, qpos, qvel) == count
        spec_qpos, spec_qvel = np.full_like(qpos, np.nan), np.full_like(qvel, np.nan)
        MujocoEnv.start_states(plain[0], plain, rows, spec_qpos, spec_qvel)
        assert np.array_equal(qpos, spec_qpos, equal_nan=True) and np.array_equal(
            qvel, spec_qvel, equal_nan=True
        )
    assert np.isnan(qpos[[0, -1]]).all() and np.isnan(batch[:, nq : nq + 3]).all()  # nothing else written
    assert [env.np_random.random() for env in fast] == [env.np_random.random() for env in plain]


@needs_normals
def test_whole_normal_starts_stop_before_a_start_they_cannot_do():
    fast, plain = sub_envs("InvertedDoublePendulum-v5", 4)
    for group in (fast, plain):
        group[2]._reset_noise_scale = np.float32(0.3)
    qpos, qvel = np.full((4, 3), np.nan), np.full((4, 3), np.nan)
    assert _start_draws.normal_starts(fast, np.arange(4), qpos, qvel) == 2
    assert fast[2].np_random.random() == plain[2].np_random.random()  # nothing drawn for it
    assert np.isnan(qpos[2:]).all() and np.isnan(qvel[2:]).all()
    with pytest.raises(
        TypeError, match=r"normal_starts\(envs, generators, qpos, qvel, rows: list, standard_normal"
    ):
        compiled.normal_starts(fast, [env.np_random for env in fast], qpos, qvel, [0, 1, 2, 3], compiled)


# -- the compiled row fills against their plain specification ----------------------------

BIT_GENERATORS = [np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937, np.random.Philox, np.random.SFC64]


@pytest.mark.parametrize("row_fills", ["compiled", "plain"])
@pytest.mark.parametrize("width", [1, 4, 11])
def test_random_rows_are_each_generators_random(width, row_fills, monkeypatch):
    if row_fills == "plain":
        monkeypatch.setattr(_start_draws, "compiled", None)
    elif compiled is None:
        pytest.skip("palaestra_mujoco._compiled was not built (no C compiler at install)")
    mine = [np.random.Generator(kind(seed)) for seed in range(3) for kind in BIT_GENERATORS]
    theirs = [np.random.Generator(kind(seed)) for seed in range(3) for kind in BIT_GENERATORS]
    for _ in range(2):  # each generator moved on as numpy moves it
        out = np.full((len(mine), width), np.nan)
        random_rows(mine, out)
        assert np.array_equal(out, np.array([rng.random(width) for rng in theirs]))
    assert np.array_equal([rng.random(3) for rng in mine], [rng.random(3) for rng in theirs])


@needs_compiled
def test_the_compiled_draws_leave_a_generator_whose_lock_is_held_to_numpy():
    """Generators draw under their lock with the GIL released: C must not wait for it with the GIL."""
    generators = [np.random.default_rng(seed) for seed in range(4)]
    lock = generators[2].bit_generator.lock
    holding, go = threading.Event(), threading.Event()

    def hold() -> None:
        with lock:
            holding.set()
            go.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait(5)
    out = np.full((4, 3), np.nan)
    assert compiled.random_rows(generators, out) == 2  # stops there, without waiting
    assert np.isnan(out[2:]).all()
    generators = [np.random.default_rng(seed) for seed in range(4)]
    threading.Timer(0.05, go.set).start()  # numpy's own wait takes over, then finishes
    random_rows(generators, out)
    holder.join()
    assert np.array_equal(out, np.array([np.random.default_rng(seed).random(3) for seed in range(4)]))


def test_a_row_numpy_cannot_draw_raises_numpys_error():
    generators = [np.random.default_rng(0), np.random.RandomState(1)]
    with pytest.raises(TypeError, match="out"):
        random_rows(generators, np.empty((2, 3)))


class Holder:
    def __init__(self, value):
        self.init_qpos = value


@pytest.mark.parametrize("row_fills", ["compiled", "plain"])
def test_gather_rows_copy_each_objects_array_as_numpy_assigns_it(row_fills, monkeypatch):
    if row_fills == "plain":
        monkeypatch.setattr(_start_draws, "compiled", None)
    elif compiled is None:
        pytest.skip("palaestra_mujoco._compiled was not built (no C compiler at install)")
    values = [
        np.arange(3.0),
        np.arange(3.0, dtype=np.float32) + 0.1,  # numpy converts: C leaves it to numpy
        np.arange(6.0)[::2],  # strided
        np.array([[7.0, 8.0, 9.0]]),  # (1, 3) broadcasts
        np.arange(3.0).astype(">f8"),  # the other byte order
        [1, 2, 3],  # a list
        np.arange(3.0) * 2,
    ]
    objects = [Holder(value) for value in values]
    out, expected = np.full((len(values), 3), np.nan), np.full((len(values), 3), np.nan)
    gather_rows(objects, "init_qpos", out)
    plain_gather_rows(objects, "init_qpos", expected)
    assert np.array_equal(out, expected)
    assert np.array_equal(out[-1], [0.0, 2.0, 4.0])


@pytest.mark.parametrize(
    ("value", "error", "words"),
    [
        (np.arange(4.0), ValueError, "could not broadcast"),
        (np.arange(3.0).reshape(3, 1), ValueError, "could not broadcast"),
        ("abc", ValueError, "could not convert string to float"),
    ],
)
def test_a_value_numpy_refuses_is_refused_in_numpys_words(value, error, words):
    objects = [Holder(np.arange(3.0)), Holder(value)]
    with pytest.raises(error, match=words):
        gather_rows(objects, "init_qpos", np.empty((2, 3)))
    with pytest.raises(AttributeError, match="init_qvel"):
        gather_rows(objects, "init_qvel", np.empty((2, 3)))


@needs_compiled
@pytest.mark.parametrize(
    "out", [np.empty((3, 2)), np.empty((2, 2), dtype=np.float32), np.empty((4, 2))[::2], np.empty(2)]
)
def test_the_compiled_fills_refuse_an_out_that_is_not_their_rows(out):
    with pytest.raises(TypeError, match="writable C-contiguous float64 array of 2 rows"):
        compiled.random_rows([np.random.default_rng(0)] * 2, out)
    with pytest.raises(TypeError, match="writable C-contiguous float64 array of 2 rows"):
        compiled.gather_rows([Holder(np.zeros(2))] * 2, "init_qpos", out)


def test_the_plain_fills_are_the_loops_they_specify():
    generators = [np.random.default_rng(seed) for seed in range(3)]
    out = np.zeros((3, 2))
    plain_random_rows(generators, out, start=1)
    assert np.array_equal(out[0], [0, 0])
    assert np.array_equal(out[1:], [np.random.default_rng(seed).random(2) for seed in (1, 2)])
