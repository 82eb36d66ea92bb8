"""The classic-control suite's speed tricks, behind one seam.

Each function here computes exactly what a plain function of an env module computes (the
specification: :func:`~palaestra_classic_control.cartpole.integrate`, ...), faster for the
case at hand; ``tests/plugins/classic_control/test_kernels.py`` holds each to its
specification bit for bit. The env modules call these and read as the physics.

- Batched CartPole: for small batches, where numpy's per-call cost dominates, the physics
  in the optional C extension ``_compiled`` (else a loop over Python floats); exact only
  where libm's cos/sin round like numpy's, probed at import. For large batches, array
  operations into preallocated buffers.
- MountainCarContinuous: the common float32 step in doubles rounded to float32 where numpy
  rounds, in ``_compiled`` (else in Python).
"""

from __future__ import annotations

import math
from array import array
from typing import Any

import numpy as np

from palaestra_classic_control.cartpole import failed, integrate

__all__ = ["LOOP_IS_EXACT", "SMALL_BATCH", "compiled", "compiled_move", "integrate_batch", "move_float32"]

# Below this many sub-envs a loop over Python floats beats numpy's per-call overhead.
SMALL_BATCH = 48


def _libm_matches_numpy() -> bool:
    """Whether numpy's array cos/sin round like libm's here (then the loop is bit-exact)."""
    probe = np.linspace(-3.0, 3.0, 1001)
    return bool(
        np.array_equal(np.cos(probe), [math.cos(v) for v in probe.tolist()])
        and np.array_equal(np.sin(probe), [math.sin(v) for v in probe.tolist()])
    )


LOOP_IS_EXACT = _libm_matches_numpy()

compiled: Any
try:
    from palaestra_classic_control import _compiled as compiled
except ImportError:  # built without a C compiler: the Python paths give the same numbers
    compiled = None
compiled_move = None if compiled is None else compiled.mountain_car_continuous_move


# -- CartPole, batched ------------------------------------------------------------------


