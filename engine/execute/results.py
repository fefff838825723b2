"""The result of one statement: column names, rows of Python values, and update counters."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

COUNTER_NAMES: tuple[str, ...] = (
    "nodes_created",
    "nodes_deleted",
    "relationships_created",
    "relationships_deleted",
    "properties_set",
    "labels_added",
    "labels_removed",
    "indexes_added",
    "indexes_removed",
    "constraints_added",
    "constraints_removed",
)


def empty_counters() -> dict[str, int]:
    return dict.fromkeys(COUNTER_NAMES, 0)


@dataclass
class Result:
    """What `Connection.execute` returns.

    `ordered` is True when the statement's final projection has ORDER BY, so callers comparing results
    know whether row order is part of the answer.
    """

    columns: list[str]
    rows: list[tuple[Any, ...]]
    counters: dict[str, int] = field(default_factory=empty_counters)
    ordered: bool = False
    statement: str = ""
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds the statement took: `total` (from its text to its decoded rows), `bind` (parsing and binding;
    0 for a statement whose compiled read was reused) and `sql` (inside DuckDB); the rest of `total` is the
    engine's own (planning, SQL generation, decoding)."""
    plan: list[dict[str, Any]] | None = None
    """For EXPLAIN and PROFILE: the plan's steps (`id`, `operator`, `details`, `notes`; PROFILE adds `rows`
    and `ms`), engine/plan/describe.py."""
    query_type: str = "r"
    """Neo4j's query type of the statement, known from its plan whatever it changed (EXPLAIN's too): `r` reads
    only, `w` writes and returns nothing, `rw` writes and returns rows, `s` changes the schema. Clients read it
    from a Bolt summary to tell a write from a read without running it (`EXPLAIN` first)."""

    def fetchall(self) -> list[tuple[Any, ...]]:
        return list(self.rows)

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def contains_updates(self) -> bool:
        return any(self.counters.values())
