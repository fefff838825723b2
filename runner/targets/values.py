"""Conversions every target shares: Python's own temporal values into the engine's, and ids that are not
numbers into numbers.

The engine's values carry nanoseconds and an offset in seconds; Python's carry microseconds and a tzinfo.
A client that has nanoseconds of its own (the `neo4j` driver) converts them itself.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable
from typing import Any

import engine


def offset_seconds(value: dt.datetime | dt.time) -> int:
    offset = value.utcoffset()
    return int(offset.total_seconds()) if offset is not None else 0


def from_python_date(value: dt.date) -> engine.Date:
    return engine.Date(value.year, value.month, value.day)


def from_python_time(value: dt.time) -> engine.LocalTime | engine.Time:
    """A time with a tzinfo is a zoned TIME, one without a LOCAL TIME."""
    nanosecond = value.microsecond * 1000
    if value.tzinfo is None:
        return engine.LocalTime(value.hour, value.minute, value.second, nanosecond)
    return engine.Time(value.hour, value.minute, value.second, nanosecond, offset_seconds(value))


def from_python_datetime(value: dt.datetime, *, local: bool = False) -> engine.LocalDateTime | engine.DateTime:
    """A datetime with a tzinfo is a zoned DATETIME, one without (or any, with `local`) a LOCAL DATETIME."""
    fields = (value.year, value.month, value.day, value.hour, value.minute, value.second, value.microsecond * 1000)
    if local or value.tzinfo is None:
        return engine.LocalDateTime(*fields)
    return engine.DateTime(*fields, offset_seconds(value))


def from_python_temporal(value: Any) -> Any:
    """`value` as an engine temporal value when it is one of Python's, else None."""
    if isinstance(value, dt.datetime):
        return from_python_datetime(value)
    if isinstance(value, dt.date):
        return from_python_date(value)
    if isinstance(value, dt.time):
        return from_python_time(value)
    return None


class IdNumbers:
    """A target's element ids that are not numbers (ArcadeDB's `#7:0`, Neo4j's element ids) numbered from
    0 in the order first seen, nodes and relationships apart, for one page."""

    def __init__(self) -> None:
        self.nodes: dict[Hashable, int] = {}
        self.relationships: dict[Hashable, int] = {}

    def node(self, native: Hashable) -> int:
        return self.nodes.setdefault(native, len(self.nodes))

    def relationship(self, native: Hashable) -> int:
        return self.relationships.setdefault(native, len(self.relationships))
