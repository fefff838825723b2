"""The syntax tree: one frozen dataclass per openCypher construct, each with the `Span` it was parsed from.

Nodes are plain declarations (sqlglot's expression classes without the machinery): fields name the children,
tuples hold sequences so every node is hashable, and `span` is keyword-only and always last, so a node is
built as `Variable("n", span=s)`. The parser is the only producer; the binder (`engine.semantic`) consumes it.

Representation choices the binder relies on:

* A single query is a `Query` with one part; `union_all[i]` says whether `parts[i]` and `parts[i + 1]` are
  joined by `UNION ALL` (True) or `UNION` (False).
* A comparison chain `a < b <= c` is parsed to `BinaryOp('AND', BinaryOp('<', a, b), BinaryOp('<=', b, c))`;
  the middle operand is the *same* node object in both comparisons (openCypher: `a < b AND b <= c`).
* Label expressions: `:A:B` (the legacy conjunction) becomes `LabelAnd`; `:R|S` and the legacy `:R|:S`
  become `LabelOr`.
* `ProjectionItem.text` is the exact source text of the expression; with no alias it names the column unless the
  expression is a variable (`RETURN `n`` names `n`): `ProjectionItem.column`.
* Keyword-like names (`n.count`, `{end: 1}`, `:Match`) are plain strings: keywords are accepted as names.
* A `-` written before a number is part of the literal: `-1` is `Literal(-1)` (so -9223372036854775808 fits).
* Parentheses leave no node: `(a + b)` is the BinaryOp itself, with a span that takes in the parentheses.
* Open bounds are None: `*` is `VarLength(None, None)`, `{,3}` is `Quantifier(None, 3)`, `+` is
  `Quantifier(1, None)`.
* A `PatternExpression` only stands where a predicate is expected (WHERE, operands of AND/OR/XOR/NOT,
  exists(...)); the parser rejects it elsewhere, as Cypher 5 does.

`dump(node)` gives an indented, span-free text of a tree, used by the parser's fixture tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, replace
from typing import Literal as TypingLiteral
from typing import TypeAlias

from engine.span import Span

# ----------------------------------------------------------------------------------------------------
# Bases. Each is abstract; `span` is declared once here, keyword-only, so subclasses list only their children.


@dataclass(frozen=True, slots=True)
class SyntaxNode:
    """Any node of the tree."""

    span: Span = field(kw_only=True)


@dataclass(frozen=True, slots=True)
class Expression(SyntaxNode):
    """A value-producing expression."""


@dataclass(frozen=True, slots=True)
class Clause(SyntaxNode):
    """One clause of a single query: MATCH, WITH, CREATE, ..."""


@dataclass(frozen=True, slots=True)
class Statement(SyntaxNode):
    """A whole statement: a `Query` or a schema command."""

    graph: str | None = field(default=None, kw_only=True)
    """The graph `USE name` selects for the statement (ADR-0068); None: the connection's."""


@dataclass(frozen=True, slots=True)
class LabelExpression(SyntaxNode):
    """A label (or relationship type) expression after `:` or `IS`."""


@dataclass(frozen=True, slots=True)
class SetItem(SyntaxNode):
    """One item of SET (and of MERGE's ON CREATE / ON MATCH)."""


@dataclass(frozen=True, slots=True)
class RemoveItem(SyntaxNode):
    """One item of REMOVE."""


@dataclass(frozen=True, slots=True)
class MapProjectionItem(SyntaxNode):
    """One item of a map projection `n {.a, .*, b: 1, c}`."""


@dataclass(frozen=True, slots=True)
class Hint(SyntaxNode):
    """A planner hint after MATCH: USING INDEX / SCAN / JOIN."""


# ----------------------------------------------------------------------------------------------------
# Expressions


@dataclass(frozen=True, slots=True)
class Literal(Expression):
    """An int, float, str, bool or None (null) written in the text."""

    value: int | float | str | bool | None


