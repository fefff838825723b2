"""Which label tests of a clause's patterns the catalog's end-label counts make redundant (ADR-0092).

`(a:N)-[:R]->(b:N)` tests `:N` on both nodes, which costs a join of the node table per node. When every
start node of an `R` relationship carries `:N`, a node the pattern reaches as the start of an `R` carries it
too, and the test keeps every row it sees; likewise for end nodes. A node left with no test (nor property,
WHERE or read) then needs no join at all: it is the relationship's end column (sqlgen/patterns.py).

Whether every end carries a label is a fact of the data as it stands when the clause runs (ADR-0002): the
executor applies this rule to the step just before the clause compiles (execute/prepare.py), with the
counts its own transaction sees, which the writers keep exact (execute/end_labels.py). A compiled read is
kept only while no statement has committed or rolled back since (ADR-0044), so no later write can make a
kept SELECT's dropped test wrong. Whether the statement compiles, and what it answers, never depend on it.

The same counts say which relationship types have no self-loop (ADR-0098): two consecutive hops of one
direction, `(a)-[r1]->(b)-[r2]->(c)`, can only be the same relationship if it is a self-loop (`r1.dst = b =
r2.src`, so `r1 = r2` means `r1.src = r1.dst`), and where their type has none the uniqueness check between
them (`loop_free`) keeps every row it sees.
"""

from __future__ import annotations

from typing import Protocol

from engine.plan.rules.walk_branching import type_names
from engine.semantic import bound as b
from engine.storage.end_labels import Side
from engine.syntax import ast

ENDS: dict[str, tuple[tuple[Side, ...], tuple[Side, ...]]] = {
    "right": (("src",), ("dst",)), "left": (("dst",), ("src",)), "both": (("src", "dst"), ("src", "dst"))}
"""By a hop's direction, the ends its left node and its right node may be (an undirected hop: either)."""


class EndLabelFacts(Protocol):
    """What the rule reads of the store (`GraphStore.end_labels()`)."""

    def holds(self, relationship_type: str, side: Side, label: str) -> bool: ...

    def loop_free(self, relationship_types: frozenset[str] | None) -> bool: ...


def implied_labels(clause: b.BoundClause, facts: EndLabelFacts) -> dict[int, frozenset[str]]:
    """Per node pattern under `clause` (by id), the labels its test may leave out: those every relationship
    the pattern reaches it by carries at that end. A hop of a variable length from 0 reaches no end for
    sure, and a quantified group is left alone."""
    implied: dict[int, set[str]] = {}
    for path in b.walk(clause):
        if not isinstance(path, b.BoundPath):
            continue
        for index, link in enumerate(path.relationships):
            if not isinstance(link, b.BoundRelationship) or (link.length is not None and link.length[0] < 1):
                continue
            types = type_names(link.types)
            if types is None or link.dynamic:
                continue
            for node, sides in zip((path.nodes[index], path.nodes[index + 1]), ENDS[link.direction], strict=True):
                held = {label for label in conjuncts(node.labels)
                        if all(facts.holds(name, side, label) for name in types for side in sides)}
                if held:
                    implied.setdefault(id(node), set()).update(held)
    return {node: frozenset(labels) for node, labels in implied.items()}


def loop_free(clause: b.BoundClause, facts: EndLabelFacts) -> frozenset[int]:
    """The relationship patterns under `clause` (by id) that match no self-loop: every type they admit has
    none (a type expression that names no types, or a dynamic one, admits any). Only those it could spare a
    check are asked about (`repeatable`). A CREATE matches nothing, so it asks nothing: a load batch's
    `MATCH ... CREATE` reads no counts (ADR-0097)."""
    if isinstance(clause, b.BCreate):
        return frozenset()
    return frozenset(id(link) for link in repeatable(clause)
                     if facts.loop_free(None if link.dynamic else type_names(link.types)))


def repeatable(clause: b.BoundClause) -> list[b.BoundRelationship]:
    """The relationship patterns under `clause` whose uniqueness check a self-loop-free type spares
    (sqlgen/patterns.py `_may_repeat`): two consecutive ones of a path running one way, and one of a length
    that may be 2 or more. A read that asks about no other spares the store working out the relationships
    its counts miss (ADR-0111)."""
    links: dict[int, b.BoundRelationship] = {}
    for path in b.walk(clause):
        if not isinstance(path, b.BoundPath):
            continue
        hops = [link for link in path.relationships if isinstance(link, b.BoundRelationship)]
        for link in hops:
            if link.length is not None and (link.length[1] is None or link.length[1] >= 2):
                links[id(link)] = link
        for first, second in zip(path.relationships, path.relationships[1:], strict=False):
            if isinstance(first, b.BoundRelationship) and isinstance(second, b.BoundRelationship) \
                    and first.direction == second.direction != "both":
                links[id(first)], links[id(second)] = first, second
    return list(links.values())


def conjuncts(labels: ast.LabelExpression | None) -> set[str]:
    """The labels a node must carry for `labels` to hold, where it is a conjunction of names (`:A:B`, `:A&B`)."""
    if isinstance(labels, ast.LabelName):
        return {labels.name}
    if isinstance(labels, ast.LabelAnd):
        return conjuncts(labels.left) | conjuncts(labels.right)
    return set()


def remaining(labels: ast.LabelExpression | None, implied: frozenset[str]) -> ast.LabelExpression | None:
    """`labels` without the conjuncts `implied` (None when nothing is left to test)."""
    if isinstance(labels, ast.LabelName) and labels.name in implied:
        return None
    if isinstance(labels, ast.LabelAnd):
        left, right = remaining(labels.left, implied), remaining(labels.right, implied)
        if left is None or right is None:
            return left or right
        return ast.LabelAnd(left, right, span=labels.span) if (left, right) != (labels.left, labels.right) \
            else labels
    return labels
