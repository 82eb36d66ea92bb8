"""A real local Ray instance for the RayVectorEnv tests, one per test process."""

import os
import sys
import tempfile
from pathlib import Path

import pytest

from tests.fixtures.ray_cluster import ClusterStartError, TwoNodes

# Under `uv run`, Ray would start every worker through uv again (seconds per worker); the
# environment is already installed, so workers use this interpreter directly.
os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")

ROOT = Path(__file__).parents[3]


def pytest_collection_modifyitems(items):
    # One Ray instance serves all these tests: keep them on one xdist worker.
    for item in items:
        if "tests/plugins/ray/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.xdist_group("ray"))


# Ray gives a node 30 s to register (fixed in Ray); a machine loaded far beyond its cores can
# miss that, so the start is tried this many times before the tests are skipped.
START_ATTEMPTS = 3


def start_ray(ray):
    """Start the local Ray instance the tests use, in a folder of its own; skip if it cannot start.

    Each test process gets its own temp dir (sessions, sockets, logs), so parallel test runs
    and other Ray users on the machine do not meet. A start that fails every attempt skips the
    Ray tests with one paragraph instead of a traceback per test.
    """
    temp_dir = tempfile.mkdtemp(prefix="pal-ray-")  # short: Ray's socket paths must fit 107 chars
    failures = []
    for _ in range(START_ATTEMPTS):
        try:
            ray.init(
                num_cpus=2,
                include_dashboard=False,
                log_to_driver=False,
                _temp_dir=temp_dir,
                # Workers import the test fixtures (tests.fixtures...) by module, as the driver does.
                runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}},
            )
            return
        except Exception as e:
            failures.append(f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
            ray.shutdown()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    pytest.skip(
        f"a local Ray instance did not start in {START_ATTEMPTS} tries on this machine (load average "
        f"{load}; last: {failures[-1]}). Ray allows a node 30 s to start; rerun the Ray tests when "
        f"the machine is less busy (pytest tests/plugins/ray). Logs: {temp_dir}"
    )


@pytest.fixture(scope="session")
def ray_cluster():
    ray = pytest.importorskip(
        "ray", reason='Ray is not installed: pip install "palaestra[ray]" to run these tests'
    )

    start_ray(ray)
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def two_nodes(ray_cluster):
    """A connected two-node cluster for one test module; the local instance comes back afterwards."""
    import shutil

    ray = ray_cluster
    ray_bin = shutil.which("ray", path=str(Path(sys.executable).parent)) or shutil.which("ray")
    if ray_bin is None:
        pytest.skip("the `ray` command is not installed beside this Python")
    ray.shutdown()
    cluster = TwoNodes(ray_bin)
    saved = {k: os.environ.get(k) for k in ("RAY_AUTH_MODE",)}
    try:
        try:
            cluster.start()
        except ClusterStartError as e:
            pytest.skip(f"the two-node tests cannot run here: {e}")
        os.environ.update({k: cluster.env[k] for k in saved})
        ray.init(
            address=cluster.address,
            log_to_driver=False,
            runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}},
        )
        yield cluster
    finally:
        ray.shutdown()
        cluster.stop()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        start_ray(ray)  # the other Ray tests of this process go on with their local instance
