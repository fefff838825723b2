"""FalkorDB's full-text forms over the same indexes: `db.idx.fulltext.createNodeIndex(label, property, ...)`
and `db.idx.fulltext.queryNodes(label, query)`.

FalkorDB's indexes have no names: one full-text index per label, found by the label. Creating one is a
schema command, so a standalone CALL of `createNodeIndex` is read as `CREATE FULLTEXT INDEX` before
binding. `queryNodes` takes RediSearch's query syntax, whose terms are ANDed; it is rewritten into the
Lucene syntax our parser reads (`engine/fulltext/query.py`) for the subset FalkorDB documents: words, a
trailing `*` prefix, `-word`, `a|b` alternatives and "quoted phrases". The scores are the index's
BM25 (ADR-0017), not RediSearch's TF-IDF: rankings of documents that all match every term agree, the
numbers do not.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.errors import CypherArgumentError, ProcedureError, UnsupportedFeature
from engine.storage.schema import IndexInfo
from engine.syntax import ast

CREATE_NODE_INDEX = "db.idx.fulltext.createnodeindex"
QUERY_NODES = "db.idx.fulltext.queryNodes"
FALKORDB_INDEX_PREFIX = "falkordb_fulltext_"

_TOKEN = re.compile(r'-?"[^"]*"|\S+')
_WORD = re.compile(r"-?[\w|*]+")


def _value(expression: ast.Expression, params: Mapping[str, Any]) -> Any:
    if isinstance(expression, ast.Literal):
        return expression.value
    if isinstance(expression, ast.Parameter) and expression.name in params:
        return params[expression.name]
    raise UnsupportedFeature("db.idx.fulltext.createNodeIndex with arguments other than literal or parameter "
                             "strings (the map form with language and stopwords is not supported)", expression.span)


def create_node_index(statement: ast.Query, params: Mapping[str, Any]) -> ast.CreateIndex | None:
    """`CALL db.idx.fulltext.createNodeIndex('Label', 'p', 'q')` standing alone, as the schema command it
    is; None for any other statement."""
    if len(statement.parts) != 1 or len(statement.parts[0].clauses) != 1:
        return None
    call = statement.parts[0].clauses[0]
    if not isinstance(call, ast.CallProcedure) or call.name.lower() != CREATE_NODE_INDEX:
        return None
    arguments = [_value(argument, params) for argument in call.arguments or ()]
    if len(arguments) < 2 or not all(isinstance(value, str) for value in arguments):
        raise CypherArgumentError("db.idx.fulltext.createNodeIndex takes a label and one or more property names, "
                                  "all strings", call.span, detail="InvalidArgumentType")
    label, *properties = arguments
    return ast.CreateIndex(FALKORDB_INDEX_PREFIX + label, "fulltext", "node", ast.Variable("n", span=call.span),
                           (label,), tuple(properties), False, None, span=call.span)


def index_for_label(indexes: Mapping[str, IndexInfo], label: Any, span: Any) -> IndexInfo:
    """The node full-text index of exactly `label`, as FalkorDB finds an index by its label."""
    for index in indexes.values():
        if index.kind == "fulltext" and index.entity == "node" and index.labels == (label,):
            return index
    raise ProcedureError(f"Failed to invoke procedure `{QUERY_NODES}`: no full-text index on the label {label!r}",
                         span, detail="ProcedureCallFailed")


def lucene_query(text: str, span: Any) -> str:
    """A RediSearch query as Lucene syntax: every term required, `-term` excluded, `a|b` either."""
    clauses = []
    for token in _TOKEN.findall(text):
        negated = token.startswith("-")
        body = token[1:] if negated else token
        if body.startswith('"'):
            clause = body
        elif _WORD.fullmatch(token) and body and not body.startswith("|") and not body.endswith("|"):
            alternatives = body.split("|")
            clause = alternatives[0] if len(alternatives) == 1 else "(" + " OR ".join(alternatives) + ")"
        else:
            raise UnsupportedFeature(f"{QUERY_NODES}: the query term {token!r} (supported: words, prefix*, -word, "
                                     'a|b and "phrases")', span)
        clauses.append(("-" if negated else "+") + clause)
    return " ".join(clauses)
