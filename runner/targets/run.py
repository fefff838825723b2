"""Run a page on a target: its cells in page order on the target's fresh graph, each compared with its
recording as on the embedded engine (`runner.run.check`), after the target's ids are renamed to the
recording's (`runner.targets.ids`).

Unlike a run on the engine, an error does not stop the page: a portability run asks of every cell whether
the target gives its recorded result, and a cell after one the target refuses often still does. A cell
marked `error` is the same when the target raises an error too: engines word their errors differently, so
the target's message is shown, not compared. Trace blocks replay tool calls through the MCP server on the
embedded engine, never on a target: they are not run.
"""

from __future__ import annotations

from collections.abc import Iterator

import engine
from runner.check.compare import SHAPE_READERS, UnreadableBlock
from runner.page.model import Cell, Page, Trace
from runner.result import COUNTER_LABELS, CellResult, RaisedError
from runner.run import ERROR, PASSED, RAN, SKIPPED, CellError, CellOutcome, PageOutcome, check, new_outcome
from runner.targets import open_target
from runner.targets.ids import Renaming
from runner.targets.protocol import Target, TargetError

NOT_ON_TARGET = "not run: a trace replays tool calls through the MCP server on the embedded engine"


def run_page_on(page: Page, uri: str, *, cell: str | None = None) -> PageOutcome:
    """Run `page` on a fresh graph of the target `uri` (CannotOpenTarget when it cannot be opened). With
    `cell`, run the cells before it unchecked, then that one, and stop."""
    outcome = new_outcome(page, cell)
    if outcome.errors:
        return outcome
    target = open_target(uri)
    try:
        outcome.cells.extend(run_cells_on(page, target, only=cell))
    finally:
        target.close()
    return outcome


def run_cells_on(page: Page, target: Target, *, only: str | None = None) -> Iterator[CellOutcome]:
    renaming = Renaming()
    for cell in page.cells:
        if isinstance(cell, Trace):
            if only is None or cell.name == only:
                yield CellOutcome(cell, SKIPPED, failure=f"{page.path}:{cell.line}: {NOT_ON_TARGET}\n")
        else:
            outcome = run_cell_on(page, cell, target, renaming)
            yield outcome if only is None or cell.name == only else CellOutcome(cell, RAN, result=outcome.result)
        if cell.name == only:
            return


def run_cell_on(page: Page, cell: Cell, target: Target, renaming: Renaming) -> CellOutcome:
    """The cell's outcome on the target: compared with its recording, or the target's error."""
    try:
        result = cell_result(page, cell, target)
    except TargetError as error:
        if cell.expects_error:
            return CellOutcome(cell, PASSED, raised=RaisedError(error.kind, None, error.message))
        cell_error = CellError(error.kind, error.message, cell.line)
        return CellOutcome(cell, ERROR, error=cell_error, failure=cell_error.text(page.path, cell.name))
    if not target.reports_counters:
        result.counters = recorded_counters(cell)
    return check(page, cell, renaming.align(cell.recorded, result))


def cell_result(page: Page, cell: Cell, target: Target) -> CellResult:
    """Run the cell's statements in order on the target: the rows of the last one, the counters of all."""
    if cell.graph is not None:
        raise TargetError("Unsupported", f"the cell runs on the named graph {cell.graph!r}: named graphs "
                                         "(graph=NAME) are the embedded engine's")
    try:
        statements = engine.script_statements(cell.text)
    except engine.CypherError as error:
        raise TargetError(error.kind, f"the engine cannot split the cell into statements: {error.message}") from error
    params = page.params_for(cell) or {}
    counters = dict.fromkeys(COUNTER_LABELS, 0)
    result = CellResult([], [], counters)
    for statement in statements:
        answer = target.run(statement.text, params)
        for key, count in (answer.counters or {}).items():
            counters[key] = counters.get(key, 0) + count
        result = CellResult(answer.columns, answer.rows, counters, statement.ordered)
    return result


def recorded_counters(cell: Cell) -> dict[str, int]:
    """The counters the cell's recording shows: what a target that reports none is taken to have made, so
    that its counters are not compared."""
    if cell.recorded is None or cell.recorded.kind not in SHAPE_READERS:
        return {}
    try:
        return SHAPE_READERS[cell.recorded.kind].from_text(cell.recorded.text).counters
    except UnreadableBlock:
        return {}
