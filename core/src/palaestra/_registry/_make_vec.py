"""``make_vec``: build a vector env from a registered id with a chosen vectorizer."""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from palaestra import logger
from palaestra._base._arguments import (
    MAX_SUB_ENV_OBJECTS,
    check_max_episode_steps,
    check_num_envs,
    unknown_keyword,
)
from palaestra._base._lazy import load_env_creator
from palaestra._env._core import Env
from palaestra._registry._make import Host, check_render_mode_type, make_env, resolve_spec, wrapper_set_specs
from palaestra.error import Error, InvalidEnvArguments, InvalidEnvArgumentValue
from palaestra.vector._cores import check_num_workers
from palaestra.vector._vector_env import AutoresetMode

if TYPE_CHECKING:
    from palaestra._env._spec import EnvSpec

__all__ = ["EnvFactory", "VectorizeMode", "make_vec_env"]


class VectorizeMode(Enum):
    """The vectorization modes every installation has."""

    ASYNC = "async"
    SYNC = "sync"
    VECTOR_ENTRY_POINT = "vector_entry_point"


class EnvFactory:
    """A picklable zero-argument builder of one sub-environment (spec + kwargs + wrappers).

    Shipping the spec, not the id, lets worker processes started with ``spawn`` build envs
    that were registered in the parent with :func:`palaestra.register`.
    """

    def __init__(
        self, spec: EnvSpec, kwargs: dict[str, Any], wrappers: Sequence[Callable[[Env[Any, Any]], Any]]
    ) -> None:
        self.spec = spec
        self.kwargs = kwargs
        self.wrappers = list(wrappers)

    def __call__(self) -> Env[Any, Any]:
        env = make_env(self.spec, None, **copy.copy(self.kwargs))
        for wrapper in self.wrappers:
            env = wrapper(env)
        return env

    def __repr__(self) -> str:
        return f"EnvFactory({self.spec.id!r}, kwargs={self.kwargs}, wrappers={self.wrappers})"


def _mode_name(mode: VectorizeMode | str | None, spec: EnvSpec) -> str:
    if mode is None:
        return "vector_entry_point" if spec.vector_entry_point is not None else "sync"
    if isinstance(mode, VectorizeMode):
        return mode.value
    if not isinstance(mode, str):
        raise TypeError(f"vectorization_mode must be a VectorizeMode, a string or None, got {type(mode)}")
    return mode


def _from_vector_entry_point(
    spec: EnvSpec,
    num_envs: int,
    vector_kwargs: dict[str, Any],
    wrappers: Sequence[Any],
    kwargs: dict[str, Any],
) -> Any:
    entry_point = spec.vector_entry_point
    creator = entry_point if entry_point is None or callable(entry_point) else load_env_creator(entry_point)
    # A vector env made of sub-env objects may take what a vectorizer takes (sub-env wrappers
    # and the vectorizer's arguments), so code written for make_vec's sync default runs as is.
    takes_vectorizer_arguments = getattr(creator, "takes_vectorizer_arguments", False)
    if "num_workers" in vector_kwargs and creator is not None and not takes_vectorizer_arguments:
        vector_kwargs = dict(vector_kwargs)
        kwargs = {**kwargs, **_parallelism(creator, vector_kwargs.pop("num_workers"))}
    if vector_kwargs and not takes_vectorizer_arguments:
        raise Error(
            "Custom vector environment can be passed arguments only through kwargs and "
            f"`vector_kwargs` is not empty ({vector_kwargs})"
        )
    if wrappers and not takes_vectorizer_arguments:
        raise Error(
            f"Cannot use `vector_entry_point` vectorization mode with the wrappers argument ({wrappers})."
        )
    if spec.additional_wrappers:
        raise Error(
            "Cannot use `vector_entry_point` vectorization mode with the additional_wrappers parameter "
            f"in spec being not empty ({spec.additional_wrappers})."
        )
    if creator is None:
        raise Error(
            f"Cannot create vectorized environment for {spec.id} because it doesn't have a vector entry point defined."
        )
    if kwargs.get("render_mode") is not None:
        check_render_mode_type(creator, kwargs["render_mode"])
    if spec.max_episode_steps is not None and "max_episode_steps" not in kwargs:
        kwargs["max_episode_steps"] = spec.max_episode_steps
    if kwargs.get("max_episode_steps") == -1:  # make's way to remove the limit
        kwargs["max_episode_steps"] = None
    elif "max_episode_steps" in kwargs:  # a batched env counts steps in an array: check it first
        check_max_episode_steps(kwargs["max_episode_steps"])
    if takes_vectorizer_arguments:
        check_vector_kwargs(getattr(creator, "vectorizer", None), vector_kwargs)
        kwargs = {**kwargs, "wrappers": list(wrappers), "vector_kwargs": dict(vector_kwargs)}
    return creator(num_envs=num_envs, **kwargs)


