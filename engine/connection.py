"""Connections: one DuckDB database (in memory or a single file) holding one property graph."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import duckdb

from engine.compile import bind
from engine.errors import CypherError
from engine.execute.executor import Executor
from engine.execute.results import Result
from engine.sqlgen import runtime
from engine.storage.schema import GraphStore
from engine.syntax.parser import parse, parse_script


class Connection:
    """An open graph database. Use `engine.connect()` to make one; close it or use it as a context manager."""

    def __init__(self, path: str = ":memory:") -> None:
        self.path = path
        self._duck = duckdb.connect(path)
        self._duck.execute("SET TimeZone = 'UTC'")
        runtime.install(self._duck)
        self._store = GraphStore(self._duck)
        self._executor = Executor(self._duck, self._store)

    def execute(self, statement: str, params: Mapping[str, Any] | None = None, *,
                read_only: bool = False) -> Result:
        """Run exactly one Cypher statement as one transaction."""
        try:
            bound = bind(parse(statement), params)
        except CypherError as error:
            raise error.with_source(statement) from None
        return self._executor.run(bound, statement, read_only=read_only)

    def execute_script(self, text: str, params: Mapping[str, Any] | None = None, *,
                       read_only: bool = False) -> list[Result]:
        """Run `;`-separated statements in order; error positions are relative to `text`."""
        results = []
        for statement, span in parse_script(text):
            try:
                bound = bind(statement, params)
            except CypherError as error:
                raise error.with_source(text) from None
            result = self._executor.run(bound, text, read_only=read_only)
            result.statement = text[span.start:span.end]
            results.append(result)
        return results

    def register_procedure(self, signature: str, rows: list[Mapping[str, Any]]) -> None:
        """Make a table-backed procedure callable (see `engine.procedures`)."""
        raise NotImplementedError("procedures arrive with the TCK's clauses/call")

    def close(self) -> None:
        self._duck.close()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(path: str = ":memory:") -> Connection:
    """Open the graph in `path` (created if missing), or a fresh in-memory graph for ':memory:'."""
    return Connection(path)
