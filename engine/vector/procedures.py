"""`db.idx.vector.queryNodes` (FalkorDB) and `db.index.vector.queryNodes` (Neo4j): exact k nearest neighbours.

The two differ in how they name the index and in their score:

- FalkorDB `(label, attribute, k, query)`: the score is the distance, cosine distance 1 - cos or euclidean
  distance, and rows come nearest first (ascending score).
- Neo4j `(indexName, k, query)`: the score is a similarity in [0, 1], (1 + cos) / 2 or 1 / (1 + d²), and
  rows come most similar first.

Ties go to the lower node id. Nodes whose property is not a list or a VECTOR (Cypher 25, ADR-0066) of the
index's dimension (or, for cosine, is all zeros) are not in the index, as in Neo4j; a query vector of another
dimension is an error. The call is one SELECT per calling row set: a lateral subquery over the label's nodes,
ranked by row_number.
"""

from __future__ import annotations

from engine.errors import ProcedureError
from engine.procedures import Procedure, ProcedureBuild, ProcedureField
from engine.semantic import bound as b
from engine.semantic.bound import BoundExpression
from engine.sqlgen.runtime import error_sql
from engine.storage.schema import IndexInfo
from engine.types import Kind
from engine.vector.constants import bound_constant
from engine.vector.functions import float_list
from engine.vector.indexes import VectorConfig

EMPTY = "(SELECT NULL::BIGINT AS node, NULL::DOUBLE AS score, 0::BIGINT AS __i WHERE false)"


def _falkordb(build: ProcedureBuild) -> str:
    label_arg, attribute_arg, k_arg, query_arg = build.arguments
    label = bound_constant(label_arg, "the label of db.idx.vector.queryNodes")
    attribute = bound_constant(attribute_arg, "the attribute of db.idx.vector.queryNodes")
    catalog = build.compiler.context.catalog
    index = next((i for i in catalog.indexes.values() if i.kind == "vector" and i.entity == "node"
                  and i.labels == (label,) and i.properties == (attribute,)), None)
    if index is None:
        raise ProcedureError(f"there is no vector index on :{label}({attribute})", build.span,
                             detail="ProcedureCallFailed")
    return _knn(build, index, k_arg, query_arg, similarity=False)


def _neo4j(build: ProcedureBuild) -> str:
    name_arg, k_arg, query_arg = build.arguments
    name = bound_constant(name_arg, "the index name of db.index.vector.queryNodes")
    index = build.compiler.context.catalog.indexes.get(name)
    if index is None or index.kind != "vector":
        raise ProcedureError(f"There is no such vector schema index: {name}", build.span,
                             detail="ProcedureCallFailed")
    return _knn(build, index, k_arg, query_arg, similarity=True)


