"""`apoc.meta.graph()`: the graph's meta-graph as virtual nodes and relationships (ADR-0071), the statement
neo4j-graphrag's and LangChain's enhanced schema start from; `apoc.meta.graphSample()` and
`apoc.meta.subGraph(config)`, the same meta-graph kept whole or cut to some labels and types.

A virtual node per label, `{name, count}`; a virtual relationship per (start label, type, end label),
`{type, out, in, count}`: the relationships of the type from nodes of the start label, into nodes of the end
label, and of the type in all. APOC pairs every label with outgoing relationships of a type with every label
with incoming ones, then drops the pairs it finds no relationship for, looking only where a label pairs
with more than one; the engine reads the store whole (its `sample` and `maxRels` change nothing), so it
drops exactly the pairs no relationship joins. `graphSample` drops none, as APOC's (it "might report extra
relationships"); `subGraph` looks at the labels and types its config names only (the counts are still the
store's: the relationships of a type leaving nodes of a label, whatever their end) and then removes what
`excludes` names, as APOC's `filterResultStream`. Each count is one GROUP BY over the store: rows per label
and type, not per element.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.apoc.schema import config_names, procedure_failed
from engine.procedures import Procedure, ProcedureField, ProcedurePreparation
from engine.storage.encoding import virtual_node, virtual_relationship
from engine.vector.constants import bound_constant

LABEL_COUNTS = "SELECT l, count(*) FROM nodes, unnest(labels) AS u(l) GROUP BY l ORDER BY l"
END_COUNTS = ("SELECT side, l, r.type, count(*) FROM rels AS r, (VALUES ('out'), ('in')) AS s(side)"
              " JOIN nodes AS n ON true, unnest(n.labels) AS u(l)"
              " WHERE n.id = CASE side WHEN 'out' THEN r.src ELSE r.dst END GROUP BY ALL")
"""Per label and type, how many relationships of the type leave (`out`) or enter (`in`) nodes of the label."""
PATTERNS = ("SELECT DISTINCT sl, r.type, el FROM rels AS r JOIN nodes AS s ON s.id = r.src"
            " JOIN nodes AS e ON e.id = r.dst, unnest(s.labels) AS u(sl), unnest(e.labels) AS v(el)")
TYPE_COUNTS = "SELECT type, count(*) FROM rels GROUP BY type"


@dataclass(frozen=True)
class Selection:
    """Which part of the meta-graph a procedure gives: the labels and types it looks at (None: all), whether it
    drops the pairs no relationship joins, and the names whose nodes and relationships it removes after."""

    labels: frozenset[str] | None = None
    types: frozenset[str] | None = None
    drop_missing: bool = True
    excludes: frozenset[str] = frozenset()


def _meta_graph_of(preparation: ProcedurePreparation, selection: Selection) -> str:
    run = preparation.run
    labels = [(label, count) for label, count in run.fetchall(LABEL_COUNTS)
              if selection.labels is None or label in selection.labels]
    ends: dict[str, dict[tuple[str, str], int]] = {"out": {}, "in": {}}
    for side, label, rel_type, count in run.fetchall(END_COUNTS):
        ends[side][(label, rel_type)] = count
    found = set(run.fetchall(PATTERNS))
    totals = {rel_type: count for rel_type, count in run.fetchall(TYPE_COUNTS)
              if selection.types is None or rel_type in selection.types}
    named = {label for label, _ in labels}
    patterns = []
    for rel_type in sorted(totals):
        starts = sorted(label for label, of_type in ends["out"] if of_type == rel_type and label in named)
        finishes = sorted(label for label, of_type in ends["in"] if of_type == rel_type and label in named)
        lone = len(starts) == 1 and len(finishes) == 1  # a pair APOC keeps without looking
        patterns += [(start, rel_type, end) for start in starts for end in finishes
                     if not selection.drop_missing or lone or (start, rel_type, end) in found]
    excluded = selection.excludes
    labels = [(label, count) for label, count in labels if label not in excluded]
    patterns = sorted(pattern for pattern in patterns if excluded.isdisjoint(pattern))
    nodes = {label: virtual_node(node_id, [label], {"name": label, "count": count})
             for (label, count), node_id in zip(labels, run.virtual_ids("node", len(labels)), strict=True)}
    rels = [virtual_relationship(rel_id, rel_type, nodes[start], nodes[end], {
                "type": rel_type, "out": ends["out"][(start, rel_type)], "in": ends["in"][(end, rel_type)],
                "count": totals[rel_type]})
            for (start, rel_type, end), rel_id in zip(patterns, run.virtual_ids("relationship", len(patterns)),
                                                      strict=True)]
    return run.virtual_graph(list(nodes.values()), rels)


def _first_names(config: dict[str, Any], keys: tuple[str, str], preparation: ProcedurePreparation) -> set[str]:
    """The names under the first key that gives some (APOC's MetaConfig reads `labels` before `includeLabels`)."""
    return config_names(config, keys[0], preparation) or config_names(config, keys[1], preparation)


def _sub_graph(preparation: ProcedurePreparation) -> str:
    """apoc.meta.subGraph(config): the meta-graph of the labels `labels` / `includeLabels` and the types `rels` /
    `includeRels` name (all when none), without the nodes and relationships `excludes` / `excludeLabels` names
    (a label, or a relationship's type or either end's label)."""
    config = bound_constant(preparation.arguments[0], f"the configuration of {preparation.procedure.name}")
    if config is None:
        config = {}
    if not isinstance(config, dict):
        raise procedure_failed("the configuration must be a map", preparation)
    labels = _first_names(config, ("labels", "includeLabels"), preparation)
    types = _first_names(config, ("rels", "includeRels"), preparation)
    excludes = _first_names(config, ("excludes", "excludeLabels"), preparation)
    return _meta_graph_of(preparation, Selection(frozenset(labels) or None, frozenset(types) or None,
                                                 excludes=frozenset(excludes)))


GRAPH_OUTPUTS = (ProcedureField("nodes", "LIST OF NODE"), ProcedureField("relationships", "LIST OF RELATIONSHIP"))
CONFIG = (ProcedureField("config", "MAP"),)

PROCEDURES = (
    Procedure("apoc.meta.graph", CONFIG, GRAPH_OUTPUTS,
              prepare=lambda preparation: _meta_graph_of(preparation, Selection()), required_inputs=0),
    # graphSample keeps every pair its counts give (APOC: "might report extra relationships")
    Procedure("apoc.meta.graphSample", CONFIG, GRAPH_OUTPUTS,
              prepare=lambda preparation: _meta_graph_of(preparation, Selection(drop_missing=False)),
              required_inputs=0),
    Procedure("apoc.meta.subGraph", CONFIG, GRAPH_OUTPUTS, prepare=_sub_graph),
)
