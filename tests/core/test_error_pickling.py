"""Every palaestra error crosses processes whole, and each is one class whichever thread asks first."""

import ast
import importlib
import inspect
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import palaestra.error as errors

FIELDS = {
    "indices": (1, 2),
    "namespace": "grid",
    "distribution": "grid-envs",
    "distributions": ("grid-envs", "other-envs"),
    "exitcode": -9,
    "index": 3,
    "error_type": "ValueError",
    "traceback_text": "Traceback ...",
    "script": "train.py",
    "line": 12,
}


def error_classes():
    for name in errors.__all__:
        cls = getattr(errors, name)
        if isinstance(cls, type) and issubclass(cls, BaseException):
            yield name, cls


def instance(cls):
    """An instance with every required field set."""
    positional, keywords = ["it went wrong"], {}
    for parameter in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        if parameter.default is not parameter.empty:
            continue
        if parameter.kind is parameter.KEYWORD_ONLY:
            keywords[parameter.name] = FIELDS.get(parameter.name, f"<{parameter.name}>")
        elif parameter.kind is parameter.POSITIONAL_OR_KEYWORD and parameter.name != "message":
            positional.append(f"<{parameter.name}>")
    return cls(*positional, **keywords)


def fingerprint(error):
    return type(error).__name__, str(error), sorted((k, repr(v)) for k, v in vars(error).items())


@pytest.mark.parametrize(("name", "cls"), list(error_classes()), ids=[n for n, _ in error_classes()])
def test_every_error_pickles_with_its_fields(name, cls):
    error = instance(cls)
    error.add_note("a note travels too")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is cls and fingerprint(copy) == fingerprint(error)
    assert copy.__notes__ == ["a note travels too"]


def test_every_error_unpickles_in_a_fresh_process():
    payload = {name: pickle.dumps(instance(cls)) for name, cls in error_classes()}
    expected = {name: fingerprint(pickle.loads(blob)) for name, blob in payload.items()}
    code = (
        "import pickle, sys\n"
        "from tests.core.test_error_pickling import fingerprint\n"
        "payload = pickle.loads(sys.stdin.buffer.read())\n"
        "print(repr({name: fingerprint(pickle.loads(blob)) for name, blob in payload.items()}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], input=pickle.dumps(payload), capture_output=True, timeout=120
    )
    assert result.returncode == 0, result.stderr.decode()
    assert eval(result.stdout.decode()) == expected


THREADS = """
import sys, threading
sys.setswitchinterval(1e-6)
import palaestra.error as errors
names = ["VectorTimeoutError", "WorkerDiedError", "SubEnvError", "InvalidSpaceArgument", "NameNotFound"]
seen = {name: set() for name in names}
start = threading.Barrier(8)
def touch():
    start.wait()
    for name in names:
        seen[name].add(id(getattr(errors, name)))
threads = [threading.Thread(target=touch) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
print(max(len(ids) for ids in seen.values()))
"""


def test_threads_touching_an_error_class_first_at_once_get_one_class():
    # Each run is a fresh process, so the classes are first asked for by the eight threads.
    for _ in range(8):
        result = subprocess.run([sys.executable, "-c", THREADS], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == "1"


# -- every package's own errors -------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
SOURCE_ROOTS = [ROOT / "core" / "src", *sorted((ROOT / "plugins").glob("*/src"))]


def defined_exceptions():
    """``(module, class name)`` of every class in the packages' sources whose bases look like errors.

    Read from the source (nothing imported): a base named ``...Error``, ``...Exception``,
    ``...Warning`` or one of the module's own such classes.
    """
    found = []
    for root in SOURCE_ROOTS:
        for path in sorted(root.rglob("*.py")):
            module = ".".join(path.relative_to(root).with_suffix("").parts)
            if module.endswith("__init__"):
                module = module.rsplit(".", 1)[0]
            if module == "palaestra.error" or "build" in path.parts:
                continue  # palaestra.error's are covered above
            local = set()
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ClassDef):
                    bases = {ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases}
                    if local & bases or any(b.endswith(("Error", "Exception", "Warning")) for b in bases):
                        local.add(node.name)
                        found.append((module, node.name))
    return found


def test_the_scan_finds_the_errors_outside_palaestra_error():
    names = {name for _, name in defined_exceptions()}
    assert {"ActorsNotPlacedError", "MissingKeysToAction"} <= names


@pytest.mark.parametrize(
    ("module", "name"), defined_exceptions(), ids=lambda v: v if isinstance(v, str) else None
)
def test_every_error_of_every_package_pickles_with_its_fields(module, name):
    try:
        cls = getattr(importlib.import_module(module), name)
    except ImportError as e:  # an optional dependency of that plugin (ray, ...)
        pytest.skip(f"{module} needs what is not installed here: {e}")
    if not issubclass(cls, BaseException):
        pytest.skip(f"{module}.{name} is not an exception (its base only has an error's name)")
    error = instance(cls)
    error.add_note("a note travels too")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is cls and fingerprint(copy) == fingerprint(error)
    assert copy.__notes__ == ["a note travels too"]
