"""A real local Ray instance for the RayVectorEnv tests, one per test process."""

import contextlib
import os
import sys
import tempfile
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


# -- a two-node cluster on this machine: a head and a second node with a resource of its own --

SECOND_NODE_RESOURCE = "node2"


def _free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _processes_under(folder):
    """Pids of the processes whose command line names ``folder`` (a node's temp dir), and their children."""
    found = set()
    children = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
        if folder in args:
            found.add(int(entry.name))
    todo = list(found)
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def stop_processes(pids, grace=5.0):
    """SIGTERM, then SIGKILL what is left after ``grace`` seconds."""
    import signal
    import time

    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in pids):
        time.sleep(0.1)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


class TwoNodes:
    """A head node and a second node (with the custom resource ``node2``), started by ``ray start``.

    Ray 2.60 authenticates nodes and drivers with a token once any local Ray has run: every
    ``ray start`` and this process get ``RAY_AUTH_MODE=token``, and all use the token the
    local instance made (``~/.ray/auth_token``): a process keeps the token it first used, so
    a cluster with another one would refuse this test process. Each node has its own temp
    dir; they are stopped by process id, never by ``ray stop`` (which would stop every Ray
    on the machine).
    """

    def __init__(self, ray_bin):
        self.ray_bin = ray_bin
        self.port = _free_port()
        self.address = None  # the head's, as `ray start --head` reports it
        self.head_dir = tempfile.mkdtemp(prefix="pal-rh-")
        self.node_dir = tempfile.mkdtemp(prefix="pal-rn-")
        self.env = {
            **os.environ,
            "RAY_AUTH_MODE": "token",
            "RAY_ENABLE_UV_RUN_RUNTIME_ENV": "0",
        }

    def _start(self, *args, folder):
        import subprocess

        common = ["--num-cpus=1", "--object-store-memory=100000000"]
        result = subprocess.run(
            [self.ray_bin, "start", *args, *common, f"--temp-dir={folder}", "--disable-usage-stats"],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        if result.returncode != 0:
            self.stop()
            pytest.skip(f"`ray start` failed here, so the two-node tests cannot run: {result.stderr[-600:]}")
        return result.stdout + result.stderr

    def start(self):
        import re

        said = self._start("--head", f"--port={self.port}", "--include-dashboard=false", folder=self.head_dir)
        found = re.search(r"--address='([^']+)'", said)
        if found is None:
            self.stop()
            pytest.skip(f"`ray start --head` did not say its address: {said[-600:]}")
        self.address = found.group(1)
        self._start(
            f"--address={self.address}", f'--resources={{"{SECOND_NODE_RESOURCE}": 4}}', folder=self.node_dir
        )

    def node_ids(self, ray):
        """(head node id, second node id)."""
        nodes = [n for n in ray.nodes() if n["Alive"]]
        second = next(n["NodeID"] for n in nodes if SECOND_NODE_RESOURCE in n["Resources"])
        head = next(n["NodeID"] for n in nodes if n["NodeID"] != second)
        return head, second

    def kill_second_node(self):
        """The second node dies at once, as a machine that loses power (SIGKILL, no goodbye)."""
        import signal

        for pid in _processes_under(self.node_dir):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def stop(self):
        stop_processes(_processes_under(self.node_dir) | _processes_under(self.head_dir))


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
        cluster.start()
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
