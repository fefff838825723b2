"""Engine values ↔ Bolt 5's structures: what a driver hydrates into its graph, temporal and spatial types.

Records leave as structures (`to_bolt`); parameters arrive as them (`from_bolt`). Nodes and relationships
carry the engine's integer id, and as their element id its decimal text. A path is its distinct nodes,
its distinct relationships without their ends, and the walk between them as indices (a relationship's
1-based index, negative when walked against its direction, then the next node's index). A datetime
travels as UTC seconds since the epoch with its offset or its zone id (Bolt 5's UTC forms); a vector,
which Bolt 5 has no structure for, as the list of its coordinates.
"""

from __future__ import annotations

import datetime
import zoneinfo
from collections.abc import Callable
from typing import Any

import engine
from runner.bolt.packstream import Structure

NODE, RELATIONSHIP, UNBOUND_RELATIONSHIP, PATH = 0x4E, 0x52, 0x72, 0x50
DATE, TIME, LOCAL_TIME, DATE_TIME, DATE_TIME_ZONE_ID, LOCAL_DATE_TIME, DURATION = (
    0x44, 0x54, 0x74, 0x49, 0x69, 0x64, 0x45)
POINT_2D, POINT_3D = 0x58, 0x59
EPOCH = datetime.date(1970, 1, 1)
NANOS_PER_SECOND = 1_000_000_000


class UnsupportedValue(ValueError):
    """A parameter the engine has no value for (a node sent back, a byte array, an unknown structure)."""


def _seconds_of_day(hour: int, minute: int, second: int) -> int:
    return hour * 3600 + minute * 60 + second


def _local_seconds(value: engine.LocalDateTime | engine.DateTime) -> int:
    days = (datetime.date(value.year, value.month, value.day) - EPOCH).days
    return days * 86400 + _seconds_of_day(value.hour, value.minute, value.second)


def _node(node: engine.Node) -> Structure:
    return Structure(NODE, (node.id, list(node.labels), to_bolt(node.properties), str(node.id)))


def _relationship(rel: engine.Relationship) -> Structure:
    return Structure(RELATIONSHIP, (rel.id, rel.start, rel.end, rel.type, to_bolt(rel.properties), str(rel.id),
                                    str(rel.start), str(rel.end)))


def _path(path: engine.Path) -> Structure:
    nodes: dict[int, int] = {}
    rels: dict[int, int] = {}
    for node in path.nodes:
        nodes.setdefault(node.id, len(nodes))
    for rel in path.relationships:
        rels.setdefault(rel.id, len(rels) + 1)
    indices: list[int] = []
    for step, rel in enumerate(path.relationships):
        forward = rel.start == path.nodes[step].id
        indices += [rels[rel.id] if forward else -rels[rel.id], nodes[path.nodes[step + 1].id]]
    distinct_nodes = list({node.id: node for node in path.nodes}.values())
    distinct_rels = list({rel.id: rel for rel in path.relationships}.values())
    return Structure(PATH, ([_node(node) for node in distinct_nodes],
                            [Structure(UNBOUND_RELATIONSHIP, (rel.id, rel.type, to_bolt(rel.properties), str(rel.id)))
                             for rel in distinct_rels], indices))


def _date_time(value: engine.DateTime) -> Structure:
    seconds = _local_seconds(value) - value.offset_seconds
    if value.zone is not None:
        return Structure(DATE_TIME_ZONE_ID, (seconds, value.nanosecond, value.zone))
    return Structure(DATE_TIME, (seconds, value.nanosecond, value.offset_seconds))


def _point(point: engine.Point) -> Structure:
    if point.z is None:
        return Structure(POINT_2D, (point.srid, point.x, point.y))
    return Structure(POINT_3D, (point.srid, point.x, point.y, point.z))


