"""The subgraph an algorithm runs on, read with one SQL query for its nodes and one for its edges.

Nodes are those carrying any of the given labels (all nodes without labels given); edges are the
relationships of the given types (all types without) between two such nodes. Parallel relationships count
once, as in FalkorDB's boolean adjacency matrices. Node ids are sorted, so a node's position (its index in
the arrays the libraries see) orders the same way as its id.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Subgraph:
    ids: np.ndarray
    """Node ids, ascending; a node's index into this array is its vertex number."""
    sources: np.ndarray
    targets: np.ndarray
    """Edges as vertex numbers, each (source, target) pair once."""

    @property
    def size(self) -> int:
        return len(self.ids)


def read_subgraph(run: Any, labels: Sequence[str] | None, types: Sequence[str] | None) -> Subgraph:
    """The nodes and edges an algorithm call sees; labels and types are bound values, never SQL text."""
    parameters: list[Any] = []
    node_filter = "true"
    if labels:
        parameters.append(list(labels))
        node_filter = "len(list_intersect(labels, $1::VARCHAR[])) > 0"
    ids = run.connection.execute(f"SELECT id FROM nodes WHERE {node_filter} ORDER BY id",
                                 parameters).fetchnumpy()["id"]
    if run.trace is not None:
        run.trace.append((f"SELECT id FROM nodes WHERE {node_filter} ORDER BY id", parameters))
    edge_parameters: list[Any] = []
    conditions = []
    if labels:
        edge_parameters.append(list(labels))
        conditions += ["len(list_intersect(s.labels, $1::VARCHAR[])) > 0",
                       "len(list_intersect(d.labels, $1::VARCHAR[])) > 0"]
    if types:
        edge_parameters.append(list(types))
        conditions.append(f"list_contains(${len(edge_parameters)}::VARCHAR[], r.type)")
    where = " AND ".join(conditions) or "true"
    sql = (f"SELECT DISTINCT r.src, r.dst FROM rels AS r JOIN nodes AS s ON s.id = r.src"
           f" JOIN nodes AS d ON d.id = r.dst WHERE {where} ORDER BY r.src, r.dst")
    if run.trace is not None:
        run.trace.append((sql, edge_parameters))
    edges = run.connection.execute(sql, edge_parameters).fetchnumpy()
    ids = np.asarray(ids, dtype=np.int64)
    sources = np.searchsorted(ids, np.asarray(edges["src"], dtype=np.int64))
    targets = np.searchsorted(ids, np.asarray(edges["dst"], dtype=np.int64))
    return Subgraph(ids, sources.astype(np.int64), targets.astype(np.int64))
