"""Which read clauses' row order is ever read: where it is not, the clause skips building its `__ord`.

Every binding table carries `__ord`, the row order Cypher would produce (ADR-0007). Building it costs: a row
of sort keys per row, and a min() over such rows per group. Many queries never read it: an aggregation whose
aggregates ignore order (count, sum, min, ...) and whose output order is decided by its own ORDER BY over
all its grouping keys (`RETURN p.id, count(*) ORDER BY count(*) DESC, p.id LIMIT 10`), or that returns one
row. `demands` walks a query's clauses backwards and says, for each, whether anything after it reads the
order of its output; a clause whose output order is not read may number its rows with a constant (ADR-0029).

The rules are a table over clause kinds; anything not listed reads its input's order.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.semantic import bound as b
from engine.semantic.functions import ORDER_SENSITIVE_AGGREGATES
from engine.types import Kind

PLAIN_GROUP_KINDS = (Kind.BOOLEAN, Kind.INTEGER, Kind.STRING, Kind.NODE, Kind.RELATIONSHIP)
"""Grouping key types whose SQL value is the group's key: no representative is picked by order, and the SQL
sort order tells groups apart."""


def demands(clauses: Sequence[b.BoundClause], *, result_read: bool = True) -> list[bool]:
    """For each clause, whether the order of its output rows is read by the clauses after it (or by the
    result: the last clause's order is, unless `result_read` is False: a COUNT or EXISTS subquery's rows)."""
    result = [True] * len(clauses)
    demanded = result_read
    for index in range(len(clauses) - 1, -1, -1):
        result[index] = demanded
        demanded = input_demanded(clauses[index], demanded)
    return result


def input_demanded(clause: b.BoundClause, output_demanded: bool) -> bool:
    """Whether `clause` reads the order of its input rows, given whether its own output order is read."""
    if isinstance(clause, b.BMatch):
        plain = not clause.optional and all(path.selector is None for path in clause.paths)
        return output_demanded if plain else True
    if isinstance(clause, b.BUnwind):
        return output_demanded
    if isinstance(clause, b.BProjection):
        return _projection_input_demanded(clause, output_demanded)
    return True


def _projection_input_demanded(clause: b.BProjection, output_demanded: bool) -> bool:
    if b.makes_virtual(clause.items):
        return True  # the ids of the virtual elements it makes follow the rows' order (ADR-0074)
    if not clause.aggregating:
        if clause.distinct and _order_covers(clause, clause.items):
            return False  # distinct rows sorted on all their values: no ties, and equal rows are one row
        if clause.order_by or clause.skip is not None or clause.limit is not None:
            return True  # ties in the sort, and which rows SKIP / LIMIT keep, follow the input order
        return output_demanded  # DISTINCT keeps each first row: which one is only seen through the order
    if group_order_demanded(clause, output_demanded):
        return True
    return any(aggregate.name in ORDER_SENSITIVE_AGGREGATES for aggregate in aggregates(clause)) or any(
        item.expression.type.kind not in PLAIN_GROUP_KINDS for item in grouping_items(clause))


def group_order_demanded(clause: b.BProjection, output_demanded: bool) -> bool:
    """Whether an aggregating projection needs the order of its groups (their first rows' order): when its
    output order is read and not fully decided by its ORDER BY, or when SKIP / LIMIT pick groups by it."""
    if grouping_items(clause) == [] and not clause.distinct:
        return False  # one row
    if _order_covers_groups(clause):
        return False
    return output_demanded or clause.skip is not None or clause.limit is not None


def grouping_items(clause: b.BProjection) -> list[b.BProjectionItem]:
    return [item for item in clause.items if not b.aggregates_in(item.expression)]


def _order_covers_groups(clause: b.BProjection) -> bool:
    """Whether the ORDER BY sorts by every grouping key, so no two groups tie."""
    return _order_covers(clause, grouping_items(clause))


def _order_covers(clause: b.BProjection, items: list[b.BProjectionItem]) -> bool:
    """Whether the ORDER BY sorts by every one of `items` (as the item's variable), each of a type whose
    SQL order tells apart values that grouping and DISTINCT tell apart."""
    if not clause.order_by:
        return False
    sorted_by = {id(item.expression.variable) for item in clause.order_by if isinstance(item.expression, b.BVariable)}
    return all(id(item.variable) in sorted_by and item.expression.type.kind in PLAIN_GROUP_KINDS for item in items)


def aggregates(clause: b.BProjection) -> list[b.BAggregate]:
    """The aggregates of a projection's items."""
    return b.aggregates_in([item.expression for item in clause.items])
