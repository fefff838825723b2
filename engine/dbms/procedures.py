"""`db.labels`, `db.relationshipTypes`, `db.propertyKeys`, `db.ping`, `db.info` and `dbms.components`, with
Neo4j 5's output columns, each one SELECT over the store (set-based, like every procedure).

Neo4j lists tokens in the order they were created; the store keeps no token table, so labels and types
come in the order of the first node or relationship that carries them, property keys in the order their
columns were made. `dbms.components` names the kernel as Neo4j's drivers and LLM frameworks check it (they
read its version to decide which Cypher they may send): the Neo4j version whose semantics the engine
follows (Neo4j 5, Cypher 25).
"""

from __future__ import annotations

from engine.procedures import Procedure, ProcedureField

KERNEL_VERSION = "5.26.0"
"""The Neo4j version reported by `dbms.components()`: the release line whose semantics the engine follows."""
DATABASE_NAME = "neo4j"
"""The database name `db.info()` reports: Neo4j's default one, which clients address when they name none."""


def _rows(select: str) -> str:
    """A procedure's rows relation: `select` (its output columns, in order) numbered by `__i`."""
    return f"(SELECT *, row_number() OVER () AS __i FROM ({select}))"


def _procedure(name: str, outputs: tuple[tuple[str, str], ...], select: str) -> Procedure:
    return Procedure(name, (), tuple(ProcedureField(field, kind) for field, kind in outputs),
                     sql=lambda: _rows(select))


PROCEDURES = (
    _procedure("db.labels", (("label", "STRING"),),
               "SELECT label FROM (SELECT unnest(labels) AS label, id FROM nodes) GROUP BY label ORDER BY min(id)"),
    _procedure("db.relationshipTypes", (("relationshipType", "STRING"),),
               "SELECT type AS relationshipType FROM rels GROUP BY type ORDER BY min(id)"),
    _procedure("db.propertyKeys", (("propertyKey", "STRING"),),
               "SELECT key AS propertyKey FROM graph_property_keys GROUP BY key ORDER BY min(rowid)"),
    _procedure("db.ping", (("success", "BOOLEAN"),), "SELECT true AS success"),
    _procedure("db.info", (("id", "STRING"), ("name", "STRING"), ("creationDate", "STRING")),
               f"SELECT 'cookbook-engine' AS id, '{DATABASE_NAME}' AS name, NULL::VARCHAR AS creationDate"),
    _procedure("dbms.components", (("name", "STRING"), ("versions", "LIST OF STRING"), ("edition", "STRING")),
               f"SELECT 'Neo4j Kernel' AS name, ['{KERNEL_VERSION}'] AS versions, 'community' AS edition"),
)
