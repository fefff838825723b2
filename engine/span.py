"""Source positions carried by every token, syntax node and bound node."""

from __future__ import annotations

from typing import NamedTuple


class Span(NamedTuple):
    """A range of the statement text: 1-based line and column of its start, 0-based offsets.

    Immutable and hashable. A named tuple rather than a frozen dataclass because the tokenizer makes one per
    token and the parser one per node: a tuple is built about three times faster.
    """

    line: int
    column: int
    start: int
    end: int

    def __repr__(self) -> str:
        return f"{self.line}:{self.column}"

    def cover(self, other: Span) -> Span:
        """The smallest span holding both this one and `other`."""
        first = self if self.start <= other.start else other
        return Span(first.line, first.column, first.start, max(self.end, other.end))

