"""`python -m bench`: generate the datasets, time every workload on every system, write RESULTS.md and a chart.

Timing lives here and in the workers, never in the tests: the ratios in RESULTS.md are measured in one run.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.text import Text

from bench import machine, report
from bench.run import FULL, QUICK, Bench
from bench.systems import SYSTEMS

HERE = Path(__file__).resolve().parent


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="smallest datasets, two runs each: a smoke run of a minute or so")
    parser.add_argument("--systems", default="",
                        help=f"comma-separated subset of {','.join(SYSTEMS)} (default: all)")
    parser.add_argument("--out", type=Path, default=None,
                        help="the Markdown report (default bench/RESULTS.md, or bench/RESULTS-quick.md with --quick)")
    parser.add_argument("--reps", type=int, default=None, help="timed runs per workload and system")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    plan = QUICK if args.quick else FULL
    if args.systems:
        names = [s.strip() for s in args.systems.split(",") if s.strip()]
        unknown = [s for s in names if s not in SYSTEMS]
        if unknown:
            print(f"unknown systems: {', '.join(unknown)} (known: {', '.join(SYSTEMS)})", file=sys.stderr)
            return 2
        plan = dataclasses.replace(plan, systems=names)
    if args.reps:
        plan = dataclasses.replace(plan, reps=args.reps)
    out = args.out or HERE / ("RESULTS-quick.md" if args.quick else "RESULTS.md")
    console = Console(stderr=True)
    started = time.time()

    def log(text: str) -> None:
        console.print(Text(f"{time.time() - started:7.1f}s ", style="dim") + Text(text), highlight=False)

    logs = tempfile.mkdtemp(prefix="cookbook-bench-logs-")
    log(f"systems: {', '.join(plan.systems)}; worker logs in {logs}")
    info = machine.describe()
    bench = Bench(plan, log=log, log_dir=logs)
    bench.run()
    info["load_after"] = machine.load_average()
    for cached in Path(logs).glob("*.pickle"):
        cached.unlink()
    data = report.collect(bench, info, quick=args.quick)
    out.parent.mkdir(parents=True, exist_ok=True)
    chart = out.with_suffix(".png")
    chart_ok = report.chart(data, chart)
    out.write_text(report.markdown(data, chart.name if chart_ok else None))
    out.with_suffix(".json").write_text(json.dumps(data, indent=1, default=str) + "\n")
    log(f"wrote {out.name}" + (f" and {chart.name}" if chart_ok else " (no chart: matplotlib is not installed)")
        + f" in {bench.seconds:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
