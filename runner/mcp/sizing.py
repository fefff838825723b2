"""Tool results sized for a model's context (ADR-0088): a result holds at most `max_rows` rows and about
`max_bytes` of JSON, long values are shortened with a marker, and a truncated result says so and, when the
statement can be run again exactly, carries a cursor to the rows after.

Only the rows a result can hold are read from the engine (`engine.Window`: the final SELECT fetches those and
one more). A cursor is stateless: it names the statement (a digest of the tool, the statement, its
parameters, its graph and `full_values`), the offset of the next row, the graph's last write when the first
page ran, and a digest of the last row sent. The next page runs the statement again with a window from one
row before that offset: the row must be the one sent, the graph must not have been written since, and the
row must not tie with the next in the statement's row order; otherwise the call fails with a message
saying why, never with rows that would repeat or skip some.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import engine
from runner.mcp.values import JsonValue, row_to_json

DEFAULT_MAX_ROWS = 200
DEFAULT_MAX_BYTES = 64 * 1024
"""A result's rows, and its JSON in bytes (UTF-8), by default: a page of a model's context, not all of it."""
ENVELOPE = 1024
"""Bytes kept free of rows for the rest of a result (columns, counters, the message, the cursor)."""


@dataclass(frozen=True)
class Caps:
    """How much one tool result holds. Strings longer than `max_text` characters and lists longer than
    `max_items` are cut, and vectors of more than `max_coordinates` lose their coordinates, unless a call
    asks for `full_values`."""

    max_rows: int = DEFAULT_MAX_ROWS
    max_bytes: int = DEFAULT_MAX_BYTES
    max_text: int = 1000
    max_items: int = 50
    max_coordinates: int = 16

    def __post_init__(self) -> None:
        if self.max_rows < 1 or self.max_bytes < 2 * ENVELOPE:
            raise ValueError(f"a result must hold a row and {2 * ENVELOPE} bytes at least "
                             f"(max rows {self.max_rows}, max bytes {self.max_bytes})")


FULL = "full_values: true gives it whole"


def shortened(value: Any, caps: Caps) -> Any:
    """`value` with its long strings and lists cut and its long vectors summarised, marked where cut."""
    for base in type(value).__mro__:
        rule = SHORTENERS.get(base)
        if rule is not None:
            return rule(value, caps)
    return value


def _text(value: str, caps: Caps) -> str:
    if len(value) <= caps.max_text:
        return value
    return f"{value[:caps.max_text]}… [cut: {len(value):,} characters in all; {FULL}]"


def _items(value: list[Any] | tuple[Any, ...], caps: Caps) -> list[Any]:
    kept = [shortened(item, caps) for item in value[:caps.max_items]]
    if len(value) > caps.max_items:
        kept.append(f"… [cut: {len(value):,} items in all; {FULL}]")
    return kept


def _vector(value: engine.Vector, caps: Caps) -> Any:
    if value.dimension <= caps.max_coordinates:
        return value
    return {"coordinateType": value.coordinate_type, "dimension": value.dimension,
            "coordinates": f"[cut: {value.dimension:,} coordinates; {FULL}]"}


def _properties(properties: dict[str, Any], caps: Caps) -> dict[str, Any]:
    return {key: shortened(item, caps) for key, item in properties.items()}


SHORTENERS: dict[type, Callable[[Any, Caps], Any]] = {
    str: _text,
    list: _items,
    tuple: _items,
    dict: _properties,
    engine.Vector: _vector,
    engine.Node: lambda node, caps: engine.Node(node.id, node.labels, _properties(node.properties, caps)),
    engine.Relationship: lambda rel, caps: engine.Relationship(rel.id, rel.type, rel.start, rel.end,
                                                               _properties(rel.properties, caps)),
    engine.Path: lambda path, caps: engine.Path(tuple(shortened(node, caps) for node in path.nodes),
                                                tuple(shortened(rel, caps) for rel in path.relationships)),
}
"""Python type of a result value → how it is shortened (looked up along the MRO); other values stay."""


class CursorError(Exception):
    """A cursor that cannot give the next rows; `str()` is what the model reads."""


@dataclass(frozen=True)
class Cursor:
    """Where the next page starts: `offset` rows of `statement` (a digest) were sent, the last one `last_row`
    (a digest), while the graph's last write was `written`."""

    statement: str
    offset: int
    written: int | None
    last_row: str

    def token(self) -> str:
        text = json.dumps([self.statement, self.offset, self.written, self.last_row], separators=(",", ":"))
        return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")

    @staticmethod
    def read(token: str) -> Cursor:
        try:
            padded = token + "=" * (-len(token) % 4)
            statement, offset, written, last_row = json.loads(base64.urlsafe_b64decode(padded.encode()))
            if not (isinstance(offset, int) and offset > 0 and isinstance(statement, str)
                    and isinstance(last_row, str) and (written is None or isinstance(written, int))):
                raise ValueError(token)
        except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
            raise CursorError("CursorError: this cursor is not one this server gave; send the statement "
                              "without a cursor to start again.") from None
        return Cursor(statement, offset, written, last_row)


