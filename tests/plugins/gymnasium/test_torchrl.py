"""TorchRL trains on palaestra through the bridge.

Its GymEnv takes palaestra's ids and its GymWrapper takes bridged envs and vector envs, with
Gymnasium's numbers.

Needs torch and TorchRL (``.ci/run``'s extras session installs them with pip).
"""

import warnings

import numpy as np
import pytest

pytestmark = pytest.mark.extras
torch = pytest.importorskip("torch", reason="torch is installed with pip outside uv (see .ci/run)")
torchrl_envs = pytest.importorskip(
    "torchrl.envs", reason="TorchRL is installed with pip outside uv (see .ci/run)"
)

import gymnasium  # noqa: E402

import palaestra  # noqa: E402
import palaestra_gymnasium  # noqa: E402,F401  # registers palaestra/<id> with Gymnasium
from palaestra.vector import AutoresetMode  # noqa: E402
from palaestra_gymnasium import to_gymnasium  # noqa: E402


def rollout(env, steps, seed=0):
    env.set_seed(seed)
    torch.manual_seed(seed)  # TorchRL's random policy
    return env.rollout(steps, break_when_any_done=False)


def test_gymenv_takes_a_palaestra_id_even_one_without_frameskip():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = torchrl_envs.GymEnv("palaestra/HalfCheetah-v5")  # TorchRL probes frameskip first
        theirs = torchrl_envs.GymEnv("HalfCheetah-v5")
    a, b = rollout(ours, 20), rollout(theirs, 20)
    assert torch.equal(a["next", "reward"], b["next", "reward"])
    assert torch.equal(a["next", "observation"], b["next", "observation"])


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.DISABLED])
def test_gymwrapper_takes_a_bridged_vector_env(mode):
    envs = to_gymnasium(
        palaestra.make_vec(
            "CartPole-v1", 4, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}
        )
    )
    reference = gymnasium.make_vec(
        "CartPole-v1",
        4,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode(mode.value)},
    )
    ours, theirs = torchrl_envs.GymWrapper(envs), torchrl_envs.GymWrapper(reference)
    a, b = rollout(ours, 60), rollout(theirs, 60)
    assert a.batch_size == b.batch_size == torch.Size([4, 60])
    assert torch.equal(a["next", "reward"], b["next", "reward"]) and torch.equal(
        a["next", "done"], b["next", "done"]
    )
    assert np.array_equal(a["next", "observation"].numpy(), b["next", "observation"].numpy())
