"""What the feature packages add to binding, registered by the composition root (engine/plugins) so that the
binder imports none of them.

- `STATEMENT_REWRITES`: a statement that stands for another before binding (FalkorDB's
  `CALL db.idx.fulltext.createNodeIndex(...)` is a CREATE FULLTEXT INDEX); the first that answers wins.
- `SEARCH_CALLS`: the procedure call a `SEARCH` of an index kind stands for (a vector SEARCH), by kind;
  full-text SEARCH is the binder's own.
- `FUNCTION_MACROS`: functions that stand for a Cypher expression over their arguments (APOC's
  `apoc.coll.sum(l)` is a `reduce` over `l`), by lower-case name; bound as that expression.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.syntax import ast

StatementRewrite = Callable[[ast.Query, Mapping[str, Any]], ast.Statement | None]
SearchCall = Callable[[ast.Search, str], ast.CallProcedure]

STATEMENT_REWRITES: list[StatementRewrite] = []
SEARCH_CALLS: dict[str, SearchCall] = {}


@dataclass(frozen=True)
class FunctionMacro:
    """A function that is a Cypher expression (`body`) over its arguments, named `parameters` in it."""

    parameters: tuple[str, ...]
    body: ast.Expression
    required: int | None = None
    """How many arguments must be given (the rest are null); None: all."""

    def expand(self, call: ast.FunctionCall) -> ast.Expression:
        """The body with the call's arguments in place of the parameters, every span the call's (an error in
        the body points at the call)."""
        arguments = dict(zip(self.parameters, call.arguments, strict=False))
        missing = ast.Literal(None, span=call.span)

        def substitute(node: ast.Expression) -> ast.Expression:
            if isinstance(node, ast.Variable) and node.name in self.parameters:
                return arguments.get(node.name, missing)
            return ast.replace_spans(ast.replace_expressions(node, substitute), call.span)  # type: ignore[return-value]

        return substitute(self.body)


FUNCTION_MACROS: dict[str, FunctionMacro] = {}


def rewritten(statement: ast.Query, params: Mapping[str, Any]) -> ast.Statement | None:
    """What `statement` stands for, or None when no rewrite applies."""
    return next((found for rewrite in STATEMENT_REWRITES if (found := rewrite(statement, params)) is not None), None)
