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
