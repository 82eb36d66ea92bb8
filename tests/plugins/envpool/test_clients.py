"""Code written for EnvPool, on palaestra_envpool: a CleanRL-style PPO loop and Tianshou's Collector."""

import numpy as np
import pytest

import palaestra_envpool as envpool

pytestmark = [pytest.mark.needs_plugins, pytest.mark.extras]
torch = pytest.importorskip("torch", reason="torch installs with pip outside uv; see .ci/run")
gymnasium = pytest.importorskip("gymnasium")


def _ppo(envs, num_envs, seed=0, updates=3, steps=32):
    """EnvPool's PPO loop shape (CleanRL's *_envpool.py): step the whole pool, learn from the batch."""
    torch.manual_seed(seed)
    policy = torch.nn.Sequential(torch.nn.Linear(4, 32), torch.nn.Tanh(), torch.nn.Linear(32, 2))
    value = torch.nn.Sequential(torch.nn.Linear(4, 32), torch.nn.Tanh(), torch.nn.Linear(32, 1))
    optimizer = torch.optim.Adam([*policy.parameters(), *value.parameters()], lr=2.5e-3)
    obs, _ = envs.reset(seed=seed) if not hasattr(envs, "all_env_ids") else envs.reset()
    returns = []
    for _ in range(updates):
        batch_obs, batch_actions, batch_rewards, batch_dones, batch_logp = [], [], [], [], []
        for _ in range(steps):
            x = torch.as_tensor(np.asarray(obs), dtype=torch.float32)
            with torch.no_grad():
                dist = torch.distributions.Categorical(logits=policy(x))
                action = dist.sample()
            obs, reward, terminated, truncated, _info = envs.step(action.numpy())
            batch_obs.append(x)
            batch_actions.append(action)
            batch_logp.append(dist.log_prob(action))
            batch_rewards.append(torch.as_tensor(np.asarray(reward), dtype=torch.float32))
            batch_dones.append(torch.as_tensor(terminated | truncated, dtype=torch.float32))
        # Discounted returns within each sub-env's episodes.
        running = torch.zeros(num_envs)
        targets = []
        for r, d in zip(reversed(batch_rewards), reversed(batch_dones), strict=False):
            running = r + 0.99 * running * (1 - d)
            targets.append(running)
        targets = torch.stack(targets[::-1]).reshape(-1)
        x = torch.cat(batch_obs)
        advantages = targets - value(x).squeeze(-1).detach()
        dist = torch.distributions.Categorical(logits=policy(x))
        ratio = torch.exp(dist.log_prob(torch.cat(batch_actions)) - torch.cat(batch_logp))
        loss = -torch.min(ratio * advantages, ratio.clamp(0.8, 1.2) * advantages).mean()
        loss = loss + 0.5 * ((value(x).squeeze(-1) - targets) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        returns.append(float(targets.mean()))
    return [p.detach().clone() for p in [*policy.parameters(), *value.parameters()]], returns


def test_a_ppo_loop_written_for_envpool_learns_what_it_learns_on_gymnasium():
    # Gymnasium's sync vectorizer stacks observations in C order, as palaestra's envs all do
    # (its CartPoleVectorEnv hands out Fortran-ordered arrays, which torch sums differently).
    pool = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=4, seed=0, vectorization_mode="sync")
    assert isinstance(pool.single_action_space, gymnasium.spaces.Discrete)  # CleanRL asserts this
    weights, returns = _ppo(pool, 4)
    reference = gymnasium.make_vec("CartPole-v1", 4, vectorization_mode="sync")
    reference_weights, reference_returns = _ppo(reference, 4)
    assert returns == reference_returns
    for mine, theirs in zip(weights, reference_weights, strict=False):
        assert torch.equal(mine, theirs)  # bit for bit
    pool.close()
    reference.close()


# Tianshou turns the info of a reset of one sub-env into one-row arrays, which its Batch then
# stacks with the scalars of step infos; it warns and falls back to object arrays (its own path).
@pytest.mark.filterwarnings("ignore:You are using tensors with different shape:UserWarning")
def test_tianshou_collector_collects_steps_and_episodes():
    pytest.importorskip("tianshou", reason="Tianshou (needs torch) installs with pip in the extras session")
    from tianshou.algorithm.algorithm_base import RandomActionPolicy
    from tianshou.data import Collector, VectorReplayBuffer

    train = envpool.make_gymnasium("CartPole-v1", num_envs=4, seed=0)
    train.action_space.seed(0)
    collector = Collector(RandomActionPolicy(train.action_space), train, VectorReplayBuffer(2000, 4))
    collector.reset()
    stats = collector.collect(n_step=400)
    assert stats.n_collected_steps == 400
    assert collector.buffer.obs.shape[1:] == (4,) and len(collector.buffer) == 400
    assert all(
        ret == length for ret, length in zip(stats.returns, stats.lens, strict=False)
    )  # CartPole: 1 a step
    # Collecting episodes steps fewer sub-envs as they finish (step(actions, some_ids)).
    test = envpool.make_gymnasium("CartPole-v1", num_envs=4, seed=1)
    test.action_space.seed(1)
    evaluator = Collector(RandomActionPolicy(test.action_space), test)
    evaluator.reset()
    stats = evaluator.collect(n_episode=6)
    assert stats.n_collected_episodes == 6 and len(stats.returns) == 6
    assert all(ret == length for ret, length in zip(stats.returns, stats.lens, strict=False))
    train.close()
    test.close()
