"""What MATCH clauses carry for the clauses after them: the properties and labels later clauses read off each
variable, and which variables are read as values (ADR-0029, ADR-0040). A MATCH carries those columns in its
binding table, and later clauses read them from there instead of joining the node table again.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.semantic import bound as b


@dataclass(frozen=True)
class Reads:
    """What a query reads off its variables, by variable name (subqueries included): what a MATCH carries
    along for the clauses after it (generator.Carried)."""

    properties: dict[str, frozenset[str]]
    """Property keys read per variable."""
    labels: frozenset[str]
    """Node variables whose labels are read (`labels(n)`, `n:A`)."""
    values: frozenset[str] | None
    """Variables read as values: anywhere but as the one argument of `length()` or `count()` or the operand
    of IS [NOT] NULL. A shortest path whose variable, and relationships' variable, are not among them may be
    any of the shortest paths: nothing tells them apart (patterns.Frontier.any_path)."""


SHAPE_BLIND = frozenset({"length", "count"})
"""Functions and aggregates whose value is the same for any of a pair's shortest paths."""


def property_reads(query: b.BoundSingleQuery) -> Reads:
    found: dict[str, set[str]] = {}
    labels: set[str] = set()
    values: set[str] = set()
    for node in b.walk(query, prune=_blind_to_shape):
        if isinstance(node, b.BProperty) and isinstance(node.subject, b.BVariable):
            found.setdefault(node.subject.variable.name, set()).add(node.key)
        elif isinstance(node, b.BHasLabels) and isinstance(node.subject, b.BVariable):
            labels.add(node.subject.variable.name)
        elif (isinstance(node, b.BFunction) and node.name == "labels" and len(node.arguments) == 1
              and isinstance(node.arguments[0], b.BVariable)):
            labels.add(node.arguments[0].variable.name)
        elif isinstance(node, b.BVariable):
            values.add(node.variable.name)
        elif isinstance(node, b.BCreate):
            labels.update(created_ends(node))
    return Reads({name: frozenset(keys) for name, keys in found.items()}, frozenset(labels), frozenset(values))


def created_ends(clause: b.BCreate) -> set[str]:
    """The bound node variables a CREATE's relationships start or end at: their labels are what the new
    relationships add to the end-label counts (ADR-0092), which the MATCH binding them carries (ADR-0097)."""
    return {node.variable.name for path in clause.paths if path.relationships
            for node in path.nodes if not node.is_new}


def _blind_to_shape(node: object) -> bool:
    """Whether `node` reads its one variable argument only through what all shortest paths share."""
    if isinstance(node, b.BFunction | b.BAggregate) and node.name in SHAPE_BLIND:
        if isinstance(node, b.BAggregate) and node.distinct:
            return False
        arguments = node.arguments if isinstance(node, b.BFunction) else (node.argument, *node.extra)
        return len(arguments) == 1 and isinstance(arguments[0], b.BVariable)
    return isinstance(node, b.BIsNull) and isinstance(node.operand, b.BVariable)
