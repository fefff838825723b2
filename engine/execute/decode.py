"""Rows fetched from DuckDB -> Cypher values: nodes, relationships, paths and temporal values rebuilt.

Values arrive in the representation their static type names (ids for entities, structs for records,
VARIANTs otherwise). A first pass collects every node and relationship id in the rows; one query per
table fetches them; a second pass builds the values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import duckdb

from engine import temporal
from engine import types as t
from engine.storage.encoding import TAG, VIRTUAL_PATH_TAG, VIRTUAL_TAGS, tag_key, vector_from_payload
from engine.storage.schema import Catalog
from engine.types import CypherType, Kind, is_variant
from engine.values import Node, Path, Point, Relationship

Visit = Callable[[str, Any], Any]
Plan = Callable[[Any, Visit], Any]
"""Rebuilds one non-null value, calling `visit` for every node, relationship and path in it."""
ENTITY_VISITS = {Kind.NODE: "node", Kind.RELATIONSHIP: "relationship", Kind.PATH: "path"}
NODE_TAG, REL_TAG, PATH_TAG, VECTOR_TAG = (tag_key(kind) for kind in ("NODE", "RELATIONSHIP", "PATH", "VECTOR"))
TEMPORAL_TAGS = {tag_key(kind): kind for kind in temporal.PAYLOAD_FIELDS}
POINT_TAG = tag_key("POINT")
VIRTUAL_NODE_TAG, VIRTUAL_REL_TAG = VIRTUAL_TAGS["NODE"], VIRTUAL_TAGS["RELATIONSHIP"]


def decode_point(payload: dict[str, Any]) -> Point:
    """A point's STRUCT (`c` the SRID, `x`, `y`, `z` null in 2D) as fetched, as a `Point` (ADR-0065)."""
    z = payload.get("z")
    return Point(int(payload["c"]), float(payload["x"]), float(payload["y"]), None if z is None else float(z))


def result_columns(variables: Sequence[Any]) -> str:
    """The select list of a statement's result. A VARIANT column travels inside a one-element list: DuckDB's
    Python client converts a sorted VARIANT vector whose rows came from different sources (the parts of a
    UNION) to the first row's type where it can, so 1 after 'x' arrived as '1'; inside a list every value
    keeps its own type. `Decoder.decode_results` takes them out again."""
    return ", ".join(f"[{v.column}] AS {v.column}" if is_variant(v.type) else v.column for v in variables)


