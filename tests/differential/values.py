"""Values from three engines in one canonical form, so that results can be compared with `==`.

Every value becomes a tagged tuple: `("int", 1)` and `("float", 1.0)` differ (Cypher keeps them apart;
Python's `1 == 1.0 == True` would not), floats are rounded to 12 significant digits (engines add in
different orders), maps are sorted, nodes are their labels and properties (the `uid` property names a
generated element), relationships their type, properties and the uids of their end nodes, and
temporal values their kind and ISO text.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Mapping
from typing import Any

import engine
from runner.targets.arcadedb import JAVA_SCALARS, arcade_labels, arcade_properties

Canonical = Any
UidOf = Mapping[Any, Any]
"""An engine's internal node id -> the node's `uid` property (None for a node a write made without one)."""

TEMPORAL_NAMES = {engine.Date: "date", engine.LocalTime: "localtime", engine.Time: "time",
                  engine.LocalDateTime: "localdatetime", engine.DateTime: "datetime", engine.Duration: "duration"}


def canonical_float(number: float) -> Canonical:
    if math.isnan(number):
        return ("float", "NaN")
    if math.isinf(number):
        return ("float", "Infinity" if number > 0 else "-Infinity")
    return ("float", float(f"{number:.12g}") + 0.0)  # + 0.0: -0.0 and 0.0 compare alike anyway


def canonical_scalar(value: Any) -> Canonical | None:
    """The canonical form of a value every engine returns as the same Python type, or None if it is not one."""
    if value is None:
        return ("null",)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, float):
        return canonical_float(value)
    if isinstance(value, str):
        return ("str", value)
    return None


def canonical_map(mapping: Mapping[str, Any], convert: Callable[[Any], Canonical]) -> Canonical:
    return ("map", tuple(sorted((str(key), convert(value)) for key, value in mapping.items())))


def node_form(labels: Any, properties: Mapping[str, Any], convert: Callable[[Any], Canonical]) -> Canonical:
    return ("node", tuple(sorted(labels)), canonical_map(properties, convert))


def relationship_form(kind: str, properties: Mapping[str, Any], start_uid: Any, end_uid: Any,
                      convert: Callable[[Any], Canonical]) -> Canonical:
    return ("rel", kind, canonical_map(properties, convert), start_uid, end_uid)


# -- ours -------------------------------------------------------------------------------------------

def from_ours(value: Any, uid_of: UidOf) -> Canonical:
    scalar = canonical_scalar(value)
    if scalar is not None:
        return scalar
    convert = lambda item: from_ours(item, uid_of)  # noqa: E731
    if isinstance(value, list | tuple):
        return ("list", tuple(map(convert, value)))
    if isinstance(value, dict):
        return canonical_map(value, convert)
    if isinstance(value, engine.Node):
        return node_form(value.labels, value.properties, convert)
    if isinstance(value, engine.Relationship):
        return relationship_form(value.type, value.properties, uid_of.get(value.start), uid_of.get(value.end),
                                 convert)
    if isinstance(value, engine.Path):
        return ("path", tuple(map(convert, value.nodes)), tuple(map(convert, value.relationships)))
    for cls, name in TEMPORAL_NAMES.items():
        if isinstance(value, cls):
            return (name, str(value))
    raise TypeError(f"no canonical form for {type(value).__name__}")


# -- FalkorDB ---------------------------------------------------------------------------------------

def from_falkordb(value: Any, uid_of: UidOf) -> Canonical:
    from falkordb.edge import Edge
    from falkordb.node import Node
    from falkordb.path import Path

    scalar = canonical_scalar(value)
    if scalar is not None:
        return scalar
    convert = lambda item: from_falkordb(item, uid_of)  # noqa: E731
    if isinstance(value, list | tuple):
        return ("list", tuple(map(convert, value)))
    if isinstance(value, dict):
        return canonical_map(value, convert)
    if isinstance(value, Node):
        return node_form(value.labels or (), value.properties, convert)
    if isinstance(value, Edge):
        return relationship_form(value.relation, value.properties, uid_of.get(_edge_end(value.src_node)),
                                 uid_of.get(_edge_end(value.dest_node)), convert)
    if isinstance(value, Path):
        return ("path", tuple(map(convert, value.nodes())), tuple(map(convert, value.edges())))
    if isinstance(value, dt.datetime):
        # FalkorDB returns local datetimes as UTC datetimes: the triage rules name that
        return ("localdatetime", value.replace(tzinfo=None).isoformat())
    if isinstance(value, dt.date):
        return ("date", value.isoformat())
    if isinstance(value, dt.time):
        return ("localtime", value.isoformat())
    return ("unknown", type(value).__name__, str(value))


def _edge_end(end: Any) -> Any:
    return end.id if hasattr(end, "id") else end


# -- ArcadeDB ---------------------------------------------------------------------------------------

ARCADE_TEMPORALS = {"CypherDate": "date", "CypherLocalTime": "localtime", "CypherTime": "time",
                    "CypherLocalDateTime": "localdatetime", "CypherDateTime": "datetime",
                    "CypherDuration": "duration",
                    # stored properties come back as java.time values
                    "LocalDate": "date", "LocalTime": "localtime", "OffsetTime": "time",
                    "LocalDateTime": "localdatetime", "ZonedDateTime": "datetime", "OffsetDateTime": "datetime"}


def from_arcadedb(value: Any, uid_of: UidOf) -> Canonical:
    simple = type(value).__name__.rsplit(".", 1)[-1]
    if simple in JAVA_SCALARS:
        value = JAVA_SCALARS[simple](value)
    scalar = canonical_scalar(value)
    if scalar is not None:
        return scalar
    convert = lambda item: from_arcadedb(item, uid_of)  # noqa: E731
    if isinstance(value, list | tuple) or simple in ("ArrayList", "List", "LinkedList"):
        return ("list", tuple(map(convert, value)))
    if isinstance(value, dict) or simple in ("HashMap", "LinkedHashMap", "Map"):
        return canonical_map(dict(value), convert)
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):  # inside maps, JPype converts
        return ("date", value.isoformat())
    if "Vertex" in simple:
        labels = [str(label) for label in arcade_labels(value)]
        return node_form(labels, arcade_properties(value), convert)
    if "Edge" in simple:
        return relationship_form(str(value.getTypeName()), arcade_properties(value),
                                 uid_of.get(str(value.getOut())), uid_of.get(str(value.getIn())), convert)
    if "Path" in simple:
        return ("path", tuple(map(convert, value.getVertices())), tuple(map(convert, value.getEdges())))
    if simple in ARCADE_TEMPORALS:
        return (ARCADE_TEMPORALS[simple], str(value.toString()))
    return ("unknown", simple, str(value))
