"""Layer 10, the API: the module-level functions (``make``, ``register``, ``spec``, ...).

They act on the default plugin host.
"""

from __future__ import annotations

import contextlib
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from palaestra import logger
from palaestra._base._arguments import unknown_keyword
from palaestra._base._ids import get_env_id, parse_env_id
from palaestra._env._core import Env
from palaestra._env._spec import REGISTRATION_FIELDS, EnvSpec, WrapperSpec
from palaestra._plugins._host import get_host
from palaestra._registry._make import make_env
from palaestra._registry._registry import Registry
from palaestra.error import InvalidEnvId, UnregisteredEnv

__all__ = [
    "find_highest_version",
    "make",
    "make_vec",
    "namespace",
    "pprint_registry",
    "register",
    "register_envs",
    "spec",
]


def _registry() -> Registry:
    return get_host().registry


def register(
    id: str,
    entry_point: Any = None,
    reward_threshold: float | None = None,
    nondeterministic: bool = False,
    max_episode_steps: int | None = None,
    order_enforce: bool = True,
    disable_env_checker: bool = False,
    additional_wrappers: tuple[WrapperSpec, ...] = (),
    vector_entry_point: Any = None,
    kwargs: dict[str, Any] | None = None,
    apply_api_compatibility: bool = False,
    **unknown: Any,
) -> None:
    """Register an environment so ``make(id)`` can build it.

    Args:
        id: ``[namespace/]Name[-vN]``. Inside :func:`namespace`, the namespace is replaced.
        entry_point: ``"module:Class"`` or a callable returning the env.
        reward_threshold: Return at which the task counts as solved.
        nondeterministic: Whether equal seeds and actions can still diverge.
        max_episode_steps: Steps before truncation (``TimeLimit``).
        order_enforce: Add ``OrderEnforcing``.
        disable_env_checker: Skip ``PassiveEnvChecker``.
        additional_wrappers: Wrappers applied after the time limit.
        vector_entry_point: ``"module:Class"`` of a natively batched version.
        kwargs: Constructor arguments.
        apply_api_compatibility: ``entry_point`` builds an env with the Gym 0.21 API
            (``seed()``, 4-tuple ``step``, ``render(mode=...)``); ``make`` adapts it with
            :class:`palaestra.wrappers.compatibility.EnvCompatibility`.
        **unknown: None: a keyword not above (a misspelt field) is refused, naming the fields.

    Any entry point registers, as in Gymnasium; ``make`` refuses one that is not a callable or
    a ``"module:attr"`` string.

    Raises:
        ValueError: Neither ``entry_point`` nor ``vector_entry_point`` is given.
        RegistrationError: The id mixes versioned and unversioned forms of one name, or a
            field has a value ``make`` cannot use (``kwargs`` not a dict, ...).
        InvalidEnvArguments: A keyword ``register`` does not take (a ``TypeError``, in
            Python's words, then the fields it takes).
    """
    if unknown:
        raise unknown_keyword("register()", next(iter(unknown)), ("id", "entry_point", *REGISTRATION_FIELDS))
    if entry_point is None and vector_entry_point is None:
        raise ValueError("Either `entry_point` or `vector_entry_point` (or both) must be provided")
    host = get_host()
    ns, name, version = parse_env_id(id)
    kwargs = {} if kwargs is None else kwargs
    if host.current_namespace is not None:
        if kwargs.get("namespace") not in (None, host.current_namespace):
            logger.warn(
                f"Custom namespace `{kwargs.get('namespace')}` is being overridden by namespace "
                f"`{host.current_namespace}`."
            )
        ns = host.current_namespace
    # A user's id must not be overwritten by loading its plugin later: load that plugin first.
    with contextlib.suppress(Exception):
        if ns is None:
            host.loader.load_owner(name)
        else:
            host.loader.load_namespace(ns)
    new_spec = EnvSpec(
        id=get_env_id(ns, name, version),
        entry_point=entry_point,
        reward_threshold=reward_threshold,
        nondeterministic=nondeterministic,
        max_episode_steps=max_episode_steps,
        order_enforce=order_enforce,
        disable_env_checker=disable_env_checker,
        kwargs=kwargs,
        additional_wrappers=additional_wrappers,
        vector_entry_point=vector_entry_point,
        apply_api_compatibility=apply_api_compatibility,
    )
    host.registry.add(new_spec.check(entry_points=False))


