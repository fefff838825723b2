"""EXISTS / COUNT / COLLECT subqueries run once for all outer rows instead of once per row (ADR-0038).

A subquery in a projection item is a correlated scalar SELECT; DuckDB decorrelates it with a delim join per
subquery, which on the seed's `recall-tool` (four COLLECT subqueries, one nested) was a quarter of the time.
When the subquery's rows depend on nothing but its imported variables, its answer for an outer row is a
function of those values: the body then runs once over the distinct import values of all outer rows, each
row of it carrying its import values (the key), and its rows are grouped by key and joined back.

Carrying the key through the body means adding it to every WITH / RETURN of the body. That is only the same
query when no clause of the body combines rows: no aggregation (a key with no rows would lose its one
`count(*) = 0` row), no SKIP / LIMIT (they would count across keys), one single query (no UNION); DISTINCT
is per key once the key is one of its items. A body calling rand() or randomUUID() gives each row its own
value, so it stays correlated, as does any body with a clause other than MATCH, UNWIND, WITH and RETURN.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from engine.plan.rules.multiplicity import VOLATILE_FUNCTIONS
from engine.semantic import bound as b
from engine.semantic.scope import Variable
from engine.types import Kind, is_variant

KEY_KINDS = frozenset({Kind.NODE, Kind.RELATIONSHIP, Kind.INTEGER, Kind.STRING, Kind.BOOLEAN})
"""Import types whose SQL values group and compare exactly as Cypher's equality of them does."""


ROW_CLAUSES = (b.BMatch, b.BUnwind, b.BProjection)
"""The body clauses that turn each input row into rows of its own."""


@dataclass
class SharedRows:
    """The outer rows of a projection, readable again under the name `source` (a CTE or a table), so a
    subquery of one of its items can run over all of them at once; `alias` is their alias in the
    projection's SELECT. `used` once a subquery reads them."""

    source: str
    alias: str
    used: bool = False
    keys: dict[tuple[str, ...], str] = field(default_factory=dict)
    """Each set of key columns the subqueries run over -> the name of the CTE of their distinct values: items
    importing the same variables (`COUNT {(m)-->()}, COUNT {(m)<--()}`) share one DISTINCT, which DuckDB
    otherwise computes once per subquery."""

    def distinct_keys(self, columns: tuple[str, ...], name: str) -> str:
        """The name of the CTE of the distinct values of `columns` (`name` if it is new), with a constant
        `__ord`: the seed of a subquery run over all rows."""
        self.used = True
        return self.keys.setdefault(columns, name)

    def ctes(self) -> list[str]:
        """The key CTEs' definitions, after the one of `source`."""
        return [f"{name} AS (SELECT DISTINCT {', '.join(f'{self.alias}.{c}' for c in columns)}, 1::BIGINT AS __ord"
                f" FROM {self.source} AS {self.alias})" for columns, name in self.keys.items()]


def keyed_query(query: b.BoundQuery, keys: tuple[Variable, ...]) -> b.BoundQuery | None:
    """`query` with the `keys` carried by every projection, or None when the body is not a function of its
    imports alone (see the module docstring)."""
    if len(query.parts) != 1 or not keys or not all(
            k.type.kind in KEY_KINDS and not is_variant(k.type) for k in keys):
        return None
    part = query.parts[0]
    clauses: list[b.BoundClause] = []
    for clause in part.clauses:
        if not isinstance(clause, ROW_CLAUSES) or _calls_volatile(clause):
            return None
        if isinstance(clause, b.BProjection):
            if clause.aggregating or clause.skip is not None or clause.limit is not None:
                return None
            clause = _with_keys(clause, keys)
        clauses.append(clause)
    return dataclasses.replace(query, parts=[dataclasses.replace(part, clauses=clauses)])


def _with_keys(clause: b.BProjection, keys: tuple[Variable, ...]) -> b.BProjection:
    projected = {id(item.variable) for item in clause.items}
    extra = [b.BProjectionItem(b.BVariable(key, type=key.type, span=clause.span), key)
             for key in keys if id(key) not in projected]
    return dataclasses.replace(clause, items=[*clause.items, *extra],
                               columns=[*clause.columns, *(item.variable.column for item in extra)])


def _calls_volatile(node: Any) -> bool:
    """Whether a bound tree calls a function whose value differs per call."""
    return any(isinstance(n, b.BFunction) and n.name in VOLATILE_FUNCTIONS for n in b.walk(node))
