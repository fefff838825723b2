"""Cypher 25's `MATCH (v) SEARCH v IN (VECTOR INDEX name FOR vector LIMIT k) [SCORE AS s]`.

The parser reads SEARCH for both index kinds and the binder checks Neo4j's restrictions on the pattern
(`_expand_searches`); a vector search then runs as `CALL db.index.vector.queryNodes(name, k, vector) YIELD
node AS v, score AS s` before the MATCH, which matches with `v` bound to each neighbour in turn, most
similar first. So the query vector and k may read earlier clauses' variables but not the pattern's own.
"""

from __future__ import annotations

from engine.errors import UnsupportedFeature
from engine.syntax import ast


def vector_search_call(search: ast.Search, entity: str) -> ast.CallProcedure:
    """The procedure call a vector SEARCH of a node stands for."""
    if entity != "node":
        raise UnsupportedFeature("SEARCH with a relationship vector index", search.span)
    yields = [ast.YieldItem("node", search.variable, span=search.variable.span)]
    if search.score is not None:
        yields.append(ast.YieldItem("score", search.score, span=search.score.span))
    return ast.CallProcedure("db.index.vector.queryNodes",
                             (ast.Literal(search.index, span=search.span), search.limit, search.query),
                             tuple(yields), False, None, span=search.span)
