"""Graph: graphs with node and (optional) edge features."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from palaestra import logger
from palaestra.error import InvalidSampleArgument
from palaestra.spaces._batching import (
    batch_differing_as_copies,
    batch_space,
    create_empty_array,
    iterate,
)
from palaestra.spaces._space import Space, checked_arguments, require_one_of

if TYPE_CHECKING:
    from numpy.typing import NDArray  # annotations only: numpy.typing costs a millisecond to import

__all__ = ["Graph", "GraphInstance"]

_INT32_MAX = int(np.iinfo(np.int32).max)


class GraphInstance(NamedTuple):
    """One graph: stacked node features, stacked edge features and ``(E, 2)`` edge links."""

    nodes: Any
    edges: Any | None
    edge_links: NDArray[Any] | None


class Graph(Space[GraphInstance]):
    """Graphs whose nodes belong to ``node_space`` and edges to ``edge_space``.

    Args:
        node_space: Feature space of one node (Box or Discrete).
        edge_space: Feature space of one edge, or ``None`` for graphs without edges.
        seed: Seed (int, or a tuple of own/node/edge seeds) or generator.
    """

    @checked_arguments(
        "Graph(node_space, edge_space, seed=None) takes node_space, a Box or Discrete, and edge_space, a "
        "Box, Discrete or None"
    )
    def __init__(self, node_space: Space[Any], edge_space: Space[Any] | None, seed: Any = None) -> None:
        self.node_space = node_space
        self.edge_space = edge_space
        self.batch_node_space = batch_space(node_space, n=1)
        self.batch_edge_space = None if edge_space is None else batch_space(edge_space, n=1)
        super().__init__(None, None, seed)

    @property
    def is_np_flattenable(self) -> bool:
        """False: the size varies."""
        return False

    def _subspaces(self) -> list[Space[Any]]:
        return [self.node_space] if self.edge_space is None else [self.node_space, self.edge_space]

    def seed(self, seed: Any = None) -> tuple[int, ...]:
        """Seed the graph's own generator and its node (and edge) space.

        Returns:
            ``(own, node)`` or ``(own, node, edge)`` seeds.
        """
        subspaces = self._subspaces()
        if seed is None:
            return (super().seed(None), *(s.seed(None) for s in subspaces))
        if isinstance(seed, int) and not isinstance(seed, bool):
            own = super().seed(seed)
            if self.edge_space is None:
                subseeds = [int(self.np_random.integers(_INT32_MAX))]
            else:
                subseeds = [int(v) for v in self.np_random.integers(_INT32_MAX, size=(2,))]
            super().seed(seed)
            return (own, *(s.seed(v) for s, v in zip(subspaces, subseeds, strict=True)))
        if isinstance(seed, (list, tuple)):
            if len(seed) != len(subspaces) + 1:
                raise ValueError(
                    f"Expects a tuple of {len(subspaces) + 1} seeds for the Graph and its "
                    f"{'node' if self.edge_space is None else 'node and edge'} space, "
                    f"actual length: {len(seed)}"
                )
            return (super().seed(seed[0]), *(s.seed(v) for s, v in zip(subspaces, seed[1:], strict=True)))
        raise TypeError(f"Expects `None`, int or tuple of ints, actual type: {type(seed)} ({self!r})")

    def sample(
        self,
        mask: tuple[Any, Any] | None = None,
        probability: tuple[Any, Any] | None = None,
        num_nodes: int = 10,
        num_edges: int | None = None,
    ) -> GraphInstance:
        """Draw a graph.

        Args:
            mask: ``(node mask, edge mask)`` passed to the batched node/edge spaces.
            probability: ``(node probability, edge probability)``.
            num_nodes: Number of nodes (positive).
            num_edges: Number of edges; drawn uniformly below ``n(n-1)`` when ``None``.
        """
        if num_nodes <= 0:
            raise InvalidSampleArgument(
                f"The number of nodes is expected to be greater than 0, actual value: {num_nodes} ({self!r})"
            )
        require_one_of(mask, probability)
        kind = "mask" if mask is not None else ("probability" if probability is not None else None)
        parts: tuple[Any, Any] = (mask or probability or (None, None)) if kind else (None, None)
        node_mask, edge_mask = parts
        if num_edges is None:
            num_edges = int(self.np_random.integers(num_nodes * (num_nodes - 1))) if num_nodes > 1 else 0
            if edge_mask is not None:
                edge_mask = tuple(edge_mask for _ in range(num_edges))
        else:
            if self.edge_space is None:
                logger.warn(f"The number of edges is set ({num_edges}) but the edge space is None.")
            if num_edges < 0:
                raise InvalidSampleArgument(
                    f"Expects the number of edges to be greater than 0, actual value: {num_edges} ({self!r})"
                )
        node_kwargs = {kind: node_mask} if kind else {}
        edge_kwargs = {kind: edge_mask} if kind else {}
        nodes = batch_space(self.node_space, num_nodes).sample(**node_kwargs)
        # The batched copy sampled from a copy of the generator; advance the original once.
        self.node_space.np_random.random()
        edges = None
        if num_edges >= 1 and self.edge_space is not None:
            edges = batch_space(self.edge_space, num_edges).sample(**edge_kwargs)
            self.edge_space.np_random.random()
        links = None
        if edges is not None:
            links = self.np_random.integers(0, num_nodes, size=(num_edges, 2), dtype=np.int32)
        return GraphInstance(nodes, edges, links)

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a :class:`GraphInstance` with valid nodes, edges and links."""
        if not isinstance(x, GraphInstance) or x.nodes is None:
            return False
        nodes = list(iterate(self.batch_node_space, x.nodes))
        if not all(node in self.node_space for node in nodes):
            return False
        if x.edges is None or x.edge_links is None:
            return x.edges is None and x.edge_links is None
        if (
            self.edge_space is None
            or self.batch_edge_space is None
            or not isinstance(x.edge_links, np.ndarray)
        ):
            return False
        edges = list(iterate(self.batch_edge_space, x.edges))
        return bool(
            all(edge in self.edge_space for edge in edges)
            and np.issubdtype(x.edge_links.dtype, np.integer)
            and x.edge_links.shape == (len(edges), 2)
            and np.all((x.edge_links >= 0) & (x.edge_links < len(nodes)))
        )

    def __repr__(self) -> str:
        return f"Graph({self.node_space}, {self.edge_space})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Graph)
            and self.node_space == other.node_space
            and self.edge_space == other.edge_space
        )

    __hash__ = None  # type: ignore[assignment]

    def to_jsonable(self, sample_n: Iterable[GraphInstance]) -> list[dict[str, Any]]:
        """Convert graphs to dicts of lists."""
        out = []
        for sample in sample_n:
            item = {"nodes": self.batch_node_space.to_jsonable([sample.nodes])}
            if sample.edges is not None and sample.edge_links is not None and self.batch_edge_space:
                item["edges"] = self.batch_edge_space.to_jsonable([sample.edges])
                item["edge_links"] = sample.edge_links.tolist()
            out.append(item)
        return out

    def from_jsonable(self, sample_n: Iterable[dict[str, Any]]) -> list[GraphInstance]:
        """Convert dicts of lists back to graphs."""
        out = []
        for sample in sample_n:
            nodes = self.batch_node_space.from_jsonable(sample["nodes"])[0]
            if "edges" in sample and self.batch_edge_space is not None:
                edges = self.batch_edge_space.from_jsonable(sample["edges"])[0]
                out.append(GraphInstance(nodes, edges, np.asarray(sample["edge_links"], dtype=np.int32)))
            else:
                out.append(GraphInstance(nodes, None, None))
        return out


# How a vector env allocates a batch of graphs (the other spaces' rules are in _batching).
@create_empty_array.register(Graph)
def _empty_graphs(space: Graph, n: int = 1, fn: Callable[..., Any] = np.zeros) -> tuple[GraphInstance, ...]:
    has_edges = space.edge_space is not None
    return tuple(
        GraphInstance(
            nodes=create_empty_array(space.node_space, n=1, fn=fn),
            edges=create_empty_array(space.edge_space, n=1, fn=fn) if has_edges else None,  # type: ignore[arg-type]
            edge_links=fn((1, 2), dtype=np.int64) if has_edges else None,
        )
        for _ in range(n)
    )


# Sub-envs' Graph spaces that differ are batched as a Tuple of copies.
batch_differing_as_copies(Graph)
