"""AsyncVectorEnv with real worker processes: errors, deaths, hangs, leaks, start methods."""

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

import palaestra
from palaestra.error import (
    AlreadyPendingCallError,
    ClosedEnvironmentError,
    NoAsyncCallError,
    SubEnvError,
    VectorTimeoutError,
    WorkerDiedError,
)
from palaestra.vector import AsyncVectorEnv
from tests.fixtures.vector_envs import SUB_ENV_ERRORS_LOGGED, CrashEnv, DieEnv, InfoEnv, StuckEnv

# Uses the reference suites' envs (CartPole-v1, ...): needs the plugins installed.
pytestmark = [pytest.mark.needs_plugins, SUB_ENV_ERRORS_LOGGED]


def children():
    """Pids of this process's live child processes (from /proc)."""
    me = os.getpid()
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == me and fields[0] != "Z":
                pids.append(int(entry))
    return set(pids)


def shm_entries():
    """Shared-memory files this process still maps, plus lasting entries in /dev/shm.

    multiprocessing's named semaphores (``sem.mp-*``) are unlinked right after creation,
    so the ones listed belong to whatever another test worker is doing at that instant.
    A mapping of an unlinked file (multiprocessing's heap keeps its small arenas for reuse)
    leaves nothing behind: it goes with the process, so only files still there count.
    """
    lasting = (
        {e for e in os.listdir("/dev/shm") if not e.startswith("sem.mp-")}
        if os.path.isdir("/dev/shm")
        else set()
    )
    with open("/proc/self/maps") as f:
        paths = [line.split(maxsplit=5)[-1].strip() for line in f if "/dev/shm/" in line]
    return lasting | {path for path in paths if not path.endswith("(deleted)")}


def make_async(cls, n=4, workers=2, **kwargs):
    factory_kwargs = kwargs.pop("factory_kwargs", {})
    return AsyncVectorEnv(
        [functools.partial(cls, index=i, **factory_kwargs) for i in range(n)], num_workers=workers, **kwargs
    )


def test_sub_env_exception_keeps_type_message_traceback_and_index():
    env = make_async(CrashEnv, factory_kwargs={"crash_index": 3, "crash_at": 2})
    try:
        env.reset(seed=0)
        env.step(np.zeros(4, dtype=np.int64))
        with pytest.raises(ValueError, match="env 3 exploded") as info:
            env.step(np.zeros(4, dtype=np.int64))
        err = info.value
        assert err.sub_env_index == 3
        assert isinstance(err.__cause__, SubEnvError)
        assert err.__cause__.index == 3 and err.__cause__.error_type == "ValueError"
        assert (
            "in step" in err.__cause__.worker_traceback and "vector_envs.py" in err.__cause__.worker_traceback
        )
        # Documented: the vector env stays usable after a sub-env error.
        assert env.call("add", 1, b=2) == (3, 4, 5, 6)
        obs, _ = env.reset(seed=1)
        assert obs.shape == (4, 2)
    finally:
        env.close()


def test_reset_and_call_errors_are_reraised_with_index():
    env = make_async(CrashEnv, factory_kwargs={"crash_index": 2, "where": "reset"})
    try:
        with pytest.raises(KeyError, match="bad reset seed in env 2") as info:
            env.reset(seed=[1, 2, 99, 4])
        assert info.value.sub_env_index == 2
        with pytest.raises(AttributeError) as info:
            env.call("no_such_method")
        assert info.value.sub_env_index == 0
    finally:
        env.close()


@pytest.mark.parametrize("how", ["sigkill", "exit", "segfault"])
def test_dead_worker_is_detected_fast_with_index_and_exit(how):
    before = children()
    env = make_async(DieEnv, factory_kwargs={"die_index": 2, "how": how})
    env.reset(seed=0)
    env.step(np.zeros(4, dtype=np.int64))
    start = time.monotonic()
    with pytest.raises(WorkerDiedError) as info:
        env.step(np.zeros(4, dtype=np.int64))
    assert time.monotonic() - start < 1.0
    err = info.value
    assert 2 in err.indices and "sub-envs 2-3" in str(err)
    expected = {"sigkill": "SIGKILL", "exit": "exited with code 3", "segfault": "SIGSEGV"}[how]
    assert expected in str(err)
    assert env.closed
    with pytest.raises(ClosedEnvironmentError):
        env.step(np.zeros(4, dtype=np.int64))
    assert children() <= before


def test_stuck_worker_times_out_and_close_returns():
    before = children()
    env = make_async(StuckEnv, factory_kwargs={"stuck_index": 1})
    env.reset(seed=0)
    env.step(np.zeros(4, dtype=np.int64))
    env.step_async(np.zeros(4, dtype=np.int64))
    start = time.monotonic()
    with pytest.raises(VectorTimeoutError) as info:
        env.step_wait(timeout=0.3)
    assert 0.25 < time.monotonic() - start < 5
    assert info.value.indices == (0, 1) and "did not answer within the timeout" in str(info.value)
    assert env.closed and children() <= before


