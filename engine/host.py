"""The DuckDB instance in-memory graphs share (ADR-0008), and making it ahead of time (ADR-0027).

Only DuckDB and the runtime macros are imported here (with the feature packages' macros, which
`engine.plugins.macros` registers), not the compiler, so that `warm_up()` can start the host's DuckDB work
while the caller goes on importing the rest of the engine.
"""

from __future__ import annotations

import contextlib
import itertools
import threading

import duckdb

from engine.execute import macros, runtime_catalog
from engine.limits import default_memory_limit
from engine.plugins import macros as _feature_macros  # noqa: F401 - registered before the macros are built


class MemoryHost:
    """One DuckDB instance per process (per memory limit) for in-memory graphs: the runtime macros are
    attached once from their cache file (ADR-0031), or else installed in its main catalog, and each graph is
    a fresh attached in-memory database (ADR-0008). External access is turned off after that, as it cannot
    be turned back on."""

    def __init__(self, memory_limit: str) -> None:
        self.base = duckdb.connect(":memory:", config={"memory_limit": memory_limit})
        if runtime_catalog.attach(self.base):
            self.macros = runtime_catalog.SCHEMA
        else:
            macros.install(self.base, temporary=False)
            self.macros = "memory.main"
        self.base.execute("SET enable_external_access = false")
        self.lock = threading.Lock()
        self.counter = itertools.count()

    def open(self) -> tuple[duckdb.DuckDBPyConnection, str]:
        with self.lock:
            name = f"graph{next(self.counter)}"
            cursor = self.base.cursor()
        cursor.execute(f"ATTACH ':memory:' AS {name}")
        cursor.execute(f"USE {name}")
        cursor.execute(f"SET search_path = '{name}.main,{self.macros}'")
        return cursor, name


_hosts: dict[str, MemoryHost] = {}
_lock = threading.Lock()


def host(memory_limit: str) -> MemoryHost:
    """The shared host for in-memory graphs with this memory limit (DuckDB's limit is per instance)."""
    with _lock:
        if memory_limit not in _hosts:
            _hosts[memory_limit] = MemoryHost(memory_limit)
        return _hosts[memory_limit]


def warm_up(memory_limit: str | None = None) -> threading.Thread:
    """Start making the host for `memory_limit` (default: the default limit) on a thread of its own, so that
    installing the runtime macros (DuckDB work, which runs without the GIL) overlaps with whatever the
    caller does next; `connect(":memory:")` waits for it. A failure is left for `connect` to raise."""
    def make() -> None:
        with contextlib.suppress(Exception):
            host(memory_limit or default_memory_limit())

    macros.all_macros()  # imports the macro modules here: the thread then does DuckDB work only
    thread = threading.Thread(target=make, name="engine-host-warm-up")
    thread.start()
    return thread
