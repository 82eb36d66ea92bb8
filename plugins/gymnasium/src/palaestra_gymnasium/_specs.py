"""Ids, env specs and env creators across the two registries.

A palaestra id ``CartPole-v1`` is ``palaestra/CartPole-v1`` to Gymnasium, and a namespaced
one ``ns/Grid-v0`` is ``palaestra/ns.Grid-v0`` (Gymnasium's ids hold one ``/`` at most). A
Gymnasium id ``ALE/Pong-v5`` is ``gymnasium/ALE/Pong-v5`` to palaestra. An id that went
across and comes back maps to itself.

A converted spec keeps every field and names, as its entry point, a creator object that
builds the *bare* env in its own library and presents it through the adapter; the other
library then applies its own checker, order enforcer, time limit and render wrappers from
the spec, as it does for its native envs. Wrappers listed in a spec carry over when the
other library has a wrapper of the same name (the two libraries share wrapper names and
arguments); otherwise the creator applies them on its side.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import gymnasium
from gymnasium.envs import registration as gym_registration

import palaestra
from palaestra.envs.registration import load_env_creator
from palaestra.plugin import get_env_id, parse_env_id, prepare_sdl_environment

__all__ = [
    "GYMNASIUM_NAMESPACE",
    "DeferredGymnasiumSpec",
    "PALAESTRA_NAMESPACE",
    "GymnasiumCreator",
    "GymnasiumVectorCreator",
    "PalaestraCreator",
    "PalaestraVectorCreator",
    "from_gymnasium_spec",
    "gymnasium_id",
    "palaestra_id",
    "to_gymnasium_spec",
]

#: palaestra's namespace for Gymnasium's ids (``gymnasium/ALE/Pong-v5``).
GYMNASIUM_NAMESPACE = "gymnasium"
#: Gymnasium's namespace for palaestra's ids (``palaestra/CartPole-v1``).
PALAESTRA_NAMESPACE = "palaestra"


def gymnasium_id(env_id: str) -> str:
    """The Gymnasium id of palaestra id ``env_id``."""
    ns, name, version = parse_env_id(env_id)
    if ns is None:
        return get_env_id(PALAESTRA_NAMESPACE, name, version)
    if ns == GYMNASIUM_NAMESPACE or ns.startswith(f"{GYMNASIUM_NAMESPACE}/"):
        return env_id.removeprefix(f"{GYMNASIUM_NAMESPACE}/")
    return get_env_id(PALAESTRA_NAMESPACE, f"{ns.replace('/', '.')}.{name}", version)


def palaestra_id(env_id: str) -> str:
    """The palaestra id of Gymnasium id ``env_id`` (the inverse of :func:`gymnasium_id`)."""
    ns, name, version = gym_registration.parse_env_id(env_id)
    if ns != PALAESTRA_NAMESPACE:
        return f"{GYMNASIUM_NAMESPACE}/{env_id}"
    own_ns, dot, own_name = name.rpartition(".")
    return get_env_id(own_ns.replace(".", "/"), own_name, version) if dot else get_env_id(None, name, version)


def _bare(spec: Any, wrappers: tuple[Any, ...]) -> Any:
    """``spec`` for building the env alone: no checker, order enforcer, time limit or kwargs."""
    return dataclasses.replace(
        spec,
        max_episode_steps=None,
        order_enforce=False,
        disable_env_checker=True,
        kwargs={},
        additional_wrappers=wrappers,
    )


def _creator_metadata(entry_point: Any, loader: Any) -> Any:
    """The metadata of what an entry point builds, so the caller can negotiate render modes."""
    creator = entry_point if callable(entry_point) else loader(entry_point)
    metadata = getattr(creator, "metadata", None)
    if metadata is None or isinstance(metadata, property):
        raise AttributeError("metadata")
    return metadata


class _Creator:
    """An entry point holding the other library's spec; equal when the specs are."""

    def __init__(self, spec: Any) -> None:
        self.spec = spec

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash((type(self), self.spec.id))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.spec.id!r})"


