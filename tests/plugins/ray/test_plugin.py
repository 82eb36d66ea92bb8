"""The ray plugin's registration: cheap to load, Ray imported only when an env is built."""

import subprocess
import sys

import pytest

import palaestra_ray._vector as ray_vector
from palaestra.error import DependencyNotInstalled


def test_loading_the_plugin_registers_the_vectorizer_without_importing_ray():
    code = (
        "import sys, palaestra\n"
        "factory = palaestra.get_host().vectorizer('ray/actors')\n"
        "import palaestra_ray\n"
        "print(factory.__name__, 'ray' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["RayVectorEnv", "False"]


def test_a_missing_ray_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if not installed
    ray_vector._ray.cache_clear()
    try:
        with pytest.raises(DependencyNotInstalled, match=r'pip install "palaestra\[ray\]"'):
            ray_vector.RayVectorEnv([lambda: None])
    finally:
        ray_vector._ray.cache_clear()
