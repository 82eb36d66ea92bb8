"""The batched Box2D envs' compiled steps against the plain steps (the specification), bit for bit.

``make_vec("LunarLander-v3", n)`` and ``make_vec("BipedalWalker-v3", n)`` step each block
in one compiled call (``palaestra_box2d._kernel_block``); ``vectorization_mode="sync"``
steps the same sub-envs through their own ``step`` one by one.
"""

import importlib
import importlib.util
import inspect
import os
import re
from pathlib import Path

import numpy as np
import pytest

import palaestra
import palaestra.vector._async
import palaestra.vector._processes
from palaestra.error import InvalidAction
from palaestra.vector import AutoresetMode
from palaestra_box2d._engine_layout import LAYOUT, check_layout, unavailable_reason
from palaestra_box2d.lunar_lander import heuristic
from tests.fixtures.compare import assert_same_tree
from tests.fixtures.vector_envs import SUB_ENV_ERRORS_LOGGED

# Built without a C compiler, the batched envs step in Python (the whole suite covers that);
# built with it, the engine's layout must check out here, or these tests fail.
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("palaestra_box2d._stepping") is None
    or os.environ.get("PALAESTRA_BOX2D_KERNELS", "").strip() == "0",
    reason="the compiled stepping is not built (no C compiler) or turned off (PALAESTRA_BOX2D_KERNELS=0)",
)


def pair(n, mode=AutoresetMode.NEXT_STEP, limit=None, num_workers=2, env_id="LunarLander-v3", **kwargs):
    """The batched env (compiled blocks) and the plain sync env, built alike."""
    common = {"max_episode_steps": limit, **kwargs}
    batched = palaestra.make_vec(
        env_id, n, vector_kwargs={"num_workers": num_workers, "autoreset_mode": mode}, **common
    )
    plain = palaestra.make_vec(
        env_id, n, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}, **common
    )
    return batched, plain


def assert_same_bits(got, expected, where):
    for k, name in enumerate(("obs", "rewards", "terminations", "truncations")):
        assert got[k].dtype == expected[k].dtype, f"{where} {name}"
        assert got[k].tobytes() == expected[k].tobytes(), f"{where} {name}: {got[k]} != {expected[k]}"
    assert_same_tree(got[4], expected[4], f"{where} infos")


def edge_actions(rng, shape, spread, edges, share):
    """Random actions within +-spread, a share of them replaced by values at the rules' edges."""
    actions = rng.uniform(-spread, spread, shape).astype(np.float32)
    picked = rng.random(shape) < share
    actions[picked] = rng.choice(np.array(edges, dtype=np.float32), size=int(picked.sum()))
    return actions


def continuous_actions(rng, n):
    """Throttles across every branch: off, -0.0, each engine's threshold, full, beyond the bounds."""
    return edge_actions(rng, (n, 2), 1.3, (0.0, -0.0, 0.5, -0.5, 0.50000006, 1.0, -1.0, 3.0, -7.5, 0.25), 0.3)


def walker_actions(rng, n):
    """Torques across every branch: zero, -0.0, full, beyond the bounds, tiny."""
    return edge_actions(rng, (n, 4), 1.2, (0.0, -0.0, 1.0, -1.0, 1.5, -3.0, 1e-30), 0.15)


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@pytest.mark.parametrize("continuous", [False, True], ids=["discrete", "continuous"])
def test_the_compiled_step_gives_the_plain_steps_bits(continuous, mode):
    """Many episodes per sub-env (crashes, landings and a short time limit) in both blocks."""
    batched, plain = pair(5, mode, limit=70, continuous=continuous)
    rng = np.random.default_rng(4)
    try:
        assert batched._local.block.compiled
        assert_same_tree(batched.reset(seed=11), plain.reset(seed=11), "reset")
        for t in range(260):
            actions = continuous_actions(rng, 5) if continuous else rng.integers(0, 4, 5)
            got, expected = batched.step(actions), plain.step(actions)
            assert_same_bits(got, expected, f"t={t}")
            done = got[2] | got[3]
            if mode is AutoresetMode.DISABLED and done.any():
                assert_same_tree(
                    batched.reset(options={"reset_mask": done}),
                    plain.reset(options={"reset_mask": done}),
                    "mask",
                )
    finally:
        batched.close()
        plain.close()


