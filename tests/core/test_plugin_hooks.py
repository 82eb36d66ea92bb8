"""A plugin's hooks called directly give what pluggy's PluginManager gives (pluggy is the spec)."""

from __future__ import annotations

import functools
import importlib
import os
import subprocess
import sys
import types

import pluggy
import pytest

import palaestra
from palaestra._plugins._hook_calls import HOOK_ARGUMENTS, PluginHooks, _pluggy_manager
from palaestra._plugins._registrar import EnvRegistrar, VectorizerRegistrar, WrapperSetRegistrar
from palaestra.error import PluginLoadError
from palaestra.plugin import hookimpl

# Each bundled hook module -> its namespace (the entry point's name).
BUNDLED_HOOK_MODULES = {
    "palaestra._plugins._builtin": "palaestra",
    "palaestra_atari._hooks": "ALE",
    "palaestra_box2d._hooks": "box2d",
    "palaestra_classic_control._hooks": "classic_control",
    "palaestra_gymnasium_hooks": "gymnasium",
    "palaestra_jax._phys2d_hooks": "phys2d",
    "palaestra_jax._tabular_hooks": "tabular",
    "palaestra_mujoco._hooks": "mujoco",
    "palaestra_ray._hooks": "ray",
    "palaestra_toy_text._hooks": "toy_text",
}
REGISTRATION_HOOKS = {
    "palaestra_register_envs": EnvRegistrar,
    "palaestra_register_vectorizers": VectorizerRegistrar,
    "palaestra_register_wrapper_sets": WrapperSetRegistrar,
}


def registered(call, namespace: str) -> dict[str, object]:
    """What each registration hook registers when ``call(hook, registrar)`` runs it."""
    found = {}
    for hook, kind in REGISTRATION_HOOKS.items():
        registrar = kind(namespace, "dist")
        call(hook, registrar)
        found[hook] = (
            getattr(registrar, "specs", None),
            getattr(registrar, "factories", None),
            getattr(registrar, "sets", None),
        )
    return found


def direct(module):
    hooks = PluginHooks(module, "ns")
    return lambda hook, registrar: hooks.call(hook, registrar=registrar)


def through_pluggy(module):
    manager = _pluggy_manager(module, "ns")
    return lambda hook, registrar: getattr(manager.hook, hook)(registrar=registrar)


@pytest.mark.parametrize("name", BUNDLED_HOOK_MODULES)
def test_bundled_plugins_register_the_same_either_way(name):
    module = pytest.importorskip(name, reason=f"{name}'s distribution is not installed")
    assert PluginHooks(module, "ns")._calls is not None, "a bundled plugin should take the direct path"
    namespace = BUNDLED_HOOK_MODULES[name]
    ours, spec = registered(direct(module), namespace), registered(through_pluggy(module), namespace)
    assert ours == spec
    assert any(value != (None, None, None) and value != ([], None, None) for value in ours.values())


def test_every_specification_is_one_the_direct_call_honours_or_goes_to_pluggy():
    """The day a specification gains a pluggy option, its calls must go through pluggy."""
    from palaestra import hookspecs
    from palaestra._plugins import _hook_calls

    for name in HOOK_ARGUMENTS:
        options = getattr(hookspecs, name).palaestra_spec
        assert set(options) == set(_hook_calls.PLAIN_SPEC_OPTIONS), (
            f"{name}'s specification has options the direct call does not know: {set(options)}; "
            "teach _hook_calls what pluggy does with them"
        )
        assert (name in _hook_calls.DIRECT_HOOKS) is (options == _hook_calls.PLAIN_SPEC_OPTIONS)


