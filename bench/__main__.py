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
from bench.run import FULL, QUICK, Bench, Plan
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
    parser.add_argument("--datasets", default="",
                        help="comma-separated subset of the plan's datasets: agent, social, or one agent size such"
                             " as agent-10k (default: all)")
    return parser.parse_args(argv)


def select_datasets(plan: Plan, text: str) -> Plan:
    """The plan with only the datasets `text` names (see --datasets)."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    sizes = {f"agent-{n // 1000}k" if n % 1000 == 0 else f"agent-{n}": n for n in plan.agent_sizes}
    unknown = [name for name in names if name not in ("agent", "social", *sizes)]
    if unknown:
        raise SystemExit(f"unknown datasets: {', '.join(unknown)} (known: agent, social, {', '.join(sizes)})")
    agent = plan.agent_sizes if "agent" in names else [n for name, n in sizes.items() if name in names]
    return dataclasses.replace(plan, agent_sizes=agent, social=plan.social if "social" in names else ())


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
    if args.datasets:
        plan = select_datasets(plan, args.datasets)
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
