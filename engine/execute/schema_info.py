"""What the graph holds, described for tools (MCP's get_schema): labels, types, keys, indexes, constraints."""

from __future__ import annotations

from typing import Any

import duckdb

from engine.storage.schema import Catalog


def _keys_by(connection: duckdb.DuckDBPyConnection, table: str, group: str,
             columns: dict[str, str]) -> dict[str, list[str]]:
    """For each label (or type): the property keys that some element of it holds, sorted."""
    if not columns:
        return {}
    present = ", ".join(f"CASE WHEN {column} IS NOT NULL THEN ${index + 1} END"
                        for index, column in enumerate(columns.values()))
    rows = connection.execute(
        f"SELECT {group}, list_sort(list_distinct(flatten(list(list_filter([{present}], lambda k: k IS NOT NULL)))))"
        f" FROM {table} GROUP BY {group}", list(columns)).fetchall()
    return {name: keys for name, keys in rows if name is not None}


def describe_schema(connection: duckdb.DuckDBPyConnection, catalog: Catalog) -> dict[str, Any]:
    labels = [row[0] for row in connection.execute(
        "SELECT DISTINCT unnest(labels) AS l FROM nodes ORDER BY l").fetchall()]
    types = [row[0] for row in connection.execute("SELECT DISTINCT type FROM rels ORDER BY type").fetchall()]
    node_keys = _keys_by(connection, "(SELECT unnest(labels) AS label, * FROM nodes)", "label",
                         catalog.columns["node"])
    rel_keys = _keys_by(connection, "rels", "type", catalog.columns["relationship"])
    return {
        "labels": labels,
        "relationship_types": types,
        "node_properties": {label: node_keys.get(label, []) for label in labels},
        "relationship_properties": {rel_type: rel_keys.get(rel_type, []) for rel_type in types},
        "indexes": [{"name": i.name, "type": i.kind.upper(), "entity": i.entity, "labels": list(i.labels),
                     "properties": list(i.properties)} for i in sorted(catalog.indexes.values(), key=lambda i: i.name)],
        "constraints": [{"name": c.name, "type": c.kind.upper(), "entity": c.entity, "label": c.label,
                         "properties": list(c.properties)}
                        for c in sorted(catalog.constraints.values(), key=lambda c: c.name)],
    }
