"""Source positions carried by every token, syntax node and bound node."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    """A range of the statement text: 1-based line and column of its start, 0-based offsets."""

    line: int
    column: int
    start: int
    end: int

    def __repr__(self) -> str:
        return f"{self.line}:{self.column}"

    def cover(self, other: Span) -> Span:
        """The smallest span holding both this one and `other`."""
        first, last = (self, other) if self.start <= other.start else (other, self)
        return Span(first.line, first.column, first.start, max(self.end, other.end))


UNKNOWN = Span(1, 1, 0, 0)
