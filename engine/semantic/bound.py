"""The bound tree: what the binder produces and the planner consumes.

Bound expressions know their static type and refer to `Variable` objects instead of names; function calls
name their entry in the function table; sugar is gone (`CASE x WHEN` is comparisons, map projections are
maps, bare patterns are EXISTS subqueries). Bound clauses hold bound patterns with each variable marked new
or already bound.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from typing import Any

from engine.procedures import Procedure
from engine.semantic import parameter_reads
from engine.semantic.scope import Variable
from engine.span import Span
from engine.syntax import ast
from engine.types import CypherType, Kind

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
    """A parameter; its `type` is always its given value's own (`type_of_value`), which the SQL that binds
    it relies on rather than typing the value again."""

    name: str
    given: Any
    """The value as given. Read `value` to decide anything by it: that read is noted (parameter_reads.py),
    and a compiled statement is reused only for the same value. The SQL that binds it reads `given`."""
    reads: CypherType | None = field(default=None, kw_only=True)
    """The part of `type` the statement can read, where that is provably less than the whole: records of
    fewer fields, which the SQL converts the value to (parameter_fields.py, ADR-0114). None: the whole."""

    @property
    def value(self) -> Any:
        parameter_reads.inspected(self.name)
        return self.given


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
class BHasDynamicLabels(BoundExpression):
    """`n:$(e)` / `n:$any(e)` where `e` is read off the row (Cypher 25): the labels (types) each row's string or
    list of strings names, all of them or any one (`quantifier`)."""

    subject: BoundExpression
    names: BoundExpression
    quantifier: str


@dataclass(eq=False)
class VirtualSite:
    """Where in its statement a call that makes virtual nodes or relationships stands (ADR-0074): the calls
    are numbered 1, 2, ... as the binder meets them, and `sites` (shared by every call of the statement) holds
    how many there are once binding is done. An element's id is made from the row's number, the call's
    `index` and that count (`sqlgen.virtual_ids`)."""

    index: int
    sites: list[int]


@dataclass(eq=False)
class BFunction(BoundExpression):
    """A scalar function of the function table, by its canonical (lower-case) name; `site` is set for a call
    that makes virtual elements (`semantic.functions.VIRTUAL_MAKERS`)."""

    name: str
    arguments: tuple[BoundExpression, ...]
    site: VirtualSite | None = None


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
    where: BoundExpression | None = None
    """An inline `(n WHERE ...)` predicate: part of the pattern, so a pre-filter for path selectors."""
    dynamic: tuple[BoundExpression, ...] = ()
    """Labels read off the row that CREATE or MERGE gives the node beside `labels` (`$(row.type)`); MATCH
    tests them in `where`."""


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
    where: BoundExpression | None = None
    dynamic: tuple[BoundExpression, ...] = ()
    """The type read off the row that CREATE or MERGE gives the relationship (`$(row.type)`, `types` then
    None); MATCH tests it in `where`."""


@dataclass(eq=False)
class BoundGroup:
    """A quantified path pattern `((a)-[r]->(b) WHERE ...){low,high}` standing between two nodes of a path
    (also a quantified relationship such as `-[:T]->{1,5}`, which is the group `(()-[:T]->())`).

    `nodes` and `relationships` alternate as in a path; their variables are the singletons one iteration
    binds, which the group's own predicates read. Outside the group each named singleton is a list (a group
    variable): `group_variables` pairs them, inside with outside. The first inner node is the node before
    the group on the first iteration; the last inner node is the node after it on the last iteration."""

    nodes: list[BoundNode]
    relationships: list[BoundRelationship]
    where: BoundExpression | None
    low: int
    high: int | None
    group_variables: list[tuple[Variable, Variable]]
    span: Span


@dataclass(eq=False)
class BoundSelector:
    """A path selector: `kind` is 'any' (ANY k), 'shortest' (SHORTEST k, ANY SHORTEST, shortestPath()),
    'groups' (SHORTEST k GROUPS, ALL SHORTEST, allShortestPaths()). Paths are partitioned by input row and
    end nodes and ranked by length; `k` paths (or length groups) are kept per partition."""

    kind: str
    k: int
    function: str | None = None
    """'shortestPath' / 'allShortestPaths' for the legacy functions: the MATCH's WHERE is then a
    pre-filter, and a path whose two ends are the same node is not a result."""


@dataclass(eq=False)
class BoundPath:
    """Nodes and links alternating: nodes[i] -links[i]- nodes[i+1], where a link is a relationship pattern
    or a quantified group. `mode` is the path mode: 'trail' (relationships unique, the default), 'acyclic'
    (nodes unique too) or 'walk' (no uniqueness: only under MATCH REPEATABLE ELEMENTS). `where` is the
    WHERE of a parenthesised path pattern, a pre-filter like inline predicates."""

    nodes: list[BoundNode]
    relationships: list[BoundRelationship | BoundGroup]
    variable: Variable | None
    shortest: str | None
    span: Span
    selector: BoundSelector | None = None
    mode: str = "trail"
    where: BoundExpression | None = None


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
    repeatable: bool = False
    """MATCH REPEATABLE ELEMENTS: no relationship uniqueness across the pattern (the default match mode,
    DIFFERENT RELATIONSHIPS, keeps every relationship of one match distinct)."""


@dataclass(eq=False)
class BUnwind(BoundClause):
    expression: BoundExpression
    variable: Variable


@dataclass(eq=False)
class BLoadCsv(BoundClause):
    """LOAD CSV: `url` is a literal or a parameter (the file is read with the statement, once)."""

    url: BoundExpression
    variable: Variable
    headers: bool
    terminator: str
    line_number: Variable
    """What `linenumber()` reads in the clauses after it: the line of the file the row comes from."""
    file: Variable
    """What `file()` reads: the file's path in the import directory."""


