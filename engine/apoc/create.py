"""APOC Core's `apoc.create.node`, `apoc.create.nodes`, `apoc.create.relationship`, and the procedures that
label or set properties on the nodes or relationships given (one or a list: `addLabels`, `removeLabels`,
`setLabels`, `setProperty`, `setProperties`, `setRelProperty`, `setRelProperties`): writing procedures
bound as the CREATE and SET they perform (procedure macros, ADR-0060), so they are set-based, counted and
refused by a read-only call like any CREATE. Labels and a relationship's type may come from the row, as in
a CREATE pattern (ADR-0061)."""

from __future__ import annotations

from engine.semantic.procedure_macros import ProcedureMacro, subquery_macro

_LABELS = "FOREACH (`__l` IN coalesce(__a0, []) | SET `__out_node`:$(`__l`))"


def _each(output: str) -> str:
    """The elements given as the first argument (one, or a list of them), each as the output variable."""
    return (f"UNWIND [`__x` IN (CASE WHEN valueType(__a0) STARTS WITH 'LIST' THEN __a0 ELSE [__a0] END)"
            f" WHERE `__x` IS NOT NULL] AS `__out_{output}`")


_NODES = ("nodes", "ANY")
_RELS = ("rels", "ANY")
_NODE = (("node", "NODE"),)
_REL = (("rel", "RELATIONSHIP"),)

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
    subquery_macro("apoc.create.addLabels", (_NODES, ("labels", "LIST<STRING>")), _NODE, "WRITE",
                   f"{_each('node')} FOREACH (`__l` IN __a1 | SET `__out_node`:$(`__l`))"),
    subquery_macro("apoc.create.removeLabels", (_NODES, ("labels", "LIST<STRING>")), _NODE, "WRITE",
                   f"{_each('node')} FOREACH (`__l` IN __a1 | REMOVE `__out_node`:$(`__l`))"),
    subquery_macro("apoc.create.setLabels", (_NODES, ("labels", "LIST<STRING>")), _NODE, "WRITE",
                   f"{_each('node')} FOREACH (`__l` IN [`__x` IN labels(`__out_node`) WHERE NOT `__x` IN __a1] |"
                   " REMOVE `__out_node`:$(`__l`)) FOREACH (`__l` IN __a1 | SET `__out_node`:$(`__l`))"),
    subquery_macro("apoc.create.setProperty", (_NODES, ("key", "STRING"), ("value", "ANY")), _NODE, "WRITE",
                   f"{_each('node')} SET `__out_node` += apoc.map.fromPairs([[__a1, __a2]])"),
    subquery_macro("apoc.create.setProperties", (_NODES, ("keys", "LIST<STRING>"), ("values", "LIST<ANY>")),
                   _NODE, "WRITE", f"{_each('node')} SET `__out_node` += apoc.map.fromLists(__a1, __a2)"),
    subquery_macro("apoc.create.setRelProperty", (_RELS, ("key", "STRING"), ("value", "ANY")), _REL, "WRITE",
                   f"{_each('rel')} SET `__out_rel` += apoc.map.fromPairs([[__a1, __a2]])"),
    subquery_macro("apoc.create.setRelProperties", (_RELS, ("keys", "LIST<STRING>"), ("values", "LIST<ANY>")),
                   _REL, "WRITE", f"{_each('rel')} SET `__out_rel` += apoc.map.fromLists(__a1, __a2)"),
)