# The adapters, named as entry points are: the adapters convert specs with this module, so
# the creators find them by name when they build an env.
_TO_ENV = "palaestra_gymnasium._envs:ToGymnasiumEnv"
_TO_VECTOR = "palaestra_gymnasium._vector:ToGymnasiumVectorEnv"
_FROM_ENV = "palaestra_gymnasium._envs:FromGymnasiumEnv"
_FROM_VECTOR = "palaestra_gymnasium._vector:FromGymnasiumVectorEnv"


class PalaestraCreator(_Creator):
    """Gymnasium entry point of a palaestra env: builds it bare, as a ``gymnasium.Env``."""

    @property
    def metadata(self) -> Any:
        """The palaestra env class's metadata (read by ``gymnasium.make``)."""
        return _creator_metadata(self.spec.entry_point, load_env_creator)

    def __call__(self, **kwargs: Any) -> gymnasium.Env[Any, Any]:
        return load_env_creator(_TO_ENV)(palaestra.make(self.spec, **kwargs))  # type: ignore[no-any-return]


class PalaestraVectorCreator(_Creator):
    """Gymnasium vector entry point of a palaestra env with a natively batched version."""

    def __call__(self, num_envs: int = 1, **kwargs: Any) -> gymnasium.vector.VectorEnv[Any, Any, Any]:
        vector_env = palaestra.make_vec(
            self.spec, num_envs, vectorization_mode="vector_entry_point", **kwargs
        )
        return load_env_creator(_TO_VECTOR)(vector_env)  # type: ignore[no-any-return]


class PalaestraEntryPoint(str):
    """Gymnasium's entry point of a registered palaestra id, written as a ``"module:attr"`` string.

    ``palaestra_gymnasium.entry_points:CartPole-v1`` (or ``.vector_entry_points:``): Gymnasium
    imports the module and reads the attribute, a creator of the id. As a string the spec
    serialises to JSON (Minari records it); the bare palaestra spec it stands for rides along
    so the spec converts back to palaestra's own.
    """

    spec: Any

    def __new__(cls, text: str, spec: Any) -> PalaestraEntryPoint:
        entry_point = super().__new__(cls, text)
        entry_point.spec = spec
        return entry_point

    def __reduce__(self) -> tuple[Any, ...]:  # copies and pickles (dataclasses.asdict deep-copies)
        return (type(self), (str(self), self.spec))


#: The modules whose attributes are palaestra ids' Gymnasium creators (see :class:`PalaestraEntryPoint`).
ENTRY_POINTS = "palaestra_gymnasium.entry_points"
VECTOR_ENTRY_POINTS = "palaestra_gymnasium.vector_entry_points"


def creator_of(env_id: str, vector: bool) -> _Creator:
    """The Gymnasium creator of registered palaestra id ``env_id`` (the entry-point modules' attributes)."""
    inner = _bare(palaestra.spec(env_id), ())
    return PalaestraVectorCreator(inner) if vector else PalaestraCreator(inner)


def _by_name(spec: Any, inner: Any) -> tuple[Any, Any] | None:
    """String entry points of ``spec`` when its registered spec builds the same bare env, else None."""
    try:
        registered = palaestra.spec(spec.id)
    except Exception:  # a spec of one's own, not in the registry: only an object can carry it
        return None
    if _bare(registered, ()) != inner:
        return None
    vector = None
    if spec.vector_entry_point is not None:
        vector = PalaestraEntryPoint(f"{VECTOR_ENTRY_POINTS}:{spec.id}", inner)
    return PalaestraEntryPoint(f"{ENTRY_POINTS}:{spec.id}", inner), vector


