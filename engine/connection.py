"""Connections: one DuckDB database (in memory or a single file) holding one property graph."""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Mapping
from typing import Any

import duckdb

from engine.compile import bind
from engine.errors import CypherError
from engine.execute.executor import Executor
from engine.execute.results import Result
from engine.execute.schema_info import describe_schema
from engine.fulltext import procedures as fulltext_procedures
from engine.procedures import ProcedureRegistry
from engine.sqlgen import runtime
from engine.storage.schema import GraphStore
from engine.syntax.parser import parse, parse_script


class _MemoryHost:
    """One DuckDB instance per process for in-memory graphs: the runtime macros are installed once in
    its main catalog, and each graph is a fresh attached in-memory database (ADR-0008)."""

    def __init__(self) -> None:
        self.base = duckdb.connect(":memory:")
        runtime.install(self.base, temporary=False)
        self.lock = threading.Lock()
        self.counter = itertools.count()

    def open(self) -> tuple[duckdb.DuckDBPyConnection, str]:
        with self.lock:
            name = f"graph{next(self.counter)}"
            cursor = self.base.cursor()
        cursor.execute(f"ATTACH ':memory:' AS {name}")
        cursor.execute(f"USE {name}")
        cursor.execute(f"SET search_path = '{name}.main,memory.main'")
        return cursor, name


_memory_host: _MemoryHost | None = None
_host_lock = threading.Lock()


def _host() -> _MemoryHost:
    global _memory_host
    with _host_lock:
        if _memory_host is None:
            _memory_host = _MemoryHost()
        return _memory_host


class Connection:
    """An open graph database. Use `engine.connect()` to make one; close it or use it as a context manager."""

    def __init__(self, path: str = ":memory:") -> None:
        self.path = path
        self._attached: str | None = None
        if path == ":memory:":
            self._duck, self._attached = _host().open()
        else:
            self._duck = duckdb.connect(path)
            runtime.install(self._duck)
        self._duck.execute("SET TimeZone = 'UTC'")
        self._store = GraphStore(self._duck)
        self.procedures = ProcedureRegistry()
        fulltext_procedures.register(self.procedures)
        self._executor = Executor(self._duck, self._store)

    def execute(self, statement: str, params: Mapping[str, Any] | None = None, *,
                read_only: bool = False) -> Result:
        """Run exactly one Cypher statement as one transaction."""
        try:
            bound = bind(parse(statement), params, self._store.catalog, self.procedures)
        except CypherError as error:
            raise error.with_source(statement) from None
        return self._executor.run(bound, statement, read_only=read_only)

    def execute_script(self, text: str, params: Mapping[str, Any] | None = None, *,
                       read_only: bool = False) -> list[Result]:
        """Run `;`-separated statements in order; error positions are relative to `text`."""
        results = []
        for statement, span in parse_script(text):
            try:
                bound = bind(statement, params, self._store.catalog, self.procedures)
            except CypherError as error:
                raise error.with_source(text) from None
            result = self._executor.run(bound, text, read_only=read_only)
            result.statement = text[span.start:span.end]
            results.append(result)
        return results

    def explain(self, statement: str,
                params: Mapping[str, Any] | None = None) -> tuple[Any, list[tuple[str, list[Any]]]]:
        """The bound statement and every SQL statement it runs (up to an error, if one is raised),
        from a run that is rolled back."""
        bound = bind(parse(statement), params, self._store.catalog, self.procedures)
        trace: list[tuple[str, list[Any]]] = []
        with contextlib.suppress(CypherError):
            self._executor.run(bound, statement, trace=trace)
        return bound, trace

    def schema(self) -> dict[str, Any]:
        """Labels, relationship types, property keys per label and per type, indexes and constraints."""
        return describe_schema(self._duck, self._store.catalog)

    def register_procedure(self, signature: str, rows: list[Mapping[str, Any]]) -> None:
        """Make a table-backed procedure callable: `CALL name(args)` returns, in order, the rows of `rows`
        whose input fields equal the arguments. `signature` is `ns.name(in :: TYPE?, ...) :: (out :: TYPE?, ...)`."""
        self.procedures.register_table(signature, rows)

    def close(self) -> None:
        if self._attached is not None:
            self._duck.execute("USE memory")
            self._duck.execute(f"DETACH {self._attached}")
            self._attached = None
        self._duck.close()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(path: str = ":memory:") -> Connection:
    """Open the graph in `path` (created if missing), or a fresh in-memory graph for ':memory:'."""
    return Connection(path)
