"""Outcome records for the TCK run: the terminal summary and the JSON report.

A record is the engine's verdict on one scenario: `passed`, `failed` (it ran and the answer was wrong) or
`errored` (it could not be judged: an engine crash, a failing setup query, a harness problem). Whether
the scenario is on the expected-failures list is kept beside the verdict, so the totals describe the engine.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

OUTCOMES = ("passed", "failed", "errored")
REASON_LENGTH = 200


@dataclass(frozen=True)
class Record:
    id: str
    group: str
    outcome: str
    reason: str = ""
    expected_failure: bool = False
    seconds: float = 0.0  # wall time of the scenario, to find the slow ones

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Record:
        return cls(**{key: data[key] for key in cls.__dataclass_fields__ if key in data})  # type: ignore[arg-type]


def short_reason(text: str) -> str:
    """The first informative line of a failure, cut to fit a report cell."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    line = lines[0] if lines else ""
    return line if len(line) <= REASON_LENGTH else line[:REASON_LENGTH - 1] + "…"


def totals(records: Iterable[Record]) -> Counter[str]:
    return Counter(record.outcome for record in records)


def by_group(records: Iterable[Record]) -> dict[str, Counter[str]]:
    """Folder → outcome counts, sorted by folder."""
    groups: dict[str, Counter[str]] = {}
    for record in records:
        groups.setdefault(record.group, Counter())[record.outcome] += 1
    return dict(sorted(groups.items()))


def summary_lines(records: list[Record]) -> list[str]:
    """`TCK: passed P / failed F / errored E / total T`, then passed/total per folder."""
    counts = totals(records)
    verdicts = " / ".join(f"{outcome} {counts[outcome]}" for outcome in OUTCOMES)
    lines = [f"TCK: {verdicts} / total {len(records)}"]
    groups = by_group(records)
    width = max((len(group) for group in groups), default=5)
    lines.append(f"{'group':<{width}}  passed / total")
    lines += [f"{group:<{width}}  {count['passed']:>6} / {count.total()}" for group, count in groups.items()]
    listed = [record for record in records if record.expected_failure]
    now_passing = sum(record.outcome == "passed" for record in listed)
    if listed:
        lines.append(f"expected failures: {len(listed)} run, {now_passing} now passing"
                     + (" (remove them from tests/tck/expected_failures.txt)" if now_passing else ""))
    return lines


def write_report(path: Path, records: list[Record]) -> None:
    """One JSON file: totals, per-group counts and every scenario's record, sorted by id."""
    counts = totals(records)
    document = {
        "totals": {**{outcome: counts[outcome] for outcome in OUTCOMES}, "total": len(records)},
        "groups": {group: {"passed": count["passed"], "total": count.total()}
                   for group, count in by_group(records).items()},
        "scenarios": [asdict(record) for record in sorted(records, key=lambda record: record.id)],
    }
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def read_report(path: Path) -> list[Record]:
    return [Record.from_dict(entry) for entry in json.loads(path.read_text(encoding="utf-8"))["scenarios"]]
