"""The report's count of the reads each of ours and the hand-written SQL beats every peer on."""

from __future__ import annotations

from bench import report


def _record(dataset: str, workload: str, system: str, ms: float | None) -> dict:
    return {"dataset": dataset, "workload": workload, "system": system, "status": "ok" if ms else "wrong",
            "median": ms / 1000 if ms else None, "times": [ms / 1000] if ms else [], "note": ""}


def test_the_fastest_section_counts_reads_beaten_on_every_peer() -> None:
    rows = [("recall", 20, 15, 4, 30), ("slots", 9, 8, 20, 12), ("top_entities", 12, 9, None, 10)]
    # a run's smaller scale first, then the largest, whose reads alone count (not its writes)
    records = [_record("agent-1k", "slots", "ours", 1), _record("agent-1k", "slots", "falkordb", 9)]
    records += [_record("agent-100k", w, s, ms) for w, *times in rows
                for s, ms in zip(("ours", "handsql", "falkordb", "kuzu"), times, strict=True)]
    records += [_record("agent-100k", "remember", "ours", 1), _record("agent-100k", "remember", "kuzu", 9)]
    data = {"systems": ["ours", "handsql", "falkordb", "kuzu"], "records": records}
    lines = report._fastest(data)
    assert "| agent-100k | `recall` | FalkorDB 4.0 | 20.0 (5.0×) | 15.0 (3.8×) |" in lines
    assert "| agent-100k | `top_entities` | Kuzu 10.0 | 12.0 (1.2×) | 9.0 fastest |" in lines
    assert lines[-1] == "Ours is faster than every peer on 1 of these 3 reads; the hand-written SQL on 2."


def _timed(dataset: str, workload: str, system: str, ms: float, cpu_rounds: list[float] | None) -> dict:
    """A record timed in rounds: its CPU time in each (ms), whose median is its CPU median."""
    cpu = [c / 1000 for c in cpu_rounds or []]
    return {**_record(dataset, workload, system, ms), "cpu": cpu,
            "cpu_median": sorted(cpu)[len(cpu) // 2] if cpu else None}


def test_against_the_baseline_flags_reads_at_the_largest_scale_more_than_five_percent_slower() -> None:
    # (workload, ours ms, ours CPU ms per round, baseline ms, baseline CPU ms per round)
    rows = [("recall", 10, [10, 10, 10], 10, [9.4, 9.4, 9.4]),  # CPU 6% slower in every round: flagged
            ("slots", 12, [10, 10, 10], 10, [10, 10, 10]),       # wall 20% slower, CPU equal: the CPU time decides
            # the medians 6% apart, each round's pair within 3%: the rounds' paired ratio decides
            ("nearby", 10, [10, 11, 12], 10, [10, 10.4, 12.3]),
            ("as_of", 5, None, 4, None),                         # no CPU time: the wall clock decides
            ("remember", 300, None, 100, None)]                  # a write, not a read: shown, not counted
    records = [_timed("agent-1k", "recall", "ours", 20, [20]), _timed("agent-1k", "recall", "baseline", 10, [10])]
    for w, ours, ours_cpu, base, base_cpu in rows:
        records += [_timed("agent-100k", w, "ours", ours, ours_cpu),
                    _timed("agent-100k", w, "baseline", base, base_cpu)]
    data = {"systems": ["ours", "handsql", "baseline"], "records": records,
            "versions": {"baseline": "engine at 9424e70"}}
    lines = report._against_baseline(data)
    assert "| agent-100k | `recall` | 10.0 | 10.0 | 1.00× | 1.06× | 1.06× | **yes** |" in lines
    assert "| agent-100k | `slots` | 12.0 | 10.0 | 1.20× | 1.00× | 1.00× | no |" in lines
    assert "| agent-100k | `nearby` | 10.0 | 10.0 | 1.00× | 1.06× | 1.00× | no |" in lines
    assert "| agent-100k | `as_of` | 5.0 | 4.0 | 1.25× | – | – | **yes** |" in lines
    assert lines[-1] == ("Reads at the largest scale (agent-100k) more than 5% slower than at the baseline commit:"
                         " agent-100k `recall`, agent-100k `as_of`.")
    assert report._against_baseline({**data, "systems": ["ours", "handsql"]}) == []
