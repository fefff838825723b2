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


@dataclass(frozen=True)
class Window:
    """`size` rows of a read's result from `offset` on, in its row order (ADR-0088): the final SELECT fetches
    those and one more (to tell whether rows follow), never the rest, so a client that shows a page of a large
    result reads no more than the page from DuckDB."""

    offset: int
    size: int

    def __post_init__(self) -> None:
        if not (isinstance(self.offset, int) and isinstance(self.size, int) and self.offset >= 0 and self.size >= 0):
            raise ValueError(f"a window needs a non-negative offset and size, not {self.offset!r}, {self.size!r}")


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

    more: bool = False
    """With a window: rows follow the ones returned."""
    ties: list[int] | None = None
    """With a window, for each row returned and the one after it (when `more`): its group among rows tied in the
    statement's row order, as DuckDB ranks them (equal: tied). None where the rows came some other way."""
    repeatable: bool = False
    """Whether running the statement again, on the same data, gives the same rows in the same order: a read that
    is one SELECT (no temporary table numbered its rows), calling nothing random or clock-bound (ADR-0088)."""

    def resumable_at(self, count: int) -> bool:
        """Whether the same statement, run again on the same data with a window from `offset + count`, returns
        exactly the rows after the first `count` of these: it is repeatable, and the rows `count - 1` and
        `count` are not tied in its row order (tied rows may come in either order on another run)."""
        if not self.repeatable or self.ties is None or not 0 < count < len(self.ties):
            return False
        return self.ties[count - 1] != self.ties[count]

    def fetchall(self) -> list[tuple[Any, ...]]:
        return list(self.rows)

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def contains_updates(self) -> bool:
        return any(self.counters.values())