@dataclass(eq=False)
class BProjectionItem:
    expression: BoundExpression
    variable: Variable


@dataclass(eq=False)
class BSortItem:
    expression: BoundExpression
    descending: bool
    nulls_first: bool | None = None
    """NULLS FIRST / NULLS LAST as written; None: null sorts as the largest value."""

    @property
    def nulls_sort_first(self) -> bool:
        return self.descending if self.nulls_first is None else self.nulls_first


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
class BTransactions:
    """`IN TRANSACTIONS [OF batch_size ROWS] [ON ERROR on_error] [REPORT STATUS AS report]`."""

    batch_size: BoundExpression | None
    on_error: str
    report: Variable | None
    repeat: Variable | None = None
    """The returned variable whose values, summed over a run, decide whether the subquery runs again
    (`ast.CallSubquery.repeat_until`)."""


@dataclass(eq=False)
class BCallSubquery(BoundClause):
    """`[OPTIONAL] CALL { query }`: `imports` are the outer variables the query reads, `returns` the
    variables it adds to each outer row (none: a unit subquery, the outer rows go on unchanged)."""

    query: BoundQuery
    imports: tuple[Variable, ...]
    optional: bool
    returns: list[Variable]
    transactions: BTransactions | None = None


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
    output: list[Variable] = field(default_factory=list)
    """The query's result columns: the first part's variables, typed to hold every part's values (a UNION's
    column holds each part's values with their own types: `RETURN 1 AS c UNION RETURN 'a' AS c`)."""


@dataclass(eq=False)
class BSchemaCommand:
    """CREATE/DROP INDEX/CONSTRAINT, SHOW ...: run directly against the catalog. `params` are the
    statement's parameters (a `$name` given as a schema object's name, or used after SHOW ... WHERE)."""

    statement: ast.Statement
    columns: list[str] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)


# ------------------------------------------------------------------------------------------------------
# Walking the tree


def children(expression: BoundExpression) -> list[BoundExpression]:
    """The bound expressions directly under `expression` (its fields, and the items of tuples of them)."""
    result: list[BoundExpression] = []
    for value in vars(expression).values():
        if isinstance(value, BoundExpression):
            result.append(value)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, BoundExpression):
                    result.append(item)
                elif isinstance(item, tuple):
                    result.extend(x for x in item if isinstance(x, BoundExpression))
    return result


def aggregates_in(root: object) -> list[BAggregate]:
    """The aggregates under `root` (an expression, or lists and tuples of them), in the order they appear;
    not inside a subquery (it aggregates on its own) nor inside an aggregate (one cannot nest another)."""
    found: list[BAggregate] = []
    stack: list[object] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, BAggregate):
            found.append(node)
        elif isinstance(node, list | tuple):
            stack.extend(reversed(node))
        elif isinstance(node, BoundExpression) and not isinstance(node, BSubquery | BLiteral | BParameter):
            stack.extend(reversed(list(vars(node).values())))
    return found


def reads_any(root: object, variables: set[int]) -> bool:
    """Whether the expression `root` reads one of `variables` (by id): a variable of the set, or a subquery
    importing one (a subquery's own variables are not looked into)."""
    for node in walk(root, prune=lambda node: isinstance(node, BSubquery)):
        if isinstance(node, BVariable) and id(node.variable) in variables:
            return True
        if isinstance(node, BSubquery) and any(id(variable) in variables for variable in node.imports):
            return True
    return False


