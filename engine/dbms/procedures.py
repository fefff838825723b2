"""`db.labels`, `db.relationshipTypes`, `db.propertyKeys`, `db.ping`, `db.info` and `dbms.components`, with
Neo4j 5's output columns, each one SELECT over the store (set-based, like every procedure).

Neo4j lists tokens in the order they were created; the store keeps no token table, so labels and types
come in the order of the first node or relationship that carries them, property keys in the order their
columns were made. `dbms.components` names the kernel as Neo4j's drivers and LLM frameworks check it (they
read its version to decide which Cypher they may send): the Neo4j version whose semantics the engine
follows (Neo4j 5, Cypher 25).
"""

from __future__ import annotations

from engine.procedures import Procedure, ProcedureBuild, ProcedureField
from engine.storage.schema import to_variant
from engine.types import ANY

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


# -- db.schema.nodeTypeProperties / relTypeProperties: per node type (label set) or relationship type, each
# property with the value types it holds and whether every element of the type has it ------------------------

JAVA_TYPE_NAMES = {"STRING": "String", "INTEGER": "Long", "FLOAT": "Double", "BOOLEAN": "Boolean", "DATE": "Date",
                   "LOCAL DATETIME": "LocalDateTime", "ZONED DATETIME": "DateTime", "LOCAL TIME": "LocalTime",
                   "ZONED TIME": "Time", "DURATION": "Duration", "POINT": "Point"}
"""Cypher's type names → those Neo4j's schema procedures print (Java's); a list is its element's + `Array`."""


def _java_type_sql(kind_name_sql: str) -> str:
    """SQL of the Java type name of a value whose Cypher type name (`cy_type_name`) is `kind_name_sql`."""
    cases = " ".join(f"WHEN '{name}' THEN '{java}'" for name, java in JAVA_TYPE_NAMES.items())
    return f"CASE {kind_name_sql} {cases} ELSE {kind_name_sql} END"


def _value_type_sql(value: str) -> str:
    """The Java type name of one stored value, as a VARIANT (a list: its first element's + `Array`)."""
    first = f"cy_type_name({value})"
    element = f"cy_type_name((({value})::VARIANT[])[1])"
    return (f"CASE WHEN {first} LIKE 'LIST%' THEN {_java_type_sql(element)} || 'Array'"
            f" ELSE {_java_type_sql(first)} END")


def _type_properties(build: ProcedureBuild, entity: str) -> str:
    """The rows of db.schema.nodeTypeProperties (entity node) or relTypeProperties, one SELECT."""
    catalog = build.compiler.context.catalog
    text = build.compiler.context.parameters.text
    table = "nodes" if entity == "node" else "rels"
    group = "list_sort(e.labels)" if entity == "node" else "e.type"
    totals = f"(SELECT {group} AS g, count(*) AS total FROM {table} AS e GROUP BY ALL)"
    # a typed column's values as VARIANTs the way reads see them (a date or point column's STRUCT under its tag:
    # cast as it is, it was a MAP)
    parts = [f"SELECT {group} AS g, {text(key)} AS propertyName,"
             f" list(DISTINCT {_value_type_sql(to_variant(f'e.{column}', catalog.column_type(entity, key) or ANY))})"
             f" AS propertyTypes, count(*) AS holding FROM {table} AS e WHERE e.{column} IS NOT NULL GROUP BY ALL"
             for key, column in sorted(catalog.columns[entity].items())]
    found = " UNION ALL ".join(f"({part})" for part in parts) if parts else (
        "SELECT NULL::VARCHAR[] AS g, NULL::VARCHAR AS propertyName, NULL::VARCHAR[] AS propertyTypes,"
        " 0 AS holding WHERE false")
    if entity == "node":
        name = "':' || array_to_string(list_transform(t.g, lambda l: '`' || l || '`'), ':')"
        head = f"{name} AS nodeType, t.g AS nodeLabels"
    else:
        head = "':`' || t.g || '`' AS relType"
    return (f"(SELECT {head}, p.propertyName, list_sort(p.propertyTypes) AS propertyTypes,"
            f" coalesce(p.holding = t.total, false) AS mandatory,"
            f" row_number() OVER (ORDER BY t.g, p.propertyName) AS __i"
            f" FROM {totals} AS t LEFT JOIN ({found}) AS p ON p.g = t.g)")


SCHEMA_PROCEDURES = (
    Procedure("db.schema.nodeTypeProperties", (),
              tuple(ProcedureField(name, kind) for name, kind in (
                  ("nodeType", "STRING"), ("nodeLabels", "LIST OF STRING"), ("propertyName", "STRING"),
                  ("propertyTypes", "LIST OF STRING"), ("mandatory", "BOOLEAN"))),
              build=lambda build: _type_properties(build, "node")),
    Procedure("db.schema.relTypeProperties", (),
              tuple(ProcedureField(name, kind) for name, kind in (
                  ("relType", "STRING"), ("propertyName", "STRING"), ("propertyTypes", "LIST OF STRING"),
                  ("mandatory", "BOOLEAN"))),
              build=lambda build: _type_properties(build, "relationship")),
    # every index is online when it is created: nothing to wait for (void procedures keep the rows they are
    # called on)
    Procedure("db.awaitIndexes", (ProcedureField("timeOutSeconds", "INTEGER"),), (), required_inputs=0),
    Procedure("db.awaitIndex", (ProcedureField("indexName", "STRING"), ProcedureField("timeOutSeconds", "INTEGER")),
              (), required_inputs=1),
)
