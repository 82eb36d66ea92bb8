"""Where RayVectorEnv's actors go, and why they did not go anywhere.

Pure functions of the arguments and of what Ray reports, so the checks run without a
cluster; :mod:`palaestra_ray._vector` calls them while building the actors.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from palaestra.error import VectorTimeoutError
from palaestra_ray._runtime import _describe

__all__ = [
    "NOT_SCHEDULED",
    "not_placed_error",
    "PLACEMENTS",
    "ActorsNotPlacedError",
    "bundle_of",
    "not_placed_message",
    "options_per_actor",
    "placement_plan",
]


class ActorsNotPlacedError(VectorTimeoutError):
    """Ray never scheduled some of a RayVectorEnv's actors before the build deadline.

    The message names the sub-envs of each unscheduled actor, the resources it asked for,
    what the cluster has free, and the usual fixes. ``indices`` are those sub-envs.
    """


#: The named placements; a sequence of node ids is the third kind.
PLACEMENTS = ("pack", "spread")

# What Ray schedules an actor with when its options name no CPUs (see not_placed_message).
_DEFAULT_ACTOR_CPUS = 1.0


def options_per_actor(actor_options: Any, num_actors: int) -> list[dict[str, Any]]:
    """One options dict per actor from a dict (for all), a sequence (one each) or a function of the index.

    Raises:
        ValueError: A sequence of the wrong length.
        TypeError: Anything else, or an entry that is not a dict.
    """
    if actor_options is None:
        return [{} for _ in range(num_actors)]
    if isinstance(actor_options, Mapping):
        return [dict(actor_options) for _ in range(num_actors)]
    if callable(actor_options):
        given = [actor_options(k) for k in range(num_actors)]
        source = "actor_options({k})"
    elif isinstance(actor_options, Sequence) and not isinstance(actor_options, (str, bytes)):
        given = list(actor_options)
        if len(given) != num_actors:
            raise ValueError(
                f"`actor_options` has {len(given)} entries for {num_actors} actors; give one dict per "
                "actor, one dict for all, or a function of the actor index"
            )
        source = "actor_options[{k}]"
    else:
        raise TypeError(
            f"`actor_options` must be a dict (for every actor), a sequence of dicts (one per actor) or "
            f"a function actor_index -> dict, got {type(actor_options).__name__}"
        )
    for k, entry in enumerate(given):
        if not isinstance(entry, Mapping):
            raise TypeError(f"{source.format(k=k)} must be a dict of Ray actor options, got {entry!r}")
    return [dict(entry) for entry in given]


def bundle_of(options: Mapping[str, Any]) -> dict[str, float]:
    """The resources an actor with these options holds, as a placement-group bundle."""
    bundle = {"CPU": float(options.get("num_cpus", _DEFAULT_ACTOR_CPUS))}
    if options.get("num_gpus"):
        bundle["GPU"] = float(options["num_gpus"])
    bundle.update({name: float(amount) for name, amount in (options.get("resources") or {}).items()})
    return {name: amount for name, amount in bundle.items() if amount > 0}


def placement_plan(
    placement: Any, per_actor: list[dict[str, Any]], alive_nodes: Sequence[str]
) -> tuple[str, list[Any]]:
    """How to place the actors: ``("none", [])``, a placement group, or one node per actor.

    Returns:
        ``("group", [strategy, bundles, bundle_of_actor])`` for "pack"/"spread",
        ``("nodes", [node id of each actor])`` for a node list, ``("none", [])`` for None.

    Raises:
        ValueError: An unknown placement, an empty or unknown node list, a placement with a
            ``scheduling_strategy`` of its own, or an actor that holds no resource.
    """
    if placement is None:
        return "none", []
    if any("scheduling_strategy" in options for options in per_actor):
        raise ValueError(
            "`placement` and a `scheduling_strategy` in `actor_options` both say where actors go; give one"
        )
    if isinstance(placement, str):
        if placement not in PLACEMENTS:
            raise ValueError(
                f"Unknown placement {placement!r}: use 'pack', 'spread' or a list of node ids "
                f"(ray.nodes()[i]['NodeID']); alive nodes: {list(alive_nodes)}"
            )
        bundles = [bundle_of(options) for options in per_actor]
        empty = [k for k, bundle in enumerate(bundles) if not bundle]
        if empty:
            raise ValueError(
                f"Actor {empty[0]} holds no resource (num_cpus=0 and no resources), so a placement group "
                "cannot place it; give it a CPU share (num_cpus=0.01) or a custom resource"
            )
        if placement == "pack":
            return "group", ["PACK", bundles, list(range(len(per_actor)))]
        # Exact spreading: one bundle per node (STRICT_SPREAD puts each on its own node), the
        # actors dealt round-robin onto them.
        width = max(1, min(len(per_actor), len(alive_nodes)))
        merged: list[dict[str, float]] = [{} for _ in range(width)]
        for k, bundle in enumerate(bundles):
            for name, amount in bundle.items():
                merged[k % width][name] = merged[k % width].get(name, 0.0) + amount
        return "group", ["STRICT_SPREAD", merged, [k % width for k in range(len(per_actor))]]
    nodes = list(placement) if isinstance(placement, Sequence) and not isinstance(placement, bytes) else None
    if not nodes or not all(isinstance(node, str) for node in nodes):
        raise ValueError(
            f"`placement` must be 'pack', 'spread', a non-empty list of node ids, or None; got {placement!r}"
        )
    unknown = [node for node in nodes if node not in alive_nodes]
    if unknown:
        raise ValueError(
            f"`placement` names nodes that are not alive in the cluster: {unknown}; alive: {list(alive_nodes)}"
        )
    return "nodes", [nodes[k % len(nodes)] for k in range(len(per_actor))]


def not_placed_message(
    unplaced: Sequence[tuple[str, Mapping[str, Any]]],
    built: int,
    available: Mapping[str, float],
    total: Mapping[str, float],
    timeout: float,
) -> str:
    """Why actors were never scheduled: what each asked for, what is free, and the usual fixes.

    Args:
        unplaced: ``(sub-envs it would run, its actor options)`` for each unscheduled actor.
        built: How many actors were placed.
        available: ``ray.available_resources()``.
        total: ``ray.cluster_resources()``.
        timeout: The build deadline that passed.
    """
    shown = "; ".join(f"{where}: asks for {_asked(options)}" for where, options in unplaced)
    lines = [
        f"Ray could not place {len(unplaced)} of {len(unplaced) + built} actor(s) within the build "
        f"deadline of {timeout:g} s (they were never scheduled): {shown}. The cluster has free "
        f"{_resources({name: available.get(name, 0.0) for name in total})} of {_resources(total)}.",
    ]
    if any("resources" in options and "num_cpus" not in options for _, options in unplaced):
        lines.append(
            "An actor that names `resources` but no `num_cpus` still holds 1 CPU in Ray: give "
            "num_cpus=0 with the custom resource to place it by that resource alone."
        )
    lines.append(
        "Fixes: ask for less per actor (num_cpus=0 or a fraction, with a custom resource to pin it), "
        "use fewer actors (num_actors=...), add nodes, or pass build_timeout=None to wait for the "
        "cluster to grow. The vector env has been closed."
    )
    return " ".join(lines)


def _asked(options: Mapping[str, Any]) -> str:
    return _resources(bundle_of(options) or {"CPU": 0.0})


def _resources(resources: Mapping[str, float]) -> str:
    shown = {
        name: (int(amount) if float(amount).is_integer() else round(amount, 3))
        for name, amount in sorted(resources.items())
        if not name.startswith("node:") and name not in ("memory", "object_store_memory")
    }
    return repr(shown)


#: Ray's states of an actor that no node has taken (``actor_state`` says STARTING of one that has).
NOT_SCHEDULED = frozenset({"DEPENDENCIES_UNREADY", "PENDING_CREATION"})


def not_placed_error(
    ray: Any,
    actors: Sequence[Any],
    blocks: Sequence[range],
    options: Sequence[Mapping[str, Any]],
    late: list[int],
    timeout: float | None,
) -> ActorsNotPlacedError | None:
    """The error for the actors of ``late`` (past the build deadline) that no node took, or None."""
    unplaced = [k for k in late if actor_state(actors[k])[0] in NOT_SCHEDULED]
    if not unplaced:
        return None
    message = not_placed_message(
        [(_describe([blocks[k]]), options[k]) for k in unplaced],
        len(actors) - len(unplaced),
        ray.available_resources(),
        ray.cluster_resources(),
        timeout or 0.0,
    )
    return ActorsNotPlacedError(message, indices=tuple(i for k in unplaced for i in blocks[k]))


def actor_state(actor: Any) -> tuple[str, str | None]:
    """``(state, node id)`` of a Ray actor from the cluster's table (``"UNKNOWN"`` if unreadable).

    Ray's own states, except ``"STARTING"``: Ray says ``PENDING_CREATION`` both of an actor no
    node has taken yet and of one whose worker process runs its constructor (a slow start on a
    busy machine), and only the second has a worker's process id. Reads Ray's control store
    directly: the public state API needs the dashboard, which a cluster may run without.
    """
    try:
        from ray._private.state import state

        info = state.actor_table(actor._actor_id.hex())
    except Exception:  # a private API: degrade to "unknown" rather than fail the error report
        return "UNKNOWN", None
    node = (info.get("Address") or {}).get("NodeID") or None
    status = str(info.get("State", "UNKNOWN"))
    if status == "PENDING_CREATION" and info.get("Pid"):
        status = "STARTING"
    return status, node


def alive_node_ids(ray: Any) -> list[str]:
    """The ids of the cluster's alive nodes."""
    return [node["NodeID"] for node in ray.nodes() if node.get("Alive")]


ActorOptions = Callable[[int], Mapping[str, Any]] | Mapping[str, Any] | Sequence[Mapping[str, Any]] | None
