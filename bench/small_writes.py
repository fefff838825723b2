"""`python -m bench.small_writes`: one-element writes of the engine beside the DuckDB DML a person would write.

Issue 38's targets: on a 50-node graph, CREATE of one node, SET of one property and MERGE of one node each
at most 3x the hand-written DML over the engine's own tables and under 1.5 ms, in process. Both sides run
in this process, alternating statement by statement, each on an in-memory database in the engine's layout
(the hand side's made by `GraphStore`, as `bench/handsql.py` makes its own). The hand side keeps its own id
sequence, runs each statement in DuckDB's automatic transaction, and writes no counters, catalog or last
write: it is the floor, not an equal. Besides times, the report gives the SQL statements the engine ran for
one statement: its SQL as `explain` traces it (the clauses' own statements; BEGIN and COMMIT are not in the
trace, and ids and the last write take none, ADR-0103). Timing lives here, never in the tests.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import duckdb

import engine
from engine import types as t
from engine.storage.schema import GraphStore

NODES = 50
TARGET_RATIO = 3.0
TARGET_MS = 1.5


@dataclass(frozen=True)
class Workload:
    """One small write: the Cypher statement, the hand-written DML, and the parameters of its n-th run."""

    name: str
    cypher: str
    hand: Callable[[HandDml, int], None]
    parameters: Callable[[int], dict[str, Any]]


class HandDml:
    """The DML a person would write over the engine's tables, on a database of its own."""

    def __init__(self) -> None:
        self.duck = duckdb.connect(":memory:")
        store = GraphStore(self.duck)
        self.cols = {key: store.ensure_property_column("node", key, t.INTEGER) for key in ("id", "seen", "n")}
        self.duck.execute("CREATE SEQUENCE node_ids START 0 MINVALUE 0")
        self.duck.execute(f"INSERT INTO nodes (id, labels, {self.cols['id']})"
                          f" SELECT nextval('node_ids'), ['P'], i FROM range({NODES}) AS r(i)")

    def create(self, key: int) -> None:
        self.duck.execute(f"INSERT INTO nodes (id, labels, {self.cols['id']}) VALUES (nextval('node_ids'), ['Q'], ?)",
                          [key])

    def set(self, key: int) -> None:
        seen = self.cols["seen"]
        self.duck.execute(f"UPDATE nodes SET {seen} = coalesce({seen}, 0) + 1"
                          f" WHERE list_contains(labels, 'P') AND {self.cols['id']} = ?", [key])

    def merge(self, label: str, key: int) -> None:
        """Match-or-create: the UPDATE of ON MATCH, and the INSERT when it updated nothing."""
        (updated,) = self.duck.execute(f"UPDATE nodes SET {self.cols['n']} = 1"
                                       f" WHERE list_contains(labels, ?) AND {self.cols['id']} = ?",
                                       [label, key]).fetchone() or (0,)
        if not updated:
            self.duck.execute(f"INSERT INTO nodes (id, labels, {self.cols['id']})"
                              f" VALUES (nextval('node_ids'), [?], ?)", [label, key])


WORKLOADS = (
    Workload("create", "CREATE (:Q {id: $id})", lambda hand, n: hand.create(1000 + n),
             lambda n: {"id": 1000 + n}),
    Workload("set", "MATCH (p:P {id: $id}) SET p.seen = coalesce(p.seen, 0) + 1",
             lambda hand, n: hand.set(n % NODES), lambda n: {"id": n % NODES}),
    Workload("merge_match", "MERGE (p:P {id: $id}) ON MATCH SET p.n = 1",
             lambda hand, n: hand.merge("P", n % NODES), lambda n: {"id": n % NODES}),
    Workload("merge_create", "MERGE (q:M {id: $id}) ON MATCH SET q.n = 1",
             lambda hand, n: hand.merge("M", 1000 + n), lambda n: {"id": 1000 + n}),
)


@dataclass
class Row:
    name: str
    ours: float
    hand: float
    statements: int

    @property
    def ratio(self) -> float:
        return self.ours / self.hand

    @property
    def met(self) -> bool:
        return self.ratio <= TARGET_RATIO and self.ours * 1000 < TARGET_MS


def _statements(ours: Any, cypher: str, parameters: dict[str, Any]) -> int:
    """How many SQL statements one Cypher statement runs: its trace from the public `explain` (what `python -m
    engine explain` prints, run in a transaction rolled back): the clauses' own statements, without BEGIN and
    COMMIT."""
    _, trace = ours.explain(cypher, parameters)
    return len(trace)


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
"""`wall`: elapsed time; `cpu`: the process's CPU time (DuckDB's threads included), which other work on a busy
machine moves far less than it moves elapsed time."""


def measure(runs: int, clock: Callable[[], float] = time.perf_counter) -> list[Row]:
    """Each workload `runs` times on each side, alternating, after a few runs that make columns and warm up."""
    ours = engine.connect(":memory:")
    ours.execute(f"UNWIND range(0, {NODES - 1}) AS i CREATE (:P {{id: i}})")
    hand = HandDml()
    numbers = itertools.count()
    rows = []
    for workload in WORKLOADS:
        for _ in range(5):
            n = next(numbers)
            ours.execute(workload.cypher, workload.parameters(n))
            workload.hand(hand, n)
        n = next(numbers)
        count = _statements(ours, workload.cypher, workload.parameters(n))
        ours.execute(workload.cypher, workload.parameters(n))  # what the explained run rolled back
        workload.hand(hand, n)
        ours_times, hand_times = [], []
        for _ in range(runs):
            n = next(numbers)
            started = clock()
            ours.execute(workload.cypher, workload.parameters(n))
            ours_times.append(clock() - started)
            started = clock()
            workload.hand(hand, n)
            hand_times.append(clock() - started)
        rows.append(Row(workload.name, statistics.median(ours_times), statistics.median(hand_times), count))
    _check_same(ours, hand)
    ours.close()
    return rows


def _check_same(ours: Any, hand: HandDml) -> None:
    """Both graphs hold the same nodes and property sums: the two sides did the same writes."""
    (mine,) = ours.execute("MATCH (n) RETURN [count(n), sum(n.id), sum(n.seen), sum(n.n)] AS c").rows[0]
    theirs = list(hand.duck.execute(f"SELECT count(*), sum({hand.cols['id']}), sum({hand.cols['seen']}),"
                                    f" sum({hand.cols['n']}) FROM nodes").fetchone() or ())
    if list(mine) != theirs:
        raise SystemExit(f"the graphs differ: ours {mine}, hand {theirs}")


def report(rows: list[Row], runs: int, clock: str = "wall") -> str:
    lines = [f"Small writes on a {NODES}-node graph, medians of {runs} runs each, alternating ({clock} time, ms):", "",
             "| workload | ours | hand DML | ratio | SQL statements traced | target (<= 3x, < 1.5 ms) |",
             "|---|---:|---:|---:|---:|---|"]
    for row in rows:
        lines.append(f"| {row.name} | {row.ours * 1000:.3f} | {row.hand * 1000:.3f} | {row.ratio:.1f}x"
                     f" | {row.statements} | {'met' if row.met else 'not met'} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.small_writes", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300, help="timed runs per workload and side")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="what is timed: elapsed time, or the process's CPU time on a busy machine")
    args = parser.parse_args(argv)
    print(report(measure(args.runs, CLOCKS[args.clock]), args.runs, args.clock))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
