"""One value → its literal text, as `table` cells and `gram` properties show it.

The spec fixes: strings in double quotes, `null`, `true`/`false`, integers, floats in their shortest
round-trip form with `.0` when integral, lists `[1, "a"]`, maps `{key: value}` with keys sorted and bare
(backtick-quoted when not a plain identifier), datetimes as quoted ISO-8601 UTC strings with seconds
(`"2026-03-02T09:00:00Z"`, a fraction only when non-zero), and graph elements as gram.

Where the spec says nothing this module uses Cypher's own forms, as the engine's `toString` gives them:
the other temporal values as quoted strings (`"2026-03-02"`, `"09:00:00"`, `"09:00:00+01:00"`,
`"2026-03-02T09:00:00"`, `"P1Y2M3DT4H"`), times always with seconds like datetimes; points unquoted as
toString() writes them, a Cypher expression for the point (`point({x: 1.0, y: 2.0, crs: 'cartesian'})`); floats
in Java's notation (`engine.java_double_text`): the shortest round-trip digits, plain from 1e-3 up to 1e7
(`0.001`, `1234567.0`) and `1.0E7` / `1.5E-4` outside that range; `NaN`, `Infinity`, `-Infinity`; a Cypher 25
VECTOR as the manual's result tables write one, `vector([1, 2, 3], 3, INTEGER NOT NULL)` (coordinates,
dimension, coordinate type: `engine.Vector.__str__`, a FLOAT32 coordinate with the shortest digits of its 32-bit
float). In strings `"` and `\\` are escaped with a backslash, as are line breaks, tabs and other control
characters (`\\n`, `\\u0001`), so a value never spans lines; other characters are written as they are.

A relationship that is a value on its own (not inside a path) is written with its end nodes as
references, `(n3)-[r7:KNOWS]->(n4)`, so that it is still gram.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

import engine

IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


class Seen:
    """The node ids already written in full in the current scope (a gram block, or one table cell)."""

    def __init__(self) -> None:
        self.nodes: set[int] = set()


def format_value(value: Any, seen: Seen | None = None) -> str:
    """The literal text of one value. `seen` decides whether a node is written in full or as `(nID)`."""
    formatter = _formatter_for(type(value))
    return formatter(value, seen if seen is not None else Seen())


def _formatter_for(kind: type) -> Callable[[Any, Seen], str]:
    for base in kind.__mro__:
        if base in VALUE_FORMATTERS:
            return VALUE_FORMATTERS[base]
    raise TypeError(f"no rendering for a value of type {kind.__name__}")


def format_string(text: str) -> str:
    out = []
    for char in text:
        if char in ESCAPES:
            out.append(ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def format_float(number: float) -> str:
    """The engine's own text for a float, the one its toString() gives (Java's Double.toString)."""
    return engine.java_double_text(number)


def format_key(key: str) -> str:
    """A map key or property name: bare when it is a plain identifier, else in backticks."""
    return key if IDENTIFIER.match(key) else "`" + key.replace("`", "``") + "`"


def format_map(mapping: dict[str, Any], seen: Seen) -> str:
    items = ", ".join(f"{format_key(str(key))}: {format_value(mapping[key], seen)}"
                      for key in sorted(mapping, key=str))
    return "{" + items + "}"


def format_list(items: list[Any] | tuple[Any, ...], seen: Seen) -> str:
    return "[" + ", ".join(format_value(item, seen) for item in items) + "]"


def format_datetime(value: engine.DateTime) -> str:
    """An instant as ISO-8601 in UTC, always with seconds: `"2026-03-02T09:00:00Z"`."""
    try:
        local = dt.datetime(value.year, value.month, value.day, value.hour, value.minute, value.second)
        utc = local - dt.timedelta(seconds=value.offset_seconds)
        year, month, day = utc.year, utc.month, utc.day
        hour, minute, second = utc.hour, utc.minute, utc.second
    except (ValueError, OverflowError):  # outside Python's years 1..9999: keep the offset as written
        return format_string(str(value))
    fraction = f".{value.nanosecond:09d}".rstrip("0") if value.nanosecond else ""
    return f'"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}{fraction}Z"'


def _clock(hour: int, minute: int, second: int, nanosecond: int) -> str:
    fraction = f".{nanosecond:09d}".rstrip("0") if nanosecond else ""
    return f"{hour:02d}:{minute:02d}:{second:02d}{fraction}"


def format_local_time(value: engine.LocalTime) -> str:
    return f'"{_clock(value.hour, value.minute, value.second, value.nanosecond)}"'


def format_time(value: engine.Time) -> str:
    offset = str(engine.Time(0, 0, 0, 0, value.offset_seconds))[len("00:00"):]
    return f'"{_clock(value.hour, value.minute, value.second, value.nanosecond)}{offset}"'


def format_local_datetime(value: engine.LocalDateTime) -> str:
    date = str(engine.Date(value.year, value.month, value.day))
    return f'"{date}T{_clock(value.hour, value.minute, value.second, value.nanosecond)}"'


def format_node(node: engine.Node, seen: Seen) -> str:
    """`(n5:Entity {key: "…"})` the first time in a scope, `(n5)` after that."""
    if node.id in seen.nodes:
        return f"(n{node.id})"
    seen.nodes.add(node.id)
    labels = "".join(":" + format_key(label) for label in node.labels)
    properties = " " + format_map(node.properties, seen) if node.properties else ""
    return f"(n{node.id}{labels}{properties})"


def format_relationship_body(relationship: engine.Relationship, seen: Seen) -> str:
    """`[r48:ABOUT {…}]`, the part between the arrow's dashes."""
    properties = " " + format_map(relationship.properties, seen) if relationship.properties else ""
    return f"[r{relationship.id}:{format_key(relationship.type)}{properties}]"