def makes_virtual(root: object) -> bool:
    """Whether `root` (an expression, a clause, lists of them) holds a call that makes virtual elements, not
    counting subqueries (they number their own rows)."""
    return any(isinstance(node, BFunction) and node.site is not None
               for node in walk(root, prune=lambda node: isinstance(node, BSubquery)))


UNTYPED_AGGREGATES = frozenset({"min", "max"})
"""Aggregates whose result Neo4j types as ANY (`min(input :: ANY) :: ANY`): the type the engine infers for them
only chooses their SQL, like a type read off stored data."""


def observed(expression: BoundExpression) -> bool:
    """Whether the expression's static type depends on stored data (see `Variable.observed`: a property read,
    typed by its column, which the statement's own writes may widen), or is one the query text leaves open
    (`UNTYPED_AGGREGATES`). Such a type chooses the SQL but never makes a compile-time type error (ADR-0053):
    where it does not fit, the value is checked on the rows that bring it."""
    if isinstance(expression, BAggregate) and expression.name in UNTYPED_AGGREGATES:
        return True
    if isinstance(expression, BProperty):
        return expression.subject.type.kind in (Kind.NODE, Kind.RELATIONSHIP) or observed(expression.subject)
    if isinstance(expression, BVariable):
        return expression.variable.observed
    known = expression.__dict__.get(OBSERVED_MEMO)
    if known is None:
        known = expression.__dict__[OBSERVED_MEMO] = any(observed(child) for child in children(expression))
    return known


OBSERVED_MEMO = "_observed"
"""Where `observed` keeps its answer on a compound expression: the binder asks it of every operand of a chain
as it builds the chain, and walking the whole operand each time made a 800-term `+` take 7 s to bind. Bound
trees are built bottom-up and not changed after, and variables are marked observed when they are defined,
before any expression reads them."""


def never_a_map(expression: BoundExpression) -> bool:
    """Whether no row's value can be a map, node or relationship: null, or a type read off data that is none
    of those (a value of a type the text fixes is the binder's compile-time error instead). `SET x = value`
    then sets no key; a non-null value is a type error on its row."""
    kind = expression.type.kind
    return kind is Kind.NULL or (observed(expression) and kind not in (Kind.MAP, Kind.ANY, Kind.NODE,
                                                                        Kind.RELATIONSHIP))


def walk(root: object, prune: Callable[[object], bool] | None = None) -> Iterator[object]:
    """Every node of this module's classes under `root` (itself included), each once, reached through
    fields, lists and tuples; with `prune`, a node it accepts is yielded but not looked into. Spans, types,
    names, variables and the values of literals and parameters are not walked: they hold no bound node,
    and are most of a tree's values (a parameter may be a list of thousands of rows). Only the fields that
    may hold a bound node are read (`_node_fields`): the planner walks each statement's clauses a few times."""
    stack: list[object] = [root]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if isinstance(node, list | tuple):
            stack.extend(node)
        elif type(node).__module__ == __name__ and id(node) not in seen:
            seen.add(id(node))
            yield node
            if not isinstance(node, BLiteral | BParameter) and (prune is None or not prune(node)):
                values = vars(node)
                shape = _NODE_FIELDS.get(type(node)) or _node_fields(type(node))
                if len(values) == shape.count:
                    stack.append(shape.read(values))
                else:  # an attribute beyond its fields (a memo, `observed`): every value is looked at
                    stack.extend(values.values())


@dataclass(frozen=True)
class _Fields:
    """Which fields of a class of bound nodes may hold one: `read` gives their values (a tuple, walked in the
    fields' order); `count`, how many fields an instance has, to notice any other attribute."""

    read: Callable[[dict[str, object]], object]
    count: int


_NODE_FIELDS: dict[type, _Fields] = {}

_LEAF_NAMES = frozenset({"Span", "CypherType", "Kind", "Variable", "Procedure", "str", "int", "float", "bool",
                         "None", "tuple", "list", "ast", "LabelExpression"})
"""Names in a field's annotation that hold no bound node: a field whose annotation names only these (`str |
None`, `tuple[Variable, ...]`, `ast.LabelExpression | None`) is not walked. Any other name (a class of this
module, `Any`, `object`) is."""


def _node_fields(cls: type) -> _Fields:
    names = tuple(f.name for f in fields(cls)
                  if not set(re.findall(r"[A-Za-z_]\w*", str(f.type))) <= _LEAF_NAMES)
    read = (lambda values: ()) if not names else operator.itemgetter(*names)  # one name: its value alone
    found = _NODE_FIELDS[cls] = _Fields(read, len(fields(cls)))
    return found
