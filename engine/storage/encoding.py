"""How values VARIANT has no type for are stored and travel in SQL (ADR-0004): an object with one reserved key.

Nodes, relationships, paths and temporal values are VARIANT objects whose single key is TAG followed by the
kind's tag (`\x01node`, `\x01date`, ...); a user map can never hold such a key, since the compiler refuses
map keys that start with U+0001. `KIND_CODES` number the kinds as the runtime's `cy_kind` returns them.
Storage (typed columns read as VARIANT), SQL generation and decoding all read this one table.

A virtual node or relationship (APOC's `apoc.create.vNode`, `apoc.meta.graph`, Neo4j's `db.schema.visualization`:
elements that are not in the graph, with negative ids, ADR-0071) carries itself: `{"\x01vnode": {"id": -1,
"labels": [...], "properties": {...}}}` and `{"\x01vrel": {"id": -1, "type": "T", "start": node, "end": node,
"properties": {...}}}`, its ends being node values themselves (virtual or stored). `cy_kind` reads them as nodes
and relationships (codes 7 and 8), so type tests and valueType() see no difference.

A Cypher 25 VECTOR is `{"\x01vector": {"c": coordinates, "t": coordinate type}}` (ADR-0066), made and read by
`vector_payload` and `vector_from_payload` on the Python side and the `cy_vector_*` macros in SQL.
"""

from __future__ import annotations

from typing import Any

from engine.values import INTEGER_COORDINATE_BITS, Vector

TAG = "\x01"

# Kind codes returned by cy_kind(v); `KIND_NAMES` gives the Cypher type name for messages.
KIND_CODES: dict[str, int] = {
    "NULL": 0, "BOOLEAN": 1, "INTEGER": 2, "FLOAT": 3, "STRING": 4, "LIST": 5, "MAP": 6,
    "NODE": 7, "RELATIONSHIP": 8, "PATH": 9, "DATE": 10, "LOCAL TIME": 11, "ZONED TIME": 12,
    "LOCAL DATETIME": 13, "ZONED DATETIME": 14, "DURATION": 15, "POINT": 16,
    "VECTOR": 17,
}
KIND_NAMES: dict[int, str] = {code: name for name, code in KIND_CODES.items()}

# Reserved object keys that mark values VARIANT has no type for.
TAGS: dict[str, str] = {
    "NODE": "node", "RELATIONSHIP": "rel", "PATH": "path", "DATE": "date", "LOCAL TIME": "localtime",
    "ZONED TIME": "time", "LOCAL DATETIME": "localdatetime", "ZONED DATETIME": "datetime",
    "DURATION": "duration", "POINT": "point", "VECTOR": "vector",
}


VIRTUAL_TAGS: dict[str, str] = {"NODE": TAG + "vnode", "RELATIONSHIP": TAG + "vrel"}
"""The reserved object keys of virtual nodes and relationships, by the kind they are."""

VIRTUAL_PATH_TAG = TAG + "vpath"
"""A path of virtual elements (`apoc.create.clonePathToVirtual`, ADR-0087): `{"\x01vpath": {"nodes": [node
values], "rels": [relationship values]}}`, in walking order; `cy_kind` reads it as a path (9)."""


def tag_key(kind: str) -> str:
    """The reserved object key marking a value of `kind` ('NODE', 'DATE', ...)."""
    return TAG + TAGS[kind]


def virtual_node(node_id: int, labels: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    """A virtual node as it travels in a VARIANT: its negative id, labels and properties in the value itself."""
    return {VIRTUAL_TAGS["NODE"]: {"id": node_id, "labels": labels, "properties": properties}}


def virtual_relationship(rel_id: int, rel_type: str, start: dict[str, Any], end: dict[str, Any],
                         properties: dict[str, Any]) -> dict[str, Any]:
    """A virtual relationship as it travels in a VARIANT: its ends are node values (`virtual_node`'s)."""
    return {VIRTUAL_TAGS["RELATIONSHIP"]: {"id": rel_id, "type": rel_type, "start": start, "end": end,
                                           "properties": properties}}


def vector_payload(vector: Vector) -> dict[str, Any]:
    """The payload under a vector's tag: its coordinates (ints for the integer types, floats for the float
    types, which JSON keeps apart: `2` against `2.0`) and its coordinate type."""
    return {"c": list(vector.coordinates), "t": vector.coordinate_type}


def vector_from_payload(payload: dict[str, Any]) -> Vector:
    kind = str(payload["t"])
    convert = int if kind in INTEGER_COORDINATE_BITS else float
    return Vector(kind, tuple(convert(c) for c in payload["c"]))
