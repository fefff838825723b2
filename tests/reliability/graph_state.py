"""The whole stored state of a graph, to compare before and after a statement that must change nothing."""

from __future__ import annotations

from typing import Any

import engine

TABLES = ("graph_meta", "graph_property_keys", "graph_indexes", "graph_constraints", "nodes", "rels")


def graph_state(connection: engine.Connection) -> dict[str, Any]:
    """Every row of every graph table (id sequences in graph_meta included) and each table's columns.
    Read through the engine's DuckDB connection: the test must see what is stored, not what Cypher says."""
    duck = connection._duck
    state: dict[str, Any] = {}
    for table in TABLES:
        columns = [row[0] for row in duck.execute(f"DESCRIBE {table}").fetchall()]
        rows = duck.execute(f"SELECT * FROM {table}").fetchall()
        state[table] = (columns, sorted(map(repr, rows)))
    return state


def counts(connection: engine.Connection) -> tuple[int, int]:
    (nodes,), = connection.execute("MATCH (n) RETURN count(n)").fetchall()
    (rels,), = connection.execute("MATCH ()-[r]->() RETURN count(r)").fetchall()
    return nodes, rels
