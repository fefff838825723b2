"""Which walks of a clause can hold at most one partial path per start (ADR-0022's cap, ADR-0041).

A walk whose every step can take at most one relationship from the node it has reached (a chain:
supersessions, versions, a linked list) holds at most one partial path per start, within any cap; its
guard, a count per step, would cost a chain walk a sixth of its time. Whether a walk is such a chain is a
fact of the data as it stands when the clause runs (ADR-0002): the executor applies this rule to the step
then, with the store's statistics, and SQL generation reads the answer off the step.
"""

from __future__ import annotations

from typing import Literal, Protocol

from engine.semantic import bound as b
from engine.syntax import ast

LEAVES_FROM: dict[str, tuple[Literal["src", "dst"], ...]] = {"right": ("src",), "left": ("dst",),
                                                             "both": ("src", "dst")}
"""The column of a relationship a walk's step leaves from, by the hop's direction (an undirected hop counts
both ends)."""


class Statistics(Protocol):
    """What the rule reads of the store (`GraphStore.most_relationships_per_node`)."""

    def most_relationships_per_node(self, types: frozenset[str] | None, column: Literal["src", "dst"]) -> int: ...


def single_path_walks(clause: b.BoundClause, statistics: Statistics) -> frozenset[int]:
    """The variable-length relationships and quantified groups (by id) under `clause` whose walk cannot
    branch: no node has two relationships any step of it may take."""
    single = set()
    for node in b.walk(clause):
        if isinstance(node, b.BoundRelationship) and node.length is not None:
            steps = [node]
        elif isinstance(node, b.BoundGroup):
            steps = node.relationships
        else:
            continue
        if not any(_may_branch(step, statistics) for step in steps):
            single.add(id(node))
    return frozenset(single)


def _may_branch(relationship: b.BoundRelationship, statistics: Statistics) -> bool:
    types = type_names(relationship.types)
    return sum(statistics.most_relationships_per_node(types, column)
               for column in LEAVES_FROM[relationship.direction]) > 1


def type_names(types: ast.LabelExpression | None) -> frozenset[str] | None:
    """The relationship types a type expression admits, when it names them (`:A`, `:A|B`); None (any type,
    an upper bound) for the rest."""
    if isinstance(types, ast.LabelName):
        return frozenset([types.name])
    if isinstance(types, ast.LabelOr):
        left, right = type_names(types.left), type_names(types.right)
        return None if left is None or right is None else left | right
    return None
