"""Batched Box2D envs (make_vec's default): Gymnasium's numbers in every autoreset mode, a block per core."""

import os
import subprocess
import sys
import textwrap
import warnings

import gymnasium
import numpy as np
import pytest

import palaestra
from palaestra.error import InvalidAction
from palaestra.vector import AutoresetMode
from palaestra_box2d._lander_block import LanderBlock
from tests.fixtures.compare import assert_same_tree
from tests.fixtures.vector_envs import SUB_ENV_ERRORS_LOGGED

CASES = [
    ("LunarLander-v3", {}, 3, 90),
    ("LunarLanderContinuous-v3", {}, 3, 90),
    ("LunarLanderContinuous-v3", {"enable_wind": True}, 3, 90),  # wind: the plain step
    ("BipedalWalker-v3", {}, 3, 60),
    ("BipedalWalkerHardcore-v3", {}, 2, 60),
    ("CarRacing-v3", {}, 2, 12),
]


def gymnasium_sync(env_id, n, mode, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gymnasium.vector.SyncVectorEnv(
            [lambda: gymnasium.make(env_id, **kwargs)] * n,
            autoreset_mode=gymnasium.vector.AutoresetMode(mode.value),
        )


@pytest.mark.parametrize(
    ("env_id", "kwargs", "n", "steps"), CASES, ids=[c[0] + "".join(f"-{k}" for k in c[1]) for c in CASES]
)
@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
def test_batched_box2d_envs_give_gymnasiums_numbers(env_id, kwargs, n, steps, mode):
    """Short time limits make every sub-env end and autoreset several times."""
    limit = steps // 3
    ours = palaestra.make_vec(env_id, n, autoreset_mode=mode, max_episode_steps=limit, **kwargs)
    ref = gymnasium_sync(env_id, n, mode, max_episode_steps=limit, **kwargs)
    try:
        assert type(ours).__name__.endswith("VectorEnv") and ours.in_parent
        assert_same_tree(ours.reset(seed=5), ref.reset(seed=5), "reset")
        ref.action_space.seed(9)
        for t in range(steps):
            actions = ref.action_space.sample()
            got, expected = ours.step(actions), ref.step(actions)
            for k, name in enumerate(("obs", "rewards", "terminations", "truncations", "infos")):
                assert_same_tree(got[k], expected[k], f"t={t} {name}")
            done = got[2] | got[3]
            if mode is AutoresetMode.DISABLED and done.any():
                assert_same_tree(
                    ours.reset(options={"reset_mask": done}),
                    ref.reset(options={"reset_mask": done}),
                    f"t={t} mask",
                )
    finally:
        ours.close()
        ref.close()


def test_the_blocks_spread_over_the_cores_with_the_last_in_this_process():
    """Blocks stepped in Python: one per worker, a process each but the last."""
    envs = palaestra.make_vec("LunarLander-v3", 5, vector_kwargs={"num_workers": 2}, enable_wind=True)
    try:
        assert len(envs.processes) == 1 and envs._local.indices == (3, 4)
        assert envs.spec.kwargs["vector_kwargs"] == {"num_workers": 2}
    finally:
        envs.close()
    # Compiled blocks: the workers are the threads of one block, in this process (where the
    # kernels are off, PALAESTRA_BOX2D_KERNELS=0, the plain landers are blocks as above).
    threaded = palaestra.make_vec("LunarLander-v3", 5, vector_kwargs={"num_workers": 2})
    try:
        if LanderBlock.verdict()[0] is None:
            assert len(threaded.processes) == 1 and threaded._local.indices == (3, 4)
        else:
            assert threaded.processes == [] and threaded._local.indices == (0, 1, 2, 3, 4)
            assert threaded._local.block._kernel.threads == 2
    finally:
        threaded.close()
    alone = palaestra.make_vec("LunarLander-v3", 2, vector_kwargs={"num_workers": 1})
    try:
        assert alone.processes == [] and alone.reset(seed=0)[0].shape == (2, 8)
    finally:
        alone.close()


def test_wrappers_and_vector_kwargs_are_taken_as_by_a_vectorizer():
    """Code written for Gymnasium's sync default (wrappers, vector_kwargs) runs unchanged."""

    def scaled(env):
        return palaestra.wrappers.TransformReward(env, lambda r: 10.0 * r)

    plain = palaestra.make_vec("LunarLander-v3", 2, vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP})
    wrapped = palaestra.make_vec(
        "LunarLander-v3", 2, wrappers=[scaled], vector_kwargs={"autoreset_mode": "SameStep", "copy": False}
    )
    try:
        assert (
            plain.metadata["autoreset_mode"] is wrapped.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
        )
        plain.reset(seed=1)
        wrapped.reset(seed=1)
        actions = np.array([2, 0])
        assert np.array_equal(10.0 * plain.step(actions)[1], wrapped.step(actions)[1])
    finally:
        plain.close()
        wrapped.close()


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="num_envs must be a positive integer, got 0"):
        palaestra.make_vec("LunarLander-v3", 0)
    with pytest.raises(TypeError, match="always steps its last block in this process; for workers only, use"):
        palaestra.make_vec("LunarLander-v3", 2, vector_kwargs={"in_parent": False})
    from palaestra_box2d.vector import LunarLanderVectorEnv

    with pytest.raises(ValueError, match="num_envs must be a positive integer, got 2.0"):
        LunarLanderVectorEnv(num_envs=2.0)