def test_the_kernels_state_is_the_envs_own_before_any_other_command():
    """Shaping, contacts and the time limit's count are written back; the worlds report to the envs again.

    The demo pilot lands each lander; a burst of the main engine lifts it off its legs again
    (their EndContact), then the pilot lands it once more.
    """
    batched, plain = pair(4, limit=400, num_workers=1)
    try:
        obs = plain.reset(seed=3)[0]
        batched.reset(seed=3)
        ours, theirs = batched._local.block.envs, plain.envs
        lift_offs = 0
        for t in range(240):
            if 150 <= t < 158:
                actions = np.full(4, 2)
            else:
                actions = np.array([heuristic(env, row) for env, row in zip(theirs, obs, strict=True)])
            got = batched.step(actions)
            expected = plain.step(actions)
            assert_same_bits(got, expected, f"t={t}")
            lift_offs += int(((obs[:, 6:] > got[0][:, 6:]).any(axis=1) & ~(got[2] | got[3])).sum())
            obs = expected[0]
            if t % 10 == 9:
                for name in ("prev_shaping", "game_over", "_elapsed_steps"):
                    assert batched.get_attr(name) == plain.get_attr(name), (t, name)
                for a, b in zip(ours, theirs, strict=True):
                    contacts = [leg.ground_contact for leg in a.unwrapped.legs]
                    assert contacts == [leg.ground_contact for leg in b.unwrapped.legs], t
        assert lift_offs > 0  # legs left the ground while the kernel had them
        # Sub-envs stepped by their own step method (after the kernel had them) see their contacts.
        for _ in range(30):
            assert_same_tree(batched.call("step", 0), plain.call("step", 0), "call step")
    finally:
        batched.close()
        plain.close()


@pytest.mark.parametrize(
    ("kwargs", "compiled"),
    [
        ({}, True),
        ({"continuous": True}, True),
        ({"enable_wind": True}, False),
        ({"render_mode": "rgb_array"}, False),
        ({"wrappers": [lambda env: palaestra.wrappers.ClipReward(env, -1.0, 1.0)]}, False),
    ],
    ids=["plain", "continuous", "wind", "render_mode", "wrappers"],
)
def test_blocks_the_kernel_cannot_step_are_stepped_the_plain_way(kwargs, compiled):
    envs = palaestra.make_vec("LunarLander-v3", 2, **kwargs)
    try:
        assert envs._local.block.compiled is compiled
        envs.reset(seed=0)
        action = (
            np.zeros((2, 2), dtype=np.float32) if kwargs.get("continuous") else np.zeros(2, dtype=np.int64)
        )
        assert envs.step(action)[0].shape == (2, 8)
    finally:
        envs.close()


@pytest.mark.parametrize(("n", "num_workers"), [(3, 2), (10, 10)], ids=["one block", "a worker's block too"])
def test_sub_envs_set_so_the_kernel_cannot_step_them_step_the_plain_way(n, num_workers):
    """Wind set on some landers after they were made: the kernel (made for none) gives way."""
    batched, plain = pair(n, limit=90, num_workers=num_workers)
    windy = [k % 2 == 1 for k in range(n)]
    try:
        with pytest.warns(
            UserWarning, match="LanderBlock: the sub-envs were set so that the LanderKernel cannot"
        ):
            batched.set_attr("enable_wind", windy)
        plain.set_attr("enable_wind", windy)
        assert not batched._local.block.compiled
        assert_same_tree(batched.reset(seed=8), plain.reset(seed=8), "reset")
        rng = np.random.default_rng(8)
        for t in range(150):
            actions = rng.integers(0, 4, n)
            assert_same_bits(batched.step(actions), plain.step(actions), f"t={t}")
    finally:
        batched.close()
        plain.close()


def test_one_setting_for_all_that_the_kernel_takes_keeps_it():
    envs = palaestra.make_vec("LunarLander-v3", 3, vector_kwargs={"num_workers": 2})
    try:
        envs.set_attr("enable_wind", False)
        envs.set_attr("gravity", [-9.0, -8.0, -7.0])  # the world's, which the kernel steps
        assert envs._local.block.compiled
    finally:
        envs.close()


