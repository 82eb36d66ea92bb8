"""phys2d/CartPole-v1 batched in JAX vs gymnax's CartPole, in one run.

Both roll out N=4096 CartPoles for T steps inside one ``jax.lax.scan`` (jit-compiled, CPU),
each with what a training loop needs per step: the transition, reward, termination and a
time limit of 500 steps, with finished sub-envs reset in the same step. gymnax 1.0.1 is a
benchmark-only dependency (``pip install --no-deps gymnax==1.0.1 six``: it pins an older
Gymnasium); without it only palaestra's rate is printed.

Goal: palaestra >= 1.2x gymnax.
"""

from __future__ import annotations

import os
import time

import jax
import jax.numpy as jnp
import numpy as np

from palaestra_jax import CartPoleFunctional

N, T, LIMIT = 4096, 500, 500


def palaestra_rollout():
    func = CartPoleFunctional()
    transition, reward, terminal = (jax.vmap(f) for f in (func.transition, func.reward, func.terminal))
    initial = jax.vmap(func.initial)

    def step(carry, action):
        state, steps, key = carry
        key, fresh_key = jax.random.split(key)
        next_state = transition(state, action, None)
        rewards = reward(state, action, next_state, None)
        terminated = terminal(next_state, None)
        steps = steps + 1
        done = terminated | (steps >= LIMIT)
        fresh = initial(jax.random.split(fresh_key, N))
        next_state = jnp.where(done[:, None], fresh, next_state)
        steps = jnp.where(done, 0, steps)
        return (next_state, steps, key), (next_state, rewards, done)

    @jax.jit
    def rollout(key, actions):
        key, start = jax.random.split(key)
        state = initial(jax.random.split(start, N))
        carry, outputs = jax.lax.scan(step, (state, jnp.zeros(N, jnp.int32), key), actions)
        return carry, outputs[1].sum()

    return rollout


def gymnax_rollout():
    try:
        import gymnax
    except ImportError:
        return None
    env, params = gymnax.make("CartPole-v1")
    step_env, reset_env = jax.vmap(env.step, in_axes=(0, 0, 0, None)), jax.vmap(env.reset, in_axes=(0, None))

    def step(carry, action):
        state, key = carry
        key, sub = jax.random.split(key)
        obs, state, rewards, terminated, truncated, _ = step_env(
            jax.random.split(sub, N), state, action, params
        )
        return (state, key), (obs, rewards, terminated | truncated)

    @jax.jit
    def rollout(key, actions):
        key, start = jax.random.split(key)
        _, state = reset_env(jax.random.split(start, N), params)
        carry, outputs = jax.lax.scan(step, (state, key), actions)
        return carry, outputs[1].sum()

    return rollout


def seconds_per_step(rollout, actions, rounds: int) -> float:
    key = jax.random.PRNGKey(0)
    jax.block_until_ready(rollout(key, actions))  # compile
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        jax.block_until_ready(rollout(key, actions))
        best = min(best, time.perf_counter() - start)
    return best / (T * N)


def main() -> None:
    rounds = int(os.environ.get("BENCH_ROUNDS", "7"))
    actions = jnp.asarray(np.random.default_rng(0).integers(0, 2, (T, N)), dtype=jnp.int32)
    ours = seconds_per_step(palaestra_rollout(), actions, rounds)
    reference = gymnax_rollout()
    if reference is None:
        print(f"gymnax is not installed; palaestra: {1 / ours:,.0f} env-steps/s")
        return
    theirs = seconds_per_step(reference, actions, rounds)
    ratio = theirs / ours
    verdict = "ok" if ratio >= 1.2 else "BELOW GOAL 1.2x"
    print(
        f"phys2d/CartPole-v1, lax.scan of {T} steps x {N} envs: palaestra {1 / ours:,.0f} env-steps/s, "
        f"gymnax {1 / theirs:,.0f}  x{ratio:.2f}  {verdict}"
    )


if __name__ == "__main__":
    main()