def make(
    id: str | EnvSpec,
    max_episode_steps: int | None = None,
    disable_env_checker: bool | None = None,
    *,
    wrappers: str | Sequence[str] | None = None,
    **kwargs: Any,
) -> Env[Any, Any]:
    """Build a registered environment with its standard wrappers.

    Wrappers, innermost first: ``PassiveEnvChecker``, ``OrderEnforcing``, ``TimeLimit``,
    the spec's additional wrappers, then ``RenderCollection``/``HumanRendering`` when
    the requested render mode needs them.

    Args:
        id: An id (``"[module:][ns/]Name[-vN]"``) or an :class:`EnvSpec`. ``ns/...`` loads
            only the plugin owning ``ns``.
        max_episode_steps: Overrides the spec's limit; ``-1`` removes ``TimeLimit``.
        disable_env_checker: Overrides the spec's ``disable_env_checker``.
        wrappers: A wrapper set name (``"atari"``, ``"ns/name"``) or a list of them; their
            wrappers go on top of the spec's and are recorded in ``env.spec`` so
            ``make(env.spec)`` rebuilds them. ``ns/...`` loads only plugin ``ns``.
        **kwargs: Constructor arguments, overriding the spec's.

    Raises:
        WrapperSetNotFound: ``wrappers`` names an unknown set.
        NamespaceNotFound, NameNotFound, VersionNotFound, DeprecatedEnv: Unknown id.
        MissingSuiteError: The id belongs to a published suite that is not installed.
        PluginLoadError: The plugin owning the id is broken.
        InvalidEnvArguments: The constructor rejected ``kwargs``.
    """
    return make_env(id, get_host(), max_episode_steps, disable_env_checker, wrappers, **kwargs)


def make_vec(
    id: str | EnvSpec,
    num_envs: int = 1,
    vectorization_mode: Any = None,
    vector_kwargs: dict[str, Any] | None = None,
    wrappers: Any = None,
    **kwargs: Any,
) -> Any:
    """Build a vector environment of ``num_envs`` copies of a registered env.

    Args:
        id: An id or :class:`EnvSpec`.
        num_envs: Number of sub-environments.
        vectorization_mode: ``None`` (the spec's ``vector_entry_point`` if it has one, else
            ``"sync"``), ``"sync"``, ``"async"``, ``"vector_entry_point"``, a
            :class:`VectorizeMode`, or a plugin vectorizer ``"ns/name"`` (loads only plugin
            ``ns``).
        vector_kwargs: Arguments of the vectorizer (e.g. ``{"autoreset_mode": ...}``).
        wrappers: Callables applied to each sub-env (not with ``vector_entry_point``), and/or
            wrapper set names (a string or strings in the list); with set names and no
            ``vectorization_mode``, ``"sync"`` is used.
        **kwargs: Constructor arguments of the sub-environments.

    Raises:
        VectorizerNotFound: Unknown ``vectorization_mode``.
        WrapperSetNotFound: ``wrappers`` names an unknown set.
        Error: ``vector_entry_point`` mode combined with wrappers or vector_kwargs, or no
            entry point for the chosen mode.
    """
    # start-up: the vector package is not make()'s cost (38 ms, 72 modules)
    from palaestra._registry._make_vec import make_vec_env

    return make_vec_env(id, get_host(), num_envs, vectorization_mode, vector_kwargs, wrappers, **kwargs)


def spec(env_id: str) -> EnvSpec:
    """The registered spec of ``env_id`` (exact id, no version resolution).

    Raises:
        NamespaceNotFound, NameNotFound, VersionNotFound, DeprecatedEnv: Unknown id.
    """
    if not isinstance(env_id, str):  # Gymnasium's words (its regex's)
        raise InvalidEnvId(
            f"expected string or bytes-like object, got {type(env_id).__name__!r}; pass an env id "
            "string such as 'CartPole-v1'"
        )
    registry = _registry()
    found = registry.get(env_id)
    if found is None:
        ns, name, version = parse_env_id(env_id)
        registry.check_version_exists(ns, name, version)
        raise UnregisteredEnv(f"No registered env with id: {env_id}")
    return found