def digest(*parts: Any) -> str:
    text = json.dumps(parts, sort_keys=True, default=repr, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def last_write(connection: Any, graph: str | None) -> int | None:
    """The graph's last committed write, in microseconds (ADR-0068): what a cursor checks nothing changed."""
    name = graph or connection.graph
    for entry in connection.graphs():
        if entry["name"] == name:
            written = entry["last_write"]
            return None if written is None else int(written.timestamp() * 1_000_000)
    return None


@dataclass
class Page:
    """The rows one result sends, as JSON, and what it says about the rows it does not."""

    rows: list[dict[str, JsonValue]]
    truncated: bool
    cursor: str | None = None
    message: str | None = None

    def fields(self) -> dict[str, JsonValue]:
        """What the result adds beside its rows: `truncated`, `returned`, and when truncated `message`
        (what to do) and `cursor` (when there is one)."""
        extra: dict[str, JsonValue] = {"truncated": self.truncated, "returned": len(self.rows)}
        if self.message is not None:
            extra["message"] = self.message
        if self.cursor is not None:
            extra["cursor"] = self.cursor
        return extra


@dataclass(frozen=True)
class Request:
    """One call's paging: its statement's digest, the cursor it brings (None: the first page), and whether it
    wants values whole."""

    statement: str
    cursor: Cursor | None
    full_values: bool

    @staticmethod
    def of(name: str, statement: str, parameters: Mapping[str, Any] | None, graph: str | None,
           cursor: str | None, full_values: bool) -> Request:
        key = digest(name, statement, dict(parameters or {}), graph, full_values)
        read = None if cursor is None else Cursor.read(cursor)
        if read is not None and read.statement != key:
            raise CursorError("CursorError: this cursor belongs to another statement (or other parameters, "
                              "graph or full_values); send the same ones as the call that gave it.")
        return Request(key, read, full_values)

    def window(self, caps: Caps) -> engine.Window:
        """The rows to fetch: a page, and one row before it when resuming (the last row sent, checked)."""
        if self.cursor is None:
            return engine.Window(0, caps.max_rows)
        return engine.Window(self.cursor.offset - 1, caps.max_rows + 1)


class Pager:
    """Cuts a windowed result to the caps and writes its cursor."""

    def __init__(self, caps: Caps) -> None:
        self.caps = caps

    def page(self, request: Request, columns: list[str], result: engine.Result, written: int | None = None,
             now_written: int | None = None, *, pages: bool = True) -> Page:
        """The rows of `result` (fetched with `request.window`) to send. `written`: the graph's last write
        before the first page ran (carried by the cursor); `now_written`: after this page ran. Without
        `pages` (a tool that takes no cursor) a truncated result says what to do instead."""
        skip = 0
        if request.cursor is not None:
            self._check_resume(request.cursor, columns, result, request.full_values, now_written)
            skip, written = 1, request.cursor.written
        rows = self._fitting(columns, result.rows[skip:], request.full_values)
        fetched = len(result.rows) - skip
        if len(rows) == fetched and not result.more:
            return Page(rows, truncated=False)
        limit = "max-bytes" if len(rows) < min(fetched, self.caps.max_rows) else "max-rows"
        if not pages:
            return Page(rows, truncated=True, message=(
                f"Truncated: {len(rows)} rows sent, more follow ({limit} cap). Narrow the call (its arguments) or "
                "read the rest with read_cypher, which pages with a cursor."))
        offset = 0 if request.cursor is None else request.cursor.offset
        cut = len(rows)
        while cut > 0 and not result.resumable_at(skip + cut):
            cut -= 1
        if cut == 0:
            return Page(rows, truncated=True, message=self._no_cursor(result, len(rows), limit))
        rows = rows[:cut]
        cursor = Cursor(request.statement, offset + cut, written, digest(rows[-1])).token()
        return Page(rows, truncated=True, cursor=cursor, message=(
            f"Truncated: {cut} rows sent (rows {offset + 1} to {offset + cut}), more follow ({limit} cap). "
            "For the next rows call again with the same statement and parameters and this cursor; or narrow "
            "the statement (WHERE, LIMIT, fewer or smaller columns, aggregates)."))

    def _fitting(self, columns: list[str], rows: list[tuple[Any, ...]], full: bool) -> list[dict[str, JsonValue]]:
        """As many rows as the caps allow, as JSON (shortened unless `full`); the first always, so that one
        row larger than max-bytes still comes."""
        kept: list[dict[str, JsonValue]] = []
        used = ENVELOPE
        for row in rows[:self.caps.max_rows]:
            value = row_to_json(columns, row if full else tuple(shortened(item, self.caps) for item in row))
            size = len(json.dumps(value, ensure_ascii=False).encode()) + 2  # and ", " before the next
            if kept and used + size > self.caps.max_bytes:
                break
            kept.append(value)
            used += size
        return kept

    def _check_resume(self, cursor: Cursor, columns: list[str], result: engine.Result, full: bool,
                      now_written: int | None) -> None:
        """That the rows after the cursor are exactly the ones after those sent: nothing written since the first
        page, and the row before the cursor is the last one sent, not tied with the next."""
        if now_written != cursor.written:
            raise CursorError("CursorError: the graph was written after this cursor was given, so its rows may "
                              "have changed; send the statement again without a cursor to start over.")
        rows = self._fitting(columns, result.rows[:1], full)
        if not rows or digest(rows[0]) != cursor.last_row or not result.resumable_at(1):
            raise CursorError("CursorError: the statement gave its rows in another order when run again, so this "
                              "cursor cannot continue exactly; page with ORDER BY on a unique key and SKIP/LIMIT.")

    @staticmethod
    def _no_cursor(result: engine.Result, sent: int, limit: str) -> str:
        why = ("its rows tie in the statement's row order at every place the page could end" if result.repeatable
               else "running it again need not give the same rows in the same order (it is not one read "
                    "SELECT, or it reads the clock or draws at random)")
        return (f"Truncated: {sent} rows sent, more follow ({limit} cap). No cursor: {why}. Narrow the "
                "statement (WHERE, LIMIT, aggregates), or page it yourself with ORDER BY on a unique key, "
                "SKIP and LIMIT.")
