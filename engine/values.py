"""The Python values a query returns: graph elements, paths and temporal values.

Scalars come back as plain Python values (None, bool, int, float, str, list, dict). Graph elements and
temporal values get small frozen classes of their own so callers can tell them apart from maps and strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, eq=False)
class Node:
    """A node: its internal id, labels in the order they were added, and its properties."""

    id: int
    labels: tuple[str, ...] = ()
    properties: dict[str, Any] = field(default_factory=dict)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and (self.id, self.labels, self.properties) == (
            other.id, other.labels, other.properties)

    def __hash__(self) -> int:
        return hash(("node", self.id))


@dataclass(frozen=True, eq=False)
class Relationship:
    """A relationship: id, type, the ids of its start and end nodes, and its properties."""

    id: int
    type: str
    start: int
    end: int
    properties: dict[str, Any] = field(default_factory=dict)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Relationship) and (
            self.id, self.type, self.start, self.end, self.properties) == (
            other.id, other.type, other.start, other.end, other.properties)

    def __hash__(self) -> int:
        return hash(("relationship", self.id))


@dataclass(frozen=True)
class Path:
    """A path: n nodes and n-1 relationships, in walking order (a relationship may point either way)."""

    nodes: tuple[Node, ...]
    relationships: tuple[Relationship, ...] = ()

    def __post_init__(self) -> None:
        if len(self.nodes) != len(self.relationships) + 1:
            raise ValueError("a path has one node more than it has relationships")


def _fraction(nanosecond: int) -> str:
    """`.123` / `.123456789`: nanoseconds without trailing zeros, or nothing."""
    if not nanosecond:
        return ""
    return "." + f"{nanosecond:09d}".rstrip("0")


def _offset_text(seconds: int) -> str:
    if seconds == 0:
        return "Z"
    sign = "+" if seconds > 0 else "-"
    seconds = abs(seconds)
    text = f"{sign}{seconds // 3600:02d}:{seconds // 60 % 60:02d}"
    return text + (f":{seconds % 60:02d}" if seconds % 60 else "")


def _year_text(year: int) -> str:
    """ISO-8601 as Java prints it: four digits, a sign before longer years, `-0044` for 45 BC."""
    if 0 <= year <= 9999:
        return f"{year:04d}"
    return f"{'+' if year > 0 else '-'}{abs(year)}" if abs(year) > 9999 else f"-{abs(year):04d}"


@dataclass(frozen=True, order=True)
class Date:
    year: int
    month: int
    day: int

    def __str__(self) -> str:
        return f"{_year_text(self.year)}-{self.month:02d}-{self.day:02d}"


@dataclass(frozen=True, order=True)
class LocalTime:
    hour: int
    minute: int
    second: int = 0
    nanosecond: int = 0

    def __str__(self) -> str:
        text = f"{self.hour:02d}:{self.minute:02d}"
        if self.second or self.nanosecond:
            text += f":{self.second:02d}{_fraction(self.nanosecond)}"
        return text


@dataclass(frozen=True)
class Time:
    """A time of day with a UTC offset."""

    hour: int
    minute: int
    second: int = 0
    nanosecond: int = 0
    offset_seconds: int = 0

    def __str__(self) -> str:
        return str(LocalTime(self.hour, self.minute, self.second, self.nanosecond)) + _offset_text(
            self.offset_seconds)


@dataclass(frozen=True, order=True)
class LocalDateTime:
    year: int
    month: int
    day: int
    hour: int = 0
    minute: int = 0
    second: int = 0
    nanosecond: int = 0

    def __str__(self) -> str:
        time = LocalTime(self.hour, self.minute, self.second, self.nanosecond)
        return f"{Date(self.year, self.month, self.day)}T{time}"


@dataclass(frozen=True)
class DateTime:
    """An instant with the offset (and, when given, the named zone) it was written in."""

    year: int
    month: int
    day: int
    hour: int = 0
    minute: int = 0
    second: int = 0
    nanosecond: int = 0
    offset_seconds: int = 0
    zone: str | None = None

    def local(self) -> LocalDateTime:
        return LocalDateTime(self.year, self.month, self.day, self.hour, self.minute, self.second,
                             self.nanosecond)

    def __str__(self) -> str:
        text = str(self.local()) + _offset_text(self.offset_seconds)
        return text + (f"[{self.zone}]" if self.zone else "")


@dataclass(frozen=True)
class Duration:
    """Months, days, seconds and nanoseconds, kept apart as Cypher keeps them."""

    months: int = 0
    days: int = 0
    seconds: int = 0
    nanoseconds: int = 0

    def __str__(self) -> str:
        years, months = divmod(self.months, 12) if self.months >= 0 else (
            -(-self.months // 12), -(-self.months % 12))
        text = "P"
        if years:
            text += f"{years}Y"
        if months:
            text += f"{months}M"
        if self.days:
            text += f"{self.days}D"
        total_nanos = self.seconds * 1_000_000_000 + self.nanoseconds
        if total_nanos:
            text += "T"
            sign = "-" if total_nanos < 0 else ""
            total_nanos = abs(total_nanos)
            hours, rest = divmod(total_nanos, 3_600_000_000_000)
            minutes, rest = divmod(rest, 60_000_000_000)
            seconds, nanos = divmod(rest, 1_000_000_000)
            if hours:
                text += f"{sign}{hours}H"
            if minutes:
                text += f"{sign}{minutes}M"
            if seconds or nanos:
                text += f"{sign}{seconds}{_fraction(nanos)}S"
        return text if text != "P" else "PT0S"


TEMPORAL_TYPES = (Date, LocalTime, Time, LocalDateTime, DateTime, Duration)
