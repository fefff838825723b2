"""A trace block's recording: each step's tool result as text, read back and compared as structures.

    // step 1 of 7: read_cypher
    | slot                      |
    |---------------------------|
    | "billing service/on-call" |
    1 row

    // step 2 of 7: write_cypher
    (no rows) · nodes_created: 5, relationships_created: 8, properties_set: 14, labels_added: 5

    // step 3 of 7: read_cypher
    error: ForbiddenError: this statement writes to the graph (it has an updating clause); …

    // step 4 of 7: details
    | key                        | state    |
    |----------------------------|----------|
    | "pr:teamgraph/cookbook#13" | "MERGED" |
    1 row
    keys: ["pr:teamgraph/cookbook#13"]

A step shows what the client got back. Rows are a table laid out like a `table` block, but each value
is the JSON the tool sent (compact, keys sorted), not a Cypher literal: a node is the map
`{"id": …, "labels": …, "properties": …}`, a datetime an ISO string. The footer gives the row count and
the non-zero counters under the tool's own snake_case names. A tool error is its text after `error: `.
A result with no `rows` (`get_schema`) is one row of its fields. A page's typed tool (docs/tool-cells.md)
also returns the node keys and the relationships its result holds: after the footer, a `keys: ` line and
a `relationships: ` line give them as JSON, each only when it is not empty.

The comparison is the one `table` blocks get (`runner.check.compare`): columns, rows in order when the
statement ends in ORDER BY and as a multiset otherwise, the row count, counters key by key; plus the
tool name, the error text, the keys and the relationships of each step. Column widths and blank lines do
not matter.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

from runner.check.compare import Check, Shape, UnreadableBlock, align, compare_shapes, split_row
from runner.render.table import row_count_text, table_text

STEP_HEADER = re.compile(r"^// step (?P<number>\d+) of (?P<total>\d+): (?P<tool>\S+)$")
FOOTER = re.compile(r"^(?:\((?P<none>no) rows\)|(?P<count>\d+) rows?)(?: · (?P<counters>.+))?$")
COUNTER = re.compile(r"^(?P<key>[a-z_]+): (?P<count>\d+)$")
ERROR_PREFIX = "error: "
SEEN_LINES = ("keys", "relationships")
"""The lists a typed tool's result carries beside its rows, each recorded as a `NAME: JSON` line."""


@dataclass
class Step:
    """One call's result as the recording shows it: value texts, not values."""

    tool: str
    columns: list[str] | None = None
    rows: list[tuple[str, ...]] = field(default_factory=list)
    count: int = 0
    counters: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    ordered: bool = False
    seen: dict[str, str] = field(default_factory=dict)
    """`keys` and `relationships` as the JSON text of their lists, each only when not empty."""

    def shape(self) -> Shape:
        return Shape(self.columns, self.rows, self.count, self.counters)


def json_text(value: Any) -> str:
    """A JSON value on one line, keys sorted, so the same value is always the same text."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))


def step_from_result(tool: str, payload: dict[str, Any] | None, error: str | None, *, ordered: bool) -> Step:
    """The Step for a tool's structured result, or for its error text."""
    if error is not None:
        return Step(tool, error=error.rstrip())
    payload = payload or {}
    if "rows" not in payload:  # get_schema: one row of its fields (`truncated` only when it was)
        fields = {key: value for key, value in payload.items() if not (key == "truncated" and value is False)}
        payload = {"columns": list(fields), "rows": [fields]}
    rows = payload["rows"]
    columns = list(payload.get("columns") or (rows[0] if rows else []))
    texts = [tuple(json_text(row.get(column)) for column in columns) for row in rows]
    counters = {key: count for key, count in (payload.get("counters") or {}).items() if count}
    seen = {name: json_text(payload[name]) for name in SEEN_LINES if payload.get(name)}
    return Step(tool, columns, texts, len(texts), counters, ordered=ordered, seen=seen)


def render_steps(steps: list[Step], total: int | None = None) -> str:
    """The recording's text, a blank line between steps, each line ending in a newline. With `total`,
    `steps` are the first of a trace of that many (a live trace stepped so far)."""
    return "\n".join(render_step(number, total or len(steps), step) for number, step in enumerate(steps, start=1))


def render_step(number: int, total: int, step: Step) -> str:
    head = f"// step {number} of {total}: {step.tool}\n"
    if step.error is not None:
        return head + ERROR_PREFIX + step.error + "\n"
    lines = table_text(step.columns or [], step.rows, {}).splitlines()
    lines[-1] = footer(step.count, step.counters)
    lines.extend(f"{name}: {text}" for name, text in step.seen.items())
    return head + "".join(line + "\n" for line in lines)


def footer(count: int, counters: dict[str, int]) -> str:
    text = ", ".join(f"{key}: {value}" for key, value in counters.items() if value)
    return row_count_text(count) + (f" · {text}" if text else "")


def read_steps(text: str) -> list[Step]:
    """The steps a recording shows. Raises UnreadableBlock when it is not one this module wrote."""
    sections: list[tuple[str, list[str]]] = []
    for line in text.split("\n"):
        header = STEP_HEADER.match(line.strip())
        if header:
            sections.append((header["tool"], []))
        elif sections:
            sections[-1][1].append(line)
        elif line.strip():
            raise UnreadableBlock(f"{line.strip()[:40]!r} comes before the first '// step N of M: TOOL' line")
    return [read_step(tool, body) for tool, body in sections]