@pytest.mark.parametrize("env_id", ["LunarLander-v3", "CartPole-v1", "Blackjack-v1"])
def test_a_render_mode_that_is_no_name_is_refused_by_every_batched_env(env_id):
    """make()'s words: the batched envs (vector entry points) check it as make() does."""
    from palaestra.error import InvalidEnvArguments

    with pytest.raises(
        InvalidEnvArguments, match=r"render_mode must be None or the name of a render mode, one of \["
    ):
        palaestra.make_vec(env_id, 2, render_mode=5)


@SUB_ENV_ERRORS_LOGGED
def test_bad_actions_are_named_with_the_sub_env():
    envs = palaestra.make_vec("LunarLander-v3", 2)
    try:
        envs.reset(seed=0)
        with pytest.raises(
            ValueError, match="got 5 actions for 2 sub-environments; pass one action per sub-env"
        ):
            envs.step(np.zeros(5, dtype=np.int64))
        with pytest.raises(InvalidAction, match="Discrete\\(4\\)") as raised:
            envs.step(np.array([0, 7]))
        assert raised.value.sub_env_index == 1
    finally:
        envs.close()


@pytest.mark.slow
def test_a_script_without_a_main_guard_runs_with_the_default(tmp_path):
    path = tmp_path / "lander.py"
    path.write_text(
        textwrap.dedent(
            """
        import numpy as np
        import palaestra
        envs = palaestra.make_vec("LunarLander-v3", 4)
        envs.reset(seed=0)
        print("terminated", envs.step(np.zeros(4, dtype=np.int64))[2].tolist())
        envs.close()
        """
        )
    )
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "terminated [False, False, False, False]" in done.stdout


@pytest.mark.slow
def test_a_script_without_a_main_guard_on_forkserver_gets_the_two_line_fix(tmp_path):
    path = tmp_path / "lander.py"
    path.write_text(
        "import palaestra\n"
        "envs = palaestra.make_vec('LunarLander-v3', 4, vector_kwargs={'context': 'forkserver', 'num_workers': 2},"
        " enable_wind=True)\n"
    )
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "UnguardedMainError" in done.stderr and "line 2 runs at import" in done.stderr
    assert 'if __name__ == "__main__":' in done.stderr
    assert not any(name.startswith("lander") for name in os.listdir(tmp_path) if name != "lander.py")
