"""Per-statement compile time over every statement of every page in `cookbook/`.

The engine generates SQL clause by clause while it runs a statement (each clause's SQL depends on the
catalog as the clause before it left it), so "parse to SQL" cannot be timed apart from running. Instead
each statement is run the way `cookbook run` runs it (its page's cells in order, on a fresh database),
with the engine's DuckDB connection wrapped so that time spent inside DuckDB is counted: the engine's own
time is the statement's total less that, and covers parsing, binding, SQL generation and decoding the
rows. Parse and bind alone are timed too, on the catalog the statement sees.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from engine.compile import bind
from engine.syntax.parser import parse_script
from runner.page.markdown import read_page
from runner.run import run_cells

ROOT = Path(__file__).resolve().parent.parent


class TimedDuck:
    """A DuckDB connection that adds the time spent in execute and fetch calls to `seconds`."""

    def __init__(self, real: Any) -> None:
        self._real = real
        self.seconds = 0.0

    def execute(self, *args: Any, **kwargs: Any) -> TimedDuck:
        start = time.perf_counter()
        self._real.execute(*args, **kwargs)
        self.seconds += time.perf_counter() - start
        return self

    def _fetch(self, name: str, *args: Any) -> Any:
        start = time.perf_counter()
        value = getattr(self._real, name)(*args)
        self.seconds += time.perf_counter() - start
        return value

    def fetchall(self) -> list[tuple]:
        return self._fetch("fetchall")

    def fetchone(self) -> tuple | None:
        return self._fetch("fetchone")

    def fetchmany(self, size: int = 1) -> list[tuple]:
        return self._fetch("fetchmany", size)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


@dataclass
class StatementTimes:
    where: str
    bind: list[float] = field(default_factory=list)
    engine: list[float] = field(default_factory=list)
    total: list[float] = field(default_factory=list)


def _instrument(connection: engine.Connection, times: dict[str, StatementTimes], prefix: str) -> None:
    """Replace `execute_script` on this connection by one that runs and times statement by statement."""
    timed = TimedDuck(connection._duck)
    connection._executor.connection = timed
    connection._store.connection = timed  # the catalog's own statements (new columns, ids) run in DuckDB too
    counter = [0]

    def execute_script(text: str, params: Any = None, *, read_only: bool = False) -> list[Any]:
        results = []
        for statement, span in parse_script(text):
            counter[0] += 1
            key = f"{prefix}#{counter[0]}"
            entry = times.setdefault(key, StatementTimes(key))
            start = time.perf_counter()
            bound = bind(statement, params, connection._store.catalog, connection.procedures)
            entry.bind.append(time.perf_counter() - start)
            before = timed.seconds
            start = time.perf_counter()
            try:
                result = connection._executor.run(bound, text, read_only=read_only)
            finally:
                total = time.perf_counter() - start + entry.bind[-1]
                entry.total.append(total)
                entry.engine.append(total - (timed.seconds - before))
            result.statement = text[span.start:span.end]
            results.append(result)
        return results

    connection.execute_script = execute_script  # type: ignore[method-assign]


def measure(reps: int = 3, pages: list[Path] | None = None) -> dict[str, Any]:
    """Run every page `reps` times; per statement the median of each measure, then their spread."""
    pages = pages or sorted((ROOT / "cookbook").glob("**/*.md"))
    times: dict[str, StatementTimes] = {}
    for _ in range(reps):
        for path in pages:
            page = read_page(path)
            connection = engine.connect(":memory:")
            try:
                _instrument(connection, times, path.name)
                for _outcome in run_cells(page, connection):
                    pass
            finally:
                connection.close()
    rows = [t for t in times.values() if len(t.total) == reps]
    medians = {k: sorted(statistics.median(getattr(t, k)) for t in rows) for k in ("bind", "engine", "total")}
    return {"statements": len(rows), "pages": len(pages), "reps": reps,
            **{k: _summary(v) for k, v in medians.items()}}


def _summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    return {"median": statistics.median(values), "p90": values[min(len(values) - 1, int(0.9 * len(values)))],
            "max": values[-1], "sum": sum(values)}
