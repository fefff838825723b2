"""`python -m bench.remember`: the seed's remember statements beside the hand-written SQL, in one process.

Issue 38: on agent-1k (the bench's agent-memory dataset of 1,000 messages, its search indexes built), the
five remember statements of one session of 50 messages (`bench/workloads.py` REMEMBER) at most 1.2x the
hand-written DuckDB SQL doing the same writes (`bench/handsql.py` `remember`). Both sides load the dataset
as the bench's workers do (`bench/systems.py` adapters, the same batches), each in an in-memory database of
this process, then run one fresh session after another, alternating which side goes first; each session's
report rows are checked equal, and the graphs' counts after all of them. The report gives medians of the
wall clock and of the process's CPU time (every DuckDB thread of both sides runs in this process; another
worker's load on the shared machine moves it far less), and per statement the SQL statements ours ran,
from the public `explain` of the first session (its clauses' own statements; BEGIN, COMMIT and the
last-write note are not traced). Timing lives here, never in the tests.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from bench.datasets import agent_memory
from bench.systems import BATCH, Hand, Ours, System, load_steps, search_kinds, step_rows
from bench.worker import canonical
from bench.workloads import REMEMBER

MESSAGES = 1_000
TARGET_RATIO = 1.2


def load(system: System, dataset: Any) -> None:
    """The dataset into `system` as a bench worker loads it: every step in batches, then the search indexes."""
    system.open(dataset.kind)
    for step in load_steps(dataset):
        rows = step_rows(dataset, step)
        for first in range(0, len(rows), BATCH):
            system.load(step, rows[first:first + BATCH])
    system.create_search_indexes(search_kinds(dataset))


def run_ours(ours: Ours, session: dict[str, Any]) -> list[tuple]:
    rows: list[tuple] = []
    for statement in REMEMBER:
        rows = ours.write(statement, session)
    return rows


@dataclass
class Measured:
    sessions: int
    wall: dict[str, list[float]] = field(default_factory=lambda: {"ours": [], "hand": []})
    cpu: dict[str, list[float]] = field(default_factory=lambda: {"ours": [], "hand": []})
    statements: list[int] = field(default_factory=list)

    def median(self, clock: str, side: str) -> float:
        return statistics.median((self.wall if clock == "wall" else self.cpu)[side])

    def ratio(self, clock: str) -> float:
        return self.median(clock, "ours") / self.median(clock, "hand")


def measure(sessions: int, messages: int = MESSAGES) -> Measured:
    """Load both sides, run a first session untimed (it warms caches), counting the SQL statements of each of
    ours, then time `sessions` more, alternating which side goes first."""
    dataset = agent_memory(messages, remember_sessions=sessions + 1)
    ours, hand = Ours(), Hand()
    load(ours, dataset)
    load(hand, dataset)
    result = Measured(sessions)
    first = dataset.extra["remember"][0]
    for statement in REMEMBER:  # each explained on the graph the statements before it wrote
        result.statements.append(len(ours.db.explain(statement, first)[1]))
        ours.write(statement, first)
    hand.remember(first)
    for index, session in enumerate(dataset.extra["remember"][1:], start=1):
        answers: dict[str, list[tuple]] = {}
        for side in ("ours", "hand") if index % 2 == 0 else ("hand", "ours"):
            started, started_cpu = time.perf_counter(), time.process_time()
            answers[side] = run_ours(ours, session) if side == "ours" else hand.remember(session)
            result.wall[side].append(time.perf_counter() - started)
            result.cpu[side].append(time.process_time() - started_cpu)
        if canonical(answers["ours"]) != canonical(answers["hand"]):
            raise SystemExit(f"session {index}: ours answered {answers['ours'][:3]}..., the hand SQL"
                             f" {answers['hand'][:3]}...")
    if ours.counts() != hand.counts():
        raise SystemExit(f"the graphs differ: ours {ours.counts()}, hand {hand.counts()}")
    ours.close()
    hand.close()
    return result


def report(result: Measured, messages: int) -> str:
    lines = [f"The seed's remember statements, one session of 50 messages on agent-{messages // 1000}k;"
             f" medians of {result.sessions} sessions, alternating (ms):", "",
             f"| clock | ours | hand SQL | ratio | target (<= {TARGET_RATIO}x) |", "|---|---:|---:|---:|---|"]
    for clock in ("wall", "cpu"):
        ratio = result.ratio(clock)
        ours, hand = result.median(clock, "ours") * 1000, result.median(clock, "hand") * 1000
        lines.append(f"| {clock} | {ours:.1f} | {hand:.1f} | {ratio:.2f}x"
                     f" | {'met' if ratio <= TARGET_RATIO else 'not met'} |")
    lines += ["", "SQL statements each remember statement runs (traced): "
              + ", ".join(str(count) for count in result.statements)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.remember", description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=15, help="timed sessions per side")
    parser.add_argument("--messages", type=int, default=MESSAGES, help="the dataset's size in messages")
    args = parser.parse_args(argv)
    print(report(measure(args.sessions, args.messages), args.messages))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
