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
from engine.semantic import types as t
from engine.semantic.types import CypherType, Kind, is_variant
from engine.sqlgen.runtime import TAG, tag_key
from engine.storage.schema import Catalog
from engine.values import Node, Path, Relationship

NODE_TAG, REL_TAG, PATH_TAG = (tag_key(kind) for kind in ("NODE", "RELATIONSHIP", "PATH"))
TEMPORAL_TAGS = {tag_key(kind): kind for kind in temporal.PAYLOAD_FIELDS}


class Decoder:
    def __init__(self, connection: duckdb.DuckDBPyConnection, catalog: Catalog) -> None:
        self.connection = connection
        self.catalog = catalog
        self.node_ids: set[int] = set()
        self.rel_ids: set[int] = set()
        self.nodes: dict[int, Node] = {}
        self.rels: dict[int, Relationship] = {}

    def decode_rows(self, rows: Sequence[tuple[Any, ...]], types: list[CypherType]) -> list[tuple[Any, ...]]:
        if all(_as_fetched(cypher_type) for cypher_type in types):
            return list(rows)  # DuckDB's values are already the Python ones: no walk over every row
        for row in rows:
            for value, cypher_type in zip(row, types, strict=True):
                self._walk(value, cypher_type, self._collect)
        self._fetch()
        return [tuple(self._walk(value, cypher_type, self._build)
                      for value, cypher_type in zip(row, types, strict=True)) for row in rows]

    # One traversal, two uses: `visit(kind, id_or_payload)` collects ids, then builds values.
    def _walk(self, value: Any, cypher_type: CypherType, visit: Callable[[str, Any], Any]) -> Any:
        if value is None:
            return None
        kind = cypher_type.kind
        if kind is Kind.NODE:
            return visit("node", value)
        if kind is Kind.RELATIONSHIP:
            return visit("relationship", value)
        if kind is Kind.PATH:
            return visit("path", value)
        if kind in t.TEMPORAL_KINDS:
            return temporal.decode(kind.value, value)
        if kind is Kind.LIST:
            element = cypher_type.element or t.ANY
            return [self._walk(item, element, visit) for item in value]
        if cypher_type.is_record and not is_variant(cypher_type):
            return {key: self._walk(value.get(key), cypher_type.field(key) or t.ANY, visit) for key in value}
        if is_variant(cypher_type):
            return self._walk_variant(value, visit)
        return value

    def _walk_variant(self, value: Any, visit: Callable[[str, Any], Any]) -> Any:
        if isinstance(value, dict):
            if len(value) == 1:
                (key, payload), = value.items()
                if key.startswith(TAG):
                    return self._tagged(key, payload, visit)
            return {key: self._walk_variant(item, visit) for key, item in value.items()}
        if isinstance(value, list):
            return [self._walk_variant(item, visit) for item in value]
        return value

    def _tagged(self, key: str, payload: Any, visit: Callable[[str, Any], Any]) -> Any:
        if key == NODE_TAG:
            return visit("node", int(payload))
        if key == REL_TAG:
            return visit("relationship", int(payload))
        if key == PATH_TAG:
            return visit("path", payload)
        if key in TEMPORAL_TAGS:
            return temporal.decode(TEMPORAL_TAGS[key], payload)
        raise ValueError(f"unknown tagged value {key!r}")

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


AS_FETCHED = (Kind.NULL, Kind.BOOLEAN, Kind.INTEGER, Kind.FLOAT, Kind.STRING)


def _as_fetched(cypher_type: CypherType) -> bool:
    """Whether values of `cypher_type` come out of DuckDB as the Python values the result holds."""
    if is_variant(cypher_type):
        return False
    if cypher_type.kind is Kind.LIST:
        return _as_fetched(cypher_type.element or t.ANY)
    return cypher_type.kind in AS_FETCHED
