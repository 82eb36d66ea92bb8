"""The classic-control suite's speed tricks, behind one seam.

Each env's rules are written once, as plain Python (the specification):
:func:`~palaestra_classic_control.cartpole.integrate` (on one cart's floats and on a batch's
arrays alike) and ``Continuous_MountainCarEnv._step_scalars``. What stays here is only
what ``benchmarks/bench_kernels.py`` shows buys at least 1.3x on the env's own step, each
held to its specification bit for bit by ``tests/plugins/classic_control/test_kernels.py``:

- Batched CartPole up to :data:`COMPILED_BATCH` sub-envs: the physics in the optional C
  extension ``_compiled`` (numpy's per-call cost dominates there); exact only where libm's
  cos/sin round like numpy's, probed at import. Larger batches use the arrays.
- MountainCarContinuous's common float32 step in ``_compiled``, in doubles rounded to
  float32 where numpy rounds.
- Batched Acrobot's RK4 step and observation in ``_compiled``
  (:func:`~palaestra_classic_control.acrobot.step_state` and ``observation`` on each row):
  numpy's per-call cost on some forty small arrays a step dominates at every batch size;
  exact where libm's cos/sin round like numpy's.

Without a C compiler the package installs without ``_compiled`` and every step is plain.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from palaestra_classic_control import acrobot
from palaestra_classic_control._ops import ARRAY
from palaestra_classic_control.cartpole import failed, integrate

__all__ = [
    "COMPILED_BATCH",
    "LIBM_IS_NUMPY",
    "acrobot_batch",
    "compiled",
    "compiled_move",
    "integrate_batch",
]

# Up to this many sub-envs the compiled loop beats numpy's arrays (measured by bench_kernels).
COMPILED_BATCH = 256


def _libm_matches_numpy() -> bool:
    """Whether numpy's array cos/sin round like libm's here (then the compiled loop is bit-exact)."""
    probe = np.linspace(-3.0, 3.0, 1001)
    return bool(
        np.array_equal(np.cos(probe), [math.cos(v) for v in probe.tolist()])
        and np.array_equal(np.sin(probe), [math.sin(v) for v in probe.tolist()])
    )


LIBM_IS_NUMPY = _libm_matches_numpy()

compiled: Any
try:
    from palaestra_classic_control import _compiled as compiled
except ImportError:  # built without a C compiler: the plain steps give the same numbers
    compiled = None
compiled_move = None if compiled is None else compiled.mountain_car_continuous_move


def integrate_batch(
    state: np.ndarray, force: np.ndarray, k: tuple[Any, ...], limits: tuple[float, float]
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`integrate` and :func:`failed` of every column of a ``(4, num_envs)`` state.

    Args:
        state: ``x, x_dot, theta, theta_dot`` rows, one column per sub-env (any memory layout).
        force: The push on each cart.
        k: :func:`integrate`'s constants.
        limits: :func:`failed`'s ``(x_threshold, theta_threshold)``.

    Returns:
        The new state (a new C-ordered array) and the failure flags.
    """
    n = state.shape[1]
    if compiled is not None and LIBM_IS_NUMPY and n <= COMPILED_BATCH:
        new, fell = np.empty((4, n)), np.empty(n, dtype=np.bool_)
        compiled.cartpole_integrate(
            np.ascontiguousarray(state, np.float64),
            np.ascontiguousarray(force, np.float64),
            (*k, *limits),
            new,
            fell,
        )
        return new, fell
    new = np.array(integrate(state[0], state[1], state[2], state[3], force, k, np.cos, np.sin))
    return new, failed(new[0], new[2], *limits)


def acrobot_constants(model: Any) -> tuple[float, ...]:
    """``acrobot.dsdt``'s constant products and sums, each grouped as ``dsdt`` groups it.

    The order is the compiled kernel's (``AC_*`` in ``_compiled.c``); ``model`` has the
    link constants (the single env's class, or an instance with changed ones).
    """
    m1, m2, l1 = model.LINK_MASS_1, model.LINK_MASS_2, model.LINK_LENGTH_1
    r1, r2, inertia, g = model.LINK_COM_POS_1, model.LINK_COM_POS_2, model.LINK_MOI, acrobot.GRAVITY
    return (
        float(m2),
        float(inertia),
        m1 * r1**2,
        l1**2 + r2**2,
        2 * l1 * r2,
        r2**2,
        l1 * r2,
        m2 * r2 * g,
        -m2 * l1 * r2,
        2 * m2 * l1 * r2,
        (m1 * r1 + m2 * l1) * g,
        m2 * l1 * r2,
        m2 * r2**2 + inertia,
        float(model.book_or_nips != "nips"),
        float(model.dt),
        float(model.MAX_VEL_1),
        float(model.MAX_VEL_2),
    )


def acrobot_batch(
    state: np.ndarray, torque: np.ndarray, model: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`acrobot.step_state` and :func:`acrobot.observation` of every row of an ``(n, 4)`` state.

    Returns:
        The new ``(n, 4)`` state, the ``(n, 6)`` float32 observation (both C-ordered) and
        the terminations.
    """
    n = state.shape[0]
    if compiled is not None and LIBM_IS_NUMPY:
        new, obs, ended = np.empty((n, 4)), np.empty((n, 6), dtype=np.float32), np.empty(n, dtype=np.bool_)
        compiled.acrobot_step(
            np.ascontiguousarray(state, np.float64),
            np.ascontiguousarray(torque, np.float64),
            acrobot_constants(model),
            new,
            obs,
            ended,
        )
        return new, obs, ended
    *columns, ended = acrobot.step_state(list(state.T), torque, model, ARRAY)
    new = np.stack(columns, axis=1)
    t1, t2, v1, v2 = columns
    obs = np.ascontiguousarray(acrobot.observation(t1, t2, v1, v2, np.cos, np.sin).T)
    return new, obs, ended
