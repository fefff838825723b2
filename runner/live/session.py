"""One open page's live session: its database, what has run on it, and `handle`, the one entry.

Requests and responses are JSON-ready dicts (ADR-0090), the same whoever carries them:

    {"op": "run", "cell": NAME, "statement": TEXT?, "params": JSON TEXT?}
    {"op": "step", "trace": NAME}      the trace's next call
    {"op": "play", "trace": NAME}      the rest of its calls
    {"op": "reset"}                    an empty database; a trace in progress is dropped

    → {"ok": bool, "block": TEXT, "html": HTML, "same": bool, "diff": TEXT | None,
       "error": None | {"message": TEXT, "line": N, "column": N | None},
       and for a trace "step": steps run so far, "steps": its number of calls}

`block` is what the runner renders (a ```table, ```gram or ```error block's content, a trace's steps),
`html` that block as the preview renders recorded ones, `same` whether it equals the recording (compared
as `cookbook run` compares), `diff` the runner's failure text when it does not. An error's line and
column are the page's, as if the edited statement stood in the cell (its first line is the cell's).

Running cell k runs it on the database the page's cells before k build, as `cookbook run PAGE --cell k`
does, with the runner's own `run_cell` and `check`. The session remembers how many cells, unedited and in
order, the database holds, so running the cells down the page runs each once; anything else (an edited
cell, a failure, a trace's calls) makes the next run start on an emptied database.

A trace's steps run on the store the cells build up to its starting cell (`from=`): on the database as it
is when it holds exactly those cells, otherwise on an emptied one they build again (a trace that would
write twice starts on an emptied database). The database is emptied again when the trace ends, so the
page's cells run on what they write.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import engine
from runner.page import Cell, DataBlock, Page, Trace, read_page
from runner.preview.document import result_html, steps_html
from runner.run import FAILED, PASSED, CellError, check, error_at, run_cell


class LiveError(Exception):
    """A request that cannot be served: a cell it names is missing, its parameters are not JSON, or a cell
    the database needs failed. `error` is where."""

    def __init__(self, error: CellError) -> None:
        super().__init__(error.message)
        self.error = error


class LiveSession:
    """A page's live database. Not thread-safe: whoever shares a session takes turns (the endpoint locks)."""

    def __init__(self, page: Page, *, timeout: float | None = None, memory_limit: str | None = None,
                 folder: Path | None = None) -> None:
        self.page = page
        self.folder = folder or page.path.parent
        """The folder LOAD CSV reads (the page's)."""
        self.timeout = timeout
        self.memory_limit = memory_limit
        self.cells = [cell for cell in page.cells if not isinstance(cell, Trace)]
        self.connection: engine.Connection | None = None
        self.built: int | None = None
        """How many of `cells`, unedited and in order, the database holds; None: unknown (rebuilt)."""
        self.trace: Any = None
        """The trace in progress (runner.live.trace.TraceRun), or None."""

    @classmethod
    def from_page(cls, path: str | Path, *, timeout: float | None = None, memory_limit: str | None = None,
                  shown: str | None = None) -> LiveSession:
        """The session of the page at `path`, named `shown` (default: `path`) in diffs and errors."""
        page = read_page(Path(path))
        if shown is not None:
            page = replace(page, path=Path(shown))
        return cls(page, timeout=timeout, memory_limit=memory_limit, folder=Path(path).resolve().parent)

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """Serve one request (see the module docstring); never raises for a request's own problem."""
        operation = OPERATIONS.get(str(request.get("op")))
        if operation is None:
            return failure(f"unknown op {request.get('op')!r}: one of {', '.join(OPERATIONS)}", 1)
        if self.page.errors:
            first = self.page.errors[0]
            return failure(f"the page cannot run: {first.message}", first.line)
        try:
            return operation(self, request)
        except LiveError as error:
            return failure(error.error.message, error.error.line, error.error.column)
        except Exception as error:  # a bug of ours or the engine's: the reader sees it, the session goes on
            self.trace = None
            self.close()
            return failure(f"{type(error).__name__}: {error}", 1)

    # -- the database ----------------------------------------------------------------------------------

    def empty(self) -> engine.Connection:
        """A fresh database (ids and counters start again, as on a page's run)."""
        self.close()
        self.connection = engine.connect(":memory:", timeout=self.timeout, memory_limit=self.memory_limit,
                                         import_dir=str(self.folder))
        self.built = 0
        return self.connection

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
        self.connection, self.built = None, None

    def build(self, count: int) -> engine.Connection:
        """The database holding the page's first `count` cells, unedited: the one there is, when it holds
        no more than those, or an emptied one."""
        connection = self.connection
        if connection is None or self.built is None or self.built > count:
            connection = self.empty()
        lines = self.page.source.split("\n")
        for cell in self.cells[self.built or 0:count]:
            try:
                run_cell(self.page, cell, connection)
            except Exception as error:
                self.built = None
                found = error_at(error, cell, lines)
                raise LiveError(replace(found, message=f"cell {cell.name!r}, which runs before, failed: "
                                                        f"{found.kind}: {found.message}")) from error
            self.built = (self.built or 0) + 1
        return connection

    def position(self, name: str) -> int:
        names = [cell.name for cell in self.cells]
        if name not in names:
            raise LiveError(CellError("NotFound", f"no cell named {name!r}", 1))
        return names.index(name)

    # -- the operations --------------------------------------------------------------------------------

    def run(self, request: dict[str, Any]) -> dict[str, Any]:
        name = str(request.get("cell"))
        index = self.position(name)
        self.trace = None
        cell = self.cells[index]
        statement, params = request.get("statement"), request.get("params")
        page, edited = self.edited(cell, statement, params)
        connection = self.build(index)
        self.built = None  # whatever happens next, unless the page's own cell passes through
        try:
            outcome = run_cell(page, edited, connection)
        except Exception as error:
            lines = [""] * (edited.content_line - 1) + edited.text.split("\n")
            found = error_at(error, edited, lines)
            return failure(f"{found.kind}: {found.message}", found.line, found.column)
        if edited is cell:
            self.built = index + 1
        checked = check(page, edited, outcome)
        kind = checked.block_kind or "table"
        block = checked.actual or ""
        return {"ok": True, "block": block, "html": result_html(kind, block), "same": checked.status == PASSED,
                "diff": checked.failure if checked.status == FAILED else None, "error": None}

    def edited(self, cell: Cell, statement: Any, params: Any) -> tuple[Page, Cell]:
        """The page and cell with the reader's statement and parameters in place of the page's (the cell
        itself when neither differs; trailing blank lines do not count)."""
        if statement is not None and str(statement).rstrip() != cell.text.rstrip():
            cell = replace(cell, fence=replace(cell.fence, content=str(statement)))
        page = self.page
        if params is not None and (cell.params is None or params_changed(page.data[cell.params], str(params))):
            try:
                values = json.loads(str(params)) if str(params).strip() else {}
            except json.JSONDecodeError as error:
                raise LiveError(CellError("ParameterError", f"the parameters are not JSON: {error.msg} "
                                                            f"(line {error.lineno}, column {error.colno})",
                                          cell.line)) from error
            if not isinstance(values, dict):
                raise LiveError(CellError("ParameterError", "the parameters must be a JSON object whose keys "
                                                            "are the query parameters", cell.line))
            key = f"{cell.name} (edited)"
            original = page.data.get(cell.params or "")
            fence = original.fence if original else cell.fence
            page = replace(page, data={**page.data, key: DataBlock(key, values, fence)})
            cell = replace(cell, params=key)
        return page, cell

    def step(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.trace_calls(request, every=False)

    def play(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.trace_calls(request, every=True)

    def trace_calls(self, request: dict[str, Any], *, every: bool) -> dict[str, Any]:
        from runner.live.trace import TraceRun  # loads the MCP SDK, which only pages with a trace need

        name = str(request.get("trace"))
        trace = self.page.cell(name)
        if not isinstance(trace, Trace):
            raise LiveError(CellError("NotFound", f"no trace named {name!r}", 1))
        if self.trace is None or self.trace.trace is not trace:
            connection = self.build(self.position(trace.start) + 1)
            self.built = None  # the calls write on it
            self.trace = TraceRun.start(self.page, trace, connection)
        run = self.trace
        run.send(every=every)
        if run.done:  # emptied again, so the page's cells run on what they write
            self.trace = None
            self.close()
        checked = run.check()
        return {"ok": True, "block": checked.actual, "html": steps_html(checked.actual), "same": checked.equal,
                "diff": run.failure(checked), "error": None, "step": len(run.steps), "steps": run.total}

    def reset(self, request: dict[str, Any]) -> dict[str, Any]:
        self.trace = None
        self.close()
        return {"ok": True, "block": "", "html": "", "same": True, "diff": None, "error": None}


def params_changed(block: DataBlock, text: str) -> bool:
    """Whether the reader's parameters differ from the data block's (as values: spacing does not count)."""
    if text == block.fence.content:
        return False
    try:
        return bool(json.loads(text) != block.values)
    except json.JSONDecodeError:
        return True


def failure(message: str, line: int, column: int | None = None) -> dict[str, Any]:
    return {"ok": False, "block": "", "html": "", "same": False, "diff": None,
            "error": {"message": message, "line": line, "column": column}}


OPERATIONS: dict[str, Callable[[LiveSession, dict[str, Any]], dict[str, Any]]] = {
    "run": LiveSession.run, "step": LiveSession.step, "play": LiveSession.play, "reset": LiveSession.reset}
"""A request's `op` → what serves it."""
