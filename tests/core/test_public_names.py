"""Every public name of Gymnasium 1.4.0 exists in palaestra under the same module path.

"Public" is a module's ``__all__`` where Gymnasium defines one, else the functions,
classes and constants that the module itself defines (not what it imports).
"""

import importlib
import importlib.util
import inspect
from typing import TypeVar

import pytest

MODULES = [
    "",
    ".error",
    ".envs",
    ".envs.registration",
    ".experimental.functional",
    ".logger",
    ".spaces",
    ".spaces.utils",
    ".utils",
    ".utils.env_checker",
    ".utils.env_match",
    ".utils.passive_env_checker",
    ".utils.performance",
    ".utils.play",
    ".utils.save_video",
    ".utils.seeding",
    ".utils.step_api_compatibility",
    ".vector",
    ".vector.utils",
    ".wrappers",
    ".wrappers.utils",
    ".wrappers.vector",
]


# Gymnasium defines these only when torch imports (its lazy ``__getattr__`` raises otherwise).
TORCH_DEFINED = {
    ".wrappers": {"JaxToTorch", "NumpyToTorch"},
    ".wrappers.vector": {"JaxToTorch", "NumpyToTorch"},
}
HAVE_TORCH = importlib.util.find_spec("torch") is not None
try:  # found without importing it (jax starts threads, which make later forks unsafe)
    HAVE_JAX = importlib.util.find_spec("jax") is not None
except ImportError:
    HAVE_JAX = False
# Gymnasium defines these only when jax imports (accessing them imports it).
JAX_DEFINED = {
    ".wrappers": {"JaxToNumpy", "JaxToTorch", "NumpyToJax"},
    ".wrappers.vector": {"JaxToNumpy", "JaxToTorch", "NumpyToJax"},
}


def public_names(module):
    if hasattr(module, "__all__"):
        return set(module.__all__)
    names = set()
    for name, value in vars(module).items():
        if name.startswith("_") or name == "TYPE_CHECKING" or inspect.ismodule(value):
            continue
        if isinstance(value, TypeVar):  # typing helpers, not API
            continue
        defined_in = getattr(value, "__module__", module.__name__)
        if defined_in == module.__name__:
            names.add(name)
    return names


@pytest.mark.parametrize("suffix", MODULES)
def test_gymnasium_public_names_exist(suffix):
    reference = importlib.import_module("gymnasium" + suffix)
    ours = importlib.import_module("palaestra" + suffix)
    missing = sorted(n for n in public_names(reference) if not hasattr(ours, n))
    assert not missing, f"palaestra{suffix} lacks {missing}"


def _signature(obj):
    try:
        parameters = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):  # builtins without a signature
        return None
    listed = []
    for p in parameters:
        default = "-" if p.default is inspect.Parameter.empty else repr(p.default)
        if "0x" in default or len(default) > 60:  # a function or registry object: not comparable
            default = "<object>"
        listed.append((p.name, p.kind, default))
    return listed


def _callables(reference, ours, names):
    """Pairs to compare, as (label, reference callable, our callable).

    Each public function and class, and the public methods (and ``__init__``) that a
    reference class defines itself.
    """
    for name in sorted(names):
        a, b = getattr(reference, name), getattr(ours, name, None)
        if not callable(a) or b is None:
            continue
        yield name, a, b
        if inspect.isclass(a):
            for method, value in vars(a).items():
                public = method == "__init__" or not method.startswith("_")
                if public and inspect.isfunction(value) and hasattr(b, method):
                    yield f"{name}.{method}", value, getattr(b, method)


