"""How the async vector env decides between polling a pipe and sleeping on it."""

import functools
import os
import threading
import time
from multiprocessing import Pipe
from pathlib import Path

import numpy as np

from palaestra.vector import AsyncVectorEnv
from palaestra.vector._processes import SPIN_LIMIT, SPIN_SECONDS, polling_window, read_soon
from tests.fixtures.vector_envs import BurnEnv


def send_later(conn, delay, payload=b"x"):
    timer = threading.Timer(delay, conn.send_bytes, args=(payload,))
    timer.start()
    return timer


def test_a_message_within_the_polling_window_keeps_polling():
    mine, theirs = Pipe()
    theirs.send_bytes(b"now")
    assert read_soon(mine, fast=True, spin=0.05) == (b"now", True)


def test_a_worker_keeps_polling_when_the_message_follows_a_missed_window_closely():
    mine, theirs = Pipe()
    timer = send_later(theirs, 0.12)
    data, fast = read_soon(mine, fast=True, spin=0.1)  # missed by ~20 ms, then waited < 100 ms
    timer.join()
    assert data == b"x" and fast


def test_the_parent_stops_polling_after_a_miss():
    """A parent that polled in vain is waiting on heavy workers: it must not take their core."""
    mine, theirs = Pipe()
    timer = send_later(theirs, 0.12)
    data, fast = read_soon(mine, fast=True, spin=0.1, miss_ends_polling=True)
    timer.join()
    assert data == b"x" and not fast


def test_a_slow_phase_sleeps_and_a_quick_message_starts_polling_again():
    mine, theirs = Pipe()
    timer = send_later(theirs, 0.3)
    start = time.perf_counter()
    assert read_soon(mine, fast=False, spin=0.1) == (b"x", False)  # slept ~0.3 s
    assert time.perf_counter() - start >= 0.25
    timer.join()
    theirs.send_bytes(b"y")
    assert read_soon(mine, fast=False, spin=0.1) == (b"y", True)


def test_the_polling_window_follows_the_step_time_within_bounds():
    assert polling_window(0.0) == SPIN_SECONDS
    assert polling_window(300e-6) == 600e-6
    assert polling_window(5.0) == SPIN_LIMIT


def worker_cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def test_workers_of_heavy_envs_poll_briefly_then_sleep():
    """After 100 ms steps a worker polls at most SPIN_LIMIT for the next command, then sleeps."""
    env = AsyncVectorEnv([functools.partial(BurnEnv, 100_000)] * 2, num_workers=2)
    try:
        env.reset(seed=0)
        for _ in range(3):
            env.step(np.zeros(2, dtype=np.int64))
        pids = [worker.process.pid for worker in env._workers]
        before = [worker_cpu_seconds(pid) for pid in pids]
        time.sleep(0.5)
        used = [worker_cpu_seconds(pid) - b for pid, b in zip(pids, before, strict=True)]
        assert max(used) < 0.05, f"idle workers used {used} s of CPU in 0.5 s"
    finally:
        env.close()


def test_a_parent_that_stepped_its_own_block_polls_for_the_replies_as_long_as_it_took(monkeypatch):
    """The workers' blocks take about as long as the parent's: they answer about when it is done."""
    import palaestra.vector._async as async_module

    spins = []
    receive = async_module.receive

    def recording(worker, deadline, spin=None):
        spins.append(spin)
        return receive(worker, deadline, spin)

    monkeypatch.setattr(async_module, "receive", recording)
    env = AsyncVectorEnv([functools.partial(BurnEnv, 100)] * 4, num_workers=2, in_parent=True)
    try:
        env.reset(seed=0)
        spins.clear()
        env.step(np.zeros(4, dtype=np.int64))
        assert env._local.seconds > 0 and spins == [polling_window(env._local.seconds)]
    finally:
        env.close()
    env = AsyncVectorEnv([functools.partial(BurnEnv, 100)] * 4, num_workers=2)
    try:
        env.reset(seed=0)
        spins.clear()
        env.step(np.zeros(4, dtype=np.int64))
        assert spins == [None, None]  # no block of its own: the default window
    finally:
        env.close()
