"""Constant values of bound or syntax-tree expressions: the arguments a procedure must know while it is
compiled (a label, an index name) and OPTIONS maps."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import ParameterMissing, UnsupportedFeature
from engine.semantic import bound as b
from engine.syntax import ast


def bound_constant(expression: b.BoundExpression, what: str) -> Any:
    """The value of a literal or parameter argument (or a list or map of them); anything else cannot be known
    at compile time."""
    if isinstance(expression, b.BLiteral | b.BParameter):
        return expression.value
    if isinstance(expression, b.BList):
        return [bound_constant(item, what) for item in expression.items]
    if isinstance(expression, b.BMap):
        return {key: bound_constant(value, what) for key, value in expression.entries}
    raise UnsupportedFeature(f"{what} given by an expression (only a literal or a parameter)", expression.span)


def syntax_constant(expression: ast.Expression, params: Mapping[str, Any]) -> Any:
    """The value of an OPTIONS map written with literals, lists, maps and parameters."""
    if isinstance(expression, ast.Literal):
        return expression.value
    if isinstance(expression, ast.ListLiteral):
        return [syntax_constant(item, params) for item in expression.items]
    if isinstance(expression, ast.MapLiteral):
        return {key: syntax_constant(value, params) for key, value in expression.entries}
    if isinstance(expression, ast.Parameter):
        if expression.name not in params:
            raise ParameterMissing(f"expected a value for the parameter ${expression.name}", expression.span,
                                   detail="MissingParameter")
        return params[expression.name]
    if isinstance(expression, ast.UnaryOp) and expression.op == "-":
        value = syntax_constant(expression.operand, params)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return -value
    raise UnsupportedFeature("this expression in OPTIONS (literals, lists, maps and parameters only)",
                             expression.span)
