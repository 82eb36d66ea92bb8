"""Start noise for many sub-envs as arrays: each drawn from its own generator, the same numbers.

A suite env starts from its initial state plus ``rng.uniform(-scale, scale, n)`` (and, for
some envs, ``scale * rng.standard_normal(nv)``). numpy's ``uniform`` is ``low + (high - low)
* u`` of the generator's next doubles ``u``, one rounding per operation, and ``random``
gives those doubles. So :func:`uniform_rows` takes each sub-env's doubles by one call of its
own generator and scales all rows at once, where :func:`uniform_rows_hold` finds that it
equals ``uniform`` on this numpy (a build that fuses the multiply-add would not).

The per-row Python of a start, each row's draw (:func:`random_rows`) and its copy of the
sub-env's initial state (:func:`gather_rows`), runs as one C loop where the optional
``_compiled`` module was built; the ``plain_`` functions are its specification (tests check
the two equal) and finish any row the C loop leaves to them. For envs with uniform
velocity noise, :func:`uniform_starts` does a whole start in one C loop, checks, draws,
scaling and sums, and leaves to the caller what it cannot do as ``start_state`` would;
:func:`normal_starts` does the same for normal velocity noise with numpy's own normal draw
(the optional ``_normals`` module, used where :func:`normals_hold` finds its draws equal to
``standard_normal`` on this numpy).
"""

from __future__ import annotations

import functools
import types
from collections.abc import Sequence
from typing import Any

import numpy as np

from palaestra_mujoco._native import compiled

try:  # numpy's standard normal draw, where its static library was found at build time
    from palaestra_mujoco._normals import standard_normal
except ImportError:
    standard_normal = None

__all__ = [
    "WIDEST_NOISE",
    "compiled_starts_hold",
    "gather_rows",
    "normal_starts",
    "normals_hold",
    "plain_gather_rows",
    "plain_random_rows",
    "random_rows",
    "standard_normal",
    "uniform_rows",
    "uniform_starts",
    "uniform_rows_hold",
]


def plain_random_rows(generators: Sequence[Any], out: np.ndarray, start: int = 0) -> None:
    """Row ``j`` of ``out`` from ``generators[j].random(out=out[j])``, from row ``start`` on."""
    for j in range(start, len(generators)):
        generators[j].random(out=out[j])


def random_rows(generators: Sequence[Any], out: np.ndarray) -> None:
    """:func:`plain_random_rows`, in C where it can (``out``: C-contiguous float64 rows)."""
    done = 0 if compiled is None else compiled.random_rows(generators, out)
    if done < len(generators):  # a generator C leaves to numpy (its lock taken, say)
        plain_random_rows(generators, out, done)


def plain_gather_rows(objects: Sequence[Any], name: str, out: np.ndarray, start: int = 0) -> None:
    """Row ``j`` of ``out`` set to ``getattr(objects[j], name)``, from row ``start`` on."""
    for j in range(start, len(objects)):
        out[j] = getattr(objects[j], name)


def gather_rows(objects: Sequence[Any], name: str, out: np.ndarray) -> None:
    """:func:`plain_gather_rows`, in C where it can (``out``: C-contiguous float64 rows)."""
    done = 0 if compiled is None else compiled.gather_rows(objects, name, out)
    if done < len(objects):  # a value numpy must convert (another dtype, say) or refuse
        plain_gather_rows(objects, name, out, done)


def uniform_rows(half_widths: np.ndarray, doubles: np.ndarray) -> np.ndarray:
    """``rng.uniform(-h, h, n)`` of each row from that row's ``rng.random(n)`` (``h`` per row)."""
    low = -half_widths.reshape(-1, 1)
    result: np.ndarray = low + (half_widths.reshape(-1, 1) - low) * doubles
    return result


