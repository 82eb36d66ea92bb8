"""Env state snapshots: what ``Env.snapshot()`` returns and ``Env.restore()`` takes.

A snapshot mirrors the env stack: one layer per wrapper and one for the env itself, each
holding copies of the attributes that carry that layer's state between steps, and the
innermost layer also the state of the env's generator. Everything is copied when taken
and again when restored, so one snapshot can be restored any number of times, and it
pickles whenever the copied values do.
"""

from __future__ import annotations

import types
from collections.abc import Iterable, Mapping
from copy import deepcopy
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from palaestra import error

__all__ = ["Snapshot", "VectorSnapshot"]


@dataclass(frozen=True, repr=False, eq=False)  # compared and hashed by identity
class Snapshot:
    """The state of an environment (and its wrappers) at one moment.

    Made by :meth:`palaestra.Env.snapshot`, consumed by :meth:`palaestra.Env.restore`;
    treat the fields as opaque.

    Attributes:
        owner: ``"module:Class"`` of the env or wrapper this layer was taken from.
        state: Copies of that layer's state attributes, by name.
        inner: The layer below a wrapper; ``None`` for the innermost env.
        env_id: The innermost env's spec id (``None`` without a spec, and on wrapper layers).
        rng: The innermost env's generator as ``(bit generator name, state, seed)``;
            ``None`` on wrapper layers and when the env had not created its generator yet.
        built_as: The innermost env's observation space, action space and construction
            kwargs (its spec's, without those that only affect rendering), which the env a
            snapshot is restored into must share; ``None`` on wrapper layers.
    """

    owner: str
    state: Mapping[str, Any]
    inner: Snapshot | None = None
    env_id: str | None = None
    rng: tuple[str, dict[str, Any], int | None] | None = None
    built_as: tuple[Any, Any, Mapping[str, Any] | None] | None = None

    @property
    def layers(self) -> tuple[str, ...]:
        """The class names of the layers, outermost first."""
        names = []
        layer: Snapshot | None = self
        while layer is not None:
            names.append(layer.owner.rpartition(":")[2])
            layer = layer.inner
        return tuple(names)

    def __repr__(self) -> str:
        innermost = self
        while innermost.inner is not None:
            innermost = innermost.inner
        label = f"{innermost.env_id}: " if innermost.env_id is not None else ""
        return f"Snapshot({label}{' > '.join(self.layers)})"


@dataclass(frozen=True, repr=False, eq=False)  # compared and hashed by identity
class VectorSnapshot:
    """The state of every sub-env of a sync or async vector env at one moment.

    Attributes:
        envs: Each sub-env's :class:`Snapshot`, in sub-env order.
        autoreset: Which sub-envs ended their episode on the last step (and so are reset,
            or must be reset, before their next step).
    """

    envs: tuple[Snapshot, ...]
    autoreset: tuple[bool, ...]

    def __repr__(self) -> str:
        return f"VectorSnapshot({len(self.envs)} x {self.envs[0]!r})" if self.envs else "VectorSnapshot()"


def vector_restore_plan(snapshot: object, num_envs: int) -> tuple[list[Snapshot], list[bool]]:
    """Per sub-env snapshots and pending-autoreset flags for ``VectorEnv.restore``."""
    if isinstance(snapshot, VectorSnapshot):
        if len(snapshot.envs) != num_envs:
            raise error.SnapshotError(
                f"the snapshot holds {len(snapshot.envs)} sub-envs and this vector env has {num_envs}; "
                "restore it into a vector env of the same size"
            )
        return list(snapshot.envs), list(snapshot.autoreset)
    if isinstance(snapshot, Snapshot):  # one env's state for every sub-env
        return [snapshot] * num_envs, [False] * num_envs
    if isinstance(snapshot, (list, tuple)) and all(isinstance(s, Snapshot) for s in snapshot):
        if len(snapshot) != num_envs:
            raise error.SnapshotError(
                f"got {len(snapshot)} snapshots for a vector env of {num_envs} sub-envs; give one per sub-env"
            )
        return list(snapshot), [False] * num_envs
    raise TypeError(
        "restore() takes a VectorSnapshot made by envs.snapshot(), one env's Snapshot (copied to "
        f"every sub-env) or a list of one Snapshot per sub-env, got {type(snapshot).__name__}"
    )


def owner_of(obj: object) -> str:
    """The ``"module:Class"`` name a snapshot layer records for ``obj``."""
    cls = type(obj)
    return f"{cls.__module__}:{cls.__qualname__}"


def copy_fields(obj: object, names: Iterable[str], fix: str) -> dict[str, Any]:
    """Deep copies of ``obj``'s attributes ``names`` (aliasing between them is kept)."""
    memo: dict[int, Any] = {}
    copied = {}
    for name in names:
        try:
            value = getattr(obj, name)
        except AttributeError as e:
            raise error.SnapshotError(
                f"cannot snapshot {type(obj).__name__}: it lists {name!r} in snapshot_fields but has no "
                f"attribute {name!r} now. If reset() sets it, snapshot after the first reset(); if not, "
                f"the name is misspelt or the attribute never set; {fix}"
            ) from e
        try:
            copied[name] = deepcopy(value, memo)
        except Exception as e:
            raise error.SnapshotError(
                f"cannot snapshot {type(obj).__name__}: its attribute {name!r} "
                f"({type(value).__name__}) cannot be copied ({e}); {fix}"
            ) from e
    return copied


def restore_fields(obj: object, state: Mapping[str, Any]) -> None:
    """Set ``obj``'s attributes from fresh copies of ``state`` (the snapshot stays reusable)."""
    for name, value in deepcopy(dict(state)).items():
        setattr(obj, name, value)


