"""Faults on the stepping paths: nothing lies, hangs or is lost (each test failed before its fix).

A sub-env that raises keeps SyncVectorEnv's autoreset bookkeeping; a refused or partly failed
``send`` leaves the other sends' actions and results in place; every error of the parent's
own block is taken; an interrupt inside ``recv`` loses nothing (or closes the env, saying
why); ``recv`` serves sub-envs of equal cost in turn; bad seeds and timeouts are named.
"""

import functools
import re
import signal

import numpy as np
import pytest

import palaestra
from palaestra.error import (
    ClosedEnvironmentError,
    InvalidAction,
    InvalidEnvArguments,
    InvalidEnvArgumentValue,
    InvalidSeedType,
    NoAsyncCallError,
    VectorTimeoutError,
    WorkerDiedError,
)
from palaestra.vector import AsyncVectorEnv, SyncVectorEnv
from tests.fixtures.vector_envs import SUB_ENV_ERRORS_LOGGED, DieEnv, InfoEnv, SlowEnv

pytestmark = [pytest.mark.needs_plugins, SUB_ENV_ERRORS_LOGGED]


def cartpoles(kind, n=2, mode="NextStep", limit=1, **vector_kwargs):
    return palaestra.make_vec(
        "CartPole-v1",
        n,
        vectorization_mode=kind,
        max_episode_steps=limit,
        vector_kwargs={"autoreset_mode": mode, **vector_kwargs},
    )


# -- SyncVectorEnv's bookkeeping when a sub-env raises (as AsyncVectorEnv's) -------------------


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_sub_env_reset_in_a_failing_step_is_reset_once(kind):
    """NextStep: one sub-env ended; the step that resets it fails in the other; the next steps it."""
    envs = cartpoles(kind, limit=500)
    try:
        envs.reset(seed=3)
        for t in range(100):  # push one pole over; keep the other up
            _, _, terminated, _, _ = envs.step(np.array([1, t % 2]))
            if terminated.any():
                break
        assert terminated.sum() == 1, terminated
        ended, other = int(np.argmax(terminated)), int(np.argmin(terminated))
        actions = np.ones(2, dtype=np.int64)
        actions[other] = 7
        with pytest.raises(InvalidAction):
            envs.step(actions)  # the ended one resets; the other's action is not one
        _, rewards, _, _, _ = envs.step(np.array([1, 1]))
        assert rewards[ended] == 1.0, "the ended sub-env steps: it was reset once, not twice"
    finally:
        envs.close()


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_disabled_a_sub_env_that_ended_during_a_failing_step_refuses_to_step(kind):
    envs = cartpoles(kind, mode="Disabled")
    try:
        envs.reset(seed=0)
        with pytest.raises(InvalidAction):
            envs.step(np.array([1, 9]))  # sub-env 0 ends (its limit); sub-env 1 raises
        with pytest.raises(RuntimeError, match="Sub-env 0 ended its episode and autoreset_mode is DISABLED"):
            envs.step(np.array([1, 1]))
    finally:
        envs.close()


# -- send that is refused or partly fails -------------------------------------------------------


def test_a_natively_batched_send_with_an_invalid_action_is_refused_and_the_earlier_stay():
    envs = palaestra.make_vec("CartPole-v1", 4, vector_kwargs={"batch_size": 2})
    try:
        envs.async_reset(seed=0)
        envs.recv()
        envs.recv()
        envs.send([0, 1], [0, 1])
        with pytest.raises(
            InvalidAction, match=r"actions of sub-envs \[2\] \(5\) are not actions of Discrete\(2\)"
        ):
            envs.send([5, 0], [2, 3])
        assert envs.recv()[4]["env_id"].tolist() == [0, 1]  # those sent step; 2 and 3 hold still
        envs.send([0, 1], [2, 3])  # the refused ones again
        assert envs.recv()[4]["env_id"].tolist() == [2, 3]
        envs.step(np.zeros(4, dtype=np.int64))  # and everything is as before
    finally:
        envs.close()


@pytest.mark.parametrize("env_id", ["CartPole-v1", "Pendulum-v1"])
def test_a_natively_batched_send_of_nan_names_the_sub_envs(env_id):
    envs = palaestra.make_vec(env_id, 2)
    try:
        envs.async_reset(seed=0)
        envs.recv()
        actions = np.full((2, *envs.single_action_space.shape), np.nan)
        with pytest.raises(InvalidAction, match=r"actions of sub-envs \[0, 1\] .* are not actions of"):
            envs.send(actions, np.array([0, 1]))
    finally:
        envs.close()


