"""The Box2D kernels' crews: the workers step as threads of the blocks, with the plain step's bits.

``vector_kwargs={"num_workers": k}`` asks for ``k`` workers. Where the Box2D kernel takes
the sub-envs (``KernelBlock.steps_in_threads``), the workers are the blocks' threads
(``palaestra_box2d/_crew.c``), up to ``THREADS_PER_BLOCK`` a block and never more blocks
than cores. The number of cores (``usable_cores``) and the threads a block may take are set
here, so each test takes the same path on any machine.
"""

import importlib.util
import os
import threading

import numpy as np
import pytest

import palaestra
import palaestra.vector._async as async_module
import palaestra.vector._processes as processes_module
from palaestra.vector import AutoresetMode
from tests.fixtures.compare import assert_same_tree
from tests.plugins.box2d.test_kernels import assert_same_bits, continuous_actions, walker_actions

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("palaestra_box2d._stepping") is None
    or os.environ.get("PALAESTRA_BOX2D_KERNELS", "").strip() == "0",
    reason="the compiled stepping is not built (no C compiler) or turned off (PALAESTRA_BOX2D_KERNELS=0)",
)


@pytest.fixture
def cores(monkeypatch):
    """Set how many cores the vector envs see (and, optionally, the threads a block may take)."""

    def set_cores(n, threads_per_block=None):
        monkeypatch.setattr(async_module, "usable_cores", lambda: n)
        if threads_per_block is not None:
            monkeypatch.setattr(processes_module, "THREADS_PER_BLOCK", threads_per_block)

    return set_cores


def kernels(envs):
    """The kernel of the parent's block (the one this process steps)."""
    return envs._local.block._kernel


def test_the_workers_are_threads_of_one_block_up_to_eight(cores):
    cores(2)
    envs = palaestra.make_vec("LunarLander-v3", 7, vector_kwargs={"num_workers": 5})
    try:
        assert (envs.num_workers, envs.num_blocks, envs._block_threads) == (5, 1, [5])
        assert envs._workers == []  # no worker process: this process steps the block on five threads
        assert kernels(envs).threads == 5
    finally:
        envs.close()


def test_workers_beyond_a_blocks_threads_make_more_blocks(cores):
    cores(2, threads_per_block=3)
    envs = palaestra.make_vec("LunarLander-v3", 7, vector_kwargs={"num_workers": 5})
    try:
        assert (envs.num_blocks, envs._block_threads, len(envs._workers)) == (2, [3, 2], 1)
        assert kernels(envs).threads == 2  # the parent's block, the last
    finally:
        envs.close()


@pytest.mark.parametrize(
    "kwargs",
    [{"enable_wind": True}, {"wrappers": [palaestra.wrappers.RecordEpisodeStatistics]}],
    ids=["wind", "wrapper"],
)
def test_sub_envs_the_kernel_does_not_take_step_in_a_process_per_worker(cores, kwargs):
    cores(4)
    envs = palaestra.make_vec("LunarLander-v3", 6, vector_kwargs={"num_workers": 3}, **kwargs)
    try:
        assert (envs.num_blocks, envs._block_threads, len(envs._workers)) == (3, [1, 1, 1], 2)
        assert kernels(envs) is None
    finally:
        envs.close()


def step_both(batched, plain, actions_for, steps, mode):
    """Step both envs alike; the same bits every step (and after every masked reset)."""
    rng = np.random.default_rng(8)
    ends = 0
    for t in range(steps):
        actions = actions_for(rng, batched.num_envs)
        got, expected = batched.step(actions), plain.step(actions)
        assert_same_bits(got, expected, f"t={t}")
        done = got[2] | got[3]
        ends += int(done.sum())
        if mode is AutoresetMode.DISABLED and done.any():
            mask = {"reset_mask": done}
            assert_same_tree(batched.reset(options=mask), plain.reset(options=mask), "mask")
    return ends