@dataclass(frozen=True, slots=True)
class ListLiteral(Expression):
    items: tuple[Expression, ...]


@dataclass(frozen=True, slots=True)
class MapLiteral(Expression):
    entries: tuple[tuple[str, Expression], ...]


@dataclass(frozen=True, slots=True)
class Parameter(Expression):
    """`$name` or `$0`; `name` is the text after `$` (a str even for `$0`)."""

    name: str


@dataclass(frozen=True, slots=True)
class Variable(Expression):
    name: str


@dataclass(frozen=True, slots=True)
class PropertyLookup(Expression):
    """`subject.key`."""

    subject: Expression
    key: str


@dataclass(frozen=True, slots=True)
class Subscript(Expression):
    """`subject[index]`: a list index or a dynamic property/map key."""

    subject: Expression
    index: Expression


@dataclass(frozen=True, slots=True)
class Slice(Expression):
    """`subject[start..end]`, either bound optional."""

    subject: Expression
    start: Expression | None
    end: Expression | None


@dataclass(frozen=True, slots=True)
class BinaryOp(Expression):
    """`left op right`; `op` is one of `BINARY_OPERATORS`."""

    op: str
    left: Expression
    right: Expression


BINARY_OPERATORS = frozenset({
    "OR", "XOR", "AND",
    "=", "<>", "<", ">", "<=", ">=",
    "+", "-", "*", "/", "%", "^", "||",
    "STARTS WITH", "ENDS WITH", "CONTAINS", "IN", "=~",
})


@dataclass(frozen=True, slots=True)
class UnaryOp(Expression):
    op: TypingLiteral["NOT", "-", "+"]
    operand: Expression


@dataclass(frozen=True, slots=True)
class IsNull(Expression):
    """`operand IS NULL` (`negated`: IS NOT NULL)."""

    operand: Expression
    negated: bool


@dataclass(frozen=True, slots=True)
class IsNormalized(Expression):
    """`operand IS [NOT] [form] NORMALIZED`: whether a string is in Unicode normal form `form` (NFC, NFD, NFKC
    or NFKD); null for null and for a value that is not a string (Cypher manual, String operators)."""

    operand: Expression
    form: str
    negated: bool


@dataclass(frozen=True, slots=True)
class IsType(Expression):
    """`operand IS :: TYPE` / `IS [NOT] TYPED TYPE`; `type_name` is normalised upper-case text, e.g.
    'INTEGER', 'LIST<STRING NOT NULL>', 'INTEGER | FLOAT'."""

    operand: Expression
    type_name: str
    negated: bool


@dataclass(frozen=True, slots=True)
class HasLabels(Expression):
    """`n:A:B`, `n:A|B`, `r:T` used as a predicate."""

    subject: Expression
    labels: LabelExpression


@dataclass(frozen=True, slots=True)
class FunctionCall(Expression):
    """`name(arguments)`; `name` is dotted and keeps its original case (`apoc.coll.sum`, `toUpper`)."""

    name: str
    arguments: tuple[Expression, ...]
    distinct: bool


@dataclass(frozen=True, slots=True)
class CountStar(Expression):
    """`count(*)`."""


@dataclass(frozen=True, slots=True)
class Case(Expression):
    """`CASE [subject] WHEN a THEN b ... [ELSE default] END`; with a subject, each `a` is compared to it."""

    subject: Expression | None
    alternatives: tuple[tuple[Expression, Expression], ...]
    default: Expression | None


@dataclass(frozen=True, slots=True)
class ListComprehension(Expression):
    """`[variable IN source WHERE where | projection]`."""

    variable: Variable
    source: Expression
    where: Expression | None
    projection: Expression | None


@dataclass(frozen=True, slots=True)
class PatternComprehension(Expression):
    """`[variable = pattern WHERE where | projection]`."""

    variable: Variable | None
    pattern: PathPattern
    where: Expression | None
    projection: Expression


