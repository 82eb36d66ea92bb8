"""benchmarks/bench_scaling.py finds each vector env's parallel parts and measures around them.

The benchmark reads vector envs' internals (their physics call, their blocks): these tests
fail when a refactor moves one, instead of the benchmark quietly calling everything serial.
"""

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import palaestra

pytest.importorskip(
    "palaestra_envpool", reason="bench_scaling reads bench_envpool, which needs palaestra-envpool"
)
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_scaling


def test_mujoco_batches_run_in_parallel_inside_their_physics_call():
    pytest.importorskip("palaestra_mujoco", reason="needs palaestra-mujoco")
    envs = palaestra.make_vec("InvertedPendulum-v5", 4, vector_kwargs={"num_workers": 2})
    windows, own = bench_scaling.parallel_parts(envs)
    assert (envs._sim, "step") in windows and own == []
    envs.close()


def test_gathered_mujoco_batches_run_their_physics_and_their_starts_in_parallel():
    """Ant's sub-envs step, and start their episodes, on the crew: both windows are parallel."""
    pytest.importorskip("palaestra_mujoco", reason="needs palaestra-mujoco")
    envs = palaestra.make_vec("Ant-v5", 4, vector_kwargs={"num_workers": 2})
    windows, own = bench_scaling.parallel_parts(envs)
    assert (envs._sim, "step") in windows and (envs._sim, "start") in windows and own == []
    envs.close()


def test_box2d_blocks_run_in_parallel_inside_their_step_less_their_resets():
    pytest.importorskip("palaestra_box2d", reason="needs palaestra-box2d")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a build without the kernels says so
        envs = palaestra.make_vec("LunarLander-v3", 4, vector_kwargs={"num_workers": 2})
    block = envs._local.block
    if not block.compiled:
        envs.close()
        pytest.skip("the Box2D kernels were not built here")
    assert bench_scaling.parallel_parts(envs) == ([(block, "step")], [(block, "_restart")])
    envs.close()


@pytest.mark.parametrize("num_workers", [1, 2])
def test_blocks_in_processes_run_in_parallel_inside_the_parents_block_or_the_wait_for_all(num_workers):
    """CarRacing's blocks step in Python, a process each: one worker's block is what more would share."""
    pytest.importorskip("palaestra_box2d", reason="needs palaestra-box2d")
    envs = palaestra.make_vec("CarRacing-v3", 2, vector_kwargs={"num_workers": num_workers})
    expected = [(envs._local.block, "step")] if num_workers == 1 else [(envs, "_gather")]
    assert bench_scaling.parallel_parts(envs) == (expected, [])
    envs.close()


def test_array_batched_envs_have_no_parallel_part():
    envs = palaestra.make_vec("CartPole-v1", 4)
    assert bench_scaling.parallel_parts(envs) == ([], [])
    envs.close()


def test_the_clock_counts_a_nested_call_once_and_own_work_only_inside_a_window():
    class Worker:
        def window(self, inner):
            inner()
            return "done"

        def nested(self):
            return self.window(lambda: None)

        def own(self):
            return None

    worker, clock = Worker(), bench_scaling.ParallelClock()
    clock.watch(worker, "window")
    clock.watch(worker, "window")  # asked twice: wrapped once
    clock.own(worker, "own")
    worker.own()  # outside any window: not counted
    assert clock.seconds == 0.0 and clock.own_seconds == 0.0
    assert worker.window(worker.own) == "done"
    assert clock.seconds > 0.0 and 0.0 < clock.own_seconds <= clock.seconds
    before = clock.seconds
    worker.window(lambda: worker.window(lambda: None))  # the inner call is inside the outer one
    assert clock.seconds > before


@pytest.mark.parametrize("env_id", ["CartPole-v1", "InvertedPendulum-v5"])
def test_measured_shares_are_parts_of_the_one_worker_step(env_id):
    if env_id.startswith("Inverted"):
        pytest.importorskip("palaestra_mujoco", reason="needs palaestra-mujoco")
    bench_scaling.ROUND_SECONDS = 0.05
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results, per_block = bench_scaling.measure(env_id, 4, [1], 1)
    rate, busy, outside, own = results["palaestra", 1]
    assert rate > 0 and 0 < busy <= 1.5 and per_block is None and own == 0.0
    share, own_share, implied = bench_scaling.measured_share(4, [1], results, per_block)
    assert own_share == 0.0  # own work inside parallel parts: the Box2D blocks' resets only
    if env_id == "CartPole-v1":  # no parallel part: all of a step is serial, more cores change nothing
        assert share == pytest.approx(1.0) and implied[16] == pytest.approx(rate)
    else:
        assert 0.0 < share < 1.0 and implied[64] >= implied[16] > rate
    assert bench_scaling.measured_share(4, [2], results, per_block) is None  # no 1-worker run
    assert np.isfinite(outside)
