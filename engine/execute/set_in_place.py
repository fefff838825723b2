"""`MATCH (x ...) SET x.key = value` as one UPDATE reading the MATCH's SELECT itself (ADR-0095).

The executor stored the MATCH's rows in a temporary table for the SET to read, and dropped it: two SQL
statements that write, each costing DuckDB about what the UPDATE they serve costs. The SET's one UPDATE (or
the one table of targets it makes where an index follows the key) reads the SELECT instead, when that gives
the rows the table would and each target once:
- the statement is these two clauses: a MATCH of one node pattern (no relationship), first, so over one row,
  and a SET of one property (`x.key = value`, the key named) of its node, last (nothing reads the rows after),
  not profiled. One node pattern matches each node at most once: no target recurs, so no rounds and no
  grouping per target (`Relation.unique`), and one SQL statement reads the rows, with no write between;
- the property's column is there with a type the value keeps: no ALTER TABLE comes first;
- the SELECT reads neither the clock nor chance (`volatile`).
An error its UPDATE raises runs the statement again clause by clause (`UnfusedRetry`), which raises it on
the clause that caused it, as the stored rows did.
Where the MATCH is a scan of `nodes` (`Relation.scan`) and it and the value read that row alone (`_row_local`),
the rows keep the scan, and the UPDATE filters the table by the MATCH's condition itself (ADR-0104).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.execute.statement_run import Chain
from engine.execute.write_support import column_takes
from engine.plan.plan import Step
from engine.semantic import bound as b
from engine.semantic.scope import Variable
from engine.sqlgen.relation import Relation
from engine.storage.schema import Catalog
from engine.types import Kind


def rows_in_place(catalog: Catalog, steps: Sequence[Step], relation: Relation, pending: Chain,
                  volatile: bool) -> Relation | None:
    """The rows the SET of the plan `steps` (a statement's, run from its seed row) reads, as the MATCH's
    `relation` with the values it binds; None where they must be stored first (see the module's rules)."""
    if volatile or len(steps) != 2 or not steps[0].fused:
        return None
    match, update = steps[0].clause, steps[1].clause
    if not isinstance(match, b.BMatch) or not isinstance(update, b.BSet) or len(update.items) != 1:
        return None
    if len(match.paths) != 1 or match.paths[0].relationships or len(match.paths[0].nodes) != 1:
        return None
    (item,) = update.items
    node = match.paths[0].nodes[0].variable
    if (item.kind != "property" or not isinstance(item.target, b.BVariable) or item.target.variable is not node
            or item.target.type.kind is not Kind.NODE or not isinstance(item.key, str) or item.value is None):
        return None
    if item.value.type.kind is not Kind.NULL and not column_takes(catalog, "node", item.key, item.value.type):
        return None
    local = all(_row_local(expression, node) for expression in (
        match.paths[0].nodes[0].properties, match.paths[0].nodes[0].where, match.where, item.value))
    return Relation(relation.sql, relation.variables, relation.carried, values=tuple(pending.parameters.values),
                    unique=frozenset({id(node)}), scan=relation.scan if local else None)


ROW_FORMS = (b.BOperator, b.BIsNull, b.BIsType, b.BFunction, b.BCase, b.BList, b.BMap, b.BIndex, b.BSlice)
"""Expressions that read nothing but their operands: over literals, parameters and one row's properties and
labels they read that row alone (a plugin's function, named with a namespace, may read the graph)."""


def _row_local(expression: b.BoundExpression | None, node: Variable) -> bool:
    """Whether `expression` reads nothing but literals, parameters and the properties and labels of `node`'s
    own row, so an UPDATE of that row may compute it off the row (`Relation.scan`, ADR-0104): no subquery,
    no aggregate, no other variable, and `node` only as the subject of a property or label read."""
    if expression is None or isinstance(expression, b.BLiteral | b.BParameter):
        return True
    if isinstance(expression, b.BProperty | b.BHasLabels | b.BHasDynamicLabels) and isinstance(
            expression.subject, b.BVariable):
        return expression.subject.variable is node and all(
            _row_local(child, node) for child in b.children(expression) if child is not expression.subject)
    if not isinstance(expression, ROW_FORMS) or (isinstance(expression, b.BFunction) and "." in expression.name):
        return False
    return all(_row_local(child, node) for child in b.children(expression))