@dataclass(frozen=True, slots=True)
class QuantifierExpression(Expression):
    """`all|any|none|single(variable IN source WHERE where)`."""

    kind: TypingLiteral["all", "any", "none", "single"]
    variable: Variable
    source: Expression
    where: Expression | None


@dataclass(frozen=True, slots=True)
class Reduce(Expression):
    """`reduce(accumulator = initial, variable IN source | expression)`."""

    accumulator: Variable
    initial: Expression
    variable: Variable
    source: Expression
    expression: Expression


@dataclass(frozen=True, slots=True)
class ExistsSubquery(Expression):
    """`EXISTS { ... }`: either a full `query`, or a bare `pattern` with an optional `where`."""

    query: Query | None
    pattern: Pattern | None
    where: Expression | None


@dataclass(frozen=True, slots=True)
class CountSubquery(Expression):
    """`COUNT { ... }`: either a full `query`, or a bare `pattern` with an optional `where`."""

    query: Query | None
    pattern: Pattern | None
    where: Expression | None


@dataclass(frozen=True, slots=True)
class CollectSubquery(Expression):
    """`COLLECT { ... RETURN x }`."""

    query: Query


@dataclass(frozen=True, slots=True)
class PatternExpression(Expression):
    """A bare relationship pattern used as a predicate or list of paths: `NOT (a)-[:R]->(b)`."""

    pattern: PathPattern


@dataclass(frozen=True, slots=True)
class MapProjection(Expression):
    """`variable {.key, .*, key: expression, other_variable}`."""

    variable: Variable
    items: tuple[MapProjectionItem, ...]


@dataclass(frozen=True, slots=True)
class PropertySelector(MapProjectionItem):
    """`.key` in a map projection."""

    key: str


@dataclass(frozen=True, slots=True)
class AllPropertiesSelector(MapProjectionItem):
    """`.*` in a map projection."""


@dataclass(frozen=True, slots=True)
class LiteralEntry(MapProjectionItem):
    """`key: expression` in a map projection."""

    key: str
    expression: Expression


@dataclass(frozen=True, slots=True)
class VariableSelector(MapProjectionItem):
    """A bare `variable` in a map projection: the entry `variable: variable`."""

    variable: Variable


# ----------------------------------------------------------------------------------------------------
# Label expressions


@dataclass(frozen=True, slots=True)
class LabelName(LabelExpression):
    name: str


@dataclass(frozen=True, slots=True)
class LabelOr(LabelExpression):
    left: LabelExpression
    right: LabelExpression


@dataclass(frozen=True, slots=True)
class LabelAnd(LabelExpression):
    left: LabelExpression
    right: LabelExpression


@dataclass(frozen=True, slots=True)
class LabelNot(LabelExpression):
    operand: LabelExpression


@dataclass(frozen=True, slots=True)
class LabelWildcard(LabelExpression):
    """`%`: any label (any type)."""


@dataclass(frozen=True, slots=True)
class DynamicLabels(LabelExpression):
    """`$(expression)`, `$all(expression)` or `$any(expression)` (Cypher 25): the labels (or types) a string or
    a list of strings names, all of them or any one (`quantifier`)."""

    expression: Expression
    quantifier: str


# ----------------------------------------------------------------------------------------------------
# Patterns


@dataclass(frozen=True, slots=True)
class Quantifier(SyntaxNode):
    """GQL quantifier `{m,n}`, `{n}`, `+` (1..), `*` (0..); a None bound is open."""

    min: int | None
    max: int | None


@dataclass(frozen=True, slots=True)
class VarLength(SyntaxNode):
    """Legacy variable length `*`, `*2`, `*1..3`, `*..3`, `*2..`; a None bound is open (`*2` is min=max=2)."""

    min: int | None
    max: int | None


@dataclass(frozen=True, slots=True)
class NodePattern(SyntaxNode):
    variable: Variable | None
    labels: LabelExpression | None
    properties: MapLiteral | Parameter | None
    where: Expression | None


