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

Without a C compiler the package installs without ``_compiled`` and every step is plain.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from palaestra_classic_control.cartpole import failed, integrate

__all__ = ["COMPILED_BATCH", "LIBM_IS_NUMPY", "compiled", "compiled_move", "integrate_batch"]

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