@functools.cache
def uniform_rows_hold() -> bool:
    """Whether :func:`uniform_rows` equals numpy's ``uniform`` on this numpy (checked once)."""
    half_widths = np.array([0.0, 5e-3, 0.01, 0.1, 0.3, 1.0, 3.7, 1e-9, 123.456])
    expected = np.array([np.random.default_rng(i).uniform(-h, h, 200) for i, h in enumerate(half_widths)])
    doubles = np.array([np.random.default_rng(i).random(200) for i in range(len(half_widths))])
    return bool(np.array_equal(uniform_rows(half_widths, doubles), expected))


#: The largest noise half-width whose range (twice it) numpy's ``uniform`` accepts.
WIDEST_NOISE = float(np.finfo(np.float64).max / 2)


def compiled_starts_hold(normal: bool) -> bool:
    """Whether the C starts draw as numpy's ``uniform`` (and, with ``normal``, ``standard_normal``) do here.

    Needs the compiled module, :func:`uniform_rows_hold` and, for normal velocity noise, the
    ``_normals`` module with :func:`normals_hold`.
    """
    if compiled is None or not uniform_rows_hold():
        return False
    return not normal or (standard_normal is not None and normals_hold())


def uniform_starts(envs: Sequence[Any], rows: np.ndarray, qpos: np.ndarray, qvel: np.ndarray) -> int:
    """Each env's ``start_state`` with uniform noise into row ``rows[j]``, in C: how many it did.

    The envs from the first on, up to one whose scale or initial state is not a plain float
    vector or whose generator another thread holds (nothing drawn from it, its row untouched):
    the caller starts the rest. ``0`` without the compiled module, or when numpy's ``uniform``
    is not ``low + (high - low) * u`` on this build (:func:`uniform_rows_hold`).
    """
    if compiled is None or not compiled_starts_hold(normal=False):
        return 0
    done: int = compiled.uniform_starts(envs, [env.np_random for env in envs], qpos, qvel, rows.tolist())
    return done


def normal_starts(envs: Sequence[Any], rows: np.ndarray, qpos: np.ndarray, qvel: np.ndarray) -> int:
    """:func:`uniform_starts` for envs whose velocity noise is ``scale * standard_normal(nv)``.

    ``0`` also without the ``_normals`` module or where its draws are not numpy's
    (:func:`normals_hold`).
    """
    if compiled is None or not compiled_starts_hold(normal=True):
        return 0
    generators = [env.np_random for env in envs]
    done: int = compiled.normal_starts(envs, generators, qpos, qvel, rows.tolist(), standard_normal)
    return done


@functools.cache
def normals_hold() -> bool:
    """Whether :func:`normal_starts` draws numpy's ``uniform`` and ``standard_normal`` here (checked once).

    The ``_normals`` module was linked against the numpy of the build, which need not be
    this one: 2,000 normals of each numpy bit generator (the ziggurat's rare branches
    included) must be this numpy's, bit for bit.
    """
    if compiled is None or standard_normal is None:
        return False
    bit_generators = (
        np.random.PCG64,
        np.random.PCG64DXSM,
        np.random.MT19937,
        np.random.Philox,
        np.random.SFC64,
    )
    probes = [types.SimpleNamespace(_reset_noise_scale=1.0, init_qpos=np.zeros(3), init_qvel=np.zeros(2000))]
    for seed, bit_generator in enumerate(bit_generators):
        mine, theirs = np.random.Generator(bit_generator(seed)), np.random.Generator(bit_generator(seed))
        qpos, qvel = np.empty((1, 3)), np.empty((1, 2000))
        if compiled.normal_starts(probes, [mine], qpos, qvel, [0], standard_normal) != 1:
            return False
        expected_qpos = 0.0 + theirs.uniform(-1.0, 1.0, 3)
        expected_qvel = 0.0 + 1.0 * theirs.standard_normal(2000)
        if not (np.array_equal(qpos[0], expected_qpos) and np.array_equal(qvel[0], expected_qvel)):
            return False
    return True