@SUB_ENV_ERRORS_LOGGED
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_an_action_the_kernel_cannot_take_gets_the_plain_steps_error(bad):
    batched, plain = pair(3, continuous=True)
    try:
        batched.reset(seed=0)
        plain.reset(seed=0)
        actions = np.zeros((3, 2), dtype=np.float32)
        actions[2, 1] = bad
        with pytest.raises(InvalidAction, match="Box\\(-1.0, 1.0, \\(2,\\), float32\\)") as raised:
            batched.step(actions)
        assert raised.value.sub_env_index == 2
        # As the plain step does, the other sub-envs took the step: the env stays usable and in
        # step with the plain sub-envs taken through the same steps.
        for j in (0, 1):
            plain.envs[j].step(actions[j])
        actions[2, 1] = 0.0
        assert_same_bits(batched.step(actions), plain.step(actions), "after the error")
    finally:
        batched.close()
        plain.close()


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@pytest.mark.parametrize("hardcore", [False, True], ids=["walker", "hardcore"])
def test_the_compiled_walker_step_gives_the_plain_steps_bits(hardcore, mode):
    """Falls (the hull's contact), legs touching and leaving the ground, and a short time limit."""
    batched, plain = pair(4, mode, limit=110, env_id="BipedalWalker-v3", hardcore=hardcore)
    rng = np.random.default_rng(7)
    falls = lift_offs = 0
    try:
        assert batched._local.block.compiled
        obs = batched.reset(seed=12)[0]
        assert_same_tree(obs, plain.reset(seed=12)[0], "reset")
        for t in range(260):
            actions = walker_actions(rng, 4)
            got, expected = batched.step(actions), plain.step(actions)
            assert_same_bits(got, expected, f"t={t}")
            falls += int((got[1] == -100).sum())
            lift_offs += int((obs[:, [8, 13]] > got[0][:, [8, 13]]).sum())
            obs = got[0]
            done = got[2] | got[3]
            if mode is AutoresetMode.DISABLED and done.any():
                obs = batched.reset(options={"reset_mask": done})[0]
                assert_same_tree(obs, plain.reset(options={"reset_mask": done})[0], "mask")
        assert falls > 0 and lift_offs > 0  # the listener's both calls were exercised
    finally:
        batched.close()
        plain.close()


def test_the_walker_kernels_state_is_the_envs_own_before_any_other_command():
    batched, plain = pair(3, limit=500, num_workers=1, env_id="BipedalWalker-v3")
    rng = np.random.default_rng(2)
    try:
        batched.reset(seed=1)
        plain.reset(seed=1)
        for t in range(120):
            actions = walker_actions(rng, 3)
            batched.step(actions)
            plain.step(actions)
            if t % 20 == 19:
                for name in ("prev_shaping", "game_over", "scroll", "_elapsed_steps"):
                    assert batched.get_attr(name) == plain.get_attr(name), (t, name)
                for a, b in zip(batched._local.block.envs, plain.envs, strict=True):
                    ours = [a.unwrapped.legs[k].ground_contact for k in (1, 3)]
                    assert ours == [b.unwrapped.legs[k].ground_contact for k in (1, 3)], t
        # Sub-envs stepped by their own step method (after the kernel had them) see their contacts.
        for _ in range(20):
            action = walker_actions(rng, 1)[0]
            assert_same_tree(batched.call("step", action), plain.call("step", action), "call step")
    finally:
        batched.close()
        plain.close()


@pytest.mark.parametrize(
    ("kwargs", "compiled"),
    [({}, True), ({"hardcore": True}, True), ({"render_mode": "rgb_array"}, False)],
    ids=["walker", "hardcore", "render_mode"],
)
def test_walker_blocks_the_kernel_cannot_step_are_stepped_the_plain_way(kwargs, compiled):
    envs = palaestra.make_vec("BipedalWalker-v3", 2, **kwargs)
    try:
        assert envs._local.block.compiled is compiled
        envs.reset(seed=0)
        assert envs.step(np.zeros((2, 4), dtype=np.float32))[0].shape == (2, 24)
    finally:
        envs.close()


@SUB_ENV_ERRORS_LOGGED
def test_a_walker_action_the_kernel_cannot_take_gets_the_plain_steps_error():
    envs = palaestra.make_vec("BipedalWalker-v3", 2)
    try:
        envs.reset(seed=0)
        actions = np.zeros((2, 4), dtype=np.float32)
        actions[1, 3] = np.nan
        with pytest.raises(InvalidAction, match="Box\\(-1.0, 1.0, \\(4,\\), float32\\)") as raised:
            envs.step(actions)
        assert raised.value.sub_env_index == 1
    finally:
        envs.close()


