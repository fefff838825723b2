"""`python -m bench.pages`: how many typical pages a minute one core checks, with `cookbook run` and with pytest.

A site of N copies of a typical 10-cell page (a setup cell, a data block loaded with UNWIND, lookups,
aggregations, ORDER BY, a path, OPTIONAL MATCH, an error cell) is written to a temporary folder and recorded
once with `cookbook run --update`; the run must then pass, with `cookbook run` and with pytest, before
anything is timed. Each runner is timed as a docs team runs it, in a process of its own over the whole site
and over one page: the difference is the cost of N - 1 pages, the rest the process's start-up. The measure
is CPU time (user + system of the process and its threads, as `getrusage` counts it), so that "per core"
holds whatever the machine's other load; wall time is reported beside it.

The baseline, measured in the same run, is the engine alone: the same statements, with the same parameters,
on a fresh in-memory database per page, with no page read, no result rendered or compared. Each runner's
ratio to it is its overhead. Writes bench/PAGES.md and bench/PAGES.json (`--out` for elsewhere).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import machine

HERE = Path(__file__).resolve().parent
PEOPLE = 40

TYPICAL_PAGE = """\
---
title: A typical page {number}
level: Beginner
---

# Who works with whom

```json data=people
{people}
```

```cypher cell=schema setup
CREATE CONSTRAINT person_name IF NOT EXISTS FOR (p:Person) REQUIRE p.name IS UNIQUE
```

```cypher cell=load params=people
UNWIND $people AS p
MERGE (person:Person {{name: p.name}}) SET person.born = p.born
MERGE (team:Team {{name: p.team}})
MERGE (person)-[:IN]->(team)
```

```cypher cell=mentors params=people
UNWIND $people AS p
MATCH (a:Person {{name: p.name}}), (b:Person {{name: p.mentor}})
CREATE (a)-[:MENTORED_BY {{since: p.born + 20}}]->(b)
```

```cypher cell=count
MATCH (p:Person) RETURN count(p) AS people
```

```cypher cell=teams
MATCH (p:Person)-[:IN]->(t:Team)
RETURN t.name AS team, count(p) AS members, min(p.born) AS eldest
ORDER BY team
```

```cypher cell=eldest
MATCH (p:Person) RETURN p.name AS name, p.born AS born ORDER BY born, name LIMIT 5
```

```cypher cell=chain
MATCH path = (a:Person {{name: 'p0'}})-[:MENTORED_BY*1..3]->(b:Person)
RETURN b.name AS mentor, length(path) AS hops ORDER BY hops
```

```cypher cell=unmentored
MATCH (p:Person)
OPTIONAL MATCH (p)<-[:MENTORED_BY]-(student)
WITH p, count(student) AS students
WHERE students = 0
RETURN count(p) AS without_students
```

```cypher cell=same-team
MATCH (a:Person)-[:IN]->(t:Team)<-[:IN]-(b:Person)
WHERE a.name < b.name AND a.born = b.born
RETURN t.name AS team, collect(a.name + '&' + b.name) AS pairs ORDER BY team
```

```cypher cell=unknown error
MATCH (p:Person) RETURN q.name
```
"""
"""A page as docs teams write them: ten cells, one of them meant to raise. `{number}` keeps titles apart."""


def people() -> list[dict[str, Any]]:
    """The page's data: 40 people in 5 teams, each but the first mentored by someone born before them."""
    return [{"name": f"p{index}", "born": 1950 + index % 17, "team": f"t{index % 5}",
             "mentor": f"p{(index * 7 + 3) % PEOPLE}"} for index in range(PEOPLE)]


def typical_page(number: int = 0) -> str:
    return TYPICAL_PAGE.format(number=number, people=json.dumps({"people": people()}))


INI = """\
[pytest]
cookbook_pages = pages/*.md
addopts = -p no:cacheprovider -p no:randomly -p no:xdist -q
"""

ENGINE_ALONE = """\
import sys, engine
from runner.page import read_page
pages = [read_page(path) for path in sys.argv[1:]]
for page in pages:  # the pages are read, their statements run; no result is rendered or compared
    cells = [(cell.text, page.params_for(cell), cell.expects_error) for cell in page.cells]
    with engine.connect(":memory:") as db:
        for text, params, expects_error in cells:
            try:
                db.execute_script(text, params)
            except engine.CypherError:
                if not expects_error:
                    raise
"""


@dataclass
class Runner:
    name: str
    command: list[str]
    """Run in the site's folder, the pages appended."""


RUNNERS = [
    Runner("engine alone", [sys.executable, "-c", ENGINE_ALONE]),
    Runner("cookbook run", [sys.executable, "-m", "runner", "run", "--color", "never"]),
    Runner("pytest", [sys.executable, "-m", "pytest"]),
]
BASELINE = "engine alone"


