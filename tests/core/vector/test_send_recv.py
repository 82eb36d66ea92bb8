"""Asynchronous stepping (send/recv of the first batch_size ready) on every vectorizer.

Every action sent yields exactly one result; with batch_size == num_envs and the same seeds,
recv gives what step gives; every misuse gets a named error; a dead or hung worker is named
with the results lost; closing with results in flight leaves nothing behind.
"""

import functools
import re
import time

import numpy as np
import pytest

import palaestra
from palaestra.error import (
    AlreadyPendingCallError,
    ClosedEnvironmentError,
    InvalidAction,
    InvalidEnvArgumentValue,
    NoAsyncCallError,
    VectorTimeoutError,
    WorkerDiedError,
)
from palaestra.vector import AsyncVectorEnv, SyncVectorEnv
from tests.core.vector.test_async_robustness import children, shm_entries
from tests.fixtures.vector_envs import SUB_ENV_ERRORS_LOGGED, CrashEnv, DieEnv, InfoEnv, SlowEnv, StuckEnv

pytestmark = [pytest.mark.needs_plugins, SUB_ENV_ERRORS_LOGGED]

MODES = ["NextStep", "SameStep", "Disabled"]


def cartpoles(kind, n=4, mode="NextStep"):
    if kind == "batched":
        return palaestra.make_vec("CartPole-v1", n, autoreset_mode=mode, max_episode_steps=20)
    vector_kwargs = {"autoreset_mode": mode}
    if kind.startswith("async"):
        vector_kwargs.update(
            {
                "async": {},
                "async 2 per worker": {"num_workers": 2},
                "async in parent": {"num_workers": 2, "in_parent": True},
                "async pickled": {"shared_memory": False},
            }[kind]
        )
    mode_name = "sync" if kind == "sync" else "async"
    return palaestra.make_vec(
        "CartPole-v1", n, vectorization_mode=mode_name, vector_kwargs=vector_kwargs, max_episode_steps=20
    )


KINDS = ["sync", "async", "async 2 per worker", "async in parent", "async pickled", "batched"]


def info_envs(kind, n=4, mode="NextStep", **kwargs):
    fns = [functools.partial(InfoEnv, length=3, index=i) for i in range(n)]
    if kind == "sync":
        return SyncVectorEnv(fns, autoreset_mode=mode)
    return AsyncVectorEnv(fns, autoreset_mode=mode, **kwargs)


def same(a, b):
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            same(a[key], b[key])
    elif isinstance(a, np.ndarray) and a.dtype == object:
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            same(x, y)
    else:
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_with_batch_size_num_envs_recv_gives_what_step_gives(kind, mode):
    stepped, received = cartpoles(kind, mode=mode), cartpoles(kind, mode=mode)
    try:
        obs, info = stepped.reset(seed=5)
        received.async_reset(seed=5)
        got = received.recv()
        same(obs, got[0])
        same(info, {k: v for k, v in got[4].items() if k != "env_id"})
        rng = np.random.default_rng(1)
        for _ in range(60):
            actions = rng.integers(0, 2, 4)
            expected = stepped.step(actions)
            received.send(actions, got[4]["env_id"])
            got = received.recv()
            np.testing.assert_array_equal(got[4]["env_id"], np.arange(4))
            for x, y in zip(expected[:4], got[:4], strict=True):
                np.testing.assert_array_equal(x, y)
            same(expected[4], {k: v for k, v in got[4].items() if k != "env_id"})
            if mode == "Disabled" and (expected[2] | expected[3]).any():
                break  # DISABLED: ended sub-envs wait for a reset_mask reset
    finally:
        stepped.close()
        received.close()


@pytest.mark.parametrize("kind", ["sync", "async", "async 2 per worker", "async in parent"])
def test_infos_of_every_autoreset_mode_match_step(kind):
    for mode in MODES:
        kwargs = (
            {}
            if kind == "sync"
            else {
                "async": {},
                "async 2 per worker": {"num_workers": 2},
                "async in parent": {"num_workers": 2, "in_parent": True},
            }[kind]
        )
        stepped, received = info_envs(kind, mode=mode, **kwargs), info_envs(kind, mode=mode, **kwargs)
        try:
            stepped.reset(seed=0)
            received.async_reset(seed=0)
            received.recv()
            for _ in range(4):
                expected = stepped.step(np.ones(4, dtype=np.int64))
                received.send(np.ones(4, dtype=np.int64), np.arange(4))
                got = received.recv()
                same(expected[4], {k: v for k, v in got[4].items() if k != "env_id"})
                if mode == "Disabled" and (expected[2] | expected[3]).any():
                    break
        finally:
            stepped.close()
            received.close()