def integrate_batch(
    state: np.ndarray, force: np.ndarray, k: tuple[Any, ...], limits: tuple[float, float], buffers: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`integrate` and :func:`failed` of every column of a ``(4, num_envs)`` state.

    Args:
        state: ``x, x_dot, theta, theta_dot`` rows, one column per sub-env (C-contiguous).
        force: The push on each cart.
        k: :func:`integrate`'s constants.
        limits: :func:`failed`'s ``(x_threshold, theta_threshold)``.
        buffers: A ``(5, num_envs)`` scratch array (its contents are overwritten).

    Returns:
        The new state (a new array) and the failure flags.
    """
    n = state.shape[1]
    if LOOP_IS_EXACT and n <= SMALL_BATCH:
        if compiled is not None:
            new, fell = np.empty_like(state), np.empty(n, dtype=np.bool_)
            compiled.cartpole_integrate(np.ascontiguousarray(state), force, (*k, *limits), new, fell)
            return new, fell
        cos, sin = math.cos, math.sin
        columns = zip(state.T.tolist(), force.tolist(), strict=True)
        rows = [integrate(c[0], c[1], c[2], c[3], push, k, cos, sin) for c, push in columns]
        new = np.array(rows, np.float64).T
        return new, failed(new[0], new[2], *limits)
    new = _integrate_in_place(state, force, k, buffers)
    # failed() in two array operations fewer: |v| > limit is (v < -limit) | (v > limit), NaN too.
    fell = np.abs(new[0]) > limits[0]
    fell |= np.abs(new[2]) > limits[1]
    return new, fell


def _integrate_in_place(
    state: np.ndarray, force: np.ndarray, k: tuple[Any, ...], buffers: np.ndarray
) -> np.ndarray:
    """:func:`integrate` on whole rows, each operation written into a buffer.

    The operations are :func:`integrate`'s, in its order (a product or sum of two numbers
    rounds the same whichever comes first), so the result is bit for bit the same.
    """
    polemass_length, total_mass, gravity, length, masspole, tau, euler = k
    x, x_dot, theta, theta_dot = state
    c, sn, temp, acc, other = buffers
    np.cos(theta, out=c)
    np.sin(theta, out=sn)
    np.multiply(theta_dot, theta_dot, out=temp)
    temp *= polemass_length
    temp *= sn
    temp += force
    temp /= total_mass
    np.multiply(sn, gravity, out=acc)
    np.multiply(c, temp, out=other)
    acc -= other
    np.multiply(c, c, out=other)
    other *= masspole
    other /= total_mass
    np.subtract(4.0 / 3.0, other, out=other)
    other *= length
    acc /= other  # thetaacc
    np.multiply(acc, polemass_length, out=other)
    other *= c
    other /= total_mass
    np.subtract(temp, other, out=other)  # xacc
    new = np.empty_like(state)
    if euler:
        np.multiply(x_dot, tau, out=new[0])
        new[0] += x
        np.multiply(other, tau, out=new[1])
        new[1] += x_dot
        np.multiply(theta_dot, tau, out=new[2])
        new[2] += theta
        np.multiply(acc, tau, out=new[3])
        new[3] += theta_dot
    else:
        np.multiply(other, tau, out=new[1])
        new[1] += x_dot
        np.multiply(new[1], tau, out=new[0])
        new[0] += x
        np.multiply(acc, tau, out=new[3])
        new[3] += theta_dot
        np.multiply(new[3], tau, out=new[2])
        new[2] += theta
    return new


# -- MountainCarContinuous, one float32 step ----------------------------------------------


def _float32(value: float) -> float:
    """``value`` rounded to the nearest float32, as a Python float."""
    return array("f", (value,))[0]


def move_float32(
    position: float, velocity: float, force: float, k32: tuple[float, ...], k: tuple[Any, ...]
) -> tuple[float, float, bool, float] | None:
    """One MountainCarContinuous step from a float32 state and a float32 force, in Python floats.

    Gymnasium 1.4.0 computes it with numpy float32 scalars: where a constant meets a float32
    scalar, numpy converts the constant to float32 first; where its value is a plain Python
    number (a clipped force, a clamped speed or position), it stays a double. Doing each
    operation in doubles and rounding to float32 where numpy rounds gives the same bits
    (a product of two float32 is exact in double; a sum rounded twice rounds as once).

    Args:
        position: The float32 position, as a Python float.
        velocity: The float32 velocity, as a Python float.
        force: The float32 action, as a Python float.
        k32: The env's constants rounded to float32 (see ``_CONSTANTS``' order).
        k: The same constants as the Python numbers they are.

    Returns:
        ``(position, velocity, terminated, reward)``, or None for a NaN or infinite force.
    """
    low_force, high_force, left, right, top, goal, goal_velocity, power = k32
    rounded = array("f", (3.0 * position,))  # assigning to a float32 element rounds to float32
    gravity = 0.0025 * math.cos(rounded[0])
    if low_force <= force <= high_force:
        rounded[0] = force * power
        push = rounded[0]
        rounded[0] = gravity
        rounded[0] = push - rounded[0]
    elif (force < low_force or force > high_force) and -math.inf < force < math.inf:
        # Clipped to a Python constant: the push and the difference are doubles.
        clipped = k[0] if force < low_force else k[1]
        if k[1] < clipped:
            clipped = k[1]
        rounded[0] = clipped * k[7] - gravity
    else:
        return None  # NaN or infinite: not an action
    rounded[0] = velocity + rounded[0]
    velocity = rounded[0]
    if -top <= velocity <= top:
        rounded[0] = position + velocity
        position = rounded[0]
        if left < position <= right:
            terminated = position >= goal and velocity >= goal_velocity
        else:
            position, velocity, terminated = _bounded(position, velocity, None, k32, k)
    else:
        position, velocity, terminated = _bounded(position, velocity, velocity, k32, k)
    return position, velocity, terminated, (100.0 if terminated else 0) - math.pow(force, 2) * 0.1


def _bounded(
    position: float, velocity: float, fast: float | None, k32: tuple[float, ...], k: tuple[Any, ...]
) -> tuple[float, float, bool]:
    """The rest of a float32 step that hits a bound: speed limit, either end, the wall.

    A clamped speed or position is the Python constant itself in Gymnasium 1.4.0: it is
    compared as a double, then stored (as float32) like any other value.

    Args:
        position: The new position if ``fast`` is None, else the previous one.
        velocity: The new velocity (float32).
        fast: The new velocity when it exceeds the speed limit, else None.
        k32: The float32 constants.
        k: The constants as Python numbers.
    """
    _, _, left, right, top, goal, goal_velocity, _ = k32
    _, _, min_position, max_position, max_speed, goal_position, goal_velocity64, _ = k
    speed: float | None = None
    if fast is not None:
        speed, velocity = (max_speed, top) if fast > top else (-max_speed, -top)
        position = array("f", (position + velocity,))[0]
    place: float | None = None
    if position > right:
        place, position = max_position, right
    elif position < left:
        place, position = min_position, left
    at_wall = position == left if place is None else place == min_position
    if at_wall and velocity < 0:
        speed, velocity = 0, 0.0  # the left wall stops the car dead
    at_goal = position >= goal if place is None else place >= goal_position
    fast_enough = velocity >= goal_velocity if speed is None else speed >= goal_velocity64
    return position, velocity, bool(at_goal and fast_enough)