def test_a_hook_whose_specification_sets_an_option_is_called_by_pluggy(monkeypatch):
    from palaestra._plugins import _hook_calls

    module = types.ModuleType("firstresult_plugin")

    @hookimpl
    def palaestra_register_envs(registrar):
        registrar.register("Only-v0", entry_point="m:E")

    module.palaestra_register_envs = palaestra_register_envs
    assert PluginHooks(module, "ns")._calls is not None  # plain today: called directly
    monkeypatch.setattr(_hook_calls, "DIRECT_HOOKS", _hook_calls.DIRECT_HOOKS - {"palaestra_register_envs"})
    hooks = PluginHooks(module, "ns")
    assert hooks._calls is None and hooks._manager is not None  # pluggy then, with the spec's options
    registrar = EnvRegistrar("ns", "dist")
    hooks.call("palaestra_register_envs", registrar=registrar)
    assert [spec.id for spec in registrar.specs] == ["ns/Only-v0"]


def test_hook_arguments_come_from_the_specifications():
    assert {
        "palaestra_register_envs": {"registrar"},
        "palaestra_register_vectorizers": {"registrar"},
        "palaestra_register_wrapper_sets": {"registrar"},
        "palaestra_resolve_env": {"env_id", "registrar"},
    } == HOOK_ARGUMENTS


def plugin(**functions) -> types.ModuleType:
    module = types.ModuleType("shaped_plugin")
    for name, function in functions.items():
        setattr(module, name, function)
    return module


def resolved(module, runner) -> list[tuple]:
    """The calls a resolve hook recorded when asked for an id by ``runner``."""
    module.calls.clear()
    if runner == "direct":
        PluginHooks(module, "ns").call("palaestra_resolve_env", env_id="ns/A-v0", registrar="r")
    else:
        _pluggy_manager(module, "ns").hook.palaestra_resolve_env(env_id="ns/A-v0", registrar="r")
    return list(module.calls)


def shape_fewer_arguments():
    calls = []

    @hookimpl
    def palaestra_resolve_env(env_id):
        calls.append(("env_id", env_id))

    module = plugin(palaestra_resolve_env=palaestra_resolve_env)
    module.calls = calls
    return module


def shape_arguments_reordered_with_default():
    calls = []

    @hookimpl
    def palaestra_resolve_env(registrar, env_id, extra="kept"):
        calls.append((registrar, env_id, extra))

    module = plugin(palaestra_resolve_env=palaestra_resolve_env)
    module.calls = calls
    return module


def shape_specname():
    calls = []

    @hookimpl(specname="palaestra_resolve_env", tryfirst=True)
    def lookup(env_id, registrar):
        calls.append(("lookup", env_id, registrar))

    module = plugin(lookup=lookup)
    module.calls = calls
    return module


def shape_new_style_wrapper():
    calls = []

    @hookimpl(wrapper=True)
    def palaestra_resolve_env(env_id, registrar):
        calls.append(("before", env_id))
        result = yield
        calls.append(("after", result))
        return result

    module = plugin(palaestra_resolve_env=palaestra_resolve_env)
    module.calls = calls
    return module


