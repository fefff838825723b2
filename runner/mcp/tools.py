"""What the three tools do to one engine connection, without MCP: a statement in, a JSON-ready map out.

`server.py` only adapts these to MCP; keeping them apart lets the mapping be tested without a client.
A refused or failing statement raises ToolFailure, whose text is what the model reads: the engine's
error kind, message and position, the offending line with a caret, and for a write sent to
`read_cypher` what to do instead. The read-only check is the engine's (the bound statement has an
updating clause, and the transaction is rolled back whatever happens), never a look at the text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import engine
from runner.mcp.sizing import Caps, CursorError, Pager, Request, last_write, shortened
from runner.mcp.values import JsonValue, to_json
from runner.serving.pool import Connections, execute

Params = Mapping[str, Any] | None
T = TypeVar("T")

HINTS: dict[type[engine.CypherError], str] = {
    engine.ReadOnlyViolation: "read_cypher only runs statements that read; send this one with write_cypher.",
}
"""Error class → a sentence telling the model what to do next, added to the error text."""


class ToolFailure(Exception):
    """A call the client sees as a tool error (`isError: true`); `str()` is the text it gets."""


@dataclass
class CypherTools:
    """The tools over an open connection. Calls may come from worker threads: each borrows a connection
    of `connections` (pool.py), by default `connection` alone, on which they take turns.

    `last_ordered` says whether the last statement's rows are ordered (it ends in ORDER BY). A tool
    result does not carry it; the trace replay reads it here to compare unordered rows as a multiset.
    `caps`: how many rows and bytes a result holds (sizing.py, ADR-0088).
    """

    connection: engine.Connection
    connections: Connections | None = None
    last_ordered: bool = False
    caps: Caps = field(default_factory=Caps)

    def __post_init__(self) -> None:
        if self.connections is None:
            self.connections = Connections(self.connection)

    def read_cypher(self, statement: str, parameters: Params = None, graph: str | None = None,
                    cursor: str | None = None, full_values: bool = False) -> dict[str, JsonValue]:
        """`{columns, rows, counters, truncated, returned}`: rows as objects keyed by column, at most the caps'
        (with `message` and, when the statement can be resumed exactly, `cursor` when there are more). Refuses
        any statement that writes. `graph`: the named graph of the database to read (default: the
        connection's, ADR-0068). `cursor`: from a truncated result of the same call, for the rows after."""
        request = self._request("read_cypher", statement, parameters, graph, cursor, full_values)

        def run(connection: engine.Connection) -> tuple[engine.Result, int | None, int | None]:
            before = last_write(connection, graph) if request.cursor is None else None
            result = execute(connection, statement, parameters, read_only=True, graph=graph,
                             window=request.window(self.caps))
            return result, before, None if request.cursor is None else last_write(connection, graph)

        result, before, after = self._on_connection(run, statement, HINTS)
        self.last_ordered = bool(result.ordered)
        columns = list(result.columns)
        page = self._page(request, columns, result, before, after)
        payload: dict[str, JsonValue] = {"columns": columns, "rows": list(page.rows), "counters": counters_of(result),
                                         **page.fields()}
        if result.plan is not None:  # PROFILE: each step's rows and time (EXPLAIN's plan is its rows)
            payload["plan"] = [{key: to_json(shortened(value, self.caps)) for key, value in line.items()}
                               for line in result.plan]
        return payload

    def _request(self, name: str, statement: str, parameters: Params, graph: str | None, cursor: str | None,
                 full_values: bool) -> Request:
        try:
            return Request.of(name, statement, parameters, graph, cursor, full_values)
        except CursorError as error:
            raise ToolFailure(str(error)) from None

    def _page(self, request: Request, columns: list[str], result: engine.Result, before: int | None,
              after: int | None) -> Any:
        try:
            return Pager(self.caps).page(request, columns, result, before, after)
        except CursorError as error:
            raise ToolFailure(str(error)) from None

    def write_cypher(self, statement: str, parameters: Params = None,
                     graph: str | None = None) -> dict[str, JsonValue]:
        """`{counters, rows: []}`: what the statement changed. Rows it returns are not sent back."""
        result = self._execute(statement, parameters, read_only=False, graph=graph)
        return {"counters": counters_of(result), "rows": []}

    def get_schema(self, graph: str | None = None) -> dict[str, JsonValue]:
        """Labels, relationship types, property keys per label and per type, indexes and constraints: each
        list at most max-rows long and all of them within max-bytes (`truncated` says whether any was cut)."""
        schema = self._on_connection(lambda connection: connection.schema(graph=graph), "", HINTS)
        return schema_within(self.caps, {str(key): to_json(value) for key, value in schema.items()})

    def run_cell(self, text: str, parameters: Params, *, read_only: bool,
                 hints: Mapping[type[engine.CypherError], str] | None = None,
                 graph: str | None = None, window: engine.Window | None = None) -> list[engine.Result]:
        """A page cell's `;`-separated statements in order, each its own transaction, as `cookbook run` runs
        them (on the cell's `graph`); with `read_only`, one that writes is refused before it runs. `hints`
        replace HINTS. `window`: of the last statement's rows, only those are fetched."""
        results = self._on_connection(lambda connection: connection.execute_script(
            text, dict(parameters or {}), read_only=read_only, graph=graph, window=window), text,
            HINTS if hints is None else hints)
        self.last_ordered = bool(results and results[-1].ordered)
        return results

    def _execute(self, statement: str, parameters: Params, *, read_only: bool,
                 graph: str | None = None) -> engine.Result:
        result = self._on_connection(lambda connection: execute(
            connection, statement, parameters, read_only=read_only, graph=graph), statement, HINTS)
        self.last_ordered = bool(result.ordered)
        return result

    def _on_connection(self, run: Callable[[engine.Connection], T], text: str,
                       hints: Mapping[type[engine.CypherError], str]) -> T:
        """`run` on a borrowed connection, its errors turned into the ToolFailure the model reads."""
        assert self.connections is not None
        with self.connections.borrow() as connection:
            try:
                return run(connection)
            except engine.CypherError as error:
                raise ToolFailure(error_text(error, text, hints)) from error
            except Exception as error:  # an engine bug must reach the model as an error, not end the server
                raise ToolFailure(f"EngineError: {type(error).__name__}: {error}") from error


def schema_within(caps: Caps, schema: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """`schema` with each list or map cut to max-rows entries, and entries left out once max-bytes is spent
    (the fields in order), with `truncated` and, when true, a `message`."""
    budget, cut = caps.max_bytes - 512, False
    kept: dict[str, JsonValue] = {}
    for key, value in schema.items():
        items = list(value.items()) if isinstance(value, dict) else list(value) if isinstance(value, list) else None
        if items is None:
            kept[key] = value
            continue
        taken: list[Any] = []
        for item in items[:caps.max_rows]:
            size = len(json.dumps(item, ensure_ascii=False).encode()) + 2
            if size > budget:
                break
            taken.append(item)
            budget -= size
        cut = cut or len(taken) < len(items)
        kept[key] = dict(taken) if isinstance(value, dict) else taken
    kept["truncated"] = cut
    if cut:
        kept["message"] = (f"Truncated: the schema has more than fits ({caps.max_rows} entries per list, "
                           f"{caps.max_bytes:,} bytes). Read the rest with read_cypher: CALL db.labels(), "
                           "CALL db.relationshipTypes(), SHOW INDEXES, SHOW CONSTRAINTS.")
    return kept


def counters_of(result: engine.Result) -> dict[str, int]:
    """Every counter, zero or not, in the engine's order, so a client can index any of them."""
    return {name: int(result.counters.get(name, 0)) for name in engine.COUNTER_NAMES}


def error_text(error: engine.CypherError, statement: str,
               hints: Mapping[type[engine.CypherError], str] = HINTS) -> str:
    """`SyntaxError: … (line 1, column 10)`, the line with a caret under the column, and a hint."""
    text = f"{error.kind}: {error.with_source(statement)}"
    hint = next((hint for kind, hint in hints.items() if isinstance(error, kind)), None)
    return text + (f"\n{hint}" if hint else "")
