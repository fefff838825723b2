"""APOC Core's virtual nodes and relationships made from rows (ADR-0074): the functions `apoc.create.vNode`,
`apoc.create.vRelationship` and `apoc.create.virtual.fromNode`, and the procedures `apoc.create.vNode`,
`vNodes`, `vRelationship`, `vPattern`, `vPatternFull` and `virtualPath`, which are those functions in a WITH
(procedure macros, ADR-0060). The value is ADR-0071's, carrying its labels or type, properties and ends; each call
makes its element's id from the row's number and the call's place in the statement
(`sqlgen.virtual_elements`), so everything runs in the clause's one SELECT.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import types as t
from engine.semantic import bound as b
from engine.semantic.procedure_macros import ProcedureMacro, with_outputs, yielded
from engine.sqlgen.expressions import ExpressionCompiler
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.sql import Term, let
from engine.sqlgen.virtual_elements import node_payload, path_payload, relationship_payload, virtual_id
from engine.syntax import ast

EMPTY_MAP = "CAST('{}' AS JSON)::VARIANT"
EMPTY_LIST = "[]::VARIANT[]::VARIANT"


def _checked(value: str, kind: int, what: str, default: str) -> str:
    """`value` (a VARIANT) when of kind code `kind`, `default` when null, else an argument error naming `what`."""
    return (f"CASE cy_kind({value}) WHEN {kind} THEN {value} WHEN 0 THEN {default} ELSE "
            + error_sql("TypeError", "InvalidArgumentValue", f"'{what}, got ' || cy_type_name({value})") + " END")


def _properties(c: ExpressionCompiler, f: b.BFunction, index: int, name: str) -> str:
    if len(f.arguments) <= index:
        return Term(EMPTY_MAP)
    return _checked(c.variant(f.arguments[index]), 6, f"{name}() expects a map of properties", EMPTY_MAP)


def _label_list(value: str, name: str) -> str:
    """A label list argument as the VARIANT list of strings a virtual node holds: null is no labels."""
    return let([value], lambda v: (
        f"CASE WHEN cy_kind({v}) = 0 THEN {EMPTY_LIST} WHEN cy_kind({v}) = 5 AND list_bool_and(list_transform("
        f"CAST({v} AS VARIANT[]), lambda l: cy_kind(l) = 4)) IS NOT false THEN {v} ELSE "
        + error_sql("TypeError", "InvalidArgumentValue",
                    f"'{name}() expects a list of label strings, got ' || cy_type_name({v})") + " END"))


def _vnode(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.create.vNode(labels, props = {}): a virtual node."""
    return node_payload(virtual_id(c.context, f, "apoc.create.vNode"), _label_list(c.variant(f.arguments[0]),
                                                                                   "apoc.create.vNode"),
                        _properties(c, f, 1, "apoc.create.vNode"))


def _end(c: ExpressionCompiler, argument: b.BoundExpression, which: str) -> str:
    """A virtual relationship's end: a node (stored or virtual), as its VARIANT; anything else, null included,
    is an argument error, as APOC's "The inserted ... Node is null"."""
    return let([c.variant(argument)], lambda v: (
        f"CASE WHEN cy_kind({v}) = 7 THEN {v} ELSE "
        + error_sql("TypeError", "InvalidArgumentValue",
                    f"'apoc.create.vRelationship() expects a node as its {which}, got ' || cy_type_name({v})")
        + " END"))


