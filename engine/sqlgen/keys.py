"""Grouping and sort keys: SQL whose equality is Cypher's equivalence (grouping, DISTINCT) and whose order
is Cypher's order across types (ORDER BY, min, max), by the value's static type."""

from __future__ import annotations

from collections.abc import Callable

from engine import types as t
from engine.sqlgen.expressions import to_variant
from engine.sqlgen.temporal_values import key as temporal_key
from engine.types import Kind

_NATIVE_KEY_KINDS = frozenset({Kind.NULL, Kind.BOOLEAN, Kind.INTEGER, Kind.STRING, Kind.NODE, Kind.RELATIONSHIP,
                               Kind.POINT})


def _natively_keyed(cypher_type: t.CypherType) -> bool:
    """Whether SQL grouping (nulls equal, lists and structs compared element-wise) is Cypher equivalence
    for every value of this type: scalars without a float, points (whose coordinates are always floats, never
    NaN: ADR-0065), and lists and records of them. A record's
    fields are fixed by its type, so `{a: null}` never meets `{}` there. Keying these natively spares
    DuckDB binding `cy_key`, which costs a quarter of a second for a record of two strings."""
    if cypher_type.kind in _NATIVE_KEY_KINDS:
        return True
    if cypher_type.kind is Kind.LIST:
        return cypher_type.element is not None and _natively_keyed(cypher_type.element)
    if cypher_type.is_record:
        return bool(cypher_type.fields) and all(_natively_keyed(field) for _, field in cypher_type.fields or ())
    return False


def group_key(sql: str, cypher_type: t.CypherType) -> str:
    """An expression whose SQL equality is Cypher equivalence for grouping and DISTINCT, over a column (or
    SQL that holds no subquery: `group_key_parts` for a compiled expression)."""
    value, key = group_key_parts(sql, cypher_type)
    return key(value)


def keys_itself(cypher_type: t.CypherType) -> bool:
    """Whether a value of this type is its own grouping key (SQL equality is Cypher equivalence)."""
    return cypher_type.kind is Kind.PATH or _natively_keyed(cypher_type)


def sorts_itself(cypher_type: t.CypherType) -> bool:
    """Whether a value of this type is its own sort key (SQL order is Cypher's order)."""
    return cypher_type.kind in (Kind.NULL, Kind.BOOLEAN, Kind.INTEGER, Kind.FLOAT, Kind.STRING, Kind.NODE,
                                Kind.RELATIONSHIP, Kind.POINT)


def group_key_parts(sql: str, cypher_type: t.CypherType) -> tuple[str, Callable[[str], str]]:
    """`group_key` in two parts: the value to compute in an inner SELECT, and the key of the column holding
    it, computed above. `cy_key` is a macro with lambdas, into which DuckDB admits no subquery, and a
    compiled expression may hold one (a property read off a value that may be a node)."""
    if keys_itself(cypher_type):
        return sql, unchanged
    if cypher_type.kind is Kind.FLOAT:
        return f"({sql})::VARIANT", cypher_key
    if cypher_type.kind in t.TEMPORAL_KINDS:
        return temporal_key(sql, cypher_type.kind), unchanged
    return to_variant(sql, cypher_type), cypher_key


def sort_key_parts(sql: str, cypher_type: t.CypherType) -> tuple[str, Callable[[str], str]]:
    """Like `group_key_parts`, for a key whose SQL order is Cypher's order (null sorts last ascending: it is
    the largest)."""
    if sorts_itself(cypher_type):
        return sql, unchanged
    if cypher_type.kind in t.TEMPORAL_KINDS:
        return temporal_key(sql, cypher_type.kind), unchanged
    return to_variant(sql, cypher_type), cypher_key


def cypher_key(variant: str) -> str:
    """`cy_key` of a VARIANT column (or SQL without a subquery)."""
    return f"cy_key({variant})"


def unchanged(column: str) -> str:
    """The key of a value that is its own key."""
    return column
