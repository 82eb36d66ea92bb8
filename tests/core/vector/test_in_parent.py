"""AsyncVectorEnv(..., in_parent=True): the parent steps the last block of sub-envs itself."""

import functools
import os

import numpy as np
import pytest

from palaestra.plugin import WorkerBlock
from palaestra.vector import AsyncVectorEnv
from tests.fixtures.vector_envs import (
    SUB_ENV_ERRORS_LOGGED,
    CloseFailEnv,
    CrashEnv,
    DieEnv,
    InfoEnv,
    info_env,
)


def in_parent(fns, **kwargs):
    kwargs.setdefault("num_workers", 2)
    return AsyncVectorEnv(fns, in_parent=True, **kwargs)


class PidEnv(InfoEnv):
    def pid(self):
        return os.getpid()


def test_the_last_block_lives_in_the_parent_and_the_others_in_workers():
    envs = in_parent([functools.partial(PidEnv, index=i) for i in range(5)], num_workers=2)
    try:
        pids = envs.call("pid")
        assert pids[3:] == (os.getpid(), os.getpid())  # blocks 0-2 and 3-4: the last one here
        assert os.getpid() not in pids[:3] and len(set(pids[:3])) == 1
        assert len(envs.processes) == 1
    finally:
        envs.close()


def test_only_the_parent_needs_no_process():
    envs = in_parent([functools.partial(info_env, i) for i in range(3)], num_workers=1)
    try:
        assert envs.processes == []
        obs, info = envs.reset(seed=1)
        assert obs[:, 1].tolist() == [0.0, 1.0, 2.0] and info["who"].tolist() == [0, 1, 2]
        assert envs.step(np.array([1, 2, 0]))[1].tolist() == [0.5, 1.0, 0.0]
    finally:
        envs.close()


def test_the_parents_block_steps_in_step_wait_not_in_step_async():
    envs = in_parent([functools.partial(info_env, i, 100) for i in range(4)])
    try:
        envs.reset(seed=0)
        local = envs._local.block.envs  # the parent's own sub-envs (2 and 3)
        before = [e.unwrapped.t for e in local]
        envs.step_async(np.ones(4, dtype=np.int64))
        assert [e.unwrapped.t for e in local] == before
        envs.step_wait()
        assert [e.unwrapped.t for e in local] == [t + 1 for t in before]
    finally:
        envs.close()


def test_calls_attributes_and_frames_come_in_sub_env_order():
    envs = in_parent([functools.partial(InfoEnv, index=i, render_mode="rgb_array") for i in range(4)])
    try:
        envs.reset(seed=0)
        assert envs.call("add", 10, b=1) == (11, 12, 13, 14)
        envs.set_attr("label", ["a", "b", "c", "d"])
        assert envs.get_attr("label") == ("a", "b", "c", "d")
        assert [frame.shape for frame in envs.render()] == [(4, 4, 3)] * 4
    finally:
        envs.close()


@SUB_ENV_ERRORS_LOGGED
def test_an_error_in_the_parents_block_names_its_sub_env_and_the_env_stays_usable():
    envs = in_parent([functools.partial(CrashEnv, index=i, crash_index=3, crash_at=2) for i in range(4)])
    try:
        envs.reset(seed=0)
        envs.step(np.zeros(4, dtype=np.int64))
        with pytest.raises(ValueError, match="env 3 exploded at step 2") as raised:
            envs.step(np.zeros(4, dtype=np.int64))
        assert raised.value.sub_env_index == 3
        assert any("Raised by sub-env 3 of an AsyncVectorEnv" in note for note in raised.value.__notes__)
        assert envs.call("add", 0) == (0, 1, 2, 3)  # every other command still works
    finally:
        envs.close()


def test_a_dead_worker_is_still_named_beside_a_parent_block():
    from palaestra.error import WorkerDiedError

    envs = in_parent([functools.partial(DieEnv, index=i, die_index=0) for i in range(4)])
    envs.reset(seed=0)
    envs.step(np.zeros(4, dtype=np.int64))
    with pytest.raises(WorkerDiedError, match="sub-envs 0-1") as raised:
        envs.step(np.zeros(4, dtype=np.int64))
    assert raised.value.indices == (0, 1)
    assert envs.closed


@SUB_ENV_ERRORS_LOGGED
def test_close_closes_the_parents_envs_and_reports_their_failures(tmp_path):
    fns = [functools.partial(CloseFailEnv, index=i, fail=(3,), marker_dir=str(tmp_path)) for i in range(4)]
    envs = in_parent(fns)
    envs.reset(seed=0)
    with pytest.raises(OSError, match="env 3 could not release its device"):
        envs.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"closed-{i}" for i in range(4)]
    envs.close()  # closing again does nothing


def test_snapshots_cover_the_parents_block():
    import palaestra

    envs = in_parent([lambda: palaestra.make("CartPole-v1")] * 4)
    try:
        envs.reset(seed=3)
        snapshot = envs.snapshot()
        actions = [np.arange(4) % 2, np.ones(4, dtype=np.int64), np.zeros(4, dtype=np.int64)]
        first = [envs.step(a)[0] for a in actions]
        envs.restore(snapshot)
        again = [envs.step(a)[0] for a in actions]
        assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    finally:
        envs.close()


class MarkingBlock(WorkerBlock):
    """Steps as the base does, then marks each reward; counts the commands it was settled for."""

    def step(self, actions):
        results = super().step(actions)
        for j in range(len(self.envs)):
            self.rewards[self.first + j] += 1000.0
        return results

    def settle(self):
        for env in self.envs:
            env.unwrapped.settled = getattr(env.unwrapped, "settled", 0) + 1


class MarkingVectorEnv(AsyncVectorEnv):
    block_type = MarkingBlock


def test_a_block_type_steps_every_block_and_is_settled_before_other_commands():
    """A vectorizer may step its blocks by other means (the Box2D suite's compiled kernels)."""
    envs = MarkingVectorEnv(
        [functools.partial(info_env, i, 100) for i in range(5)], num_workers=2, in_parent=True
    )
    try:
        assert type(envs._local.block) is MarkingBlock
        envs.reset(seed=0)
        rewards = envs.step(np.array([2, 0, 1, 2, 1]))[1]
        assert rewards.tolist() == [1001.0, 1000.0, 1000.5, 1001.0, 1000.5]  # the worker's and the parent's
        # Settled before "spaces" (construction), "reset" and this "call", never for the step.
        assert envs.get_attr("settled") == (3,) * 5
    finally:
        envs.close()
