"""A statement's plan as an operator tree, the way Neo4j shows one (EXPLAIN, PROFILE), with estimated rows.

Each plan step (a clause) becomes the operators it runs as, stacked on the operators of the step before:
a MATCH scans its first new node (`NodeByLabelScan`, `AllNodesScan`), expands each relationship
(`Expand(All)`, `Expand(Into)` when both ends are bound, `VarLengthExpand(All)`, `ShortestPath`,
`Repeat(Trail)` for a quantified group) and filters (`Filter`); a WITH or RETURN projects, aggregates
(`EagerAggregation`), sorts (`Sort`, `Top` with a LIMIT) and pages (`Skip`, `Limit`); a CALL subquery is an
`Apply` whose right child is the subquery's tree; a UNION is a `Union` of its parts; the statement's
result is `ProduceResults`. The operators name what the clause does, not the SQL the engine runs for it
(that is one SELECT per step or per chain of fused steps: `python -m engine explain` shows it).

Estimates come from the store's counts (`Statistics`: nodes, nodes per label, relationships per type) and
fixed selectivities where nothing is counted, as Neo4j's planner does without statistics: an equality
keeps 1 row in 10 (`EQUALITY`), another predicate 3 in 10 (`PREDICATE`), a grouping keeps the square root
of its input rows, an UNWIND of a list not written in the statement yields 10 rows per row.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from engine.plan.plan import QueryPlan, Step
from engine.plan.rules.fuse_reads import runs_clause_by_clause
from engine.plan.rules.walk_branching import type_names
from engine.semantic import bound as b
from engine.syntax import ast

EQUALITY = 0.1
"""The share of rows an equality predicate is estimated to keep."""
PREDICATE = 0.3
"""The share of rows any other predicate is estimated to keep."""
UNWOUND = 10
"""The estimated length of a list an UNWIND reads from a value not written in the statement."""
DEEPEST_ESTIMATED = 4
"""A variable-length expansion without an upper bound is estimated to this many hops."""


class Statistics(Protocol):
    """What estimates read of the store."""

    def node_count(self, label: str | None = None) -> int: ...

    def relationship_count(self, types: frozenset[str] | None = None) -> int: ...


@dataclass
class Operator:
    """One operator: its name, what it works on (Cypher text), the plan step (running order, from 1) it
    belongs to, its estimated rows, and its children (the input first)."""

    name: str
    details: str
    step: int
    estimated_rows: float
    children: list[Operator] = field(default_factory=list)
    root_of_step: bool = False
    """The topmost operator of its step: PROFILE's rows and time of the step are shown on it."""

    def walk(self, depth: int = 0) -> Iterator[tuple[int, Operator]]:
        """The operators from this one down, each with its depth (the input child stays at its parent's
        depth, as in Neo4j's plans; another child, a subquery or a union's part, is one deeper)."""
        yield depth, self
        for index, child in enumerate(reversed(self.children)):
            yield from child.walk(depth + (1 if index < len(self.children) - 1 else 0))


