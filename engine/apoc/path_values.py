"""APOC Core's functions over path values: `apoc.path.create`, `combine`, `elements` and `slice`
(`apoc.path.Paths`). A path is the engine's `STRUCT(nodes BIGINT[], rels BIGINT[])`, its relationships'
directions read off the store when it prints, so each function is list arithmetic on the two id lists; only
`create` reads the store, for the ends of its relationships (one subquery), to walk from the start node.

As APOC's `PathImpl.Builder`, a relationship that does not touch the node the path has reached is an error
(Neo4j's "not connected to this relationship"), and so are paths `combine` cannot join. Paths hold stored
elements only: a virtual node or relationship (ADR-0071) is refused where one is given.
"""

from __future__ import annotations

from engine import types as t
from engine.errors import UnsupportedFeature
from engine.semantic import bound as b
from engine.sqlgen.expressions import ExpressionCompiler, entity_id_of
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.sql import Term, let
from engine.types import Kind

PATH_SQL = "STRUCT(nodes BIGINT[], rels BIGINT[])"
ACCEPTS_PATH = frozenset({Kind.PATH})


def path_of(c: ExpressionCompiler, argument: b.BoundExpression) -> str:
    """A path argument as the path STRUCT (a VARIANT that holds no path is a type error on its row)."""
    if argument.type.kind is Kind.PATH:
        return c.compile(argument)
    if argument.type.kind is Kind.NULL:
        return Term(f"NULL::{PATH_SQL}")
    return f"cy_path_value({c.variant(argument)})"


def _path(nodes: str, rels: str) -> str:
    return f"struct_pack(nodes := {nodes}, rels := {rels})"


def _relationship_ids(c: ExpressionCompiler, argument: b.BoundExpression) -> str:
    """A list of relationships as their ids (BIGINT[]): an element that is no relationship is a type error, a
    virtual one unsupported (`cy_rel_id`)."""
    items, element = c.list_value(argument)
    if element.kind is Kind.RELATIONSHIP:
        return items
    return f"list_transform({items}, lambda x: {entity_id_of(Term('x'), element, 'relationship')})"


def _create(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.path.create(startNode, rels = []): the path from the start node along the relationships, nulls
    among them skipped; each next node is the relationship's other end."""
    if c.context.lambda_depth:
        raise UnsupportedFeature("apoc.path.create() inside a list expression", f.span)
    start = c.entity_id(f.arguments[0], "node")
    given = _relationship_ids(c, f.arguments[1]) if len(f.arguments) > 1 else "[]::BIGINT[]"
    unconnected = error_sql("ArgumentError", "InvalidArgumentValue",
                            "'apoc.path.create(): relationship ' || e.id || ' is not connected to node '"
                            " || p[-1]")
    # a subquery may not read a lambda's variable: the relationships' ends are read before any is bound
    ends = f"(SELECT list(struct_pack(id := id, s := src, d := dst)) FROM rels WHERE list_contains({given}, id))"
    rels = f"list_filter(coalesce({given}, []::BIGINT[]), lambda r: r IS NOT NULL)"

    def walk(s: str, r: str, e: str) -> str:
        steps = f"list_transform({r}, lambda x: list_filter(coalesce({e}, []), lambda y: y.id = x)[1])"
        nodes = (f"list_reduce({steps}, lambda p, e: list_append(p, CASE WHEN p[-1] = e.s THEN e.d"
                 f" WHEN p[-1] = e.d THEN e.s ELSE {unconnected} END), [{s}])")
        return f"CASE WHEN {s} IS NULL THEN NULL ELSE {_path(nodes, r)} END"
    return let([start, rels, ends], walk)


def _combine(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.path.combine(path1, path2): the first path followed by the second, which must start where the
    first ends; a null path gives the other."""
    apart = error_sql("ArgumentError", "InvalidArgumentValue",
                      "'apoc.path.combine(): the paths don''t connect on their end and start nodes'")
    return let([path_of(c, f.arguments[0]), path_of(c, f.arguments[1])], lambda one, two: (
        f"CASE WHEN {one} IS NULL THEN {two} WHEN {two} IS NULL THEN {one}"
        f" WHEN {one}.nodes[-1] <> {two}.nodes[1] THEN {apart}"
        f" ELSE {_path(f'list_concat({one}.nodes, {two}.nodes[2:])', f'list_concat({one}.rels, {two}.rels)')} END"))


def _elements(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.path.elements(path): node, relationship, node, ... as one list."""
    return let([path_of(c, f.arguments[0])], lambda p: (
        f"CASE WHEN {p} IS NULL THEN NULL ELSE list_transform(range(1, 2 * len({p}.nodes)), lambda i:"
        f" CASE WHEN i % 2 = 1 THEN cy_node({p}.nodes[(i + 1) // 2]) ELSE cy_rel({p}.rels[i // 2]) END) END"))


def _slice(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.path.slice(path, offset = 0, length = -1): the sub-path from the offset-th node (a negative offset
    is 0, one past the end the last node), of `length` relationships at most (-1: all the rest; another
    negative length: none), as APOC's `Paths.slice` walks it."""
    offset = c.integer(f.arguments[1]) if len(f.arguments) > 1 else "0"
    length = c.integer(f.arguments[2]) if len(f.arguments) > 2 else "-1"

    def cut(p: str, o: str, n: str) -> str:
        size = f"len({p}.rels)"
        first = f"least(greatest({o}, 0), {size})"
        wanted = f"CASE WHEN {n} = -1 THEN {size} - greatest({o}, 0) ELSE {n} END"
        return let([first, wanted], lambda s, k: let([f"greatest(0, least({k}, {size} - {s}))"], lambda m: (
            f"CASE WHEN {p} IS NULL OR {o} IS NULL OR {n} IS NULL THEN NULL ELSE "
            f"{_path(f'{p}.nodes[{s} + 1:{s} + {m} + 1]', f'{p}.rels[{s} + 1:{s} + {m}]')} END")))
    return let([path_of(c, f.arguments[0]), offset, length], cut)


SIGNATURES = [
    ("apoc.path.create", 1, 2, t.PATH), ("apoc.path.combine", 2, 2, t.PATH, (ACCEPTS_PATH, ACCEPTS_PATH)),
    ("apoc.path.elements", 1, 1, t.ANY_LIST, (ACCEPTS_PATH,)), ("apoc.path.slice", 1, 3, t.PATH, (ACCEPTS_PATH,)),
]
"""(lower-case name, least and most arguments, result type[, the kinds each argument accepts])."""

FUNCTIONS = {"apoc.path.create": _create, "apoc.path.combine": _combine, "apoc.path.elements": _elements,
             "apoc.path.slice": _slice}
