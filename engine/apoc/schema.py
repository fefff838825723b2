"""`apoc.schema.nodes()` and `apoc.schema.relationships()`: the indexes and constraints of the catalog, one row
each, as APOC 5 lists them under Cypher 25 (the stored name in `name`); and `apoc.schema.properties.distinct` /
`distinctCount`, the distinct values of a property, as APOC's own Cypher computes them. neo4j-graphrag (and so
LangChain's `Neo4jGraph`) reads a graph's range indexes from `apoc.schema.nodes()` when it builds a schema.

`apoc.schema.nodes()` lists the node constraints first, then the node indexes (the backing index of a
uniqueness or key constraint among them, and the label lookup index), each group by label. An index is
ONLINE and fully populated as soon as it exists; its `size` is its entries (the nodes of its label with every
indexed property: for a text index a string, for a point index a point; a lookup index has a node per labelled
node) and `valuesSelectivity` the distinct entries over the entries (1.0 for none, as Neo4j reports an empty
index). The catalog's objects are a handful, known when the statement runs; their sizes are one query over the
store, one aggregate per index.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import types as t
from engine.errors import ProcedureError
from engine.execute.constraints import constraint_description, schema_text
from engine.execute.schema_commands import provider
from engine.procedures import Procedure, ProcedureField, ProcedurePreparation
from engine.semantic.procedure_macros import ProcedureMacro, subquery_macro
from engine.sqlgen.context import Parameters
from engine.sqlgen.expressions import to_variant
from engine.storage.encoding import KIND_CODES
from engine.storage.schema import Catalog, ConstraintInfo, IndexInfo
from engine.vector.constants import bound_constant

ANY_LABELS = "<any-labels>"
ANY_TYPES = "<any-types>"
"""What Neo4j writes for the labels (types) of a lookup index, which has none."""

CONSTRAINT_TYPES = {("unique", "node"): "UNIQUENESS", ("node_key", "node"): "NODE_KEY",
                    ("not_null", "node"): "NODE_PROPERTY_EXISTENCE", ("property_type", "node"): "NODE_PROPERTY_TYPE",
                    ("unique", "relationship"): "RELATIONSHIP_UNIQUENESS", ("node_key", "relationship"):
                    "RELATIONSHIP_KEY", ("not_null", "relationship"): "RELATIONSHIP_PROPERTY_EXISTENCE",
                    ("property_type", "relationship"): "RELATIONSHIP_PROPERTY_TYPE"}
"""(kind, entity) → the constraint's type as APOC names it (Neo4j's Java `ConstraintType`)."""

NODE_OUTPUTS = (("name", "STRING"), ("label", "ANY"), ("properties", "LIST OF STRING"), ("status", "STRING"),
                ("type", "STRING"), ("failure", "STRING"), ("populationProgress", "FLOAT"), ("size", "INTEGER"),
                ("valuesSelectivity", "FLOAT"), ("userDescription", "STRING"))
REL_OUTPUTS = (("name", "STRING"), ("type", "STRING"), ("properties", "LIST OF STRING"), ("status", "STRING"),
               ("relationshipType", "ANY"))

_HOLDS = {"text": "STRING", "point": "POINT", "fulltext": "STRING"}
"""Index kinds whose entries are only the values of one type (a full-text index: of any of its properties)."""


def procedure_failed(message: str, preparation: ProcedurePreparation) -> ProcedureError:
    return ProcedureError(f"Failed to invoke procedure `{preparation.procedure.name}`: {message}", preparation.span,
                          detail="ProcedureCallFailed")


def config_names(config: dict[str, Any], key: str, preparation: ProcedurePreparation) -> set[str]:
    value = config.get(key)
    if value is None:
        return set()
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise procedure_failed(f"the configuration's `{key}` must be a list of strings", preparation)
    return set(value)


def _selection(preparation: ProcedurePreparation, include_key: str, exclude_key: str) -> tuple[set[str], set[str]]:
    """The names a configuration includes and excludes (APOC refuses both at once)."""
    config = bound_constant(preparation.arguments[0], f"the configuration of {preparation.procedure.name}") \
        if preparation.arguments else None
    if config is None:
        return set(), set()
    if not isinstance(config, dict):
        raise procedure_failed("the configuration must be a map", preparation)
    include = config_names(config, include_key, preparation)
    exclude = config_names(config, exclude_key, preparation)
    if include and exclude:
        raise procedure_failed(f"Parameters {include_key} and {exclude_key} are both valuated. Please check parameters"
                               " and valuate only one.", preparation)
    return include, exclude


def _chosen(tokens: tuple[str, ...], include: set[str], exclude: set[str]) -> bool:
    """Whether an object on `tokens` is listed: with `include`, one of its tokens is (a lookup index, on no
    token, never is); else none of them is excluded."""
    if include:
        return bool(include.intersection(tokens))
    return not exclude.intersection(tokens)


def _token(index: IndexInfo) -> Any:
    """An index's label (type): the one it is on, the sorted list of several, or Neo4j's any-token name."""
    if not index.labels:
        return ANY_LABELS if index.entity == "node" else ANY_TYPES
    return index.labels[0] if len(index.labels) == 1 else sorted(index.labels)


def _token_order(index: IndexInfo) -> tuple[str, int]:
    """APOC's order of indexes: by their label (type) as Java prints it (`[A, B]` for several), then as created."""
    token = _token(index)
    return ("[" + ", ".join(token) + "]" if isinstance(token, list) else token), index.id


