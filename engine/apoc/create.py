"""APOC Core's `apoc.create.node`, `apoc.create.nodes` and `apoc.create.relationship`: writing procedures
bound as the CREATE and SET they perform (procedure macros, ADR-0060), so they are set-based, counted and
refused by a read-only call like any CREATE. Labels may come from the row (SET takes them); a relationship's
type must be known when the statement compiles (a literal or a parameter), as in a CREATE pattern."""

from __future__ import annotations

from engine.semantic.procedure_macros import ProcedureMacro, subquery_macro

_LABELS = "FOREACH (`__l` IN coalesce(__a0, []) | SET `__out_node`:$(`__l`))"

PROCEDURE_MACROS: tuple[ProcedureMacro, ...] = (
    subquery_macro("apoc.create.node", (("labels", "LIST<STRING>"), ("props", "MAP")), (("node", "NODE"),),
                   "WRITE", f"CREATE (`__out_node`) {_LABELS} SET `__out_node` += coalesce(__a1, {{}})"),
    subquery_macro("apoc.create.nodes", (("labels", "LIST<STRING>"), ("props", "LIST<MAP>")), (("node", "NODE"),),
                   "WRITE", f"UNWIND __a1 AS `__p` CREATE (`__out_node`) {_LABELS}"
                            " SET `__out_node` += coalesce(`__p`, {})"),
    subquery_macro("apoc.create.relationship", (("from", "NODE"), ("relType", "STRING"), ("props", "MAP"),
                                                ("to", "NODE")), (("rel", "RELATIONSHIP"),),
                   "WRITE", "WITH __a0 AS `__from`, __a3 AS `__to` CREATE (`__from`)-[`__out_rel`:$(__a1)]->(`__to`)"
                            " SET `__out_rel` += coalesce(__a2, {})"),
)