class GymnasiumCreator(_Creator):
    """palaestra entry point of a Gymnasium env: builds it bare, as a ``palaestra.Env``."""

    @property
    def metadata(self) -> Any:
        """The Gymnasium env class's metadata (read by ``palaestra.make``)."""
        return _creator_metadata(self.spec.entry_point, gym_registration.load_env_creator)

    def __call__(self, **kwargs: Any) -> palaestra.Env[Any, Any]:
        prepare_sdl_environment()  # Gymnasium's envs start pygame themselves when they render
        return load_env_creator(_FROM_ENV)(gymnasium.make(self.spec, **kwargs))  # type: ignore[no-any-return]


class GymnasiumVectorCreator(_Creator):
    """palaestra vector entry point of a Gymnasium env with a vector entry point."""

    def __call__(self, num_envs: int = 1, **kwargs: Any) -> palaestra.vector.VectorEnv[Any, Any, Any]:
        vector_env = gymnasium.make_vec(
            self.spec, num_envs, vectorization_mode="vector_entry_point", **kwargs
        )
        return load_env_creator(_FROM_VECTOR)(vector_env)  # type: ignore[no-any-return]


def _wrapper_twins(
    wrappers: tuple[Any, ...], source: str, target: Any, make_spec: Any
) -> tuple[Any, ...] | None:
    """The same wrappers as specs of the target library, or None if one has no twin there."""
    twins = []
    for wrapper in wrappers:
        module, _, name = str(wrapper.entry_point).partition(":")
        try:
            exists = module.startswith(source) and hasattr(target, name)
        except ImportError:  # a wrapper the target defines only with an optional dependency
            exists = False
        if not exists or wrapper.kwargs is None:
            return None
        twins.append(make_spec(name, f"{target.__name__}:{name}", dict(wrapper.kwargs)))
    return tuple(twins)


@dataclasses.dataclass(frozen=True)
class _Direction:
    """What converting a spec from one library to the other needs to know."""

    source_wrappers: str  # module prefix of the source library's wrappers
    target_wrappers: Any  # the target library's wrappers module
    wrapper_spec: Any  # the target's WrapperSpec class
    env_spec: Any  # the target's EnvSpec class
    creator: type[_Creator]  # entry point building the source's env for the target
    vector_creator: type[_Creator]
    returning: tuple[type, ...]  # the entry points that mark a spec as having come from the target
    new_id: Any  # id mapping


def _convert(spec: Any, way: _Direction) -> Any:
    twins = _wrapper_twins(
        spec.additional_wrappers, way.source_wrappers, way.target_wrappers, way.wrapper_spec
    )
    fields = {
        "reward_threshold": spec.reward_threshold,
        "nondeterministic": spec.nondeterministic,
        "max_episode_steps": spec.max_episode_steps,
        "order_enforce": spec.order_enforce,
        "disable_env_checker": spec.disable_env_checker,
        "kwargs": dict(spec.kwargs),
    }
    if isinstance(spec.entry_point, way.returning) and twins is not None:
        returned: Any = spec.entry_point  # it came from the target: give back the target's own spec
        origin = returned.spec
        return dataclasses.replace(
            origin, additional_wrappers=(*origin.additional_wrappers, *twins), **fields
        )
    inner = _bare(spec, () if twins is not None else spec.additional_wrappers)
    entry_point = way.creator(inner)
    vector_entry_point = None if spec.vector_entry_point is None else way.vector_creator(inner)
    if way.creator is PalaestraCreator and twins is not None:
        # A registered palaestra id is named by a string, which JSON (and Minari) can hold.
        named = _by_name(spec, inner)
        if named is not None:
            entry_point, vector_entry_point = named
    return way.env_spec(
        id=way.new_id(spec.id),
        entry_point=entry_point,
        vector_entry_point=vector_entry_point,
        additional_wrappers=twins or (),
        **fields,
    )