def _index_description(index: IndexInfo, catalog: Catalog) -> str:
    """Neo4j's `userDescription` of an index: `Index( id=1, name='i', type='RANGE', schema=(:L {p}),
    indexProvider='range-1.0' )`, with the id of the constraint that owns it."""
    if index.kind == "lookup":
        schema = f"(:{ANY_LABELS})" if index.entity == "node" else f"()-[:{ANY_TYPES}]-()"
    elif len(index.labels) > 1:
        inner = ":" + ":".join(index.labels) + " {" + ", ".join(index.properties) + "}"
        schema = f"({inner})" if index.entity == "node" else f"()-[{inner}]-()"
    else:
        schema = schema_text(index.entity, index.labels[0] if index.labels else None, index.properties)
    owner = catalog.constraints.get(index.owned_by) if index.owned_by else None
    owned = f", owningConstraint={owner.id}" if owner is not None else ""
    return (f"Index( id={index.id}, name='{index.name}', type='{index.kind.upper()}', schema={schema},"
            f" indexProvider='{provider(index.kind)}'{owned} )")


def _entries(index: IndexInfo, catalog: Catalog, text: Callable[[str], str]) -> str | None:
    """A SELECT of the index's entries (`size`) and distinct entries (`uniques`), over its entity's table;
    None for an index on a property no element has ever held (no column: no entries)."""
    table = "nodes" if index.entity == "node" else "rels"
    if index.kind == "lookup":
        where = "len(e.labels) > 0" if index.entity == "node" else "true"
        return f"SELECT count(*) AS size, count(*) AS uniques FROM {table} AS e WHERE {where}"
    columns = [(catalog.column(index.entity, key), catalog.column_type(index.entity, key) or t.ANY)
               for key in index.properties]
    if any(column is None for column, _ in columns):
        return None
    values = [to_variant(f"e.{column}", column_type) for column, column_type in columns]
    held = _HOLDS.get(index.kind)
    tests = [f"cy_kind({value}) = {KIND_CODES[held]}" if held else f"{value} IS NOT NULL" for value in values]
    joined = " OR " if index.kind == "fulltext" else " AND "
    distinct = values[0] if len(values) == 1 else f"row({', '.join(values)})"
    tokens = " OR ".join(
        f"list_contains(e.labels, {text(label)})" if index.entity == "node" else f"e.type = {text(label)}"
        for label in index.labels)
    return (f"SELECT count(*) AS size, count(DISTINCT {distinct}) AS uniques FROM {table} AS e"
            f" WHERE ({tokens}) AND ({joined.join(tests)})")


def _sizes(preparation: ProcedurePreparation, indexes: list[IndexInfo]) -> list[tuple[int, float]]:
    """Each index's size and values selectivity, in one query over the store."""
    catalog: Catalog = preparation.run.store.catalog
    parameters = Parameters()
    parts = []
    for number, index in enumerate(indexes):
        entries = _entries(index, catalog, parameters.text)
        if entries is not None:
            parts.append(f"SELECT {number} AS i, size, uniques FROM ({entries})")
    found: dict[int, tuple[int, int]] = {}
    if parts:
        rows = preparation.run.fetchall(" UNION ALL ".join(f"({part})" for part in parts), parameters.values)
        found = {number: (size, uniques) for number, size, uniques in rows}
    sizes = []
    for number in range(len(indexes)):
        size, uniques = found.get(number, (0, 0))
        sizes.append((size, uniques / size if size else 1.0))
    return sizes


def relation(preparation: ProcedurePreparation, outputs: tuple[tuple[str, str], ...],
              rows: list[tuple[Any, ...]]) -> str:
    """The rows as the call's relation (its outputs and `__i`), every value bound."""
    bound = Parameters()
    types = [ProcedureField(name, kind).type for name, kind in outputs]
    names = ", ".join(f'"{name}"' for name, _ in outputs)
    if not rows:
        empty = ", ".join(f"NULL::{t.sql_type(cypher_type)}" for cypher_type in types)
        select = f"(SELECT * FROM (SELECT {empty}, 0 AS __i) AS v({names}, __i) WHERE false)"
    else:
        values = ", ".join(
            "(" + ", ".join(bound.bind(value, cypher_type) for value, cypher_type in zip(row, types, strict=True))
            + f", {number})" for number, row in enumerate(rows, start=1))
        select = f"(SELECT * FROM (VALUES {values}) AS v({names}, __i))"
    return preparation.run.materialize(select, [], bound.values).sql


