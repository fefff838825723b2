"""Cypher 25's collection functions `coll.*`: distinct, flatten, indexOf, insert, max, min, remove and sort.

Each works on the list as VARIANTs, so a list of mixed types is one case: equality and order are Cypher's,
through `cy_key` (the key ORDER BY and DISTINCT use: `1 = 1.0`, strings before booleans before numbers, null
last). One SQL expression per call, over every row at once.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import types as t
from engine.errors import UnsupportedFeature
from engine.semantic import bound as b
from engine.semantic.functions import NATIVE_ELEMENT_KINDS
from engine.sqlgen.expressions import ExpressionCompiler, convert
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.sql import let
from engine.types import Kind

Builder = Callable[[ExpressionCompiler, b.BFunction], str]


NATIVE_ELEMENTS = NATIVE_ELEMENT_KINDS
"""Element kinds whose SQL order and equality are Cypher's within one list of them: such a list is sorted and
compared natively, without `cy_key` (a macro DuckDB takes a quarter of a second to bind, per use); the
function keeps its type (`semantic.functions.native_list`)."""


def _as_declared(sql: str, f: b.BFunction) -> str:
    """A list result as the function's declared type: a VARIANT when the argument is not known to be a list."""
    return sql if f.type.kind is Kind.LIST else f"({sql})::VARIANT"


def _native(argument: b.BoundExpression) -> bool:
    element = argument.type.element if argument.type.kind is Kind.LIST else None
    return element is not None and element.kind in NATIVE_ELEMENTS


def _variants(c: ExpressionCompiler, argument: b.BoundExpression) -> str:
    """The list argument as VARIANT[]."""
    list_sql, element = c.list_value(argument)
    return convert(list_sql, t.list_of(element), t.ANY_LIST)


def _sorted(values: str) -> str:
    """`values` (VARIANT[]) in Cypher's order, nulls last."""
    return (f"list_transform(list_sort(list_transform({values}, lambda x: {{'n': x IS NULL, 'k': cy_key(x),"
            f" 'v': x}})), lambda s: s.v)")


def _sort(c: ExpressionCompiler, f: b.BFunction) -> str:
    if _native(f.arguments[0]):
        return f"list_sort({c.compile(f.arguments[0])}, 'ASC', 'NULLS LAST')"
    return _as_declared(let([_variants(c, f.arguments[0])], _sorted), f)


def _extreme(last: bool) -> Builder:
    """coll.max / coll.min: the greatest or least non-null element in Cypher's order (null for none)."""
    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        if _native(f.arguments[0]):
            return f"list_{'max' if last else 'min'}({c.compile(f.arguments[0])})"
        return let([_variants(c, f.arguments[0])], lambda values: (
            f"list_filter({_sorted(values)}, lambda x: x IS NOT NULL)[{-1 if last else 1}]"))
    return build


def _distinct(c: ExpressionCompiler, f: b.BFunction) -> str:
    """The elements in their order, each first equal one only (nulls: one). Each element's key is made once,
    then the keys compared (`cy_key` for values of mixed types, the values themselves for a native list)."""
    argument = f.arguments[0]
    if _native(argument):
        return let([c.compile(argument)], lambda values: _first_of_each(values, "x", "x"))
    if not c.context.lambda_depth:
        return _as_declared(_first_of_each_grouped(_variants(c, argument)), f)
    return _as_declared(let([_variants(c, argument)], lambda values: _first_of_each(
        f"list_transform({values}, lambda x: {{'k': cy_key(x), 'v': x}})", "x.k", "x.v")), f)


def _first_of_each_grouped(values: str) -> str:
    """`_first_of_each` over VARIANTs keyed by `cy_key`, as a subquery that unnests the list and groups by
    key: DuckDB binds `cy_key` (five macro levels, each a lambda) once per enclosing lambda level, so keying
    inside the lambdas of `_first_of_each` took seconds to plan for a three-element list."""
    elements = "SELECT unnest(s.l) AS v, generate_subscripts(s.l, 1) AS i"
    firsts = f"SELECT first(v ORDER BY i) AS v, min(i) AS i FROM ({elements}) GROUP BY cy_key(v)"
    return (f"(SELECT CASE WHEN s.l IS NULL THEN NULL ELSE coalesce((SELECT list(v ORDER BY i) FROM ({firsts})),"
            f" []::VARIANT[]) END FROM (SELECT {values} AS l) AS s)")


