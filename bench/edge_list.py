"""`python -m bench.edge_list`: label-tested path reads against plain DuckDB SQL over a bare edge list.

Issue 38: on 100k `N` nodes and 500k random `R` relationships between them (seed 42), three reads whose
label tests the catalog can answer (every end of an `R` relationship carries `:N`, ADR-0092), beside the
SQL a person would write over a table `edges(src, dst)` and nothing else, in another in-memory DuckDB
database of this process. Both sides run alternating, each read's answer checked equal first; the report
gives medians and the ratio ours / hand SQL, the target being at most 1.5x. The relationships have no
self-loops, so the hand SQL's two-hop join needs no check that its two edges differ; its three-hop join
checks the first and the third by row id (a trail may not repeat a relationship). Timing lives here, never
in the tests (tests/bench/test_edge_list.py checks the answers on a small graph). Each run is timed by the
wall clock and by the process's CPU time (every DuckDB thread of both sides runs in this process): on the
shared machine another worker's load stretches the wall clock of whichever side it lands on, the CPU time
much less, so the report gives both ratios, and the target column reads the CPU ratio (ADR-0098).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

import duckdb

import engine

NODES = 100_000
RELATIONSHIPS = 500_000
STARTS = 100
SEED = 42
BATCH = 50_000
TARGET_RATIO = 1.5


@dataclass(frozen=True)
class Read:
    name: str
    cypher: str
    hand: str
    """DuckDB SQL over `edges(src, dst)`; `$ids` is the start nodes' ids where the read has any."""


READS = (
    Read("two_hop_all", "MATCH (a:N)-[:R]->(:N)-[:R]->(c:N) RETURN count(*) AS paths",
         "SELECT count(*) AS paths FROM edges AS e1 JOIN edges AS e2 ON e2.src = e1.dst"),
    Read("two_hop_100", "UNWIND $ids AS id MATCH (a:N {id: id})-[:R]->(:N)-[:R]->(c:N) RETURN count(*) AS paths",
         "SELECT count(*) AS paths FROM unnest($ids) AS s(id) JOIN edges AS e1 ON e1.src = s.id"
         " JOIN edges AS e2 ON e2.src = e1.dst"),
    Read("var_1_3_100", "UNWIND $ids AS id MATCH (a:N {id: id})-[:R*1..3]->(c:N) RETURN count(*) AS paths",
         "WITH e1 AS (SELECT e.rowid AS r1, e.dst FROM unnest($ids) AS s(id) JOIN edges AS e ON e.src = s.id),"
         " e2 AS (SELECT e1.r1, e.dst FROM e1 JOIN edges AS e ON e.src = e1.dst)"
         " SELECT (SELECT count(*) FROM e1) + (SELECT count(*) FROM e2)"
         " + (SELECT count(*) FROM e2 JOIN edges AS e ON e.src = e2.dst WHERE e.rowid <> e2.r1) AS paths"),
)


def edges(nodes: int, relationships: int, seed: int) -> list[tuple[int, int]]:
    """`relationships` random (src, dst) pairs of distinct nodes in 0..nodes-1."""
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < relationships:
        src, dst = rng.randrange(nodes), rng.randrange(nodes)
        if src != dst:
            pairs.append((src, dst))
    return pairs


def load(nodes: int, pairs: list[tuple[int, int]]) -> tuple[engine.Connection, duckdb.DuckDBPyConnection]:
    """The graph in the engine, through UNWIND batches, and the bare edge list in DuckDB."""
    ours = engine.connect(":memory:")
    for first in range(0, nodes, BATCH):
        ours.execute("UNWIND range($first, $last) AS i CREATE (:N {id: i})",
                     {"first": first, "last": min(first + BATCH, nodes) - 1})
    ours.execute("CREATE INDEX n_id FOR (n:N) ON (n.id)")
    for first in range(0, len(pairs), BATCH):
        ours.execute("UNWIND $rows AS row MATCH (a:N {id: row[0]}), (b:N {id: row[1]}) CREATE (a)-[:R]->(b)",
                     {"rows": [list(pair) for pair in pairs[first:first + BATCH]]})
    hand = duckdb.connect(":memory:")
    hand.execute("CREATE TABLE edges (src BIGINT NOT NULL, dst BIGINT NOT NULL)")
    hand.execute("INSERT INTO edges SELECT unnest($s), unnest($d)",
                 {"s": [src for src, _ in pairs], "d": [dst for _, dst in pairs]})
    return ours, hand