@pytest.mark.parametrize("kind", ["sync", "async", "async 2 per worker", "async in parent", "batched"])
def test_every_action_sent_yields_exactly_one_result(kind):
    envs = cartpoles(kind, n=8)
    envs.batch_size = 2 if kind == "batched" else 3
    k = envs.batch_size
    try:
        envs.async_reset(seed=0)
        sent = np.ones(8, dtype=np.int64)  # the async_reset counts as one send each
        received = np.zeros(8, dtype=np.int64)
        for _ in range(80):
            obs, rewards, terminated, truncated, info = envs.recv()
            ids = info["env_id"]
            assert len(ids) == k and len(set(ids.tolist())) == k and list(ids) == sorted(ids)
            assert obs.shape == (k, 4) and rewards.shape == terminated.shape == truncated.shape == (k,)
            received[ids] += 1
            envs.send(np.zeros(k, dtype=np.int64), ids)
            sent[ids] += 1
        in_flight = sent - received
        assert set(in_flight.tolist()) <= {0, 1}
        if kind != "batched":
            envs.batch_size = 1  # to take the rest one by one
        while in_flight.any():  # what is still out arrives, once each
            ids = envs.recv()[4]["env_id"]
            assert in_flight[ids].all()
            in_flight[ids] -= 1
    finally:
        envs.close()


def test_a_slow_sub_env_does_not_hold_back_the_others():
    envs = AsyncVectorEnv(
        [functools.partial(SlowEnv, index=i, slow_index=0, delay=1.5) for i in range(4)], num_workers=4
    )
    try:
        envs.reset(seed=0)
        envs.batch_size = 3
        envs.send(np.zeros(4, dtype=np.int64), np.arange(4))
        start = time.monotonic()
        ids = envs.recv()[4]["env_id"]
        assert ids.tolist() == [1, 2, 3]
        assert time.monotonic() - start < 1.2  # sub-env 0 takes 1.5 s
        envs.send(np.zeros(3, dtype=np.int64), ids)
        ids = envs.recv()[4]["env_id"]  # sub-env 0 now, or the three quick ones again
        assert len(ids) == 3
    finally:
        envs.close()


@pytest.mark.parametrize("kind", ["sync", "async", "batched"])
def test_misuse_is_named(kind):
    envs = cartpoles(kind, n=4)
    envs.batch_size = 2
    name = type(envs).__name__
    try:
        with pytest.raises(NoAsyncCallError, match=rf"{name}.send: no env_ids given and no recv\(\) since"):
            envs.send(np.zeros(2, dtype=np.int64))
        envs.async_reset(seed=0)
        ids = envs.recv()[4]["env_id"]
        others = sorted(set(range(4)) - set(ids.tolist()))
        words = f"sub-envs {others} have a result not yet received"
        if kind != "async":  # there, they may still be stepping
            words += f" ({others} wait in recv())"
        with pytest.raises(AlreadyPendingCallError, match=re.escape(words)):
            envs.send(np.zeros(2, dtype=np.int64), others)
        with pytest.raises(
            InvalidAction, match=r"env_ids \[7\] are not sub-envs of this vector env \(0 to 3\)"
        ):
            envs.send(np.zeros(2, dtype=np.int64), [ids[0], 7])
        with pytest.raises(InvalidAction, match=r"name a sub-env twice"):
            envs.send(np.zeros(2, dtype=np.int64), [ids[0], ids[0]])
        with pytest.raises(InvalidAction, match=r"env_ids must be a non-empty 1-d array"):
            envs.send(np.zeros(2, dtype=np.int64), ["a", "b"])
        with pytest.raises(InvalidAction, match=r"send"):
            envs.send(np.zeros(3, dtype=np.int64), ids)  # three actions for two sub-envs
        with pytest.raises(
            AlreadyPendingCallError,
            match=r"Calling `step(_async)?` while results of send/async_reset are outstanding",
        ):
            envs.step(np.zeros(4, dtype=np.int64))
        with pytest.raises(AlreadyPendingCallError, match=r"Calling `reset(_async)?` while results"):
            envs.reset(seed=0)
        with pytest.raises(AlreadyPendingCallError, match=r"Calling `async_reset` while results"):
            envs.async_reset()
        envs.recv()  # the other two
        envs.send(np.zeros(2, dtype=np.int64))  # default: the last recv's sub-envs
        envs.recv()  # (batched CartPole steps those two; the first two hold still)
        with pytest.raises(
            NoAsyncCallError, match=r"only 0 can come: sub-envs \[0, 1, 2, 3\] have no action"
        ):
            envs.recv()
    finally:
        envs.close()


