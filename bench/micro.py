"""The micro benchmarks `python -m bench` runs after its datasets, each in a fresh process of its own with
every other worker paused: the small writes (`bench/small_writes.py`) and the edge-list reads
(`bench/edge_list.py`), so that RESULTS.md holds issue 38's every figure from one run. Each keeps its own
baseline (hand-written DuckDB in the same process), so its ratios are measured side by side as the
datasets' are."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import time
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Scale:
    writes_runs: int
    edge_nodes: int
    edge_relationships: int
    edge_runs: int


FULL = Scale(writes_runs=300, edge_nodes=100_000, edge_relationships=500_000, edge_runs=15)
QUICK = Scale(writes_runs=30, edge_nodes=2_000, edge_relationships=10_000, edge_runs=3)


def _small_writes(scale: Scale) -> dict[str, Any]:
    from bench import small_writes
    rows = small_writes.measure(scale.writes_runs, small_writes.CLOCKS["cpu"])
    return {"markdown": small_writes.report(rows, scale.writes_runs, "cpu"),
            "ratios": {row.name: row.ratio for row in rows}}


def _edge_list(scale: Scale) -> dict[str, Any]:
    from bench import edge_list
    rows = edge_list.measure(scale.edge_nodes, scale.edge_relationships, scale.edge_runs)
    return {"markdown": edge_list.report(rows, scale.edge_nodes, scale.edge_relationships, scale.edge_runs),
            "ratios": {row.name: row.ratio for row in rows}, "cpu_ratios": {row.name: row.cpu_ratio for row in rows}}


BENCHES = {"small_writes": _small_writes, "edge_list": _edge_list}
TITLES = {"small_writes": "Small writes", "edge_list": "Edge-list reads"}


def run(scale: Scale, log: Any = print) -> dict[str, dict[str, Any]]:
    """Each micro benchmark in a spawned process; a failure is reported in its place, the rest go on."""
    results: dict[str, dict[str, Any]] = {}
    context = multiprocessing.get_context("spawn")
    for name, bench in BENCHES.items():
        started = time.perf_counter()
        with concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
            try:
                results[name] = pool.submit(bench, scale).result(timeout=1800)
            except Exception as error:  # the report says what failed; the run goes on
                results[name] = {"error": f"{type(error).__name__}: {error}"}
        results[name]["seconds"] = time.perf_counter() - started
        log(f"  {name:14} " + (f"done in {results[name]['seconds']:.0f} s" if "error" not in results[name]
                                  else results[name]["error"]))
    return results


def markdown(results: dict[str, dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for name, result in results.items():
        out += ["", f"## {TITLES.get(name, name)}", "", f"`python -m bench.{name}`, in a process of its own"
                " after the datasets, every other worker paused.", ""]
        out.append(result["markdown"] if "markdown" in result else f"not measured: {result.get('error')}")
    return out
