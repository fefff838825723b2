"""The catalog's end-label counts: per relationship type, how many relationships there are, and how many
have a start (end) node carrying each label (ADR-0092).

`graph_end_labels(type, side, label, n)` holds changes to the counts, summed per (type, side, label) as
they are read: side `rel` with label '' counts the type's relationships; side `src` (`dst`) with a label
counts those whose start (end) node carries it; side `loop` with label '' counts the type's self-loops
(ADR-0098). When the first two counts are equal, every start (end) node of the type carries the label, and
a pattern's test of that label on a node it reaches over such a relationship decides nothing; where a type
has no self-loop, two consecutive relationships of it in one direction are never the same one (both rules:
plan/rules/end_labels.py). Writes keep the counts exact in their own transaction
(engine/execute/end_labels.py), so a rollback undoes them with the data, except that relationships a
statement creates may stay out of them after it commits (`Uncounted`, ADR-0111): a read adds what they
contribute (`Overlay`), and the next write stores that.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import duckdb

Side = Literal["src", "dst"]

Range = tuple[int, int]
"""Relationship ids `first` to `last` - 1."""

TABLE = "graph_end_labels"

CREATE = (f"CREATE TABLE IF NOT EXISTS {TABLE} (type VARCHAR NOT NULL, side VARCHAR NOT NULL,"
          " label VARCHAR NOT NULL, n BIGINT NOT NULL)")
"""Rows are changes, summed as they are read: an INSERT costs a write a fraction of what an upsert of the
same rows does in DuckDB (ON CONFLICT DO UPDATE, 2-10 ms), and `compact` folds them now and then."""

SUMMED = f"(SELECT type, side, label, sum(n) AS n FROM {TABLE} GROUP BY ALL HAVING sum(n) <> 0)"
"""The counts: each (type, side, label)'s changes summed."""


def contributions(where: str, schema: str = "") -> str:
    """The (type, side, label, n) rows the relationships `r` of `rels` meeting `where` add to the counts: the
    relationships first (one scan), the self-loops among them, then the labels at both ends in one join
    with the nodes, which a load batch among a million nodes pays half as much as a join per end (ADR-0097)."""
    prefix = f"{schema}." if schema else ""
    return (f"WITH c AS MATERIALIZED (SELECT r.type, r.src, r.dst FROM {prefix}rels AS r WHERE {where})"
            " SELECT type, side, label, count(*) AS n FROM (SELECT type, 'rel' AS side, '' AS label FROM c"
            " UNION ALL SELECT type, 'loop', '' FROM c WHERE src = dst"
            " UNION ALL SELECT x.type, x.side, unnest(list_distinct(e.labels)) FROM (SELECT type, 'src' AS side,"
            f" src AS id FROM c UNION ALL SELECT type, 'dst', dst FROM c) AS x JOIN {prefix}nodes AS e ON e.id = x.id)"
            " GROUP BY ALL")


def labels_moved(pairs: str, sign: int) -> str:
    """The statement adding (`sign` 1) or taking away (-1) a label at every end of a relationship that is one
    of the (id, l) `pairs`: what a label added to or removed from those nodes changes."""
    return (f"INSERT INTO {TABLE} SELECT type, side, l, {int(sign)} * count(*) FROM ("
            f"SELECT r.type, 'src' AS side, p.l FROM {pairs} AS p JOIN rels AS r ON r.src = p.id"
            f" UNION ALL SELECT r.type, 'dst', p.l FROM {pairs} AS p JOIN rels AS r ON r.dst = p.id) GROUP BY ALL")


def add(where: str, sign: int, schema: str = "") -> str:
    """The statement adding (`sign` 1) or taking away (-1) what the relationships meeting `where` contribute;
    `schema`: the graph's, where the search path may be on another."""
    prefix = f"{schema}." if schema else ""
    return (f"INSERT INTO {prefix}{TABLE} SELECT type, side, label, {int(sign)} * n"
            f" FROM ({contributions(where, schema)})")


