# /// script
# dependencies = ["nox[uv]>=2024.10.9"]
# ///
"""Developer sessions: lint, typecheck, tests (whole workspace or the core alone), docs, bench."""

from pathlib import Path

import nox

nox.needs_version = ">=2024.10.9"
nox.options.default_venv_backend = "uv|virtualenv"
# Bare `uvx nox`: the checks a contributor runs before a commit, in about two minutes; the
# full suite is `uvx nox -s tests` (what .ci/run runs through the README).
nox.options.sessions = ["lint", "typecheck", "quick"]

PYPROJECT = nox.project.load_toml("pyproject.toml")
GROUPS = PYPROJECT["dependency-groups"]
# Every workspace member under plugins/, as editable installs.
PLUGINS = tuple(
    arg for folder in sorted(Path("plugins").glob("*/pyproject.toml")) for arg in ("-e", str(folder.parent))
)
# pygame draws offscreen and stays quiet.
OFFSCREEN = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}


def _pip_install(session: nox.Session, *args: str) -> None:
    # pip, not uv: pip takes torch's CPU build where pip is pointed at it (README: "CPU torch");
    # uv would resolve the CUDA build and gigabytes of nvidia-* packages.
    session.run("python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *args)


def _install_torch_and_sb3(session: nox.Session) -> None:
    session.log(
        "installing torch 2.13.0, Stable-Baselines3, TorchRL and Tianshou with pip (about a minute for the CPU "
        "build; much longer, and gigabytes, if pip fetches the CUDA build: see README, 'CPU torch')"
    )
    _pip_install(session, "torch==2.13.0", "stable-baselines3==2.9.2", "torchrl==0.14.1", "tianshou==2.0.1")


@nox.session
def lint(session: nox.Session) -> None:
    """Ruff lint and format check."""
    session.install(*GROUPS["lint"])
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def typecheck(session: nox.Session) -> None:
    """Strict mypy over the core and every plugin (with the test group's optional libraries)."""
    session.install(*GROUPS["lint"], *GROUPS["test"], "-e", "core", *PLUGINS)
    session.run("mypy")


@nox.session
def tests(session: nox.Session) -> None:
    """The full suite over every workspace member."""
    session.install(*GROUPS["test"], "-e", "core", *PLUGINS)
    session.run("pytest", "-n", "auto", *session.posargs, env=OFFSCREEN)


@nox.session
def quick(session: nox.Session) -> None:
    """The core's tests without the slow ones (under a minute of tests): a check while you work."""
    session.install(*GROUPS["test"], "-e", "core", *PLUGINS)
    session.run("pytest", "-n", "auto", "-m", "not slow", "tests/core", *session.posargs, env=OFFSCREEN)


@nox.session(default=False)
def extras(session: nox.Session) -> None:
    """The tests that need torch, Stable-Baselines3 and TorchRL (and xvfb for MuJoCo's viewer)."""
    session.install(*GROUPS["test"], "-e", "core", *PLUGINS, "pip")
    _install_torch_and_sb3(session)
    session.run("pytest", "-n", "auto", "-m", "extras", *session.posargs, env=OFFSCREEN)


@nox.session(default=False)
def box2d_plain(session: nox.Session) -> None:
    """The Box2D suite with its compiled kernels turned off: the Python blocks they fall back to.

    The slow tests (random-policy statistics of single envs) step no blocks: left out.
    """
    session.install(*GROUPS["test"], "-e", "core", *PLUGINS)
    env = {**OFFSCREEN, "PALAESTRA_BOX2D_KERNELS": "0"}
    tests = ["tests/plugins/box2d", "tests/integration/test_fault_matrix.py"]
    session.run("pytest", "-n", "auto", "-m", "not slow", *tests, *session.posargs, env=env)


@nox.session(default=False)
def rllib(session: nox.Session) -> None:
    """RLlib in a venv of its own (ray[rllib] 2.60 pins gymnasium 1.2.2, the test group 1.4.0).

    examples/rllib_ppo.py trains PPO through the bridge, and the bridge's tests run on the
    Gymnasium RLlib brought (less those that assert Gymnasium 1.4.0's own registry).
    """
    session.install("pip")
    # pip resolves Gymnasium to the version RLlib pins. Box2D is left out: Gymnasium 1.2.2's
    # box2d extra needs a compiler for box2d-py.
    suites = [
        arg
        for name in ("classic_control", "toy_text", "mujoco", "gymnasium")
        for arg in ("-e", f"plugins/{name}")
    ]
    _pip_install(
        session,
        "torch==2.13.0",
        "ray[rllib]==2.60.0",
        "gymnasium[classic-control,toy-text,mujoco]",
        "pygame-ce",
        "pytest",
        "-e",
        "core",
        *suites,
    )
    env = {**OFFSCREEN, "MUJOCO_GL": "egl", "RAY_ENABLE_UV_RUN_RUNTIME_ENV": "0"}
    session.run("python", "examples/rllib_ppo.py", "--iterations", "8", "--goal", "100", env=env)
    session.run(
        "pytest",
        "-o",
        "addopts=",
        "-p",
        "no:cacheprovider",
        "tests/plugins/gymnasium",
        "-m",
        "not gymnasium_1_4",
        env=env,
    )


@nox.session(name="tests-core")
def tests_core(session: nox.Session) -> None:
    """The core's tests with no plugin installed (proves the core stands alone)."""
    session.install(*GROUPS["test"], "-e", "core")
    session.run("pytest", "tests/core", "-m", "not needs_plugins", *session.posargs)


@nox.session(default=False)
def docs(session: nox.Session) -> None:
    """Build the HTML docs into docs/_build/html, check their links and test the site.

    The env animations are rendered by the envs and cached; the site test loads the gallery
    in headless Chromium when it is installed.
    """
    session.install(*GROUPS["docs"], *GROUPS["test"], "-e", "core", *PLUGINS)
    # Not -q: reading and writing report their progress, so a long build shows it is alive.
    session.run("sphinx-build", "-W", "-b", "html", "docs", "docs/_build/html", env=OFFSCREEN)
    # The site tests (links checked there) reuse this build instead of building again.
    site = {**OFFSCREEN, "PALAESTRA_DOCS_SITE": "docs/_build/html"}
    session.run("pytest", "-n", "1", "tests/docs/test_docs_site.py", *session.posargs, env=site)


@nox.session(default=False, python=False)
def build(session: nox.Session) -> None:
    """Wheels of every distribution into dist/wheels, for `pip install --find-links dist/wheels ...`."""
    # Quiet: setuptools narrates every file; a failed build still prints its output.
    session.run(
        "uv", "build", "--quiet", "--all-packages", "--wheel", "--out-dir", "dist/wheels", external=True
    )
    session.log('Install from them: pip install --find-links dist/wheels "palaestra[classic-control]"')


@nox.session(default=False)
def bench(session: nox.Session) -> None:
    """Benchmarks against Gymnasium (and EnvPool, gymnax) in the same run; prints ratios.

    Runs every ``benchmarks/bench_*.py``, or those named: ``uvx nox -s bench -- bench_atari.py``.
    A benchmark whose optional anchor is missing (gymnax) says so and measures the rest.
    """
    session.install(*GROUPS["bench"], "-e", "core", *PLUGINS)
    found = sorted(p.name for p in Path("benchmarks").glob("bench_*.py"))
    chosen = [name.removeprefix("benchmarks/") for name in session.posargs] or found
    unknown = sorted(set(chosen) - set(found))
    if unknown:
        session.error(f"no such benchmark: {unknown}; there are {found}")
    for script in chosen:
        session.run("python", f"benchmarks/{script}", env=OFFSCREEN)


@nox.session(default=False)
def examples(session: nox.Session) -> None:
    """Run the training examples (minutes each); each exits non-zero if it misses its goal."""
    session.install("-e", "core", *PLUGINS, "pip")
    _install_torch_and_sb3(session)
    for script in (
        "cleanrl_style_ppo.py",
        "sb3_ppo_cartpole.py",
        "sb3_sac_pendulum.py",
        "async_q_learning.py",
    ):
        session.run("python", f"examples/{script}", env=OFFSCREEN)


@nox.session(default=False)
def example(session: nox.Session) -> None:
    """Run one example with its arguments: ``uvx nox -s example -- sb3_ppo_cartpole.py --only palaestra``.

    Installs the core, every suite, torch (with pip: the CPU build where pip is pointed at
    it, README "CPU torch"; uv would pull CUDA packages) and Stable-Baselines3 into the
    session's own venv, once; later runs reuse it (``-R``).
    """
    scripts = sorted(p.name for p in Path("examples").glob("[!_]*.py"))
    if not session.posargs or session.posargs[0].removeprefix("examples/") not in scripts:
        session.error(
            f"name an example and its arguments: uvx nox -s example -- <script> [args]; scripts: {scripts}"
        )
    session.install("-e", "core", *PLUGINS, "pip")
    _install_torch_and_sb3(session)
    script, *arguments = session.posargs
    session.run("python", f"examples/{script.removeprefix('examples/')}", *arguments, env=OFFSCREEN)
