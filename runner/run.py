"""Run a page: its cells in page order on one fresh engine database, each checked against its recording.

`run_page` is what every adapter calls (the `cookbook` command now, the pytest and MkDocs plugins later);
`run_cells` yields one CellOutcome at a time for adapters that report as they go. An engine error marks
its cell as an error and skips the rest of the page. The error's position is converted here, once, from
a line of the cell's text to a line of the page.

A cell marked `error` is the exception: it is meant to raise. It passes when the engine raises a
CypherError matching its ```` ```error ```` block, and fails with the usual diff when it raises another one or
none; either way the page goes on (docs/error-cells.md).

A trace block runs in page order too, as one more checked outcome, but on a database of its own
(`runner.mcp.trace`): its tool calls never change the database the page's cells share.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from runner.check import Check, check_cell, check_error, failure_text
from runner.errors import PageError
from runner.page.markdown import split_lines
from runner.page.model import Cell, Page, Trace
from runner.render import block_kind_for, render
from runner.result import CellResult, RaisedError

PASSED, FAILED, ERROR, SKIPPED, UNRECORDED, RAN = "passed", "failed", "error", "skipped", "unrecorded", "ran"
"""Cell statuses. RAN is a cell run only to build the state a `--cell` target needs, and not checked."""


@dataclass
class CellError:
    """An engine error in a cell, at a line of the page."""

    kind: str
    message: str
    line: int
    column: int | None = None
    source_line: str = ""

    def text(self, path: str | Path, cell: str) -> str:
        head = f"{path}:{self.line}: cell {cell!r} failed: {self.kind}: {self.message}\n"
        if not self.source_line:
            return head
        gutter = f"{self.line:>6} | "
        caret = f"{' ' * (len(gutter) - 2)}| {' ' * ((self.column or 1) - 1)}^\n" if self.column else ""
        return head + gutter + self.source_line + "\n" + caret


@dataclass
class CellOutcome:
    """What happened to one cell. `actual` is the result rendered as the block `--update` would write.

    `raised` is the error a cell marked `error` raised, as it expected (`result` is then None); `error`
    is an error that failed its cell.
    """

    cell: Cell
    status: str
    result: CellResult | None = None
    check: Check | None = None
    error: CellError | None = None
    failure: str = ""
    raised: RaisedError | None = None

    @property
    def updatable(self) -> bool:
        """Whether `--update` rewrites (or adds) this cell's recorded block: a drifted or unrecorded cell,
        unless it is marked `error` and raised none (no block can record that)."""
        if self.cell.expects_error and self.raised is None:
            return False
        return self.status in (FAILED, UNRECORDED) and self.actual is not None

    @property
    def outcome(self) -> CellResult | RaisedError | None:
        """What the cell gave: its result, or the error it was meant to raise."""
        return self.raised if self.raised is not None else self.result

    @property
    def block_kind(self) -> str | None:
        if self.cell.recorded:
            return self.cell.recorded.kind
        return block_kind_for(self.outcome) if self.outcome is not None else None

    @property
    def actual(self) -> str | None:
        if self.check is not None:
            return self.check.actual
        if self.outcome is not None and self.block_kind:
            return render(self.outcome, self.block_kind)
        return None

    def as_dict(self) -> dict[str, Any]:
        recorded = self.cell.recorded
        return {
            "name": self.cell.name,
            "line": self.cell.line,
            "setup": self.cell.setup,
            "status": self.status,
            "recorded_line": recorded.line if recorded else None,
            "reasons": self.check.reasons if self.check and not self.check.equal else [],
            "diff": self.failure if self.status == FAILED else None,
            "error": ({"kind": self.error.kind, "message": self.error.message, "line": self.error.line,
                       "column": self.error.column} if self.error else None),
            "raised": ({"kind": self.raised.kind, "detail": self.raised.detail, "message": self.raised.message}
                       if self.raised else None),
        }


@dataclass
class PageOutcome:
    """A page's run: its cells' outcomes, or the page errors that kept it from running."""

    page: Page
    cells: list[CellOutcome] = field(default_factory=list)
    errors: list[PageError] = field(default_factory=list)

    @property
    def status(self) -> str:
        if self.errors:
            return ERROR
        if any(outcome.status in (FAILED, ERROR) for outcome in self.cells):
            return FAILED
        return PASSED

    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys((PASSED, FAILED, ERROR, SKIPPED, UNRECORDED), 0)
        for outcome in self.cells:
            if outcome.status in counts:
                counts[outcome.status] += 1
        return counts

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.page.path),
            "title": self.page.title,
            "status": self.status,
            "errors": [{"line": error.line, "message": error.message} for error in self.errors],
            "warnings": [{"line": item.line, "message": item.message} for item in self.page.warnings],
            "cells": [outcome.as_dict() for outcome in self.cells if outcome.status != RAN],
        }


def new_outcome(page: Page, cell: str | None) -> PageOutcome:
    """The outcome of a page about to run: its page errors, and an error when `cell` names no cell of it (a
    page with errors runs no cell)."""
    outcome = PageOutcome(page=page, errors=list(page.errors))
    missing = missing_cell_error(page, cell) if cell is not None and not outcome.errors else None
    if missing:
        outcome.errors.append(missing)
    return outcome


def run_page(page: Page, *, database: str = ":memory:", cell: str | None = None,
             timeout: float | None = None) -> PageOutcome:
    """Run `page` on a fresh database (in memory, or the file `database`). With `cell`, run the cells
    before it unchecked, then that one, and stop. With `timeout`, a statement running longer than that
    many seconds fails its cell with StatementTimeout (and is rolled back). LOAD CSV reads the files of
    the page's folder (`file:///data.csv` is the file beside the page)."""
    outcome = new_outcome(page, cell)
    if outcome.errors:
        return outcome
    try:
        connection = engine.connect(database, timeout=timeout, import_dir=str(page.path.parent))
    except engine.DatabaseOpenError as error:  # a bad --db path, a file that is not a database, a lock
        outcome.errors.append(PageError(page.path, 1, str(error)))
        return outcome
    with connection:
        outcome.cells.extend(run_cells(page, connection, only=cell))
    return outcome


