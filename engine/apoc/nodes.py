"""APOC Core's `apoc.nodes.get(nodes)`: the nodes a list names by id, element id or node (one value or a list;
null and unknown ones skipped), as the MATCH it stands for (procedure macros, ADR-0060)."""

from __future__ import annotations

from engine.semantic.procedure_macros import ProcedureMacro, subquery_macro

PROCEDURE_MACROS: tuple[ProcedureMacro, ...] = (
    subquery_macro("apoc.nodes.get", (("nodes", "ANY"),), (("node", "NODE"),), "READ",
                   "UNWIND (CASE WHEN valueType(__a0) STARTS WITH 'LIST' THEN __a0 ELSE [__a0] END) AS `__x`"
                   " MATCH (`__out_node`) WHERE CASE WHEN `__x` IS :: INTEGER THEN id(`__out_node`) = `__x`"
                   " WHEN `__x` IS :: STRING THEN elementId(`__out_node`) = `__x`"
                   " WHEN `__x` IS :: NODE THEN `__out_node` = `__x` ELSE false END"),
)