@dataclass(frozen=True, slots=True)
class RelationshipPattern(SyntaxNode):
    """`-[variable:types {properties} WHERE where]->`; direction 'both' is undirected (`--`, also `<-->`)."""

    variable: Variable | None
    types: LabelExpression | None
    properties: MapLiteral | Parameter | None
    direction: TypingLiteral["right", "left", "both"]
    length: VarLength | None
    quantifier: Quantifier | None
    where: Expression | None


@dataclass(frozen=True, slots=True)
class QuantifiedPath(SyntaxNode):
    """A parenthesised group `((a)-[r]->(b) WHERE ...){1,3}` (quantifier None: a bare parenthesised path)."""

    pattern: PathPattern
    where: Expression | None
    quantifier: Quantifier | None
    variable: Variable | None = None
    """`(p = ... WHERE ...)`: a path variable declared inside a parenthesised path pattern."""


@dataclass(frozen=True, slots=True)
class PathPattern(SyntaxNode):
    """Nodes, relationships and quantified groups in order: node (rel node)* at the top level, where a
    `QuantifiedPath` may stand between two nodes (or next to another group)."""

    elements: tuple[NodePattern | RelationshipPattern | QuantifiedPath, ...]


@dataclass(frozen=True, slots=True)
class PathSelector(SyntaxNode):
    """`ANY`, `ALL SHORTEST`, `ANY SHORTEST`, `SHORTEST k`, `SHORTEST k GROUPS`, `ALL`; `mode` is the path
    mode keyword (WALK / TRAIL / ACYCLIC) written with or without a selector (kind 'all' when alone)."""

    kind: TypingLiteral["any", "all_shortest", "any_shortest", "shortest_k", "shortest_groups", "all"]
    count: int | Parameter | None
    mode: TypingLiteral["walk", "trail", "acyclic"] | None


@dataclass(frozen=True, slots=True)
class PatternPart(SyntaxNode):
    """`[variable =] [selector] element`, or `shortestPath(...)` / `allShortestPaths(...)` in `function`."""

    variable: Variable | None
    element: PathPattern
    selector: PathSelector | None
    function: TypingLiteral["shortestPath", "allShortestPaths"] | None


@dataclass(frozen=True, slots=True)
class Pattern(SyntaxNode):
    """Comma-separated pattern parts."""

    parts: tuple[PatternPart, ...]


# ----------------------------------------------------------------------------------------------------
# Projections


@dataclass(frozen=True, slots=True)
class ProjectionItem(SyntaxNode):
    """`expression [AS alias]`; `text` is the expression's exact source text, a variable's name for a variable
    (the column name if no alias)."""

    expression: Expression
    alias: str | None
    text: str

    @property
    def column(self) -> str:
        """The column (and variable) it names: its alias, else a variable's name (`RETURN `n`` names `n`, as
        in Neo4j), else the expression's text."""
        if self.alias is not None:
            return self.alias
        return self.expression.name if isinstance(self.expression, Variable) else self.text


@dataclass(frozen=True, slots=True)
class SortItem(SyntaxNode):
    expression: Expression
    descending: bool
    nulls_first: bool | None = None
    """`NULLS FIRST` (True) or `NULLS LAST` (False); None: Cypher's default, null the largest value."""


@dataclass(frozen=True, slots=True)
class Projection(SyntaxNode):
    """The body shared by WITH and RETURN. `star` is `*` (items then hold any further items)."""

    items: tuple[ProjectionItem, ...]
    star: bool
    distinct: bool
    order_by: tuple[SortItem, ...]
    skip: Expression | None
    limit: Expression | None


# ----------------------------------------------------------------------------------------------------
# Clause parts


@dataclass(frozen=True, slots=True)
class SetProperty(SetItem):
    """`n.key = value`."""

    target: PropertyLookup
    value: Expression


@dataclass(frozen=True, slots=True)
class SetDynamicProperty(SetItem):
    """`n[key] = value`."""

    target: Subscript
    value: Expression


