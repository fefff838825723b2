"""`apoc.meta.data()`, `apoc.meta.schema()` and `apoc.meta.stats()`. `apoc.meta.data()`: one row per (label,
property), per (type, property) and per (label, relationship type) with the end labels,
as neo4j-graphrag and LangChain read a graph's schema from it.

APOC samples nodes; the engine reads the store whole, in one SELECT (its configuration map, `{sample: n}`,
is accepted and changes nothing). A property's type is its column's, in APOC's names; a column of values of
several types reports the most frequent one per label. Counts are of the elements that hold the property.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import types as t
from engine.procedures import Procedure, ProcedureBuild, ProcedureField, ProcedurePreparation
from engine.quoting import sql_string
from engine.sqlgen.context import Parameters
from engine.storage.encoding import KIND_CODES
from engine.storage.schema import Catalog
from engine.types import CypherType, Kind, is_variant

APOC_TYPE_NAMES: dict[str, str] = {
    "NULL": "NULL", "BOOLEAN": "BOOLEAN", "INTEGER": "INTEGER", "FLOAT": "FLOAT", "STRING": "STRING",
    "LIST": "LIST", "MAP": "MAP", "NODE": "NODE", "RELATIONSHIP": "RELATIONSHIP", "PATH": "PATH",
    "DATE": "DATE", "LOCAL TIME": "LOCAL_TIME", "ZONED TIME": "TIME", "LOCAL DATETIME": "LOCAL_DATE_TIME",
    "ZONED DATETIME": "DATE_TIME", "DURATION": "DURATION", "POINT": "POINT",
}
"""Cypher's kind names (`storage.encoding.KIND_CODES`) → the type names APOC's meta procedures write."""

OUTPUTS = (("label", "STRING"), ("property", "STRING"), ("count", "INTEGER"), ("unique", "BOOLEAN"),
           ("index", "BOOLEAN"), ("existence", "BOOLEAN"), ("type", "STRING"), ("array", "BOOLEAN"),
           ("sample", "LIST OF ANY"), ("left", "INTEGER"), ("right", "INTEGER"), ("other", "LIST OF STRING"),
           ("otherLabels", "LIST OF STRING"), ("elementType", "STRING"))


def _kind_name_sql(kind_sql: str) -> str:
    """APOC's type name of a `cy_kind` code (a kind APOC does not name, a VECTOR, is ANY)."""
    cases = " ".join(f"WHEN {code} THEN {sql_string(APOC_TYPE_NAMES[name])}" for name, code in KIND_CODES.items()
                     if name in APOC_TYPE_NAMES)
    return f"CASE {kind_sql} {cases} ELSE 'ANY' END"


def _static_type(column_type: CypherType) -> tuple[str, bool]:
    """APOC's type name of a typed column, and whether it holds lists."""
    if column_type.kind is Kind.LIST:
        return "LIST", True
    return APOC_TYPE_NAMES.get(column_type.kind.value, "ANY"), False


def _property_rows(text: Callable[[str], str], entity: str, key: str, column: str, column_type: CypherType) -> str:
    """The rows of one property column: per label (node) or type (relationship) that has values in it."""
    table, group = ("nodes AS e, unnest(e.labels) AS u(l)", "u.l") if entity == "node" else ("rels AS e", "e.type")
    element = "node" if entity == "node" else "relationship"
    if is_variant(column_type):
        kind = f"mode(cy_kind(e.{column}))"
        type_sql, array_sql = _kind_name_sql(kind), f"{kind} = {KIND_CODES['LIST']}"
    else:
        name, array = _static_type(column_type)
        type_sql, array_sql = sql_string(name), "true" if array else "false"
    return (f"SELECT {group} AS label, {text(key)} AS property, count(*) AS \"count\", {type_sql} AS"
            f" \"type\", {array_sql} AS \"array\", NULL::VARCHAR[] AS other, '{element}' AS elementType"
            f" FROM {table} WHERE e.{column} IS NOT NULL GROUP BY ALL")


def _meta_data(build: ProcedureBuild) -> str:
    context = build.compiler.context
    return meta_rows(context.catalog, context.parameters.text)


