"""Gymnasium 1.4.0 suites palaestra publishes, so a missing one gets an install hint.

This is data about distributions, not registrations: the ids themselves come from the
plugins once installed.
"""

from __future__ import annotations

__all__ = ["REFERENCE_SUITES", "install_hint", "published_names", "suite_of"]

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
    # Suites without default-namespace ids: the Gymnasium bridge (ids "gymnasium/...") and
    # the Ray vectorizer ("ray/actors").
    "gymnasium": ("gymnasium", "palaestra-gymnasium", frozenset()),
    "ray": ("ray", "palaestra-ray", frozenset()),
}


def published_names() -> set[str]:
    """Every default-namespace env name of the published suites, installed or not."""
    return set().union(*(names for _, _, names in REFERENCE_SUITES.values()))


def suite_of(namespace: str | None, name: str) -> str | None:
    """The plugin namespace that provides ``namespace``/``name``.

    That is the namespace itself, or for a default-namespace name Gymnasium 1.4.0 suite that
    registers it there (None if no suite does).
    """
    if namespace is not None:
        return namespace.split("/", 1)[0]
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
    extra, dist, _ = REFERENCE_SUITES[owner]
    if owner not in installed:
        return (
            f"It is provided by the distribution `{dist}`, which is not installed. "
            f'Install it with: pip install "palaestra[{extra}]"'
        )
    if namespace is None:
        return (
            f"It belongs to the `{dist}` suite, which is installed but does not provide it in this version."
        )
    return None