class _Builder:
    """Builds the operators of one query's steps over the store's `statistics`."""

    def __init__(self, statistics: Statistics, text: str, numbering: list[int]) -> None:
        self.statistics = statistics
        self.text = text
        self.numbering = numbering
        """A one-item counter of steps, shared by the parts of a UNION and the subqueries' plans."""
        self.nodes = max(statistics.node_count(), 1)

    def source(self, node: object) -> str:
        span = getattr(node, "span", None)
        return " ".join(self.text[span.start:span.end].split()) if span is not None else ""

    def query(self, plans: list[QueryPlan], query: b.BoundQuery, top: Operator | None,
              within: int | None = None) -> Operator:
        """The tree of a statement's (or, `within` the step of its CALL, a subquery's) plans, one per UNION
        part, over input `top`."""
        parts = [self.steps(plan, top, within) for plan in plans]
        if len(parts) == 1:
            return parts[0]
        rows = sum(part.estimated_rows for part in parts)
        union = Operator("Union", "", parts[-1].step, rows, parts)
        if not all(query.union_all):
            return Operator("Distinct", "", union.step, math.sqrt(rows), [union])
        return union

    def steps(self, plan: QueryPlan, top: Operator | None, within: int | None) -> Operator:
        """The operators of the plan's steps, each step's on the one's before; numbered in running order, or
        all `within` one step (a subquery's)."""
        current = top
        if current is None and within is not None:  # a subquery's rows start from its CALL's row
            current = Operator("Argument", "", within, 1.0)
        for step in plan:
            if within is None:
                self.numbering[0] += 1
            number, first = within or self.numbering[0], current
            rows = current.estimated_rows if current is not None else 1.0
            for name, details, estimate, extra in self.clause(step.clause, rows, number):
                current = Operator(name, details, number, estimate, [*([current] if current else []), *extra])
            if current is first or current is None:  # a clause that adds no operator (a void procedure call)
                current = Operator("EmptyResult", "", number, rows, [current] if current else [])
            current.root_of_step = within is None
        return current

    # -- clauses: each yields (name, details, estimated rows, children besides the input) bottom up --

    def clause(self, clause: b.BoundClause, rows: float,
               number: int) -> Iterator[tuple[str, str, float, list[Operator]]]:
        if isinstance(clause, b.BMatch):
            yield from self.match(clause, rows)
        elif isinstance(clause, b.BProjection):
            yield from self.projection(clause, rows)
        elif isinstance(clause, b.BUnwind):
            length = len(clause.expression.items) if isinstance(clause.expression, b.BList) else UNWOUND
            yield "Unwind", self.source(clause), rows * length, []
        elif isinstance(clause, b.BCallProcedure):
            yield "ProcedureCall", clause.procedure.name, rows, []
            if clause.where is not None:
                yield "Filter", self.source(clause.where), rows * _selectivity(clause.where), []
        elif isinstance(clause, b.BCallSubquery):
            subquery = self.query(_subquery_plans(clause.query), clause.query, None, number)
            name = "Foreach Apply" if runs_clause_by_clause(clause) else "Apply"
            yield name, "", rows * (subquery.estimated_rows if clause.query.columns else 1), [subquery]
        elif isinstance(clause, b.BCreate):
            yield "Create", ", ".join(self.source(path) for path in clause.paths), rows, []
        elif isinstance(clause, b.BMerge):
            yield "Merge", self.source(clause.path), rows, []
        elif isinstance(clause, b.BSet):
            yield "SetProperties", self.source(clause), rows, []
        elif isinstance(clause, b.BDelete):
            yield "DetachDelete" if clause.detach else "Delete", self.source(clause), rows, []
        elif isinstance(clause, b.BForeach):
            yield "Foreach", self.source(clause), rows, []
        else:
            yield type(clause).__name__.removeprefix("B"), self.source(clause), rows, []

    def match(self, clause: b.BMatch, rows: float) -> Iterator[tuple[str, str, float, list[Operator]]]:
        start = rows
        bound_before = {id(node.variable) for path in clause.paths for node in path.nodes if not node.is_new}
        reached: set[int] = set(bound_before)
        for path in clause.paths:
            first = path.nodes[0]
            if id(first.variable) not in reached:
                labels = _label_names(first.labels)
                count = min((self.statistics.node_count(label) for label in labels), default=self.nodes)
                rows *= count
                name = "NodeByLabelScan" if labels else "AllNodesScan"
                yield name, _node_text(first), rows, []
                reached.add(id(first.variable))
            rows = yield from self.node_filters(first, rows)
            for link, node in zip(path.relationships, path.nodes[1:], strict=True):
                into = id(node.variable) in reached
                rows = self.expanded(link, rows, into, path.selector)
                yield self.expand_name(link, into, path.selector), self.link_text(path, link), rows, []
                reached.add(id(node.variable))
                rows = yield from self.node_filters(node, rows)
        if clause.where is not None:
            rows *= _selectivity(clause.where)
            yield "Filter", self.source(clause.where), rows, []
        if clause.optional:
            yield "Optional", "", max(rows, start), []

    def node_filters(self, node: b.BoundNode, rows: float):  # type: ignore[no-untyped-def]
        """A Filter for a node's property map and inline WHERE; returns the rows after it."""
        for condition in (node.properties, node.where):
            if condition is not None:
                rows *= EQUALITY if condition is node.properties else _selectivity(condition)
                yield "Filter", self.source(condition), rows, []
        return rows

    def expand_name(self, link: b.BoundRelationship | b.BoundGroup, into: bool,
                    selector: b.BoundSelector | None) -> str:
        if selector is not None:
            return "ShortestPath" if selector.kind != "any" else "AnyPath"
        if isinstance(link, b.BoundGroup):
            return "Repeat(Trail)"
        kind = "Into" if into else "All"
        return f"VarLengthExpand({kind})" if link.length is not None else f"Expand({kind})"

    def link_text(self, path: b.BoundPath, link: b.BoundRelationship | b.BoundGroup) -> str:
        index = path.relationships.index(link)
        left, right = path.nodes[index], path.nodes[index + 1]
        return f"({_name(left)}){self.source(link)}({_name(right)})"

    def expanded(self, link: b.BoundRelationship | b.BoundGroup, rows: float, into: bool,
                 selector: b.BoundSelector | None) -> float:
        """Rows after an expansion: times the average degree over its relationship types per hop."""
        relationships = link.relationships if isinstance(link, b.BoundGroup) else [link]
        degree = 1.0
        for relationship in relationships:
            count = self.statistics.relationship_count(type_names(relationship.types))
            degree *= count / self.nodes * (2 if relationship.direction == "both" else 1)
        if isinstance(link, b.BoundGroup):
            low, high = link.low, link.high
        elif link.length is not None:
            low, high = link.length
        else:
            low, high = 1, 1
        hops = range(low, min(high if high is not None else low + DEEPEST_ESTIMATED, low + DEEPEST_ESTIMATED) + 1)
        reached = sum(degree ** hop for hop in hops)
        if selector is not None:  # k paths per pair of ends, at most
            reached = min(reached, selector.k * (1 if into else self.nodes))
        return rows * reached / (self.nodes if into else 1)

    def projection(self, clause: b.BProjection, rows: float) -> Iterator[tuple[str, str, float, list[Operator]]]:
        items = ", ".join(self.source(item.expression) for item in clause.items)
        if clause.aggregating:
            grouping = [item for item in clause.items if not b.aggregates_in(item.expression)]
            rows = math.sqrt(rows) if grouping else 1.0
            yield "EagerAggregation", items, rows, []
        else:
            yield "Projection", items, rows, []
        if clause.distinct:
            rows = math.sqrt(rows)
            yield "Distinct", "", rows, []
        limit = _count(clause.limit)
        skip = _count(clause.skip)
        order = ", ".join(self.source(item.expression) + (" DESC" if item.descending else "")
                          for item in clause.order_by)
        if clause.order_by:
            if clause.limit is not None:
                rows = min(rows, (limit if limit is not None else rows) + (skip or 0))
                yield "Top", order, rows, []
            else:
                yield "Sort", order, rows, []
        if clause.skip is not None:
            rows = max(rows - (skip if skip is not None else 0), 0.0)
            yield "Skip", self.source(clause.skip), rows, []
        if clause.limit is not None:
            rows = min(rows, limit) if limit is not None else rows
            yield "Limit", self.source(clause.limit), rows, []
        if clause.where is not None:
            rows *= _selectivity(clause.where)
            yield "Filter", self.source(clause.where), rows, []


