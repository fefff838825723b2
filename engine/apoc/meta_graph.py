"""`apoc.meta.graph()`: the graph's meta-graph as virtual nodes and relationships (ADR-0071), the statement
neo4j-graphrag's and LangChain's enhanced schema start from.

A virtual node per label, `{name, count}`; a virtual relationship per (start label, type, end label),
`{type, out, in, count}`: the relationships of the type from nodes of the start label, into nodes of the end
label, and of the type in all. APOC pairs every label with outgoing relationships of a type with every label
with incoming ones, then drops the pairs it finds no relationship for, looking only where a label pairs
with more than one; the engine reads the store whole (its `sample` and `maxRels` change nothing), so it
drops exactly the pairs no relationship joins. Each count is one GROUP BY over the store: rows per label
and type, not per element.
"""

from __future__ import annotations

from engine.procedures import Procedure, ProcedureField, ProcedurePreparation
from engine.storage.encoding import virtual_node, virtual_relationship

LABEL_COUNTS = "SELECT l, count(*) FROM nodes, unnest(labels) AS u(l) GROUP BY l ORDER BY l"
END_COUNTS = ("SELECT side, l, r.type, count(*) FROM rels AS r, (VALUES ('out'), ('in')) AS s(side)"
              " JOIN nodes AS n ON true, unnest(n.labels) AS u(l)"
              " WHERE n.id = CASE side WHEN 'out' THEN r.src ELSE r.dst END GROUP BY ALL")
"""Per label and type, how many relationships of the type leave (`out`) or enter (`in`) nodes of the label."""
PATTERNS = ("SELECT DISTINCT sl, r.type, el FROM rels AS r JOIN nodes AS s ON s.id = r.src"
            " JOIN nodes AS e ON e.id = r.dst, unnest(s.labels) AS u(sl), unnest(e.labels) AS v(el)")
TYPE_COUNTS = "SELECT type, count(*) FROM rels GROUP BY type"


def _meta_graph(preparation: ProcedurePreparation) -> str:
    run = preparation.run
    labels = run.fetchall(LABEL_COUNTS)
    ends: dict[str, dict[tuple[str, str], int]] = {"out": {}, "in": {}}
    for side, label, rel_type, count in run.fetchall(END_COUNTS):
        ends[side][(label, rel_type)] = count
    found = set(run.fetchall(PATTERNS))
    totals = dict(run.fetchall(TYPE_COUNTS))
    nodes = {label: virtual_node(node_id, [label], {"name": label, "count": count})
             for (label, count), node_id in zip(labels, run.virtual_ids("node", len(labels)), strict=True)}
    patterns = []
    for rel_type in sorted(totals):
        starts = sorted(label for label, of_type in ends["out"] if of_type == rel_type)
        finishes = sorted(label for label, of_type in ends["in"] if of_type == rel_type)
        lone = len(starts) == 1 and len(finishes) == 1  # a pair APOC keeps without looking
        patterns += [(start, rel_type, end) for start in starts for end in finishes
                     if lone or (start, rel_type, end) in found]
    patterns.sort()
    rels = [virtual_relationship(rel_id, rel_type, nodes[start], nodes[end], {
                "type": rel_type, "out": ends["out"][(start, rel_type)], "in": ends["in"][(end, rel_type)],
                "count": totals[rel_type]})
            for (start, rel_type, end), rel_id in zip(patterns, run.virtual_ids("relationship", len(patterns)),
                                                      strict=True)]
    return run.virtual_graph(list(nodes.values()), rels)


PROCEDURES = (
    Procedure("apoc.meta.graph", (ProcedureField("config", "MAP"),),
              (ProcedureField("nodes", "LIST OF NODE"), ProcedureField("relationships", "LIST OF RELATIONSHIP")),
              prepare=_meta_graph, required_inputs=0),
)
