"""Temporal values in SQL that need no expression compiler (ADR-0014): between their STRUCT and VARIANT forms,
their components, order keys, comparisons and the duration aggregates. The expression compiler builds on
this module; temporal functions (sqlgen/temporal.py) build on both."""

from __future__ import annotations

from engine import temporal as temporal_values
from engine.quoting import sql_string
from engine.sqlgen import runtime_temporal as rt
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.runtime_temporal import let
from engine.types import Kind


def to_variant(sql: str, kind: Kind) -> str:
    return let([sql], lambda x: rt.wrap(x, kind.value))


def from_variant(sql: str, kind: Kind) -> str:
    return let([sql], lambda v: rt.payload(v, kind.value))


def component(sql: str, kind: Kind, key: str) -> str:
    """Component `key` (`year`, `seconds`, ...) of a temporal value of `kind`, compiled as `sql`."""
    return let([sql], lambda x: rt.component(x, kind.value, key.lower()))


def variant_component_branches(v: str, key: str) -> str:
    """` WHEN 10 THEN ...` CASE branches over cy_kind(v) reading component `key` of a dynamic temporal."""
    name = key.lower()
    branches = []
    for kind, code in rt.KIND_CODES.items():
        if temporal_values.component_kind(kind, name) is None:
            branches.append(f" WHEN {code} THEN " + error_sql(
                "ArgumentError", "InvalidArgumentValue",
                sql_string(f"{rt.TYPE_NAMES[kind]} has no such component")))
        else:
            branches.append(f" WHEN {code} THEN " + let([rt.payload(v, kind)], lambda x, kind=kind: (
                f"({rt.component(x, kind, name)})::VARIANT")))
    return "".join(branches)


def key(sql: str, kind: Kind) -> str:
    """SQL whose DuckDB order is Cypher's order of `kind` values and whose equality is Cypher's: the STRUCT
    itself, but for durations (ADR-0014)."""
    return let([sql], rt.duration_key) if kind is Kind.DURATION else sql


def duration_aggregate(name: str, column: str, filter_clause: str) -> str:
    """sum() and avg() of durations, component-wise as Neo4j adds them; avg divides the sum as `/` does.
    A sum over no durations is 0, as Neo4j's sum starts from the integer 0."""
    def total(field_name: str) -> str:
        return f"coalesce(sum(({column}).{field_name}){filter_clause}, 0)::BIGINT"
    summed = rt.make_duration(total("m"), total("d"), total("s"), total("n"))
    count = f"count({column}){filter_clause}"
    if name == "sum":
        return f"CASE WHEN {count} = 0 THEN 0::VARIANT ELSE {rt.wrap(summed, 'DURATION')} END"
    return let([summed, count], lambda x, n: f"CASE WHEN {n} = 0 THEN NULL ELSE {rt.duration_divided(x, n)} END")


def equality(a: str, b_: str, kind: Kind) -> str:
    return f"({a} = {b_})"


LEADING_FIELD = {Kind.DATE: "d", Kind.LOCAL_TIME: "n", Kind.ZONED_TIME: "n", Kind.LOCAL_DATETIME: "e",
                 Kind.ZONED_DATETIME: "e"}
"""The most significant field of each ordered temporal STRUCT (ADR-0014)."""
LEADING_OP = {"<": "<=", "<=": "<=", ">": ">=", ">=": ">="}


def comparison(op: str, a: str, b_: str, kind: Kind, *, against_constant: bool = False) -> str:
    """`a op b_`. Against a constant, an ordering comparison also compares the leading fields, which the
    STRUCT order implies (so the result is the same, nulls included): DuckDB pushes that BIGINT test into
    the scan of a property column and skips row groups by it, which it does not do for a STRUCT."""
    if kind is Kind.DURATION:
        return f"CASE WHEN ({a}) IS NULL OR ({b_}) IS NULL THEN NULL ELSE NULL::BOOLEAN END"
    if against_constant and op in LEADING_OP:
        field = LEADING_FIELD[kind]
        return f"(({a}).{field} {LEADING_OP[op]} ({b_}).{field} AND {a} {op} {b_})"
    return f"({a} {op} {b_})"
