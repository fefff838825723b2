"""What a cell's result is (spec §2): the last statement's rows, and counters summed over all statements.

Kept apart from `run.py` so the renderers and the comparator can take a result without running anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import engine

COUNTER_LABELS: dict[str, str] = {
    "nodes_created": "nodes created",
    "nodes_deleted": "nodes deleted",
    "relationships_created": "relationships created",
    "relationships_deleted": "relationships deleted",
    "properties_set": "properties set",
    "labels_added": "labels added",
    "labels_removed": "labels removed",
    "indexes_added": "indexes added",
    "indexes_removed": "indexes removed",
    "constraints_added": "constraints added",
    "constraints_removed": "constraints removed",
}
"""Counter key → its words in a footer, in the order footers list them."""


@dataclass
class CellResult:
    """The outcome of a cell's statements: columns and rows of the last one, counters of all of them.

    `ordered` is the last statement's: True when its final projection has ORDER BY.
    """

    columns: list[str]
    rows: list[tuple[Any, ...]]
    counters: dict[str, int] = field(default_factory=dict)
    ordered: bool = False

    @classmethod
    def from_results(cls, results: Sequence[engine.Result]) -> CellResult:
        counters = dict.fromkeys(COUNTER_LABELS, 0)
        for result in results:
            for key, count in result.counters.items():
                counters[key] = counters.get(key, 0) + count
        if not results:
            return cls(columns=[], rows=[], counters=counters)
        last = results[-1]
        return cls(columns=list(last.columns), rows=[tuple(row) for row in last.fetchall()],
                   counters=counters, ordered=bool(last.ordered))

    def nonzero_counters(self) -> dict[str, int]:
        """The counters to show, in footer order (unknown keys after the known ones)."""
        ordered_keys = [*COUNTER_LABELS, *sorted(set(self.counters) - set(COUNTER_LABELS))]
        return {key: self.counters[key] for key in ordered_keys if self.counters.get(key)}


@dataclass(frozen=True)
class RaisedError:
    """The error a cell marked `error` raised: the engine's CypherError as its `error` block records it.

    `headline` is the block's first line, `Kind: Detail` (or `Kind` when the error has no detail);
    `message` is the error's message without its position and caret.
    """

    kind: str
    detail: str | None
    message: str

    @classmethod
    def from_error(cls, error: engine.CypherError) -> RaisedError:
        return cls(error.kind, error.detail or None, error.message)

    @property
    def headline(self) -> str:
        return f"{self.kind}: {self.detail}" if self.detail else self.kind