OUTGOING: dict[type, Callable[[Any], Any]] = {
    engine.Node: _node,
    engine.Relationship: _relationship,
    engine.Path: _path,
    engine.Date: lambda d: Structure(DATE, ((datetime.date(d.year, d.month, d.day) - EPOCH).days,)),
    engine.LocalTime: lambda t: Structure(LOCAL_TIME, (
        _seconds_of_day(t.hour, t.minute, t.second) * NANOS_PER_SECOND + t.nanosecond,)),
    engine.Time: lambda t: Structure(TIME, (
        _seconds_of_day(t.hour, t.minute, t.second) * NANOS_PER_SECOND + t.nanosecond, t.offset_seconds)),
    engine.LocalDateTime: lambda d: Structure(LOCAL_DATE_TIME, (_local_seconds(d), d.nanosecond)),
    engine.DateTime: _date_time,
    engine.Duration: lambda d: Structure(DURATION, (d.months, d.days, d.seconds, d.nanoseconds)),
    engine.Point: _point,
    engine.Vector: lambda v: list(v.coordinates),
}
"""Engine value type → its Bolt form."""


def to_bolt(value: Any) -> Any:
    """An engine value as PackStream carries it."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [to_bolt(item) for item in value]
    if isinstance(value, dict):
        return {str(key): to_bolt(item) for key, item in value.items()}
    convert = OUTGOING.get(type(value))
    if convert is None:
        return str(value)
    return convert(value)


def _split_nanos(nanos: int) -> tuple[int, int, int, int]:
    seconds, nanosecond = divmod(nanos, NANOS_PER_SECOND)
    return seconds // 3600, seconds // 60 % 60, seconds % 60, nanosecond


def _local(seconds: int) -> tuple[int, ...]:
    days, of_day = divmod(seconds, 86400)
    date = EPOCH + datetime.timedelta(days=days)
    return date.year, date.month, date.day, of_day // 3600, of_day // 60 % 60, of_day % 60


def _zoned(seconds: int, nanos: int, zone: str) -> engine.DateTime:
    try:
        tz = zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as error:
        raise UnsupportedValue(f"unknown time zone {zone!r}") from error
    offset = datetime.datetime.fromtimestamp(seconds, tz=tz).utcoffset() or datetime.timedelta()
    offset_seconds = int(offset.total_seconds())
    return engine.DateTime(*_local(seconds + offset_seconds), nanos, offset_seconds, zone)


INCOMING: dict[int, Callable[..., Any]] = {
    DATE: lambda days: engine.Date(*(lambda d: (d.year, d.month, d.day))(EPOCH + datetime.timedelta(days=days))),
    LOCAL_TIME: lambda nanos: engine.LocalTime(*_split_nanos(nanos)),
    TIME: lambda nanos, offset: engine.Time(*_split_nanos(nanos), offset),
    LOCAL_DATE_TIME: lambda seconds, nanos: engine.LocalDateTime(*_local(seconds), nanos),
    DATE_TIME: lambda seconds, nanos, offset: engine.DateTime(*_local(seconds + offset), nanos, offset),
    DATE_TIME_ZONE_ID: _zoned,
    DURATION: lambda months, days, seconds, nanos: engine.Duration(months, days, seconds, nanos),
    POINT_2D: lambda srid, x, y: engine.Point(srid, float(x), float(y)),
    POINT_3D: lambda srid, x, y, z: engine.Point(srid, float(x), float(y), float(z)),
}
"""Bolt structure tag → the engine value a parameter of it is."""


def from_bolt(value: Any) -> Any:
    """A parameter as the engine takes it."""
    if isinstance(value, list):
        return [from_bolt(item) for item in value]
    if isinstance(value, dict):
        return {key: from_bolt(item) for key, item in value.items()}
    if isinstance(value, bytes):
        raise UnsupportedValue("a byte array parameter: the engine has no byte array values")
    if isinstance(value, Structure):
        build = INCOMING.get(value.tag)
        if build is None:
            raise UnsupportedValue(f"a parameter of Bolt structure 0x{value.tag:02X} (nodes, relationships and "
                                   "paths are not parameters; send their ids or properties)")
        try:
            return build(*value.fields)
        except TypeError as error:
            raise UnsupportedValue(f"a malformed Bolt structure 0x{value.tag:02X}: {error}") from error
    return value
