"""`apoc.meta.graph.of(graph, config)`: the meta-graph (ADR-0071's shape) of part of the graph, given as a
Cypher query (a string literal) whose results' nodes, relationships and paths make the part, or as a
`{nodes, relationships}` map made on the row (APOC's `NodesAndRelsSubGraph`).

A procedure macro (ADR-0060), set-based: the part is gathered with `apoc.agg.graph` (and, for a query, the
stored relationships between its nodes, APOC's `addRelationshipsBetweenNodes`, on by default); a label's count
is how many of the part's nodes have it; a (start label, type, end label) pair of the part's labels is kept
where some relationship of the type leaves a node of the start label (`out`) and some enters one of the end
label (`in`), `count` being the part's relationships of the type. As APOC's `removeMissing`, a pair that shares
its start label and type, or its type and end label, with another is kept only where the store has such a
relationship. The virtual elements are made by `apoc.create.vNode` / `vRelationship` (ADR-0074 ids).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine import types as t
from engine.apoc.cypher import inner_query
from engine.errors import UnsupportedFeature
from engine.semantic import bound as b
from engine.semantic.procedure_macros import ProcedureMacro, with_outputs, yielded
from engine.sqlgen.expressions import ExpressionCompiler
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.sql import let
from engine.syntax import ast

_HELPER = re.compile(r"`__(?!graph_map_nodes`)(\w+)`")
"""A helper variable of the body (backticked, unlike the arguments `__a0`, ...)."""

_OUTPUTS = (("nodes", "LIST<NODE>"), ("relationships", "LIST<RELATIONSHIP>"))
_NAME = "apoc.meta.graph.of"

_BETWEEN = ("CALL (`__g`) { OPTIONAL MATCH (`__x`)-[`__r`]->(`__y`) WHERE `__x` IN `__g`.nodes AND `__y` IN"
            " `__g`.nodes RETURN collect(`__r`) AS `__between` }")
"""The stored relationships between the part's nodes."""

_META = (
    # the part's labels, counted over its nodes
    " CALL (`__ns`) { UNWIND `__ns` AS `__n` UNWIND labels(`__n`) AS `__l` WITH `__l`, count(*) AS `__c`"
    " ORDER BY `__l` RETURN collect({name: `__l`, count: `__c`}) AS `__lc`, collect(`__l`) AS `__labels` }"
    # per pair of the part's labels and type: the relationships leaving the one, entering the other, in all
    " CALL (`__rs`, `__labels`) { UNWIND `__rs` AS `__r` WITH DISTINCT `__r`, `__labels`"
    " WITH type(`__r`) AS `__t`, labels(startNode(`__r`)) AS `__sl`, labels(endNode(`__r`)) AS `__el`, `__labels`"
    " UNWIND `__labels` AS `__s` UNWIND `__labels` AS `__e`"
    " WITH `__s`, `__t`, `__e`, sum(CASE WHEN `__s` IN `__sl` THEN 1 ELSE 0 END) AS `__o`,"
    " sum(CASE WHEN `__e` IN `__el` THEN 1 ELSE 0 END) AS `__i`, count(*) AS `__k`"
    " WHERE `__o` > 0 AND `__i` > 0"
    # APOC's removeMissing: a pair sharing its start label and type, or its type and end label, with another
    # is kept where the store has such a relationship
    " WITH `__s`, `__t`, collect({e: `__e`, o: `__o`, i: `__i`, k: `__k`}) AS `__ends`"
    " UNWIND `__ends` AS `__x` WITH `__t`, `__x`.e AS `__e`, collect({s: `__s`, o: `__x`.o, i: `__x`.i,"
    " k: `__x`.k, ps: size(`__ends`)}) AS `__starts`"
    " UNWIND `__starts` AS `__y` WITH `__y`.s AS `__s`, `__t`, `__e`, `__y`.o AS `__o`, `__y`.i AS `__i`,"
    " `__y`.k AS `__k`, `__y`.ps AS `__ps`, size(`__starts`) AS `__pe`"
    " WHERE (`__ps` = 1 AND `__pe` = 1)"
    " OR EXISTS { MATCH (:$(`__s`))-[:$(`__t`)]->(:$(`__e`)) }"
    " WITH * ORDER BY `__t`, `__s`, `__e`"
    " RETURN collect({s: `__s`, t: `__t`, e: `__e`, out: `__o`, in: `__i`, count: `__k`}) AS `__kept` }"
    " WITH *, [`__x` IN `__lc` | apoc.create.vNode([`__x`.name], `__x`)] AS `__out_nodes`"
    " WITH *, [`__p` IN `__kept` | apoc.create.vRelationship("
    "`__out_nodes`[apoc.coll.indexOf(`__labels`, `__p`.s)], `__p`.t,"
    " {type: `__p`.t, out: `__p`.out, in: `__p`.in, count: `__p`.count},"
    " `__out_nodes`[apoc.coll.indexOf(`__labels`, `__p`.e)])] AS `__out_relationships`"
)


