"""Which MATCH clauses may first drop repeated input rows: where nothing after them counts the rows.

`MATCH (e)<-[:ABOUT]-(x)-[:ABOUT]->(o) MATCH (o)<-[:ABOUT]-(f) RETURN DISTINCT o.name, f.text` matches the
second pattern once per (x, o) row, yet only (e, o) is read after the first MATCH and the DISTINCT keeps one
row of each result: matching it once per distinct (e, o) gives the same answer over fewer rows. `reads_after`
walks a query's clauses backwards with two facts per point: whether anything after it counts the rows (a
bag result, count(*), sum, collect, SKIP and LIMIT do; DISTINCT, min, max and DISTINCT aggregates do not),
and which variables the clauses from there on read. A MATCH whose rows nothing counts may take its input as
the distinct rows of the variables still read (`QueryCompiler.distinct_input`), and so may a DISTINCT (or
min/max) projection that computes something per row: `MATCH (a)-[*..3]->(b) RETURN DISTINCT properties(b)`
builds one map per distinct b, not one per path (`computes`).

The rules are a table over clause kinds, as in order_demand.py; anything not listed counts its input rows.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.plan.rules.order_demand import aggregates
from engine.semantic import bound as b

VOLATILE_FUNCTIONS = frozenset({"rand", "randomuuid"})
"""Functions whose value differs per call: a clause calling one counts its input rows."""
REPEAT_BLIND_AGGREGATES = frozenset({"min", "max"})
"""Aggregates whose value does not change when an input row is repeated (DISTINCT ones never change)."""


def reads_after(clauses: Sequence[b.BoundClause], *, counted: bool = True) -> dict[int, frozenset[int]]:
    """Per MATCH clause (by id) whose rows no later clause counts, the variables (by id) it and the clauses
    after it read; `counted`: whether the query's own rows are (an EXISTS subquery's are not). A query that
    calls rand() or randomUUID() lists none: each repeated row draws anew. Each clause is walked once."""
    reads = [clause_reads(clause) for clause in clauses]
    if any(draws for _, draws in reads):
        return {}
    result: dict[int, frozenset[int]] = {}
    read: set[int] = set()
    for clause, (variables, _) in zip(reversed(clauses), reversed(reads), strict=True):
        read |= variables
        input_is_counted = input_counted(clause, counted)
        if (isinstance(clause, b.BMatch) and not counted) or (
                isinstance(clause, b.BProjection) and not input_is_counted and computes(clause)):
            result[id(clause)] = frozenset(read)
        counted = input_is_counted
    return result


def computes(projection: b.BProjection) -> bool:
    """Whether a projection computes something per row beyond reading the row's columns: only then do the
    distinct rows of its variables save work. `RETURN DISTINCT o.name, f.text` reads stored columns, and
    grouping by o and f first only adds an aggregation (nearby at agent-100k: 1.28x the CPU time without
    it); `RETURN DISTINCT properties(b)` builds a map per row."""
    def column(expression: b.BoundExpression) -> bool:
        if isinstance(expression, b.BProperty):
            return isinstance(expression.subject, b.BVariable)
        return isinstance(expression, b.BVariable | b.BLiteral | b.BParameter)
    return not all(column(item.expression) for item in projection.items)


def input_counted(clause: b.BoundClause, output_counted: bool) -> bool:
    """Whether `clause`'s result depends on how many times each input row occurs, given whether its own
    output rows are counted."""
    if isinstance(clause, b.BMatch | b.BUnwind):
        return output_counted  # each input row gives its own rows: repeats repeat them
    if isinstance(clause, b.BProjection):
        if clause.aggregating:
            return not all(aggregate.distinct or aggregate.name in REPEAT_BLIND_AGGREGATES
                           for aggregate in aggregates(clause))
        if clause.distinct:
            return False
        if clause.skip is not None or clause.limit is not None:
            return True  # how many rows SKIP / LIMIT pass depends on the repeats
        return output_counted
    return True


def clause_reads(node: object) -> tuple[set[int], bool]:
    """The variables (by id) a clause reads: as values, in its patterns, and as a subquery's imports; and
    whether it calls a function whose value differs per call (`VOLATILE_FUNCTIONS`)."""
    found: set[int] = set()
    draws = False
    for item in b.walk(node):
        if isinstance(item, b.BVariable | b.BoundNode | b.BoundRelationship | b.BoundPath):
            if item.variable is not None:  # an unnamed path has none
                found.add(id(item.variable))
        elif isinstance(item, b.BSubquery | b.BCallSubquery):
            found.update(id(variable) for variable in item.imports)
        elif isinstance(item, b.BFunction) and item.name in VOLATILE_FUNCTIONS:
            draws = True
    return found, draws
