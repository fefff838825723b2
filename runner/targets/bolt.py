"""`bolt://host:port` and `neo4j://host:port` (Neo4j, Memgraph, ArcadeDB's Bolt plugin, `cookbook serve
--bolt`), through the official `neo4j` driver. Credentials come from the URI (`bolt://user:password@host`) or
NEO4J_USERNAME / NEO4J_PASSWORD; `?database=NAME` picks a database other than the server's default.

A Bolt server has no throwaway graph to give, so the page runs on the database as it is, which must be
empty: a target never runs on, or deletes, data it did not write. When the page ends its nodes and
relationships are deleted, and the indexes and constraints it created dropped.

Values: the driver's nodes, relationships and paths keep their element ids, numbered in the order first seen;
its labels come as a set, so a node's labels are sorted (the order they were added in is lost); `neo4j.time`
values carry nanoseconds and become the engine's temporal values field by field; spatial points keep their
SRID.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qs, urlsplit, urlunsplit

import engine
from runner.targets.protocol import CannotOpenTarget, TargetError, TargetResult, first_line, require
from runner.targets.values import IdNumbers, from_python_temporal

COUNTERS = ("nodes_created", "nodes_deleted", "relationships_created", "relationships_deleted", "properties_set",
            "labels_added", "labels_removed", "indexes_added", "indexes_removed", "constraints_added",
            "constraints_removed")
"""The driver's counters, named as the engine names them."""

SCHEMA = {"CONSTRAINT": "SHOW CONSTRAINTS YIELD name RETURN name", "INDEX": "SHOW INDEXES YIELD name RETURN name"}
"""What a page may create besides its graph, and how to list it: dropped by name when the page ends."""


class BoltTarget:
    """The (empty) default database of a Bolt server, or the one `?database=` names."""

    reports_counters = True

    def __init__(self, uri: str) -> None:
        neo4j = require("neo4j", "neo4j", "clients")
        self.uri = uri
        location = urlsplit(uri)
        user = location.username or os.environ.get("NEO4J_USERNAME")
        password = location.password or os.environ.get("NEO4J_PASSWORD")
        address = urlunsplit((location.scheme, location.hostname + (f":{location.port}" if location.port else "")
                              if location.hostname else "localhost", "", "", ""))
        self.database = parse_qs(location.query).get("database", [None])[0]
        try:
            self.driver = neo4j.GraphDatabase.driver(address, auth=(user, password or "") if user else None)
            self.driver.verify_connectivity()
            empty = self._records("MATCH (n) RETURN count(n) = 0 AS empty")[0][0]
        except Exception as error:
            with contextlib.suppress(Exception):
                self.driver.close()
            raise CannotOpenTarget(f"{uri}: cannot run on the Bolt server: {first_line(error)}") from error
        if not empty:
            self.driver.close()
            raise CannotOpenTarget(f"{uri}: the database is not empty; a page runs on an empty database, which "
                                   "it empties again when it ends, so point the target at an empty one")
        self.schema_before = {kind: self._names(listing) for kind, listing in SCHEMA.items()}
        self.values = BoltValues()

    def _session(self) -> Any:
        return self.driver.session(database=self.database) if self.database else self.driver.session()

    def _records(self, statement: str, params: Mapping[str, Any] | None = None) -> list[Any]:
        with self._session() as session:
            return list(session.run(statement, dict(params or {})))

    def _names(self, listing: str) -> set[str]:
        with contextlib.suppress(Exception):  # a server without SHOW has nothing the page could create
            return {str(record[0]) for record in self._records(listing)}
        return set()

    def run(self, statement: str, params: Mapping[str, Any]) -> TargetResult:
        try:
            with self._session() as session:
                result = session.run(statement, dict(params))
                columns = list(result.keys())
                records = list(result)
                counters = result.consume().counters
        except Exception as error:  # the driver's Neo4jError carries the server's status code
            kind = getattr(error, "code", None) or type(error).__name__
            message = getattr(error, "message", None) or first_line(error)
            raise TargetError(str(kind), str(message).splitlines()[0] if message else str(kind)) from error
        rows = [tuple(self.values.value(item) for item in record.values()) for record in records]
        return TargetResult(columns, rows, {name: int(getattr(counters, name)) for name in COUNTERS})

    def close(self) -> None:
        """Delete what the page wrote: its graph, then the constraints and indexes it created."""
        with contextlib.suppress(Exception):
            self._records("MATCH (n) DETACH DELETE n")
            for kind, listing in SCHEMA.items():  # constraints first: dropping one drops its index
                for name in sorted(self._names(listing) - self.schema_before[kind]):
                    self._records(f"DROP {kind} `{name.replace('`', '``')}` IF EXISTS")
        self.driver.close()


