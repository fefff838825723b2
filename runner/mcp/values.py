"""Engine values → JSON values, for tool results an MCP client (and the model behind it) reads.

A tool result is JSON, so every value must become one: nodes, relationships and paths become maps that
say what they are (`id` with `labels`, `id` with `type`, `nodes` with `relationships`), temporal values
become ISO-8601 strings, and floats JSON cannot carry (NaN, ±Infinity) become the strings Cypher prints
for them. Map keys are kept as the engine gives them; the JSON encoder does not reorder them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import engine

JsonValue = None | bool | int | float | str | list[Any] | dict[str, Any]


def to_json(value: Any) -> JsonValue:
    """The JSON form of one result value; a value of a type not in JSON_MAPPERS is an error."""
    for base in type(value).__mro__:
        mapper = JSON_MAPPERS.get(base)
        if mapper is not None:
            return mapper(value)
    raise TypeError(f"no JSON form for a value of type {type(value).__name__}")


def row_to_json(columns: list[str], row: tuple[Any, ...]) -> dict[str, JsonValue]:
    """One result row as an object keyed by column name, in column order."""
    return {column: to_json(value) for column, value in zip(columns, row, strict=True)}


def node_to_json(node: engine.Node) -> dict[str, JsonValue]:
    return {"id": node.id, "labels": list(node.labels), "properties": _map(node.properties)}


def relationship_to_json(relationship: engine.Relationship) -> dict[str, JsonValue]:
    return {"id": relationship.id, "type": relationship.type, "start": relationship.start,
            "end": relationship.end, "properties": _map(relationship.properties)}


def path_to_json(path: engine.Path) -> dict[str, JsonValue]:
    return {"nodes": [node_to_json(node) for node in path.nodes],
            "relationships": [relationship_to_json(relationship) for relationship in path.relationships]}


def _map(mapping: dict[str, Any]) -> dict[str, JsonValue]:
    return {str(key): to_json(item) for key, item in mapping.items()}


def _float(number: float) -> float | str:
    if math.isnan(number):
        return "NaN"
    if math.isinf(number):
        return "Infinity" if number > 0 else "-Infinity"
    return number


def _clock(hour: int, minute: int, second: int, nanosecond: int) -> str:
    """`09:00:00`, with seconds always (RFC 3339 wants them) and a fraction only when non-zero."""
    fraction = f".{nanosecond:09d}".rstrip("0") if nanosecond else ""
    return f"{hour:02d}:{minute:02d}:{second:02d}{fraction}"


def _offset(seconds: int) -> str:
    if seconds == 0:
        return "Z"
    sign, seconds = ("+" if seconds > 0 else "-"), abs(seconds)
    text = f"{sign}{seconds // 3600:02d}:{seconds // 60 % 60:02d}"
    return text + (f":{seconds % 60:02d}" if seconds % 60 else "")


def _local_datetime(value: engine.LocalDateTime | engine.DateTime) -> str:
    date = engine.Date(value.year, value.month, value.day)
    return f"{date}T{_clock(value.hour, value.minute, value.second, value.nanosecond)}"


def datetime_to_json(value: engine.DateTime) -> str:
    """`2026-03-02T09:00:00Z`: the instant in the offset it was written in, and its zone name in brackets
    when it has one (RFC 9557), so nothing the engine knows is lost."""
    text = _local_datetime(value) + _offset(value.offset_seconds)
    return text + (f"[{value.zone}]" if value.zone else "")


JSON_MAPPERS: dict[type, Callable[[Any], JsonValue]] = {
    type(None): lambda value: None,
    bool: lambda value: value,
    int: lambda value: value,
    float: _float,
    str: lambda value: value,
    list: lambda value: [to_json(item) for item in value],
    tuple: lambda value: [to_json(item) for item in value],
    dict: _map,
    engine.Node: node_to_json,
    engine.Relationship: relationship_to_json,
    engine.Path: path_to_json,
    engine.DateTime: datetime_to_json,
    engine.LocalDateTime: _local_datetime,
    engine.Date: str,
    engine.Time: lambda value: _clock(value.hour, value.minute, value.second, value.nanosecond)
    + _offset(value.offset_seconds),
    engine.LocalTime: lambda value: _clock(value.hour, value.minute, value.second, value.nanosecond),
    engine.Duration: str,
    engine.Vector: lambda value: {"coordinateType": value.coordinate_type, "dimension": value.dimension,
                                  "coordinates": [_float(c) if isinstance(c, float) else c
                                                  for c in value.coordinates]},
    engine.Point: str,
}
"""Python type of a result value → its JSON form (looked up along the MRO, so `True` finds `bool`
before `int`)."""