def signature_mismatches(suffix, names=None):
    """Where palaestra's signatures do not extend Gymnasium's, among ``names`` (default: all public)."""
    reference = importlib.import_module("gymnasium" + suffix)
    ours = importlib.import_module("palaestra" + suffix)
    if names is None:
        names = public_names(reference) - TORCH_DEFINED.get(suffix, set())
        if not HAVE_JAX:
            names -= JAX_DEFINED.get(suffix, set())
    mismatches = []
    for label, a, b in _callables(reference, ours, names):
        theirs, mine = _signature(a), _signature(b)
        if theirs is None or mine is None:
            continue
        var_kw = inspect.Parameter.VAR_KEYWORD
        theirs_fixed = [p for p in theirs if p[1] is not var_kw]
        mine_fixed = [p for p in mine if p[1] is not var_kw]
        prefix = mine_fixed[: len(theirs_fixed)]
        same = len(prefix) == len(theirs_fixed) and all(
            t[:2] == m[:2] and (t[2] == m[2] or t[2] == "<object>")
            for t, m in zip(theirs_fixed, prefix, strict=True)
        )
        if not same or (len(theirs) != len(theirs_fixed) and len(mine) == len(mine_fixed)):
            mismatches.append(f"{label}: Gymnasium {theirs} vs palaestra {mine}")
    return mismatches


@pytest.mark.parametrize("suffix", MODULES)
def test_signatures_extend_gymnasiums(suffix):
    """Same parameters in the same order, kinds and defaults; palaestra may add more after them.

    Without jax, Gymnasium's jax conversion wrappers cannot be loaded to compare (checked when jax is installed).
    """
    mismatches = signature_mismatches(suffix)
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.extras
@pytest.mark.skipif(
    not HAVE_TORCH, reason="Gymnasium defines its torch conversion wrappers only with torch installed"
)
@pytest.mark.parametrize(("suffix", "names"), sorted(TORCH_DEFINED.items()))
def test_torch_wrapper_signatures_extend_gymnasiums(suffix, names):
    mismatches = signature_mismatches(suffix, names)
    assert not mismatches, "\n".join(mismatches)


# -- each lazy face writes a name once: its table; the type checkers' imports are held to it --

LAZY_FACES = ["palaestra", "palaestra.plugin", "palaestra.spaces", "palaestra.wrappers"]


def face_parts(module_name):
    """(names re-exported for type checkers -> their module, the lazy table, other public names)."""
    import ast

    module = importlib.import_module(module_name)
    tree = ast.parse(inspect.getsource(module))
    typed, annotated = {}, set()
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for item in node.body:
                if isinstance(item, ast.ImportFrom):
                    for alias in item.names:
                        if alias.asname == alias.name:  # "X as X": an explicit re-export
                            typed[alias.name] = f"{item.module}.{alias.name}"
                elif isinstance(item, ast.AnnAssign):
                    annotated.add(item.target.id)
    table = {name: f"{where}.{name}" for name, where in module._LAZY_NAMES.items()}
    return module, typed, table, annotated


@pytest.mark.parametrize("module_name", LAZY_FACES)
def test_a_lazy_face_names_each_export_once(module_name):
    module, typed, table, annotated = face_parts(module_name)
    submodules = set(getattr(module, "_SUBMODULES", ()))
    # Every name in the table is known to type checkers, from the same module, and nothing more.
    missing_for_typing = sorted(set(table) - set(typed))
    assert not missing_for_typing, f"{module_name}: add 'from ... import X as X' under TYPE_CHECKING"
    submodule_names = {name for name, where in typed.items() if where == f"{module_name}.{name}"}
    assert submodule_names == submodules, (
        f"{module_name}: submodules typed {submodule_names}, lazy {submodules}"
    )
    extra = sorted(set(typed) - set(table) - submodules)
    assert not extra, f"{module_name}: {extra} are typed but not in the lazy table"
    for name in table:
        # The typed import may go through a public re-export (palaestra.spaces.Space): same object.
        typed_module, _, typed_name = typed[name].rpartition(".")
        assert getattr(importlib.import_module(typed_module), typed_name) is getattr(module, name), name
    # __all__ is derived from the table, not written again.
    assert sorted(module.__all__) == sorted({*table, *submodules, *annotated}), module_name
    assert len(module.__all__) == len(set(module.__all__))


def test_the_face_check_notices_a_name_missing_from_the_table(monkeypatch):
    import palaestra.spaces

    monkeypatch.delitem(palaestra.spaces._LAZY_NAMES, "Box")
    with pytest.raises(AssertionError, match=r"\['Box'\] are typed but not in the lazy table"):
        test_a_lazy_face_names_each_export_once("palaestra.spaces")
