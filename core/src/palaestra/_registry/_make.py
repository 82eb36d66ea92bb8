"""``make`` as a pipeline of small steps: resolve, merge, load, negotiate, build, wrap."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from copy import deepcopy
from typing import TYPE_CHECKING, Any, Protocol

from palaestra import logger
from palaestra._base._arguments import check_flag
from palaestra._base._lazy import load_env_creator
from palaestra._base._wrapper_spec import WrapperSpec
from palaestra._env._core import Env
from palaestra._env._spec import EnvSpec, replaced
from palaestra.error import Error, InvalidEnvArguments, InvalidEnvId, InvalidMetadata
from palaestra.wrappers._common import OrderEnforcing, PassiveEnvChecker, TimeLimit
from palaestra.wrappers.compatibility import EnvCompatibility

if TYPE_CHECKING:
    from palaestra._registry._registry import Registry

__all__ = [
    "Host",
    "RenderPlan",
    "apply_wrappers",
    "construct",
    "make_env",
    "merge_kwargs",
    "negotiate_render_mode",
    "resolve_spec",
    "stamp_spec",
    "wrapper_set_specs",
]


class Host(Protocol):
    """What ``make`` asks of the plugin host: the registry and the wrapper sets."""

    registry: Registry

    def wrapper_set(self, name: str) -> tuple[WrapperSpec, ...]:
        """The wrapper specs of set ``name``."""


def resolve_spec(env_id: str | EnvSpec, host: Host | None, vector: bool = False) -> EnvSpec:
    """Turn an id (``"[module:][ns/]Name[-vN]"``) or spec into a registered spec.

    ``vector``: for ``make_vec``, whose wrong-type message differs in Gymnasium.
    """
    if isinstance(env_id, EnvSpec):
        return env_id
    if not isinstance(env_id, str):
        if vector:
            raise InvalidEnvId(f"Invalid id type: {type(env_id)}. Expected `str` or `EnvSpec`")
        raise InvalidEnvId(f"Expected id to be a string or EnvSpec, got {type(env_id)}")
    if host is None:
        raise TypeError(f"an id ({env_id!r}) needs a registry to look it up in; give a plugin host")
    module, colon, name = env_id.rpartition(":")
    if colon:  # "module:Name-v0": importing the module registers the env
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as e:
            raise ModuleNotFoundError(
                f"{e}. Environment registration via importing a module failed. Check whether "
                f"{module!r} contains env registration and can be imported. (The id {env_id!r} names "
                f"module {module!r}, which registers the env when imported; install it or fix the path.)"
            ) from e
    return host.registry.find_spec(name)


def merge_kwargs(spec: EnvSpec, kwargs: dict[str, Any]) -> dict[str, Any]:
    """The spec's kwargs (copied) updated with the caller's."""
    merged = deepcopy(spec.kwargs)
    merged.update(kwargs)
    return merged


def _creator_of(spec: EnvSpec) -> Callable[..., Any]:
    if spec.entry_point is None:
        raise Error(f"{spec.id} registered but entry_point is not specified")
    creator = spec.entry_point if callable(spec.entry_point) else load_env_creator(spec.entry_point)
    if spec.apply_api_compatibility:
        return _LegacyCreator(creator)
    return creator


class _LegacyCreator:
    """Builds a Gym 0.21-API env without the render mode, then fixes the mode in EnvCompatibility."""

    def __init__(self, creator: Callable[..., Any]) -> None:
        self.creator = creator
        metadata = getattr(creator, "metadata", None)
        if isinstance(metadata, dict):
            modes = metadata.get("render_modes", metadata.get("render.modes", []))
            self.metadata = {**metadata, "render_modes": list(modes or [])}

    def __call__(self, render_mode: str | None = None, **kwargs: Any) -> Env[Any, Any]:
        return EnvCompatibility(self.creator(**kwargs), render_mode)


class RenderPlan:
    """What the render-mode negotiation decided.

    (A plain class: a NamedTuple or dataclass costs every process a fraction of a
    millisecond to create, and nothing here needs their extras.)

    Attributes:
        kwargs: Constructor kwargs with the render mode the env will actually get.
        wrapper: ``"human"`` (add HumanRendering), ``"collection"`` (add
            RenderCollection) or ``None``.
    """

    __slots__ = ("kwargs", "wrapper")

    def __init__(self, kwargs: dict[str, Any], wrapper: str | None = None) -> None:
        self.kwargs = kwargs
        self.wrapper = wrapper

    def __repr__(self) -> str:
        return f"RenderPlan(kwargs={self.kwargs!r}, wrapper={self.wrapper!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RenderPlan):
            return NotImplemented
        return (self.kwargs, self.wrapper) == (other.kwargs, other.wrapper)

    __hash__ = None  # type: ignore[assignment]


def _declared_render_modes(creator: Any) -> list[str] | None:
    metadata = getattr(creator, "metadata", None)
    if metadata is None or isinstance(metadata, property):
        return None
    if not isinstance(metadata, dict):
        raise InvalidMetadata(f"Expect the environment metadata to be dict, actual type: {type(metadata)}")
    modes = metadata.get("render_modes")
    if modes is None:
        logger.warn(
            f"The environment creator metadata doesn't include `render_modes`, contains: {list(metadata)}"
        )
    elif not isinstance(modes, Iterable):
        logger.warn(
            f"Expects the environment metadata render_modes to be a Iterable, actual type: {type(modes)}"
        )
        return None
    return modes  # type: ignore[return-value]


def check_render_mode_type(creator: Any, mode: Any) -> Sequence[str] | None:
    """The creator's declared render modes; raise unless ``mode`` is None or a string."""
    modes = _declared_render_modes(creator)
    if mode is not None and not isinstance(mode, str):
        raise InvalidEnvArguments(
            f"render_mode must be None or the name of a render mode, one of {modes}, "
            f"got {mode!r} ({type(mode).__name__})"
        )
    return modes