@dataclass(frozen=True, slots=True)
class SetAllProperties(SetItem):
    """`n = map` (replaces every property)."""

    variable: Variable
    value: Expression


@dataclass(frozen=True, slots=True)
class MergeProperties(SetItem):
    """`n += map`."""

    variable: Variable
    value: Expression


@dataclass(frozen=True, slots=True)
class SetLabels(SetItem):
    """`n:A:B` (or `n IS A`)."""

    variable: Variable
    labels: tuple[str | DynamicLabels, ...]


@dataclass(frozen=True, slots=True)
class RemoveProperty(RemoveItem):
    """`n.key` (a PropertyLookup) or `n[key]` (a Subscript)."""

    target: PropertyLookup | Subscript


@dataclass(frozen=True, slots=True)
class RemoveLabels(RemoveItem):
    variable: Variable
    labels: tuple[str | DynamicLabels, ...]


@dataclass(frozen=True, slots=True)
class MergeAction(SyntaxNode):
    on: TypingLiteral["create", "match"]
    items: tuple[SetItem, ...]


@dataclass(frozen=True, slots=True)
class YieldItem(SyntaxNode):
    """`field [AS alias]` after YIELD."""

    field: str
    alias: Variable | None


@dataclass(frozen=True, slots=True)
class UsingIndex(Hint):
    """`USING INDEX [SEEK] n:Label(p, q)`."""

    variable: Variable
    label: str
    properties: tuple[str, ...]
    seek: bool


@dataclass(frozen=True, slots=True)
class UsingScan(Hint):
    """`USING SCAN n:Label`."""

    variable: Variable
    label: str


@dataclass(frozen=True, slots=True)
class UsingJoin(Hint):
    """`USING JOIN ON a, b`."""

    variables: tuple[Variable, ...]


# ----------------------------------------------------------------------------------------------------
# Clauses


@dataclass(frozen=True, slots=True)
class Search(SyntaxNode):
    """Cypher 25 `SEARCH variable IN (FULLTEXT|VECTOR INDEX name FOR query [WHERE ...] LIMIT k) [SCORE AS s]`,
    written in a MATCH after its pattern."""

    variable: Variable
    kind: TypingLiteral["fulltext", "vector"]
    index: str
    query: Expression
    limit: Expression
    where: Expression | None
    score: Variable | None


@dataclass(frozen=True, slots=True)
class Match(Clause):
    optional: bool
    pattern: Pattern
    where: Expression | None
    hints: tuple[Hint, ...] = ()
    mode: TypingLiteral["repeatable_elements", "different_relationships"] | None = None
    """The Cypher 25 match mode written after MATCH (None: the default, DIFFERENT RELATIONSHIPS)."""
    search: Search | None = None


@dataclass(frozen=True, slots=True)
class Unwind(Clause):
    expression: Expression
    variable: Variable


@dataclass(frozen=True, slots=True)
class With(Clause):
    projection: Projection
    where: Expression | None


@dataclass(frozen=True, slots=True)
class Return(Clause):
    projection: Projection


@dataclass(frozen=True, slots=True)
class Create(Clause):
    pattern: Pattern


@dataclass(frozen=True, slots=True)
class Merge(Clause):
    part: PatternPart
    actions: tuple[MergeAction, ...]


@dataclass(frozen=True, slots=True)
class SetClause(Clause):
    items: tuple[SetItem, ...]


@dataclass(frozen=True, slots=True)
class Remove(Clause):
    items: tuple[RemoveItem, ...]


@dataclass(frozen=True, slots=True)
class Delete(Clause):
    expressions: tuple[Expression, ...]
    detach: bool


@dataclass(frozen=True, slots=True)
class Foreach(Clause):
    """`FOREACH (variable IN source | clauses)`."""

    variable: Variable
    source: Expression
    clauses: tuple[Clause, ...]