_TO_GYMNASIUM = _Direction(
    "palaestra.wrappers",
    gymnasium.wrappers,
    gym_registration.WrapperSpec,
    gym_registration.EnvSpec,
    PalaestraCreator,
    PalaestraVectorCreator,
    (GymnasiumCreator,),
    gymnasium_id,
)
_FROM_GYMNASIUM = _Direction(
    "gymnasium.wrappers",
    palaestra.wrappers,
    palaestra.WrapperSpec,
    palaestra.EnvSpec,
    GymnasiumCreator,
    GymnasiumVectorCreator,
    (PalaestraCreator, PalaestraEntryPoint),
    palaestra_id,
)


def to_gymnasium_spec(spec: palaestra.EnvSpec) -> gym_registration.EnvSpec:
    """The Gymnasium spec that builds (through palaestra) what palaestra ``spec`` builds.

    A spec that came from Gymnasium comes back as Gymnasium's own.
    """
    return _convert(spec, _TO_GYMNASIUM)  # type: ignore[no-any-return]


def from_gymnasium_spec(spec: gym_registration.EnvSpec) -> palaestra.EnvSpec:
    """The palaestra spec that builds (through Gymnasium) what Gymnasium ``spec`` builds.

    A spec that came from palaestra comes back as palaestra's own.
    """
    return _convert(spec, _FROM_GYMNASIUM)  # type: ignore[no-any-return]


# Fields a deferred spec knows from its id alone; the rest wait for palaestra's spec.
_ID_FIELDS = ("id", "namespace", "name", "version")


class DeferredGymnasiumSpec(gym_registration.EnvSpec):
    """Gymnasium's spec of a palaestra id, read from palaestra's registry on first use.

    Gymnasium lists and version-checks specs by ``id``, ``namespace``, ``name`` and
    ``version``, which come from the id; reading any other field (``gymnasium.make`` does)
    loads the palaestra plugin owning the id, and only that one. So registering every
    palaestra id with Gymnasium imports no suite.

    Args:
        env_id: The palaestra id.
        **fields: Gymnasium ``EnvSpec`` fields instead of an id (what ``dataclasses.replace``
            passes); the spec is then an ordinary one.
    """

    def __init__(self, env_id: str | None = None, **fields: Any) -> None:
        if env_id is None:
            gym_registration.EnvSpec.__init__(self, **fields)
            return
        self.__dict__["palaestra_id"] = env_id
        self.id = gymnasium_id(env_id)
        self.namespace, self.name, self.version = gym_registration.parse_env_id(self.id)

    def __eq__(self, other: object) -> bool:
        # Equal to an ordinary Gymnasium spec with the same fields (the dataclass's own
        # comparison requires the same class).
        if not isinstance(other, gym_registration.EnvSpec):
            return NotImplemented
        names = [f.name for f in dataclasses.fields(gym_registration.EnvSpec)]
        return all(getattr(self, n) == getattr(other, n) for n in names)

    __hash__ = None  # type: ignore[assignment]  # mutable, like Gymnasium's EnvSpec

    def _fields(self) -> dict[str, Any]:
        """The fields beyond the id's, loading palaestra's spec the first time."""
        found: dict[str, Any] | None = self.__dict__.get("_deferred")
        if found is None:
            full = to_gymnasium_spec(palaestra.registry[self.__dict__["palaestra_id"]])
            found = {
                f.name: getattr(full, f.name) for f in dataclasses.fields(full) if f.name not in _ID_FIELDS
            }
            self.__dict__["_deferred"] = found
        return found


def _deferred_field(name: str) -> property:
    def read(self: DeferredGymnasiumSpec) -> Any:
        return self._fields()[name]

    def write(self: DeferredGymnasiumSpec, value: Any) -> None:
        if "_deferred" not in self.__dict__ and "palaestra_id" not in self.__dict__:
            self.__dict__["_deferred"] = {}  # an ordinary spec being built field by field
        self._fields()[name] = value

    return property(read, write)


for _field in dataclasses.fields(gym_registration.EnvSpec):
    if _field.name not in _ID_FIELDS:
        setattr(DeferredGymnasiumSpec, _field.name, _deferred_field(_field.name))
