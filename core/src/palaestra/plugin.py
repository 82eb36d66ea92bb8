"""The kit for plugin authors: everything a plugin builds on, in one public module.

palaestra's own suites use nothing else from the core (a test holds them to it), so a
third-party plugin can do all they do. The names load on first use: a hook module may import
the registrar types from here for its annotations without importing numpy or pygame.

Registration (see :mod:`palaestra.hookspecs`):
    :data:`hookimpl`, :class:`EnvRegistrar` (with ``register_table`` for a suite's table of
    ids), :class:`VectorizerRegistrar`, :class:`WrapperSetRegistrar`,
    :data:`REGISTRATION_FIELDS`.

Envs:
    :class:`EzPickle` (pickles an env by its constructor arguments), :func:`np_random` (a
    seeded generator and its seed), :class:`FuncEnv` (an env as pure functions, for JAX
    suites), :data:`logger` (palaestra's warnings and messages).

Natively batched envs:
    :class:`VectorEnv` and :class:`AutoresetMode`, the vector API;
    :class:`BatchedVectorEnv`, the template whose hooks an env fills in (step, reset,
    autoreset, time limit and infos are done for it); :func:`add_info`, which batches one
    sub-env's info into a vector info with ``_key`` masks; :func:`wrong_action_count`, the
    error for a batch of actions of the wrong size (the template raises it for you).

Batching spaces and their elements:
    :func:`batch_space`, :func:`batch_differing_spaces`, :func:`concatenate`,
    :func:`create_empty_array`, :func:`iterate`, :func:`create_shared_memory` (a batch's
    buffer in shared memory, as :class:`WorkerConfig` holds them).

Vectorizers (a vector env made of sub-envs, as the Ray plugin's):
    :class:`SubEnvVectorEnv`, :class:`SyncVectorEnv` (sub-envs stepped in turn, as a
    building block), :class:`AsyncVectorEnv` (blocks of sub-envs in worker processes, one
    of them in the parent with ``in_parent=True``: the Box2D suite's batched envs),
    :class:`WorkerBlock` (the sub-envs of one such block; subclass it and set it as the
    class's ``block_type`` to step a block by other means, as the Box2D suite's kernels do;
    :class:`WorkerConfig` is what it is built with: its slice and the shared buffers),
    :class:`TimeLimit` (a sub-env's time limit, as ``make`` applies it),
    :func:`check_num_envs`, :func:`check_sub_env_objects`, :func:`check_max_episode_steps`,
    :func:`check_flag` and :func:`check_timeout` (the shared argument checks, worded once),
    :func:`batched_spaces`, :func:`actions_per_env` (splits a batch of actions, naming both
    counts when they differ), :func:`reset_arguments`,
    :func:`per_env_values`, :func:`resolve_autoreset_mode`, :func:`split_blocks`,
    :data:`THREADS_PER_BLOCK` (the most threads a block that steps in threads takes),
    :func:`usable_cores` (the cores this process may use: a vectorizer's default parallelism)
    and :func:`check_num_workers` (the one knob's check), the id helpers :func:`parse_env_id`,
    :func:`get_env_id` and :func:`namespace_of` (an id's parts, written once),
    :class:`RecvEngine` (send/recv for a vectorizer that steps sub-envs one by one; set it as
    the class's ``recv_engine``), and the
    snapshot types :class:`Snapshot`, :class:`VectorSnapshot` with
    :func:`vector_restore_plan`.

Drawing:
    :class:`CanvasRendering` (an env implements only ``draw(canvas)``), :class:`Canvas`,
    :func:`import_pygame` and the primitives :func:`polygon`, :func:`circle`,
    :func:`rotated_box`; :func:`prepare_sdl_environment` (call it before code you do not
    control starts pygame, so SDL does not complain of a missing ``XDG_RUNTIME_DIR``).

Env helpers:
    :func:`invalid_action` (the error for a bad action, saying what was expected),
    :func:`invalid_actions` (the same for a vector env's batch), :func:`asserted_invalid`
    (Gymnasium's words for an action its envs ``assert``, to put first),
    :func:`expected_action` (that expectation alone), :func:`real_array` (an action as an
    array of real numbers, or None for strings, bools, complex numbers and objects),
    :func:`non_finite_note` (the explanation for NaN and infinite actions),
    :func:`warn_no_render_mode`, and :func:`step_before_reset` / :func:`render_before_reset`
    (a vector env's :class:`~palaestra.error.ResetNeeded` in Gymnasium's words).

Packaging:
    :func:`lazy_exports`, the ``__getattr__`` that keeps ``import your_plugin`` cheap by
    importing each exported class's module on first use; :func:`cache_folder`, where a
    plugin may keep files that speed up the next process (honours ``PALAESTRA_CACHE_DIR``).

Compatibility:
    A plugin states the core versions it supports as its dependency on ``palaestra``
    (e.g. ``"palaestra>=0.1,<0.2"``); the host refuses, naming both versions, to load a
    plugin whose range excludes the installed core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra._base._lazy import load_export

if TYPE_CHECKING:
    from palaestra import logger as logger
    from palaestra._base._arguments import check_flag as check_flag
    from palaestra._base._arguments import check_max_episode_steps as check_max_episode_steps
    from palaestra._base._arguments import check_num_envs as check_num_envs
    from palaestra._base._arguments import check_sub_env_objects as check_sub_env_objects
    from palaestra._base._arguments import check_timeout as check_timeout
    from palaestra._base._ezpickle import EzPickle as EzPickle
    from palaestra._base._ids import get_env_id as get_env_id
    from palaestra._base._ids import namespace_of as namespace_of
    from palaestra._base._ids import parse_env_id as parse_env_id
    from palaestra._base._lazy import lazy_exports as lazy_exports
    from palaestra._base._markers import hookimpl as hookimpl
    from palaestra._base._seeding import np_random as np_random
    from palaestra._discovery._cache import cache_folder as cache_folder
    from palaestra._env._canvas import Canvas as Canvas
    from palaestra._env._canvas import CanvasRendering as CanvasRendering
    from palaestra._env._canvas import circle as circle
    from palaestra._env._canvas import import_pygame as import_pygame
    from palaestra._env._canvas import polygon as polygon
    from palaestra._env._canvas import prepare_sdl_environment as prepare_sdl_environment
    from palaestra._env._canvas import rotated_box as rotated_box
    from palaestra._env._snapshot import Snapshot as Snapshot
    from palaestra._env._snapshot import VectorSnapshot as VectorSnapshot
    from palaestra._env._snapshot import vector_restore_plan as vector_restore_plan
    from palaestra._env._spec import REGISTRATION_FIELDS as REGISTRATION_FIELDS
    from palaestra._env._suite import asserted_invalid as asserted_invalid
    from palaestra._env._suite import expected_action as expected_action
    from palaestra._env._suite import invalid_action as invalid_action
    from palaestra._env._suite import invalid_actions as invalid_actions
    from palaestra._env._suite import non_finite_note as non_finite_note
    from palaestra._env._suite import real_array as real_array
    from palaestra._env._suite import render_before_reset as render_before_reset
    from palaestra._env._suite import step_before_reset as step_before_reset
    from palaestra._env._suite import warn_no_render_mode as warn_no_render_mode
    from palaestra._plugins._registrar import EnvRegistrar as EnvRegistrar
    from palaestra._plugins._registrar import VectorizerRegistrar as VectorizerRegistrar
    from palaestra._plugins._registrar import WrapperSetRegistrar as WrapperSetRegistrar
    from palaestra.experimental.functional import FuncEnv as FuncEnv
    from palaestra.spaces._batching import batch_differing_spaces as batch_differing_spaces
    from palaestra.spaces._batching import batch_space as batch_space
    from palaestra.spaces._batching import concatenate as concatenate
    from palaestra.spaces._batching import create_empty_array as create_empty_array
    from palaestra.spaces._batching import iterate as iterate
    from palaestra.vector._async import AsyncVectorEnv as AsyncVectorEnv
    from palaestra.vector._autoreset import per_env_values as per_env_values
    from palaestra.vector._autoreset import reset_arguments as reset_arguments
    from palaestra.vector._autoreset import resolve_autoreset_mode as resolve_autoreset_mode
    from palaestra.vector._batched import BatchedVectorEnv as BatchedVectorEnv
    from palaestra.vector._cores import check_num_workers as check_num_workers
    from palaestra.vector._cores import usable_cores as usable_cores
    from palaestra.vector._info import add_info as add_info
    from palaestra.vector._processes import THREADS_PER_BLOCK as THREADS_PER_BLOCK
    from palaestra.vector._processes import split_blocks as split_blocks
    from palaestra.vector._recv import RecvEngine as RecvEngine
    from palaestra.vector._spaces import actions_per_env as actions_per_env
    from palaestra.vector._spaces import batched_spaces as batched_spaces
    from palaestra.vector._spaces import wrong_action_count as wrong_action_count
    from palaestra.vector._sync import SyncVectorEnv as SyncVectorEnv
    from palaestra.vector._vector_env import AutoresetMode as AutoresetMode
    from palaestra.vector._vector_env import SubEnvVectorEnv as SubEnvVectorEnv
    from palaestra.vector._vector_env import VectorEnv as VectorEnv
    from palaestra.vector._worker import WorkerBlock as WorkerBlock
    from palaestra.vector._worker import WorkerConfig as WorkerConfig
    from palaestra.vector.utils._shared_memory import create_shared_memory as create_shared_memory
    from palaestra.wrappers._common import TimeLimit as TimeLimit

# Public name -> module defining it, resolved on first access (PEP 562). Written once: the
# names above (for type checkers) are held to this table by tests/core/test_public_names.py.
_LAZY_NAMES = {
    "REGISTRATION_FIELDS": "palaestra._env._spec",
    "THREADS_PER_BLOCK": "palaestra.vector._processes",
    "RecvEngine": "palaestra.vector._recv",
    "AsyncVectorEnv": "palaestra.vector._async",
    "AutoresetMode": "palaestra.vector._vector_env",
    "BatchedVectorEnv": "palaestra.vector._batched",
    "Canvas": "palaestra._env._canvas",
    "CanvasRendering": "palaestra._env._canvas",
    "EnvRegistrar": "palaestra._plugins._registrar",
    "EzPickle": "palaestra._base._ezpickle",
    "FuncEnv": "palaestra.experimental.functional",
    "Snapshot": "palaestra._env._snapshot",
    "SubEnvVectorEnv": "palaestra.vector._vector_env",
    "SyncVectorEnv": "palaestra.vector._sync",
    "TimeLimit": "palaestra.wrappers._common",
    "VectorEnv": "palaestra.vector._vector_env",
    "VectorSnapshot": "palaestra._env._snapshot",
    "VectorizerRegistrar": "palaestra._plugins._registrar",
    "WorkerBlock": "palaestra.vector._worker",
    "WorkerConfig": "palaestra.vector._worker",
    "WrapperSetRegistrar": "palaestra._plugins._registrar",
    "actions_per_env": "palaestra.vector._spaces",
    "add_info": "palaestra.vector._info",
    "asserted_invalid": "palaestra._env._suite",
    "batch_differing_spaces": "palaestra.spaces._batching",
    "batch_space": "palaestra.spaces._batching",
    "batched_spaces": "palaestra.vector._spaces",
    "cache_folder": "palaestra._discovery._cache",
    "check_flag": "palaestra._base._arguments",
    "check_max_episode_steps": "palaestra._base._arguments",
    "check_num_envs": "palaestra._base._arguments",
    "check_num_workers": "palaestra.vector._cores",
    "get_env_id": "palaestra._base._ids",
    "namespace_of": "palaestra._base._ids",
    "parse_env_id": "palaestra._base._ids",
    "check_sub_env_objects": "palaestra._base._arguments",
    "check_timeout": "palaestra._base._arguments",
    "circle": "palaestra._env._canvas",
    "concatenate": "palaestra.spaces._batching",
    "create_empty_array": "palaestra.spaces._batching",
    "create_shared_memory": "palaestra.vector.utils._shared_memory",
    "expected_action": "palaestra._env._suite",
    "hookimpl": "palaestra._base._markers",
    "import_pygame": "palaestra._env._canvas",
    "invalid_action": "palaestra._env._suite",
    "invalid_actions": "palaestra._env._suite",
    "render_before_reset": "palaestra._env._suite",
    "step_before_reset": "palaestra._env._suite",
    "iterate": "palaestra.spaces._batching",
    "lazy_exports": "palaestra._base._lazy",
    "logger": "palaestra",
    "non_finite_note": "palaestra._env._suite",
    "np_random": "palaestra._base._seeding",
    "per_env_values": "palaestra.vector._autoreset",
    "polygon": "palaestra._env._canvas",
    "prepare_sdl_environment": "palaestra._env._canvas",
    "real_array": "palaestra._env._suite",
    "reset_arguments": "palaestra.vector._autoreset",
    "resolve_autoreset_mode": "palaestra.vector._autoreset",
    "rotated_box": "palaestra._env._canvas",
    "split_blocks": "palaestra.vector._processes",
    "usable_cores": "palaestra.vector._cores",
    "vector_restore_plan": "palaestra._env._snapshot",
    "warn_no_render_mode": "palaestra._env._suite",
    "wrong_action_count": "palaestra.vector._spaces",
}
__all__ = sorted(_LAZY_NAMES)


# start-up: a hook module imports the kit for its registrar types; its other names (the
# vector package, the canvas, ...) cost 30 ms (benchmarks/bench_lazy_seams.py).
def __getattr__(name: str) -> Any:
    if name in _LAZY_NAMES:
        return load_export(globals(), _LAZY_NAMES, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(__all__) | set(globals()))
