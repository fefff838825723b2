"""Which MATCH clauses may run a level walk (ADR-0035): a shortest path, one per pair, of one
variable-length hop between two nodes bound before the clause.

A level walk reads its (start, end) pairs from the MATCH's input rows, so those must be settled rows (a
table), not a SELECT fused with the clauses before. Whether it runs at all depends on the store (enough
relationships to repay a statement per level, `execute/level_walks.py`), known when the clause runs: the
executor then settles the rows before such a step rather than fusing it.
"""

from __future__ import annotations

from engine.semantic import bound as b


def may_walk_levels(clause: b.BoundClause) -> bool:
    """Whether `clause` is a MATCH with a path that keeps one shortest path between two nodes bound by the
    clauses before it, over a single variable-length relationship."""
    if not isinstance(clause, b.BMatch):
        return False
    declared = {id(node.variable) for path in clause.paths for node in path.nodes if node.is_new}
    return any(_walks_between_bound_ends(path, declared) for path in clause.paths)


def _walks_between_bound_ends(path: b.BoundPath, declared: set[int]) -> bool:
    selector = path.selector
    if selector is None or selector.k != 1 or selector.kind == "groups" or len(path.relationships) != 1:
        return False
    link = path.relationships[0]
    if not isinstance(link, b.BoundRelationship) or link.length is None:
        return False
    return id(path.nodes[0].variable) not in declared and id(path.nodes[-1].variable) not in declared
