"""FalkorDB's graph algorithm procedures: `algo.pageRank(label, relationshipType)`,
`algo.betweenness({nodeLabels, relationshipTypes})` and `algo.labelPropagation({nodeLabels,
relationshipTypes, maxIterations})`, each `YIELD node, score` (`communityId` for label propagation).

A call reads its subgraph with one SQL query for the nodes and one for the edges, runs the algorithm once
over all of it (`engine.algorithms.compute`), and stores the answer as a temporary table the CALL joins
with, one row per node in id order. Arguments must be literals or parameters: the subgraph is read before
the call's SQL is made. Configuration keys and their checks follow FalkorDB's procedures, but for one: a
label or type no node or relationship has is an empty part of the subgraph, not an error (FalkorDB refuses
one its schema has never seen; the engine keeps no such history).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from engine.algorithms import compute
from engine.algorithms.graph import Subgraph, read_subgraph
from engine.errors import ProcedureError, UnsupportedFeature
from engine.procedures import Procedure, ProcedureField, ProcedurePreparation
from engine.vector.constants import bound_constant

_TABLES = itertools.count()


def _failed(message: str, build: ProcedurePreparation) -> ProcedureError:
    return ProcedureError(message, build.span, detail="ProcedureCallFailed")


def _names(value: Any, key: str, name: str, build: ProcedurePreparation) -> list[str] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _failed(f"{name} configuration, '{key}' should be an array of strings", build)
    return value or None


def _config(build: ProcedurePreparation, name: str, allowed: set[str]) -> dict[str, Any]:
    """The configuration map (null: empty), keys matched case-insensitively, unknown keys refused."""
    if not build.arguments:  # `CALL algo.betweenness()`
        return {}
    value = bound_constant(build.arguments[0], f"the configuration of {build.procedure.name}")
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _failed(f"invalid argument to {build.procedure.name}", build)
    config = {key.lower(): item for key, item in value.items()}
    if set(config) - {key.lower() for key in allowed}:
        raise _failed(f"{name} configuration contains unknown key", build)
    return config


def _result_table(run: Any, graph: Subgraph, column: str, values: np.ndarray, sql_type: str) -> str:
    """The answer as a temporary table (node, <column>, __i), bound as parameters, dropped with the statement."""
    table = f"_cypher_algo{next(_TABLES)}"
    run.execute(f"CREATE TEMP TABLE {table} AS SELECT unnest($1::BIGINT[]) AS node,"
                f" unnest($2::{sql_type}[]) AS {column}, unnest(range(1, len($1::BIGINT[]) + 1)) AS __i",
                [graph.ids.tolist(), values.tolist()])
    run.tables.append(table)
    return f"(SELECT node, {column}, __i FROM {table})"


def _page_rank(build: ProcedurePreparation) -> str:
    run = build.run
    label, relationship = (bound_constant(argument, "an argument of algo.pageRank") for argument in build.arguments)
    for value in (label, relationship):
        if value is not None and not isinstance(value, str):
            raise _failed("algo.pageRank expects a label and a relationship type (strings or null)", build)
    graph = read_subgraph(run, [label] if label else None, [relationship] if relationship else None)
    return _result_table(run, graph, "score", compute.pagerank(graph), "DOUBLE")


def _betweenness(build: ProcedurePreparation) -> str:
    run = build.run
    config = _config(build, "betweenness", {"nodeLabels", "relationshipTypes", "samplingSize", "samplingSeed"})
    labels = _names(config.get("nodelabels"), "nodeLabels", "betweenness", build)
    types = _names(config.get("relationshiptypes"), "relationshipTypes", "betweenness", build)
    size = config.get("samplingsize")
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size <= 0):
        raise _failed("betweenness configuration, 'samplingSize' should be a positive integer", build)
    graph = read_subgraph(run, labels, types)
    if size is not None and size < graph.size:
        raise UnsupportedFeature("sampled betweenness (samplingSize below the number of nodes): the engine "
                                 "computes it exactly, over every source", build.span)
    return _result_table(run, graph, "score", compute.betweenness(graph), "DOUBLE")


def _label_propagation(build: ProcedurePreparation) -> str:
    run = build.run
    config = _config(build, "labelPropagation", {"nodeLabels", "relationshipTypes", "maxIterations"})
    labels = _names(config.get("nodelabels"), "nodeLabels", "labelPropagation", build)
    types = _names(config.get("relationshiptypes"), "relationshipTypes", "labelPropagation", build)
    iterations = config.get("maxiterations", 10)
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations <= 0:
        raise _failed("labelPropagation configuration, 'maxIterations' should be a positive integer", build)
    graph = read_subgraph(run, labels, types)
    return _result_table(run, graph, "communityId", compute.label_propagation(graph, iterations), "BIGINT")


def _procedure(name: str, inputs: tuple[tuple[str, str], ...], score: tuple[str, str],
               build: Callable[[ProcedurePreparation], str], required: int | None = None) -> Procedure:
    fields = lambda pairs: tuple(ProcedureField(field, kind) for field, kind in pairs)  # noqa: E731
    return Procedure(name, fields(inputs), fields((("node", "NODE"), score)), prepare=build, required_inputs=required)


PROCEDURES = (
    _procedure("algo.pageRank", (("label", "STRING"), ("relationshipType", "STRING")), ("score", "FLOAT"),
               _page_rank),
    _procedure("algo.betweenness", (("config", "MAP"),), ("score", "FLOAT"), _betweenness, required=0),
    _procedure("algo.labelPropagation", (("config", "MAP"),), ("communityId", "INTEGER"), _label_propagation,
               required=0),
)
