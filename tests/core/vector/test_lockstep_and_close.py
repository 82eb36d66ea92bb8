"""A failing sub-env does not put the others out of step; closing always finishes.

- Every sub-env takes a step even when one raises (sync and async alike); the error of the
  first failing sub-env is raised, every failure is logged.
- ``close`` closes every sub-env, raises one error after all are closed, and is then closed.
- ``AsyncVectorEnv.close`` ends with every worker stopped, however often it is interrupted.
"""

import functools
import os
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

from palaestra.error import ResetNeeded
from palaestra.vector import AsyncVectorEnv, SyncVectorEnv
from palaestra.wrappers import OrderEnforcing
from tests.fixtures.vector_envs import SUB_ENV_ERRORS_LOGGED, CloseFailEnv, CrashEnv, StubbornEnv

MODES = ["sync", "async"]


def build(mode, factories):
    if mode == "sync":
        return SyncVectorEnv(factories)
    return AsyncVectorEnv(factories, num_workers=2)


def alive(pid):
    """Whether process ``pid`` still runs (a zombie awaiting its parent does not count)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except FileNotFoundError:
        return False


@SUB_ENV_ERRORS_LOGGED
@pytest.mark.parametrize("mode", MODES)
def test_every_sub_env_takes_the_step_when_one_raises(mode):
    env = build(mode, [functools.partial(CrashEnv, index=i, crash_index=0, crash_at=3) for i in range(4)])
    try:
        env.reset(seed=0)
        actions = np.zeros(4, dtype=np.int64)
        env.step(actions)
        env.step(actions)
        with pytest.raises(ValueError, match="env 0 exploded at step 3") as info:
            env.step(actions)
        assert info.value.sub_env_index == 0
        assert env.get_attr("steps") == (3, 3, 3, 3)
    finally:
        env.close()


@pytest.mark.parametrize("mode", MODES)
def test_two_failures_in_one_step_are_both_logged_and_the_first_raised(mode):
    env = build(
        mode,
        [functools.partial(CrashEnv, index=i, crash_index=i if i < 2 else -1, crash_at=1) for i in range(4)],
    )
    try:
        env.reset(seed=0)
        with warnings.catch_warnings(record=True) as logged:
            warnings.simplefilter("always")
            with pytest.raises(ValueError, match="env 0 exploded at step 1") as info:
                env.step(np.zeros(4, dtype=np.int64))
        lines = [str(w.message) for w in logged]
        # Async logs each worker's error (as Gymnasium does); sync raises the first with its own
        # traceback and logs the others.
        assert any("from sub-env 0" in line for line in lines) is (mode == "async")
        assert any("from sub-env 1" in line and "env 1 exploded" in line for line in lines)
        assert any(
            "sub-env 1 raised ValueError: env 1 exploded at step 1" in note for note in info.value.__notes__
        )
        assert env.get_attr("steps") == (1, 1, 1, 1)
    finally:
        env.close()


def test_sync_repeats_of_the_first_error_are_not_logged():
    env = SyncVectorEnv([lambda i=i: OrderEnforcing(CrashEnv(index=i, crash_index=-1)) for i in range(3)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing logged: every sub-env says the same
        with pytest.raises(
            ResetNeeded, match=r"^Cannot call env.step\(\) before calling env.reset\(\)"
        ) as info:
            env.step(np.zeros(3, dtype=np.int64))
    assert "sub-env 1 raised ResetNeeded" in info.value.__notes__[-1]
    env.close()


@SUB_ENV_ERRORS_LOGGED
@pytest.mark.parametrize("mode", MODES)
def test_close_closes_every_sub_env_then_raises_once_and_is_closed(mode, tmp_path):
    # Sub-env 0 closes cleanly: AsyncVectorEnv builds and closes a probe of it in the parent.
    factories = [
        functools.partial(CloseFailEnv, index=i, fail=(1, 3), marker_dir=str(tmp_path)) for i in range(4)
    ]
    env = build(mode, factories)
    env.reset(seed=0)
    pids = [p.pid for p in env.processes] if mode == "async" else []
    with pytest.raises(OSError, match="env 1 could not release its device") as info:
        env.close()
    assert info.value.sub_env_index == 1
    assert any("sub-env 3 raised OSError: env 3 could not release" in note for note in info.value.__notes__)
    assert sorted(os.listdir(tmp_path)) == [f"closed-{i}" for i in range(4)]
    assert env.closed
    env.close()  # closed: nothing raised again
    time.sleep(0.2)
    assert not [pid for pid in pids if alive(pid)]


def test_a_second_interrupt_during_close_still_stops_every_worker(monkeypatch):
    env = AsyncVectorEnv(
        [functools.partial(StubbornEnv, index=i, seconds=30) for i in range(2)], num_workers=2
    )
    env.reset(seed=0)
    pids = [p.pid for p in env.processes]
    env.step_async(np.zeros(2, dtype=np.int64))
    # The first interrupt: the user's Ctrl-C during the wait; the second lands inside close's
    # wait for the workers (which ignore SIGTERM and are mid-step).
    join = type(env.processes[0]).join
    interrupts = iter([True])

    def interrupted_join(self, timeout=None):
        if next(interrupts, False):
            raise KeyboardInterrupt
        return join(self, timeout)

    monkeypatch.setattr(type(env.processes[0]), "join", interrupted_join)
    with (
        pytest.raises(KeyboardInterrupt),
        pytest.warns(UserWarning, match="while waiting for a pending call"),
    ):
        env.close(terminate=True)
    monkeypatch.undo()
    assert env.closed
    assert not [pid for pid in pids if alive(pid)]
    env.close()  # done: returns at once


def test_ctrl_c_twice_with_workers_that_ignore_sigterm_leaves_no_worker(tmp_path):
    script = tmp_path / "twice.py"
    script.write_text(
        textwrap.dedent("""
        import functools, os, signal, threading
        import numpy as np
        from palaestra.vector import AsyncVectorEnv
        from tests.fixtures.vector_envs import StubbornEnv

        env = AsyncVectorEnv([functools.partial(StubbornEnv, index=i) for i in range(4)], num_workers=2)
        print(" ".join(str(p.pid) for p in env.processes), flush=True)
        env.reset(seed=0)
        for delay in (0.3, 0.9, 1.5):  # during the 2 s step, then during the close it starts
            threading.Timer(delay, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        for _ in range(3):
            try:
                env.step(np.zeros(4, dtype=np.int64))
            except KeyboardInterrupt:
                pass
            except Exception as e:
                print("after:", type(e).__name__, flush=True)
        env.close()
        print("closed", env.closed, flush=True)
    """)
    )
    result = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=os.getcwd(),
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    pids = [int(p) for p in result.stdout.splitlines()[0].split()]
    time.sleep(0.5)
    assert not [pid for pid in pids if alive(pid)], result.stderr[-2000:]
