"""Arithmetic where temporal values may be involved (`date + duration`, `duration * 2`, dynamic values), for the
expression compiler's operators (ADR-0014)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine import types as t
from engine.errors import CypherSyntaxError, CypherTypeError
from engine.semantic import bound as b
from engine.sqlgen import runtime_temporal as rt
from engine.sqlgen.runtime_temporal import call, let
from engine.sqlgen.temporal_values import from_variant
from engine.types import Kind, is_variant

if TYPE_CHECKING:
    from engine.sqlgen.expressions import ExpressionCompiler

INSTANTS = {Kind.DATE, Kind.LOCAL_TIME, Kind.ZONED_TIME, Kind.LOCAL_DATETIME, Kind.ZONED_DATETIME}


def type_error(message: str, span: object = None) -> CypherTypeError:
    return CypherTypeError(message, span, detail="InvalidArgumentType")  # type: ignore[arg-type]


# Argument SQL is compiled outside any binding flow (`runtime_temporal.isolated`): it may hold lambdas of its own.

def compiled(c: ExpressionCompiler, expression: b.BoundExpression) -> str:
    with rt.isolated():
        return c.compile(expression)


def variant_of(c: ExpressionCompiler, expression: b.BoundExpression) -> str:
    with rt.isolated():
        return c.variant(expression)


def number_of(c: ExpressionCompiler, expression: b.BoundExpression) -> str:
    with rt.isolated():
        return c.number(expression)


ARITHMETIC_MACROS = {"+": "cy_t_add", "-": "cy_t_sub", "*": "cy_t_mul", "/": "cy_t_div"}
NUMBERS = {Kind.INTEGER, Kind.FLOAT}


def arithmetic(c: ExpressionCompiler, op: str, left: b.BoundExpression, right: b.BoundExpression,
               result: t.CypherType) -> str | None:
    """SQL for `left op right` when temporal values may be involved; None when they cannot be."""
    lk, rk = left.type.kind, right.type.kind
    if Kind.NULL in (lk, rk) or (op == "+" and Kind.LIST in (lk, rk)):  # a value + a list: list concatenation
        return None
    lt, rt_ = lk in t.TEMPORAL_KINDS, rk in t.TEMPORAL_KINDS
    lv, rv = is_variant(left.type), is_variant(right.type)
    sign = 1 if op == "+" else -1
    if op in ("+", "-"):
        if lk in INSTANTS and rk is Kind.DURATION:
            return _both(c, left, right, lambda x, y: rt.plus_duration(x, lk.value, y, sign))
        if op == "+" and lk is Kind.DURATION and rk in INSTANTS:
            return _both(c, right, left, lambda x, y: rt.plus_duration(x, rk.value, y))
        if lk is Kind.DURATION and rk is Kind.DURATION:
            return _both(c, left, right, lambda x, y: rt.duration_sum(x, y, sign))
        if (lt and rv) or (rt_ and lv) or (lv and rv):
            return _dynamic(c, op, left, right, result)
    elif op == "*":
        if lk is Kind.DURATION and rk in NUMBERS:
            return _times(c, left, right)
        if rk is Kind.DURATION and lk in NUMBERS:
            return _times(c, right, left)
        if (lk is Kind.DURATION and rv) or (rk is Kind.DURATION and lv) or (lv and (rv or rk in NUMBERS)) or (
                rv and lk in NUMBERS):
            return _dynamic(c, op, left, right, result)
    elif op == "/":
        if lk is Kind.DURATION and rk in NUMBERS:
            return _both(c, left, right, lambda x, y: rt.duration_divided(x, f"({y})::DOUBLE"))
        if (lk is Kind.DURATION and rv) or (lv and (rv or rk in NUMBERS)):
            return _dynamic(c, op, left, right, result)
    if lt or rt_:
        if b.observed(left) or b.observed(right):  # a type read off data: the values decide, on each row
            return _dynamic(c, op, left, right, result) if op in ARITHMETIC_MACROS else None
        # Types the query text fixes that no operator row takes (`date - date`, `date + 1`): refused when the
        # query compiles, `SyntaxError: InvalidArgumentType`, as `1 - 'a'` is and as the openCypher TCK
        # classifies an operand of the wrong type (a value met at run time is a `TypeError`).
        raise CypherSyntaxError(f"cannot apply {op} to {left.type!r} and {right.type!r}", left.span,
                                detail="InvalidArgumentType")
    return None


def _both(c: ExpressionCompiler, first: b.BoundExpression, second: b.BoundExpression,
          body: Callable[[str, str], str]) -> str:
    return let([compiled(c, first), compiled(c, second)], lambda x, y: (
        f"CASE WHEN {x} IS NULL OR {y} IS NULL THEN NULL ELSE {body(x, y)} END"))


def _times(c: ExpressionCompiler, duration: b.BoundExpression, factor: b.BoundExpression) -> str:
    integer = factor.type.kind is Kind.INTEGER
    factor_sql = compiled(c, factor) if integer else number_of(c, factor)
    return let([compiled(c, duration), factor_sql], lambda x, y: f"CASE WHEN {x} IS NULL OR {y} IS NULL THEN NULL"
               f" ELSE {rt.duration_times(x, y, integer=integer)} END")


def _dynamic(c: ExpressionCompiler, op: str, left: b.BoundExpression, right: b.BoundExpression,
             result: t.CypherType) -> str:
    sql = call(ARITHMETIC_MACROS[op], variant_of(c, left), variant_of(c, right))
    if is_variant(result):
        return sql
    if result.kind in t.TEMPORAL_KINDS:
        return from_variant(sql, result.kind)
    return f"({sql})::{t.sql_type(result)}"
