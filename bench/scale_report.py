"""How each read, the bulk load and the workers' memory grow with the graph: the report's growth section and
its log-log chart, for every dataset family run at two sizes or more (the scale series, `--scale`, or the
full run's three agent-memory sizes).

Growth is the slope between consecutive sizes on the log-log chart: log(t2/t1) / log(r2/r1) over the
relationships loaded, so 1.0 is linear, 2.0 quadratic, and a read of fixed work (100 start nodes) would be
0 on an engine whose cost follows the work alone.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import Any

from bench.report import _label, _ms, _ratio
from bench.workloads import READS_BY_NAME

WORSE = 1.15
"""A slope above this is reported as worse than linear (below it, the machine's noise can account for it:
one step of a 10x series moves by 0.04 per 10 % error in either median)."""

MIB = 1024 ** 2
ANALYSIS = Path(__file__).resolve().parent / "GROWTH.md"
"""Why the reads that grow badly do: written by hand from the engine's SQL and plans (`python -m engine explain`
/ `profile`) for the last scale series, and appended to the growth section, which cannot know it."""
IN_PROCESS = {"ours", "handsql", "kuzu", "graphqlite", "arcadedb"}
"""Systems whose worker's CPU time is the database's (FalkorDB's worker is its client only)."""


def families(data: dict[str, Any]) -> dict[str, list[tuple[str, int]]]:
    """Per family (agent, social): its datasets as (name, relationships), smallest first, where at least two
    sizes loaded."""
    out: dict[str, list[tuple[str, int]]] = {}
    for name in dict.fromkeys(r["dataset"] for r in data["loads"]):
        loaded = [r for r in data["loads"] if r["dataset"] == name and r.get("rels")]
        if loaded:
            out.setdefault(name.split("-")[0], []).append((name, loaded[0]["rels"]))
    return {f: sorted(sizes, key=lambda pair: pair[1]) for f, sizes in out.items() if len(sizes) >= 2}


def _medians(data: dict[str, Any], cpu: bool = False) -> dict[tuple[str, str, str], float]:
    """Wall-clock medians, or with `cpu` the CPU-time medians where the worker's CPU is the system's."""
    if cpu:
        return {(r["dataset"], r["workload"], r["system"]): r["cpu_median"] for r in data["records"]
                if r["status"] == "ok" and r.get("cpu_median") and r["system"] in IN_PROCESS}
    return {(r["dataset"], r["workload"], r["system"]): r["median"] for r in data["records"]
            if r["status"] == "ok" and r["median"]}


def _growth_points(data: dict[str, Any], sizes: list[tuple[str, int]], workload: str,
                   system: str) -> tuple[list[tuple[int, float | None]], bool]:
    """(relationships, seconds) per size, CPU time where every size has it (True), else wall time."""
    cpu, wall = _medians(data, cpu=True), _medians(data)
    by_cpu = all((name, workload, system) in cpu for name, _ in sizes
                 if (name, workload, system) in wall)
    medians = cpu if by_cpu else wall
    return [(rels, medians.get((name, workload, system))) for name, rels in sizes], by_cpu


def slopes(points: list[tuple[int, float | None]]) -> list[float | None]:
    """The slope between each pair of consecutive (size, time) points; None where either time is missing."""
    return [math.log(t2 / t1) / math.log(n2 / n1) if t1 and t2 and n2 != n1 else None
            for (n1, t1), (n2, t2) in itertools.pairwise(points)]


def _slope_text(values: list[float | None]) -> str:
    return ", ".join("–" if v is None else f"**{v:.2f}**" if v > WORSE else f"{v:.2f}" for v in values)


def _size(n: int) -> str:
    return f"{n / 1e6:.3g}M" if n >= 1_000_000 else f"{n / 1e3:.3g}k" if n >= 1000 else str(n)


def _systems(data: dict[str, Any]) -> list[str]:
    return [s for s in data["systems"] if s in {r["system"] for r in data["records"] if r["status"] == "ok"}]


def markdown(data: dict[str, Any], chart: str | None) -> str:
    groups = families(data)
    if not groups:
        return ""
    medians, cpu = _medians(data), _medians(data, cpu=True)
    systems = _systems(data)
    out = ["", "## Growth with the graph's size", "",
           "Per dataset family, each read's median at each size (relationships loaded): wall ms / CPU ms, the"
           " CPU time being the worker's, every thread's, during the run (a system hosted in its worker only)."
           " On a machine shared with other work the wall time follows the machine's load, which drifts over a"
           " long series; the CPU time follows the work, so the growth is read from it where it is known"
           " (else from wall time, marked). Growth is the"
           " slope between consecutive sizes on a log-log scale (1.0 linear, 2.0 quadratic; above"
           f" {WORSE} in bold, worse than linear). A read from a fixed number of start nodes does the same"
           " work at every size, so an engine that follows the work alone keeps it flat; a hash join over a"
           " whole table grows linearly. Peak RSS is each worker process's (`VmHWM`, reset once the dataset"
           " is in memory), with the dataset's rows and the interpreter: the baseline before the load is given"
           " beside it. A load's CPU seconds are its worker's, every thread's, inside the load calls: on a"
           " machine shared with other work, what the load cost whatever else ran.", ""]
    if chart:
        out += [f"![time against graph size, log-log]({chart})", ""]
    flagged: list[str] = []
    for family, sizes in groups.items():
        names = [name for name, _ in sizes]
        header = " | ".join(f"{name} ({_size(rels)} rels)" for name, rels in sizes)
        out += [f"### {family}: bulk load and memory", "",
                f"| system | {header} | growth |", "|---|" + "---|" * (len(sizes) + 1)]
        for system in data["systems"]:
            loads = {r["dataset"]: r for r in data["loads"] if r["system"] == system}
            cells, points = [], []
            for name, rels in sizes:
                r = loads.get(name)
                if r and r["status"] == "ok":
                    cpu_text = f", {r['cpu']:.1f} s CPU" if r.get("cpu") else ""
                    cells.append(f"{r['seconds']:.1f} s ({r['rows'] / r['seconds']:,.0f} rows/s{cpu_text})")
                    points.append((rels, r["seconds"], r.get("cpu") if system in IN_PROCESS else None))
                else:
                    cells.append("–" if r is None else r["status"] + (", then COPY" if r.get("bulk") else ""))
                    points.append((rels, None, None))
            by_cpu = all(c for _, t, c in points if t)
            growth = slopes([(n, c if by_cpu else t) for n, t, c in points])
            out.append(f"| {_label(system)} | " + " | ".join(cells) + f" | {_slope_text(growth)}"
                       + ("" if by_cpu else " (wall)") + " |")
        for system in data["systems"]:
            loads = {r["dataset"]: r for r in data["loads"] if r["system"] == system and r.get("rss_peak")}
            if loads:
                cells = [f"{loads[n]['rss_peak'] / MIB:,.0f} MiB (before load {loads[n]['rss_base'] / MIB:,.0f})"
                         if n in loads else "–" for n in names]
                out.append(f"| {_label(system)} peak RSS | " + " | ".join(cells) + " | |")
        out += ["", f"### {family}: reads (median ms)", "",
                f"| workload | system | {header} | growth |", "|---|---|" + "---|" * (len(sizes) + 1)]
        workloads = [w for w in dict.fromkeys(r["workload"] for r in data["records"] if r["dataset"] in names)]
        for w in workloads:
            for system in systems:
                walls = [medians.get((name, w, system)) for name, _ in sizes]
                if not any(walls):
                    continue
                points, by_cpu = _growth_points(data, sizes, w, system)
                growth = slopes(points)
                cells = [("–" if not t else _ms(t) + (f" / {_ms(c)}" if by_cpu and c else ""))
                         for t, (_, c) in zip(walls, points, strict=True)]
                out.append(f"| `{w}` | {_label(system)} | " + " | ".join(cells) + f" | {_slope_text(growth)}"
                           + ("" if by_cpu else " (wall)") + " |")
                if system == "ours" and any(g is not None and g > WORSE for g in growth):
                    flagged.append(f"{family} `{w}`")
            if "ours" in systems and "handsql" in systems:
                for kind, values in (("", medians), (" (CPU)", cpu)):
                    ratios = [_ratio(values.get((n, w, "ours")), values.get((n, w, "handsql"))) for n in names]
                    if any(r != "–" for r in ratios):
                        out.append(f"| `{w}` | ours/hand SQL{kind} | " + " | ".join(ratios) + " | |")
        out.append("")
    out += ["Ours grows worse than linear on: " + (", ".join(flagged) if flagged else "no read") + "."]
    if ANALYSIS.exists():
        out += ["", f"### Why (`bench/{ANALYSIS.name}`, by hand)", "", ANALYSIS.read_text().strip()]
    return "\n".join(out) + "\n"


def chart(data: dict[str, Any], path: Any) -> bool:
    """One log-log panel per read and one for the bulk load of each family: time against relationships,
    a line per system, and a dotted linear slope through ours' smallest point for reference."""
    groups = families(data)
    if not groups:
        return False
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import NullFormatter
    except ImportError:
        return False
    panels: list[tuple[str, str, list[tuple[str, int]]]] = []
    for family, sizes in groups.items():
        names = {name for name, _ in sizes}
        panels.append((family, "bulk load", sizes))
        panels += [(family, w, sizes) for w in dict.fromkeys(r["workload"] for r in data["records"]
                                                            if r["dataset"] in names)]
    columns = 4
    rows = math.ceil(len(panels) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(4 * columns, 3.2 * rows), squeeze=False)
    colours = {s: f"C{i}" for i, s in enumerate(data["systems"])}
    for ax, (family, what, sizes) in zip(axes.flat, panels, strict=False):
        for system in data["systems"]:
            if what == "bulk load":
                loads = {r["dataset"]: r for r in data["loads"] if r["system"] == system and r["status"] == "ok"}
                by_cpu = system in IN_PROCESS and all(loads[n].get("cpu") for n, _ in sizes if n in loads)
                points = [(rels, loads[n]["cpu" if by_cpu else "seconds"] * 1000) for n, rels in sizes if n in loads]
            else:
                points = [(rels, t * 1000) for rels, t in _growth_points(data, sizes, what, system)[0] if t]
            if points:
                xs, ys = zip(*points, strict=True)
                ax.plot(xs, ys, marker="o", color=colours[system], label=_label(system))
                if system == "ours" and len(points) > 1:
                    ax.plot([xs[0], xs[-1]], [ys[0], ys[0] * xs[-1] / xs[0]], ":", color="grey")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.yaxis.set_minor_formatter(NullFormatter())
        title = READS_BY_NAME[what].name if what in READS_BY_NAME else what
        ax.set_title(f"{family}: {title}", fontsize="medium")
        ax.set_xlabel("relationships", fontsize="small")
        ax.set_ylabel("ms", fontsize="small")
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    legend: dict[str, Any] = {}
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            legend.setdefault(label, handle)
    fig.legend(list(legend.values()), list(legend), loc="lower right", fontsize="small")
    fig.suptitle("time against graph size (log-log; CPU ms where known, else wall; dotted: linear from"
                 f" ours' smallest), {data['machine']['date']}")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return True