CASES = {
    "lander": ("LunarLander-v3", {}, lambda rng, n: rng.integers(0, 4, n), 60),
    "continuous lander": ("LunarLanderContinuous-v3", {}, continuous_actions, 60),
    "walker": ("BipedalWalker-v3", {}, walker_actions, 40),
}


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@pytest.mark.parametrize("case", list(CASES))
def test_a_block_on_threads_gives_the_plain_steps_bits(cores, case, mode):
    """One core, four workers: the parent's one block steps its nine sub-envs on four threads."""
    cores(1)
    env_id, kwargs, actions_for, limit = CASES[case]
    common = {"max_episode_steps": limit, **kwargs}
    batched = palaestra.make_vec(
        env_id, 9, vector_kwargs={"num_workers": 4, "autoreset_mode": mode}, **common
    )
    plain = palaestra.make_vec(
        env_id, 9, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}, **common
    )
    try:
        assert (batched.num_blocks, kernels(batched).threads) == (1, 4)
        assert batched._local.block.compiled
        assert_same_tree(batched.reset(seed=5), plain.reset(seed=5), "reset")
        assert step_both(batched, plain, actions_for, 3 * limit, mode) > 0  # episodes ended and restarted
        for name in ("prev_shaping", "game_over", "_elapsed_steps"):
            assert batched.get_attr(name) == plain.get_attr(name), name
    finally:
        batched.close()
        plain.close()


def test_blocks_in_worker_processes_step_on_threads_too(cores):
    """Two cores, six workers, three a block: a forked worker's block and the parent's each on three threads."""
    cores(2, threads_per_block=3)
    batched = palaestra.make_vec("LunarLander-v3", 8, vector_kwargs={"num_workers": 6}, max_episode_steps=50)
    plain = palaestra.make_vec("LunarLander-v3", 8, vectorization_mode="sync", max_episode_steps=50)
    try:
        assert (batched.num_blocks, batched._block_threads) == (2, [3, 3])
        assert_same_tree(batched.reset(seed=2), plain.reset(seed=2), "reset")
        assert (
            step_both(batched, plain, lambda rng, n: rng.integers(0, 4, n), 120, AutoresetMode.NEXT_STEP) > 0
        )
    finally:
        batched.close()
        plain.close()


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        (0, ValueError, "threads must be between 1 and 1024, not 0"),
        (1025, ValueError, "threads must be between 1 and 1024, not 1025"),
        ("2", TypeError, "'str' object cannot be interpreted as an integer"),
    ],
)
def test_a_crew_of_no_threads_or_too_many_is_refused(value, error, message):
    envs = palaestra.make_vec("LunarLander-v3", 2, vector_kwargs={"num_workers": 1})
    try:
        with pytest.raises(error, match=message):
            kernels(envs).set_threads(value)
        assert kernels(envs).threads == 1
    finally:
        envs.close()


def test_a_kernel_stepping_in_one_thread_refuses_another():
    """While a step runs without the GIL, another Python thread is refused, not let in.

    A block of walkers takes milliseconds a step; the main thread asks for a change of crew
    until the stepping thread is done. One of the tries lands during a step (each of twenty
    steps is a chance), and is refused with the reason.
    """
    envs = palaestra.make_vec("BipedalWalker-v3", 64, vector_kwargs={"num_workers": 1})
    kernel, block = kernels(envs), envs._local.block
    envs.reset(seed=0)
    block.actions[:] = 0.0
    refusals = []
    try:
        for _ in range(20):
            stepping = threading.Thread(target=block.step, args=(None,))
            stepping.start()
            while stepping.is_alive():
                try:
                    kernel.set_threads(1)
                except RuntimeError as e:
                    refusals.append(str(e))
            stepping.join()
            if refusals:
                break
        assert refusals, "no try landed during a step"
        assert refusals[0] == (
            "the kernel is stepping in another thread: a batched env is not to be used by two threads at once"
        )
        # The kernel steps on afterwards, with the same numbers as the plain step.
        plain = palaestra.make_vec("BipedalWalker-v3", 64, vectorization_mode="sync")
        try:
            envs.reset(seed=3)
            plain.reset(seed=3)
            actions = walker_actions(np.random.default_rng(0), 64)
            assert_same_bits(envs.step(actions), plain.step(actions), "after")
        finally:
            plain.close()
    finally:
        envs.close()


def threads_of_this_process():
    return len(os.listdir("/proc/self/task"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads through Linux's /proc")
def test_helpers_are_let_go_before_a_fork_and_come_back_at_the_next_step(cores):
    """A fork with threads running may deadlock the child (Python 3.12 warns of it)."""
    cores(1)
    envs = palaestra.make_vec("LunarLander-v3", 4, vector_kwargs={"num_workers": 3})
    try:
        envs.reset(seed=0)
        before = threads_of_this_process()
        envs.step(np.zeros(4, dtype=np.int64))
        assert threads_of_this_process() == before + 2  # the crew's two helpers
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
        assert threads_of_this_process() == before
        envs.step(np.zeros(4, dtype=np.int64))
        assert threads_of_this_process() == before + 2
    finally:
        envs.close()
