"""A single-file PPO, in the style of CleanRL, on ``palaestra.make_vec``.

Everything is in this file: the vector env, the actor-critic network, the rollout
storage, generalised advantage estimation and the clipped-objective update. The vector
env resets finished sub-envs in the same step (``AutoresetMode.SAME_STEP``), so the
observation after a ``done`` is the first one of the next episode, as this PPO expects;
``RecordEpisodeStatistics`` reports each finished episode's return.

An Atari id trains on the natively batched Atari env (ALE's C++ vector interface, frames
already preprocessed to 4x84x84) with CleanRL's convolutional network instead:

    uvx nox -s example -- cleanrl_style_ppo.py [--env-id CartPole-v1] [--total-timesteps 500000]
    uvx nox -s example -- cleanrl_style_ppo.py --env-id ALE/Breakout-v5 --num-envs 8 --goal 10

Exits non-zero unless the mean return of the last 20 episodes reaches ``--goal`` (400, for
CartPole). The nox session installs torch (the CPU build: see the README, "CPU torch") into a venv of its own
(``python examples/cleanrl_style_ppo.py`` where torch is installed, with ``palaestra[atari]``
for Atari). A line every 20 updates shows steps and the recent mean return. CartPole's
500,000 steps take about 6 minutes on a 2-core machine.
"""

import argparse
import sys
import time
from collections import deque

import numpy as np
import torch
from torch import nn

import palaestra
from palaestra.vector import AutoresetMode
from palaestra.wrappers.vector import RecordEpisodeStatistics


def parse_args() -> argparse.Namespace:
    """The run's settings (defaults suit CartPole on a CPU)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-id", default="CartPole-v1")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--total-timesteps", type=int, default=500_000)
    parser.add_argument("--num-envs", type=int, default=4)
    parser.add_argument("--num-steps", type=int, default=128, help="steps per env per rollout")
    parser.add_argument("--learning-rate", type=float, default=2.5e-4)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy-coef", type=float, default=0.01)
    parser.add_argument("--value-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    parser.add_argument("--goal", type=float, default=400.0, help="mean return to reach")
    return parser.parse_args()


def layer(n_in: int, n_out: int, gain: float = np.sqrt(2)) -> nn.Linear:
    """A linear layer with orthogonal weights and zero bias (PPO's usual initialisation)."""
    linear = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(linear.weight, gain)
    nn.init.zeros_(linear.bias)
    return linear


class ActorCritic(nn.Module):
    """Separate two-layer tanh networks for the policy logits and the state value."""

    def __init__(self, n_obs: int, n_actions: int) -> None:
        super().__init__()
        self.value = nn.Sequential(layer(n_obs, 64), nn.Tanh(), layer(64, 64), nn.Tanh(), layer(64, 1, 1.0))
        self.policy = nn.Sequential(
            layer(n_obs, 64), nn.Tanh(), layer(64, 64), nn.Tanh(), layer(64, n_actions, 0.01)
        )

    def act(self, obs: torch.Tensor, action: torch.Tensor | None = None):
        """An action (sampled unless given), its log-probability, the entropy and the value."""
        dist = torch.distributions.Categorical(logits=self.policy(obs))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(obs).squeeze(-1)


def conv(n_in: int, n_out: int, size: int, stride: int) -> nn.Conv2d:
    """A convolution with orthogonal weights and zero bias."""
    layer_ = nn.Conv2d(n_in, n_out, size, stride)
    nn.init.orthogonal_(layer_.weight, np.sqrt(2))
    nn.init.zeros_(layer_.bias)
    return layer_


class Pixels(nn.Module):
    """Frames as floats in [0, 1]."""

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        """Scale 0..255 to 0..1."""
        return obs / 255.0


class PixelActorCritic(ActorCritic):
    """CleanRL's Atari network: Nature-DQN convolutions shared by a policy and a value head."""

    def __init__(self, n_frames: int, n_actions: int) -> None:
        nn.Module.__init__(self)
        trunk = nn.Sequential(
            Pixels(), conv(n_frames, 32, 8, 4), nn.ReLU(), conv(32, 64, 4, 2), nn.ReLU(),
            conv(64, 64, 3, 1), nn.ReLU(), nn.Flatten(), layer(64 * 7 * 7, 512), nn.ReLU(),
        )  # fmt: skip
        # Both heads hold the same trunk module, so its weights are shared (and counted once).
        self.policy = nn.Sequential(trunk, layer(512, n_actions, 0.01))
        self.value = nn.Sequential(trunk, layer(512, 1, 1.0))


def make_envs(args: argparse.Namespace):
    """The vector env, resetting finished sub-envs in the step that ended them."""
    if args.env_id.startswith("ALE/"):  # natively batched and preprocessed on ALE's threads
        envs = palaestra.make_vec(args.env_id, args.num_envs, autoreset_mode=AutoresetMode.SAME_STEP)
    else:
        envs = palaestra.make_vec(
            args.env_id,
            args.num_envs,
            vectorization_mode="sync",
            vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP},
        )
    return RecordEpisodeStatistics(envs)