def add_ends(ends: str) -> str:
    """The statement counting the relationships whose (type, src, dst, src_labels, dst_labels) rows the SELECT
    `ends` yields, their end nodes' labels known without joining the nodes (ADR-0097). The rows are grouped
    first: a load batch's ends carry a few label lists, unnested once each instead of once per relationship."""
    return (f"INSERT INTO {TABLE} WITH g AS MATERIALIZED (SELECT type, src_labels, dst_labels, count(*) AS n,"
            f" count(*) FILTER (src = dst) AS loops FROM ({ends}) GROUP BY ALL)"
            " SELECT type, side, label, sum(n) FROM (SELECT type, 'rel' AS side, '' AS label, n FROM g"
            " UNION ALL SELECT type, 'loop', '', loops FROM g WHERE loops > 0"
            " UNION ALL SELECT type, 'src', unnest(list_distinct(src_labels)), n FROM g"
            " UNION ALL SELECT type, 'dst', unnest(list_distinct(dst_labels)), n FROM g) GROUP BY ALL")


def ranges_where(ranges: tuple[Range, ...]) -> str:
    """The condition on `r.id` of relationships in `ranges` (integers, written into the SQL)."""
    return " OR ".join(f"(r.id >= {int(first)} AND r.id < {int(last)})" for first, last in ranges)


def joined(*parts: tuple[Range, ...]) -> tuple[Range, ...]:
    """The ids of every range of `parts`, as sorted ranges that neither overlap nor touch."""
    merged: list[Range] = []
    for first, last in sorted(r for part in parts for r in part if r[0] < r[1]):
        if merged and first <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(last, merged[-1][1]))
        else:
            merged.append((first, last))
    return tuple(merged)


def without(ranges: tuple[Range, ...], taken: tuple[Range, ...]) -> tuple[Range, ...]:
    """The ids of `ranges` not in `taken`, as ranges."""
    left: list[Range] = []
    for first, last in joined(ranges):
        for cut_first, cut_last in joined(taken):
            if cut_last <= first or cut_first >= last:
                continue
            if cut_first > first:
                left.append((first, cut_first))
            first = max(first, cut_last)
            if first >= last:
                break
        if first < last:
            left.append((first, last))
    return tuple(left)


INSERT_ROWS = (f"INSERT INTO {TABLE} SELECT unnest($1::VARCHAR[]), unnest($2::VARCHAR[]), unnest($3::VARCHAR[]),"
               " unnest($4::BIGINT[])")
"""Change rows already worked out (an `Overlay`'s), as four bound lists: one SQL text, whatever the rows."""


def row_lists(rows: tuple[tuple[str, str, str, int], ...]) -> list[list[Any]]:
    """`INSERT_ROWS`'s four parameters."""
    return [[row[column] for row in rows] for column in range(4)]


CONSISTENT = (f"SELECT (SELECT coalesce(sum(n), 0) FROM {TABLE} WHERE side = 'rel')"
              " = (SELECT count(*) FROM rels)")
"""Whether the counts hold every relationship: not where a process ended with some uncounted (`Uncounted`)."""

RECOUNT = (f"DELETE FROM {TABLE}", f"INSERT INTO {TABLE} {contributions('true')}")
"""Count a graph afresh, where `CONSISTENT` says its counts miss relationships."""


@dataclass(frozen=True)
class Overlay:
    """What relationships the counts miss contribute to them, as a read worked them out (a SELECT of
    `contributions`, no write): the counts plus these rows are exact while the same relationships are missed.
    Whatever could change their contribution (a label set or removed at an end, a deletion) counts them first,
    and so ends that. The next writing statement stores the rows (`INSERT_ROWS`) without reading the
    relationships again."""

    ranges: tuple[Range, ...]
    rows: tuple[tuple[str, str, str, int], ...]