# Attributes every wrapper has that describe the stack rather than hold state.
_WRAPPER_PLUMBING = frozenset(
    {"env", "_action_space", "_observation_space", "_metadata", "_cached_spec", "_saved_kwargs"}
)
# Values a wrapper refers to but does not own: the envs below it, spaces, code.
_NOT_STATE = (
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    partial,
)


def wrapper_state_names(wrapper: object, not_state: tuple[type, ...]) -> list[str]:
    """A wrapper's own attributes that may carry state, for wrappers without snapshot_fields."""
    return [
        name
        for name, value in vars(wrapper).items()
        if name not in _WRAPPER_PLUMBING and not isinstance(value, _NOT_STATE + not_state)
    ]


def take_innermost(owner: Any, state: Mapping[str, Any]) -> Snapshot:
    """The snapshot of an object that owns a generator: an env or a natively batched vector env.

    It holds ``state``, the spec id and the state of ``np_random``.
    """
    generator, spec = owner._np_random, owner.spec
    rng = None
    if generator is not None:  # else not created yet: restoring drops the current one
        bit_generator = generator.bit_generator
        rng = (type(bit_generator).__name__, deepcopy(bit_generator.state), owner._np_random_seed)
    env_id = None if spec is None else spec.id
    return Snapshot(owner_of(owner), state, env_id=env_id, rng=rng, built_as=built_as(owner))


def built_as(owner: Any) -> tuple[Any, Any, Mapping[str, Any] | None]:
    """What a snapshot of ``owner`` records of how it was built (references, not copies: cheap)."""
    spec = owner.spec
    return owner.observation_space, owner.action_space, None if spec is None else spec.kwargs


def _differences(saved: tuple[Any, Any, Mapping[str, Any] | None], owner: Any) -> list[str]:
    """How ``owner`` was built differently from the env a snapshot recorded as ``saved``."""
    now = built_as(owner)
    found = []
    for name, before, after in zip(("observation space", "action space"), saved[:2], now[:2], strict=True):
        if before is not after and not _same(before, after):
            found.append(f"{name} {before} (this env: {after})")
    if saved[2] is not None and now[2] is not None and saved[2] is not now[2]:
        ignored: frozenset[str] = getattr(owner, "snapshot_ignores_kwargs", frozenset())
        defaults = _constructor_defaults(type(owner))  # a kwarg left out means its default
        before_kwargs, after_kwargs = {**defaults, **saved[2]}, {**defaults, **now[2]}
        for key in sorted((set(before_kwargs) | set(after_kwargs)) - ignored):
            before, after = before_kwargs.get(key, _UNSET), after_kwargs.get(key, _UNSET)
            if not _same(before, after):
                found.append(f"{key}={before!r} (this env: {after!r})")
    return found


def _constructor_defaults(cls: type) -> dict[str, Any]:
    import inspect  # start-up: an error path, or a restore across differently written kwargs

    try:
        parameters = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {p.name: p.default for p in parameters if p.default is not inspect.Parameter.empty}


_UNSET = type("_Unset", (), {"__repr__": lambda self: "<not given>"})()


def _same(a: Any, b: Any) -> bool:
    try:
        result = a == b
        return bool(result if isinstance(result, bool) else np.all(result))
    except Exception:  # values that cannot be compared: compare how they print
        return repr(a) == repr(b)


def restore_generator(owner: Any, saved: tuple[str, dict[str, Any], int | None] | None) -> None:
    """Put ``owner``'s own generator (``_np_random``, ``_np_random_seed``) in the saved state.

    The generator object is kept when its kind matches, so objects holding a reference to
    it draw from the restored stream too.
    """
    if saved is None:
        owner._np_random = owner._np_random_seed = None
        return
    name, state, seed = saved
    generator = owner._np_random
    if generator is None or type(generator.bit_generator).__name__ != name:
        kind = getattr(np.random, name, None)
        if not (isinstance(kind, type) and issubclass(kind, np.random.BitGenerator)):
            raise error.SnapshotError(f"the snapshot's generator uses an unknown bit generator {name!r}")
        generator = np.random.Generator(kind())
    generator.bit_generator.state = deepcopy(state)
    owner._np_random, owner._np_random_seed = generator, seed


def check_fits(layers: list[Any], env_id: str | None, snapshot: object) -> None:
    """Raise unless ``snapshot`` was taken from a stack shaped like ``layers`` (outermost first)."""
    if not isinstance(snapshot, Snapshot):
        raise TypeError(f"restore() takes a Snapshot made by env.snapshot(), got {type(snapshot).__name__}")
    saved: list[Snapshot] = []
    layer: Snapshot | None = snapshot
    while layer is not None:
        saved.append(layer)
        layer = layer.inner
    saved_id = saved[-1].env_id
    fits = [s.owner for s in saved] == [owner_of(env) for env in layers]
    if fits and (env_id is None or saved_id is None or env_id == saved_id):
        recorded = saved[-1].built_as
        differences = [] if recorded is None else _differences(recorded, layers[-1])
        if not differences:
            return
        raise error.SnapshotError(
            f"the snapshot was taken from {saved_id or saved[-1].layers[0]} built differently: "
            f"{'; '.join(differences)}; restore a snapshot into an env built the same way "
            "(same id, kwargs and wrappers)"
        )

    def describe(env_id: str | None, names: Iterable[str]) -> str:
        stack = " > ".join(names)
        return stack if env_id is None else f"{env_id} ({stack})"

    raise error.SnapshotError(
        f"the snapshot was taken from {describe(saved_id, snapshot.layers)} and does not fit "
        f"{describe(env_id, (type(env).__name__ for env in layers))}; "
        "restore a snapshot into an env built the same way (same id, kwargs and wrappers)"
    )
