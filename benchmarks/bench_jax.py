"""phys2d/CartPole-v1 batched in JAX vs gymnax's CartPole, in one run.

Both roll out N=4096 CartPoles for T steps inside one ``jax.lax.scan`` (jit-compiled, CPU),
each with what a training loop needs per step: the transition, reward, termination and a
time limit of 500 steps, with finished sub-envs reset in the same step. gymnax 1.0.1 is a
benchmark-only dependency (``pip install --no-deps gymnax==1.0.1 six``: it pins an older
Gymnasium); without it only palaestra's rate is printed.

Goal: palaestra >= 1.2x gymnax (on CPU; issue 52 asks for >= 1.0x on a GPU too, where an H200
gave 0.70-0.80x at N = 4,096 to 4,194,304).

``--cost`` prints, instead of rates, what XLA compiled for each rollout on this machine's
backend: its cost analysis (flops, transcendentals, bytes accessed), the fusions and loops in
the scan's step, and whether the step holds control flow (a ``case``/``conditional``, which on
a GPU makes the host wait for the predicate). ``palaestra (columns)`` keeps the batched state
as ``[4, N]`` (``vmap`` with ``in_axes=1``: each variable contiguous across sub-envs, gymnax's
layout) to tell a layout cost from the rest. ``BENCH_N`` sets N.
"""

from __future__ import annotations

import os
import re
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np

from palaestra_jax import CartPoleFunctional

N, T, LIMIT = int(os.environ.get("BENCH_N", "4096")), 500, 500


def palaestra_rollout(columns: bool = False):
    """The rollout over ``CartPoleFunctional``; ``columns``: the batched state is ``[4, N]``."""
    func = CartPoleFunctional()
    axis = 1 if columns else 0
    transition = jax.vmap(func.transition, in_axes=(axis, 0, None), out_axes=axis)
    reward = jax.vmap(func.reward, in_axes=(axis, 0, axis, None))
    terminal = jax.vmap(func.terminal, in_axes=(axis, None))
    initial = jax.vmap(func.initial, out_axes=axis)

    def step(carry, action):
        state, steps, key = carry
        key, fresh_key = jax.random.split(key)
        next_state = transition(state, action, None)
        rewards = reward(state, action, next_state, None)
        terminated = terminal(next_state, None)
        steps = steps + 1
        done = terminated | (steps >= LIMIT)
        fresh = initial(jax.random.split(fresh_key, N))
        next_state = jnp.where(done[None, :] if columns else done[:, None], fresh, next_state)
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


def _computations(hlo: str) -> dict[str, str]:
    return {
        m.group(1): m.group(2)
        for m in re.finditer(r"\n(?:ENTRY )?%?([\w.\-]+) [^\n]*\{\n(.*?)\n\}", hlo, re.S)
    }


def cost(rollout, actions) -> str:
    """One line: XLA's cost analysis of the compiled rollout and the shape of its scan's step."""
    key = jax.random.PRNGKey(0)
    lowered = rollout.lower(key, actions)
    compiled = lowered.compile()
    analysis = compiled.cost_analysis()
    analysis = analysis[0] if isinstance(analysis, list) else analysis
    hlo = compiled.as_text()
    bodies = _computations(hlo)
    loops = re.findall(r"while\([^)]*\), condition=%?[\w.\-]+, body=%?([\w.\-]+)", hlo)
    step = max((bodies.get(b, "") for b in loops), key=len, default="")  # the scan's body is the largest
    fusions = len(re.findall(r" fusion\(", step))
    inner_loops = len(re.findall(r" while\(", step))
    control = len(re.findall(r"stablehlo\.(?:case|if)\b", lowered.as_text())) + len(
        re.findall(r" conditional\(", step)
    )
    return (
        f"flops {analysis.get('flops', 0):.3g}, transcendentals {analysis.get('transcendentals', 0):.3g}, "
        f"bytes accessed {analysis.get('bytes accessed', 0):.3g}; the step: {fusions} fusions, "
        f"{inner_loops} loops (random bits), {control} conditionals"
    )


def main() -> None:
    rounds = int(os.environ.get("BENCH_ROUNDS", "7"))
    actions = jnp.asarray(np.random.default_rng(0).integers(0, 2, (T, N)), dtype=jnp.int32)
    contenders = {"palaestra": palaestra_rollout(), "palaestra (columns)": palaestra_rollout(columns=True)}
    reference = gymnax_rollout()
    if reference is not None:
        contenders["gymnax"] = reference
    if "--cost" in sys.argv:
        print(f"XLA on {jax.default_backend()}, lax.scan of {T} steps x {N} envs")
        for name, rollout in contenders.items():
            print(f"  {name:20s} {cost(rollout, actions)}")
        return
    rates = {name: 1 / seconds_per_step(rollout, actions, rounds) for name, rollout in contenders.items()}
    line = ", ".join(f"{name} {rate:,.0f}" for name, rate in rates.items())
    print(
        f"phys2d/CartPole-v1 on {jax.default_backend()}, lax.scan of {T} steps x {N} envs, env-steps/s: {line}"
    )
    if reference is None:
        print("gymnax is not installed (pip install --no-deps gymnax==1.0.1 six, and its imports)")
        return
    ratio = rates["palaestra"] / rates["gymnax"]
    verdict = "ok" if ratio >= 1.2 else "BELOW GOAL 1.2x"
    print(f"palaestra / gymnax: x{ratio:.2f}  {verdict}")


if __name__ == "__main__":
    main()