def _schema_nodes(preparation: ProcedurePreparation) -> str:
    """APOC's rows: the node constraints by label, then the node indexes by label."""
    catalog: Catalog = preparation.run.store.catalog
    include, exclude = _selection(preparation, "labels", "excludeLabels")
    constraints = sorted((constraint for constraint in catalog.constraints.values()
                          if constraint.entity == "node" and _chosen((constraint.label,), include, exclude)),
                         key=lambda constraint: (constraint.label, constraint.id))
    indexes = sorted((index for index in catalog.indexes.values()
                      if index.entity == "node" and _chosen(index.labels, include, exclude)),
                     key=_token_order)
    rows: list[tuple[Any, ...]] = [
        (constraint.name, constraint.label, list(constraint.properties), "",
         CONSTRAINT_TYPES[(constraint.kind, constraint.entity)], "NO FAILURE", 0.0, 0, 0.0,
         constraint_description(constraint, _owned_id(catalog, constraint)))
        for constraint in constraints]
    rows += [(index.name, _token(index), list(index.properties), "ONLINE", index.kind.upper(), "NO FAILURE", 100.0,
              size, selectivity, _index_description(index, catalog))
             for index, (size, selectivity) in zip(indexes, _sizes(preparation, indexes), strict=True)]
    return relation(preparation, NODE_OUTPUTS, rows)


def _owned_id(catalog: Catalog, constraint: ConstraintInfo) -> int | None:
    return next((index.id for index in catalog.indexes.values() if index.owned_by == constraint.name), None)


def _schema_relationships(preparation: ProcedurePreparation) -> str:
    """APOC's rows: the relationship constraints, then the relationship indexes, each by type."""
    catalog: Catalog = preparation.run.store.catalog
    include, exclude = _selection(preparation, "relationships", "excludeRelationships")
    constraints = sorted((constraint for constraint in catalog.constraints.values()
                          if constraint.entity == "relationship"
                          and _chosen((constraint.label,), include, exclude)),
                         key=lambda constraint: (constraint.label, constraint.id))
    indexes = sorted((index for index in catalog.indexes.values()
                      if index.entity == "relationship" and _chosen(index.labels, include, exclude)),
                     key=_token_order)
    rows: list[tuple[Any, ...]] = [
        (constraint.name, CONSTRAINT_TYPES[(constraint.kind, constraint.entity)], list(constraint.properties), "",
         constraint.label) for constraint in constraints]
    rows += [(index.name, index.kind.upper(), list(index.properties), "ONLINE", _token(index)) for index in indexes]
    return relation(preparation, REL_OUTPUTS, rows)


_CONFIG = (ProcedureField("config", "MAP"),)

PROCEDURES = (
    Procedure("apoc.schema.nodes", _CONFIG, tuple(ProcedureField(name, kind) for name, kind in NODE_OUTPUTS),
              prepare=_schema_nodes, required_inputs=0, mode="SCHEMA"),
    Procedure("apoc.schema.relationships", _CONFIG, tuple(ProcedureField(name, kind) for name, kind in REL_OUTPUTS),
              prepare=_schema_relationships, required_inputs=0, mode="SCHEMA"),
)

# APOC 5 computes both in Cypher (SchemaIndex.java): per label and key of every node that has them, an empty
# label or key standing for every one; `distinct` collects the values of those rows.
_DISTINCT_ROWS = ("MATCH (`__n`) UNWIND [`__l` IN labels(`__n`) WHERE __a0 = '' OR `__l` = __a0] AS `__l`"
                  " UNWIND [`__k` IN keys(`__n`) WHERE __a1 = '' OR `__k` = __a1] AS `__k`"
                  " WITH `__l`, `__k`, `__n`[`__k`] AS `__v`, count(*) AS `__c`")

PROCEDURE_MACROS: tuple[ProcedureMacro, ...] = (
    subquery_macro("apoc.schema.properties.distinct", (("label", "STRING"), ("key", "STRING")),
                   (("value", "LIST<ANY>"),), "READ",
                   f"{_DISTINCT_ROWS} WITH collect(`__v`) AS `__out_value`"),
    subquery_macro("apoc.schema.properties.distinctCount", (("label", "STRING"), ("key", "STRING")),
                   (("label", "STRING"), ("key", "STRING"), ("value", "ANY"), ("count", "INTEGER")), "READ",
                   f"{_DISTINCT_ROWS} WITH `__l` AS `__out_label`, `__k` AS `__out_key`, `__v` AS `__out_value`,"
                   " `__c` AS `__out_count`"),
)
