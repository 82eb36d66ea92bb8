"""RayVectorEnv against SyncVectorEnv on real Ray actors: same batches, same semantics."""

import functools
import os
import time

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
from palaestra.spaces import Dict, Discrete
from palaestra.vector import AutoresetMode, SyncVectorEnv, VectorSnapshot
from palaestra_ray import RayVectorEnv
from tests.fixtures.compare import assert_same_tree
from tests.fixtures.info_env import make_info_env_class
from tests.fixtures.vector_envs import SUB_ENV_ERRORS_LOGGED, CrashEnv, DieEnv, InfoEnv, StuckEnv

VaryingInfoEnv = make_info_env_class(palaestra)

pytestmark = pytest.mark.usefixtures("ray_cluster")


def varying(index):
    return VaryingInfoEnv(index)


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_same_batches_as_sync_in_every_autoreset_mode(mode):
    fns = [functools.partial(varying, i) for i in range(5)]
    ours = RayVectorEnv(fns, num_actors=2, autoreset_mode=mode)
    reference = SyncVectorEnv(fns, autoreset_mode=mode)
    assert [list(b) for b in ours.blocks] == [[0, 1, 2], [3, 4]]
    assert ours.metadata["autoreset_mode"] is mode
    assert_same_tree(ours.reset(seed=7), reference.reset(seed=7))
    rng = np.random.default_rng(0)
    for _ in range(40):
        actions = rng.integers(0, 3, 5)
        expected = reference.step(actions)
        assert_same_tree(ours.step(actions), expected)
        if mode is AutoresetMode.DISABLED and (expected[2] | expected[3]).any():
            mask = expected[2] | expected[3]
            assert_same_tree(
                ours.reset(options={"reset_mask": mask}), reference.reset(options={"reset_mask": mask})
            )
    ours.close()


