"""Per-statement compile time over every statement of every page in `cookbook/`.

The engine generates SQL clause by clause while it runs a statement (each clause's SQL depends on the
catalog as the clause before it left it), so "parse to SQL" cannot be timed apart from running. Instead
each statement is run the way `cookbook run` runs it (its page's cells in order, on a fresh database), and
its `Result.timings` say how long it took in all, in parsing and binding, and inside DuckDB: the engine's
own time is the total less DuckDB's, and covers parsing, binding, SQL generation and decoding the rows.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from runner.page.markdown import read_page
from runner.run import run_cells

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class StatementTimes:
    where: str
    bind: list[float] = field(default_factory=list)
    engine: list[float] = field(default_factory=list)
    total: list[float] = field(default_factory=list)


def _instrument(connection: engine.Connection, times: dict[str, StatementTimes], prefix: str) -> None:
    """Record the timings (`Result.timings`) of every statement this connection's `execute_script` runs."""
    counter = [0]
    run_script = connection.execute_script

    def execute_script(text: str, params: Any = None, **options: Any) -> list[Any]:
        results = run_script(text, params, **options)
        for result in results:
            counter[0] += 1
            key = f"{prefix}#{counter[0]}"
            entry = times.setdefault(key, StatementTimes(key))
            timings = result.timings
            entry.bind.append(timings["bind"])
            entry.total.append(timings["total"])
            entry.engine.append(timings["total"] - timings["sql"])
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
