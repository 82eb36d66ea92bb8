"""The compiled Box2D blocks under faults: no frozen sub-env, no hang, fair turns, a layout check that cannot be fooled.

Each test failed before its fix: a sub-env reset in a step that failed elsewhere was never
stepped again (NextStep); two errors of the parent's own block hung the next ``recv``; 4 of
16 landers were served 375 / 125 times; a patched layout table, a probe that raised or a
kernel that computed other numbers left the kernel on, silently.
"""

import importlib.util
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import palaestra
from palaestra.error import InvalidAction, InvalidEnvArgumentValue, NoAsyncCallError
from palaestra_box2d import _engine_layout, _kernel_block, _lander_block
from palaestra_box2d._lander_block import LanderBlock
from palaestra_box2d._walker_block import WalkerBlock
from tests.fixtures.vector_envs import SUB_ENV_ERRORS_LOGGED

pytestmark = SUB_ENV_ERRORS_LOGGED
# The tests of the kernels themselves; the others hold the blocks however they step.
KERNELS = pytest.mark.skipif(
    importlib.util.find_spec("palaestra_box2d._stepping") is None
    or os.environ.get(_engine_layout.SWITCH, "").strip() == "0",
    reason="the compiled stepping is not built (no C compiler) or turned off (PALAESTRA_BOX2D_KERNELS=0)",
)


@KERNELS
@pytest.mark.parametrize("env_id", ["LunarLander-v3", "LunarLanderContinuous-v3", "BipedalWalker-v3"])
def test_a_sub_env_reset_in_a_step_that_failed_elsewhere_steps_on(env_id):
    """NextStep, one worker: sub-env 0 ends, the next step fails in sub-env 1; sub-env 0 must not freeze."""
    batched = palaestra.make_vec(env_id, 2, vector_kwargs={"num_workers": 1}, max_episode_steps=5)
    plain = palaestra.make_vec(env_id, 2, vectorization_mode="sync", max_episode_steps=5)
    space = plain.single_action_space
    discrete = env_id == "LunarLander-v3"
    good = np.zeros((1, *space.shape), dtype=np.int64 if discrete else np.float32)
    bad = np.full_like(good, 7) if discrete else np.full_like(good, np.nan)
    try:
        assert batched.unwrapped._local.block.compiled
        for envs in (batched, plain):
            envs.unwrapped.batch_size = 1
            envs.async_reset(seed=3)
            envs.recv()
            envs.recv()
            for _ in range(5):  # sub-env 0 alone reaches its time limit
                envs.send(good, np.array([0]))
                assert envs.recv()[4]["env_id"].tolist() == [0]
            with pytest.raises(InvalidAction):
                envs.step(np.concatenate([good, bad]))  # sub-env 0 resets; sub-env 1 raises
        for t in range(8):
            actions = np.concatenate([good, good])
            got, expected = batched.step(actions), plain.step(actions)
            for k in range(4):
                assert got[k].tobytes() == expected[k].tobytes(), (t, k)
    finally:
        batched.close()
        plain.close()


def test_two_errors_in_the_parents_own_block_are_both_taken_and_the_next_recv_says_so():
    envs = palaestra.make_vec("LunarLander-v3", 4, vector_kwargs={"batch_size": 1, "num_workers": 2})
    try:
        envs.async_reset(seed=0)
        for _ in range(4):
            envs.recv()
        envs.send(np.array([np.nan, np.nan]), np.array([2, 3]))  # the parent's block: sub-envs 2 and 3
        with pytest.raises(InvalidAction) as raised:
            envs.recv()
        assert raised.value.sub_env_index == 2
        with pytest.raises(NoAsyncCallError, match=r"sub-envs \[0, 1, 2, 3\] have no action"):
            envs.recv()
    finally:
        envs.close()


@pytest.mark.parametrize("batch_size", [3, 4])
def test_landers_are_served_in_turn(batch_size):
    """The documented rule: over 400 rounds of k of 16, no sub-env steps more than 1.25x another."""
    envs = palaestra.make_vec("LunarLander-v3", 16, vector_kwargs={"batch_size": batch_size})
    counts = np.zeros(16, dtype=np.int64)
    try:
        envs.async_reset(seed=0)
        for _ in range(400):
            ids = envs.recv()[4]["env_id"]
            counts[ids] += 1
            envs.send(np.zeros(len(ids), dtype=np.int64), ids)
    finally:
        envs.close()
    assert counts.max() <= 1.25 * counts.min(), counts


