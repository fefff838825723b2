"""The part of DuckDB's Python API the engine calls, over DuckDB-Wasm, for the engine under Pyodide (ADR-0091).

Pyodide's own `duckdb` wheel is not on any registry this project reaches, so the site ships
`@duckdb/duckdb-wasm` from npm and this module stands in for `duckdb`: every call goes to the synchronous
bridge `cookbookDuck` (bench/browser/duck_bridge.mjs) as JSON text, one round trip per statement.

A query's rows come back as one JSON array per row (DuckDB-Wasm cannot export a VARIANT column to Arrow),
which carries every value the engine selects: its values are BIGINT, DOUBLE, VARCHAR, BOOLEAN, lists,
structs and VARIANTs whose objects tag temporal values (engine/storage/encoding.py). Parameters travel as
text, booleans and nulls; the engine's SQL casts each parameter to its type.

This file is shipped into the browser as the top-level package `duckdb`; CPython never imports it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import js  # type: ignore[import-not-found]  # Pyodide's module of the page's JavaScript globals

__version__ = str(js.cookbookDuck.version())


class Error(Exception):
    pass


class DatabaseError(Error):
    pass


class FatalException(DatabaseError):
    pass


class InternalException(DatabaseError):
    pass


class InterruptException(DatabaseError):
    pass


class OutOfMemoryException(DatabaseError):
    pass


class IOException(DatabaseError):
    pass


class ProgrammingError(DatabaseError):
    pass


class DataError(DatabaseError):
    pass


class IntegrityError(DatabaseError):
    pass


class OperationalError(DatabaseError):
    pass


class CatalogException(ProgrammingError):
    pass


class BinderException(ProgrammingError):
    pass


class ParserException(ProgrammingError):
    pass


class InvalidInputException(ProgrammingError):
    pass


class NotImplementedException(DatabaseError):
    pass


class ConversionException(DataError):
    pass


class OutOfRangeException(DataError):
    pass


class ConstraintException(IntegrityError):
    pass


class TransactionException(OperationalError):
    pass


ERRORS: dict[str, tuple[type[Error], str]] = {
    "Catalog": (CatalogException, "Catalog Error"),
    "Binder": (BinderException, "Binder Error"),
    "Parser": (ParserException, "Parser Error"),
    "Invalid Input": (InvalidInputException, "Invalid Input Error"),
    "Conversion": (ConversionException, "Conversion Error"),
    "Out of Range": (OutOfRangeException, "Out of Range Error"),
    "Constraint": (ConstraintException, "Constraint Error"),
    "TransactionContext": (TransactionException, "TransactionContext Error"),
    "Not implemented": (NotImplementedException, "Not implemented Error"),
    "INTERNAL": (InternalException, "INTERNAL Error"),
    "FATAL": (FatalException, "FATAL Error"),
    "Out of Memory": (OutOfMemoryException, "Out of Memory Error"),
    "Interrupted": (InterruptException, "INTERRUPT Error"),
    "IO": (IOException, "IO Error"),
}
"""DuckDB's exception type names (as DuckDB-Wasm reports them) -> the Python client's class and message prefix."""


def _error(report: dict[str, str]) -> Error:
    kind, prefix = ERRORS.get(report["type"], (Error, f"{report['type']} Error"))
    return kind(f"{prefix}: {report['message']}")


POLYFILL = "CREATE OR REPLACE MACRO memory.main.variant_keys(v) AS map_keys(TRY_CAST(v AS MAP(VARCHAR, VARIANT)))"
"""DuckDB 2.0's `variant_keys`, which the runtime macros name, for the DuckDB 1.5 DuckDB-Wasm carries."""


class Statement:
    """One SQL statement of a script (`extract_statements`); this bridge keeps its text."""

    def __init__(self, query: str) -> None:
        self.query = query


def _parameter(value: Any) -> Any:
    """A parameter as JSON DuckDB-Wasm binds: numbers as their exact text, lists and maps as JSON text."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int | float):
        return repr(value)
    return json.dumps(value)


def _plain(value: Any) -> Any:
    """A value of a statement's result that came as Arrow (not a query): 64-bit integers marked exact."""
    if isinstance(value, dict):
        if set(value) == {"$int"}:
            return int(value["$int"])
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


class DuckDBPyConnection:
    def __init__(self, handle: int) -> None:
        self._handle = handle
        self._rows: list[tuple[Any, ...]] = []
        self._next = 0

    def execute(self, query: str | Statement, parameters: Sequence[Any] | None = None) -> DuckDBPyConnection:
        text = query.query if isinstance(query, Statement) else query
        bound = json.dumps([_parameter(value) for value in parameters or ()])
        answer = json.loads(str(js.cookbookDuck.run(self._handle, text, bound)))
        if "error" in answer:
            raise _error(answer["error"])
        rows = answer["rows"]
        self._rows = [tuple(row) for row in (rows if answer["query"] else _plain(rows))]
        self._next = 0
        return self

    def fetchall(self) -> list[tuple[Any, ...]]:
        rows, self._rows = self._rows[self._next:], []
        self._next = 0
        return rows

    def fetchone(self) -> tuple[Any, ...] | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    def extract_statements(self, query: str) -> list[Statement]:
        return [Statement(query)]

    def cursor(self) -> DuckDBPyConnection:
        return DuckDBPyConnection(int(js.cookbookDuck.connect()))

    def create_function(self, name: str, *_: Any, **__: Any) -> None:
        """Python functions cannot run inside DuckDB-Wasm: SQL naming one fails as a missing function."""

    def interrupt(self) -> None:
        """No statement runs while Python does (one thread): nothing to stop."""

    def get_profiling_information(self, format: str = "json") -> str:
        raise NotImplementedException("Not implemented Error: profiling is not available in the browser")

    def close(self) -> None:
        js.cookbookDuck.close(self._handle)

    def __enter__(self) -> DuckDBPyConnection:
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()


def connect(database: str = ":memory:", read_only: bool = False,
            config: dict[str, Any] | None = None) -> DuckDBPyConnection:
    """A connection to the page's one DuckDB-Wasm instance; a file is never opened (no file system to keep it)."""
    if database not in (":memory:", ""):
        raise IOException(f"IO Error: no database files in the browser: {database}")
    connection = DuckDBPyConnection(int(js.cookbookDuck.connect()))
    connection.execute(POLYFILL)
    return connection
