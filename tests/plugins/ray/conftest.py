"""A real local Ray instance for the RayVectorEnv tests, one per test process."""

import os
from pathlib import Path

import pytest

# Under `uv run`, Ray would start every worker through uv again (seconds per worker); the
# environment is already installed, so workers use this interpreter directly.
os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")

ROOT = Path(__file__).parents[3]


def pytest_collection_modifyitems(items):
    # One Ray instance serves all these tests: keep them on one xdist worker.
    for item in items:
        if "tests/plugins/ray/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.xdist_group("ray"))


def start_ray(ray):
    """Start the local Ray instance the tests use."""
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        # Workers import the test fixtures (tests.fixtures...) by module, as the driver does.
        runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}},
    )


@pytest.fixture(scope="session")
def ray_cluster():
    ray = pytest.importorskip(
        "ray", reason='Ray is not installed: pip install "palaestra[ray]" to run these tests'
    )

    start_ray(ray)
    yield ray
    ray.shutdown()
