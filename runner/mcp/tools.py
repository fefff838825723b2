"""What the three tools do to one engine connection, without MCP: a statement in, a JSON-ready map out.

`server.py` only adapts these to MCP; keeping them apart lets the mapping be tested without a client.
A refused or failing statement raises ToolFailure, whose text is what the model reads: the engine's
error kind, message and position, the offending line with a caret, and for a write sent to
`read_cypher` what to do instead. The read-only check is the engine's (the bound statement has an
updating clause, and the transaction is rolled back whatever happens), never a look at the text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import engine
from runner.mcp.values import JsonValue, row_to_json, to_json
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
    """

    connection: engine.Connection
    connections: Connections | None = None
    last_ordered: bool = False

    def __post_init__(self) -> None:
        if self.connections is None:
            self.connections = Connections(self.connection)

    def read_cypher(self, statement: str, parameters: Params = None,
                    graph: str | None = None) -> dict[str, JsonValue]:
        """`{columns, rows, counters}`: rows as objects keyed by column. Refuses any statement that writes.
        `graph`: the named graph of the database to read (default: the connection's, ADR-0068)."""
        result = self._execute(statement, parameters, read_only=True, graph=graph)
        columns = list(result.columns)
        payload: dict[str, JsonValue] = {"columns": columns,
                                         "rows": [row_to_json(columns, row) for row in result.fetchall()],
                                         "counters": counters_of(result)}
        if result.plan is not None:  # PROFILE: each step's rows and time (EXPLAIN's plan is its rows)
            payload["plan"] = [{key: to_json(value) for key, value in line.items()} for line in result.plan]
        return payload

    def write_cypher(self, statement: str, parameters: Params = None,
                     graph: str | None = None) -> dict[str, JsonValue]:
        """`{counters, rows: []}`: what the statement changed. Rows it returns are not sent back."""
        result = self._execute(statement, parameters, read_only=False, graph=graph)
        return {"counters": counters_of(result), "rows": []}

    def get_schema(self, graph: str | None = None) -> dict[str, JsonValue]:
        """Labels, relationship types, property keys per label and per type, indexes and constraints."""
        schema = self._on_connection(lambda connection: connection.schema(graph=graph), "", HINTS)
        return {str(key): to_json(value) for key, value in schema.items()}

    def run_cell(self, text: str, parameters: Params, *, read_only: bool,
                 hints: Mapping[type[engine.CypherError], str] | None = None,
                 graph: str | None = None) -> list[engine.Result]:
        """A page cell's `;`-separated statements in order, each its own transaction, as `cookbook run` runs
        them (on the cell's `graph`); with `read_only`, one that writes is refused before it runs. `hints`
        replace HINTS."""
        results = self._on_connection(lambda connection: connection.execute_script(
            text, dict(parameters or {}), read_only=read_only, graph=graph), text, HINTS if hints is None else hints)
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


def counters_of(result: engine.Result) -> dict[str, int]:
    """Every counter, zero or not, in the engine's order, so a client can index any of them."""
    return {name: int(result.counters.get(name, 0)) for name in engine.COUNTER_NAMES}


def error_text(error: engine.CypherError, statement: str,
               hints: Mapping[type[engine.CypherError], str] = HINTS) -> str:
    """`SyntaxError: … (line 1, column 10)`, the line with a caret under the column, and a hint."""
    text = f"{error.kind}: {error.with_source(statement)}"
    hint = next((hint for kind, hint in hints.items() if isinstance(error, kind)), None)
    return text + (f"\n{hint}" if hint else "")