def test_batch_size_is_checked():
    with pytest.raises(InvalidEnvArgumentValue, match=r"batch_size must be an integer in \[1, num_envs=4\]"):
        palaestra.make_vec("CartPole-v1", 4, vectorization_mode="sync", vector_kwargs={"batch_size": 0})
    with pytest.raises(
        InvalidEnvArgumentValue, match=r"batch_size=3 does not divide num_envs=4: its sub-envs step together"
    ):  # Blackjack's tables step together only; CartPole steps any subset
        palaestra.make_vec("Blackjack-v1", 4, vector_kwargs={"batch_size": 3})
    assert palaestra.make_vec("CartPole-v1", 4, vector_kwargs={"batch_size": 3}).batch_size == 3
    envs = palaestra.make_vec("CartPole-v1", 4, vectorization_mode="async", vector_kwargs={"batch_size": 3})
    try:
        assert envs.batch_size == 3 and envs.spec.kwargs["vector_kwargs"] == {"batch_size": 3}
    finally:
        envs.close()


def test_wrappers_do_not_pass_send_recv_through():
    envs = palaestra.wrappers.vector.RecordEpisodeStatistics(palaestra.make_vec("CartPole-v1", 2))
    with pytest.raises(AttributeError, match=r"call them on the vector env itself, envs.unwrapped.recv\(\)"):
        envs.recv()
    envs.unwrapped.async_reset(seed=0)
    assert envs.unwrapped.recv()[0].shape == (2, 4)


def test_a_sub_env_error_in_recv_names_it_and_keeps_the_other_results():
    envs = AsyncVectorEnv([functools.partial(CrashEnv, index=i, crash_index=1, crash_at=1) for i in range(4)])
    try:
        envs.reset(seed=0)
        envs.send(np.zeros(4, dtype=np.int64), np.arange(4))
        with pytest.raises(ValueError, match="env 1 exploded at step 1") as raised:
            envs.recv()
        assert raised.value.sub_env_index == 1
        envs.batch_size = 3
        assert envs.recv()[4]["env_id"].tolist() == [0, 2, 3]  # not lost with the error
        envs.send(np.zeros(1, dtype=np.int64), [1])  # the failed one takes actions again
    finally:
        envs.close()


def test_a_worker_that_dies_is_named_with_the_results_lost():
    envs = AsyncVectorEnv([functools.partial(DieEnv, index=i, die_index=2) for i in range(4)], num_workers=2)
    before = children()
    try:
        envs.reset(seed=0)
        envs.step(np.zeros(4, dtype=np.int64))  # step 1: everyone lives
        envs.send(np.zeros(4, dtype=np.int64), np.arange(4))
        with pytest.raises(WorkerDiedError, match=r"The worker running sub-envs 2-3 .* was killed") as raised:
            envs.recv()
        assert any("Results lost with it: sub-envs" in note for note in raised.value.__notes__)
        with pytest.raises(ClosedEnvironmentError):
            envs.recv()
    finally:
        envs.close()
    assert not (children() - before)


def test_a_hung_worker_times_out_naming_the_sub_envs_still_stepping():
    envs = AsyncVectorEnv(
        [functools.partial(StuckEnv, index=i, stuck_index=3) for i in range(4)], num_workers=4
    )
    before = children()
    try:
        envs.reset(seed=0)
        envs.step(np.zeros(4, dtype=np.int64))
        envs.send(np.zeros(4, dtype=np.int64), np.arange(4))
        envs.batch_size = 3
        assert envs.recv()[4]["env_id"].tolist() == [0, 1, 2]
        with pytest.raises(
            VectorTimeoutError, match=r"no result came within the timeout; sub-envs \[3\] were still stepping"
        ) as raised:
            envs.recv(timeout=1.0)  # sub-env 3 never answers
        assert raised.value.indices == (3,)
    finally:
        envs.close()
    assert not (children() - before)


def test_closing_with_results_in_flight_leaves_nothing_behind():
    before, shm_before = children(), shm_entries()
    envs = AsyncVectorEnv(
        [functools.partial(SlowEnv, index=i, slow_index=i, delay=0.2) for i in range(4)], num_workers=2
    )
    envs.reset(seed=0)
    envs.send(np.zeros(4, dtype=np.int64), np.arange(4))
    start = time.monotonic()
    envs.close()
    assert time.monotonic() - start < 10
    assert not (children() - before)
    assert not (shm_entries() - shm_before)
    with pytest.raises(ClosedEnvironmentError):
        envs.send(np.zeros(1, dtype=np.int64), [0])


def test_the_async_q_learning_example_runs_and_learns_something():
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[3] / "examples" / "async_q_learning.py"
    result = subprocess.run(
        [
            sys.executable,
            str(script),
            "--steps",
            "4000",
            "--num-envs",
            "4",
            "--batch-size",
            "2",
            "--goal",
            "-1000",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "recv of the first 2 ready" in result.stdout
    assert "4,000 steps" in result.stdout and "send/recv:" in result.stdout
