"""Every public name of Gymnasium 1.4.0 exists in palaestra under the same module path.

"Public" is a module's ``__all__`` where Gymnasium defines one, else the functions,
classes and constants that the module itself defines (not what it imports).
"""

import importlib
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