def negotiate_render_mode(creator: Any, kwargs: dict[str, Any]) -> RenderPlan:
    """Map an unsupported ``render_mode`` to a supported one plus a wrapper, if possible."""
    mode = kwargs.get("render_mode")
    modes = check_render_mode_type(creator, mode)
    if mode is None or modes is None or mode in modes:
        return RenderPlan(kwargs)
    displayable = [m for m in ("rgb_array", "rgb_array_list") if m in modes]
    if mode == "human" and displayable:
        logger.warn(
            "You are trying to use 'human' rendering for an environment that doesn't natively "
            "support it. The HumanRendering wrapper is being applied to your environment."
        )
        return RenderPlan({**kwargs, "render_mode": displayable[0]}, "human")
    if mode.endswith("_list") and mode[: -len("_list")] in modes:
        return RenderPlan({**kwargs, "render_mode": mode[: -len("_list")]}, "collection")
    logger.warn(
        f"The environment is being initialised with render_mode={mode!r} that is not in the "
        f"possible render_modes ({modes})."
    )
    return RenderPlan(kwargs)


def construct(creator: Callable[..., Any], spec: EnvSpec, kwargs: dict[str, Any]) -> Env[Any, Any]:
    """Call the creator and check the result is an :class:`Env`.

    Raises:
        palaestra.error.InvalidEnvArguments: The creator rejected the kwargs.
        TypeError: The creator did not return a palaestra ``Env``.
    """
    try:
        env = creator(**kwargs)
    except InvalidEnvArguments:
        raise  # already names the argument
    except TypeError as e:
        raise InvalidEnvArguments(
            f"{e} was raised from the environment creator for {spec.id} with kwargs ({kwargs}); "
            "check the keyword arguments against the environment's constructor"
        ) from e
    if not isinstance(env, Env):
        raise TypeError(
            f"The environment must inherit from the gymnasium.Env class, actual class: {type(env)}. "
            "See https://gymnasium.farama.org/introduction/create_custom_env/ for more info. In "
            "palaestra, subclass palaestra.Env (port a Gymnasium env by importing palaestra instead of "
            "gymnasium); register Gym 0.21-API envs with apply_api_compatibility=True."
        )
    return env


