"""A script's statements as the engine splits it, and whether each one's rows come in an order it defines.

For code that runs a page's cells on another database (`runner/targets`): it sends each statement's text as
the engine would run it, one at a time, and compares rows in order exactly where the engine would
(`Result.ordered`), without binding anything against a graph.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.span import Span
from engine.syntax import ast
from engine.syntax.parser import parse_script


@dataclass(frozen=True)
class ScriptStatement:
    """One statement of a script: its text, where it stands in the script, and whether it is ordered."""

    text: str
    span: Span
    ordered: bool


def ends_in_order_by(statement: ast.Statement) -> bool:
    """Whether the statement's rows come in the order its final `RETURN ... ORDER BY` gives: a query of
    one part (a UNION has no order) whose last clause is a RETURN with ORDER BY."""
    if not isinstance(statement, ast.Query) or len(statement.parts) != 1:
        return False
    clauses = statement.parts[0].clauses
    return bool(clauses) and isinstance(clauses[-1], ast.Return) and bool(clauses[-1].projection.order_by)


def script_statements(text: str) -> list[ScriptStatement]:
    """The `;`-separated statements of `text`, parsed (a syntax error raises CypherSyntaxError)."""
    return [ScriptStatement(text[span.start:span.end], span, ends_in_order_by(statement))
            for statement, span in parse_script(text)]