def run_cells(page: Page, connection: engine.Connection, *, only: str | None = None) -> Iterator[CellOutcome]:
    """Run the page's cells in order on `connection`, yielding each one's outcome as it finishes."""
    lines = split_lines(page.source)
    failed_at: str | None = None
    for cell in page.cells:
        if failed_at is not None:
            yield CellOutcome(cell, SKIPPED, failure=f"skipped: cell {failed_at!r} failed before it")
            if cell.name == only:
                return
            continue
        if isinstance(cell, Trace):  # replayed on a database of its own: unneeded for another --cell
            if only is None or cell.name == only:
                yield run_trace(page, cell)
            if cell.name == only:
                return
            continue
        try:
            outcome = run_cell(page, cell, connection)
        except Exception as error:  # an engine error, or an engine bug: either way the cell failed
            cell_error = error_at(error, cell, lines)
            failed_at = cell.name
            yield CellOutcome(cell, ERROR, error=cell_error, failure=cell_error.text(page.path, cell.name))
            if only is not None and cell.name == only:
                return
            continue
        if only is not None and cell.name != only:
            yield _ran(cell, outcome)
            continue
        yield check(page, cell, outcome)
        if only is not None:
            return


def run_cell(page: Page, cell: Cell, connection: engine.Connection) -> CellResult | RaisedError:
    """The cell's result; for a cell marked `error`, the CypherError it raised instead. Any other error
    propagates."""
    try:
        return CellResult.from_results(connection.execute_script(cell.text, page.params_for(cell), graph=cell.graph))
    except engine.CypherError as error:
        if not cell.expects_error:
            raise
        return RaisedError.from_error(error)


def _ran(cell: Cell, outcome: CellResult | RaisedError) -> CellOutcome:
    if isinstance(outcome, RaisedError):
        return CellOutcome(cell, RAN, raised=outcome)
    return CellOutcome(cell, RAN, result=outcome)


