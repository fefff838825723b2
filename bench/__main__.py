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
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.text import Text

from bench import baseline, machine, report, scale_report
from bench.run import FULL, QUICK, SCALE_SOCIAL, Bench, Plan, scale_plan
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
    parser.add_argument("--scale", nargs="?", const=",".join(map(str, SCALE_SOCIAL)), default=None,
                        metavar="SIZES",
                        help="the scale series instead: the social graph at each of SIZES KNOWS relationships and"
                             " agent memory at each up to 1m messages (default 10k,100k,1m,10m); writes"
                             " bench/SCALE.md, SCALE.json and SCALE.png")
    parser.add_argument("--baseline", default=baseline.DEFAULT_COMMIT, metavar="COMMIT",
                        help="the earlier commit whose engine the full run times beside ours, as the system"
                             f" `baseline` (default {baseline.DEFAULT_COMMIT}, the commit issue 38 compares"
                             " with; `none` to leave it out)")
    parser.add_argument("--no-micro", action="store_true",
                        help="leave out the micro benchmarks that follow the datasets (small writes, edge list)")
    parser.add_argument("--render", type=Path, default=None, metavar="JSON",
                        help="measure nothing: write the report and charts again from a run's JSON (after"
                             " bench/GROWTH.md, the hand-written analysis, changed)")
    return parser.parse_args(argv)


def parse_sizes(text: str) -> list[int]:
    """`10k,1m,10000` as numbers."""
    sizes = []
    for item in text.lower().split(","):
        item = item.strip()
        factor = {"k": 1_000, "m": 1_000_000}.get(item[-1:], 1)
        try:
            sizes.append(int(float(item[:-1] if factor > 1 else item) * factor))
        except ValueError:
            raise SystemExit(f"--scale: not a size: {item!r} (sizes such as 100k or 10m)") from None
    return sorted(set(sizes))


def select_datasets(plan: Plan, text: str) -> Plan:
    """The plan with only the datasets `text` names (see --datasets)."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    sizes = {f"agent-{n // 1000}k" if n % 1000 == 0 else f"agent-{n}": n for n in plan.agent_sizes}
    unknown = [name for name in names if name not in ("agent", "social", *sizes)]
    if unknown:
        raise SystemExit(f"unknown datasets: {', '.join(unknown)} (known: agent, social, {', '.join(sizes)})")
    agent = plan.agent_sizes if "agent" in names else [n for name, n in sizes.items() if name in names]
    keep_social = "social" in names
    return dataclasses.replace(plan, agent_sizes=agent, social=plan.social if keep_social else (),
                               social_scaled=plan.social_scaled if keep_social else [])


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.render:
        data = json.loads(args.render.read_text())
        render(data, args.render.with_suffix(".md"), scale=bool(data["plan"].get("social_scaled")),
               command=data.get("command", "python -m bench"))
        return 0
    plan = scale_plan(parse_sizes(args.scale)) if args.scale else QUICK if args.quick else FULL
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
    if args.no_micro:
        plan = dataclasses.replace(plan, micro=None)
    out = args.out or HERE / ("SCALE.md" if args.scale else "RESULTS-quick.md" if args.quick else "RESULTS.md")
    console = Console(stderr=True)
    started = time.time()

    def log(text: str) -> None:
        console.print(Text(f"{time.time() - started:7.1f}s ", style="dim") + Text(text), highlight=False)

    logs = tempfile.mkdtemp(prefix="cookbook-bench-logs-")
    plan = with_baseline(plan, args.baseline, Path(logs), log)
    log(f"systems: {', '.join(plan.systems)}; worker logs in {logs}")
    info = machine.describe()
    bench = Bench(plan, log=log, log_dir=logs)
    if args.scale:
        bench.done = lambda: write(bench, info, args, out, argv, time.time() - started)
    bench.run()
    for cached in Path(logs).glob("*.pickle"):
        cached.unlink()
    written = write(bench, info, args, out, argv, bench.seconds)
    log(f"wrote {out.name}" + (f" and {', '.join(written)}" if written else " (no chart)")
        + f" in {bench.seconds:.0f} s")
    return 0


def with_baseline(plan: Plan, commit: str, into: Path, log: Callable[[str], None]) -> Plan:
    """The plan with the `baseline` system ready (its commit's engine extracted for its worker), or without
    it when the commit is `none` or cannot be had here."""
    if "baseline" not in plan.systems:
        return plan
    without = dataclasses.replace(plan, systems=[s for s in plan.systems if s != "baseline"])
    if commit.lower() == "none":
        return without
    try:
        baseline.publish(commit, baseline.extract(commit, into))
    except baseline.BaselineUnavailable as error:
        log(f"baseline: left out: {error}")
        return without
    return plan


def write(bench: Bench, info: dict, args: argparse.Namespace, out: Path, argv: list[str] | None,
          seconds: float) -> list[str]:
    """The report, its JSON and charts from what `bench` measured so far; the names of the charts written."""
    info["load_after"] = machine.load_average()
    data = report.collect(bench, info, quick=args.quick)
    data["seconds"] = seconds
    data["command"] = " ".join(["python -m bench", *(argv if argv is not None else sys.argv[1:])])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(data, indent=1, default=str) + "\n")
    return render(data, out, scale=bool(args.scale), command=data["command"])


def render(data: dict, out: Path, scale: bool, command: str) -> list[str]:
    """The Markdown report and its charts beside it; the names of the charts written."""
    chart = out.with_suffix(".png")
    growth = out.with_name(out.stem + "-growth.png")
    # the scale series' one chart is the growth chart; the full run's gets one beside its bars
    charts = {"bars": None if scale else chart, "growth": chart if scale else growth}
    written = {key: path.name for key, path in charts.items()
               if path is not None and (report.chart if key == "bars" else scale_report.chart)(data, path)}
    text = report.markdown(data, written.get("bars"), command=command)
    out.write_text(text + scale_report.markdown(data, written.get("growth")))
    return list(written.values())


if __name__ == "__main__":
    sys.exit(main())
