"""`db.index.fulltext.queryNodes` / `queryRelationships`: a Lucene query over a full-text index, the
matching elements with their BM25 scores, best first (ties by element id), after `skip`, up to `limit`.

The query string is parsed in Python at compile time into SQL with bound values (ADR-0017); an index name
or query that comes from the row is resolved per distinct value (engine/sqlgen/procedure_arguments.py), the
options must be literals or parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from engine import types as t
from engine.errors import CypherArgumentError, ProcedureError, UnsupportedFeature
from engine.fulltext import falkordb
from engine.fulltext.analyzers import ANALYZERS, for_index
from engine.fulltext.query import analyzed_texts, parse_query
from engine.fulltext.rewrite import rewrite
from engine.fulltext.scoring import ScoreCompiler
from engine.procedures import Procedure, ProcedureField
from engine.quoting import sql_string
from engine.semantic import bound as b
from engine.storage.schema import IndexInfo

if TYPE_CHECKING:
    from engine.sqlgen.generator import QueryCompiler

_INPUTS = (ProcedureField("indexName", "STRING"), ProcedureField("queryString", "STRING"),
           ProcedureField("options", "MAP"))
_OPTIONS = {"limit", "skip", "analyzer"}
IndexFinder = Callable[["QueryCompiler", Any, str, str, Any], IndexInfo]


def _constant(expression: b.BoundExpression, name: str) -> Any:
    """The value of an argument that does not depend on the row: a literal, a parameter, or a map of them."""
    if isinstance(expression, b.BLiteral | b.BParameter):
        return expression.value
    if isinstance(expression, b.BMap):
        return {key: _constant(value, name) for key, value in expression.entries}
    if isinstance(expression, b.BList):
        return [_constant(item, name) for item in expression.items]
    raise UnsupportedFeature(f"{name}: the index name, query and options must be literals or parameters "
                             "(not values computed per row)", expression.span)


def _count_option(options: dict[str, Any], key: str, procedure: str) -> int | None:
    value = options.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CypherArgumentError(f"Failed to invoke procedure `{procedure}`: the `{key}` option must be a "
                                  f"non-negative integer, got {value!r}", detail="InvalidArgumentValue")
    return value


def _named_index(queries: QueryCompiler, name: Any, entity: str, procedure: str, span: Any) -> IndexInfo:
    """Neo4j's procedures name the index."""
    index = queries.catalog.indexes.get(name) if isinstance(name, str) else None
    if index is None or index.kind != "fulltext":
        raise ProcedureError(f"Failed to invoke procedure `{procedure}`: Caused by: "
                             f"java.lang.IllegalArgumentException: There is no such fulltext schema index: {name}",
                             span, detail="ProcedureCallFailed")
    if index.entity != entity:
        kind = "relationships" if index.entity == "relationship" else "nodes"
        raise ProcedureError(f"Failed to invoke procedure `{procedure}`: Caused by: "
                             f"java.lang.IllegalArgumentException: The '{name}' index ({index.name}) is an "
                             f"index on {kind}, and cannot be queried with {procedure}.", span,
                             detail="ProcedureCallFailed")
    return index


def _query_rows(entity: str, procedure: str, output: str, find: IndexFinder = _named_index,
                translate: Callable[[str, Any], str] | None = None) -> Callable[..., str]:
    """The rows of one full-text procedure: (output element, score, __i) for the call's argument values.
    `find` resolves the first argument to an index; `translate` rewrites another query syntax to Lucene's."""

    def compile_rows(queries: QueryCompiler, arguments: Sequence[b.BoundExpression], span: Any) -> str:
        name = _constant(arguments[0], procedure)
        text = _constant(arguments[1], procedure)
        options = _constant(arguments[2], procedure) if len(arguments) > 2 else {}
        options = options or {}
        index = find(queries, name, entity, procedure, span)
        if not isinstance(text, str):
            raise CypherArgumentError(f"Failed to invoke procedure `{procedure}`: the query must be a string",
                                      span, detail="InvalidArgumentType")
        if not isinstance(options, dict) or set(options) - _OPTIONS:
            raise CypherArgumentError(f"Failed to invoke procedure `{procedure}`: options may hold limit, skip and "
                                      "analyzer", span, detail="InvalidArgumentValue")
        analyzer = options.get("analyzer") or for_index(index).name
        if analyzer not in ANALYZERS:
            raise UnsupportedFeature(f"{procedure} with the analyzer {analyzer!r}", span)
        limit = _count_option(options, "limit", procedure)
        skip = _count_option(options, "skip", procedure)
        if translate is not None:
            text = translate(text, span)
        ANALYZERS[analyzer].prepare(analyzed_texts(text, index.properties, procedure))
        query = rewrite(parse_query(text, index.properties, ANALYZERS[analyzer], procedure))
        scores = ScoreCompiler(index.id, queries.parameters).compile(query)
        queries.reads_fulltext = True
        page = ""
        if limit is not None:
            page += f" LIMIT {queries.parameters.bind(limit, t.INTEGER)}"
        if skip:
            page += f" OFFSET {queries.parameters.bind(skip, t.INTEGER)}"
        ranked = (f"(SELECT id, score FROM {scores} ORDER BY score DESC, id{page})")
        return (f"(SELECT id AS {output}, score::DOUBLE AS score,"
                f" row_number() OVER (ORDER BY score DESC, id) AS __i FROM {ranked})")

    return compile_rows


def procedures() -> list[Procedure]:
    """The full-text procedures: Neo4j's two queries and FalkorDB's."""
    made = [Procedure(name, _INPUTS, (ProcedureField(output, type_name), ProcedureField("score", "FLOAT")),
                      compile=_query_rows(entity, name, output), required_inputs=2)
            for name, entity, output, type_name in (
                ("db.index.fulltext.queryNodes", "node", "node", "NODE"),
                ("db.index.fulltext.queryRelationships", "relationship", "relationship", "RELATIONSHIP"))]
    made.append(Procedure(
        falkordb.QUERY_NODES, (ProcedureField("label", "STRING"), ProcedureField("query", "STRING")),
        (ProcedureField("node", "NODE"), ProcedureField("score", "FLOAT")),
        compile=_query_rows("node", falkordb.QUERY_NODES, "node", _labelled_index, falkordb.lucene_query),
        required_inputs=2))
    made.append(Procedure(
        "db.index.fulltext.listAvailableAnalyzers", (),
        (ProcedureField("analyzer", "STRING"), ProcedureField("description", "STRING"),
         ProcedureField("stopwords", "LIST OF STRING")),
        sql=_analyzer_rows))
    return made


def _analyzer_rows() -> str:
    """Neo4j's list of analyzers, in its order (by name)."""
    rows = " UNION ALL ".join(
        f"SELECT {sql_string(a.name)} AS analyzer, {sql_string(a.description)} AS description,"
        f" {'[' + ', '.join(sql_string(w) for w in a.stopwords) + ']'}::VARCHAR[] AS stopwords, {number} AS __i"
        for number, a in enumerate(sorted(ANALYZERS.values(), key=lambda a: a.name), start=1))
    return f"({rows})"


def _labelled_index(queries: QueryCompiler, label: Any, entity: str, procedure: str, span: Any) -> IndexInfo:
    """FalkorDB's procedures name the label the index covers."""
    return falkordb.index_for_label(queries.catalog.indexes, label, span)
