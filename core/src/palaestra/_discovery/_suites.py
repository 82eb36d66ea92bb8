"""Gymnasium 1.4.0 suites palaestra publishes, so a missing one gets an install hint.

This is data about distributions, not registrations: the ids themselves come from the
plugins once installed.
"""

from __future__ import annotations

import re
from typing import Any

from palaestra._base._ids import plugin_namespace

__all__ = [
    "REFERENCE_SUITES",
    "install_command",
    "install_hint",
    "published_names",
    "reference_distribution",
    "suite_of",
]

# The 62 games with v0/v4 ids, each as <Game> and <Game>NoFrameskip (palaestra-atari's list).
_ATARI_GAMES = (  # noqa: SIM905 (one word list reads better than 62 lines)
    "Adventure AirRaid Alien Amidar Assault Asterix Asteroids Atlantis BankHeist BattleZone "
    "BeamRider Berzerk Bowling Boxing Breakout Carnival Centipede ChopperCommand CrazyClimber "
    "Defender DemonAttack DoubleDunk ElevatorAction Enduro FishingDerby Freeway Frostbite Gopher "
    "Gravitar Hero IceHockey Jamesbond JourneyEscape Kangaroo Krull KungFuMaster MontezumaRevenge "
    "MsPacman NameThisGame Phoenix Pitfall Pong Pooyan PrivateEye Qbert Riverraid RoadRunner "
    "Robotank Seaquest Skiing Solaris SpaceInvaders StarGunner Tennis TimePilot Tutankham UpNDown "
    "Venture VideoPinball WizardOfWor YarsRevenge Zaxxon"
).split()
_ATARI_NAMES = [name + suffix for name in _ATARI_GAMES for suffix in ("", "NoFrameskip")]

# namespace -> (extra, distribution, env names the suite provides in the default namespace)
REFERENCE_SUITES: dict[str, tuple[str, str, frozenset[str]]] = {
    "classic_control": (
        "classic-control",
        "palaestra-classic-control",
        frozenset({"CartPole", "MountainCar", "MountainCarContinuous", "Pendulum", "Acrobot"}),
    ),
    "toy_text": (
        "toy-text",
        "palaestra-toy-text",
        frozenset(
            {"Blackjack", "Taxi", "CliffWalking", "CliffWalkingSlippery", "FrozenLake", "FrozenLake8x8"}
        ),
    ),
    "box2d": (
        "box2d",
        "palaestra-box2d",
        frozenset(
            {"LunarLander", "LunarLanderContinuous", "BipedalWalker", "BipedalWalkerHardcore", "CarRacing"}
        ),
    ),
    "phys2d": ("jax", "palaestra-jax", frozenset()),
    "tabular": ("jax", "palaestra-jax", frozenset()),
    "mujoco": (
        "mujoco",
        "palaestra-mujoco",
        frozenset(
            {
                "Ant",
                "HalfCheetah",
                "Hopper",
                "Humanoid",
                "HumanoidStandup",
                "InvertedPendulum",
                "InvertedDoublePendulum",
                "Pusher",
                "Reacher",
                "Swimmer",
                "Walker2d",
            }
        ),
    ),
    # Atari: ALE/<Game>-v5 in its namespace, and the original benchmark's v0/v4 ids by name.
    "ALE": ("atari", "palaestra-atari", frozenset(_ATARI_NAMES)),
    # Suites without default-namespace ids: the Gymnasium bridge (ids "gymnasium/...") and
    # the Ray vectorizer ("ray/actors").
    "gymnasium": ("gymnasium", "palaestra-gymnasium", frozenset()),
    "ray": ("ray", "palaestra-ray", frozenset()),
}


def published_names() -> set[str]:
    """Every default-namespace env name of the published suites, installed or not."""
    return set().union(*(names for _, _, names in REFERENCE_SUITES.values()))


def reference_distribution(name: str) -> str | None:
    """The published distribution providing default-namespace env ``name`` (None if none does)."""
    owner = suite_of(None, name)
    return None if owner is None else REFERENCE_SUITES[owner][1]


def suite_of(namespace: str | None, name: str) -> str | None:
    """The plugin namespace that provides ``namespace``/``name``.

    That is the namespace itself, or for a default-namespace name Gymnasium 1.4.0 suite that
    registers it there (None if no suite does).
    """
    if namespace is not None:
        return plugin_namespace(namespace)
    return next((ns for ns, (_, _, names) in REFERENCE_SUITES.items() if name in names), None)