def _expand(call: ast.CallProcedure, standalone: bool, params: Mapping[str, Any]) -> tuple[ast.Clause, ...]:
    assert call.arguments is not None
    chosen = yielded(call, _NAME, _OUTPUTS, standalone)
    graph = call.arguments[0]
    if isinstance(graph, ast.Literal) and isinstance(graph.value, str):
        query = inner_query(_NAME, "graph", graph, ast.MapLiteral((), span=call.span), writes=False,
                            span=call.span, end="WITH")
        gathered = f"CALL () {{ WITH {{}} AS `__params` {query} RETURN apoc.agg.graph(`__out_value`) AS `__g` }}"
        if _adds_between(call.arguments[1], call):
            gathered += f" {_BETWEEN} WITH *, `__g`.nodes AS `__ns`, `__g`.relationships + `__between` AS `__rs`"
        else:
            gathered += " WITH *, `__g`.nodes AS `__ns`, `__g`.relationships AS `__rs`"
    else:
        gathered = ("WITH *, `__graph_map_nodes`(__a0) AS `__ns`,"
                    " coalesce(__a0.relationships, []) AS `__rs`")
    suffix = f"_{call.span.start}"  # two calls in one statement keep their helpers apart
    body = _HELPER.sub(lambda found: f"`__{found[1]}{suffix}`", f"{gathered} {_META}")
    return with_outputs(body, call, chosen, standalone, suffix)


def _adds_between(config: ast.Expression, call: ast.CallProcedure) -> bool:
    """The config's `addRelationshipsBetweenNodes` (true unless it says otherwise), which decides the query's
    SQL: a literal map's boolean; a config the statement's text does not give is refused (its other keys,
    `sample` and `maxRels`, change nothing here)."""
    if not isinstance(config, ast.MapLiteral):
        if isinstance(config, ast.Literal) and config.value is None:
            return True
        raise UnsupportedFeature(f"{_NAME} of a query with a config that is not a map literal (its"
                                 " `addRelationshipsBetweenNodes` decides the query the engine compiles)", call.span)
    given = dict(config.entries).get("addRelationshipsBetweenNodes")
    if given is None:
        return True
    if not (isinstance(given, ast.Literal) and isinstance(given.value, bool)):
        raise UnsupportedFeature(f"{_NAME} with an `addRelationshipsBetweenNodes` that is not true or false written"
                                 " in the statement", call.span)
    return given.value


def _graph_map_nodes(c: ExpressionCompiler, f: b.BFunction) -> str:
    """The `nodes` of a `{nodes, relationships}` map; APOC's errors for a map without them, or no map."""
    return let([c.variant(f.arguments[0])], lambda g: (
        f"CASE WHEN cy_kind({g}) = 6 AND cy_map_get({g}, 'nodes') IS NOT NULL THEN cy_map_get({g}, 'nodes')"
        f" WHEN cy_kind({g}) = 6 THEN " + error_sql(
            "ArgumentError", "InvalidArgumentValue",
            "'Graph Map must contains `nodes` field and `relationships` optionally'")
        + " ELSE " + error_sql("ArgumentError", "InvalidArgumentValue",
                               "'Supported inputs are String, VirtualGraph, Map'") + " END"))


SIGNATURES = [("__graph_map_nodes", 1, 1, t.ANY)]
FUNCTIONS = {"__graph_map_nodes": _graph_map_nodes}

PROCEDURE_MACROS: tuple[ProcedureMacro, ...] = (
    ProcedureMacro(_NAME, (("graph", "ANY"), ("config", "MAP")), _OUTPUTS, "READ", _expand, ("{}",)),
)
