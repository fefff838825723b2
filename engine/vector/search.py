"""Cypher 25's `MATCH pattern SEARCH v IN (VECTOR INDEX name FOR vector LIMIT k) [SCORE AS s]`.

The SEARCH sub-clause keeps the pattern's matches whose `v` is among the k nodes of the vector index most
similar to the query vector; `s` is the score `db.index.vector.queryNodes` yields. It runs as that
procedure followed by the MATCH: `CALL db.index.vector.queryNodes(name, k, vector) YIELD node AS v, score
AS s MATCH pattern WHERE ...`, the pattern matching with `v` bound to each neighbour in turn, most similar
first. So the query vector and k may read earlier clauses' variables but not the pattern's own.
"""

from __future__ import annotations

import dataclasses

from engine.errors import CypherSyntaxError, UnsupportedFeature
from engine.syntax import ast


def _node_variables(pattern: ast.Pattern) -> set[str]:
    """The names of the pattern's top-level node variables."""
    return {element.variable.name for part in pattern.parts for element in part.element.elements
            if isinstance(element, ast.NodePattern) and element.variable is not None}


def expand_search(clause: ast.Clause) -> tuple[ast.Clause, ...]:
    """A MATCH with SEARCH as the procedure call and the MATCH without it; any other clause as it is."""
    search = clause.search if isinstance(clause, ast.Match) else None
    if search is None:
        return (clause,)
    assert isinstance(clause, ast.Match)
    if clause.optional:
        raise UnsupportedFeature("OPTIONAL MATCH with SEARCH", search.span)
    if search.variable.name not in _node_variables(clause.pattern):
        raise CypherSyntaxError(f"the SEARCH variable `{search.variable.name}` must be a node of the MATCH "
                                "pattern", search.variable.span, detail="InvalidSearch")
    span = search.span
    yields = [ast.YieldItem("node", search.variable, span=search.variable.span)]
    if search.score is not None:
        yields.append(ast.YieldItem("score", search.score, span=search.score.span))
    call = ast.CallProcedure("db.index.vector.queryNodes",
                             (ast.Literal(search.index, span=span), search.limit, search.vector),
                             tuple(yields), False, None, span=span)
    return call, dataclasses.replace(clause, search=None)
