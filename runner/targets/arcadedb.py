"""`arcadedb:`: ArcadeDB embedded (`arcadedb-embedded`, its own JRE through JPype), a new database in a
temporary directory for each page, closed and removed when the page ends.

Each statement runs as one transaction of ArcadeDB's openCypher engine. Its results are Java objects: boxed
scalars and collections, vertices and edges (whose `#bucket:position` ids are numbered in the order first
seen), `TraversalPath`s, and Cypher temporal values wrapping `java.time` ones; they become the engine's
values here. The client gives no update counters, so this target's counters are not compared.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import engine
from runner.targets.protocol import CannotOpenTarget, TargetError, TargetResult, first_line, require
from runner.targets.values import IdNumbers, from_python_temporal

JAVA_SCALARS: dict[str, Callable[[Any], Any]] = {
    "Boolean": bool, "String": str, "Integer": int, "Long": int, "Short": int, "Byte": int, "Double": float,
    "Float": float}
"""Boxed Java values, as element properties come back from ArcadeDB, and the Python type they stand for."""

JAVA_LISTS = ("ArrayList", "List", "LinkedList", "ImmutableCollections.ListN", "ListN", "List12")
JAVA_MAPS = ("HashMap", "LinkedHashMap", "Map", "TreeMap")
LOGGING = Path(__file__).with_name("arcadedb-logging.properties")
"""Read when the JVM starts (the first database a process opens): severe messages only, and no log files."""
ERROR_PREFIXES = ("Command failed: ", "Query failed: ")
CAUSE = re.compile(r"\(caused by ([^\n]*)\)\s*$")


class ArcadeDBTarget:
    """A new ArcadeDB database in a temporary directory."""

    reports_counters = False

    def __init__(self, uri: str) -> None:
        arcade = require("arcadedb_embedded", "arcadedb-embedded", "bench")
        if uri.rstrip("/") != "arcadedb:":
            raise CannotOpenTarget(f"{uri}: ArcadeDB embedded runs on a temporary database of its own: "
                                   "write the target as `arcadedb:`")
        self.uri = uri
        self.directory = tempfile.mkdtemp(prefix="cookbook-arcadedb-")
        try:
            self.db = arcade.create_database(os.path.join(self.directory, "db"), jvm_kwargs={
                "jvm_args": f"-Djava.util.logging.config.file={LOGGING}"})
        except Exception as error:
            shutil.rmtree(self.directory, ignore_errors=True)
            raise CannotOpenTarget(f"{uri}: cannot create an ArcadeDB database: {first_line(error)}") from error
        self.ids = IdNumbers()

    def run(self, statement: str, params: Mapping[str, Any]) -> TargetResult:
        try:
            with self.db.transaction():
                result = self.db.command("opencypher", statement, dict(params)) if params else \
                    self.db.command("opencypher", statement)
                rows = result.to_list() if result is not None else []
        except Exception as error:
            raise TargetError(type(error).__name__, error_message(error)) from error
        columns = [str(name) for name in rows[0]] if rows else []
        converted = [tuple(self.value(item) for item in row.values()) for row in rows]
        return TargetResult(columns, converted, None)

    def value(self, value: Any) -> Any:
        """A value ArcadeDB returned, as the engine's."""
        simple = type(value).__name__.rsplit(".", 1)[-1]
        if simple in JAVA_SCALARS:
            return JAVA_SCALARS[simple](value)
        if value is None or isinstance(value, bool | int | float | str):
            return value
        if isinstance(value, list | tuple) or simple in JAVA_LISTS:
            return [self.value(item) for item in value]
        if isinstance(value, dict) or simple in JAVA_MAPS:
            mapping = {str(key): self.value(item) for key, item in dict(value).items()}
            return _point(mapping) if {"crs", "srid", "x", "y"} <= set(mapping) else mapping
        temporal = from_python_temporal(value)  # inside maps, JPype converts some java.time values
        if temporal is not None:
            return temporal
        if "Vertex" in simple:
            return self.node(value)
        if "Edge" in simple:
            return self.relationship(value)
        if simple == "TraversalPath":
            return engine.Path(tuple(map(self.node, value.getVertices())),
                               tuple(map(self.relationship, value.getEdges())))
        if simple == "CypherDuration":
            return engine.Duration(int(value.getMonths()), int(value.getDays()), int(value.getSeconds()),
                                   int(value.getNanosAdjustment()))
        if simple.startswith("Cypher"):  # the other Cypher temporal values wrap a java.time value
            value, simple = value.getValue(), type(value.getValue()).__name__.rsplit(".", 1)[-1]
        if simple in JAVA_TIME:
            return JAVA_TIME[simple](value)
        raise TargetError("UnknownValue", f"ArcadeDB returned a value of type {type(value).__name__}: {value}")

    def node(self, vertex: Any) -> engine.Node:
        return engine.Node(self.ids.node(str(vertex.getIdentity())), tuple(arcade_labels(vertex)),
                           {key: self.value(item) for key, item in arcade_properties(vertex).items()})

    def relationship(self, edge: Any) -> engine.Relationship:
        return engine.Relationship(self.ids.relationship(str(edge.getIdentity())), str(edge.getTypeName()),
                                   self.ids.node(str(edge.getOut())), self.ids.node(str(edge.getIn())),
                                   {key: self.value(item) for key, item in arcade_properties(edge).items()})

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.db.close()
        shutil.rmtree(self.directory, ignore_errors=True)