def test_a_sync_send_that_partly_fails_keeps_the_results_of_the_others():
    envs = palaestra.make_vec("CartPole-v1", 4, vectorization_mode="sync", vector_kwargs={"batch_size": 2})
    try:
        envs.async_reset(seed=0)
        envs.recv()
        envs.recv()
        with pytest.raises(InvalidAction) as raised:
            envs.send([1, 5], [1, 2])
        assert raised.value.sub_env_index == 2
        with pytest.raises(Exception, match=r"sub-envs \[1\] have a result not yet received"):
            envs.send([0, 0], [1, 2])  # sub-env 1 stepped: its result waits
        envs.send([0], [2])
        got = envs.recv()
        assert got[4]["env_id"].tolist() == [1, 2]
    finally:
        envs.close()


def test_every_error_of_the_parents_own_block_is_taken_and_nothing_hangs():
    envs = cartpoles("async", 4, limit=50, num_workers=2, in_parent=True, step_timeout=20, batch_size=1)
    try:
        envs.async_reset(seed=0)
        assert sorted(envs.recv()[4]["env_id"][0] for _ in range(4)) == [0, 1, 2, 3]
        envs.send(np.array([7, 8]), np.array([2, 3]))  # both of the parent's sub-envs raise
        with pytest.raises(InvalidAction) as raised:
            envs.recv()
        assert raised.value.sub_env_index == 2
        assert "sub-env 3 raised InvalidAction" in " ".join(raised.value.__notes__)
        with pytest.raises(NoAsyncCallError, match=r"have no action"):
            envs.recv()  # nothing is in flight any more: said at once
        envs.send(np.array([1, 1]), np.array([2, 3]))
        assert sorted(envs.recv()[4]["env_id"][0] for _ in range(2)) == [2, 3]
    finally:
        envs.close()


# -- fairness -----------------------------------------------------------------------------------


def served(envs, rounds):
    counts = np.zeros(envs.num_envs, dtype=np.int64)
    envs.async_reset(seed=0)
    for _ in range(rounds):
        ids = envs.recv()[4]["env_id"]
        counts[ids] += 1
        envs.send(np.zeros(len(ids), dtype=np.int64), ids)
    return counts