def test_default_step_timeout_option():
    env = make_async(StuckEnv, factory_kwargs={"stuck_index": 3}, step_timeout=0.3)
    env.reset(seed=0)
    env.step(np.zeros(4, dtype=np.int64))
    with pytest.raises(VectorTimeoutError, match="sub-envs 2-3"):
        env.step(np.zeros(4, dtype=np.int64))


@pytest.mark.parametrize(
    "call",
    [
        lambda env: env.step(np.zeros(4, dtype=np.int64)),
        lambda env: env.step([0, 1, 0, 1]),  # actions pickled per worker: another send path
        lambda env: env.reset(seed=1),
        lambda env: env.call("add", 1),
        lambda env: env.set_attr("label", ["a", "b", "c", "d"]),
    ],
    ids=["step", "step-pickled", "reset", "call", "set_attr"],
)
def test_a_worker_found_dead_while_sending_is_named_and_closes_the_env(call):
    before = children()
    env = make_async(InfoEnv)
    env.reset(seed=0)
    env.processes[1].kill()
    time.sleep(0.3)  # the pipe breaks: the death is noticed by the send, not by a read
    with pytest.raises(
        WorkerDiedError, match=r"sub-envs 2-3 \(worker pid \d+\) was killed by SIGKILL"
    ) as info:
        call(env)
    assert info.value.indices == (2, 3)
    assert env.closed
    with pytest.raises(ClosedEnvironmentError, match="make a new one"):
        call(env)
    assert children() <= before


def test_close_terminates_a_stuck_worker_after_the_grace_period():
    before = children()
    env = make_async(StuckEnv, factory_kwargs={"stuck_index": 0})
    env.reset(seed=0)
    env.step(np.zeros(4, dtype=np.int64))
    env.step_async(np.zeros(4, dtype=np.int64))
    start = time.monotonic()
    with pytest.warns(
        UserWarning, match="Calling `close` while waiting for a pending call to `step` to complete"
    ):
        env.close(timeout=0.2)
    assert time.monotonic() - start < 5
    assert children() <= before


def test_no_leaked_processes_or_shared_memory_after_close_error_and_gc():
    import gc

    before_children, before_shm = children(), shm_entries()
    env = make_async(InfoEnv)
    env.reset(seed=0)
    env.close()
    env = make_async(CrashEnv, factory_kwargs={"crash_index": 0, "crash_at": 1})
    env.reset(seed=0)
    with pytest.raises(ValueError, match="exploded"):
        env.step(np.zeros(4, dtype=np.int64))
    env.close()
    env = make_async(InfoEnv)
    env.reset(seed=0)
    del env
    gc.collect()
    time.sleep(0.2)
    assert children() <= before_children
    assert shm_entries() <= before_shm


def test_keyboard_interrupt_in_parent_leaves_no_workers(tmp_path):
    script = tmp_path / "interrupt.py"
    script.write_text(
        textwrap.dedent("""
        import functools, os, signal, sys, threading
        import numpy as np
        from palaestra.vector import AsyncVectorEnv
        from tests.fixtures.vector_envs import StuckEnv

        env = AsyncVectorEnv([functools.partial(StuckEnv, index=i, stuck_index=0) for i in range(4)], num_workers=2)
        print(" ".join(str(p.pid) for p in env.processes), flush=True)
        env.reset(seed=0)
        env.step(np.zeros(4, dtype=np.int64))
        threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        env.step(np.zeros(4, dtype=np.int64))  # hangs in worker 0 until Ctrl-C
    """)
    )
    result = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=os.getcwd(),
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    assert "KeyboardInterrupt" in result.stderr
    pids = [int(p) for p in result.stdout.split()]
    time.sleep(0.5)
    for pid in pids:
        assert not os.path.exists(f"/proc/{pid}") or Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"


@pytest.mark.parametrize("context", ["spawn", "forkserver"])
def test_spawned_workers_make_plugin_and_parent_registered_envs(context):
    with palaestra.envs.registration.namespace("vectest"):
        palaestra.register("Info-v0", entry_point="tests.fixtures.vector_envs:InfoEnv", kwargs={"length": 2})
    try:
        for env_id in ("CartPole-v1", "vectest/Info-v0"):
            env = palaestra.make_vec(
                env_id, 2, vectorization_mode="async", vector_kwargs={"context": context}
            )
            try:
                obs, _ = env.reset(seed=3)
                assert obs.shape[0] == 2
                env.step(env.action_space.sample())
            finally:
                env.close()
    finally:
        del palaestra.registry["vectest/Info-v0"]


def test_unpicklable_factory_gives_a_clear_error(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_cloudpickle(name, *args, **kwargs):
        if name == "cloudpickle":
            raise ImportError("hidden for this test")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_cloudpickle)
    lock = __import__("threading").Lock()
    with pytest.raises(TypeError, match=r"env_fns\[1\] .* cannot be pickled for the 'spawn' start method"):
        AsyncVectorEnv([functools.partial(InfoEnv), lambda: (lock, InfoEnv())[1]], context="spawn")


