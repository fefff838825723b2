"""The bound tree: what the binder produces and the planner consumes.

Bound expressions know their static type and refer to `Variable` objects instead of names; function calls
name their entry in the function table; sugar is gone (`CASE x WHEN` is comparisons, map projections are
maps, bare patterns are EXISTS subqueries). Bound clauses hold bound patterns with each variable marked new
or already bound.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.procedures import Procedure
from engine.semantic.scope import Variable
from engine.semantic.types import CypherType
from engine.syntax import ast
from engine.syntax.span import Span

# ------------------------------------------------------------------------------------------------------
# Expressions


@dataclass(eq=False)
class BoundExpression:
    type: CypherType = field(kw_only=True)
    span: Span = field(kw_only=True)


@dataclass(eq=False)
class BLiteral(BoundExpression):
    value: Any


@dataclass(eq=False)
class BParameter(BoundExpression):
    name: str
    value: Any


@dataclass(eq=False)
class BVariable(BoundExpression):
    variable: Variable


@dataclass(eq=False)
class BProperty(BoundExpression):
    """`subject.key` on a node, relationship, map or a value only known at run time."""

    subject: BoundExpression
    key: str


@dataclass(eq=False)
class BIndex(BoundExpression):
    """`subject[index]` on a list, or a dynamic key on a map / node / relationship."""

    subject: BoundExpression
    index: BoundExpression


@dataclass(eq=False)
class BSlice(BoundExpression):
    subject: BoundExpression
    start: BoundExpression | None
    end: BoundExpression | None


@dataclass(eq=False)
class BOperator(BoundExpression):
    """An operator by name (`=`, `+`, `AND`, `NOT`, `STARTS WITH`, `IN`, ...) on one or two operands."""

    op: str
    operands: tuple[BoundExpression, ...]


@dataclass(eq=False)
class BIsNull(BoundExpression):
    operand: BoundExpression
    negated: bool


@dataclass(eq=False)
class BIsType(BoundExpression):
    operand: BoundExpression
    type_name: str
    negated: bool


@dataclass(eq=False)
class BHasLabels(BoundExpression):
    """`n:A&B|C` as a predicate; `labels` is the label expression (types, for relationships)."""

    subject: BoundExpression
    labels: ast.LabelExpression


@dataclass(eq=False)
class BFunction(BoundExpression):
    """A scalar function of the function table, by its canonical (lower-case) name."""

    name: str
    arguments: tuple[BoundExpression, ...]


@dataclass(eq=False)
class BAggregate(BoundExpression):
    """An aggregating function; `argument` is None for count(*)."""

    name: str
    argument: BoundExpression | None
    distinct: bool
    extra: tuple[BoundExpression, ...] = ()


@dataclass(eq=False)
class BCase(BoundExpression):
    alternatives: tuple[tuple[BoundExpression, BoundExpression], ...]
    default: BoundExpression | None


@dataclass(eq=False)
class BList(BoundExpression):
    items: tuple[BoundExpression, ...]


@dataclass(eq=False)
class BMap(BoundExpression):
    entries: tuple[tuple[str, BoundExpression], ...]


@dataclass(eq=False)
class BEntityProperties(BoundExpression):
    """All properties of a node or relationship as a map (properties(n), `n {.*}`)."""

    subject: BoundExpression


@dataclass(eq=False)
class BListComprehension(BoundExpression):
    variable: Variable
    source: BoundExpression
    where: BoundExpression | None
    projection: BoundExpression | None


@dataclass(eq=False)
class BQuantifier(BoundExpression):
    kind: str
    variable: Variable
    source: BoundExpression
    where: BoundExpression


@dataclass(eq=False)
class BReduce(BoundExpression):
    accumulator: Variable
    initial: BoundExpression
    variable: Variable
    source: BoundExpression
    expression: BoundExpression


@dataclass(eq=False)
class BSubquery(BoundExpression):
    """EXISTS / COUNT / COLLECT { }: a bound query run per row, reading the outer `imports`."""

    kind: str
    query: BoundQuery
    imports: tuple[Variable, ...]


@dataclass(eq=False)
class BPathValue(BoundExpression):
    """A named path assembled from the pattern elements that matched it."""

    path: BoundPath


# ------------------------------------------------------------------------------------------------------
# Patterns


@dataclass(eq=False)
class BoundNode:
    variable: Variable
    is_new: bool
    labels: ast.LabelExpression | None
    properties: BoundExpression | None
    span: Span


@dataclass(eq=False)
class BoundRelationship:
    """One relationship pattern. With `length` it matches a path of `length[0]..length[1]` hops (max None:
    unbounded) and its variable holds the list of relationships."""

    variable: Variable
    is_new: bool
    types: ast.LabelExpression | None
    properties: BoundExpression | None
    direction: str
    length: tuple[int, int | None] | None
    span: Span


@dataclass(eq=False)
class BoundPath:
    """Nodes and relationships alternating: nodes[i] -rels[i]- nodes[i+1]."""

    nodes: list[BoundNode]
    relationships: list[BoundRelationship]
    variable: Variable | None
    shortest: str | None
    span: Span


# ------------------------------------------------------------------------------------------------------
# Clauses


@dataclass(eq=False)
class BoundClause:
    span: Span = field(kw_only=True)


@dataclass(eq=False)
class BMatch(BoundClause):
    paths: list[BoundPath]
    where: BoundExpression | None
    optional: bool


@dataclass(eq=False)
class BUnwind(BoundClause):
    expression: BoundExpression
    variable: Variable


@dataclass(eq=False)
class BProjectionItem:
    expression: BoundExpression
    variable: Variable


@dataclass(eq=False)
class BSortItem:
    expression: BoundExpression
    descending: bool


@dataclass(eq=False)
class BProjection(BoundClause):
    """WITH or RETURN. `items` define the new scope; with aggregates, the non-aggregate items group.
    `order_by` expressions are bound in a scope seeing both the items and (when allowed) the old variables."""

    items: list[BProjectionItem]
    distinct: bool
    aggregating: bool
    order_by: list[BSortItem]
    skip: BoundExpression | None
    limit: BoundExpression | None
    where: BoundExpression | None
    is_return: bool
    columns: list[str]


@dataclass(eq=False)
class BCreate(BoundClause):
    paths: list[BoundPath]


@dataclass(eq=False)
class BMerge(BoundClause):
    path: BoundPath
    on_create: list[BoundSetItem]
    on_match: list[BoundSetItem]


@dataclass(eq=False)
class BoundSetItem:
    """kind: 'property' (target.key = value), 'all' (target = map), 'merge' (target += map),
    'labels' (target:labels), 'remove_property', 'remove_labels'."""

    kind: str
    target: BoundExpression
    key: str | BoundExpression | None
    value: BoundExpression | None
    labels: tuple[str, ...]
    span: Span


@dataclass(eq=False)
class BSet(BoundClause):
    items: list[BoundSetItem]


@dataclass(eq=False)
class BDelete(BoundClause):
    expressions: list[BoundExpression]
    detach: bool


@dataclass(eq=False)
class BForeach(BoundClause):
    variable: Variable
    source: BoundExpression
    clauses: list[BoundClause]


@dataclass(eq=False)
class BCallSubquery(BoundClause):
    query: BoundQuery
    imports: tuple[Variable, ...]
    optional: bool
    returns: list[Variable]


@dataclass(eq=False)
class BCallProcedure(BoundClause):
    """`CALL proc(args) YIELD ...`: `yields` pairs an output field with the variable it binds."""

    procedure: Procedure
    arguments: tuple[BoundExpression, ...]
    yields: list[tuple[str, Variable]]
    where: BoundExpression | None
    standalone: bool


@dataclass(eq=False)
class BoundSingleQuery:
    clauses: list[BoundClause]
    columns: list[str]
    output: list[Variable]


@dataclass(eq=False)
class BoundQuery:
    """One or more single queries joined by UNION (`union_all` per join)."""

    parts: list[BoundSingleQuery]
    union_all: list[bool]
    columns: list[str]
    updating: bool
    ordered: bool


@dataclass(eq=False)
class BSchemaCommand:
    """CREATE/DROP INDEX/CONSTRAINT, SHOW ...: run directly against the catalog."""

    statement: ast.Statement
    columns: list[str] = field(default_factory=list)