def find_highest_version(ns: str | None, name: str) -> int | None:
    """The highest registered version of ``ns/name``, or ``None``."""
    registry = _registry()
    registry.get(get_env_id(ns, name, None))  # loads the owning plugin
    return registry.find_highest_version(ns, name)


def namespace(ns: str) -> contextlib.AbstractContextManager[None]:
    """Context manager: :func:`register` calls inside it use namespace ``ns``."""
    return get_host().namespace(ns)


def register_envs(env_module: ModuleType) -> None:
    """Do nothing; lets linters see an env-registering import as used."""


def _namespace_label(env_spec: EnvSpec) -> str:
    """Gymnasium's group for a spec: its namespace, else a part of its entry point's module.

    ``gymnasium.envs.mujoco.ant_v4:AntEnv`` groups under ``mujoco``, ``shimmy.atari_env`` under
    ``atari_env``, a callable under ``None``; palaestra's suites (``palaestra_mujoco...``) under
    the suite's name.
    """
    if env_spec.namespace is not None:
        return env_spec.namespace
    if not isinstance(env_spec.entry_point, str):
        return "None"
    parts = re.sub(r":\w+", "", env_spec.entry_point).split(".")
    if parts[0].startswith("palaestra_"):
        return parts[0].removeprefix("palaestra_")
    if len(parts) >= 3:
        return parts[2]
    return parts[1] if len(parts) == 2 else env_spec.name


def _labelled_ids(specs: Mapping[str, EnvSpec] | None) -> list[tuple[str, str]]:
    """``(group label, id)`` of every id; the default registry's come from declarations (no import)."""
    registry = _registry()
    if specs is not None and specs is not registry:
        return [(_namespace_label(env_spec), env_spec.id) for env_spec in specs.values()]
    loaded = registry.loaded()
    return [
        (label or _namespace_label(loaded[env_id]), env_id) for env_id, label in registry.groups().items()
    ]


# Gymnasium prints its suites in this order; other groups follow alphabetically.
_SUITE_ORDER = ("classic_control", "phys2d", "box2d", "toy_text", "tabular", "mujoco")


def _group_order(group: tuple[str, list[str]]) -> tuple[int, str]:
    label = group[0]
    return (_SUITE_ORDER.index(label) if label in _SUITE_ORDER else len(_SUITE_ORDER), label)


def pprint_registry(
    print_registry: Mapping[str, EnvSpec] | None = None,
    *,
    num_cols: int = 3,
    exclude_namespaces: list[str] | None = None,
    disable_print: bool = False,
) -> str | None:
    """Print every registered id, grouped by namespace, or by suite for un-namespaced ids.

    A suite is the plugin package providing the id (``palaestra_mujoco`` -> ``mujoco``); the
    registry's groups come in Gymnasium's order (classic_control, phys2d, box2d, toy_text,
    tabular, mujoco), then the others alphabetically; a given mapping's in its own order.
    The layout is Gymnasium's, character for character.

    Args:
        print_registry: The specs to print; the whole registry by default.
        num_cols: Ids per row.
        exclude_namespaces: Groups to leave out.
        disable_print: Return the text instead of printing.
    """
    groups: dict[str, list[str]] = defaultdict(list)
    for label, env_id in _labelled_ids(print_registry):
        groups[label].append(env_id)
    # Gymnasium pads each id to the longest env *name* (so a namespaced id can overrun it) and
    # prints a given mapping's groups in the order they first appear in it.
    width = max((len(parse_env_id(env_id)[1]) for ids in groups.values() for env_id in ids), default=0)
    custom = print_registry is not None and print_registry is not _registry()
    ordered = groups.items() if custom else sorted(groups.items(), key=_group_order)
    blocks = []
    for label, ids in ordered:
        if exclude_namespaces and label in exclude_namespaces:
            continue
        rows = [sorted(ids)[i : i + num_cols] for i in range(0, len(ids), num_cols)]
        body = "\n".join(" ".join(i.ljust(width) for i in row).rstrip() for row in rows)
        blocks.append(f"===== {label} =====\n{body}")
    output = "\n".join(blocks)
    if disable_print:
        return output
    print(output)
    return None
