"""A hand-written pilot for LunarLander: the reference demo controller.

It steers toward an attitude that leans the lander back over the pad and a hover height
that shrinks as the lander nears the pad's centre line, both as proportional-derivative
targets on the observation; once a leg touches it only brakes the descent. It lands most
episodes with well over 200 points, which makes it a quick end-to-end check of the physics.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["demo_heuristic_lander", "heuristic"]

MAX_LEAN = 0.4  # radians (about 22 degrees): leaning further loses the lander
THRESHOLD = 0.05  # discrete pilot: corrections smaller than this fire nothing


def heuristic(env: Any, s: Any) -> Any:
    """The action the pilot takes for observation ``s`` of ``env`` (discrete or continuous).

    Args:
        env: The LunarLander env (wrapped or not): its ``continuous`` flag picks the action kind.
        s: The 8 observation values: position x, y; velocity x, y; angle, angular velocity;
            left and right leg contact.

    Returns:
        An int in ``{0, 1, 2, 3}``, or a float64 array ``[main, lateral]`` within ``[-1, 1]``.
    """
    x, y, vx, vy, angle, spin, left_leg, right_leg = (s[i] for i in range(8))
    lean = min(max(x * 0.5 + vx * 1.0, -MAX_LEAN), MAX_LEAN)  # lean back over the centre
    height = 0.55 * np.abs(x)  # hover lower as the pad comes under the lander
    turn = (lean - angle) * 0.5 - spin * 1.0
    lift = (height - y) * 0.5 - vy * 0.5
    if left_leg or right_leg:  # touching down: only slow the fall
        turn = 0
        lift = -vy * 0.5
    if env.unwrapped.continuous:
        return np.clip(np.array([lift * 20 - 1, -turn * 20]), -1, +1)
    if lift > np.abs(turn) and lift > THRESHOLD:
        return 2  # main engine
    if turn < -THRESHOLD:
        return 3  # right engine: turn right
    if turn > THRESHOLD:
        return 1  # left engine: turn left
    return 0


def demo_heuristic_lander(env: Any, seed: int | None = None, render: bool = False) -> float:
    """Fly one episode of ``env`` with :func:`heuristic`, printing progress; return its total reward.

    Args:
        env: A LunarLander env.
        seed: The reset seed.
        render: Render every step (and close the env at the end).
    """
    total = 0.0
    obs, _ = env.reset(seed=seed)
    step = 0
    while True:
        obs, reward, terminated, truncated, _ = env.step(heuristic(env, obs))
        total += float(reward)
        if render and env.render() is False:
            break
        if step % 20 == 0 or terminated or truncated:
            print("observations:", " ".join(f"{v:+0.2f}" for v in obs))
            print(f"step {step} total_reward {total:+0.2f}")
        step += 1
        if terminated or truncated:
            break
    if render:
        env.close()
    return total