@dataclass
class Uncounted:
    """A graph's committed relationships that are not in its counts yet, held in the process (ADR-0111). A
    small write's relationships would each cost an INSERT of counts (a join of them with their end nodes,
    about 4 ms); left out, they are counted once for many writes: by a read that asks (`Overlay`), stored
    by the write after it; by any write that deletes or changes labels, first; by the last store to close
    a file. A process that ends without storing them leaves counts that `CONSISTENT` finds short, and the
    next opening counts the graph again."""

    ranges: tuple[Range, ...] = ()
    overlay: Overlay | None = None
    checked: bool = False
    """Whether the stored counts were checked (`CONSISTENT`) when this process first opened the graph."""


COUNT_ALL = f"INSERT INTO {TABLE} {contributions('true')}"
"""The counts of a whole graph: run once, when a graph made before them is first opened for writing."""

COUNT_LOOPS = f"INSERT INTO {TABLE} SELECT type, 'loop', '', count(*) FROM rels WHERE src = dst GROUP BY type"
"""The self-loop counts of a whole graph: run once, when a graph counted before they were is first opened for
writing (ADR-0098)."""


@dataclass(frozen=True)
class EndLabels:
    """The counts as they stand in a transaction: what `holds` answers from."""

    types: frozenset[str] = frozenset()
    """The types that have relationships."""
    carried: Mapping[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    """Per (type, side), the labels every such end of the type's relationships carries."""
    loops: frozenset[str] | None = None
    """The types that have self-loops; None where the store has not counted them (a file counted before
    ADR-0098, opened read-only): every type may have."""
    known: bool = True
    """False where the store has no counts (a file opened read-only before they existed): nothing holds."""

    def holds(self, relationship_type: str, side: Side, label: str) -> bool:
        """Whether every `side` node of a `relationship_type` relationship carries `label` (so where there is
        none)."""
        if not self.known:
            return False
        return relationship_type not in self.types or label in self.carried.get((relationship_type, side), ())


    def loop_free(self, relationship_types: frozenset[str] | None) -> bool:
        """Whether no relationship of `relationship_types` (None: of any type) is a self-loop."""
        if not self.known or self.loops is None:
            return False
        return not (self.loops if relationship_types is None else self.loops & relationship_types)


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


def missed(connection: duckdb.DuckDBPyConnection, ranges: tuple[Range, ...]) -> tuple[tuple[str, str, str, int], ...]:
    """What the relationships of `ranges`, which the counts miss, add to them (change rows; no write)."""
    rows = connection.execute(f"SELECT * FROM ({contributions(ranges_where(ranges))})").fetchall()
    return tuple((relationship_type, side, label, int(n)) for relationship_type, side, label, n in rows)


def add_rows(counts: Counts, rows: list[tuple[str, str, str, int]] | tuple[tuple[str, str, str, int], ...]) -> None:
    """Fold change rows (`DELTA`, a handful: one per type, side and label a write touched) into `counts`."""
    for relationship_type, side, label, n in rows:
        key = (relationship_type, side, label)
        total = counts.get(key, 0) + int(n)
        if total:
            counts[key] = total
        else:
            counts.pop(key, None)


def of_counts(counts: Counts, *, loops_counted: bool = True) -> EndLabels:
    """The labels every end of each type carries (those whose count equals the type's relationships'), and
    the types with self-loops (`loops_counted`: whether the graph counts them)."""
    types = {relationship_type for (relationship_type, side, _), n in counts.items() if side == "rel" and n > 0}
    loops = {relationship_type for (relationship_type, side, _), n in counts.items() if side == "loop" and n > 0}
    carried: dict[tuple[str, str], set[str]] = {}
    for (relationship_type, side, label), n in counts.items():
        if side in ("src", "dst") and relationship_type in types and n == counts[(relationship_type, "rel", "")]:
            carried.setdefault((relationship_type, side), set()).add(label)
    return EndLabels(frozenset(types), {key: frozenset(labels) for key, labels in carried.items()},
                     frozenset(loops) if loops_counted else None)
