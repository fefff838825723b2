"""Expressions whose value is the same on every row: what a WITH may hand on as a constant (scope.Variable)."""

from __future__ import annotations

from engine import types as t
from engine.semantic import bound as b
from engine.types import Kind

CONSTANT_FUNCTIONS = frozenset({"date", "datetime", "localdatetime", "localtime", "time", "duration",
                                "tolower", "toupper", "tostring", "tointeger", "tofloat", "toboolean"})
"""Functions whose value is fixed by their arguments (no clock, no randomness): over constants, a constant."""

SCALAR_KINDS = frozenset({Kind.BOOLEAN, Kind.INTEGER, Kind.FLOAT, Kind.STRING, *t.TEMPORAL_KINDS})
"""The kinds a constant may have: values a filter compares with, cheap to bind again wherever they are read
(a list or map parameter, bound at every read, could be thousands of rows)."""


def constant_of(expression: b.BoundExpression) -> b.BoundExpression | None:
    """`expression` when its value is the same on every row: a literal, a parameter, a variable a WITH
    made constant, or a function of CONSTANT_FUNCTIONS over such (with at least one argument: `datetime()`
    reads the clock), and of a scalar kind."""
    if expression.type.kind not in SCALAR_KINDS:
        return None
    if isinstance(expression, b.BLiteral | b.BParameter):
        return expression
    if isinstance(expression, b.BVariable):
        return expression.variable.constant
    if (isinstance(expression, b.BFunction) and expression.name in CONSTANT_FUNCTIONS and expression.arguments
            and all(constant_of(argument) is not None for argument in expression.arguments)):
        return expression
    return None
