"""Which MERGE clauses can match nothing, known from the statement alone: their pattern joins a node the
statement itself created to a relationship of a type the statement never created at that node.

A node a CREATE made has no relationship but those the same statement gave it since: the CREATE's own and
those a later CREATE or MERGE may have made at it (of the types they name). So `MERGE (m)-[:MENTIONS]->(e)`
after `CREATE (m:Message ...)-[:IN_SESSION]->(s)` matches nothing, and the MERGE need not look: its rows
all create, one pattern per distinct key as ever. The rule follows the created node through WITH (a
projected variable is a new one) and through the clauses that create no relationship; any other clause
(a subquery, FOREACH, a procedure) may create anything, and forgets every node.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.semantic import bound as b
from engine.syntax import ast

KEEPING = (b.BMatch, b.BUnwind, b.BSet, b.BDelete, b.BLoadCsv)
"""Clauses that create no relationship: a created node's relationships stay what they were."""


def unmatched_merges(clauses: Sequence[b.BoundClause]) -> set[int]:
    """The MERGE clauses (by id) whose pattern can match nothing."""
    fresh: dict[int, frozenset[str]] = {}
    """Per variable (by id) holding a node this statement created, the relationship types it may have."""
    found: set[int] = set()
    for clause in clauses:
        if isinstance(clause, KEEPING):
            continue
        if isinstance(clause, b.BProjection):
            fresh = {id(item.variable): fresh[id(item.expression.variable)] for item in clause.items
                     if isinstance(item.expression, b.BVariable) and id(item.expression.variable) in fresh}
            continue
        if isinstance(clause, b.BMerge):
            if _misses(clause.path, fresh):
                found.add(id(clause))
            fresh = _created_at([clause.path], fresh, nodes_created=False)
            continue
        if isinstance(clause, b.BCreate):
            fresh = _created_at(clause.paths, fresh, nodes_created=True)
            continue
        fresh = {}
    return found


def _misses(path: b.BoundPath, fresh: dict[int, frozenset[str]]) -> bool:
    """Whether a relationship of `path` has an end bound to a created node that has no relationship of its type."""
    for index, relationship in enumerate(path.relationships):
        kind = _static_type(relationship)
        if kind is None:
            continue
        for node in (path.nodes[index], path.nodes[index + 1]):
            if not node.is_new and kind not in fresh.get(id(node.variable), frozenset({kind})):
                return True
    return False


def _created_at(paths: list[b.BoundPath], fresh: dict[int, frozenset[str]], *,
                nodes_created: bool) -> dict[int, frozenset[str]]:
    """`fresh` after `paths` are created: their new nodes (of a CREATE: a MERGE's may be matched ones) have
    the types of the relationships the paths give them, and the created nodes they join gain theirs. A
    relationship of a type known only when it runs makes its ends' types unknown."""
    result = dict(fresh)
    if nodes_created:
        result.update({id(node.variable): frozenset() for path in paths for node in path.nodes if node.is_new})
    for path in paths:
        for index, relationship in enumerate(path.relationships):
            kind = _static_type(relationship)
            for node in (path.nodes[index], path.nodes[index + 1]):
                if id(node.variable) not in result:
                    continue
                if kind is None:
                    del result[id(node.variable)]
                else:
                    result[id(node.variable)] |= {kind}
    return result


def _static_type(relationship: b.BoundRelationship | b.BoundGroup) -> str | None:
    """The one type a relationship pattern names and creates; None for anything else (a group, a length, a
    type read off the row, a label expression)."""
    if not isinstance(relationship, b.BoundRelationship) or relationship.length is not None or relationship.dynamic:
        return None
    return relationship.types.name if isinstance(relationship.types, ast.LabelName) else None
