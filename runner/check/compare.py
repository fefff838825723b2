"""A recorded block against a cell's result, compared as structures, not as text.

Both sides become the same structure: column names, rows as tuples of value literals, the row count and
the counters. Value literals are canonical (sorted map keys, one spelling per value), so comparing them
compares the values, while padding and column widths do not matter. Rows are compared in order when the
cell's last statement ends in ORDER BY (`CellResult.ordered`), as a multiset otherwise; counters key by
key. A gram block's `(nID)` back-references are expanded first, since they depend on row order.

An `error` block (`check_error`) is compared by its first line, `Kind: Detail`, and by its message lines
when it has any.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from runner.page.model import RecordedBlock
from runner.render import RENDERERS, block_kind_for
from runner.render import render as render_result
from runner.render.error import message_lines, read_error_block, render_error
from runner.render.gram import render_gram
from runner.render.values import Seen, format_value
from runner.result import COUNTER_LABELS, CellResult, RaisedError

FOOTER = re.compile(r"^(?:\((?P<none>no) rows\)|(?P<count>\d+) rows?)(?: · (?P<counters>.*))?$")
GRAM_HEADER = re.compile(r"^// (?P<count>\d+) rows?(?: · (?P<counters>.*))?$")
COUNTER = re.compile(r"^(?P<label>[a-z ]+): (?P<count>\d+)$")
COUNTER_KEYS = {label: key for key, label in COUNTER_LABELS.items()}


@dataclass
class Shape:
    """What a block says: columns (None for gram), rows of value texts, the row count, the counters."""

    columns: list[str] | None
    rows: list[tuple[str, ...]]
    count: int
    counters: dict[str, int] = field(default_factory=dict)


@dataclass
class Check:
    """The comparison of one recorded block with one result.

    `actual` is the result rendered in the recorded block's kind, rows in the engine's order: what
    `--update` writes. `shown` is the same rendering with rows put in the recording's order wherever
    order does not matter, so that a diff shows only what differs.
    """

    equal: bool
    reasons: list[str]
    actual: str
    shown: str


class UnreadableBlock(ValueError):
    """The recorded block is not a table or gram block this runner could have written."""


def check_cell(recorded: RecordedBlock, result: CellResult | RaisedError) -> Check:
    """A recorded `table` or `gram` block against a result (an error, read from a snapshot, never
    matches)."""
    if isinstance(result, RaisedError):
        actual = render_error(result)
        return Check(False, [f"the cell raised {result.headline}"], actual, actual)
    render = RENDERERS[recorded.kind]
    actual_text = render(result)
    actual = SHAPE_READERS[recorded.kind].from_result(result)
    try:
        expected = SHAPE_READERS[recorded.kind].from_text(recorded.text)
    except UnreadableBlock as error:
        return Check(False, [f"the recorded {recorded.kind} block cannot be read: {error}"],
                     actual_text, actual_text)
    reasons = compare_shapes(expected, actual, ordered=result.ordered)
    shown_text = actual_text
    if reasons and not result.ordered:
        order = align(expected.rows, actual.rows)
        shown_text = render(CellResult(result.columns, [result.rows[i] for i in order], result.counters,
                                       result.ordered))
    return Check(not reasons, reasons, actual_text, shown_text)


def check_error(recorded: RecordedBlock, outcome: CellResult | RaisedError) -> Check:
    """A recorded `error` block against what its cell (marked `error`) did: raise `outcome`, or give it as
    a result. The first lines must be equal; the message lines too, when the block has any."""
    if not isinstance(outcome, RaisedError):
        actual = render_result(outcome, block_kind_for(outcome))
        return Check(False, ["the cell is marked `error` but ran without one"], actual, actual)
    actual = render_error(outcome)
    try:
        expected = read_error_block(recorded.text)
    except ValueError as error:
        return Check(False, [f"the recorded error block cannot be read: {error}"], actual, actual)
    reasons = []
    if expected.headline != outcome.headline:
        reasons.append(f"the error differs: recorded {expected.headline}, actual {outcome.headline}")
    elif expected.message and expected.message != message_lines(outcome.message):
        reasons.append("the error's message differs")
    return Check(not reasons, reasons, actual, actual)


def compare_shapes(expected: Shape, actual: Shape, *, ordered: bool) -> list[str]:
    """Why the two differ, one reason a line; empty when they match."""
    reasons = []
    if expected.columns is not None and expected.columns != actual.columns:
        reasons.append(f"columns differ: recorded {expected.columns}, actual {actual.columns}")
    if expected.count != len(expected.rows) and expected.rows:
        reasons.append(f"the recording says {expected.count} rows but shows {len(expected.rows)}")
    if ordered:
        if expected.rows != actual.rows or expected.count != actual.count:
            reasons.append("rows differ (in order: the last statement ends in ORDER BY)")
    elif Counter(expected.rows) != Counter(actual.rows) or expected.count != actual.count:
        reasons.append("rows differ (as a multiset: the last statement has no ORDER BY)")
    extra = sorted((set(expected.counters) | set(actual.counters)) - set(COUNTER_LABELS))
    for key in [*COUNTER_LABELS, *extra]:
        was, now = expected.counters.get(key, 0), actual.counters.get(key, 0)
        if was != now:
            reasons.append(f"{COUNTER_LABELS.get(key, key)}: recorded {was}, actual {now}")
    return reasons


def align(expected: Sequence[tuple[str, ...]], actual: Sequence[tuple[str, ...]]) -> list[int]:
    """A permutation of the actual rows that keeps the recorded order for the rows both sides have;
    the other actual rows take the places of recorded rows that have no match, in engine order."""
    pool: dict[tuple[str, ...], deque[int]] = defaultdict(deque)
    for index, row in enumerate(actual):
        pool[row].append(index)
    slots: list[int | None] = [pool[row].popleft() if pool[row] else None for row in expected]
    used = {index for index in slots if index is not None}
    spare = deque(index for index in range(len(actual)) if index not in used)
    order = []
    for slot in slots:
        if slot is not None:
            order.append(slot)
        elif spare:
            order.append(spare.popleft())
    return order + list(spare)


def read_counters(text: str | None) -> dict[str, int]:
    counters: dict[str, int] = {}
    if not text:
        return counters
    for part in text.split(", "):
        match = COUNTER.match(part.strip())
        if not match or match["label"] not in COUNTER_KEYS:
            raise UnreadableBlock(f"unknown counter {part.strip()!r}")
        counters[COUNTER_KEYS[match["label"]]] = int(match["count"])
    return counters


class TableShape:
    """Reads a `table` block back into a Shape, and makes one from a result."""

    @staticmethod
    def from_result(result: CellResult) -> Shape:
        rows = [tuple(format_value(value, Seen()) for value in row) for row in result.rows]
        return Shape(list(result.columns), rows, len(rows), result.nonzero_counters())

    @staticmethod
    def from_text(text: str) -> Shape:
        lines = [line for line in text.split("\n") if line.strip()]
        if not lines:
            raise UnreadableBlock("it is empty")
        footer = FOOTER.match(lines[-1].strip())
        if not footer:
            raise UnreadableBlock(f"the last line {lines[-1]!r} is not a footer such as '2 rows'")
        count = 0 if footer["none"] else int(footer["count"])
        counters = read_counters(footer["counters"])
        body = lines[:-1]
        if not body:
            return Shape(None if count == 0 else [], [], count, counters)
        if len(body) < 2:
            raise UnreadableBlock("a table needs a header line and a rule line")
        widths = _rule_widths(body[1])
        columns = list(split_row(body[0], widths))
        rows = [split_row(line, widths) for line in body[2:]]
        for number, row in enumerate(rows, start=1):
            if len(row) != len(columns):
                raise UnreadableBlock(f"row {number} has {len(row)} cells for {len(columns)} columns")
        return Shape(columns, rows, count, counters)


def _rule_widths(line: str) -> list[int] | None:
    stripped = line.strip()
    if not re.fullmatch(r"\|(?:[-:]+\|)+", stripped):
        raise UnreadableBlock(f"the second line {line!r} is not a rule line such as '|----|'")
    return [len(part) for part in stripped[1:-1].split("|")]


def split_row(line: str, widths: Sequence[int] | None = None) -> tuple[str, ...]:
    """The cell texts of a `| a | b |` line. Cut at the rule line's widths when the line fits them (so a
    `|` inside a value or a column name is no problem); otherwise split at `|` outside quotes and
    brackets."""
    line = line.strip()
    if widths:
        bars = [0]
        for width in widths:
            bars.append(bars[-1] + width + 1)
        if len(line) == bars[-1] + 1 and all(line[bar] == "|" for bar in bars):
            return tuple(line[left + 1:right].strip() for left, right in pairwise(bars))
    if not (line.startswith("|") and line.endswith("|")):
        raise UnreadableBlock(f"{line[:40]!r}… is not a table row ending in '|'")
    return tuple(cell.strip() for cell in _split_outside_quotes(line[1:-1], "|"))


def _split_outside_quotes(text: str, separator: str) -> list[str]:
    parts, start, depth, quote, index = [], 0, 0, "", 0
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\" and quote == '"':
                index += 1
            elif char == quote:
                quote = ""
        elif char in "\"'`":
            quote = char
        elif char in "[{(":
            depth += 1
        elif char in "]})":
            depth -= 1
        elif char == separator and depth <= 0:
            parts.append(text[start:index])
            start = index + 1
        index += 1
    parts.append(text[start:])
    return parts


class GramShape:
    """Reads a `gram` block back into a Shape (references expanded), and makes one from a result."""

    @staticmethod
    def from_result(result: CellResult) -> Shape:
        lines = render_gram(result, expand=True).split("\n")[1:-1]
        return Shape(None, [(line,) for line in lines], len(lines), result.nonzero_counters())

    @staticmethod
    def from_text(text: str) -> Shape:
        lines = [line for line in text.split("\n") if line.strip()]
        header = GRAM_HEADER.match(lines[0].strip()) if lines else None
        if not header:
            raise UnreadableBlock("the first line should be '// N rows'")
        rows = lines[1:]
        definitions: dict[str, str] = {}
        for row in rows:
            for start, end in node_spans(row):
                node = row[start:end]
                key = _node_id(node)
                if key and node != f"({key})":
                    definitions.setdefault(key, node)
        expanded = [(expand_references(row, definitions),) for row in rows]
        return Shape(None, expanded, int(header["count"]), read_counters(header["counters"]))


def _node_id(node: str) -> str | None:
    match = re.match(r"^\((n\d+)(?=[:\s){])", node)
    return match[1] if match else None


def node_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each `( … )` outside string literals and backtick-quoted names."""
    spans, quote, start, index = [], "", None, 0
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\" and quote == '"':
                index += 1
            elif char == quote:
                quote = ""
        elif char in "\"`":
            quote = char
        elif char == "(" and start is None:
            start = index
        elif char == ")" and start is not None:
            spans.append((start, index + 1))
            start = None
        index += 1
    return spans


def expand_references(row: str, definitions: dict[str, str]) -> str:
    """Write out in full each `(nID)` whose node the row has not yet written in full itself."""
    out, position, written = [], 0, set()
    for start, end in node_spans(row):
        node = row[start:end]
        key = _node_id(node)
        out.append(row[position:start])
        if key and node == f"({key})" and key not in written and key in definitions:
            out.append(definitions[key])
        else:
            out.append(node)
        if key:
            written.add(key)
        position = end
    out.append(row[position:])
    return "".join(out)


SHAPE_READERS: dict[str, type[TableShape] | type[GramShape]] = {"table": TableShape, "gram": GramShape}
"""Recorded block kind → how to read it back and how to shape a result like it."""