def build_site(folder: Path, count: int) -> list[str]:
    """`count` typical pages in folder/pages, recorded with `cookbook run --update` (blocks and snapshots)."""
    (folder / "pytest.ini").write_text(INI)
    (folder / "pages").mkdir()
    names = []
    for number in range(count):
        name = f"pages/p{number:03}.md"
        (folder / name).write_text(typical_page(number))
        names.append(name)
    run_checked(folder, [sys.executable, "-m", "runner", "run", "--update", "--color", "never", *names])
    return names


def run_checked(folder: Path, command: list[str]) -> tuple[float, float]:
    """Run `command` in `folder`; it must pass. Its (CPU seconds, wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, env=environment())
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:4])} failed ({done.returncode}):\n"
                           f"{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def environment() -> dict[str, str]:
    """This process's environment, with this checkout first on the path (the runner under test)."""
    root = str(HERE.parent)
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": root + (os.pathsep + path if path else "")}


def measure(count: int = 20, reps: int = 3) -> dict[str, Any]:
    """Each runner over the whole site and over one page, `reps` times, the runners alternating."""
    if count < 2:
        raise ValueError("the site needs at least two pages to tell pages from start-up")
    with tempfile.TemporaryDirectory(prefix="cookbook-bench-pages-") as temporary:
        folder = Path(temporary)
        names = build_site(folder, count)
        for runner in RUNNERS:  # the answers: every runner passes before anything is timed
            run_checked(folder, [*runner.command, *names])
        samples: dict[str, dict[str, list[float]]] = {
            runner.name: {"site_cpu": [], "site_wall": [], "one_cpu": [], "one_wall": []} for runner in RUNNERS}
        for _ in range(reps):
            for runner in RUNNERS:
                for key, pages in (("site", names), ("one", names[:1])):
                    cpu, wall = run_checked(folder, [*runner.command, *pages])
                    samples[runner.name][f"{key}_cpu"].append(cpu)
                    samples[runner.name][f"{key}_wall"].append(wall)
    results = {name: summary(values, count) for name, values in samples.items()}
    for result in results.values():
        result["ratio_to_baseline"] = result["page_cpu"] / results[BASELINE]["page_cpu"]
    return {"pages": count, "cells_per_page": 10, "reps": reps, "runners": results}


def summary(values: dict[str, list[float]], count: int) -> dict[str, float]:
    """Medians; a page's cost is (site − one page) / (pages − 1), the start-up what one page leaves."""
    median = {key: statistics.median(items) for key, items in values.items()}
    page_cpu = (median["site_cpu"] - median["one_cpu"]) / (count - 1)
    page_wall = (median["site_wall"] - median["one_wall"]) / (count - 1)
    return {"page_cpu": page_cpu, "page_wall": page_wall, "startup_cpu": median["one_cpu"] - page_cpu,
            "pages_per_minute_per_core": 60 / page_cpu, "site_cpu_spread": [min(values["site_cpu"]),
                                                                            max(values["site_cpu"])]}


def markdown(data: dict[str, Any]) -> str:
    info = data["machine"]
    lines = [
        "# Pages per minute per core (`python -m bench.pages`)", "",
        f"A site of {data['pages']} copies of a typical {data['cells_per_page']}-cell page (`bench/pages.py`), "
        f"each runner in a process of its own, {data['reps']} runs alternating; CPU time (user + system), "
        "medians. A page's cost is (the site − one page) / (pages − 1); start-up is what one page leaves. "
        "The baseline is the engine alone running the same statements, measured in the same run.", "",
        f"Machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}, DuckDB {info['duckdb']}, "
        f"{info['date']}; load average before {info['load_before']}, after {info['load_after']}.", "",
        "| runner | pages per minute per core | CPU ms per page | wall ms per page | start-up CPU s "
        "| ratio to the engine alone |",
        "|---|---|---|---|---|---|",
    ]
    for name, result in data["runners"].items():
        lines.append(f"| {name} | {result['pages_per_minute_per_core']:.0f} | {result['page_cpu'] * 1000:.0f} "
                     f"| {result['page_wall'] * 1000:.0f} | {result['startup_cpu']:.2f} "
                     f"| {result['ratio_to_baseline']:.2f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pages", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20, help="pages in the site (default: %(default)s)")
    parser.add_argument("--reps", type=int, default=3, help="timed runs of each runner (default: %(default)s)")
    parser.add_argument("--quick", action="store_true", help="5 pages, one run: a smoke run (not committed)")
    parser.add_argument("--out", type=Path, default=None, help="the report (default bench/PAGES.md, or "
                                                               "bench/PAGES-quick.md with --quick)")
    args = parser.parse_args(argv)
    count, reps = (5, 1) if args.quick else (args.pages, args.reps)
    info = machine.describe()
    data = measure(count, reps)
    info["load_after"] = machine.load_average()
    data["machine"] = info
    out = args.out or HERE / ("PAGES-quick.md" if args.quick else "PAGES.md")
    out.write_text(markdown(data))
    out.with_suffix(".json").write_text(json.dumps(data, indent=1) + "\n")
    print(markdown(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
