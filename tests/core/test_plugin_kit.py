"""The plugin kit is what plugins build on: first-party plugins use no private core name."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import palaestra
from palaestra import plugin

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "plugins").glob("*/src/**/*.py"))


# The one door of the core a plugin goes through: the kit, the spaces, the errors, and the
# Env/Wrapper API of the package face. Exactly these; anything else a plugin needs goes into
# the kit (palaestra.plugin) first.
DOOR_MODULES = {"palaestra.plugin", "palaestra.spaces", "palaestra.error"}
ENV_API = {"Env", "Wrapper", "ObservationWrapper", "ActionWrapper", "RewardWrapper", "spaces", "error"}
# The Gymnasium bridge and EnvPool's interface translate the user-facing API itself (make, the
# registry, vector envs, Gymnasium's registration helpers), so they may also use that API's
# public faces.
BRIDGE = "gymnasium"  # its folder under plugins/
CLIENT_LAYERS = {BRIDGE, "envpool"}
USER_API_MODULES = {"palaestra", "palaestra.envs.registration", "palaestra.vector"}


def imports_outside_the_door(path, plugin):
    """Each core import of one plugin file that does not go through the door, as 'module.name'."""
    allowed_modules = DOOR_MODULES | (USER_API_MODULES if plugin in CLIENT_LAYERS else set())
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "palaestra":
            if node.module in allowed_modules:
                continue
            if node.module == "palaestra":
                found += [f"palaestra.{a.name}" for a in node.names if a.name not in ENV_API]
            else:
                found += [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "palaestra" and alias.name not in allowed_modules:
                    found.append(alias.name)
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT / "plugins")))
def test_first_party_plugins_go_through_the_one_door(path):
    plugin_folder = path.relative_to(ROOT / "plugins").parts[0]
    assert imports_outside_the_door(path, plugin_folder) == [], (
        "import it from palaestra.plugin (the kit; add it there if missing), palaestra.spaces, "
        "palaestra.error, or the Env/Wrapper names of palaestra"
    )


def test_the_door_check_notices_other_paths(tmp_path):
    source = tmp_path / "bad.py"
    source.write_text(
        "from palaestra.vector._info import add_info\n"
        "from palaestra._env._canvas import CanvasRendering\n"
        "from palaestra import Env, hookimpl\n"
        "import palaestra.vector\n"
        "from palaestra.plugin import invalid_action\n"
        "from palaestra import spaces\n"
        "def later():\n    from palaestra.vector import AutoresetMode\n"
    )
    assert imports_outside_the_door(source, "mine") == [
        "palaestra.vector._info.add_info",
        "palaestra._env._canvas.CanvasRendering",
        "palaestra.hookimpl",
        "palaestra.vector",
        "palaestra.vector.AutoresetMode",
    ]
    assert imports_outside_the_door(source, BRIDGE) == [  # the bridge may use the user API too
        "palaestra.vector._info.add_info",
        "palaestra._env._canvas.CanvasRendering",
    ]


def test_every_kit_name_resolves_and_is_documented():
    for name in plugin.__all__:
        value = getattr(plugin, name)
        assert value is not None, name
        assert name in plugin.__doc__, f"{name} is not named in the kit's docstring"
    assert plugin.EnvRegistrar is palaestra.plugin.EnvRegistrar
    assert set(dir(plugin)) >= set(plugin.__all__)
    with pytest.raises(AttributeError):
        plugin.no_such_name  # noqa: B018


def test_importing_the_kit_for_annotations_is_cheap():
    code = "import sys, palaestra.plugin; print(sorted(m for m in ('numpy', 'pygame', 'pluggy') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "[]", result.stderr


def test_hook_implementations_are_typed():
    for path in sorted((ROOT / "plugins").glob("*/src/**/*hooks*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("palaestra_"):
                assert node.returns is not None and all(a.annotation is not None for a in node.args.args), (
                    f"{path.name}:{node.name} is not fully typed"
                )


def test_lazy_exports_import_a_name_s_module_on_first_use_and_keep_it():
    namespace = {"__name__": "palaestra.spaces"}
    module_getattr = plugin.lazy_exports(namespace, {"Box": "_box"})
    assert "Box" not in namespace
    box = module_getattr("Box")
    assert box is sys.modules["palaestra.spaces._box"].Box
    assert namespace["Box"] is box  # later lookups never reach __getattr__ again
    with pytest.raises(AttributeError, match="module 'palaestra.spaces' has no attribute 'Bogus'"):
        module_getattr("Bogus")


def test_register_table_writes_entry_points_relative_to_the_package():
    registrar = plugin.EnvRegistrar("grid", "grid-envs")
    registrar.register_table(
        "grid_envs",
        {
            "Walk-v0": {"entry_point": "walk:WalkEnv", "vector_entry_point": "walk_vector:WalkVectorEnv"},
            "Walk-v1": {"entry_point": "walk:WalkEnv", "max_episode_steps": 50, "kwargs": {"size": 16}},
            "Batched-v0": {"vector_entry_point": "walk_vector:WalkVectorEnv"},
        },
    )
    walk0, walk1, batched = registrar.specs
    assert (walk0.id, walk0.entry_point, walk0.vector_entry_point) == (
        "grid/Walk-v0",
        "grid_envs.walk:WalkEnv",
        "grid_envs.walk_vector:WalkVectorEnv",
    )
    assert (walk1.id, walk1.max_episode_steps, walk1.kwargs) == ("grid/Walk-v1", 50, {"size": 16})
    assert (batched.entry_point, batched.vector_entry_point) == (None, "grid_envs.walk_vector:WalkVectorEnv")


def test_register_table_in_the_default_namespace_and_its_errors_name_the_id():
    registrar = plugin.EnvRegistrar("grid", "grid-envs")
    registrar.register_table(
        "grid_envs", {"Walk-v0": {"entry_point": "walk:WalkEnv"}}, default_namespace=True
    )
    assert registrar.specs[0].id == "Walk-v0"
    with pytest.raises(palaestra.error.RegistrationError, match=r"'Run-v0' with unknown fields \['speed'\]"):
        registrar.register_table("grid_envs", {"Run-v0": {"entry_point": "run:RunEnv", "speed": 2}})
    with pytest.raises(palaestra.error.RegistrationError, match="'Stop-v0' without an entry_point"):
        registrar.register_table("grid_envs", {"Stop-v0": {"max_episode_steps": 5}})


def _first_statement_reads(function: ast.FunctionDef, call: ast.Call) -> bool:
    """Whether ``call`` is ``constructor_arguments(locals())`` inside the first statement of ``function``."""
    first = function.body[0]
    reader = {"constructor_arguments", "_arguments"}
    return any(
        isinstance(node, ast.Call) and getattr(node.func, "id", None) in reader and call in node.args
        for node in ast.walk(first)
    )


def test_no_constructor_hands_on_its_locals():
    """A constructor names what it passes on: ``locals()`` would hide what it takes.

    The one use allowed reads a constructor's own parameters back, first thing, through
    ``constructor_arguments(locals())``: then they are exactly its signature's, stated once there.
    """
    sources = sorted((ROOT / "core" / "src").rglob("*.py")) + SOURCES
    found = []
    for path in sources:
        tree = ast.parse(path.read_text())
        functions = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "locals"):
                continue
            owners = [f for f in functions if f.name == "__init__" and any(n is node for n in ast.walk(f))]
            if not (owners and _first_statement_reads(owners[0], node)):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_prepare_sdl_environment_gives_sdl_a_private_runtime_dir_only_where_none_is_set(
    monkeypatch, tmp_path
):
    import os
    import stat

    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    plugin.prepare_sdl_environment()
    folder = os.environ.get("XDG_RUNTIME_DIR")
    if not sys.platform.startswith("linux"):
        assert folder is None
        return
    assert folder == str(tmp_path / f"palaestra-runtime-{os.getuid()}")
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/1000")
    plugin.prepare_sdl_environment()
    assert os.environ["XDG_RUNTIME_DIR"] == "/run/user/1000"  # a session's own is left alone