def shape_decorated():
    calls = []

    def logged(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            calls.append("logged")
            return function(*args, **kwargs)

        return wrapper

    @hookimpl
    @logged
    def palaestra_resolve_env(env_id, registrar):
        calls.append((env_id, registrar))

    module = plugin(palaestra_resolve_env=palaestra_resolve_env)
    module.calls = calls
    return module


SHAPES = {
    "fewer arguments": (shape_fewer_arguments, True),
    "reordered, with a default": (shape_arguments_reordered_with_default, True),
    "specname": (shape_specname, True),
    "new-style wrapper": (shape_new_style_wrapper, False),
    "decorated with functools.wraps": (shape_decorated, False),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_each_hook_shape_is_called_as_pluggy_calls_it(shape):
    make_module, plain = SHAPES[shape]
    module = make_module()
    assert (PluginHooks(module, "ns")._calls is not None) is plain
    ours = resolved(module, "direct")
    assert ours, "the hook was not called"
    assert ours == resolved(module, "pluggy")


def test_an_argument_the_spec_lacks_is_pluggys_validation_error():
    @hookimpl
    def palaestra_register_envs(registrar, bogus):
        pass

    with pytest.raises(
        pluggy.PluginValidationError, match=r"Argument\(s\) \{'bogus'\} are declared in the hookimpl"
    ):
        PluginHooks(plugin(palaestra_register_envs=palaestra_register_envs), "ns")


def test_a_host_names_the_plugin_whose_hooks_are_invalid():
    module = types.ModuleType("bad_hooks")

    @hookimpl
    def palaestra_register_envs(registrar, bogus):
        pass

    module.palaestra_register_envs = palaestra_register_envs
    host = palaestra.PluginHost(autoload=False)
    with pytest.raises(PluginLoadError, match=r"(?s)'bad'.*its hook implementations are invalid.*bogus"):
        host.add_plugin(module, namespace="bad")


def test_a_misspelt_hook_is_never_called_and_is_named():
    calls = []

    @hookimpl
    def palaestra_register_env(registrar):  # no trailing s
        calls.append(registrar)

    module = plugin(palaestra_register_env=palaestra_register_env)
    hooks = PluginHooks(module, "ns")
    assert hooks.names == {"palaestra_register_env"}
    for hook in REGISTRATION_HOOKS:
        hooks.call(hook, registrar="r")
    assert calls == []
    host = palaestra.PluginHost(autoload=False)
    host.add_plugin(module, namespace="typo")
    assert "palaestra_register_env is not a hook name; did you mean palaestra_register_envs?" in (
        host.hints.hookless_hint("typo") or ""
    )


def test_unmarked_functions_are_not_hooks():
    def palaestra_register_envs(registrar):
        raise AssertionError("not marked, never called")

    hooks = PluginHooks(plugin(palaestra_register_envs=palaestra_register_envs), "ns")
    assert hooks.names == frozenset()
    hooks.call("palaestra_register_envs", registrar="r")


# What a first make has no use for, each costing a first step half a millisecond or more
# (benchmarks/bench_lazy_seams.py): each was on that path once and cost every process.
NOT_ON_THE_MAKE_PATH = (
    "pluggy",  # hook functions are called directly (3.1 ms)
    "tempfile",  # SDL's runtime folder, made with the first window (3.0 ms)
    "difflib",  # suggestions, on error paths (1.2 ms)
    "palaestra._discovery._compat",  # version matching, when discovery scans (0.75 ms of regexes)
    "palaestra._discovery._suites",  # the published suites, for hints and listings (with _not_found 1.7 ms)
    "palaestra._env._wrapper_kinds",  # observation, reward and action wrappers
    "palaestra._registry._not_found",  # what a failed lookup says
    "palaestra_classic_control._drawing",  # with the first frame
)


def test_making_an_env_imports_nothing_it_does_not_use(tmp_path):
    importlib.import_module("palaestra_classic_control")
    env = {**os.environ, "PALAESTRA_CACHE_DIR": str(tmp_path)}
    warm = subprocess.run(
        [sys.executable, "-c", "import palaestra; palaestra.make('CartPole-v1')"], env=env, timeout=120
    )
    assert warm.returncode == 0  # this first process scanned and wrote the discovery cache
    code = (
        "import sys, palaestra\n"
        "env = palaestra.make('CartPole-v1'); env.reset(seed=0); env.step(0)\n"
        f"print(sorted(m for m in {NOT_ON_THE_MAKE_PATH!r} if m in sys.modules))\n"
        "loaded = palaestra.get_host().loader.loaded\n"
        "before = 'palaestra' in loaded\n"
        "envs = palaestra.make_vec('CartPole-v1', 2, vectorization_mode='sync', wrappers='normalize')\n"
        "print(type(envs.unwrapped).__name__, before, 'palaestra' in loaded)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
    loaded, vectorized = result.stdout.strip().splitlines()
    assert loaded == "[]"
    assert vectorized == "SyncVectorEnv False True"  # the built-in plugin loads when first asked