def stamp_spec(env: Env[Any, Any], spec: EnvSpec, kwargs: dict[str, Any]) -> int:
    """Give the unwrapped env its minimal spec; return how many spec wrappers it already has.

    Raises:
        ValueError: The env applied wrappers that contradict the spec's.
    """
    # The bare env's spec: its own fields and kwargs, none of make's wrappers.
    env.unwrapped.spec = replaced(
        spec,
        kwargs=kwargs,
        max_episode_steps=None,
        order_enforce=False,
        disable_env_checker=True,
        additional_wrappers=(),
    )
    assert env.spec is not None
    prior = env.spec.additional_wrappers
    expected = spec.additional_wrappers[: len(prior)]
    if len(prior) <= len(spec.additional_wrappers) and expected != prior:
        raise ValueError(
            f"The environment's wrapper spec {prior} is different from the saved `EnvSpec` "
            f"additional wrappers {expected}"
        )
    return len(prior)


def apply_wrappers(
    env: Env[Any, Any],
    spec: EnvSpec,
    prior: int,
    max_episode_steps: int | None,
    disable_env_checker: bool | None,
    render_wrapper: str | None,
) -> Env[Any, Any]:
    """Stack, innermost first: checker, order enforcer, time limit, spec wrappers, render."""
    # From their own modules: importing the whole wrappers package would cost every make().
    checker_off = spec.disable_env_checker if disable_env_checker is None else disable_env_checker
    if not checker_off:
        env = PassiveEnvChecker(env)
    if spec.order_enforce:
        env = OrderEnforcing(env)
    limit = spec.max_episode_steps if max_episode_steps is None else max_episode_steps
    if limit is not None and limit != -1:
        env = TimeLimit(env, limit)
    for wrapper_spec in spec.additional_wrappers[prior:]:
        if wrapper_spec.kwargs is None:
            raise ValueError(
                f"{wrapper_spec.name} wrapper does not inherit from "
                "`gymnasium.utils.RecordConstructorArgs`, therefore, the wrapper cannot be recreated. "
                "In palaestra, inherit from palaestra.utils.RecordConstructorArgs."
            )
        env = load_env_creator(wrapper_spec.entry_point)(env=env, **wrapper_spec.kwargs)
    if render_wrapper is not None:
        # start-up: only a render mode the env lacks needs these (1.0 ms)
        from palaestra.wrappers._rendering import HumanRendering, RenderCollection

        env = RenderCollection(env) if render_wrapper == "collection" else HumanRendering(env)
    return env


def wrapper_set_specs(names: str | Sequence[str] | None, host: Host | None) -> tuple[WrapperSpec, ...]:
    """The wrapper specs of the named sets, in order (innermost first).

    Raises:
        WrapperSetNotFound: A name nobody registered.
        TypeError: ``names`` is not a string or a sequence of strings, or there is no host
            to look the names up in.
    """
    if names is None:
        return ()
    if isinstance(names, str):
        names = [names]
    elif not isinstance(names, (list, tuple)):
        raise TypeError(
            f"make(..., wrappers=...) takes a wrapper set name or a list of them, got {names!r}; "
            "wrap the env yourself to apply a wrapper class"
        )
    specs: list[WrapperSpec] = []
    for name in names:
        if not isinstance(name, str):
            raise TypeError(
                f"make(..., wrappers=...) takes wrapper set names (strings), got {name!r}; "
                "wrap the env yourself to apply a wrapper class"
            )
        if host is None:
            raise TypeError(f"wrapper sets ({name!r}) are looked up in a plugin host; use palaestra.make")
        specs.extend(host.wrapper_set(name))
    return tuple(specs)


def make_env(
    env_id: str | EnvSpec,
    host: Host | None,
    max_episode_steps: int | None = None,
    disable_env_checker: bool | None = None,
    wrappers: str | Sequence[str] | None = None,
    **kwargs: Any,
) -> Env[Any, Any]:
    """The whole pipeline (see :func:`palaestra.make`); ``host`` may be None for a spec."""
    if disable_env_checker is not None:
        check_flag(disable_env_checker, "disable_env_checker", "make without the PassiveEnvChecker")
    spec = resolve_spec(env_id, host)
    extra = wrapper_set_specs(wrappers, host)
    if extra:
        spec = replaced(spec, additional_wrappers=(*spec.additional_wrappers, *extra))
    creator = _creator_of(spec)
    plan = negotiate_render_mode(creator, merge_kwargs(spec, kwargs))
    env = construct(creator, spec, plan.kwargs)
    prior = stamp_spec(env, spec, plan.kwargs)
    return apply_wrappers(env, spec, prior, max_episode_steps, disable_env_checker, plan.wrapper)