def format_step(relationship: engine.Relationship, from_id: int, seen: Seen) -> str:
    """The relationship as a path walks it from node `from_id`: `-[…]->` along it, `<-[…]-` against it."""
    body = format_relationship_body(relationship, seen)
    forward = relationship.start == from_id
    return f"-{body}->" if forward else f"<-{body}-"


def format_relationship(relationship: engine.Relationship, seen: Seen) -> str:
    body = format_relationship_body(relationship, seen)
    return f"(n{relationship.start})-{body}->(n{relationship.end})"


def format_path(path: engine.Path, seen: Seen) -> str:
    parts = [format_node(path.nodes[0], seen)]
    for relationship, previous, node in zip(path.relationships, path.nodes, path.nodes[1:], strict=False):
        parts.append(format_step(relationship, previous.id, seen))
        parts.append(format_node(node, seen))
    return "".join(parts)


VALUE_FORMATTERS: dict[type, Callable[[Any, Seen], str]] = {
    type(None): lambda value, seen: "null",
    bool: lambda value, seen: "true" if value else "false",
    int: lambda value, seen: str(value),
    float: lambda value, seen: format_float(value),
    str: lambda value, seen: format_string(value),
    list: format_list,
    tuple: format_list,
    dict: format_map,
    engine.Node: format_node,
    engine.Relationship: format_relationship,
    engine.Path: format_path,
    engine.DateTime: lambda value, seen: format_datetime(value),
    engine.LocalDateTime: lambda value, seen: format_local_datetime(value),
    engine.Date: lambda value, seen: f'"{value}"',
    engine.Time: lambda value, seen: format_time(value),
    engine.LocalTime: lambda value, seen: format_local_time(value),
    engine.Duration: lambda value, seen: f'"{value}"',
    engine.Vector: lambda value, seen: str(value),
    engine.Point: lambda value, seen: str(value),
}
"""Python type of a result value → its literal text. A value of any other type is an error."""

GRAPH_TYPES = (engine.Node, engine.Relationship, engine.Path)


def is_graph_value(value: Any) -> bool:
    return isinstance(value, GRAPH_TYPES)
