"""numpy / torch / jax conversion wrappers, compared with Gymnasium's on the same rollouts."""

import pickle
import sys
import warnings

import gymnasium
import numpy as np
import pytest

import palaestra
from palaestra.error import DependencyNotInstalled
from palaestra.wrappers import array_conversion as conv

# Uses the reference suites' envs (CartPole-v1, ...): needs the plugins installed.
pytestmark = [pytest.mark.needs_plugins, pytest.mark.extras]

torch = pytest.importorskip(
    "torch",
    reason="torch is installed with pip, outside uv (see .ci/run); without it these conversions cannot run",
)
jax = pytest.importorskip("jax", reason="jax comes with the test dependency group")
jnp = jax.numpy


def make_jax_env_class(lib):
    class JaxEnv(lib.Env):
        """A counter whose observations, rewards and infos are jax arrays."""

        metadata = {"render_modes": ["rgb_array"]}

        def __init__(self, render_mode=None):
            self.render_mode = render_mode
            self.observation_space = lib.spaces.Box(-10, 10, (3,), np.float32)
            self.action_space = lib.spaces.Box(-1, 1, (3,), np.float32)

        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            self.state = jnp.asarray(self.np_random.uniform(-1, 1, 3), dtype=jnp.float32)
            return self.state, {"scale": jnp.asarray(2.0)}

        def step(self, action):
            assert isinstance(action, jax.Array), type(action)
            self.state = self.state + action
            return (
                self.state,
                jnp.sum(self.state),
                jnp.any(self.state > 3),
                False,
                {"pair": (jnp.ones(2), None)},
            )

        def render(self):
            return jnp.zeros((4, 5, 3), dtype=jnp.uint8)

    return JaxEnv


def as_numpy(tree):
    if isinstance(tree, dict):
        return {k: as_numpy(v) for k, v in tree.items()}
    if isinstance(tree, tuple | list):
        return type(tree)(as_numpy(v) for v in tree)
    if isinstance(tree, torch.Tensor):
        return ("torch", str(tree.dtype), tree.numpy().tolist())
    if isinstance(tree, np.ndarray | np.generic):
        return ("numpy", str(tree.dtype), tree.tolist())
    if isinstance(tree, jax.Array):
        return ("jax", str(tree.dtype), np.asarray(tree).tolist())
    return tree


def rollout(env, make_action, steps=6, render=True):
    out = [as_numpy(env.reset(seed=3))]
    for t in range(steps):
        out.append(as_numpy(env.step(make_action(t))))
    if render:  # palaestra draws its own pictures: compare the frame's kind, not its pixels
        framework, dtype, pixels = as_numpy(env.render())
        out.append((framework, dtype, np.shape(pixels)))
    return out


def test_numpy_to_torch_matches_gymnasium():
    ours = palaestra.wrappers.NumpyToTorch(palaestra.make("Pendulum-v1", render_mode="rgb_array"))
    ref = gymnasium.wrappers.NumpyToTorch(gymnasium.make("Pendulum-v1", render_mode="rgb_array"))
    actions = [torch.tensor([0.3 * t - 1], dtype=torch.float32) for t in range(6)]
    assert rollout(ours, actions.__getitem__) == rollout(ref, actions.__getitem__)
    obs, _ = ours.reset(seed=0)
    assert isinstance(obs, torch.Tensor) and obs.dtype == torch.float32


@pytest.mark.parametrize("name", ["JaxToNumpy", "JaxToTorch"])
def test_jax_wrappers_match_gymnasium(name):
    ours = getattr(palaestra.wrappers, name)(make_jax_env_class(palaestra)(render_mode="rgb_array"))
    ref = getattr(gymnasium.wrappers, name)(make_jax_env_class(gymnasium)(render_mode="rgb_array"))
    actions = [np.full(3, 0.25 * t, dtype=np.float32) for t in range(6)]
    if name == "JaxToTorch":
        actions = [torch.from_numpy(a) for a in actions]
    assert rollout(ours, actions.__getitem__) == rollout(ref, actions.__getitem__)


def test_vector_numpy_to_torch_matches_gymnasium():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = palaestra.wrappers.vector.NumpyToTorch(
            palaestra.make_vec("CartPole-v1", 3, vectorization_mode="sync")
        )
        ref = gymnasium.wrappers.vector.NumpyToTorch(
            gymnasium.make_vec("CartPole-v1", 3, vectorization_mode="sync")
        )
    actions = [torch.tensor([t % 2, 1, 0]) for t in range(30)]
    assert rollout(ours, actions.__getitem__, 30, render=False) == rollout(
        ref, actions.__getitem__, 30, render=False
    )


def test_conversion_functions_keep_containers():
    Point = __import__("collections").namedtuple("Point", "x y")
    # Strings pass through unchanged (Gymnasium's conversion turns them into generator reprs).
    value = {"a": np.arange(3), "b": (1.5, None, "text"), "c": [np.float32(2)], "p": Point(np.zeros(2), 3)}
    tensors = conv.numpy_to_torch(value)
    assert isinstance(tensors["a"], torch.Tensor) and tensors["a"].tolist() == [0, 1, 2]
    assert tensors["b"][1:] == (None, "text") and isinstance(tensors["p"], Point)
    back = conv.torch_to_numpy(tensors)
    assert back["a"].dtype == np.int64 and back["c"][0].dtype == np.float32
    assert conv.jax_to_numpy(conv.numpy_to_jax(np.arange(4.0))).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert conv.torch_to_jax(conv.jax_to_torch(jnp.ones(2))).tolist() == [1.0, 1.0]
    flipped = conv.numpy_to_torch(np.arange(4)[::-1])  # negative strides are copied, not refused
    assert flipped.tolist() == [3, 2, 1, 0]
    with pytest.raises(TypeError, match="No known conversion of <class 'object'> to torch"):
        conv.numpy_to_torch(object())
    with pytest.raises(ValueError, match="Unsupported array framework 'tensorflow'"):
        conv.array_conversion(1, "tensorflow")


def test_conversion_wrappers_pickle_and_rebuild_from_spec():
    env = palaestra.wrappers.NumpyToTorch(palaestra.make("CartPole-v1"))
    clone = pickle.loads(pickle.dumps(env))
    assert isinstance(clone.reset(seed=1)[0], torch.Tensor)
    assert env.spec.additional_wrappers[-1].kwargs == {"device": None}
    rebuilt = palaestra.make(env.spec)
    assert type(rebuilt).__name__ == "NumpyToTorch"
    assert torch.equal(rebuilt.reset(seed=4)[0], env.reset(seed=4)[0])


def test_a_missing_framework_names_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # makes `import torch` fail
    conv._import.cache_clear()
    try:
        with pytest.raises(
            DependencyNotInstalled, match="torch is needed for this conversion: pip install torch"
        ):
            palaestra.wrappers.NumpyToTorch(palaestra.make("CartPole-v1"))
    finally:
        conv._import.cache_clear()
