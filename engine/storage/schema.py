"""The graph's tables in DuckDB, and the catalog of property columns, ids, indexes and constraints.

Layout (ADR-0003): one row per node in `nodes(id, labels, p0, p1, ...)` and per relationship in
`rels(id, type, src, dst, p0, ...)`. Every property key gets a VARIANT column of its own, named by the
catalog (`p<N>`), so no user text ever becomes an identifier. Labels are a list in the order they were
added. Ids are dense from 0 in creation order and never reused; the next ids live in `graph_meta`.

This is the only module that knows the layout; other stages ask it for table and column names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import duckdb

Entity = Literal["node", "relationship"]

FORMAT_VERSION = 1

ENTITY_TABLES: dict[str, str] = {"node": "nodes", "relationship": "rels"}

_BOOTSTRAP = (
    "CREATE TABLE IF NOT EXISTS graph_meta (key VARCHAR PRIMARY KEY, value BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS nodes (id BIGINT PRIMARY KEY, labels VARCHAR[] NOT NULL)",
    "CREATE TABLE IF NOT EXISTS rels (id BIGINT PRIMARY KEY, type VARCHAR NOT NULL,"
    " src BIGINT NOT NULL, dst BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS graph_property_keys (entity VARCHAR NOT NULL, key VARCHAR NOT NULL,"
    " col VARCHAR NOT NULL, PRIMARY KEY (entity, key))",
    "CREATE TABLE IF NOT EXISTS graph_indexes (name VARCHAR PRIMARY KEY, kind VARCHAR NOT NULL,"
    " entity VARCHAR NOT NULL, labels VARCHAR[] NOT NULL, properties VARCHAR[] NOT NULL,"
    " options VARCHAR, owned_by VARCHAR)",
    "CREATE TABLE IF NOT EXISTS graph_constraints (name VARCHAR PRIMARY KEY, kind VARCHAR NOT NULL,"
    " entity VARCHAR NOT NULL, label VARCHAR NOT NULL, properties VARCHAR[] NOT NULL,"
    " property_type VARCHAR)",
    "INSERT INTO graph_meta VALUES ('format_version', 1), ('next_node_id', 0), ('next_rel_id', 0)"
    " ON CONFLICT DO NOTHING",
)

NEXT_ID_KEYS: dict[str, str] = {"node": "next_node_id", "relationship": "next_rel_id"}


@dataclass(frozen=True)
class IndexInfo:
    name: str
    kind: str
    entity: str
    labels: tuple[str, ...]
    properties: tuple[str, ...]
    options: str | None = None
    owned_by: str | None = None


@dataclass(frozen=True)
class ConstraintInfo:
    name: str
    kind: str
    entity: str
    label: str
    properties: tuple[str, ...]
    property_type: str | None = None


@dataclass
class Catalog:
    """What the compiler needs to know of the stored graph: property columns, indexes, constraints."""

    columns: dict[str, dict[str, str]] = field(default_factory=lambda: {"node": {}, "relationship": {}})
    indexes: dict[str, IndexInfo] = field(default_factory=dict)
    constraints: dict[str, ConstraintInfo] = field(default_factory=dict)

    def column(self, entity: str, key: str) -> str | None:
        return self.columns[entity].get(key)


class GraphStore:
    """The tables of one graph in one DuckDB connection, and a cached copy of their catalog."""

    def __init__(self, connection: duckdb.DuckDBPyConnection, *, read_only: bool = False) -> None:
        self.connection = connection
        if not read_only:
            for statement in _BOOTSTRAP:
                connection.execute(statement)
        self.catalog = self._load_catalog()

    # -- catalog -------------------------------------------------------------------------------

    def _load_catalog(self) -> Catalog:
        catalog = Catalog()
        for entity, key, col in self.connection.execute(
                "SELECT entity, key, col FROM graph_property_keys ORDER BY col").fetchall():
            catalog.columns[entity][key] = col
        for row in self.connection.execute(
                "SELECT name, kind, entity, labels, properties, options, owned_by FROM graph_indexes"
        ).fetchall():
            catalog.indexes[row[0]] = IndexInfo(row[0], row[1], row[2], tuple(row[3]), tuple(row[4]),
                                                row[5], row[6])
        for row in self.connection.execute(
                "SELECT name, kind, entity, label, properties, property_type FROM graph_constraints"
        ).fetchall():
            catalog.constraints[row[0]] = ConstraintInfo(row[0], row[1], row[2], row[3], tuple(row[4]),
                                                         row[5])
        return catalog

    def reload(self) -> None:
        """Re-read the catalog, e.g. after a rolled-back statement undid a new column."""
        self.catalog = self._load_catalog()

    def ensure_property_column(self, entity: str, key: str) -> str:
        """The column holding `key` for nodes or relationships, added on first use."""
        existing = self.catalog.column(entity, key)
        if existing is not None:
            return existing
        col = f"p{sum(len(cols) for cols in self.catalog.columns.values())}"
        self.connection.execute(f"ALTER TABLE {ENTITY_TABLES[entity]} ADD COLUMN {col} VARIANT")
        self.connection.execute("INSERT INTO graph_property_keys VALUES (?, ?, ?)", [entity, key, col])
        self.catalog.columns[entity][key] = col
        return col

    # -- ids -----------------------------------------------------------------------------------

    def allocate_ids(self, entity: str, count: int) -> int:
        """Reserve `count` consecutive ids; returns the first."""
        key = NEXT_ID_KEYS[entity]
        (first,) = self.connection.execute("SELECT value FROM graph_meta WHERE key = ?", [key]).fetchone()
        self.connection.execute("UPDATE graph_meta SET value = value + ? WHERE key = ?", [count, key])
        return int(first)

    # -- schema objects ------------------------------------------------------------------------

    def add_index(self, index: IndexInfo) -> None:
        self.connection.execute(
            "INSERT INTO graph_indexes VALUES (?, ?, ?, ?, ?, ?, ?)",
            [index.name, index.kind, index.entity, list(index.labels), list(index.properties),
             index.options, index.owned_by])
        self.catalog.indexes[index.name] = index

    def drop_index(self, name: str) -> None:
        self.connection.execute("DELETE FROM graph_indexes WHERE name = ?", [name])
        self.catalog.indexes.pop(name, None)

    def add_constraint(self, constraint: ConstraintInfo) -> None:
        self.connection.execute(
            "INSERT INTO graph_constraints VALUES (?, ?, ?, ?, ?, ?)",
            [constraint.name, constraint.kind, constraint.entity, constraint.label,
             list(constraint.properties), constraint.property_type])
        self.catalog.constraints[constraint.name] = constraint

    def drop_constraint(self, name: str) -> None:
        self.connection.execute("DELETE FROM graph_constraints WHERE name = ?", [name])
        self.catalog.constraints.pop(name, None)