def _first_of_each(items: str, key: str, value: str) -> str:
    """The `value` of each of `items` (read as `x`) whose `key` comes first among equal keys (a null key once);
    the items bound once, as `p`."""
    keys = f"list_transform(p, lambda x: {key})"
    first = (f"coalesce(list_position({keys}, {key}) = i, {key} IS NULL AND"
             f" list_position(list_transform(p, lambda x: {key} IS NULL), true) = i)")
    return (f"list_transform([{items}], lambda p: list_transform(list_filter(p, lambda x, i: {first}),"
            f" lambda x: {value}))[1]")


def _index_of(c: ExpressionCompiler, f: b.BFunction) -> str:
    """The 0-based position of the first element equal to the value, -1 for none."""
    values, value = f.arguments
    if _native(values) and value.type.kind in NATIVE_ELEMENTS:
        return let([c.compile(values), c.compile(value)], lambda items, item: (
            f"CASE WHEN {items} IS NULL THEN NULL ELSE coalesce(list_position({items}, {item}) - 1, -1) END"))
    return let([_variants(c, f.arguments[0]), c.variant(f.arguments[1])], lambda values, value: (
        f"CASE WHEN {values} IS NULL THEN NULL ELSE coalesce(list_position(list_transform({values},"
        f" lambda y: cy_key(y)), cy_key({value})) - 1, -1) END"))


def _position_check(values: str, index: str, what: str, *, inclusive: bool) -> str:
    """`index` when it is a position of `values` (the end too when `inclusive`), else an ArgumentError."""
    high = f"len({values})" if inclusive else f"len({values}) - 1"
    failure = error_sql("ArgumentError", "NumberOutOfRange",
                        f"'{what}: index ' || {index} || ' is out of bounds for a list of ' || len({values})"
                        " || ' elements'")
    return f"CASE WHEN {index} < 0 OR {index} > {high} THEN {failure} ELSE {index} END"


def _insert(c: ExpressionCompiler, f: b.BFunction) -> str:
    values, index, value = f.arguments
    return let([_variants(c, values), c.integer(index), c.variant(value)], lambda items, at, item: (
        f"CASE WHEN {items} IS NULL OR {at} IS NULL THEN NULL ELSE list_concat({items}[1:"
        f"{_position_check(items, at, 'coll.insert', inclusive=True)}], [{item}], {items}[{at} + 1:]) END"))


def _remove(c: ExpressionCompiler, f: b.BFunction) -> str:
    values, index = f.arguments
    return let([_variants(c, values), c.integer(index)], lambda items, at: (
        f"CASE WHEN {items} IS NULL OR {at} IS NULL THEN NULL ELSE list_concat({items}[1:"
        f"{_position_check(items, at, 'coll.remove', inclusive=False)}], {items}[{at} + 2:]) END"))


def _flatten(c: ExpressionCompiler, f: b.BFunction) -> str:
    """Nested lists spliced into the list, to the depth given (1 by default; a literal)."""
    depth = 1
    if len(f.arguments) > 1:
        argument = f.arguments[1]
        if not isinstance(argument, b.BLiteral) or not isinstance(argument.value, int) or argument.value < 0:
            raise UnsupportedFeature("coll.flatten() with a depth that is not a non-negative integer literal",
                                     argument.span)
        depth = argument.value

    def flat(values: str) -> str:
        for _ in range(depth):
            values = (f"flatten(list_transform({values}, lambda x: CASE WHEN cy_kind(x) = 5 THEN x::VARIANT[]"
                      f" ELSE [x] END))")
        return values

    return let([_variants(c, f.arguments[0])], flat)


FUNCTIONS: dict[str, Builder] = {
    "coll.sort": _sort,
    "coll.max": _extreme(last=True),
    "coll.min": _extreme(last=False),
    "coll.distinct": _distinct,
    "coll.indexof": _index_of,
    "coll.insert": _insert,
    "coll.remove": _remove,
    "coll.flatten": _flatten,
}
