"""What the feature packages add to binding, registered by the composition root (engine/plugins) so that the
binder imports none of them.

- `STATEMENT_REWRITES`: a statement that stands for another before binding (FalkorDB's
  `CALL db.idx.fulltext.createNodeIndex(...)` is a CREATE FULLTEXT INDEX); the first that answers wins.
- `SEARCH_CALLS`: the procedure call a `SEARCH` of an index kind stands for (a vector SEARCH), by kind;
  full-text SEARCH is the binder's own.
- `procedure_macros.PROCEDURE_MACROS`: procedures that stand for clauses over their arguments (Neo4j's
  `db.create.setNodeVectorProperty(n, key, v)` is `SET n[key] = vecf32(v)`), by lower-case name.
- `function_macros.FUNCTION_MACROS`: functions that stand for a Cypher expression over their arguments
  (APOC's `apoc.coll.sum(l)` is a `reduce` over `l`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.syntax import ast

StatementRewrite = Callable[[ast.Query, Mapping[str, Any]], ast.Statement | None]
SearchCall = Callable[[ast.Search, str], ast.CallProcedure]

STATEMENT_REWRITES: list[StatementRewrite] = []
SEARCH_CALLS: dict[str, SearchCall] = {}



def rewritten(statement: ast.Query, params: Mapping[str, Any]) -> ast.Statement | None:
    """What `statement` stands for, or None when no rewrite applies."""
    return next((found for rewrite in STATEMENT_REWRITES if (found := rewrite(statement, params)) is not None), None)