def meta_rows(catalog: Catalog, text: Callable[[str], str]) -> str:
    """The rows of `apoc.meta.data()` as a relation (its columns and `__i`); `text` binds a property key."""
    parts = [_property_rows(text, entity, key, column, catalog.column_type(entity, key) or CypherType(Kind.ANY))
             for entity in ("node", "relationship") for key, column in sorted(catalog.columns[entity].items())]
    # relationships, from each label of their start node: the labels of their end nodes
    parts.append("SELECT sl AS label, r.type AS property, count(DISTINCT r.id) AS \"count\", 'RELATIONSHIP' AS"
                 " \"type\", false AS \"array\", list(DISTINCT el ORDER BY el) AS other, 'node' AS elementType"
                 " FROM rels AS r JOIN nodes AS s ON s.id = r.src JOIN nodes AS t ON t.id = r.dst,"
                 " unnest(s.labels) AS u(sl), unnest(CASE WHEN len(t.labels) = 0 THEN [NULL] ELSE t.labels END)"
                 " AS v(el) GROUP BY ALL")
    rows = " UNION ALL ".join(f"({part})" for part in parts)
    return (f"(SELECT label, property, \"count\", false AS \"unique\", false AS \"index\", false AS existence,"
            f" \"type\", \"array\", NULL::VARIANT[] AS sample, 0::BIGINT AS \"left\", 0::BIGINT AS \"right\","
            f" list_filter(coalesce(other, []), lambda x: x IS NOT NULL) AS other, []::VARCHAR[] AS otherLabels,"
            f" elementType, row_number() OVER (ORDER BY elementType, label, property) AS __i FROM ({rows}))")


def _meta_schema(preparation: ProcedurePreparation) -> str:
    """`apoc.meta.schema()`: one row, `value`, a map per label and per relationship type of their counts,
    properties (type, indexed, unique, existence, array) and, for labels, relationships in both directions
    with the labels at their other end: built from `apoc.meta.data()`'s rows (one per label and property,
    a handful per schema element, not per node), bound as one value."""
    run = preparation.run
    catalog: Catalog = run.store.catalog
    parameters = Parameters()
    rows = run.fetchall(f"SELECT label, property, \"count\", \"type\", \"array\", other, elementType"
                        f" FROM {meta_rows(catalog, parameters.text)} ORDER BY __i", parameters.values)
    label_counts = dict(run.fetchall("SELECT l, count(*) FROM nodes, unnest(labels) AS u(l) GROUP BY l"))
    type_counts = dict(run.fetchall("SELECT type, count(*) FROM rels GROUP BY type"))
    co_labels = dict(run.fetchall("SELECT l, list(DISTINCT o ORDER BY o) FILTER (WHERE o <> l) FROM nodes,"
                                  " unnest(labels) AS u(l), unnest(labels) AS w(o) GROUP BY l"))
    indexed = {(index.entity, label, key) for index in catalog.indexes.values()
               for label in index.labels for key in index.properties}
    constrained = {(constraint.kind, constraint.entity, constraint.label, key)
                   for constraint in catalog.constraints.values() for key in constraint.properties}
    schema: dict[str, dict[str, Any]] = {}
    for label, count in label_counts.items():
        schema[label] = {"count": count, "labels": co_labels.get(label) or [], "type": "node", "properties": {},
                         "relationships": {}}
    for name, count in type_counts.items():
        schema.setdefault(name, {"count": count, "type": "relationship", "properties": {}})
    rel_properties: dict[str, dict[str, Any]] = {}
    for label, key, _count, type_name, array, _other, element_type in rows:
        entity = "node" if element_type == "node" else "relationship"
        if type_name == "RELATIONSHIP":
            continue
        entry = {"type": type_name, "indexed": (entity, label, key) in indexed, "array": bool(array),
                 "unique": any((kind, entity, label, key) in constrained for kind in ("unique", "node_key")),
                 "existence": any((kind, entity, label, key) in constrained for kind in ("not_null", "node_key"))}
        if entity == "relationship":
            rel_properties.setdefault(label, {})[key] = entry
            if label in schema and schema[label]["type"] == "relationship":
                schema[label]["properties"][key] = entry
        elif label in schema:
            schema[label]["properties"][key] = entry
    for label, rel_type, count, type_name, _, other, _ in rows:
        if type_name != "RELATIONSHIP":
            continue
        properties = rel_properties.get(rel_type, {})
        if label in schema:
            schema[label]["relationships"][rel_type] = {"count": count, "direction": "out", "labels": other or [],
                                                        "properties": properties}
        for end in other or []:
            incoming = schema.get(end)
            if incoming is not None and incoming["type"] == "node":
                entry = incoming["relationships"].setdefault(
                    rel_type, {"count": 0, "direction": "in", "labels": [], "properties": properties})
                if entry["direction"] == "in":
                    entry["count"] += count
                    entry["labels"] = sorted({*entry["labels"], label})
    bound = Parameters()
    value = bound.bind(schema, t.ANY)
    return run.materialize(f"(SELECT {value} AS value, 1 AS __i)", [], bound.values).sql