def _parallelism(creator: Any, num_workers: Any) -> dict[str, Any]:
    """The one knob, ``vector_kwargs={"num_workers": k}``, as a natively batched env takes it.

    An env that runs threads takes ``num_workers`` (or ALE's ``num_threads``); one that steps
    every sub-env in the calling thread as array operations has nothing to set, and says so.
    """
    name = getattr(creator, "__name__", repr(creator))
    value = check_num_workers(num_workers, name)
    if value is None:  # the env's own default: the cores this process may use
        return {}
    try:
        parameters = inspect.signature(creator).parameters
    except (TypeError, ValueError):  # a builtin or C callable: nothing to read
        parameters = {}  # type: ignore[assignment]
    for parameter in ("num_workers", "num_threads"):
        if parameter in parameters:
            return {parameter: value}
    if value > 1:
        logger.warn(
            f"{name} steps all its sub-envs in the calling thread (array operations over the batch); "
            f"num_workers={value} has no effect on it",
            stacklevel=5,  # the caller of make_vec
        )
    return {}


def _too_many(num_envs: int, spec: EnvSpec, why: str) -> Exception:
    return InvalidEnvArgumentValue(
        f"num_envs={num_envs:,} is too many for {spec.id}: {why}. Pass fewer sub-envs"
        + ("" if spec.vector_entry_point is None else " (its natively batched env holds the most)")
    )