def advantages(rewards, values, dones, next_value, next_done, gamma, lam):
    """Generalised advantage estimates, computed backwards over the rollout."""
    steps = rewards.shape[0]
    adv = torch.zeros_like(rewards)
    running = torch.zeros_like(next_value)
    for t in reversed(range(steps)):
        following = next_value if t == steps - 1 else values[t + 1]
        alive = 1.0 - (next_done if t == steps - 1 else dones[t + 1])
        delta = rewards[t] + gamma * following * alive - values[t]
        running = delta + gamma * lam * alive * running
        adv[t] = running
    return adv


def main() -> int:
    """Train and report."""
    args = parse_args()
    torch.manual_seed(args.seed)
    envs = make_envs(args)
    obs_shape = envs.single_observation_space.shape
    n_actions = int(envs.single_action_space.n)
    if len(obs_shape) == 3:  # stacked frames
        agent = PixelActorCritic(obs_shape[0], n_actions)
    else:
        obs_shape = (int(np.prod(obs_shape)),)
        agent = ActorCritic(obs_shape[0], n_actions)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    shape = (args.num_steps, args.num_envs)
    obs_buf = torch.zeros((*shape, *obs_shape))
    act_buf, logp_buf, rew_buf, done_buf, val_buf = (torch.zeros(shape) for _ in range(5))
    batch = args.num_steps * args.num_envs
    updates = args.total_timesteps // batch
    recent = deque(maxlen=20)

    obs, _ = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(obs, dtype=torch.float32).reshape(args.num_envs, *obs_shape)
    next_done = torch.zeros(args.num_envs)
    start = time.perf_counter()
    for update in range(updates):
        for group in optimizer.param_groups:  # anneal the learning rate to zero
            group["lr"] = args.learning_rate * (1.0 - update / updates)
        for t in range(args.num_steps):
            obs_buf[t], done_buf[t] = next_obs, next_done
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs)
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            obs, reward, terminated, truncated, info = envs.step(action.numpy())
            rew_buf[t] = torch.as_tensor(reward, dtype=torch.float32)
            next_obs = torch.as_tensor(obs, dtype=torch.float32).reshape(args.num_envs, *obs_shape)
            next_done = torch.as_tensor(np.logical_or(terminated, truncated), dtype=torch.float32)
            if "episode" in info:
                recent.extend(info["episode"]["r"][info["_episode"]].tolist())
        with torch.no_grad():
            next_value = agent.act(next_obs)[3]
        adv = advantages(rew_buf, val_buf, done_buf, next_value, next_done, args.gamma, args.gae_lambda)
        returns = adv + val_buf

        flat = [x.reshape(batch, *x.shape[2:]) for x in (obs_buf, act_buf, logp_buf, adv, returns)]
        b_obs, b_act, b_logp, b_adv, b_ret = flat
        size = batch // args.minibatches
        for _ in range(args.epochs):
            order = torch.randperm(batch)
            for first in range(0, batch, size):
                idx = order[first : first + size]
                _, logp, entropy, value = agent.act(b_obs[idx], b_act[idx].long())
                ratio = (logp - b_logp[idx]).exp()
                mb_adv = (b_adv[idx] - b_adv[idx].mean()) / (b_adv[idx].std() + 1e-8)
                policy_loss = torch.max(
                    -mb_adv * ratio, -mb_adv * ratio.clamp(1 - args.clip, 1 + args.clip)
                ).mean()
                value_loss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                loss = policy_loss - args.entropy_coef * entropy.mean() + args.value_coef * value_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        if update % 20 == 0 and recent:
            print(
                f"update {update:4d}/{updates}  steps {(update + 1) * batch:7d}  mean return {np.mean(recent):6.1f}"
            )

    seconds = time.perf_counter() - start
    mean_return = float(np.mean(recent)) if recent else float("nan")
    print(
        f"{args.env_id}: {updates * batch} steps in {seconds:.1f} s, mean return of the last 20 episodes {mean_return:.1f}"
    )
    envs.close()
    return 0 if mean_return >= args.goal else 1


if __name__ == "__main__":
    sys.exit(main())
