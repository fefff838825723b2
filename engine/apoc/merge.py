"""APOC Core's `apoc.merge.node` and `apoc.merge.relationship` (and their `.eager` twins, the same here: a
statement's reads never see its own later writes): the MERGE they perform, with ON CREATE / ON MATCH SET of
the maps given (procedure macros, ADR-0060). Labels and the type may come from the row (ADR-0061); the
identifying properties are a pattern's property map, so their keys must be known when the statement compiles
(a map literal such as LangChain's `{id: row.id}`, or a parameter)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.semantic.procedure_macros import ProcedureMacro, subquery_macro
from engine.syntax import ast

_IDENT = "__identProps"
"""The key of the map literal `{__identProps: 0}` that stands in the bodies for the identifying properties:
Cypher takes only a map literal there, so the argument is spliced in after parsing (`_with_ident`)."""

_NODE_INPUTS = (("labels", "LIST<STRING>"), ("identProps", "MAP"), ("onCreateProps", "MAP"),
                ("onMatchProps", "MAP"))
_NODE_BODY = ("MERGE (`__out_node`:$(__a0) {__identProps: 0}) ON CREATE SET `__out_node` += coalesce(__a2, {})"
              " ON MATCH SET `__out_node` += coalesce(__a3, {})")
_REL_INPUTS = (("startNode", "NODE"), ("relType", "STRING"), ("identProps", "MAP"), ("onCreateProps", "MAP"),
               ("endNode", "NODE"), ("onMatchProps", "MAP"))
_REL_BODY = ("WITH *, __a0 AS `__from`, __a4 AS `__to`"
             " MERGE (`__from`)-[`__out_rel`:$(__a1) {__identProps: 0}]->(`__to`)"
             " ON CREATE SET `__out_rel` += coalesce(__a3, {}) ON MATCH SET `__out_rel` += coalesce(__a5, {})")



def _with_ident(macro: ProcedureMacro, position: int) -> ProcedureMacro:
    """`macro` whose body's `{__identProps: 0}` is the call's argument at `position`."""

    def expand(call: ast.CallProcedure, standalone: bool, params: Mapping[str, Any]) -> tuple[ast.Clause, ...]:
        assert call.arguments is not None
        ident = call.arguments[position]
        return tuple(_splice(clause, ident) for clause in macro.expand(call, standalone, params))  # type: ignore[misc]

    return replace(macro, expand=expand)


def _splice(node: ast.SyntaxNode, ident: ast.Expression) -> ast.SyntaxNode:
    if isinstance(node, ast.MapLiteral) and [key for key, _ in node.entries] == [_IDENT]:
        return ident
    return ast.replace_children(node, lambda child: _splice(child, ident))


PROCEDURE_MACROS: tuple[ProcedureMacro, ...] = tuple(
    macro for suffix in ("", ".eager") for macro in (
        _with_ident(subquery_macro(f"apoc.merge.node{suffix}", _NODE_INPUTS, (("node", "NODE"),), "WRITE",
                                   _NODE_BODY, defaults=("{}", "{}")), 1),
        _with_ident(subquery_macro(f"apoc.merge.relationship{suffix}", _REL_INPUTS, (("rel", "RELATIONSHIP"),),
                                   "WRITE", _REL_BODY, defaults=("{}",)), 2),
    ))
