"""Crash trials: a writer process on a file database is killed (SIGKILL) at a random point of a run of
batched writes; the file must then open, and every statement be wholly present or wholly absent.

The writer (`python -m tests.reliability.crash PATH SEED START`) follows a plan drawn from SEED:
creates of batches of nodes and relationships, SETs over an earlier batch, DETACH DELETEs of one, and
creates that add a new property key (a column: DDL inside the transaction). It prints `done N` after
statement N commits. The checker replays the plan on a model up to the last `done` and one further, and
the file's contents must equal one of the two. A low checkpoint threshold, and a CHECKPOINT after
every fifth statement, make kills land during checkpoints too.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
STEPS = 100_000


@dataclass(frozen=True)
class Step:
    number: int
    kind: str  # create, set, delete, key
    size: int
    target: int


def plan(seed: int, start: int) -> list[Step]:
    """The writer's statements from step `start` on (steps before it are an earlier trial's)."""
    rng = random.Random(seed)
    steps = []
    for number in range(start, start + STEPS):
        earlier = rng.randrange(0, number) if number else 0
        kind = rng.choices(["create", "set", "delete", "key"], [5, 2, 1, 1])[0] if number else "create"
        steps.append(Step(number, kind, rng.randrange(20, 400), earlier))
    return steps


def statement(step: Step) -> tuple[str, dict[str, Any]]:
    params = {"b": step.number, "n": step.size, "t": step.target}
    if step.kind == "create":
        return ("UNWIND range(0, $n - 1) AS i CREATE (:B {batch: $b, i: i})-[:IN {batch: $b}]->(:M {batch: $b})",
                params)
    if step.kind == "set":
        return "MATCH (n:B) WHERE n.batch = $t SET n.touched = $b", params
    if step.kind == "delete":
        return "MATCH (n:B {batch: $t})-[:IN]->(m:M) DETACH DELETE n, m", params
    key = f"k{step.number % 40}"  # a new column for the first 40 keys, then existing ones
    return f"UNWIND range(0, $n - 1) AS i CREATE (:C {{batch: $b, {key}: i}})", params


def writer(path: str, seed: int, start: int) -> None:
    import engine

    with engine.connect(path) as db:
        db._duck.execute("SET checkpoint_threshold = '256KB'")
        print("ready", flush=True)
        for step in plan(seed, start):
            text, params = statement(step)
            db.execute(text, params)
            print(f"done {step.number}", flush=True)
            if step.number % 5 == 4:  # and a checkpoint of its own now and then, for kills to land in
                db._duck.execute("CHECKPOINT")


# -- the model and the check ------------------------------------------------------------------------

Model = dict[str, Any]


def apply(model: Model, step: Step) -> None:
    batches = model["batches"]
    if step.kind == "create":
        batches[step.number] = {"size": step.size, "touched": None}
    elif step.kind == "set" and step.target in batches:
        batches[step.target]["touched"] = step.number
    elif step.kind == "delete":
        batches.pop(step.target, None)
    elif step.kind == "key":
        model["c"][step.number] = (f"k{step.number % 40}", step.size)


def observe(path: str) -> Model:
    """The file's contents in the model's terms, read by a fresh process's connection."""
    import engine

    with engine.connect(path) as db:
        batches = {}
        for batch, size, touched, set_count, rels, ms in db.execute(
                "MATCH (n:B) OPTIONAL MATCH (n)-[r:IN]->(m:M) WITH n.batch AS batch, count(n) AS size, "
                "collect(DISTINCT n.touched) AS touched, count(n.touched) AS set_count, count(r) AS rels, "
                "count(m) AS ms RETURN batch, size, touched, set_count, rels, ms").fetchall():
            assert len(touched) <= 1 and set_count in (0, size) and rels == size == ms, (
                f"batch {batch} is torn: {size} B, {rels} IN, {ms} M, touched {touched} on {set_count}")
            batches[batch] = {"size": size, "touched": touched[0] if touched else None}
        (loose,), = db.execute("MATCH (m:M) WHERE NOT (m)<-[:IN]-() RETURN count(m)").fetchall()
        assert loose == 0, f"{loose} M nodes without their B"
        c = {}
        for batch, keys, size in db.execute(
                "MATCH (c:C) RETURN c.batch, collect(DISTINCT [k IN keys(c) WHERE k <> 'batch'][0]), count(*)"
                ).fetchall():
            assert len(keys) == 1, keys
            c[batch] = (keys[0], size)
        (top,), = db._duck.execute("SELECT coalesce(max(id), -1) FROM nodes").fetchall()
        (next_id,), = db._duck.execute("SELECT value FROM graph_meta WHERE key = 'next_node_id'").fetchall()
        assert next_id > top, f"the id sequence ({next_id}) is behind the largest id ({top})"
        db.execute("CREATE (:Probe)")  # the file takes writes again
        db.execute("MATCH (p:Probe) DELETE p")
    return {"batches": batches, "c": c}