def run_ours(ours: engine.Connection, read: Read, params: dict[str, Any]) -> int:
    return int(ours.execute(read.cypher, params if "$ids" in read.cypher else None).rows[0][0])


def run_hand(hand: duckdb.DuckDBPyConnection, read: Read, params: dict[str, Any]) -> int:
    row = hand.execute(read.hand, params if "$ids" in read.hand else None).fetchone()
    assert row is not None
    return int(row[0])


@dataclass
class Row:
    name: str
    answer: int
    ours: float
    hand: float
    ours_cpu: float
    hand_cpu: float

    @property
    def ratio(self) -> float:
        return self.ours / self.hand

    @property
    def cpu_ratio(self) -> float:
        return self.ours_cpu / self.hand_cpu if self.hand_cpu else float("nan")


def measure(nodes: int = NODES, relationships: int = RELATIONSHIPS, runs: int = 9,
            seed: int = SEED) -> list[Row]:
    """Load both sides, check every read's answers agree, then time each read `runs` times per side,
    alternating which side goes first."""
    ours, hand = load(nodes, edges(nodes, relationships, seed))
    params = {"ids": random.Random(seed + 1).sample(range(nodes), min(STARTS, nodes))}
    rows = []
    for read in READS:
        answer = run_ours(ours, read, params)
        expected = run_hand(hand, read, params)
        if answer != expected:
            raise SystemExit(f"{read.name}: ours answered {answer}, the hand SQL {expected}")
        times: dict[str, list[float]] = {"ours": [], "hand": []}
        cpu: dict[str, list[float]] = {"ours": [], "hand": []}
        for run in range(runs):
            for side in ("ours", "hand") if run % 2 == 0 else ("hand", "ours"):
                started, started_cpu = time.perf_counter(), time.process_time()
                run_ours(ours, read, params) if side == "ours" else run_hand(hand, read, params)
                times[side].append(time.perf_counter() - started)
                cpu[side].append(time.process_time() - started_cpu)
        rows.append(Row(read.name, answer, statistics.median(times["ours"]), statistics.median(times["hand"]),
                        statistics.median(cpu["ours"]), statistics.median(cpu["hand"])))
    ours.close()
    hand.close()
    return rows


def report(rows: list[Row], nodes: int, relationships: int, runs: int) -> str:
    lines = [f"{nodes:,} `N` nodes, {relationships:,} random `R` relationships (seed {SEED}); medians of {runs}"
             " runs, alternating (ms, wall clock / process CPU time):", "",
             f"| read | paths | ours | hand SQL over edges | ratio | CPU ratio | target (CPU <= {TARGET_RATIO}x) |",
             "|---|---:|---:|---:|---:|---:|---|"]
    for row in rows:
        lines.append(f"| {row.name} | {row.answer:,} | {row.ours * 1000:.1f} / {row.ours_cpu * 1000:.1f}"
                     f" | {row.hand * 1000:.1f} / {row.hand_cpu * 1000:.1f} | {row.ratio:.2f}x | {row.cpu_ratio:.2f}x"
                     f" | {'met' if row.cpu_ratio <= TARGET_RATIO else 'not met'} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.edge_list", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="timed runs per read and side")
    parser.add_argument("--nodes", type=int, default=NODES)
    parser.add_argument("--relationships", type=int, default=RELATIONSHIPS)
    args = parser.parse_args(argv)
    print(report(measure(args.nodes, args.relationships, args.runs), args.nodes, args.relationships, args.runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
