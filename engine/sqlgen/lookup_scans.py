"""The SQL of a MATCH's key lookups: one scan of the node table finds the nodes of several node patterns
(plan/rules/key_lookups.py, ADR-0107).

`WITH w AS MATERIALIZED (<the input rows>), k AS MATERIALIZED (SELECT * FROM nodes WHERE p0 IN (SELECT
<a's value> FROM w UNION ALL SELECT <b's value> FROM w))`: the MATCH's SELECT then reads `w` as its input
and joins `k`, not `nodes`, for each of the lookup's patterns, every condition of theirs tested as before.
The input rows are materialized once, as both the SELECT and the lookup read them (a value such as
`rand()` in them is drawn once). A pattern stays out of a lookup unless its key has a column of the
value's very type, so that the SQL `IN` holds wherever the pattern's `=` does (expressions.equality_sql);
and so does a lookup whose values read a node's or a relationship's row (none does: the rule admits
reads of the input row's maps only, checked here as they compile).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from engine.plan.rules.key_lookups import KeyLookup
from engine.sqlgen.expressions import ExpressionCompiler
from engine.sqlgen.relation import Relation
from engine.storage.schema import Catalog


@dataclass(frozen=True)
class LookupScans:
    """What a MATCH's SELECT reads when its lookups run: the WITH `prefix`, its input `rows` as the prefix
    names them, and per node pattern (by id) the candidate nodes it joins instead of `nodes`."""

    prefix: str
    rows: Relation
    tables: dict[int, str]


def kept(lookups: tuple[KeyLookup, ...], catalog: Catalog) -> list[tuple[str, KeyLookup]]:
    """The lookups, each with its key's column, less the patterns whose value is not of the column's type;
    only those left with two patterns or more."""
    result = []
    for lookup in lookups:
        column, column_type = catalog.column("node", lookup.key), catalog.column_type("node", lookup.key)
        if column is None or column_type is None:
            continue
        values = {node: value for node, value in lookup.values.items() if value.type.kind is column_type.kind}
        if len(values) > 1:
            result.append((column, KeyLookup(lookup.key, values)))
    return result


def lookup_scans(lookups: list[tuple[str, KeyLookup]], relation: Relation, alias: str,
                 compiler_for: Callable[[Relation], ExpressionCompiler],
                 fresh: Callable[[str], str]) -> tuple[LookupScans, ExpressionCompiler] | None:
    """The scans of `lookups` (from `kept`) over `relation`, which the MATCH's SELECT reads as `alias`, and
    the compiler of that SELECT over the rows the scans read (`compiler_for`); None where a value would
    read more than the row."""
    ctes: list[str] = []
    rows = relation
    if not relation.table:
        rows = replace(relation, sql=fresh("w"), table=True)
        ctes.append(f"{rows.sql} AS MATERIALIZED {relation.sql}")
    compiler = compiler_for(rows)
    tables: dict[int, str] = {}
    for column, lookup in lookups:
        selects = []
        for value in lookup.values.values():
            with compiler.context.tracking_entity_reads() as reads:
                sql = compiler.compile(value)
            if reads or compiler.context.join_text():
                return None
            selects.append(f"SELECT {sql} FROM {rows.sql} AS {alias}")
        name = fresh("k")
        ctes.append(f"{name} AS MATERIALIZED (SELECT * FROM nodes WHERE {column} IN ({' UNION ALL '.join(selects)}))")
        tables.update(dict.fromkeys(lookup.values, name))
    return LookupScans(f"WITH {', '.join(ctes)} ", rows, tables), compiler