class Decoder:
    def __init__(self, connection: duckdb.DuckDBPyConnection, catalog: Catalog) -> None:
        self.connection = connection
        self.catalog = catalog
        self.node_ids: set[int] = set()
        self.rel_ids: set[int] = set()
        self.nodes: dict[int, Node] = {}
        self.rels: dict[int, Relationship] = {}
        self.plans: dict[CypherType, Plan | None] = {}

    def decode_results(self, rows: Sequence[tuple[Any, ...]], types: list[CypherType]) -> list[tuple[Any, ...]]:
        """`decode_rows` of rows selected with `result_columns`: VARIANT values taken out of their lists."""
        wrapped = [index for index, cypher_type in enumerate(types) if is_variant(cypher_type)]
        if wrapped:
            rows = [tuple(value[0] if index in wrapped and value is not None else value
                          for index, value in enumerate(row)) for row in rows]
        return self.decode_rows(rows, types)

    def decode_rows(self, rows: Sequence[tuple[Any, ...]], types: list[CypherType]) -> list[tuple[Any, ...]]:
        plans = [self._plan(cypher_type) for cypher_type in types]
        if all(plan is None for plan in plans):
            return list(rows)  # DuckDB's values are already the Python ones: no walk over every row
        columns = [(index, plan) for index, plan in enumerate(plans) if plan is not None]
        holding = [(index, plan) for index, plan in columns if _may_hold_entities(types[index])]
        if holding:  # temporal values alone need no first pass: they hold no id to fetch
            for row in rows:
                for index, plan in holding:
                    if row[index] is not None:
                        plan(row[index], self._collect)
            self._fetch()
        built = []
        for row in rows:
            values = list(row)
            for index, plan in columns:
                if values[index] is not None:
                    values[index] = plan(values[index], self._build)
            built.append(tuple(values))
        return built

    # One traversal, two uses: `visit(kind, id_or_payload)` collects ids, then builds values.
    def _walk(self, value: Any, cypher_type: CypherType, visit: Visit) -> Any:
        plan = self._plan(cypher_type)
        return value if plan is None or value is None else plan(value, visit)

    def _plan(self, cypher_type: CypherType) -> Plan | None:
        """How to rebuild a non-null value of `cypher_type`, worked out once per type rather than per value;
        None where DuckDB's value already is the Python one (plain scalars, and lists and records of them)."""
        if cypher_type in self.plans:
            return self.plans[cypher_type]
        plan = self._make_plan(cypher_type)
        self.plans[cypher_type] = plan
        return plan

    def _make_plan(self, cypher_type: CypherType) -> Plan | None:
        if _as_fetched(cypher_type):
            return None
        kind = cypher_type.kind
        if kind in ENTITY_VISITS:
            name = ENTITY_VISITS[kind]
            return lambda value, visit: visit(name, value)
        if kind in t.TEMPORAL_KINDS:
            temporal_kind = kind.value
            return lambda value, visit: temporal.decode(temporal_kind, value)
        if kind is Kind.POINT:
            return lambda value, visit: decode_point(value)
        if kind is Kind.LIST:
            item = self._plan(cypher_type.element or t.ANY)
            assert item is not None  # a list of values as fetched is as fetched
            return lambda value, visit: [None if element is None else item(element, visit) for element in value]
        if cypher_type.is_record and not is_variant(cypher_type):
            fields = {key: self._plan(field) for key, field in cypher_type.fields or ()}
            return lambda value, visit: {
                key: element if element is None or fields.get(key) is None else fields[key](element, visit)
                for key, element in value.items()}
        if is_variant(cypher_type):
            return self._walk_variant
        return None

    def _walk_variant(self, value: Any, visit: Visit) -> Any:
        if isinstance(value, dict):
            if len(value) == 1:
                (key, payload), = value.items()
                if key.startswith(TAG):
                    return self._tagged(key, payload, visit)
            return {key: self._walk_variant(item, visit) for key, item in value.items()}
        if isinstance(value, list):
            return [self._walk_variant(item, visit) for item in value]
        return value

    def _tagged(self, key: str, payload: Any, visit: Visit) -> Any:
        if key == NODE_TAG:
            return visit("node", int(payload))
        if key == REL_TAG:
            return visit("relationship", int(payload))
        if key == PATH_TAG:
            return visit("path", payload)
        if key in TEMPORAL_TAGS:
            return temporal.decode(TEMPORAL_TAGS[key], payload)
        if key == VECTOR_TAG:
            return vector_from_payload(payload)
        if key == POINT_TAG:
            return decode_point(payload)
        if key == VIRTUAL_NODE_TAG:
            return self._virtual_node(payload, visit)
        if key == VIRTUAL_PATH_TAG:  # its elements are values themselves (virtual ones, ADR-0087)
            return Path(tuple(self._walk_variant(node, visit) for node in payload["nodes"]),
                        tuple(self._walk_variant(rel, visit) for rel in payload["rels"]))
        if key == VIRTUAL_REL_TAG:  # its ends are node values: their ids are what a Relationship holds
            return Relationship(int(payload["id"]), str(payload["type"]), _node_id(payload["start"]),
                                _node_id(payload["end"]), self._walk_variant(payload["properties"], visit))
        raise ValueError(f"unknown tagged value {key!r}")

    def _virtual_node(self, payload: dict[str, Any], visit: Visit) -> Node:
        """A virtual node carries itself (ADR-0071): nothing to fetch."""
        return Node(int(payload["id"]), tuple(payload["labels"]), self._walk_variant(payload["properties"], visit))

    def _collect(self, kind: str, value: Any) -> None:
        if kind == "node":
            self.node_ids.add(int(value))
        elif kind == "relationship":
            self.rel_ids.add(int(value))
        else:
            self.node_ids.update(int(v) for v in value["nodes"])
            self.rel_ids.update(int(v) for v in value["rels"])

    def _build(self, kind: str, value: Any) -> Any:
        if kind == "node":
            return self.nodes[int(value)]
        if kind == "relationship":
            return self.rels[int(value)]
        return Path(tuple(self.nodes[int(v)] for v in value["nodes"]),
                    tuple(self.rels[int(v)] for v in value["rels"]))

    def _fetch(self) -> None:
        node_columns = self.catalog.columns["node"]
        rel_columns = self.catalog.columns["relationship"]
        for row in self._rows("nodes", "id, labels", node_columns, self.node_ids):
            self.nodes[row[0]] = Node(row[0], tuple(row[1]), self._properties("node", row[2:]))
        for row in self._rows("rels", "id, type, src, dst", rel_columns, self.rel_ids):
            self.rels[row[0]] = Relationship(row[0], row[1], row[2], row[3], self._properties("relationship", row[4:]))
        for missing in self.node_ids - self.nodes.keys():
            self.nodes[missing] = Node(missing, (), {})
        for missing in self.rel_ids - self.rels.keys():
            self.rels[missing] = Relationship(missing, "", -1, -1, {})

    def _rows(self, table: str, fixed: str, columns: dict[str, str], ids: set[int]) -> list[tuple[Any, ...]]:
        if not ids:
            return []
        extra = "".join(f", {column}" for column in columns.values())
        return self.connection.execute(
            f"SELECT {fixed}{extra} FROM {table} WHERE id IN (SELECT unnest($1::BIGINT[]))", [sorted(ids)]
        ).fetchall()

    def _properties(self, entity: str, values: Sequence[Any]) -> dict[str, Any]:
        """Column values by key, each read as its column's type says (typed or VARIANT, ADR-0009)."""
        types = self.catalog.types[entity]
        return {key: self._walk(value, types.get(key, t.ANY), self._build)
                for key, value in zip(self.catalog.columns[entity], values, strict=True) if value is not None}


def _node_id(value: dict[str, Any]) -> int:
    """The id of a node value in a VARIANT, stored (`{"\\x01node": id}`) or virtual."""
    (key, payload), = value.items()
    return int(payload) if key == NODE_TAG else int(payload["id"])


AS_FETCHED = (Kind.NULL, Kind.BOOLEAN, Kind.INTEGER, Kind.FLOAT, Kind.STRING)


def _may_hold_entities(cypher_type: CypherType) -> bool:
    """Whether a value of `cypher_type` may hold a node, relationship or path (a VARIANT may hold anything)."""
    return any(is_variant(leaf) or leaf.kind in ENTITY_VISITS for leaf in t.leaf_types(cypher_type))


def _as_fetched(cypher_type: CypherType) -> bool:
    """Whether values of `cypher_type` come out of DuckDB as the Python values the result holds."""
    return all(not is_variant(leaf) and leaf.kind in AS_FETCHED for leaf in t.leaf_types(cypher_type))
