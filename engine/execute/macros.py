"""Creating the runtime macros (sqlgen/runtime.py, sqlgen/runtime_temporal.py, and those the feature packages
register) in a DuckDB connection: the one place that runs their SQL."""

from __future__ import annotations

from collections.abc import Iterable

import duckdb

from engine.sqlgen import runtime, runtime_spatial, runtime_temporal

REGISTERED: list[tuple[str, str]] = []
"""Macros of the feature packages (full-text analysis and scoring), registered by engine/features.py before any
connection opens; each after the macros it names."""


def register_macros(macros: Iterable[tuple[str, str]]) -> None:
    REGISTERED.extend(macros)


def all_macros() -> list[tuple[str, str]]:
    """Every runtime macro, `(signature, body)`, in an order that creates each after the ones it names."""
    return runtime.MACROS + runtime_temporal.MACROS + runtime_spatial.MACROS + REGISTERED


def prepare_session(connection: duckdb.DuckDBPyConnection) -> None:
    connection.execute(runtime.session_sql())


def install_sql(*, temporary: bool = True) -> str:
    """The session settings and every macro's CREATE, as one script in creation order."""
    kind = "TEMP MACRO" if temporary else "MACRO"
    statements = [f"CREATE OR REPLACE {kind} {signature} AS {body}" for signature, body in all_macros()]
    return ";\n".join([runtime.session_sql(), *statements])


def install(connection: duckdb.DuckDBPyConnection, *, temporary: bool = True) -> None:
    """Create the runtime macros in `connection`: TEMP ones live with the connection and never reach a
    user's database file; non-temporary ones serve every graph attached to a shared in-memory host.

    All in one call when `all_macros()` lists each after the macros it names (it does): a call per macro
    would, on the warm-up thread (ADR-0027), wait for the GIL a hundred times while the main thread imports."""
    kind = "TEMP MACRO" if temporary else "MACRO"
    pending = all_macros()
    try:
        connection.execute(install_sql(temporary=temporary))
        return
    except duckdb.CatalogException:
        prepare_session(connection)
    # DuckDB binds a macro's body when it is created, so one naming a later macro waits for the next round.
    while pending:
        waiting = []
        for signature, body in pending:
            try:
                connection.execute(f"CREATE OR REPLACE {kind} {signature} AS {body}")
            except duckdb.CatalogException:
                waiting.append((signature, body))
        if len(waiting) == len(pending):
            connection.execute(f"CREATE OR REPLACE {kind} {waiting[0][0]} AS {waiting[0][1]}")
        pending = waiting
