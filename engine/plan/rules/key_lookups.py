"""Which node patterns of a MATCH find their nodes in one scan of the node table (ADR-0107).

A load batch, `UNWIND $rows AS r MATCH (a:Person {id: r.src}), (b:Person {id: r.dst}) CREATE ...`, joins
the batch to the node table once per node pattern: two scans of every node for the few thousand each batch
finds. The nodes either pattern can match have their `id` among the batch's `r.src` and `r.dst` values, so
one scan can find them all first (a semi-join of the node table to those values) and both patterns join
those few rows instead (`QueryCompiler.match`).

That is exact for any MATCH: a pattern joined to a subset of the nodes that holds every node its own
conditions can accept matches what it matched before, its conditions all still tested. The subset holds
every such node when each pattern's lookup is a plain SQL `=` between the stored column and a value of the
row, the values of one lookup being of one type, so that `column IN (values)` holds wherever one `=` does.
The rule decides from the clause alone which patterns look up which key by which value: new node patterns
(each variable once), the value a variable of the input row or a property of a map it holds, of a type
whose Cypher `=` is SQL's (integers, strings, booleans). SQL generation keeps, of each lookup, the
patterns whose key has a column of that very type in the catalog, and only a lookup of two patterns or
more.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.semantic import bound as b
from engine.types import Kind

NATIVE_KEY_KINDS = frozenset({Kind.INTEGER, Kind.STRING, Kind.BOOLEAN})
"""Kinds of value whose Cypher `=` with a column of their own kind is SQL's `=` (expressions.equality_sql)."""


@dataclass(frozen=True)
class KeyLookup:
    """Node patterns (by id) of one MATCH looking nodes up by one property `key`, each by its `values` entry."""

    key: str
    values: dict[int, b.BoundExpression]


def key_lookups(clause: b.BoundClause) -> tuple[KeyLookup, ...]:
    """The lookups of two node patterns or more that one scan serves, for a plain MATCH (not OPTIONAL, no
    path selector). Each pattern takes part in one, by the key it shares with the most other patterns."""
    if not isinstance(clause, b.BMatch) or clause.optional \
            or any(path.selector is not None for path in clause.paths):
        return ()
    nodes = [node for path in clause.paths for node in path.nodes]
    bound_here = {id(variable) for variable in _variables(clause.paths)}
    uses = Counter(id(node.variable) for node in nodes)
    keys = {id(node): keys for node in nodes
            if node.is_new and uses[id(node.variable)] == 1 and (keys := _lookup_keys(node, bound_here))}
    shared = Counter(key for node_keys in keys.values() for key in node_keys)
    groups: dict[str, dict[int, b.BoundExpression]] = {}
    for node, node_keys in keys.items():
        key = max(node_keys, key=shared.__getitem__)
        groups.setdefault(key, {})[node] = node_keys[key]
    return tuple(KeyLookup(key, values) for key, values in groups.items() if len(values) > 1)


def _lookup_keys(node: b.BoundNode, bound_here: set[int]) -> dict[str, b.BoundExpression]:
    """The keys of `node`'s property map whose value is a read of the input row (no variable the MATCH
    binds) of a kind `NATIVE_KEY_KINDS` holds. A constant is not: the scan of a pattern looking up one is
    filtered by it (DuckDB's zone maps skip row groups), which a lookup's semi-join would not be (two
    constants: 2.0 -> 2.5 ms CPU over 100,000 nodes)."""
    if not isinstance(node.properties, b.BMap):
        return {}
    return {key: value for key, value in node.properties.entries
            if value.type.kind in NATIVE_KEY_KINDS and _row_value(value, bound_here)}


def _row_value(expression: b.BoundExpression, bound_here: set[int]) -> bool:
    """A variable of the input row, or a property of a map such a variable holds: its SQL reads the row's
    column, no node or relationship."""
    if isinstance(expression, b.BVariable):  # not a WITH's constant, which compiles as the constant
        return id(expression.variable) not in bound_here and expression.variable.constant is None
    if isinstance(expression, b.BProperty):
        return expression.subject.type.kind is Kind.MAP and _row_value(expression.subject, bound_here)
    return False


def _variables(paths: list[b.BoundPath]) -> list[object]:
    """The variables the patterns of `paths` name (their nodes, relationships, groups and paths)."""
    return [item.variable for item in b.walk(paths)
            if isinstance(item, b.BoundNode | b.BoundRelationship) and item.variable is not None] \
        + [path.variable for path in paths if path.variable is not None]
