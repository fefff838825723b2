"""The algorithms over a `Subgraph`: PageRank and betweenness by igraph (one library call over all edges,
ADR-0024), label propagation as vectorised numpy rounds.

- PageRank: damping 0.85 over the directed edges; a node without out-edges spreads its rank evenly over
  all nodes, so the scores sum to 1 (FalkorDB's documented property). igraph solves it exactly (PRPACK);
  FalkorDB iterates to a tolerance of 1e-4, so its scores agree to about that.
- Betweenness: directed, unnormalised, over all shortest paths from every source (FalkorDB's default
  sample of 32 sources covers every source on graphs of up to 32 nodes; the engine never samples, so its
  answer is the exact one and deterministic).
- Label propagation (CDLP, as LDBC Graphalytics and LAGraph define it, edges taken as undirected): every
  node starts with its own id as label; each round, all at once, a node takes the label most frequent among
  its neighbours, the smallest such label on a tie, and keeps its label when it has no neighbours; stop
  after a round that changes nothing, or after `max_iterations` rounds. Deterministic by construction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from engine.algorithms.graph import Subgraph

if TYPE_CHECKING:
    import igraph

DAMPING = 0.85


def _igraph(graph: Subgraph) -> igraph.Graph:
    import igraph  # imported on first use: it takes longer to load than most statements take to run

    edges = np.stack([graph.sources, graph.targets], axis=1) if len(graph.sources) else []
    return igraph.Graph(n=graph.size, edges=edges, directed=True)


def pagerank(graph: Subgraph) -> np.ndarray:
    if graph.size == 0:
        return np.zeros(0)
    return np.asarray(_igraph(graph).pagerank(damping=DAMPING, directed=True), dtype=np.float64)


def betweenness(graph: Subgraph) -> np.ndarray:
    if graph.size == 0:
        return np.zeros(0)
    return np.asarray(_igraph(graph).betweenness(directed=True), dtype=np.float64)


def label_propagation(graph: Subgraph, max_iterations: int) -> np.ndarray:
    """Community labels as node ids (see the module docstring for the rule)."""
    n = graph.size
    labels = np.arange(n, dtype=np.int64)
    pairs = np.unique(np.concatenate([np.stack([graph.sources, graph.targets], 1),
                                      np.stack([graph.targets, graph.sources], 1)]), axis=0) \
        if len(graph.sources) else np.zeros((0, 2), dtype=np.int64)
    nodes, neighbours = pairs[:, 0], pairs[:, 1]
    for _ in range(max_iterations):
        keys, counts = np.unique(nodes * n + labels[neighbours], return_counts=True)
        owner, label = keys // n, keys % n
        best = np.lexsort((label, -counts, owner))  # per node: most frequent first, then the smallest label
        first = np.ones(len(best), dtype=bool)
        first[1:] = owner[best][1:] != owner[best][:-1]
        chosen = best[first]
        updated = labels.copy()
        updated[owner[chosen]] = label[chosen]
        if np.array_equal(updated, labels):
            break
        labels = updated
    return graph.ids[labels]