def check(page: Page, cell: Cell, outcome: CellResult | RaisedError) -> CellOutcome:
    """Compare what a cell gave (a result, or the error a cell marked `error` raised) with its recorded
    block. A cell with none is UNRECORDED, except a cell marked `error` that raised none: it FAILED."""
    result, raised = (None, outcome) if isinstance(outcome, RaisedError) else (outcome, None)
    if cell.recorded is None:
        if cell.expects_error and raised is None:
            return CellOutcome(cell, FAILED, result=result, failure=(
                f"{page.path}:{cell.line}: cell {cell.name!r} is marked `error` but ran without one\n"))
        return CellOutcome(cell, UNRECORDED, result=result, raised=raised)
    compared = check_error(cell.recorded, outcome) if cell.expects_error else check_cell(cell.recorded, outcome)
    if compared.equal:
        return CellOutcome(cell, PASSED, result=result, check=compared, raised=raised)
    text = failure_text(cell.recorded.text, compared.shown, path=page.path, line=cell.recorded.line,
                        cell=cell.name, reasons=compared.reasons)
    return CellOutcome(cell, FAILED, result=result, check=compared, failure=text, raised=raised)


def run_trace(page: Page, trace: Trace) -> CellOutcome:
    """Replay a trace's tool calls through the MCP server and check each step against its recording.
    An empty trace block is UNRECORDED, like a cell with no recorded block."""
    from runner.mcp.trace import check_trace  # loads the MCP SDK, which only pages with a trace need

    assert trace.recorded is not None
    try:
        outcome = check_trace(page, trace)
    except Exception as error:  # a cell it builds on failed, or the replay itself broke
        cell_error = CellError(type(error).__name__, str(error) or repr(error), trace.line)
        return CellOutcome(trace, ERROR, error=cell_error, failure=cell_error.text(page.path, trace.name))
    if outcome.equal:
        return CellOutcome(trace, PASSED, check=outcome)
    if not trace.recorded.text.strip():
        return CellOutcome(trace, UNRECORDED, check=outcome)
    text = failure_text(trace.recorded.text, outcome.shown, path=page.path, line=trace.line,
                        cell=trace.name, reasons=outcome.reasons)
    return CellOutcome(trace, FAILED, check=outcome, failure=text)


def error_at(error: Exception, cell: Cell, lines: list[str]) -> CellError:
    """The engine's error at the page's line and column, and so is every position its message names
    (`lines`: the page's, for the line the error shows)."""
    if not isinstance(error, engine.CypherError):
        return CellError(type(error).__name__, str(error) or repr(error), cell.line)
    message = error.message_at(lambda span: "{}:{}".format(*page_position(cell, span)))
    if error.span is None:
        return CellError(error.kind, message, cell.line)
    line, column = page_position(cell, error.span)
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    return CellError(error.kind, message, line, column if source_line else None, source_line)


def page_position(cell: Cell, span: engine.Span) -> tuple[int, int]:
    """A position in the cell's text (1-based line and column) → the same position in the page."""
    return cell.content_line + span.line - 1, span.column + len(cell.fence.prefix)


def missing_cell_error(page: Page, name: str) -> PageError | None:
    """The error for `--cell NAME` on a page with no such cell, or None when it has one."""
    if page.cell(name) is not None:
        return None
    hint = difflib.get_close_matches(name, [cell.name for cell in page.cells], n=1)
    suggestion = f"; did you mean {hint[0]!r}?" if hint else ""
    return PageError(page.path, 1, f"no cell named {name!r}{suggestion}")


def no_cells_error(page: Page) -> PageError | None:
    """The error for a page named to run that has no cell, or None when it has one: a page that checks
    nothing is more likely a mistake (a fence without `cell=`) than a page meant to pass."""
    if page.cells:
        return None
    return PageError(page.path, 1, "no cells: nothing on this page runs (a cell is a fence opened with "
                                   "```cypher cell=NAME)")
