"""The long forms, run on demand; they print their figures (docs/RELIABILITY.md records the last ones).

    python -m tests.reliability.long --crash-trials 200 --fuzz-cases 100000 --exec-cases 3000 --load-seconds 30 \
        --shared-seconds 60

A part given 0 is skipped. `--json FILE` also writes the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings

FUZZ_SHARES = {"token streams": 0.25, "mutated TCK statements": 0.30, "mutated page statements": 0.20,
               "mutated pages": 0.25}


def crash(trials: int, seed: int, min_acks: int = 0) -> dict[str, Any]:
    from tests.reliability.crash import run_trials

    started = time.monotonic()
    with tempfile.TemporaryDirectory() as directory:
        results = run_trials(Path(directory), trials, seed=seed, min_acks=min_acks)
        size = (Path(directory) / "crash.rl").stat().st_size
    outcomes = [result.outcome for result in results]
    figures = {"trials": len(results), "kill after acknowledged statements": min_acks, "torn or unopenable": 0,
               "statements committed before the kills": sum(r.committed for r in results),
               "file held exactly the acknowledged statements": outcomes.count("at-ack"),
               "file held the in-flight statement too (committed, not yet acknowledged)": outcomes.count("one-more"),
               "median statements per trial": statistics.median(r.committed for r in results),
               "final file size (bytes)": size, "seconds": round(time.monotonic() - started, 1)}
    return figures


def fuzz(cases: int) -> dict[str, Any]:
    from tests.reliability.corpus import TCK_INDEX, page_statements, tck_statements
    from tests.reliability.fuzzing import (
        Tally,
        check_cypher,
        check_page,
        mutated,
        mutated_pages,
        small_pages,
        token_streams,
    )

    if not TCK_INDEX.exists():
        sys.exit("the TCK corpus is missing: " + str(TCK_INDEX))
    parts = {"token streams": (token_streams(), check_cypher),
             "mutated TCK statements": (mutated(tck_statements()), check_cypher),
             "mutated page statements": (mutated(page_statements()), check_cypher),
             "mutated pages": (mutated_pages(small_pages()), check_page)}
    figures: dict[str, Any] = {}
    total = 0
    started = time.monotonic()
    for name, (strategy, check) in parts.items():
        tally = Tally()
        examples = max(1, int(cases * FUZZ_SHARES[name]))

        part_started = time.monotonic()
        _fuzz_part(strategy, check, tally, examples)
        total += tally.cases
        figures[name] = {"cases": tally.cases, "accepted": tally.accepted, "errors by kind": tally.errors,
                         "slowest case (CPU s)": round(tally.slowest, 3), "slowest text": tally.slowest_text,
                         "seconds": round(time.monotonic() - part_started, 1)}
        print(f"  {name}: {figures[name]}", flush=True)
    figures["total cases"] = total
    figures["other exceptions or hangs"] = 0
    figures["seconds"] = round(time.monotonic() - started, 1)
    return figures


def _fuzz_part(strategy: Any, check: Any, tally: Any, examples: int) -> None:
    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def run(text: str) -> None:
        check(text, tally)

    run()


def execute(cases: int) -> dict[str, Any]:
    from tests.reliability.corpus import page_statements, tck_statements
    from tests.reliability.fuzzing import ExecutionCheck, Tally, mutated

    tally, check = Tally(), ExecutionCheck()
    started = time.monotonic()
    try:
        _fuzz_part(mutated([*page_statements(), *tck_statements()]), check, tally, cases)
    finally:
        check.close()
    return {"cases": tally.cases, "ran without error": tally.accepted, "errors by kind": tally.errors,
            "internal errors or other exceptions": 0, "slowest case (CPU s)": round(tally.slowest, 3),
            "slowest text": tally.slowest_text,
            "seconds": round(time.monotonic() - started, 1)}


def load(seconds: float, clients: int) -> dict[str, Any]:
    from tests.reliability.load import load_test

    return load_test(seconds=seconds, clients=clients)


def shared(seconds: float, kill_every: float) -> dict[str, Any]:
    from tests.reliability.shared_file import run

    with tempfile.TemporaryDirectory() as directory:
        return run(Path(directory), seconds=seconds, kill_every=kill_every)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.reliability.long", description=__doc__.splitlines()[0])
    parser.add_argument("--crash-trials", type=int, default=200)
    parser.add_argument("--crash-seed", type=int, default=1)
    parser.add_argument("--crash-min-acks", type=int, default=0,
                        help="each kill waits for this many acknowledged statements, then a random delay")
    parser.add_argument("--fuzz-cases", type=int, default=100_000)
    parser.add_argument("--exec-cases", type=int, default=3000,
                        help="mutated statements executed on a small graph")
    parser.add_argument("--load-seconds", type=float, default=30)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--shared-seconds", type=float, default=60,
                        help="four processes on one file (shared_file.py), the holder killed every --kill-every s")
    parser.add_argument("--kill-every", type=float, default=10)
    parser.add_argument("--json", metavar="FILE")
    arguments = parser.parse_args(argv)
    report: dict[str, Any] = {"python": platform.python_version(), "machine": platform.machine(),
                              "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    if arguments.crash_trials:
        print(f"crash trials: {arguments.crash_trials} …", flush=True)
        report["crash"] = crash(arguments.crash_trials, arguments.crash_seed, arguments.crash_min_acks)
        print(f"  {report['crash']}", flush=True)
    if arguments.fuzz_cases:
        print(f"fuzzing: {arguments.fuzz_cases} cases …", flush=True)
        report["fuzz"] = fuzz(arguments.fuzz_cases)
    if arguments.exec_cases:
        print(f"executing mutated statements: {arguments.exec_cases} cases …", flush=True)
        report["execute"] = execute(arguments.exec_cases)
        print(f"  {report['execute']}", flush=True)
    if arguments.load_seconds:
        print(f"load test: {arguments.clients} clients for {arguments.load_seconds} s …", flush=True)
        report["load"] = load(arguments.load_seconds, arguments.clients)
        print(f"  {report['load']}", flush=True)
    if arguments.shared_seconds:
        print(f"one file, four processes: {arguments.shared_seconds} s, holder killed every "
              f"{arguments.kill_every} s …", flush=True)
        report["shared file"] = shared(arguments.shared_seconds, arguments.kill_every)
        print(f"  {report['shared file']}", flush=True)
    print(json.dumps(report, indent=2))
    if arguments.json:
        Path(arguments.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