def read_step(tool: str, body: list[str]) -> Step:
    while body and not body[-1].strip():
        body = body[:-1]
    while body and not body[0].strip():
        body = body[1:]
    if not body:
        raise UnreadableBlock(f"the {tool} step shows no result")
    if body[0].startswith(ERROR_PREFIX):
        return Step(tool, error="\n".join(body)[len(ERROR_PREFIX):])
    lines = [line.strip() for line in body if line.strip()]
    lines, seen = split_seen(lines)
    if not lines:
        raise UnreadableBlock(f"the {tool} step shows no footer such as '2 rows · nodes_created: 1'")
    found = FOOTER.match(lines[-1])
    if not found:
        raise UnreadableBlock(f"{lines[-1][:40]!r} is not a footer such as '2 rows · nodes_created: 1'")
    count = 0 if found["none"] else int(found["count"])
    counters = read_counters(found["counters"])
    table = lines[:-1]
    if not table:
        return Step(tool, None, [], count, counters, seen=seen)
    if len(table) < 2 or not re.fullmatch(r"\|(?:-+\|)+", table[1]):
        raise UnreadableBlock(f"the {tool} step's table needs a header line and a rule line")
    widths = [len(part) for part in table[1][1:-1].split("|")]
    columns = list(split_row(table[0], widths))
    rows = [split_row(line, widths) for line in table[2:]]
    return Step(tool, columns, rows, count, counters, seen=seen)


def split_seen(lines: list[str]) -> tuple[list[str], dict[str, str]]:
    """A step's lines without its closing `keys: …` and `relationships: …` lines, and those as JSON texts
    (canonical, so that spacing in the recording does not matter)."""
    seen: dict[str, str] = {}
    while lines and lines[-1].partition(": ")[0] in SEEN_LINES:
        name, _, text = lines[-1].partition(": ")
        try:
            seen[name] = json_text(json.loads(text))
        except json.JSONDecodeError as error:
            raise UnreadableBlock(f"the {name} line is not JSON: {error.msg}") from error
        lines = lines[:-1]
    return lines, {name: seen[name] for name in SEEN_LINES if name in seen}


def read_counters(text: str | None) -> dict[str, int]:
    counters: dict[str, int] = {}
    if not text:
        return counters
    for part in text.split(", "):
        found = COUNTER.match(part.strip())
        if not found:
            raise UnreadableBlock(f"{part.strip()!r} is not a counter such as 'nodes_created: 5'")
        counters[found["key"]] = int(found["count"])
    return counters


def compare_steps(expected: list[Step], actual: list[Step]) -> list[str]:
    """Why the recording and the replay differ, one reason a line, each naming its step."""
    reasons = []
    if len(expected) != len(actual):
        reasons.append(f"the recording shows {len(expected)} steps, the replay made {len(actual)}")
    for number, (was, now) in enumerate(zip(expected, actual, strict=False), start=1):
        reasons.extend(f"step {number} ({now.tool}): {reason}" for reason in compare_step(was, now))
    return reasons


def compare_step(was: Step, now: Step) -> list[str]:
    if was.tool != now.tool:
        return [f"the recording shows a {was.tool} call"]
    if (was.error is None) != (now.error is None):
        return ["recorded an error, the tool returned a result" if was.error is not None
                else f"the tool returned an error: {now.error.splitlines()[0]}"]
    if was.error is not None and now.error is not None:
        same = _lines(was.error) == _lines(now.error)
        return [] if same else ["the error text differs"]
    reasons = compare_shapes(was.shape(), now.shape(), ordered=now.ordered)
    return reasons + [f"the {name} differ" for name in SEEN_LINES if was.seen.get(name) != now.seen.get(name)]


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip().splitlines()]


def check_steps(recorded: str, actual: list[Step], total: int | None = None) -> Check:
    """The recording against the replay's steps, as a Check: what `--update` writes, and what a diff
    shows (unordered rows put in the recording's order, so only real differences show). With `total`,
    `actual` are the first steps of a trace of that many, checked against as many recorded steps."""
    actual_text = render_steps(actual, total)
    try:
        expected = read_steps(recorded)
    except UnreadableBlock as error:
        return Check(False, [f"the recorded trace cannot be read: {error}"], actual_text, actual_text)
    if total is not None:
        expected = expected[:len(actual)]
    reasons = compare_steps(expected, actual)
    shown = actual
    if reasons:
        aligned = [_aligned(was, now) for was, now in zip(expected, actual, strict=False)]
        shown = aligned + actual[len(expected):]
    return Check(not reasons, reasons, actual_text, render_steps(shown, total))


def first_steps(recorded: str, count: int) -> str:
    """The recording's text up to its step `count + 1` (all of it when it has no more steps)."""
    lines = recorded.split("\n")
    headers = [index for index, line in enumerate(lines) if STEP_HEADER.match(line.strip())]
    return recorded if len(headers) <= count else "\n".join(lines[:headers[count]])


def _aligned(was: Step, now: Step) -> Step:
    if now.ordered or now.error is not None or was.error is not None:
        return now
    return replace(now, rows=[now.rows[index] for index in align(was.rows, now.rows)])