def _subquery_plans(query: b.BoundQuery) -> list[QueryPlan]:
    return [QueryPlan([Step(clause) for clause in part.clauses]) for part in query.parts]


def _count(expression: b.BoundExpression | None) -> int | None:
    """A SKIP or LIMIT written as a number (a parameter's value is not looked at: the plan is the same)."""
    if isinstance(expression, b.BLiteral) and isinstance(expression.value, int):
        return expression.value
    return None


def _selectivity(condition: b.BoundExpression) -> float:
    """The estimated share of rows a predicate keeps: a product over its AND-ed parts."""
    if isinstance(condition, b.BOperator) and condition.op == "AND":
        return math.prod(_selectivity(operand) for operand in condition.operands)
    if isinstance(condition, b.BOperator) and condition.op == "=":
        return EQUALITY
    return PREDICATE


def _label_names(labels: ast.LabelExpression | None) -> list[str]:
    """The labels a node pattern requires (`:A:B`, `:A&B`); a disjunction or negation requires none."""
    if isinstance(labels, ast.LabelName):
        return [labels.name]
    if isinstance(labels, ast.LabelAnd):
        return _label_names(labels.left) + _label_names(labels.right)
    return []


def _name(node: b.BoundNode) -> str:
    return "" if node.variable.anonymous else node.variable.name


def _node_text(node: b.BoundNode) -> str:
    labels = _label_names(node.labels)
    return _name(node) + "".join(f":{label}" for label in labels)


def statement_tree(plans: list[QueryPlan], query: b.BoundQuery, text: str, statistics: Statistics) -> Operator:
    """The operator tree of a statement's plans (one per UNION part), `ProduceResults` on top when the
    statement returns rows."""
    builder = _Builder(statistics, text, [0])
    tree = builder.query(plans, query, None)
    if query.columns:
        tree = Operator("ProduceResults", ", ".join(query.columns), tree.step, tree.estimated_rows, [tree])
    return tree
