"""The hooks a palaestra plugin can implement.

A plugin is a module named by an entry point in the ``palaestra.plugins`` group; the
entry-point *name* is the plugin's namespace. The module must be cheap to import (no
simulators, renderers or ML frameworks) because it is imported to learn what the plugin
offers; heavy code is named by ``"module:attr"`` strings and imported only when used.

Implement a hook by decorating a module-level function with :data:`palaestra.hookimpl`::

    from palaestra import hookimpl

    @hookimpl
    def palaestra_register_envs(registrar):
        registrar.register("Grid-v0", entry_point="my_pkg.grid:GridEnv", max_episode_steps=200)

Each hook of a plugin is called once, when the plugin is first needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palaestra._base._markers import hookspec

if TYPE_CHECKING:
    from palaestra._plugins._registrar import EnvRegistrar, VectorizerRegistrar, WrapperSetRegistrar

__all__ = [
    "palaestra_register_envs",
    "palaestra_register_vectorizers",
    "palaestra_register_wrapper_sets",
    "palaestra_resolve_env",
]


# -- Registration: called once when the plugin is loaded ------------------------------


@hookspec
def palaestra_register_envs(registrar: EnvRegistrar) -> None:
    """Register the plugin's environments.

    Called once per plugin, when an id in the plugin's namespace is first looked up (or,
    for plugins with default-namespace ids, when an un-namespaced id is not yet known).
    Not first-result and not historic: every implementation in the plugin module runs.

    Args:
        registrar: Call ``registrar.register(id, entry_point=..., **fields)`` once per
            environment. It accepts the fields of :func:`palaestra.register`
            (``max_episode_steps``, ``reward_threshold``, ``kwargs``,
            ``vector_entry_point``, ...). An id without a namespace is placed in the
            plugin's namespace (``"Grid-v0"`` becomes ``"ns/Grid-v0"``); pass
            ``default_namespace=True`` to register it without a namespace, as the
            published suites do so ``make("CartPole-v1")`` works.

    Returns:
        Nothing; return values are ignored. Registrations take effect only if the hook
        returns normally, so a hook that raises registers nothing.

    An implementation must not import heavy dependencies or construct environments:
    register ``"module:Class"`` strings and let ``make`` import them on use.
    """


@hookspec
def palaestra_register_vectorizers(registrar: VectorizerRegistrar) -> None:
    """Register named vectorizers that ``make_vec`` can use.

    Called once per plugin, together with :func:`palaestra_register_envs`, when the
    plugin is first needed; ``make_vec(id, vectorization_mode="ns/name")`` loads plugin
    ``ns`` only. Not first-result and not historic: every implementation runs. The core's
    own ``"sync"`` and ``"async"`` vectorizers are registered through this hook by the
    built-in plugin.

    Args:
        registrar: Call ``registrar.register(name, factory)`` once per vectorizer, where
            ``factory`` is a ``"module:callable"`` string, imported on first use. The
            callable is called as ``factory(env_fns, **vector_kwargs)`` with a list of
            picklable zero-argument env builders, and must return a
            :class:`palaestra.vector.VectorEnv` whose ``metadata["autoreset_mode"]`` is set.
            A plain ``name`` becomes ``"ns/name"``.

    Returns:
        Nothing; return values are ignored. A hook that raises registers nothing.

    An implementation must not import the engine behind the vectorizer (Ray, ...): the
    factory string defers that to the first ``make_vec`` call that asks for it.
    """


@hookspec
def palaestra_register_wrapper_sets(registrar: WrapperSetRegistrar) -> None:
    """Register named, ordered lists of wrappers that ``make`` and ``make_vec`` can apply.

    Called once per plugin, together with the other registration hooks, when the plugin
    is first needed; ``make(id, wrappers="ns/name")`` loads plugin ``ns`` only. Not
    first-result and not historic: every implementation runs. The core's own sets
    (``"atari"``, ``"normalize"``) are registered through this hook by the built-in plugin.

    Args:
        registrar: Call ``registrar.register(name, wrappers)`` once per set, where
            ``wrappers`` lists the wrappers innermost first, each as
            ``("module:Class", {kwargs})``, a bare ``"module:Class"`` or a
            :class:`palaestra.WrapperSpec`. The classes are imported only when a set is
            applied; they are called as ``Class(env, **kwargs)`` and should record their
            arguments (:class:`palaestra.utils.RecordConstructorArgs`) so that
            ``make(env.spec)`` rebuilds them. A plain ``name`` becomes ``"ns/name"``.

    Returns:
        Nothing; return values are ignored. A hook that raises registers nothing.
    """


# -- Resolution: called for each unknown id in the plugin's namespace ------------------


@hookspec
def palaestra_resolve_env(env_id: str, registrar: EnvRegistrar) -> None:
    """Describe, on demand, an id of the plugin's namespace that nobody registered.

    For plugins whose ids cannot be listed up front because they come from elsewhere (a
    bridge to another library's registry, a family of generated tasks). Called when an id
    whose namespace starts with the plugin's (``ns/...`` or a nested ``ns/sub/...``) is
    looked up after the plugin's :func:`palaestra_register_envs` ran and the id is still
    unknown; called again for each such id, never for registered ones. Only the owning
    plugin's implementation is called. Not first-result and not historic.

    Args:
        env_id: The id as asked for, without any ``module:`` prefix (its version may be
            missing, e.g. ``"ns/sub/Task"``).
        registrar: The same registrar :func:`palaestra_register_envs` gets; register the id
            (and, for an unversioned one, its versions) there. Ids may use nested
            namespaces under the plugin's own (``ns/sub/Task-v0``).

    Returns:
        Nothing; return values are ignored. Registering nothing lets ``make`` raise its
        usual unknown-id error; raise your own (a :mod:`palaestra.error` type naming the
        id and what to install) when you know better why the id cannot exist.

    An implementation may import what it needs to answer (it runs only when such an id is
    asked for), but must not construct environments.
    """
