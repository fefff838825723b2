"""The named graphs of one database (ADR-0068): each a DuckDB schema holding its own tables (schema.py).

The default graph, `neo4j`, is the `main` schema, the layout of a database that holds one graph; every other
graph is a schema the engine names (`g1`, `g2`, ...), listed with its name in `main.graph_databases`. No user
text becomes an identifier; a graph name is still checked strictly, as Neo4j checks database names.
"""

from __future__ import annotations

import datetime
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import duckdb

from engine.errors import CypherError, DatabaseExists, DatabaseNotFound, UnsupportedFeature
from engine.quoting import sql_identifier
from engine.span import Span

DEFAULT_GRAPH = "neo4j"
DEFAULT_SCHEMA = "main"
RESERVED = frozenset({"system"})

_NAME = re.compile(r"[a-z][a-z0-9_-]{0,62}")

_REGISTRY = (
    "CREATE TABLE IF NOT EXISTS {main}.graph_databases (name VARCHAR PRIMARY KEY, schema VARCHAR NOT NULL UNIQUE,"
    " created BIGINT NOT NULL)",
    "CREATE SEQUENCE IF NOT EXISTS {main}.graph_schema_numbers START 1",
)


def _main(database: str) -> str:
    """The database's `main` schema, qualified: a graph's search path may name another catalog's `main`."""
    return f"{sql_identifier(database)}.main"


DROPPED: set[str] = set()
"""The keys (`file#schema`) of the graphs of files that connections of this process dropped. Every connection
to a file is in the process that holds it (ADR-0055), and a schema's name is never given again, so a
connection on a graph whose key is here is on a graph that no longer exists: DuckDB would resolve its
unqualified tables to another schema on the search path, so the connection must refuse to run instead."""


def checked_name(name: str, span: Span | None = None) -> str:
    """`name` in lower case, the form a graph is known by; an error naming what is wrong with it otherwise."""
    lowered = name.lower()
    if "." in lowered:
        raise UnsupportedFeature(f"the graph name {name!r}: a dotted name is a composite database's in Neo4j",
                                 span)
    if not _NAME.fullmatch(lowered):
        raise CypherError(f"invalid graph name {name!r}: 1 to 63 characters, a letter first, then letters, "
                          "digits, '_' or '-'", span, detail="InvalidDatabaseName")
    if lowered in RESERVED:
        raise CypherError(f"the graph name {name!r} is reserved", span, detail="InvalidDatabaseName")
    return lowered


def now_micros() -> int:
    return time.time_ns() // 1000


@dataclass(frozen=True)
class GraphEntry:
    name: str
    schema: str
    created: int


def ensure_registry(duck: duckdb.DuckDBPyConnection, database: str) -> None:
    """Create the registry in the database's `main` schema if it is not there (a file made before it)."""
    duck.execute(";\n".join(statement.format(main=_main(database)) for statement in _REGISTRY))


def entries(duck: duckdb.DuckDBPyConnection, database: str) -> list[GraphEntry]:
    """Every graph of the database, the default first, then by name."""
    rows = duck.execute(f"SELECT name, schema, created FROM {_main(database)}.graph_databases ORDER BY name").fetchall()
    return [GraphEntry(DEFAULT_GRAPH, DEFAULT_SCHEMA, 0), *(GraphEntry(*row) for row in rows)]


def schema_of(duck: duckdb.DuckDBPyConnection, database: str, name: str, span: Span | None = None) -> str:
    """The schema holding the graph `name` (checked); DatabaseNotFound if no graph has it."""
    name = checked_name(name, span)
    if name == DEFAULT_GRAPH:
        return DEFAULT_SCHEMA
    row = duck.execute(f"SELECT schema FROM {_main(database)}.graph_databases WHERE name = ?", [name]).fetchone()
    if row is None:
        raise DatabaseNotFound(f"no graph named {name!r} in this database (CREATE DATABASE {name} makes it)",
                               span, detail="DatabaseNotFound")
    return str(row[0])


def create(duck: duckdb.DuckDBPyConnection, database: str, name: str, if_not_exists: bool,
           span: Span | None = None) -> str | None:
    """Register the graph `name` and make its schema, in the caller's transaction; the schema, which the
    caller fills with the graph's tables, or None when it exists already and `if_not_exists`."""
    name = checked_name(name, span)
    exists = name == DEFAULT_GRAPH or duck.execute(
        f"SELECT 1 FROM {_main(database)}.graph_databases WHERE name = ?", [name]).fetchone() is not None
    if exists:
        if if_not_exists:
            return None
        raise DatabaseExists(f"a graph named {name!r} exists already", span, detail="ExistingDatabaseFound")
    (number,) = duck.execute(f"SELECT nextval('{_main(database)}.graph_schema_numbers')").fetchone() or (0,)
    schema = f"g{int(number)}"
    duck.execute(f"INSERT INTO {_main(database)}.graph_databases VALUES (?, ?, ?)", [name, schema, now_micros()])
    duck.execute(f"CREATE SCHEMA {sql_identifier(database)}.{schema}")
    return schema


def drop(duck: duckdb.DuckDBPyConnection, database: str, name: str, if_exists: bool,
         span: Span | None = None) -> str | None:
    """Drop the graph `name` and everything it holds, in the caller's transaction; its schema, or None when
    there was none and `if_exists`. The default graph cannot be dropped (as in Neo4j)."""
    name = checked_name(name, span)
    if name == DEFAULT_GRAPH:
        raise CypherError(f"the default graph {DEFAULT_GRAPH!r} cannot be dropped", span,
                          detail="DatabaseDropFailed")
    row = duck.execute(f"SELECT schema FROM {_main(database)}.graph_databases WHERE name = ?", [name]).fetchone()
    if row is None:
        if if_exists:
            return None
        raise DatabaseNotFound(f"no graph named {name!r} in this database", span, detail="DatabaseNotFound")
    schema = str(row[0])
    duck.execute(f"DROP SCHEMA {sql_identifier(database)}.{sql_identifier(schema)} CASCADE")
    duck.execute(f"DELETE FROM {_main(database)}.graph_databases WHERE name = ?", [name])
    return schema


def last_write(duck: duckdb.DuckDBPyConnection, database: str, entry: GraphEntry, held: int | None) -> int | None:
    """When the graph last committed a write (microseconds since the epoch), else when it was made (None for
    a default graph never written since last writes are recorded). `held`: the time the process holds for it
    (id_counters.py, ADR-0103), None when no store of the process has it open and graph_meta has the last."""
    if held is None:
        row = duck.execute(f"SELECT value FROM {sql_identifier(database)}.{sql_identifier(entry.schema)}.graph_meta"
                           " WHERE key = 'last_write'").fetchone()
        held = int(row[0]) if row is not None else 0
    return held or entry.created or None  # 0: never written (schema.py)


def idle(listed: Sequence[Mapping[str, Any]], idle_for: datetime.timedelta, prefix: str = "",
         now: datetime.datetime | None = None) -> list[str]:
    """The names among `listed` (a connection's `graphs()`) of the graphs not written for `idle_for`, whose
    name starts with `prefix`: what a daily job prunes (Threadline's idle `tl_mem_<visitor>` graphs). The
    default graph is never idle."""
    cutoff = (now or datetime.datetime.now(datetime.UTC)) - idle_for
    return [graph["name"] for graph in listed if not graph["default"] and graph["name"].startswith(prefix)
            and graph["last_write"] is not None and graph["last_write"] < cutoff]