class BoltValues:
    """The driver's values as the engine's, for one page: element ids numbered in the order first seen."""

    def __init__(self) -> None:
        self.ids = IdNumbers()

    def value(self, value: Any) -> Any:
        """A value the driver returned, as the engine's."""
        from neo4j import graph, spatial, time

        if value is None or isinstance(value, bool | int | float | str):
            return value
        if isinstance(value, dict):
            return {str(key): self.value(item) for key, item in value.items()}
        if isinstance(value, graph.Node):
            return self.node(value)
        if isinstance(value, graph.Relationship):
            return self.relationship(value)
        if isinstance(value, graph.Path):
            return engine.Path(tuple(map(self.node, value.nodes)), tuple(map(self.relationship, value.relationships)))
        if isinstance(value, spatial.Point):
            return engine.Point(int(value.srid), *map(float, value))
        if isinstance(value, time.Duration):
            return engine.Duration(value.months, value.days, value.seconds, value.nanoseconds)
        for kind, convert in NEO4J_TIME.items():
            if isinstance(value, getattr(time, kind)):
                return convert(value)
        if isinstance(value, list | tuple):  # after points and durations, which are tuples too
            return [self.value(item) for item in value]
        temporal = from_python_temporal(value)
        if temporal is not None:
            return temporal
        raise TargetError("UnknownValue", f"the driver returned a value of type {type(value).__name__}: {value!r}")

    def node(self, node: Any) -> engine.Node:
        return engine.Node(self.ids.node(node.element_id), tuple(sorted(node.labels)),
                           {str(key): self.value(item) for key, item in node.items()})

    def relationship(self, relationship: Any) -> engine.Relationship:
        return engine.Relationship(self.ids.relationship(relationship.element_id), str(relationship.type),
                                   self.ids.node(relationship.start_node.element_id),
                                   self.ids.node(relationship.end_node.element_id),
                                   {str(key): self.value(item) for key, item in relationship.items()})


def _zone(value: Any) -> tuple[int, str | None]:
    """A zoned value's offset in seconds, and its zone's name when it has a named one (not a fixed offset)."""
    offset = value.utcoffset()
    seconds = int(offset.total_seconds()) if offset is not None else 0
    name = getattr(value.tzinfo, "key", None) or getattr(value.tzinfo, "zone", None)
    return seconds, name if isinstance(name, str) and not isinstance(value.tzinfo, dt.timezone) else None


def _clock(value: Any) -> tuple[int, int, int, int]:
    return value.hour, value.minute, int(value.second), value.nanosecond


def _datetime(value: Any) -> engine.LocalDateTime | engine.DateTime:
    fields = (value.year, value.month, value.day, *_clock(value))
    if value.tzinfo is None:
        return engine.LocalDateTime(*fields)
    return engine.DateTime(*fields, *_zone(value))


def _time(value: Any) -> engine.LocalTime | engine.Time:
    if value.tzinfo is None:
        return engine.LocalTime(*_clock(value))
    return engine.Time(*_clock(value), _zone(value)[0])


NEO4J_TIME: dict[str, Callable[[Any], Any]] = {
    "DateTime": _datetime,
    "Date": lambda value: engine.Date(value.year, value.month, value.day),
    "Time": _time,
}
"""A `neo4j.time` class → its engine value."""
