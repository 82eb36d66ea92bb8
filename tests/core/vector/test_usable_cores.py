"""The vectorizers' default parallelism: the cores this process may use, not the machine's count."""

import os

import numpy as np
import pytest

from palaestra.plugin import WorkerBlock
from palaestra.vector import AsyncVectorEnv, _cores
from palaestra.vector._processes import plan_blocks
from tests.fixtures.vector_envs import InfoEnv


@pytest.mark.parametrize(
    ("files", "quota"),
    [
        ({"cpu.max": "max 100000\n"}, None),
        ({"cpu.max": "200000 100000\n"}, 2.0),
        ({"cpu.max": "150000 100000"}, 1.5),
        ({"cpu.max": "garbage here"}, None),
        ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, None),
        ({"cpu/cpu.cfs_quota_us": "300000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 3.0),
        ({"cpu/cpu.cfs_quota_us": "x", "cpu/cpu.cfs_period_us": "100000"}, None),
        ({}, None),
    ],
)
def test_cgroup_quotas_are_read_v2_then_v1_and_checked(tmp_path, files, quota):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert _cores.cgroup_cpu_quota(tmp_path) == quota


def test_usable_cores_follow_the_affinity_and_the_quota(monkeypatch):
    monkeypatch.delattr(os, "process_cpu_count", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(_cores, "cgroup_cpu_quota", lambda root=None: None)
    assert _cores.usable_cores() == 4
    monkeypatch.setattr(_cores, "cgroup_cpu_quota", lambda root=None: 2.5)
    assert _cores.usable_cores() == 3  # 2.5 CPUs of time: three cores, rounded up
    monkeypatch.setattr(_cores, "cgroup_cpu_quota", lambda root=None: 0.2)
    assert _cores.usable_cores() == 1
    monkeypatch.setattr(os, "process_cpu_count", lambda: 2, raising=False)  # Python 3.13+
    monkeypatch.setattr(_cores, "cgroup_cpu_quota", lambda root=None: None)
    assert _cores.usable_cores() == 2


def test_async_vector_env_starts_one_worker_per_usable_core_at_most_one_per_sub_env(monkeypatch):
    from palaestra.vector import _async

    monkeypatch.setattr(_async, "usable_cores", lambda: 2)
    env = AsyncVectorEnv([InfoEnv] * 5)
    try:
        assert env.num_workers == 2
        env.reset(seed=0)
        assert np.asarray(env.step(np.zeros(5, dtype=np.int64))[0]).shape[0] == 5
    finally:
        env.close()
    monkeypatch.setattr(_async, "usable_cores", lambda: 16)
    env = AsyncVectorEnv([InfoEnv] * 3)
    try:
        assert env.num_workers == 3  # never more workers than sub-envs
    finally:
        env.close()


@pytest.mark.parametrize(("cores", "polls"), [(1, False), (4, True)])
def test_workers_that_outnumber_the_cores_never_poll_and_give_the_same_numbers(monkeypatch, cores, polls):
    """Oversubscribed workers sleep until their next message (a polling one would hold a core another needs)."""
    from palaestra.vector import SyncVectorEnv, _async

    monkeypatch.setattr(_async, "usable_cores", lambda: cores)
    env = AsyncVectorEnv([InfoEnv] * 4, num_workers=2)
    reference = SyncVectorEnv([InfoEnv] * 4)
    try:
        assert env._polls is polls
        assert env._config(range(0, 2), True, None).polls is polls  # what each worker is told
        ours, theirs = env.reset(seed=3), reference.reset(seed=3)
        assert np.array_equal(ours[0], theirs[0])
        for t in range(6):
            actions = np.full(4, t % 2, dtype=np.int64)
            ours, theirs = env.step(actions), reference.step(actions)
            for mine, expected in zip(ours[:4], theirs[:4], strict=True):
                assert np.array_equal(mine, expected)
        env.async_reset(seed=4)  # the send/recv engine waits without polling too
        assert np.array_equal(env.recv()[0], reference.reset(seed=4)[0])
        env.send(np.ones(4, dtype=np.int64))
        assert np.array_equal(env.recv()[0], reference.step(np.ones(4, dtype=np.int64))[0])
    finally:
        env.close()
        reference.close()


@pytest.mark.parametrize(
    ("num_envs", "workers", "cores", "threaded", "blocks", "threads"),
    [
        (8, 4, 2, False, [range(0, 2), range(2, 4), range(4, 6), range(6, 8)], [1, 1, 1, 1]),
        (8, 5, 2, True, [range(0, 8)], [5]),  # up to THREADS_PER_BLOCK (8) threads a block
        (40, 20, 16, True, [range(0, 14), range(14, 27), range(27, 40)], [7, 7, 6]),
        (40, 40, 2, True, [range(0, 20), range(20, 40)], [20, 20]),  # never more blocks than cores
        (3, 3, 1, True, [range(0, 3)], [3]),
    ],
)
def test_workers_beyond_the_cores_are_threads_only_for_blocks_that_step_in_threads(
    num_envs, workers, cores, threaded, blocks, threads
):
    assert plan_blocks(num_envs, workers, cores, threaded) == (blocks, threads)


class ThreadedBlock(WorkerBlock):
    """A block that says it steps in threads (it steps its sub-envs one by one all the same)."""

    @classmethod
    def steps_in_threads(cls, env):
        return True


class ThreadedAsync(AsyncVectorEnv):
    block_type = ThreadedBlock


def test_each_block_is_told_its_threads(monkeypatch):
    from palaestra.vector import SyncVectorEnv, _async, _processes

    monkeypatch.setattr(_async, "usable_cores", lambda: 2)
    monkeypatch.setattr(_processes, "THREADS_PER_BLOCK", 3)
    env = ThreadedAsync([InfoEnv] * 5, num_workers=5, in_parent=True)
    plain = AsyncVectorEnv([InfoEnv] * 5, num_workers=5, in_parent=True)
    reference = SyncVectorEnv([InfoEnv] * 5)
    try:
        assert (env.num_workers, env.num_blocks, len(env._workers)) == (5, 2, 1)
        assert env._config(range(0, 3), True, None).threads == 3
        assert env._local.block.config.threads == 2
        assert (plain.num_blocks, len(plain._workers), plain._local.block.config.threads) == (5, 4, 1)
        assert np.array_equal(env.reset(seed=1)[0], reference.reset(seed=1)[0])
        actions = np.array([0, 1, 1, 0, 1])
        assert np.array_equal(env.step(actions)[0], reference.step(actions)[0])
    finally:
        env.close()
        plain.close()
        reference.close()