def test_more_landers_than_python_can_hold_are_refused_before_anything_is_built():
    with pytest.raises(
        InvalidEnvArgumentValue, match=r"num_envs=1,000,000,000 is too many for LunarLanderVectorEnv"
    ):
        palaestra.make_vec("LunarLander-v3", 10**9)


# -- the layout check and the kernels' own probes ------------------------------------------------


@pytest.fixture
def fresh_verdicts():
    """Forget what this process found, before and after (other tests see the real verdict again)."""

    def forget():
        _engine_layout._configure.cache_clear()
        _kernel_block._VERDICTS.clear()
        _kernel_block._WARNED.clear()

    forget()
    yield
    forget()
    assert LanderBlock.verdict()[0] is not None and WalkerBlock.verdict()[0] is not None


CLI = "import sys; from palaestra.cli import main; sys.exit(main())"

MOVES = {
    "body position": 16,
    "body angle": 60,
    "body velocity": 68,
    "body centre of mass": 48,
    "body angular velocity": 76,
    "body inverse mass": 152,
    "body inverse inertia": 160,
    "awake flag": 0x0004,
    "body flags": 6,
    "contact fixture A": 104,
    "contact fixture B": 96,
    "fixture body": 24,
}


@KERNELS
@pytest.mark.parametrize("field", MOVES)
def test_a_wrong_layout_entry_turns_the_kernels_off_saying_why(field, fresh_verdicts, monkeypatch):
    """The table is read when checked (a patched one included), and every entry is checked."""
    layout = tuple((name, MOVES[name] if name == field else value) for name, value in _engine_layout.LAYOUT)
    monkeypatch.setattr(_engine_layout, "LAYOUT", layout)
    assert _engine_layout.stepping() is None
    reason = _engine_layout.unavailable_reason()
    assert reason, field
    module, why = LanderBlock.verdict()
    assert module is None and why == reason


@KERNELS
def test_a_probe_that_raises_turns_the_kernels_off_saying_why(fresh_verdicts, monkeypatch):
    def broken(world):
        raise RuntimeError("the binding changed")

    monkeypatch.setattr(_engine_layout, "_probe_body", broken)
    assert _engine_layout.stepping() is None
    assert (
        _engine_layout.unavailable_reason()
        == "a probe of the engine raised RuntimeError: the binding changed"
    )


def make_twice():
    for _ in range(2):
        palaestra.make_vec("LunarLander-v3", 2).close()


@KERNELS
def test_a_kernel_that_computes_other_numbers_is_caught_by_its_own_probe(fresh_verdicts, monkeypatch):
    rules = list(_lander_block.KERNEL_RULES)
    rules[2] *= 1.01  # the main engine's power
    monkeypatch.setattr(_lander_block, "KERNEL_RULES", tuple(rules))
    module, why = LanderBlock.verdict()
    assert module is None
    assert why.startswith("the compiled LanderKernel gave other observations than the plain step (probe 0")
    assert WalkerBlock.verdict()[0] is not None  # the walker's own kernel is still good
    with pytest.warns(
        UserWarning,
        match=r"LanderBlock: the Box2D sub-envs step in Python, about half as fast, because the compiled LanderKernel",
    ) as caught:
        make_twice()  # warned once a process
    assert len([w for w in caught if "LanderBlock" in str(w.message)]) == 1


@KERNELS
def test_the_switch_turns_the_kernels_off_without_a_warning_and_info_says_so():
    env = {**os.environ, _engine_layout.SWITCH: "0", "PYTHONWARNINGS": "error"}
    code = (
        "import palaestra, numpy as np\n"
        "envs = palaestra.make_vec('LunarLander-v3', 2)\n"
        "assert not envs.unwrapped._local.block.compiled\n"
        "envs.reset(seed=0); envs.step(np.zeros(2, dtype=np.int64)); envs.close()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    info = subprocess.run(
        [sys.executable, "-c", CLI, "info", "BipedalWalker-v3"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "batched=BipedalWalkerVectorEnv: blocks of sub-envs" in info.stdout
    assert (
        "stepped in Python (same numbers, about half as fast): turned off by PALAESTRA_BOX2D_KERNELS=0"
        in info.stdout
    )


@KERNELS
def test_info_says_the_kernels_step_the_blocks():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        info = subprocess.run(
            [sys.executable, "-c", CLI, "info", "LunarLander-v3"],
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert "each block stepped in one compiled call (LanderKernel)" in info.stdout