@dataclass(frozen=True, slots=True)
class CallSubquery(Clause):
    """`[OPTIONAL] CALL [(a, b) | (*)] { query } [IN [n] [CONCURRENT] TRANSACTIONS [OF n ROWS]
    [ON ERROR ...] [REPORT STATUS AS s]]`.

    `importing` None is the old form (`CALL { WITH a ... }`, importing by a leading WITH inside the query);
    a tuple is the Cypher 5 scope clause `CALL (a, b)`; `import_all` is `CALL (*)`."""

    query: Query
    importing: tuple[Variable, ...] | None
    import_all: bool
    optional: bool
    in_transactions: bool
    batch_size: Expression | None = None
    on_error: TypingLiteral["continue", "break", "fail"] | None = None
    report_status: Variable | None = None
    concurrency: Expression | None = None
    concurrent: bool = False
    repeat_until: str | None = None
    """Not Cypher syntax (`apoc.periodic.commit` makes it): with IN TRANSACTIONS, the subquery runs again over
    the same rows, each run its own transaction, until its column of this name sums to 0."""


@dataclass(frozen=True, slots=True)
class CallProcedure(Clause):
    """`CALL name(arguments) [YIELD items [WHERE where]]`; arguments None: implicit (no parens)."""

    name: str
    arguments: tuple[Expression, ...] | None
    yield_items: tuple[YieldItem, ...] | None
    yield_star: bool
    where: Expression | None


@dataclass(frozen=True, slots=True)
class Finish(Clause):
    """`FINISH`: run the query, return nothing."""


@dataclass(frozen=True, slots=True)
class LoadCsv(Clause):
    """`LOAD CSV [WITH HEADERS] FROM url AS row [FIELDTERMINATOR 'c']`: one row per line of a CSV file, as a
    list of strings or, with headers, a map from the header's names."""

    url: Expression
    variable: Variable
    headers: bool
    terminator: str | None


@dataclass(frozen=True, slots=True)
class Let(Clause):
    """`LET x = e, ...` (Cypher 25): new variables beside every one in scope, as `WITH *, e AS x, ...`, but
    with no aggregate and no DISTINCT."""

    items: tuple[ProjectionItem, ...]


@dataclass(frozen=True, slots=True)
class Filter(Clause):
    """`FILTER condition` (Cypher 25): the rows for which it is true, as `WITH * WHERE condition`."""

    condition: Expression


@dataclass(frozen=True, slots=True)
class Page(Clause):
    """`ORDER BY ...`, `SKIP` / `OFFSET n` and `LIMIT n` as clauses of their own (Cypher 25), as `WITH * ORDER BY
    ... SKIP ... LIMIT ...`."""

    projection: Projection


# ----------------------------------------------------------------------------------------------------
# Statements


@dataclass(frozen=True, slots=True)
class SingleQuery(SyntaxNode):
    clauses: tuple[Clause, ...]


@dataclass(frozen=True, slots=True)
class Query(Statement):
    """One or more single queries joined by UNION; `union_all[i]` joins `parts[i]` and `parts[i + 1]`."""

    parts: tuple[SingleQuery, ...]
    union_all: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class CreateIndex(Statement):
    """`CREATE [kind] INDEX [name] [IF NOT EXISTS] FOR (n:L) ON (n.p, ...) [OPTIONS {...}]`.

    `labels` holds more than one label only for FULLTEXT (`(n:A|B)`); a LOOKUP index has no labels or
    properties and names its function (`labels` / `type`) in `function`."""

    name: str | Parameter | None
    kind: TypingLiteral["range", "text", "point", "fulltext", "vector", "lookup"]
    entity: TypingLiteral["node", "relationship"]
    variable: Variable
    labels: tuple[str, ...]
    properties: tuple[str, ...]
    if_not_exists: bool
    options: Expression | None
    function: str | None = None


