"""`python -m bench.bulk_load`: CPU time per batch of the social bulk load, without loading ten million rows.

Issue 38: the social-10m-rels load (1,000,000 people, 10,000,000 KNOWS, `bench/systems.py`'s `people` and
`knows` statements in batches of 10,000 rows) must take under 60 s. Loading it whole takes minutes of a
shared machine, so this loads every Person batch of a graph of `--people` people and then times
`--batches` KNOWS batches drawn as `social_scaled` draws them (uniform sources, Zipf-skewed targets, no
self loops), which is what the rest of the 10M load repeats: the KNOWS statement joins the batch to the
Person nodes, whose number is what grows. The report gives the CPU seconds of this process (DuckDB's
threads included) per batch, beside the wall time the engine spent in their SQL (`Result.timings["sql"]`,
more than DuckDB's CPU time on a busy machine: the Python share is read off `--profile`, the cProfile
breakdown of the KNOWS batches), and extrapolates the 10M load: 100 Person batches and 1,000 KNOWS
batches at the per-batch CPU measured at 1M people. Timing lives here, never in the tests.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from typing import Any

import numpy as np

import engine
from bench.datasets import SCALED_DEGREE, Columns
from bench.systems import BATCH, LOAD

TARGET_SECONDS = 60.0
TEN_M_PEOPLE_BATCHES = 100
TEN_M_KNOWS_BATCHES = 1_000


def people(count: int) -> Columns:
    """The Person rows of `social_scaled` for `count` people (ages and cities drawn alike)."""
    rng = np.random.default_rng(3)
    ages, cities = 18 + rng.integers(0, 60, count), rng.integers(0, 40, count)
    return Columns({"id": np.arange(count), "name": [f"person {i}" for i in range(count)], "age": ages,
                    "city": [f"city {c}" for c in cities.tolist()]}, count)


def knows(count: int, people: int, seed: int = 4) -> Columns:
    """`count` KNOWS rows between `people` people as `social_scaled` draws them (repeated pairs are not
    removed: at a batch's size among a million people they are rare, and a repeat is a second relationship)."""
    rng = np.random.default_rng(seed)
    popularity = rng.permutation(people)
    cum = np.cumsum(1.0 / np.arange(1, people + 1) ** 0.8)
    src = rng.integers(0, people, count * 2)
    dst = popularity[np.minimum(np.searchsorted(cum, rng.random(count * 2) * cum[-1]), people - 1)]
    keep = src != dst
    src, dst = src[keep][:count], dst[keep][:count]
    return Columns({"src": src, "dst": dst, "since": 2000 + (src * 31 + dst) % 25}, count)


class Timed:
    """CPU seconds of the batches run through `run`, and the wall seconds the engine spent in their SQL."""

    def __init__(self) -> None:
        self.cpu: list[float] = []
        self.sql: list[float] = []

    def run(self, db: engine.Connection, statement: str, rows: list[dict[str, Any]]) -> None:
        started = time.process_time()
        result = db.execute(statement, {"rows": rows})
        self.cpu.append(time.process_time() - started)
        self.sql.append(result.timings.get("sql", 0.0))

    def line(self, name: str) -> str:
        cpu, sql = statistics.median(self.cpu) * 1000, statistics.median(self.sql) * 1000
        return (f"{name}: {len(self.cpu)} batches, median {cpu:.1f} ms CPU per batch"
                f" ({sql:.1f} ms wall in the SQL), mean {statistics.mean(self.cpu) * 1000:.1f}")


def measure(count: int, batches: int, profile: bool) -> tuple[float, float]:
    """Median CPU seconds per Person batch and per KNOWS batch at `count` people."""
    db = engine.connect(":memory:")
    person_rows = people(count)
    person = Timed()
    for first in range(0, count, BATCH):
        person.run(db, LOAD["people"], person_rows[first:first + BATCH])
    rows = knows((batches + 1) * BATCH, count)
    db.execute(LOAD["knows"], {"rows": rows[0:BATCH]})  # the first batch adds the property column
    relationship = Timed()
    profiler = cProfile.Profile() if profile else None
    for n in range(1, batches + 1):
        batch = rows[n * BATCH:(n + 1) * BATCH]
        if profiler is not None:
            profiler.enable()
        relationship.run(db, LOAD["knows"], batch)
        if profiler is not None:
            profiler.disable()
    print(f"{count:,} people")
    print("  " + person.line("Person"))
    print("  " + relationship.line("KNOWS"))
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    db.close()
    return statistics.median(person.cpu), statistics.median(relationship.cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--batches", type=int, default=20, help="KNOWS batches timed at each size")
    parser.add_argument("--profile", action="store_true", help="cProfile the KNOWS batches")
    args = parser.parse_args()
    per_batch = {count: measure(count, args.batches, args.profile) for count in args.people}
    largest = max(per_batch)
    person, relationship = per_batch[largest]
    total = TEN_M_PEOPLE_BATCHES * person + TEN_M_KNOWS_BATCHES * relationship
    print(f"10M load at {largest:,} people's rates: {TEN_M_PEOPLE_BATCHES} x {person * 1000:.1f} ms"
          f" + {TEN_M_KNOWS_BATCHES} x {relationship * 1000:.1f} ms = {total:.1f} s CPU"
          f" (target under {TARGET_SECONDS:.0f} s; people {largest:,} = 10M / {SCALED_DEGREE}"
          f"{'' if largest == 10_000_000 // SCALED_DEGREE else ', not the 10M graph: a lower bound'})")


if __name__ == "__main__":
    main()