def error_message(error: Exception) -> str:
    """ArcadeDB's message on one line: its first line, which may only echo the statement, and the exception
    that caused it, which ArcadeDB puts at the end."""
    message = first_line(error)
    for prefix in ERROR_PREFIXES:
        message = message.removeprefix(prefix)
    cause = CAUSE.search(str(error))
    return f"{message} (caused by {cause[1]})" if cause and cause[1] not in message else message


def arcade_properties(element: Any) -> dict[str, Any]:
    return {str(key): element.get(key) for key in element.getPropertyNames()}


def arcade_labels(vertex: Any) -> list[str]:
    """ArcadeDB keeps a vertex in one type named after its labels, sorted and joined by `~` (`A~B`), and an
    unlabelled one in `~NO_LABEL~`: the order labels were added in is lost."""
    name = str(vertex.getTypeName())
    return [] if name == "~NO_LABEL~" else name.split("~")


def _point(mapping: dict[str, Any]) -> engine.Point:
    return engine.Point(int(mapping["srid"]), float(mapping["x"]), float(mapping["y"]),
                        None if mapping.get("z") is None else float(mapping["z"]))


def _clock(value: Any) -> tuple[int, int, int, int]:
    return int(value.getHour()), int(value.getMinute()), int(value.getSecond()), int(value.getNano())


def _date(value: Any) -> tuple[int, int, int]:
    return int(value.getYear()), int(value.getMonthValue()), int(value.getDayOfMonth())


def _offset(value: Any) -> int:
    return int(value.getOffset().getTotalSeconds())


def _zoned(value: Any) -> engine.DateTime:
    zone = value.getZone()
    region = None if type(zone).__name__.endswith("ZoneOffset") else str(zone.getId())
    return engine.DateTime(*_date(value), *_clock(value), _offset(value), region)


JAVA_TIME: dict[str, Callable[[Any], Any]] = {
    "LocalDate": lambda value: engine.Date(*_date(value)),
    "LocalTime": lambda value: engine.LocalTime(*_clock(value)),
    "OffsetTime": lambda value: engine.Time(*_clock(value), _offset(value)),
    "LocalDateTime": lambda value: engine.LocalDateTime(*_date(value), *_clock(value)),
    "OffsetDateTime": lambda value: engine.DateTime(*_date(value), *_clock(value), _offset(value)),
    "ZonedDateTime": _zoned,
}
"""A `java.time` class's simple name → its engine value."""
