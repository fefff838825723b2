"""The expected-failures list, tests/tck/expected_failures.txt: one `scenario id  # reason` per line.

A listed scenario that fails is reported xfail; one that passes fails the run ("remove it from the list"),
so the list can only shrink. Regenerate it from a run's report, keeping the reasons already written:

    python -m tests.tck.expected --from tck-outcome.json

Only the report's current failures are written. Listed ids the report did not run (a partial run) are kept,
since nothing says they pass.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from tests.tck.report import Record, read_report

LIST_PATH = Path(__file__).with_name("expected_failures.txt")
HEADER = """\
# openCypher TCK scenarios this engine is known to fail: `scenario id  # reason`, one per line.
# A listed scenario that passes fails the run: remove its line. Regenerate from a report with
#   python -m tests.tck.expected --from tck-outcome.json
"""
_ENTRY = re.compile(r"(?P<id>.+?)(?:\s{2,}#\s?(?P<reason>.*))?")
FAILED = ("failed", "errored")


def parse(text: str) -> dict[str, str]:
    """Scenario id → reason; blank lines and lines starting with `#` are skipped."""
    entries: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        found = _ENTRY.fullmatch(line)
        assert found is not None  # the pattern accepts any non-empty line
        entries[found["id"].strip()] = (found["reason"] or "").strip()
    return entries


def load(path: Path = LIST_PATH) -> dict[str, str]:
    return parse(path.read_text(encoding="utf-8")) if path.exists() else {}


def dump(entries: dict[str, str]) -> str:
    lines = [f"{scenario_id}  # {reason}" if reason else scenario_id
             for scenario_id, reason in sorted(entries.items())]
    return HEADER + "".join(line + "\n" for line in lines)


def regenerate(records: list[Record], current: dict[str, str]) -> dict[str, str]:
    """The report's failures, each with its listed reason or else the report's; unreported entries stay."""
    reported = {record.id for record in records}
    entries = {scenario_id: reason for scenario_id, reason in current.items() if scenario_id not in reported}
    for record in records:
        if record.outcome in FAILED:
            entries[record.id] = current.get(record.id) or f"{record.outcome}: {record.reason}"
    return entries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.tck.expected",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="report", type=Path, required=True, help="a TCK outcome report (JSON)")
    parser.add_argument("--list", type=Path, default=LIST_PATH,
                        help="the list to rewrite (default: %(default)s)")
    args = parser.parse_args(argv)
    records = read_report(args.report)
    current = load(args.list)
    entries = regenerate(records, current)
    args.list.write_text(dump(entries), encoding="utf-8")
    kept = sum(1 for scenario_id in entries if scenario_id not in {record.id for record in records})
    removed = len(current.keys() - entries.keys())
    print(f"{args.list}: {len(entries)} expected failures "
          f"({removed} removed, {kept} kept from outside the report)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