@pytest.mark.parametrize("batch_size", [3, 4, 5])
@pytest.mark.parametrize("kind", ["sync", "async in parent"])
def test_sub_envs_of_equal_cost_are_served_in_turn(kind, batch_size):
    """Recv hands out the earliest sent first: 16 sub-envs in rounds of k each step alike."""
    fns = [functools.partial(InfoEnv, length=10**6, index=0)] * 16
    envs = SyncVectorEnv(fns) if kind == "sync" else AsyncVectorEnv(fns, num_workers=2, in_parent=True)
    envs.batch_size = batch_size
    try:
        counts = served(envs, 400 // batch_size * 4)
    finally:
        envs.close()
    if kind == "sync":
        assert counts.max() - counts.min() <= 1, counts  # exactly in turn
    else:  # the parent steps its block while workers answer: within the documented 1.25x
        assert counts.max() <= 1.25 * counts.min(), counts


def reset_one_at_a_time(fns, num_workers):
    """An AsyncVectorEnv whose recv returns one result, reset and every reset received."""
    envs = AsyncVectorEnv(fns, num_workers=num_workers)
    envs.batch_size = 1
    envs.async_reset(seed=0)
    for _ in fns:
        envs.recv()
    return envs


def test_a_slow_sub_env_still_does_not_hold_back_the_others():
    """Fairness picks among the ready: a sub-env still stepping is not waited for."""
    envs = reset_one_at_a_time(
        [functools.partial(SlowEnv, delay=0.5 if i == 0 else 0.0) for i in range(4)], 4
    )
    try:
        envs.send(np.zeros(4, dtype=np.int64), np.arange(4))
        first = [int(envs.recv()[4]["env_id"][0]) for _ in range(3)]
        assert 0 not in first
    finally:
        envs.close()


# -- interrupts inside recv ------------------------------------------------------------------------


class Interrupted(BaseException):
    pass


@pytest.mark.parametrize("kind", ["sync", "batched"])
def test_an_interrupt_while_recv_batches_leaves_the_results_for_the_next_recv(kind, monkeypatch):
    envs = (
        palaestra.make_vec("CartPole-v1", 4, vectorization_mode="sync", vector_kwargs={"batch_size": 2})
        if kind == "sync"
        else palaestra.make_vec("CartPole-v1", 4, vector_kwargs={"batch_size": 2})
    )
    try:
        envs.async_reset(seed=0)
        engine = envs.unwrapped._recv_engine()
        real = type(engine).batch

        def interrupted(self, ids):
            monkeypatch.setattr(type(engine), "batch", real)
            real(self, ids)
            raise KeyboardInterrupt  # as if Ctrl-C landed after the batch was built

        monkeypatch.setattr(type(engine), "batch", interrupted)
        with pytest.raises(KeyboardInterrupt):
            envs.recv()
        assert envs.recv()[4]["env_id"].tolist() == [0, 1]  # the same results, once
        assert envs.recv()[4]["env_id"].tolist() == [2, 3]
    finally:
        envs.close()


def test_an_interrupt_while_recv_waits_on_workers_closes_the_env_saying_why():
    envs = AsyncVectorEnv([functools.partial(SlowEnv, delay=0.3)] * 2, num_workers=2)
    try:
        envs.async_reset(seed=0)
        envs.recv()
        envs.send(np.zeros(2, dtype=np.int64), np.arange(2))
        previous = signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        try:
            with pytest.raises(KeyboardInterrupt):
                envs.recv()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        assert envs.closed
        with pytest.raises(ClosedEnvironmentError, match=r"KeyboardInterrupt interrupted `recv`"):
            envs.recv()
    finally:
        envs.close()


STORM_KINDS = ["sync", "batched", "async", "async in parent"]


# An interrupt that lands inside a finalizer run by the garbage collector is reported by
# CPython as "Exception ignored" (and the code it interrupted goes on): not a loss.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("kind", STORM_KINDS)
def test_a_storm_of_interrupts_inside_recv_loses_and_duplicates_nothing(kind):
    """Interrupts at random moments of recv: each result comes once, or the env is closed saying why."""
    vector_kwargs = {
        "sync": {},
        "batched": {},
        "async": {"num_workers": 2},
        "async in parent": {"num_workers": 2, "in_parent": True},
    }[kind]
    mode = {"sync": "sync", "batched": None}.get(kind, "async")

    def make():
        envs = palaestra.make_vec(
            "CartPole-v1", 8, vectorization_mode=mode, vector_kwargs={"batch_size": 2, **vector_kwargs}
        )
        envs.async_reset(seed=0)
        return envs

    armed = [False]

    def interrupt(signum, frame):
        if armed[0]:  # a signal that comes after recv returned is ignored
            armed[0] = False
            raise Interrupted()

    rng = np.random.default_rng(0)
    previous = signal.signal(signal.SIGALRM, interrupt)
    interrupts = closes = received = 0
    envs = make()
    try:
        waiting = set(range(8))  # sent (or reset), not yet received
        for round_ in range(400 if mode != "async" else 120):
            # Every fourth round at once (the interrupt lands early in recv), the others at a random
            # moment within about one recv's time (later, or after it returned).
            delay = 1e-6 if round_ % 4 == 0 else float(rng.uniform(1e-6, 3e-4 if mode != "async" else 2e-3))
            try:
                armed[0] = True
                signal.setitimer(signal.ITIMER_REAL, delay)
                got = envs.recv()
            except Interrupted:
                interrupts += 1
                if envs.closed:
                    closes += 1
                    with pytest.raises(ClosedEnvironmentError, match="interrupted `recv`"):
                        envs.recv()
                    envs = make()
                    waiting = set(range(8))
                continue
            finally:
                armed[0] = False
                signal.setitimer(signal.ITIMER_REAL, 0)
            ids = got[4]["env_id"].tolist()
            assert set(ids) <= waiting, f"results handed out twice: {set(ids) - waiting}"
            waiting -= set(ids)
            received += len(ids)
            envs.send(np.zeros(len(ids), dtype=np.int64), np.array(ids))
            waiting |= set(ids)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        envs.close()
    assert interrupts >= 20 and received >= 60, (interrupts, received)
    if kind in ("sync", "batched"):
        assert closes == 0  # nothing to lose: an interrupt leaves the results in place


# -- bad seeds, timeouts, keywords -------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["sync", "async", None])
@pytest.mark.parametrize(
    ("seed", "words"),
    [(1.5, "object of type 'float' has no len()"), (np.int64(3), "'numpy.int64' has no len()")],
)
def test_a_seed_of_the_wrong_type_is_named_in_gymnasiums_words_with_the_fix(mode, seed, words):
    envs = palaestra.make_vec("CartPole-v1", 2, vectorization_mode=mode)
    try:
        for call in (lambda: envs.reset(seed=seed), lambda: envs.async_reset(seed=seed)):
            with pytest.raises(InvalidSeedType, match=re.escape(words)) as raised:
                call()
            assert isinstance(raised.value, TypeError)
            assert "a vector reset takes an int (sub-env i gets seed + i)" in raised.value.__notes__[0]
        if isinstance(seed, np.integer):
            assert "pass int(seed), 3" in raised.value.__notes__[0]
    finally:
        envs.close()


@pytest.mark.parametrize("timeout", [1e308, float("inf")])
def test_a_timeout_past_what_poll_counts_waits_forever(timeout):
    envs = palaestra.make_vec(
        "CartPole-v1", 2, vectorization_mode="async", vector_kwargs={"step_timeout": timeout}
    )
    try:
        assert envs.step_timeout is None
        envs.async_reset(seed=0)
        assert envs.recv(timeout=timeout)[4]["env_id"].tolist() == [0, 1]
        envs.send(np.zeros(2, dtype=np.int64), np.arange(2))
        assert envs.recv(timeout=timeout)[4]["env_id"].tolist() == [0, 1]
        envs.reset(seed=0)
        envs.step_async(np.zeros(2, dtype=np.int64))
        envs.step_wait(timeout=timeout)
    finally:
        envs.close()


@pytest.mark.parametrize("mode", ["sync", "async", "LunarLander-v3"])
def test_an_unknown_vector_kwargs_key_is_named_before_anything_is_built(mode):
    env_id, vectorization = ("LunarLander-v3", None) if mode == "LunarLander-v3" else ("CartPole-v1", mode)
    with pytest.raises(
        InvalidEnvArguments, match=r"__init__\(\) got an unexpected keyword argument 'num_worker'"
    ) as raised:
        palaestra.make_vec(env_id, 2, vectorization_mode=vectorization, vector_kwargs={"num_worker": 2})
    note = raised.value.__notes__[0]
    if mode != "sync":
        assert note.startswith("Did you mean 'num_workers'?")
    assert "batch_size" in note and "autoreset_mode" in note


def test_a_flag_that_is_not_one_is_named():
    with pytest.raises(
        ValueError, match=r"disable_env_checker must be True or False .* got array\(\[1, 2\]\)"
    ):
        palaestra.make("CartPole-v1", disable_env_checker=np.array([1, 2]))


# -- messages when the env closes --------------------------------------------------------------------


def test_a_dead_worker_names_every_result_the_close_loses():
    """Sub-env 0's worker dies on its second step; sub-envs 2 and 3 (the other worker) lose theirs too."""
    envs = reset_one_at_a_time(
        [functools.partial(DieEnv, index=0), *[functools.partial(SlowEnv, delay=0.5)] * 3], 2
    )
    try:
        envs.send(np.array([1]), np.array([0]))
        envs.recv()
        envs.send(np.ones(4, dtype=np.int64), np.arange(4))
        with pytest.raises(WorkerDiedError) as raised:
            receive(envs, 4)
        notes = " ".join(raised.value.__notes__)
        assert "Results lost with it: sub-envs [0, 1]" in notes
        assert "Closing the env also loses the results of sub-envs [2, 3] (sent, not yet received)" in notes
    finally:
        envs.close()


def receive(envs, count, **kwargs):
    return [envs.recv(**kwargs) for _ in range(count)]


def test_a_timeout_names_the_sub_envs_stepping_and_those_ready():
    fns = [functools.partial(SlowEnv, delay=5.0), functools.partial(SlowEnv, delay=0.0)]
    envs = AsyncVectorEnv(fns, num_workers=2)
    envs.batch_size = 2
    try:
        envs.async_reset(seed=0)
        envs.recv()
        envs.send(np.zeros(2, dtype=np.int64), np.arange(2))  # sub-env 1 answers, sub-env 0 is stuck
        with pytest.raises(VectorTimeoutError) as raised:
            envs.recv(timeout=1.0)
        message = str(raised.value)
        assert "sub-envs [0] were still stepping in their workers" in message
        assert "Closing the env also loses the results of sub-envs [1] (ready, not yet received)" in message
        assert raised.value.indices == (0,)
    finally:
        envs.close(terminate=True)


class HugeObservationEnv(palaestra.Env):
    """An env whose observation is 8 MB (a megapixel camera in float64, say)."""

    observation_space = palaestra.spaces.Box(0.0, 1.0, (1_000_000,), np.float64)
    action_space = palaestra.spaces.Discrete(2)


def test_shared_buffers_that_cannot_fit_are_refused_before_any_is_filled():
    """100,000 of them need 745 GiB of shared buffers: refused at once, naming both sizes."""
    words = (
        r"AsyncVectorEnv of num_envs=100,000 needs 745\.1 GiB of shared buffers and this machine has "
        r"[0-9,.]+ GiB available: pass fewer sub-envs"
    )
    with pytest.raises(InvalidEnvArgumentValue, match=words):
        AsyncVectorEnv([HugeObservationEnv] * 100_000)