def test_mismatched_sub_env_spaces_name_the_index():
    fns = [functools.partial(InfoEnv, index=i) for i in range(3)]
    fns.append(lambda: palaestra.make("CartPole-v1"))
    before = children()
    with pytest.raises(RuntimeError, match="observation spaces are not equivalent.*Sub-env 3 differs"):
        AsyncVectorEnv(fns, num_workers=2)
    assert children() <= before


def test_async_state_errors():
    env = make_async(InfoEnv)
    try:
        with pytest.raises(NoAsyncCallError, match="without any prior call to `step_async`"):
            env.step_wait()
        env.reset_async(seed=0)
        with pytest.raises(AlreadyPendingCallError, match="pending call to `reset`"):
            env.step_async(np.zeros(4, dtype=np.int64))
        env.reset_wait()
        env.call_async("add", 1)
        assert env.call_wait() == (1, 2, 3, 4)
    finally:
        env.close()
    env.close()  # idempotent
    with pytest.raises(ClosedEnvironmentError):
        env.reset()


@pytest.mark.filterwarnings("default")
def test_every_sub_env_error_is_logged_with_its_traceback_before_the_first_is_raised():
    # Sub-envs 0 and 2 fail in different workers (blocks [0, 1] and [2, 3]): both are logged.
    env = AsyncVectorEnv(
        [
            functools.partial(CrashEnv, index=i, crash_index=i if i in (0, 2) else -1, crash_at=1)
            for i in range(4)
        ],
        num_workers=2,
    )
    try:
        env.reset(seed=0)
        with warnings.catch_warnings(record=True) as logged:
            warnings.simplefilter("always")
            with pytest.raises(ValueError, match="env 0 exploded"):
                env.step(np.zeros(4, dtype=np.int64))
        lines = [palaestra.logger.plain_text(str(w.message)) for w in logged if w.category is UserWarning]
        assert len(lines) == 3, lines
        for line, index in zip(lines, (0, 2), strict=False):
            assert line.startswith(f"Received the following error from sub-env {index}:\nTraceback")
            assert f"ValueError: env {index} exploded at step 1" in line
        assert lines[2] == "Raising the first exception back to the main process."
    finally:
        env.close()


def test_an_interrupt_mid_exchange_closes_the_env_with_the_reason_and_never_hangs(tmp_path):
    # Twenty Ctrl-Cs at random moments of a fast 8 x CartPole loop: afterwards every env is
    # either usable or closed with an error that says why; nothing waits forever.
    script = tmp_path / "interrupts.py"
    script.write_text(
        textwrap.dedent("""
        import os, random, signal, threading
        import numpy as np
        import palaestra
        from palaestra.error import ClosedEnvironmentError

        random.seed(7)
        outcomes = []
        for trial in range(20):
            env = palaestra.make_vec("CartPole-v1", 8, vectorization_mode="async")
            env.reset(seed=0)
            threading.Timer(random.uniform(0.005, 0.05), lambda: os.kill(os.getpid(), signal.SIGINT)).start()
            try:
                while True:
                    env.step(np.zeros(8, int))
            except KeyboardInterrupt:
                pass
            try:
                env.step_wait() if trial % 2 else env.step(np.zeros(8, int))
                outcomes.append("usable")
            except ClosedEnvironmentError as e:
                assert "KeyboardInterrupt interrupted" in str(e) and "make a new one" in str(e), e
                outcomes.append("closed")
            env.close()
        print(" ".join(outcomes))
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
    assert result.returncode == 0, result.stderr[-3000:]
    outcomes = result.stdout.split()
    assert len(outcomes) == 20 and set(outcomes) <= {"usable", "closed"}


def test_a_segfaulting_worker_leaves_no_fatal_error_dump_in_the_output():
    # The parent runs with faulthandler on (as pytest does); the forked worker's crash must
    # still be reported as a WorkerDiedError without a "Fatal Python error" dump on stderr.
    code = textwrap.dedent("""
        import functools
        import numpy as np
        from palaestra.error import WorkerDiedError
        from palaestra.vector import AsyncVectorEnv
        from tests.fixtures.vector_envs import DieEnv

        fns = [functools.partial(DieEnv, index=i, die_index=1, how="segfault") for i in range(2)]
        env = AsyncVectorEnv(fns, num_workers=2, context="fork")
        env.reset(seed=0)
        env.step(np.zeros(2, dtype=np.int64))
        try:
            env.step(np.zeros(2, dtype=np.int64))
        except WorkerDiedError as e:
            print("SIGSEGV" in str(e))
    """)
    result = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=os.getcwd(),
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    assert result.stdout.split() == ["True"], result.stderr[-2000:]
    assert "Fatal Python error" not in result.stderr