def test_make_vec_loads_the_ray_vectorizer_and_matches_cartpole_sync():
    envs = palaestra.make_vec(
        "CartPole-v1", 4, vectorization_mode="ray/actors", vector_kwargs={"num_actors": 2}
    )
    reference = palaestra.make_vec("CartPole-v1", 4, vectorization_mode="sync")
    assert isinstance(envs, RayVectorEnv) and envs.num_actors == 2
    assert envs.spec.kwargs["vectorization_mode"] == "ray/actors"
    assert envs.observation_space == reference.observation_space
    assert envs.action_space == reference.action_space
    assert_same_tree(envs.reset(seed=1), reference.reset(seed=1))
    for t in range(300):
        actions = np.array([(t // 3 + i) % 2 for i in range(4)])
        assert_same_tree(envs.step(actions), reference.step(actions))
    envs.close()


def test_reset_mask_skips_blocks_with_nothing_to_reset():
    fns = [functools.partial(InfoEnv, 3, i) for i in range(4)]
    ours = RayVectorEnv(fns, num_actors=2, autoreset_mode="Disabled")
    reference = SyncVectorEnv(fns, autoreset_mode="Disabled")
    assert_same_tree(ours.reset(seed=3), reference.reset(seed=3))
    ended = np.zeros(4, bool)
    while not ended[0]:  # sub-env i ends after 3 + i steps at most
        result = reference.step(np.ones(4, int))
        assert_same_tree(ours.step(np.ones(4, int)), result)
        ended |= result[2]
    assert not ended[2:].any()
    # Only the first actor's block has sub-envs to reset: the second is not called.
    assert_same_tree(
        ours.reset(options={"reset_mask": ended}), reference.reset(options={"reset_mask": ended})
    )
    # Step on until an ended sub-env is stepped again: both refuse, naming the same one.
    stepped = [ours, reference]
    errors = []
    for _ in range(10):
        results = []
        for envs in stepped:
            try:
                results.append(envs.step(np.ones(4, int)))
            except RuntimeError as e:
                results.append(e)
        if isinstance(results[1], RuntimeError):
            errors = results
            break
        assert_same_tree(results[0], results[1])
    ours_error, reference_error = errors
    assert isinstance(ours_error, RuntimeError) and str(reference_error) in str(ours_error)
    assert ours_error.sub_env_index == reference_error.sub_env_index
    with pytest.raises(ValueError, match=r"reset_mask.*shape `\(4,\)`"):
        ours.reset(options={"reset_mask": np.ones(3, bool)})
    ours.close()


def test_dict_observations_copy_false_and_different_spaces():
    def dict_env(n):
        env = InfoEnv(3, n)
        base = palaestra.wrappers.TransformObservation(
            env,
            lambda obs: {"pos": obs, "n": n},
            Dict({"pos": env.observation_space, "n": Discrete(n + 1)}),
        )
        return base

    fns = [functools.partial(dict_env, i) for i in range(3)]
    ours = RayVectorEnv(fns, num_actors=2, observation_mode="different", copy=False)
    reference = SyncVectorEnv(fns, observation_mode="different", copy=False)
    assert ours.observation_space == reference.observation_space
    first, _ = ours.reset(seed=0)
    assert_same_tree(first, reference.reset(seed=0)[0])
    second = ours.step(np.zeros(3, int))[0]
    assert second["pos"] is first["pos"]  # copy=False: one buffer, overwritten
    assert_same_tree(second, reference.step(np.zeros(3, int))[0])
    with pytest.raises(
        RuntimeError, match="observation spaces are not equivalent.*Sub-env 1 differs from sub-env 0"
    ):
        RayVectorEnv(fns, num_actors=2)
    ours.close()


def test_calls_attributes_render_and_seeds_cross_actors():
    fns = [functools.partial(InfoEnv, 3, i, "rgb_array") for i in range(3)]
    envs = RayVectorEnv(fns, num_actors=2)
    envs.reset(seed=[5, None, 6])
    assert envs.render_mode == "rgb_array"
    assert envs.call("add", 10, b=1) == (11, 12, 13)
    envs.call_async("label_with", name="x")  # a method taking `name` (call_async's is positional)
    assert envs.call_wait() == ("x-0", "x-1", "x-2")
    envs.set_attr("label", ["a", "b", "c"])
    assert envs.get_attr("label") == ("a", "b", "c")
    envs.set_attr("label", "same")
    assert envs.get_attr("label") == ("same",) * 3
    seeds = envs.np_random_seed
    assert (seeds[0], seeds[2]) == (5, 6) and seeds[1] not in (5, 6)
    frames = envs.render()
    assert len(frames) == 3 and all(f.shape == (4, 4, 3) for f in frames)
    with pytest.raises(ValueError, match="Got `2` values for 3 environments"):
        envs.set_attr("label", ["a", "b"])
    with pytest.raises(ValueError, match="length must match num_envs=3"):
        envs.reset(seed=[1, 2])
    envs.close()


def test_snapshots_restore_every_block():
    envs = palaestra.make_vec(
        "CartPole-v1", 3, vectorization_mode="ray/actors", vector_kwargs={"num_actors": 2}
    )
    envs.reset(seed=11)
    for _ in range(5):
        envs.step(np.array([1, 0, 1]))
    saved = envs.snapshot()
    assert isinstance(saved, VectorSnapshot) and len(saved.envs) == 3
    first = [envs.step(np.array([t % 2, 1, 0])) for t in range(30)]
    envs.restore(saved)
    again = [envs.step(np.array([t % 2, 1, 0])) for t in range(30)]
    assert_same_tree(tuple(first), tuple(again))
    envs.restore(saved.envs[0])  # one env's state into every sub-env
    obs = envs.step(np.array([1, 1, 1]))[0]
    assert (obs == obs[0]).all()
    with pytest.raises(palaestra.error.SnapshotError, match="holds 2 sub-envs and this vector env has 3"):
        envs.restore(VectorSnapshot(saved.envs[:2], saved.autoreset[:2]))
    envs.close()


def test_sub_env_error_keeps_type_message_and_global_index():
    fns = [functools.partial(CrashEnv, i, crash_index=3, crash_at=2) for i in range(4)]
    envs = RayVectorEnv(fns, num_actors=2)
    envs.reset(seed=0)
    envs.step(np.zeros(4, int))
    with pytest.raises(ValueError, match="env 3 exploded at step 2") as caught:
        envs.step(np.zeros(4, int))
    assert caught.value.sub_env_index == 3
    assert isinstance(caught.value.__cause__, SubEnvError)
    assert caught.value.__cause__.index == 3
    assert "exploded" in caught.value.__cause__.worker_traceback
    assert any("sub-env 3 of a RayVectorEnv" in note for note in caught.value.__notes__)
    # The vector env stays usable: the other sub-envs still answer.
    assert envs.call("add", 0) == (0, 1, 2, 3)
    envs.close()


def test_a_sub_env_that_fails_to_build_is_named():
    def factory(i):
        if i == 2:
            raise OSError("no such map file: level-2.txt")
        return InfoEnv(3, i)

    with pytest.raises(OSError, match="level-2.txt") as caught:
        RayVectorEnv([functools.partial(factory, i) for i in range(3)], num_actors=2)
    assert caught.value.sub_env_index == 2


@pytest.mark.parametrize("how", ["sigkill", "exit"])
def test_a_dying_actor_gives_a_typed_error_naming_its_sub_envs(how):
    fns = [functools.partial(DieEnv, i, die_index=2, how=how) for i in range(4)]
    envs = RayVectorEnv(fns, num_actors=2)
    pids = envs.actor_pids
    envs.reset(seed=0)
    envs.step(np.zeros(4, int))
    start = time.monotonic()
    with pytest.raises(WorkerDiedError, match="actor running sub-envs 2-3 died during `step`") as caught:
        envs.step(np.zeros(4, int))
    assert time.monotonic() - start < 10
    assert caught.value.indices == (2, 3)
    assert envs.closed
    with pytest.raises(ClosedEnvironmentError, match="closed RayVectorEnv"):
        envs.step(np.zeros(4, int))
    assert_processes_gone(pids)


def test_a_stuck_actor_times_out_naming_its_sub_envs():
    fns = [functools.partial(StuckEnv, i, stuck_index=0) for i in range(2)]
    # A generous default (building includes starting the actor processes); the step's own
    # timeout overrides it.
    envs = RayVectorEnv(fns, num_actors=2, step_timeout=60.0)
    pids = envs.actor_pids
    envs.reset(seed=0)
    envs.step(np.zeros(2, int))
    start = time.monotonic()
    envs.step_async(np.zeros(2, int))
    with pytest.raises(VectorTimeoutError, match=r"sub-env 0 did not answer `step` within 1.0 s") as caught:
        envs.step_wait(timeout=1.0)
    assert time.monotonic() - start < 10
    assert caught.value.indices == (0,)
    assert envs.closed
    assert_processes_gone(pids)


def test_async_pairs_and_their_errors():
    envs = RayVectorEnv([functools.partial(InfoEnv, 3, i) for i in range(2)], num_actors=2)
    with pytest.raises(NoAsyncCallError, match="without any prior call to `step_async`"):
        envs.step_wait()
    envs.reset_async(seed=0)
    with pytest.raises(AlreadyPendingCallError, match="pending call to `reset`"):
        envs.step_async(np.zeros(2, int))
    obs, _ = envs.reset_wait()
    assert obs.shape == (2, 2)
    envs.call_async("add", 1)
    assert envs.call_wait() == (1, 2)
    with pytest.raises(ValueError, match="RayVectorEnv.step got 3 actions for 2 sub-environments"):
        envs.step([0, 1, 2])
    with pytest.raises(ValueError, match="got 1 actions for 2 sub-environments"):
        envs.step(np.zeros(1, int))
    envs.close()
    envs.close()  # idempotent
    with pytest.raises(ClosedEnvironmentError, match="make a new one"):
        envs.reset()


def test_close_stops_every_actor_process():
    envs = RayVectorEnv([functools.partial(InfoEnv, 3, i) for i in range(3)], num_actors=3)
    pids = envs.actor_pids
    assert len(set(pids)) == 3
    envs.close()
    assert_processes_gone(pids)


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="at least one env function"):
        RayVectorEnv([])
    with pytest.raises(ValueError, match="`num_actors` must be a positive integer or None, got 0"):
        RayVectorEnv([InfoEnv], num_actors=0)
    with pytest.raises(ValueError, match="Invalid autoreset_mode 'later'"):
        RayVectorEnv([InfoEnv], autoreset_mode="later")
    for name in ("step_timeout", "build_timeout"):
        for bad in (-1, 0, float("nan"), "5", True):
            with pytest.raises(ValueError, match=rf"{name} must be a positive number of seconds or None"):
                RayVectorEnv([InfoEnv], **{name: bad})
    with pytest.raises(
        ValueError, match=r"`actor_options` has 1 entries for 2 actors; give one dict per actor"
    ):
        RayVectorEnv([InfoEnv] * 2, num_actors=2, actor_options=[{}])
    with pytest.raises(TypeError, match="`actor_options` must be a dict .* got int"):
        RayVectorEnv([InfoEnv] * 2, num_actors=2, actor_options=5)
    with pytest.raises(TypeError, match=r"actor_options\(1\) must be a dict of Ray actor options, got None"):
        RayVectorEnv([InfoEnv] * 2, num_actors=2, actor_options=lambda k: {} if k == 0 else None)
    with pytest.raises(
        ValueError, match="Unknown placement 'everywhere': use 'pack', 'spread' or a list of node ids"
    ):
        RayVectorEnv([InfoEnv] * 2, num_actors=2, placement="everywhere")
    with pytest.raises(ValueError, match=r"names nodes that are not alive in the cluster: \['nope'\]"):
        RayVectorEnv([InfoEnv] * 2, num_actors=2, placement=["nope"])
    with pytest.raises(
        ValueError, match="`placement` and a `scheduling_strategy` in `actor_options` both say"
    ):
        RayVectorEnv([InfoEnv] * 2, placement="spread", actor_options={"scheduling_strategy": "SPREAD"})
    with pytest.raises(ValueError, match="Actor 0 holds no resource"):
        RayVectorEnv([InfoEnv] * 2, num_actors=2, placement="pack", actor_options={"num_cpus": 0})


def test_default_actor_count_is_the_cluster_cpu_count():
    envs = RayVectorEnv([functools.partial(InfoEnv, 3, i) for i in range(5)])
    assert envs.num_actors == 2  # the test cluster has two CPUs
    assert repr(envs) == "RayVectorEnv(num_envs=5, num_actors=2)"
    envs.close()


def assert_processes_gone(pids, within=10.0):
    import os

    deadline = time.monotonic() + within
    alive = set(pids)
    while alive and time.monotonic() < deadline:
        for pid in list(alive):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                alive.discard(pid)
        time.sleep(0.05)
    assert not alive, f"actor processes {sorted(alive)} still running"


def test_unpicklable_env_functions_are_named():
    import threading

    lock = threading.Lock()

    def holds_a_lock():
        with lock:
            return InfoEnv()

    with pytest.raises(TypeError, match=r"env_fns\[0:1\] cannot be sent to a Ray actor"):
        RayVectorEnv([holds_a_lock], num_actors=1)


def test_dropping_the_env_stops_its_actors():
    import gc

    envs = RayVectorEnv([functools.partial(InfoEnv, 3, i) for i in range(2)], num_actors=2)
    pids = envs.actor_pids
    del envs
    gc.collect()
    assert_processes_gone(pids, within=30.0)


def test_init_arguments_while_ray_runs_are_ignored_with_a_warning():
    with pytest.warns(UserWarning, match="Ray is already running; RayVectorEnv ignores ray_init_kwargs"):
        envs = RayVectorEnv([InfoEnv], ray_init_kwargs={"num_cpus": 8})
    envs.close()


def test_envs_registered_in_this_process_reach_the_actors():
    from palaestra import PluginHost, use_host

    with use_host(PluginHost()):
        palaestra.register(
            "RayLocalInfo-v0", entry_point="tests.fixtures.vector_envs:InfoEnv", kwargs={"length": 2}
        )
        envs = palaestra.make_vec("RayLocalInfo-v0", 3, vectorization_mode="ray/actors")
        obs, _ = envs.reset(seed=0)
        assert envs.get_attr("length") == (2, 2, 2)
        assert obs.shape == (3, 2)
        envs.close()


def test_closing_after_ray_shut_down_returns_without_restarting_ray(ray_cluster):
    # This stops the session's Ray; it is started again for the tests that follow.
    envs = RayVectorEnv([InfoEnv], num_actors=1)
    ray_cluster.shutdown()
    try:
        envs.close()
        assert not ray_cluster.is_initialized()
    finally:
        from tests.plugins.ray.conftest import start_ray

        start_ray(ray_cluster)


def test_custom_observation_spaces_and_per_env_wrappers():
    from palaestra.spaces import Box
    from palaestra.wrappers import TimeAwareObservation

    single = Box(-1000, 1000, (2,), np.float32)
    batched = Box(-1000, 1000, (3, 2), np.float32)
    fns = [functools.partial(InfoEnv, 3, i) for i in range(3)]
    envs = RayVectorEnv(fns, num_actors=2, observation_mode=(batched, single))
    assert envs.single_observation_space == single and envs.observation_space == batched
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (3, 2) and obs[:, 1].tolist() == [0, 1, 2]
    envs.close()
    envs = palaestra.make_vec(
        "CartPole-v1",
        3,
        vectorization_mode="ray/actors",
        wrappers=[lambda env: TimeAwareObservation(env)],
    )
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (3, 5) and (obs[:, 4] == 0).all()
    obs = envs.step(np.zeros(3, int))[0]
    assert (obs[:, 4] == 1).all()
    envs.close()


def test_a_sub_env_that_hangs_while_building_times_out():
    def slow_factory(i):
        if i == 1:
            time.sleep(600)
        return InfoEnv(3, i)

    start = time.monotonic()
    # Starting actor processes counts too: on a busy 2-core machine Ray can take several
    # seconds to schedule two actors, so the deadline leaves room for that.
    with pytest.raises(
        VectorTimeoutError, match=r"sub-env.* 1 did not answer `build` within 20.0 s"
    ) as caught:
        RayVectorEnv([functools.partial(slow_factory, i) for i in range(2)], num_actors=2, build_timeout=20.0)
    assert time.monotonic() - start < 120  # the deadline, not the sub-env's 600 s
    assert 1 in caught.value.indices


def test_restart_mode_rebuilds_a_dead_actor_and_reports_its_rows_truncated():
    fns = [functools.partial(DieEnv, i, die_index=2, how="sigkill") for i in range(4)]
    envs = RayVectorEnv(fns, num_actors=2, on_actor_failure="restart")
    reference = SyncVectorEnv([functools.partial(InfoEnv, 100, i) for i in range(4)])
    first_pids = envs.actor_pids
    try:
        assert_same_tree(envs.reset(seed=1), reference.reset(seed=1))
        actions = np.zeros(4, int)
        assert_same_tree(envs.step(actions), reference.step(actions))
        obs, rewards, terminations, truncations, infos = envs.step(actions)  # sub-env 2 kills its actor
        expected = reference.step(actions)
        assert infos["actor_lost"].tolist() == [False, False, True, True] == infos["_actor_lost"].tolist()
        assert truncations.tolist() == [False, False, True, True] and not terminations.any()
        assert rewards[2:].tolist() == [0.0, 0.0]
        assert np.array_equal(obs[:2], expected[0][:2]) and np.array_equal(rewards[:2], expected[1][:2])
        # NEXT_STEP: the rows reported truncated are reset by the next step, as SyncVectorEnv does.
        _, rewards, terminations, truncations, infos = envs.step(actions)
        assert "actor_lost" not in infos and rewards[2:].tolist() == [0.0, 0.0] and not truncations.any()
        envs.step(actions)
        # The rebuilt sub-env 2 dies again on its second step: restarted again.
        assert envs.step(actions)[4]["actor_lost"].tolist() == [False, False, True, True]
        assert not envs.closed
    finally:
        envs.close()
    assert_processes_gone(first_pids)


class DieOnSecondReset(InfoEnv):
    """Sub-env 0 ends its process on its second reset."""

    def reset(self, *, seed=None, options=None):
        self.resets = getattr(self, "resets", 0) + 1
        if self.index == 0 and self.resets >= 2:
            import os

            os._exit(3)
        return super().reset(seed=seed, options=options)


def test_restart_mode_redoes_a_reset_on_the_rebuilt_actor():
    fns = [functools.partial(DieOnSecondReset, 100, i) for i in range(2)]
    envs = RayVectorEnv(fns, num_actors=2, on_actor_failure="restart")
    reference = SyncVectorEnv([functools.partial(InfoEnv, 100, i) for i in range(2)])
    try:
        envs.reset(seed=3)
        envs.step(np.zeros(2, int))
        # Sub-env 0's actor dies in this reset; the rebuilt one resets with the same seeds.
        assert_same_tree(envs.reset(seed=9), reference.reset(seed=9))
        assert not envs.closed
    finally:
        envs.close()


def test_on_actor_failure_must_be_raise_or_restart():
    with pytest.raises(
        ValueError, match=r"`on_actor_failure` must be one of \('raise', 'restart'\), got 'retry'"
    ):
        RayVectorEnv([InfoEnv], on_actor_failure="retry")


class DieOnce(palaestra.Wrapper):
    """Ends its process on its third step, once (a marker file remembers it across actors)."""

    def __init__(self, env, marker):
        super().__init__(env)
        self.marker, self.steps = marker, 0

    def step(self, action):
        self.steps += 1
        if self.steps == 3 and not os.path.exists(self.marker):
            open(self.marker, "w").close()
            os._exit(3)
        return self.env.step(action)


def cartpole_dying_once(index, marker):
    env = palaestra.make("CartPole-v1")
    return DieOnce(env, marker) if index == 2 else env


def test_restart_mode_restores_lost_sub_envs_from_their_last_kept_snapshot(tmp_path):
    marker = str(tmp_path / "died")
    fns = [functools.partial(cartpole_dying_once, i, marker) for i in range(4)]
    envs = RayVectorEnv(fns, num_actors=2, on_actor_failure="restart", snapshot_every=2)
    plain = [functools.partial(palaestra.make, "CartPole-v1")] * 4
    reference = SyncVectorEnv(plain)
    try:
        actions = [
            np.array([1, 0, 1, 0]),
            np.array([0, 1, 1, 0]),
            np.array([1, 1, 0, 0]),
            np.array([0, 0, 1, 1]),
        ]
        assert_same_tree(envs.reset(seed=4), reference.reset(seed=4))
        for a in actions[:2]:
            at_snapshot = envs.step(a)  # the second step keeps a snapshot
            assert_same_tree(at_snapshot, reference.step(a))
        kept = reference.snapshot()
        obs, rewards, terminations, truncations, infos = envs.step(actions[2])  # sub-env 2's actor dies
        expected = reference.step(actions[2])
        lost = infos["actor_lost"]
        assert lost.tolist() == [False, False, True, True] and truncations[lost].all()
        assert not terminations[lost].any() and (rewards[lost] == 0).all()
        assert np.array_equal(obs[lost], at_snapshot[0][lost])  # the rows are where the snapshot was
        assert np.array_equal(obs[~lost], expected[0][~lost])
        # The restored sub-envs go on from the snapshot; the others from where they were.
        after = envs.step(actions[3])
        survivors_expected = reference.step(actions[3])
        reference.restore(kept)
        restored_expected = reference.step(actions[3])
        assert np.array_equal(after[0][~lost], survivors_expected[0][~lost])
        assert np.array_equal(after[0][lost], restored_expected[0][lost])
        assert "actor_lost" not in after[4]
    finally:
        envs.close()
        reference.close()


def test_snapshot_every_is_checked():
    with pytest.raises(
        ValueError, match="`snapshot_every` must be a positive number of steps or None, got 0"
    ):
        RayVectorEnv([InfoEnv], on_actor_failure="restart", snapshot_every=0)
    with pytest.raises(ValueError, match="it needs on_actor_failure='restart' \\(got 'raise'\\)"):
        RayVectorEnv([InfoEnv], snapshot_every=10)


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_recv_with_batch_size_num_envs_gives_what_sync_step_gives(mode):
    fns = [functools.partial(varying, i) for i in range(5)]
    ours = RayVectorEnv(fns, num_actors=2, autoreset_mode=mode)
    reference = SyncVectorEnv(fns, autoreset_mode=mode)
    try:
        expected_reset = reference.reset(seed=7)
        ours.async_reset(seed=7)
        got = ours.recv()
        assert got[4].pop("env_id").tolist() == [0, 1, 2, 3, 4]
        assert_same_tree(got[0], expected_reset[0])
        assert_same_tree(got[4], expected_reset[1])
        rng = np.random.default_rng(0)
        for _ in range(30):
            actions = rng.integers(0, 3, 5)
            expected = reference.step(actions)
            ours.send(actions, np.arange(5))
            got = ours.recv()
            got[4].pop("env_id")
            assert_same_tree(got, expected)
            if mode is AutoresetMode.DISABLED and (expected[2] | expected[3]).any():
                break
    finally:
        ours.close()


def test_recv_across_actors_yields_each_result_once_and_names_misuse():
    envs = palaestra.make_vec(
        "CartPole-v1", 4, vectorization_mode="ray/actors", vector_kwargs={"num_actors": 2, "batch_size": 2}
    )
    try:
        envs.async_reset(seed=0)
        counts = np.zeros(4, dtype=np.int64)
        for _ in range(20):
            ids = envs.recv()[4]["env_id"]
            counts[ids] += 1
            envs.send(np.zeros(2, dtype=np.int64), ids)
        assert counts.sum() == 40
        with pytest.raises(
            AlreadyPendingCallError, match="Calling `step_async` while results of send/async_reset"
        ):
            envs.step(np.zeros(4, dtype=np.int64))
    finally:
        envs.close()


def test_a_sub_env_error_in_recv_names_its_global_index():
    envs = RayVectorEnv(
        [functools.partial(CrashEnv, index=i, crash_index=3, crash_at=1) for i in range(4)], num_actors=2
    )
    try:
        envs.reset(seed=0)
        envs.send(np.zeros(4, dtype=np.int64), np.arange(4))
        with pytest.raises(ValueError, match="env 3 exploded at step 1") as raised:
            envs.recv()
        assert raised.value.sub_env_index == 3
    finally:
        envs.close()


def test_every_palaestra_error_crosses_ray_whole():
    import ray

    from tests.core.test_error_pickling import error_classes, fingerprint, instance

    for _, cls in error_classes():
        error = instance(cls)
        copy = ray.get(ray.put(error))
        assert type(copy) is cls and fingerprint(copy) == fingerprint(error)


def test_an_actor_still_in_its_constructor_is_told_from_one_never_placed():
    """Ray says PENDING_CREATION of both; only the one a worker runs counts as placed (STARTING)."""
    import ray

    from palaestra_ray._placement import actor_state

    @ray.remote
    class SlowStart:
        def __init__(self):
            time.sleep(4)

    starting = SlowStart.options(num_cpus=0).remote()
    never = SlowStart.options(num_cpus=0, resources={"no-such-resource": 1}).remote()
    try:
        deadline = time.monotonic() + 60
        while actor_state(starting)[0] != "STARTING" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert actor_state(starting)[0] == "STARTING"
        assert actor_state(never)[0] == "PENDING_CREATION"
    finally:
        ray.kill(starting)
        ray.kill(never)


@SUB_ENV_ERRORS_LOGGED
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED])
def test_ray_actors_under_hostile_actions_match_sync_and_lose_nothing(mode):
    """The fault matrix's row for Ray (docs/vector.md)."""
    from tests.fixtures import fault_matrix

    figures = fault_matrix.run(fault_matrix.ray_kind(), mode, steps=60, seed=2, limit=300)
    assert figures.hostile > 5 and figures.raised > 5, figures
    assert figures.clean, figures