@dataclass(frozen=True, slots=True)
class DropIndex(Statement):
    """`DROP INDEX name [IF EXISTS]` (also the legacy `DROP INDEX ON :L(p)`, kept in `label`/`properties`)."""

    name: str | Parameter | None
    if_exists: bool
    label: str | None = None
    properties: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CreateConstraint(Statement):
    """`CREATE CONSTRAINT [name] [IF NOT EXISTS] FOR (n:L) REQUIRE n.p IS UNIQUE | IS NODE KEY | IS NOT NULL |
    IS :: TYPE` (and the legacy `ON (n:L) ASSERT ...`)."""

    name: str | Parameter | None
    kind: TypingLiteral["unique", "node_key", "not_null", "property_type"]
    entity: TypingLiteral["node", "relationship"]
    variable: Variable
    label: str
    properties: tuple[str, ...]
    if_not_exists: bool
    property_type: str | None
    options: Expression | None = None


@dataclass(frozen=True, slots=True)
class DropConstraint(Statement):
    """`DROP CONSTRAINT name [IF EXISTS]`, or the legacy `DROP CONSTRAINT ON (n:L) ASSERT n.p IS UNIQUE`,
    whose description fills `kind`..`properties` (and leaves `name` None)."""

    name: str | Parameter | None
    if_exists: bool
    kind: str | None = None
    entity: str | None = None
    variable: Variable | None = None
    label: str | None = None
    properties: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ShowIndexes(Statement):
    """`SHOW [kind] INDEXES [YIELD ...] [WHERE ...] [RETURN ...]`; kind 'all' unless a kind word was given."""

    kind: str
    yield_items: tuple[YieldItem, ...] | None
    yield_star: bool
    where: Expression | None
    returns: Return | None


@dataclass(frozen=True, slots=True)
class ShowRoutines(Statement):
    """`SHOW [kind] PROCEDURES` or `SHOW [kind] FUNCTIONS` (`what`), with YIELD, WHERE and RETURN as for
    SHOW INDEXES."""

    what: str
    kind: str
    yield_items: tuple[YieldItem, ...] | None
    yield_star: bool
    where: Expression | None
    returns: Return | None


@dataclass(frozen=True, slots=True)
class ShowConstraints(Statement):
    """`SHOW [kind] CONSTRAINTS [YIELD ...] [WHERE ...] [RETURN ...]`."""

    kind: str
    yield_items: tuple[YieldItem, ...] | None
    yield_star: bool
    where: Expression | None
    returns: Return | None


@dataclass(frozen=True, slots=True)
class DatabaseCommand(Statement):
    """`CREATE DATABASE name [IF NOT EXISTS]`, `DROP DATABASE name [IF EXISTS]`, `SHOW DATABASES` or `SHOW
    DATABASE name` (ADR-0068): run by the connection, outside any graph's transaction. `if_exists` is IF NOT
    EXISTS for CREATE."""

    action: TypingLiteral["create", "drop", "show"]
    name: str | None
    if_exists: bool = False


SchemaCommand: TypeAlias = (
    CreateIndex | DropIndex | CreateConstraint | DropConstraint | ShowIndexes | ShowConstraints
)


# ----------------------------------------------------------------------------------------------------
# dump


def dump(node: object, indent: str = "  ") -> str:
    """An indented, span-free text of a tree: a node's scalar fields on its line, its children below it.

    Fields that are None, False or () are omitted (not a Literal's value): the text shows what was written::

        Match
          pattern: Pattern
            parts[0]: PatternPart
              element: PathPattern
                elements[0]: NodePattern
                  variable: Variable name='n'
    """
    lines: list[str] = []
    _dump_into(lines, node, "", 0, indent)
    return "\n".join(lines)


def _is_tree(value: object) -> bool:
    if isinstance(value, SyntaxNode):
        return True
    return isinstance(value, tuple) and any(_is_tree(item) for item in value)