def test_the_engine_layout_is_checked_against_the_binding():
    assert unavailable_reason() is None
    assert check_layout() is None
    moved = tuple((name, offset + 4 if name == "body angle" else offset) for name, offset in LAYOUT)
    assert check_layout(moved) == "body angle (b2Body::m_sweep.a (float)) is not at offset 60 of b2Body"
    wrong_bit = tuple((name, 0x0004 if name == "awake flag" else offset) for name, offset in LAYOUT)
    assert check_layout(wrong_bit) == "b2Body's awake flag is not bit 0x4 of the field at offset 4"


@pytest.mark.slow
@pytest.mark.parametrize("env_id", ["LunarLander-v3", "BipedalWalker-v3"])
def test_a_spawned_worker_checks_the_layout_for_itself_and_gives_the_same_bits(env_id, monkeypatch):
    # Two blocks of two threads (a worker process and this one's), whatever the machine.
    monkeypatch.setattr(palaestra.vector._async, "usable_cores", lambda: 2)
    monkeypatch.setattr(palaestra.vector._processes, "THREADS_PER_BLOCK", 2)
    batched = palaestra.make_vec(env_id, 4, vector_kwargs={"num_workers": 4, "context": "spawn"})
    plain = palaestra.make_vec(env_id, 4, vectorization_mode="sync")
    plain.action_space.seed(1)
    try:
        assert len(batched.processes) == 1 and batched._block_threads == [2, 2]
        assert_same_tree(batched.reset(seed=2), plain.reset(seed=2), "reset")
        for t in range(120):
            actions = plain.action_space.sample()
            assert_same_bits(batched.step(actions), plain.step(actions), f"t={t}")
    finally:
        batched.close()
        plain.close()


def test_send_and_recv_between_compiled_steps_keep_the_same_bits():
    """send/recv step sub-envs one by one the plain way; the kernel takes them over again after."""
    batched, plain = pair(4, limit=40)
    rng = np.random.default_rng(5)
    try:
        batched.async_reset(seed=8)
        plain.async_reset(seed=8)
        assert_same_tree(batched.recv()[0], plain.recv()[0], "async_reset")
        for t in range(120):
            actions = rng.integers(0, 4, 4)
            if t % 30 < 10:
                batched.send(actions)
                plain.send(actions)
                got, expected = batched.recv(), plain.recv()
                for k in range(4):
                    assert got[k].tobytes() == expected[k].tobytes(), (t, k)
            else:
                assert_same_bits(batched.step(actions), plain.step(actions), f"t={t}")
    finally:
        batched.close()
        plain.close()


SOURCES = Path(__file__).resolve().parents[3] / "plugins" / "box2d" / "src" / "palaestra_box2d"


def _c_function(source, name):
    """The body of C function ``name`` in ``source`` (from its name at a line's start to its closing brace)."""
    start = re.search(rf"^{name}\(", source, re.M)
    assert start is not None, name
    return source[start.start() : source.index("\n}\n", start.start())]


def _mirrors(text, comment):
    return [m.strip() for m in re.findall(rf"{comment} mirror: ([a-z ]+)", text)]


@pytest.mark.parametrize(
    ("python", "cls", "kernel", "caller"),
    [
        ("lunar_lander.py", "LunarLander", "_lander_kernel.c", "lander_task"),
        ("bipedal_walker.py", "BipedalWalker", "_walker_kernel.c", "walker_task"),
    ],
)
def test_each_c_step_mirrors_its_python_specification_part_by_part(python, cls, kernel, caller):
    """Each '# mirror:' part of the env's step has its '/* mirror:' twin in the kernel, in the same order.

    The task (which picks the throttles) runs before step_one, so its parts come first.
    """
    module = importlib.import_module(f"palaestra_box2d.{python[:-3]}")
    spec = _mirrors(inspect.getsource(getattr(module, cls).step), "#")
    source = (SOURCES / kernel).read_text()
    compiled = _mirrors(_c_function(source, caller), r"/\*") + _mirrors(
        _c_function(source, "step_one"), r"/\*"
    )
    assert len(spec) >= 7 and spec == compiled


def test_every_engine_field_is_named_by_its_box2d_member():
    from palaestra_box2d._engine_layout import MEMBERS

    assert set(MEMBERS) == {name for name, _ in LAYOUT}
    assert all(member.startswith(("b2Body::", "b2Contact::", "b2Fixture::")) for member in MEMBERS.values())
    header = (SOURCES / "_stepping.h").read_text()
    for member in MEMBERS.values():
        assert member.split(" (")[0] in header  # the C enum names the same member
