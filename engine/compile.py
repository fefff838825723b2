"""The compiler's front half on one screen: text -> tokens -> AST -> bound statement.

SQL is generated per clause at execution time (`engine.execute.executor`), because each clause's SQL
depends on the catalog as the clauses before it left it (a property written by one clause is a column
the next one reads).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.semantic import bound
from engine.semantic.binder import Binder
from engine.syntax import ast
from engine.syntax.parser import parse


def bind(statement: ast.Statement, params: Mapping[str, Any] | None = None) -> bound.BoundQuery | bound.BSchemaCommand:
    """Resolve variables, types and clause rules of a parsed statement."""
    return Binder(params).bind_statement(statement)


def compile_statement(text: str, params: Mapping[str, Any] | None = None) -> bound.BoundQuery | bound.BSchemaCommand:
    """Parse and bind one statement."""
    return bind(parse(text), params)