def _knn(build: ProcedureBuild, index: IndexInfo, k_arg: BoundExpression, query_arg: BoundExpression, *,
         similarity: bool) -> str:
    """The k nearest nodes of `index` to the query vector, for each calling row."""
    compiler = build.compiler
    catalog = compiler.context.catalog
    config = VectorConfig.of(index)
    column = catalog.column("node", index.properties[0])
    column_type = catalog.column_type("node", index.properties[0])
    if column is None or column_type is None or column_type.kind not in (Kind.LIST, Kind.ANY):
        return EMPTY
    element = column_type.element
    if column_type.kind is Kind.LIST and element is not None and element.kind is Kind.FLOAT:
        stored = f"n.{column}"
    else:  # integers, or a VARIANT column: the values that are lists of numbers or VECTORs are vectors
        stored = (f"coalesce(TRY_CAST(n.{column} AS DOUBLE[]), CASE WHEN cy_kind(n.{column}) = 17"
                  f" THEN cy_vector_doubles(n.{column}) END)")
    k = compiler.integer(k_arg)
    query = float_list(compiler, query_arg, "the query vector")
    dimension = str(config.dimensions) if config.dimensions is not None else "len(q.v)"
    bad_dimension = error_sql("ArgumentError", "InvalidArgumentValue",
                              f"'the query vector has ' || len(q.v) || ' dimensions, the index {index.name} "
                              f"has ' || {dimension}")
    bad_k = error_sql("ArgumentError", "InvalidArgumentValue",
                      "'the number of neighbours must be a positive integer, got ' || coalesce(q.k::VARCHAR, 'null')")
    null_query = error_sql("ArgumentError", "InvalidArgumentValue", "'the query vector is null'")
    zero_query = error_sql("ArgumentError", "InvalidArgumentValue",
                           "'a cosine index cannot be queried with a vector of zeros'")
    checks = [f"WHEN q.v IS NULL THEN {null_query}", f"WHEN len(q.v) <> {dimension} THEN {bad_dimension}",
              f"WHEN q.k IS NULL OR q.k < 1 THEN {bad_k}"]
    # an all-zero vector has no direction: its cosine distance is NaN, dropped below
    if config.similarity == "cosine":
        checks.append(f"WHEN list_dot_product(q.v, q.v) = 0 THEN {zero_query}")
        distance = "list_cosine_distance(v.e, c.v)"
        score = "1 - distance / 2" if similarity else "distance"
    else:
        distance = "list_distance(v.e, c.v)"
        score = "1 / (1 + distance * distance)" if similarity else "distance"
    label = compiler.context.parameters.text(index.labels[0])
    checked = (f"(SELECT CASE {' '.join(checks)} ELSE q.v END AS v, q.k AS k, {dimension} AS dim"
               f" FROM (SELECT {query} AS v, {k} AS k) AS q)")
    # a vector is a list of the index's dimension without nulls: tested on the candidates alone where the
    # dimension is fixed (a condition between the two sides made DuckDB join them on it, and compute each
    # distance twice)
    if config.dimensions is not None:
        shape, usable = f"len({stored}) = {dimension} AND list_count({stored}) = {dimension}", "true"
    else:
        shape, usable = "true", "list_count(v.e) = len(v.e) AND len(v.e) = c.dim"
    candidates = (f"(SELECT n.id AS id, {stored} AS e FROM nodes AS n WHERE list_contains(n.labels, {label})"
                  f" AND n.{column} IS NOT NULL AND {shape})")
    scored = (f"SELECT v.id AS node, {distance} AS distance, c.k AS k FROM {checked} AS c, {candidates} AS v"
              f" WHERE {usable}")
    ranked = f"SELECT * FROM ({scored}) WHERE NOT isnan(distance)"
    if isinstance(k_arg, b.BLiteral | b.BParameter):
        # one k for every row: the k nearest, not a rank of all; at least one, so that the checks of a k
        # below 1 run (and raise) as they do in the rank
        ranked += f" ORDER BY distance, node LIMIT greatest(coalesce({k}, 1), 1)"
    return (f"(SELECT node, {score} AS score, __i FROM (SELECT node, distance, k, row_number() OVER"
            f" (ORDER BY distance, node) AS __i FROM ({ranked})) WHERE __i <= k)")


def _fields(*pairs: tuple[str, str]) -> tuple[ProcedureField, ...]:
    return tuple(ProcedureField(name, type_name) for name, type_name in pairs)


OUTPUTS = _fields(("node", "NODE"), ("score", "FLOAT"))
PROCEDURES = (
    Procedure("db.idx.vector.queryNodes",
              _fields(("label", "STRING"), ("attribute", "STRING"), ("k", "INTEGER"), ("query", "LIST OF ANY")),
              OUTPUTS, build=_falkordb),
    Procedure("db.index.vector.queryNodes",
              _fields(("indexName", "STRING"), ("numberOfNearestNeighbours", "INTEGER"), ("query", "LIST OF ANY")),
              OUTPUTS, build=_neo4j),
)