def _vector_kwargs(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        raise InvalidEnvArguments(
            f"make_vec(..., vector_kwargs=...) takes a dict of the vectorizer's keyword arguments "
            f"(such as {{'copy': False}}), got {value!r:.80}"
        )
    return dict(value)


def _wrapper_list(value: Any) -> list[Any]:
    if value is None:
        return []
    requested = [value] if isinstance(value, str) else value
    if not isinstance(requested, (list, tuple)):
        raise InvalidEnvArguments(
            "make_vec(..., wrappers=...) takes a list of wrappers (callables taking an env) or wrapper "
            f"set names, got {value!r:.80}"
        )
    for item in requested:
        if not isinstance(item, str) and not callable(item):
            raise InvalidEnvArguments(
                f"make_vec(..., wrappers=...) holds {item!r:.80}, which is neither a callable taking an "
                "env (a wrapper class, or functools.partial of one) nor a wrapper set name"
            )
    return list(requested)


class VectorHost(Host, Protocol):
    """What ``make_vec`` asks of the plugin host: ``make``'s needs and the vectorizers."""

    def vectorizer(self, name: str) -> Any:
        """The factory of vectorizer ``name``."""


def make_vec_env(
    env_id: str | EnvSpec,
    host: VectorHost,
    num_envs: int = 1,
    vectorization_mode: VectorizeMode | str | None = None,
    vector_kwargs: dict[str, Any] | None = None,
    wrappers: Sequence[Callable[[Env[Any, Any]], Any]] | None = None,
    **kwargs: Any,
) -> Any:
    """The implementation of :func:`palaestra.make_vec` (see there)."""
    spec = copy.deepcopy(resolve_spec(env_id, host, vector=True))
    spec_kwargs = spec.kwargs
    spec.kwargs = {}
    num_envs = spec_kwargs.pop("num_envs", num_envs)
    vectorization_mode = spec_kwargs.pop("vectorization_mode", vectorization_mode)
    vector_kwargs = _vector_kwargs(spec_kwargs.pop("vector_kwargs", vector_kwargs))
    wrappers = spec_kwargs.pop("wrappers", wrappers)
    requested = _wrapper_list(wrappers)
    set_names = [w for w in requested if isinstance(w, str)]
    wrapper_fns = [w for w in requested if not isinstance(w, str)]
    sub_spec = spec
    if set_names:
        # Sets become spec wrappers of every sub-env, so the sub-envs' specs record them.
        sub_spec = copy.copy(spec)
        sub_spec.additional_wrappers = (*spec.additional_wrappers, *wrapper_set_specs(set_names, host))
        if vectorization_mode is None:
            vectorization_mode = "sync"
    spec_kwargs.update(kwargs)
    num_envs = check_num_envs(num_envs)
    mode = _mode_name(vectorization_mode, spec)
    # recv()'s batch size is every vectorizer's (see palaestra.vector._recv): set once the env
    # exists, unless a natively batched env takes it itself (ALE's vector interface does).
    batch_size = vector_kwargs.pop("batch_size", None)
    if mode == "vector_entry_point":
        if batch_size is not None and _takes_batch_size(sub_spec):
            spec_kwargs["batch_size"], batch_size = batch_size, None
        try:
            env = _from_vector_entry_point(sub_spec, num_envs, vector_kwargs, wrapper_fns, spec_kwargs)
        except MemoryError as e:
            raise _too_many(num_envs, spec, "its batched arrays do not fit in memory") from e
    else:
        if num_envs > MAX_SUB_ENV_OBJECTS:
            raise _too_many(
                num_envs,
                spec,
                f"a {mode} vector env holds one Python env per sub-env (at most {MAX_SUB_ENV_OBJECTS:,})",
            )
        if spec.entry_point is None:
            raise Error(
                f"Cannot create vectorized environment for {spec.id} because it doesn't have an entry point defined."
            )
        factory = host.vectorizer(mode)
        check_vector_kwargs(factory, vector_kwargs)
        env_fns = [EnvFactory(sub_spec, dict(spec_kwargs), wrapper_fns) for _ in range(num_envs)]
        env = factory(env_fns, **vector_kwargs)
    if batch_size is not None:
        try:
            env.batch_size = batch_size
        except BaseException:
            env.close()
            raise
        vector_kwargs["batch_size"] = batch_size
    _stamp_vector_spec(env, spec, spec_kwargs, num_envs, mode, vector_kwargs, requested)
    return env


def check_vector_kwargs(target: Any, vector_kwargs: dict[str, Any]) -> None:
    """Refuse a ``vector_kwargs`` key that ``target`` (a vectorizer) does not take, before building anything.

    Python's words (a ``TypeError``), then the keys it takes; nothing is checked when ``target``
    is unknown or takes ``**kwargs``.

    Raises:
        InvalidEnvArguments: An unknown key (``batch_size`` is every vectorizer's).
    """
    if target is None:
        return
    try:
        parameters = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):
        return
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return
    takes = {p.name for p in parameters if p.kind is not p.VAR_POSITIONAL} - {"env_fns", "self"}
    for key in vector_kwargs:
        if key not in takes:
            name = getattr(target, "__qualname__", getattr(target, "__name__", repr(target)))
            call = f"{name}.__init__()" if inspect.isclass(target) else f"{name}()"
            raise unknown_keyword(call, key, {*takes, "batch_size"})


def _takes_batch_size(spec: EnvSpec) -> bool:
    """Whether the spec's vector entry point takes ``batch_size`` itself (it says so in a class attribute)."""
    entry_point = spec.vector_entry_point
    creator = entry_point if entry_point is None or callable(entry_point) else load_env_creator(entry_point)
    return bool(getattr(creator, "takes_batch_size", False))


def _stamp_vector_spec(
    env: Any,
    spec: EnvSpec,
    kwargs: dict[str, Any],
    num_envs: int,
    mode: str,
    vector_kwargs: dict[str, Any],
    wrappers: list[Any],
) -> None:
    stamped = copy.deepcopy(spec)
    stamped.kwargs = dict(kwargs)
    if num_envs != 1:
        stamped.kwargs["num_envs"] = num_envs
    stamped.kwargs["vectorization_mode"] = mode
    if vector_kwargs:
        stamped.kwargs["vector_kwargs"] = vector_kwargs
    if wrappers:
        stamped.kwargs["wrappers"] = wrappers
    env.unwrapped.spec = stamped
    if "autoreset_mode" not in env.metadata:
        logger.warn(f"The VectorEnv ({env}) is missing AutoresetMode metadata, metadata={env.metadata}")
    elif not isinstance(env.metadata["autoreset_mode"], AutoresetMode):
        logger.warn(
            f"The VectorEnv ({env}) metadata['autoreset_mode'] is not an instance of AutoresetMode, "
            f"{type(env.metadata['autoreset_mode'])}."
        )