def _dump_into(lines: list[str], value: object, label: str, depth: int, indent: str) -> None:
    pad = indent * depth
    prefix = f"{label}: " if label else ""
    if not isinstance(value, SyntaxNode):
        lines.append(f"{pad}{prefix}{value!r}")
        return
    scalars: list[str] = []
    children: list[tuple[str, object]] = []
    for spec in fields(value):
        if spec.name == "span":
            continue
        item = getattr(value, spec.name)
        if _is_tree(item):
            children.append((spec.name, item))
        elif item is None or item is False or item == ():
            if isinstance(value, Literal):
                scalars.append(f"{spec.name}={item!r}")
        else:
            scalars.append(f"{spec.name}={item!r}")
    lines.append(f"{pad}{prefix}{' '.join([type(value).__name__, *scalars])}")
    for name, child in children:
        _dump_children(lines, child, name, depth + 1, indent)


def _dump_children(lines: list[str], value: object, label: str, depth: int, indent: str) -> None:
    if isinstance(value, tuple):
        for index, item in enumerate(value):
            _dump_children(lines, item, f"{label}[{index}]", depth, indent)
    else:
        _dump_into(lines, value, label, depth, indent)


# ------------------------------------------------------------------------------------------------------
# Walking and rewriting the tree: the one API for both (bound trees have theirs, `semantic.bound.walk`)


def children(node: SyntaxNode) -> list[SyntaxNode]:
    """The nodes directly under `node`: its fields, the items of its tuples, and the parts of tuples of
    pairs (map entries, CASE alternatives)."""
    found: list[SyntaxNode] = []
    for spec in fields(node):
        if spec.name == "span":
            continue
        value = getattr(node, spec.name)
        for item in value if isinstance(value, tuple) else (value,):
            for part in item if isinstance(item, tuple) else (item,):
                if isinstance(part, SyntaxNode):
                    found.append(part)
    return found


def walk(root: SyntaxNode) -> Iterator[SyntaxNode]:
    """`root` and every node under it, breadth first (a clause's own names come before its subqueries')."""
    pending = [root]
    while pending:
        node = pending.pop(0)
        yield node
        pending.extend(children(node))


def replace_expressions(node: SyntaxNode, transform: Callable[[Expression], Expression]) -> SyntaxNode:
    """`node` with `transform` applied to each expression directly under it (in fields, tuples and tuples of
    pairs); `node` itself when nothing changed."""
    return _replace_children(node, transform, Expression)


def replace_children(node: SyntaxNode, transform: Callable[[SyntaxNode], SyntaxNode]) -> SyntaxNode:
    """`node` with `transform` applied to every syntax node directly under it (patterns too)."""
    return _replace_children(node, transform, SyntaxNode)


def replace_labels(labels: LabelExpression, transform: Callable[[LabelExpression], LabelExpression]) -> LabelExpression:
    """`labels` with `transform` applied to the label expressions directly under it (the operands of `&`, `|`
    and `!`); `labels` itself when it has none or nothing changed."""
    return _replace_children(labels, transform, LabelExpression)  # type: ignore[return-value]


def _replace_children(node: SyntaxNode, transform: Callable, kind: type) -> SyntaxNode:  # type: ignore[type-arg]
    changes: dict[str, object] = {}
    for spec in fields(node):
        if spec.name == "span":
            continue
        value = getattr(node, spec.name)
        new = _replaced(value, transform, kind)
        if new is not value:
            changes[spec.name] = new
    return replace(node, **changes) if changes else node


def _replaced(value: object, transform: Callable, kind: type) -> object:  # type: ignore[type-arg]
    if isinstance(value, kind):
        return transform(value)
    if isinstance(value, tuple) and value:
        items = tuple(_replaced(item, transform, kind) for item in value)
        return items if any(new is not old for new, old in zip(items, value, strict=True)) else value
    return value



def replace_spans(node: SyntaxNode, span: Span) -> SyntaxNode:
    """`node` with its own span `span` (its children keep theirs)."""
    return node if node.span == span else replace(node, span=span)
