"""The differential run: generated graphs and queries on ours and the oracles, compared and triaged.

Graph `g` of a run with seed `s` is generated from `Random(f"{s}:{g}")`, and its cases from the same
generator, so any case can be made again from its id (`s:g:q`) alone: `--only s:g` replays one graph.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.differential.compare import Disagreement, compare
from tests.differential.graphs import Graph, generate_graph
from tests.differential.oracles import Engines, Outcome, open_oracle
from tests.differential.queries import Case, QueryGenerator
from tests.differential.triage import Rule, explain, load_rules
from tests.differential.writes import WriteGenerator

WRITE_SHARE = 0.3
CASES_PER_GRAPH = 20


@dataclass
class Failure:
    """A case the run counts as failed: an internal error of ours, or a disagreement no rule explains."""

    case_id: str
    why: str
    oracle: str
    case: Case
    graph: Graph
    ours: Outcome
    theirs: Outcome | None

    def as_json(self) -> dict[str, Any]:
        return {"id": self.case_id, "why": self.why, "oracle": self.oracle, "query": self.case.text,
                "kind": self.case.kind, "features": sorted(self.case.features), "graph": self.graph.create_statement(),
                "ours": _outcome_json(self.ours), "theirs": _outcome_json(self.theirs) if self.theirs else None}


def _outcome_json(outcome: Outcome) -> dict[str, Any]:
    return {"error": outcome.error, "rows": repr(outcome.rows)[:2000], "counters": outcome.counters}


@dataclass
class Tally:
    pairs: int = 0
    reads: int = 0
    writes: int = 0
    internal_errors: int = 0
    ours_errors: int = 0
    checked: Counter[str] = field(default_factory=Counter)
    """Per oracle, the cases compared."""
    agreed: Counter[str] = field(default_factory=Counter)
    rules: Counter[str] = field(default_factory=Counter)
    unexplained: Counter[str] = field(default_factory=Counter)
    confirmed: int = 0
    """Cases at least one oracle agreed on with no rule needed."""
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self, rules: list[Rule]) -> dict[str, Any]:
        return {"pairs": self.pairs, "reads": self.reads, "writes": self.writes,
                "internal errors": self.internal_errors, "ours raised an error": self.ours_errors,
                "agreed with at least one oracle, no rule needed": self.confirmed,
                "compared": dict(self.checked), "agreed": dict(self.agreed),
                "explained by a triage rule": dict(sorted(self.rules.items())),
                "unused triage rules": sorted(rule.id for rule in rules if rule.id not in self.rules),
                "unexplained disagreements": dict(self.unexplained), "seconds": round(self.seconds, 1)}


def cases_for(seed: str, graph_index: int, count: int, write_share: float = WRITE_SHARE) -> tuple[Graph, list[Case]]:
    """Graph `graph_index` of the run with `seed`, and its cases."""
    rng = random.Random(f"{seed}:{graph_index}")
    graph = generate_graph(rng)
    reads, writes = QueryGenerator(rng, graph), WriteGenerator(rng, graph)
    return graph, [writes.write() if rng.random() < write_share else reads.read() for _ in range(count)]


def run_graphs(engines: Engines, seed: str, graphs: list[int], *, rules: list[Rule] | None = None,
               cases_per_graph: int = CASES_PER_GRAPH, write_share: float = WRITE_SHARE,
               progress: bool = True) -> Tally:
    """Every case of the given graphs of `seed`, on ours and the oracles."""
    rules = load_rules() if rules is None else rules
    tally = Tally()
    started = time.monotonic()
    for done, graph_index in enumerate(graphs, 1):
        graph, cases = cases_for(seed, graph_index, cases_per_graph, write_share)
        engines.ours.load(graph)
        for oracle in engines.oracles:
            oracle.load(graph)
        for query_index, case in enumerate(cases):
            run_case(engines, rules, tally, f"{seed}:{graph_index}:{query_index}", graph, case)
        if progress and done % 10 == 0:
            _progress(tally, time.monotonic() - started)
    tally.seconds = time.monotonic() - started
    return tally


def run_pairs(oracles: list[str], pairs: int, seed: str, *, workers: int = 1, first_graph: int = 0,
              cases_per_graph: int = CASES_PER_GRAPH, write_share: float = WRITE_SHARE) -> Tally:
    """`pairs` cases (rounded up to whole graphs), the graphs shared out over `workers` processes, each with
    its own engines."""
    graphs = list(range(first_graph, first_graph + -(-pairs // cases_per_graph)))
    shards = [(oracles, seed, graphs[index::workers], cases_per_graph, write_share) for index in range(workers)]
    started = time.monotonic()
    if workers == 1:
        tally = _run_shard(shards[0])
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            tally = merge(pool.map(_run_shard, shards))
    tally.seconds = time.monotonic() - started
    return tally


def _run_shard(shard: tuple[list[str], str, list[int], int, float]) -> Tally:
    oracles, seed, graphs, cases_per_graph, write_share = shard
    engines = Engines(oracles=[open_oracle(name) for name in oracles])
    try:
        return run_graphs(engines, seed, graphs, cases_per_graph=cases_per_graph, write_share=write_share)
    finally:
        engines.close()


def merge(tallies: list[Tally]) -> Tally:
    merged = Tally()
    for tally in tallies:
        for name in ("pairs", "reads", "writes", "internal_errors", "ours_errors", "confirmed"):
            setattr(merged, name, getattr(merged, name) + getattr(tally, name))
        for name in ("checked", "agreed", "rules", "unexplained"):
            getattr(merged, name).update(getattr(tally, name))
        merged.failures += tally.failures
    return merged


def run_case(engines: Engines, rules: list[Rule], tally: Tally, case_id: str, graph: Graph, case: Case) -> None:
    tally.pairs += 1
    if case.kind == "write":
        tally.writes += 1
        ours = engines.ours.write(graph, case.text)
    else:
        tally.reads += 1
        ours = engines.ours.read(case.text)
    if ours.internal:
        tally.internal_errors += 1
        tally.failures.append(Failure(case_id, "internal error", "ours", case, graph, ours, None))
        return
    tally.ours_errors += ours.error is not None
    outcomes = {oracle.name: oracle.write(graph, case.text) if case.kind == "write" else oracle.read(case.text)
                for oracle in engines.oracles}
    disagreements = {name: compare(case, ours, theirs) for name, theirs in outcomes.items()}
    agreed = frozenset(name for name, disagreement in disagreements.items() if disagreement is None)
    for name, disagreement in disagreements.items():
        tally.checked[name] += 1
        if disagreement is None:
            tally.agreed[name] += 1
            continue
        rule = explain(rules, name, case, disagreement, agreed)
        if rule is not None:
            tally.rules[rule.id] += 1
            continue
        tally.unexplained[name] += 1
        tally.failures.append(Failure(case_id, _why(disagreement), name, case, graph, ours, outcomes[name]))
    tally.confirmed += bool(agreed)


def _why(disagreement: Disagreement) -> str:
    return f"{disagreement.outcome}: {disagreement.detail}"


def _progress(tally: Tally, seconds: float) -> None:
    unexplained = sum(tally.unexplained.values())
    print(f"  {tally.pairs:>7} pairs  {seconds:7.1f} s  internal errors {tally.internal_errors}"
          f"  unexplained {unexplained}", file=sys.stderr, flush=True)


def write_failures(tally: Tally, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for failure in tally.failures:
            out.write(json.dumps(failure.as_json()) + "\n")