def install_hint(namespace: str | None, name: str, installed: set[str]) -> str | None:
    """The install command for the suite providing ``namespace``/``name``, if not installed.

    Args:
        namespace: The id's namespace (``None`` for the default namespace).
        name: The env name (may be empty when only the namespace is known).
        installed: Namespaces whose plugins are installed.
    """
    owner = suite_of(namespace, name)
    if owner not in REFERENCE_SUITES:
        return None
    dist = REFERENCE_SUITES[owner][1]
    if owner not in installed:
        return (
            f"It is provided by the distribution `{dist}`, which is not installed. "
            f"Install it with: {install_command(owner)}"
        )
    if namespace is None:
        return (
            f"It belongs to the `{dist}` suite, which is installed but does not provide it in this version."
        )
    return None


def install_command(namespace: str) -> str:
    """The command that installs the published suite ``namespace``: the one that works here first.

    Extras resolve only from a package index. So where palaestra runs from a source checkout
    (a uv workspace with the suite's folder), the checkout's commands lead; where the core was
    installed from a checkout's folder, the suite's folder; where it was installed from a
    wheel in a folder that holds the suite's wheel too, that folder. The published extra
    follows them, and stands alone where palaestra came from an index.
    """
    extra, distribution, _ = REFERENCE_SUITES[namespace]
    published = f'pip install "palaestra[{extra}]"'
    folder = _checkout_folder(distribution)
    if folder is not None:
        return (
            f"uv pip install -e {folder}  (in this checkout; or uv sync --all-packages; with pip: uvx nox -s "
            f'build, then pip install --find-links dist/wheels "palaestra[{extra}]"; from a package index: '
            f"{published})"
        )
    source = _installed_from(distribution)
    if source is None:
        return published
    kind, path = source
    index = f"from a package index: {published}"
    if kind == "checkout":  # pip install /path/to/checkout/core
        return f"pip install {path}  (palaestra was installed from the checkout {path.parents[1]}; {index})"
    return f'pip install --find-links {path} "palaestra[{extra}]"  (the wheels palaestra came from; {index})'


def _installed_from(distribution: str) -> tuple[str, Any] | None:
    """Where the installed core came from (PEP 610's record), if from a local path.

    ``("checkout", the suite's folder)`` when it was built from a checkout's folder;
    ``("wheels", the folder)`` when it was installed from a wheel file in a folder that holds
    the suite's wheel too; None otherwise (an index, or nothing that would work).
    """
    # start-up: an error path, reading installed metadata (importlib.metadata: 26 ms)
    import json
    from importlib import metadata
    from pathlib import Path
    from urllib.parse import unquote, urlparse

    try:
        record = json.loads(metadata.distribution("palaestra").read_text("direct_url.json") or "null")
    except (metadata.PackageNotFoundError, ValueError, OSError):
        return None
    if not isinstance(record, dict) or not str(record.get("url", "")).startswith("file://"):
        return None
    core = Path(unquote(urlparse(record["url"]).path))
    if core.suffix == ".whl":  # pip install dist/wheels/palaestra-...whl: is the suite's wheel beside it?
        wheels = core.parent
        if any(wheels.glob(f"{distribution.replace('-', '_')}-*.whl")):
            return "wheels", wheels
        return None
    for pyproject in sorted((core.parent / "plugins").glob("*/pyproject.toml")):
        match = re.search(r'^name\s*=\s*"([^"]+)"', pyproject.read_text(), flags=re.MULTILINE)
        if match and match.group(1) == distribution:
            return "checkout", pyproject.parent
    return None


def _checkout_folder(distribution: str) -> str | None:
    """``plugins/<dir>`` holding ``distribution`` when palaestra is imported from a checkout."""
    from pathlib import Path  # start-up: an error path (pathlib: 1-2 ms)

    root = Path(__file__).resolve().parents[4]  # <root>/core/src/palaestra/_plugins/_suites.py
    if not (root / "core" / "src" / "palaestra").is_dir():
        return None
    for pyproject in sorted((root / "plugins").glob("*/pyproject.toml")):
        match = re.search(r'^name\s*=\s*"([^"]+)"', pyproject.read_text(), flags=re.MULTILINE)
        if match and match.group(1) == distribution:
            return str(pyproject.parent.relative_to(root))
    return None