@dataclass
class TrialResult:
    seed: int
    committed: int  # statements acknowledged before the kill, this trial
    outcome: str  # "at-ack" (the file holds exactly the acknowledged ones) or "one-more" (the in-flight one too)
    seconds: float


def trial(path: Path, seed: int, start: int, model: Model, rng: random.Random, max_delay: float = 1.5,
          min_acks: int = 0) -> tuple[TrialResult, int]:
    """One writer run, killed after a random delay (counted from its `min_acks`-th acknowledged statement,
    or from when it is ready); checks the file and advances `model`. Returns the result and the step the
    next trial starts at."""
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "tests.reliability.crash", str(path), str(seed), str(start)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert process.stdout is not None
    ready = process.stdout.readline()
    assert ready.strip() == "ready", ready + (process.stderr.read() if process.stderr else "")
    early = [process.stdout.readline() for _ in range(min_acks)]
    time.sleep(rng.uniform(0, max_delay))
    process.send_signal(signal.SIGKILL)
    output, errors = process.communicate()
    assert process.returncode == -signal.SIGKILL, errors
    done = [int(line.split()[1]) for line in [*early, *output.splitlines()] if line.startswith("done ")]
    last = done[-1] if done else start - 1
    steps = plan(seed, start)
    acknowledged = {"batches": {k: dict(v) for k, v in model["batches"].items()}, "c": dict(model["c"])}
    for step in steps[:last - start + 1]:
        apply(acknowledged, step)
    one_more = {"batches": {k: dict(v) for k, v in acknowledged["batches"].items()}, "c": dict(acknowledged["c"])}
    apply(one_more, steps[last - start + 1])
    found = observe(str(path))
    if found == acknowledged:
        outcome, new_model, next_start = "at-ack", acknowledged, last + 1
    elif found == one_more:
        outcome, new_model, next_start = "one-more", one_more, last + 2
    else:
        raise AssertionError(f"seed {seed}: the file is neither the {len(done)} acknowledged statements nor one "
                             f"more: {_difference(found, acknowledged)}")
    model.clear()
    model.update(new_model)
    return TrialResult(seed, len(done), outcome, time.monotonic() - started), next_start


def _difference(found: Model, expected: Model) -> str:
    keys = set(found["batches"]) ^ set(expected["batches"])
    changed = [k for k in set(found["batches"]) & set(expected["batches"])
               if found["batches"][k] != expected["batches"][k]]
    return f"batches only on one side {sorted(keys)[:5]}, differing {changed[:5]}, c {found['c'] == expected['c']}"


def run_trials(directory: Path, trials: int, seed: int = 0, max_delay: float = 1.5,
               min_acks: int = 0) -> list[TrialResult]:
    """`trials` kills in a row on one file (each trial continues where the file left off), each with its own
    plan; returns their results. Raises on the first file that is torn or does not open. With `min_acks`,
    each kill waits for that many acknowledged statements first (so a loaded machine still commits some)."""
    rng = random.Random(seed)
    path = directory / "crash.rl"
    model: Model = {"batches": {}, "c": {}}
    results = []
    start = 0
    for number in range(trials):
        result, start = trial(path, seed * 100_000 + number, start, model, rng, max_delay, min_acks)
        results.append(result)
    return results


if __name__ == "__main__":
    writer(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
