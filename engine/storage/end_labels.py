"""The catalog's end-label counts: per relationship type, how many relationships there are, and how many
have a start (end) node carrying each label (ADR-0092).

`graph_end_labels(type, side, label, n)` holds changes to the counts, summed per (type, side, label) as
they are read: side `rel` with label '' counts the type's relationships; side `src` (`dst`) with a label
counts those whose start (end) node carries it. When the two counts are equal,
every start (end) node of the type carries the label, and a pattern's test of that label on a node it
reaches over such a relationship decides nothing (plan/rules/end_labels.py). Writes keep the counts exact
in their own transaction (engine/execute/end_labels.py), so a rollback undoes them with the data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

import duckdb

Side = Literal["src", "dst"]

TABLE = "graph_end_labels"

CREATE = (f"CREATE TABLE IF NOT EXISTS {TABLE} (type VARCHAR NOT NULL, side VARCHAR NOT NULL,"
          " label VARCHAR NOT NULL, n BIGINT NOT NULL)")
"""Rows are changes, summed as they are read: an INSERT costs a write a fraction of what an upsert of the
same rows does in DuckDB (ON CONFLICT DO UPDATE, 2-10 ms), and `compact` folds them now and then."""

SUMMED = f"(SELECT type, side, label, sum(n) AS n FROM {TABLE} GROUP BY ALL HAVING sum(n) <> 0)"
"""The counts: each (type, side, label)'s changes summed."""


def contributions(where: str) -> str:
    """The (type, side, label, n) rows the relationships `r` of `rels` meeting `where` add to the counts: the
    relationships first (one scan), then the labels at each end."""
    return (f"WITH c AS MATERIALIZED (SELECT r.type, r.src, r.dst FROM rels AS r WHERE {where})"
            " SELECT type, side, label, count(*) AS n FROM (SELECT type, 'rel' AS side, '' AS label FROM c"
            " UNION ALL SELECT c.type, 'src', unnest(list_distinct(e.labels)) FROM c JOIN nodes AS e ON e.id = c.src"
            " UNION ALL SELECT c.type, 'dst', unnest(list_distinct(e.labels)) FROM c JOIN nodes AS e ON e.id = c.dst)"
            " GROUP BY ALL")


def labels_moved(pairs: str, sign: int) -> str:
    """The statement adding (`sign` 1) or taking away (-1) a label at every end of a relationship that is one
    of the (id, l) `pairs`: what a label added to or removed from those nodes changes."""
    return (f"INSERT INTO {TABLE} SELECT type, side, l, {int(sign)} * count(*) FROM ("
            f"SELECT r.type, 'src' AS side, p.l FROM {pairs} AS p JOIN rels AS r ON r.src = p.id"
            f" UNION ALL SELECT r.type, 'dst', p.l FROM {pairs} AS p JOIN rels AS r ON r.dst = p.id) GROUP BY ALL")


def add(where: str, sign: int) -> str:
    """The statement adding (`sign` 1) or taking away (-1) what the relationships meeting `where` contribute."""
    return f"INSERT INTO {TABLE} SELECT type, side, label, {int(sign)} * n FROM ({contributions(where)})"


COUNT_ALL = f"INSERT INTO {TABLE} {contributions('true')}"
"""The counts of a whole graph: run once, when a graph made before them is first opened for writing."""


@dataclass(frozen=True)
class EndLabels:
    """The counts as they stand in a transaction: what `holds` answers from."""

    types: frozenset[str] = frozenset()
    """The types that have relationships."""
    carried: Mapping[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    """Per (type, side), the labels every such end of the type's relationships carries."""
    known: bool = True
    """False where the store has no counts (a file opened read-only before they existed): nothing holds."""

    def holds(self, relationship_type: str, side: Side, label: str) -> bool:
        """Whether every `side` node of a `relationship_type` relationship carries `label` (so where there is
        none)."""
        if not self.known:
            return False
        return relationship_type not in self.types or label in self.carried.get((relationship_type, side), ())


UNKNOWN = EndLabels(known=False)


Counts = dict[tuple[str, str, str], int]
"""(type, side, label) -> the summed count, as `graph_end_labels` holds it."""

DELTA = " RETURNING type, side, label, n"
"""What an INSERT into the table returns: its rows, which `add_rows` folds into counts held in memory, so a
write need not read the table again to know where the counts stand."""


def load(connection: duckdb.DuckDBPyConnection) -> Counts:
    """The counts the connection's transaction sees."""
    return {(relationship_type, side, label): int(n)
            for relationship_type, side, label, n in connection.execute(f"SELECT * FROM {SUMMED}").fetchall()}


def add_rows(counts: Counts, rows: list[tuple[str, str, str, int]]) -> None:
    """Fold change rows (`DELTA`, a handful: one per type, side and label a write touched) into `counts`."""
    for relationship_type, side, label, n in rows:
        key = (relationship_type, side, label)
        total = counts.get(key, 0) + int(n)
        if total:
            counts[key] = total
        else:
            counts.pop(key, None)


def of_counts(counts: Counts) -> EndLabels:
    """The labels every end of each type carries: those whose count equals the type's relationships'."""
    types = {relationship_type for (relationship_type, side, _), n in counts.items() if side == "rel" and n > 0}
    carried: dict[tuple[str, str], set[str]] = {}
    for (relationship_type, side, label), n in counts.items():
        if side != "rel" and relationship_type in types and n == counts[(relationship_type, "rel", "")]:
            carried.setdefault((relationship_type, side), set()).add(label)
    return EndLabels(frozenset(types), {key: frozenset(labels) for key, labels in carried.items()})