STATS_OUTPUTS = (("labelCount", "INTEGER"), ("relTypeCount", "INTEGER"), ("propertyKeyCount", "INTEGER"),
                 ("nodeCount", "INTEGER"), ("relCount", "INTEGER"), ("labels", "MAP"), ("relTypes", "MAP"),
                 ("relTypesCount", "MAP"), ("stats", "MAP"))


def _meta_stats(preparation: ProcedurePreparation) -> str:
    """`apoc.meta.stats()`: one row of the store's counts: per label, per relationship type, and per type
    from or to each label (APOC's `(:Person)-[:KNOWS]->()` keys). Each count is one GROUP BY over the store
    (rows per label and type, not per element), the maps assembled from those few rows and bound."""
    run = preparation.run
    labels = dict(run.fetchall("SELECT l, count(*) FROM nodes, unnest(labels) AS u(l) GROUP BY l ORDER BY l"))
    types = dict(run.fetchall("SELECT type, count(*) FROM rels GROUP BY type ORDER BY type"))
    ends = run.fetchall("SELECT side, l, r.type, count(DISTINCT r.id) FROM rels AS r,"
                        " (VALUES ('start'), ('end')) AS s(side) JOIN nodes AS n ON true,"
                        " unnest(n.labels) AS u(l) WHERE n.id = CASE side WHEN 'start' THEN r.src ELSE r.dst END"
                        " GROUP BY ALL ORDER BY ALL")
    rel_types: dict[str, int] = {}
    for side, label, rel_type, count in ends:
        key = f"(:{label})-[:{rel_type}]->()" if side == "start" else f"()-[:{rel_type}]->(:{label})"
        rel_types[key] = count
    rel_types.update({f"()-[:{rel_type}]->()": count for rel_type, count in types.items()})
    (keys,) = run.fetchall("SELECT count(DISTINCT key) FROM graph_property_keys")[0]
    (nodes,) = run.fetchall("SELECT count(*) FROM nodes")[0]
    (rels,) = run.fetchall("SELECT count(*) FROM rels")[0]
    stats = {"labelCount": len(labels), "relTypeCount": len(types), "propertyKeyCount": keys, "nodeCount": nodes,
             "relCount": rels, "labels": labels, "relTypes": rel_types}
    bound = Parameters()
    values = [bound.bind(value, t.ANY) for value in
              (len(labels), len(types), keys, nodes, rels, labels, rel_types, types, stats)]
    columns = ", ".join(f"{value} AS {name}" for value, (name, _) in zip(values, STATS_OUTPUTS, strict=True))
    return run.materialize(f"(SELECT {columns}, 1 AS __i)", [], bound.values).sql


PROCEDURES = (
    Procedure("apoc.meta.data", (ProcedureField("config", "MAP"),),
              tuple(ProcedureField(name, kind) for name, kind in OUTPUTS), build=_meta_data, required_inputs=0),
    Procedure("apoc.meta.schema", (ProcedureField("config", "MAP"),), (ProcedureField("value", "MAP"),),
              prepare=_meta_schema, required_inputs=0),
    Procedure("apoc.meta.stats", (), tuple(ProcedureField(name, kind) for name, kind in STATS_OUTPUTS),
              prepare=_meta_stats),
)