def _vrelationship(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.create.vRelationship(from, relType, props, to): a virtual relationship between two nodes."""
    start, rel_type, _, end = f.arguments
    type_sql = let([c.string(rel_type)], lambda v: (
        f"CASE WHEN {v} IS NULL OR {v} = '' THEN "
        + error_sql("TypeError", "InvalidArgumentValue",
                    "'apoc.create.vRelationship() expects a relationship type'") + f" ELSE {v} END"))
    return relationship_payload(virtual_id(c.context, f, "apoc.create.vRelationship"), type_sql,
                                _end(c, start, "start"), _end(c, end, "end"),
                                _properties(c, f, 2, "apoc.create.vRelationship"))


def _from_node(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.create.virtual.fromNode(node, propertyNames): a virtual copy of a node with the properties named
    (those it has). As APOC's, its id is -id - 1 for a stored node and the same id for a virtual one."""
    node, names = f.arguments
    span = f.span
    node_id = c.integer(b.BFunction("id", (node,), type=t.INTEGER, span=span))
    labels = c.variant(b.BFunction("labels", (node,), type=t.list_of(t.STRING), span=span))
    properties = c.variant(b.BFunction("properties", (node,), type=t.MAP, span=span))
    keys = c.compile_as(names, t.list_of(t.STRING))
    kept = let([properties, keys], lambda p, k: (
        f"CAST(CAST(map_from_entries(list_filter(list_transform({k}, lambda k: {{'key': k, 'value':"
        f" cy_map_get({p}, k)}}), lambda e: e.value IS NOT NULL)) AS JSON) AS VARIANT)"))
    identity = let([node_id], lambda i: f"CASE WHEN {i} < 0 THEN {i} ELSE -{i} - 1 END")
    payload = node_payload(identity, labels, f"coalesce({kept}, {EMPTY_MAP})")
    return let([node_id], lambda i: f"CASE WHEN {i} IS NULL THEN NULL ELSE {payload} END")


def _clone_relationship(c: ExpressionCompiler, f: b.BFunction) -> str:
    """`__virtual_copy(rel, start, end)`: a virtual copy of a stored relationship between the virtual copies of its
    ends, with its type and properties; its id is -id - 1, as APOC's `VirtualRelationship.from`."""
    rel, start, end = f.arguments
    span = f.span
    rel_id = c.integer(b.BFunction("id", (rel,), type=t.INTEGER, span=span))
    rel_type = c.string(b.BFunction("type", (rel,), type=t.STRING, span=span))
    properties = c.variant(b.BFunction("properties", (rel,), type=t.MAP, span=span))
    payload = let([rel_id], lambda i: relationship_payload(
        f"CASE WHEN {i} < 0 THEN {i} ELSE -{i} - 1 END", rel_type, c.variant(start), c.variant(end),
        f"coalesce({properties}, {EMPTY_MAP})"))
    return let([rel_id], lambda i: f"CASE WHEN {i} IS NULL THEN NULL ELSE {payload} END")


def _virtual_path(c: ExpressionCompiler, f: b.BFunction) -> str:
    """`__virtual_path(nodes, rels)`: the path of virtual elements of those lists; null for no nodes."""
    nodes, rels = (c.compile_as(argument, t.list_of(t.ANY)) for argument in f.arguments)
    return let([nodes, rels], lambda n, r: f"CASE WHEN len({n}) > 0 THEN {path_payload(n, r)} END")


SIGNATURES = [
    ("apoc.create.vnode", 1, 2, t.ANY), ("apoc.create.vrelationship", 4, 4, t.ANY),
    ("apoc.create.virtual.fromnode", 2, 2, t.ANY), ("__virtual_copy", 3, 3, t.ANY), ("__virtual_path", 2, 2, t.ANY),
]
"""(lower-case name, least and most arguments, result type): a virtual element is a VARIANT (ADR-0071)."""

FUNCTIONS = {"apoc.create.vnode": _vnode, "apoc.create.vrelationship": _vrelationship,
             "apoc.create.virtual.fromnode": _from_node, "__virtual_copy": _clone_relationship,
             "__virtual_path": _virtual_path}

MAKERS = ("apoc.create.vnode", "apoc.create.vrelationship")
"""The functions whose every call makes a new element, with an id of its own (`VIRTUAL_MAKERS`)."""


def _with_macro(name: str, inputs: tuple[tuple[str, str], ...], outputs: tuple[tuple[str, str], ...],
                body: str, defaults: tuple[str, ...] = ()) -> ProcedureMacro:
    """A procedure that is functions of its arguments: `body` (Cypher clauses over `__a0`, ...) ends binding
    each output `o` as `__out_o`, and a WITH names the outputs the call yields (every one when it stands
    alone). Unlike a `subquery_macro`, it stays in the clause's SELECT, whose rows number the ids."""

    def expand(call: ast.CallProcedure, standalone: bool, params: Mapping[str, Any]) -> tuple[ast.Clause, ...]:
        return with_outputs(body, call, yielded(call, name, outputs, standalone), standalone)

    return ProcedureMacro(name, inputs, outputs, "READ", expand, defaults)


_V_NODE = "apoc.create.vNode"
_V_REL = "apoc.create.vRelationship"
_NODE = (("node", "NODE"),)
_PATTERN = (("from", "NODE"), ("rel", "RELATIONSHIP"), ("to", "NODE"))
_PATTERN_BODY = (f"WITH *, {_V_NODE}(__a0, __a1) AS `__out_from`, {_V_NODE}(__a4, __a5) AS `__out_to`"
                 f" WITH *, {_V_REL}(`__out_from`, __a2, __a3, `__out_to`) AS `__out_rel`")

_PATTERN_FULL_INPUTS = (("labelsN", "LIST<STRING>"), ("n", "MAP"), ("relType", "STRING"), ("props", "MAP"),
                        ("labelsM", "LIST<STRING>"), ("m", "MAP"))
"""vPatternFull's inputs, and virtualPath's: APOC's two procedures are one (`from`, `rel`, `to` yielded)."""

_CLONE = (
    # the path's nodes, then its relationships, copied in walking order (a null path: no nodes, a null path)
    "CALL (`__p`) { UNWIND range(0, coalesce(length(`__p`), 0)) AS `__i` WITH `__p`, `__i`,"
    " nodes(`__p`)[`__i`] AS `__n` ORDER BY `__i`"
    " RETURN collect(apoc.create.virtual.fromNode(`__n`, keys(`__n`))) AS `__vn` }"
    " CALL (`__p`, `__vn`) { UNWIND range(0, coalesce(length(`__p`), 0) - 1) AS `__i`"
    " WITH `__p`, `__vn`, `__i`, relationships(`__p`)[`__i`] AS `__r` ORDER BY `__i`"
    " WITH `__i`, `__r`, id(startNode(`__r`)) = id(nodes(`__p`)[`__i`]) AS `__forward`, `__vn`"
    " RETURN collect(`__virtual_copy`(`__r`, CASE WHEN `__forward` THEN `__vn`[`__i`] ELSE `__vn`[`__i` + 1] END,"
    " CASE WHEN `__forward` THEN `__vn`[`__i` + 1] ELSE `__vn`[`__i`] END)) AS `__vr` }"
    " WITH *, `__virtual_path`(`__vn`, `__vr`) AS `__out_path`"
)
"""apoc.create.clonePathToVirtual's body over the path `__p`: a path of virtual copies of its nodes (APOC's
`VirtualNode(node, keys)`, id -id - 1) and relationships (`VirtualRelationship.from`), ADR-0087."""

PROCEDURE_MACROS: tuple[ProcedureMacro, ...] = (
    _with_macro("apoc.create.clonePathToVirtual", (("path", "PATH"),), (("path", "PATH"),),
                f"WITH *, __a0 AS `__p` {_CLONE}"),
    _with_macro("apoc.create.clonePathsToVirtual", (("paths", "LIST<PATH>"),), (("path", "PATH"),),
                f"UNWIND __a0 AS `__p` {_CLONE}"),
    _with_macro(_V_NODE, (("labels", "LIST<STRING>"), ("props", "MAP")), _NODE,
                f"WITH *, {_V_NODE}(__a0, __a1) AS `__out_node`", ("{}",)),
    _with_macro("apoc.create.vNodes", (("labels", "LIST<STRING>"), ("props", "LIST<MAP>")), _NODE,
                f"UNWIND coalesce(__a1, []) AS `__p` WITH *, {_V_NODE}(__a0, `__p`) AS `__out_node`"),
    _with_macro(_V_REL, (("from", "NODE"), ("relType", "STRING"), ("props", "MAP"), ("to", "NODE")),
                (("rel", "RELATIONSHIP"),), f"WITH *, {_V_REL}(__a0, __a1, __a2, __a3) AS `__out_rel`"),
    _with_macro("apoc.create.vPattern", (("from", "MAP"), ("relType", "STRING"), ("props", "MAP"), ("to", "MAP")),
                _PATTERN,
                f"WITH *, {_V_NODE}(coalesce(__a0._labels, []), apoc.map.removeKey(coalesce(__a0, {{}}), '_labels'))"
                f" AS `__out_from`, {_V_NODE}(coalesce(__a3._labels, []), apoc.map.removeKey(coalesce(__a3, {{}}),"
                f" '_labels')) AS `__out_to` WITH *, {_V_REL}(`__out_from`, __a1, __a2, `__out_to`) AS `__out_rel`"),
    *(_with_macro(name, _PATTERN_FULL_INPUTS, _PATTERN, _PATTERN_BODY)
      for name in ("apoc.create.vPatternFull", "apoc.create.virtualPath")),
)
