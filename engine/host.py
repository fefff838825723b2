"""The DuckDB instance in-memory graphs share (ADR-0008), and making it ahead of time (ADR-0027).

Only DuckDB and the runtime macros are imported here, not the compiler, so that `warm_up()` can start
the host's DuckDB work while the caller goes on importing the rest of the engine. The runtime macros are the
core's and the feature packages' (engine/plugins/macros.py, registered when the compiler loads): a host made
before then adds those when a connection next asks for it (`MemoryHost.complete`).
"""

from __future__ import annotations

import contextlib
import itertools
import threading

import duckdb

from engine.execute import macros, normal_forms, runtime_catalog
from engine.limits import default_memory_limit


class MemoryHost:
    """One DuckDB instance per process (per memory limit) for in-memory graphs: the runtime macros are
    attached once from their cache file (ADR-0031), or else installed in its main catalog, and each graph is
    a fresh attached in-memory database (ADR-0008). External access is turned off after that, as it cannot
    be turned back on."""

    def __init__(self, memory_limit: str, import_dir: str | None = None) -> None:
        self.registered = len(macros.REGISTERED)
        """How many of the feature packages' macros it has: `warm_up` may make it before they register theirs."""
        self.base = duckdb.connect(":memory:", config={"memory_limit": memory_limit})
        normal_forms.register(self.base)
        allow_import(self.base, import_dir)
        if runtime_catalog.attach(self.base):
            self.macros = runtime_catalog.SCHEMA
        else:
            macros.install(self.base, temporary=False)
            self.macros = "memory.main"
        # The engine checkpoints its in-memory graphs itself (connection.CHECKPOINT_WRITES), fully. DuckDB's own
        # automatic checkpoint of an in-memory database only vacuums, and a row group it passed over is then
        # left uncompressed by later full checkpoints too (seen on DuckDB 2.0: a load of 170,000 nodes in
        # batches kept every segment uncompressed); this instance holds only in-memory graphs, so it is off.
        self.base.execute("SET checkpoint_threshold = '1000TB'")
        self.base.execute("SET enable_external_access = false")
        self.lock = threading.Lock()
        self.counter = itertools.count()

    def complete(self) -> None:
        """Create the feature packages' macros registered since the host was made, in its own catalog, which
        every graph's search path then names after the shared macros."""
        with self.lock:
            missing = macros.REGISTERED[self.registered:]
            if not missing:
                return
            self.base.execute(f"SET search_path = 'memory.main,{self.macros}'")
            self.base.execute(";\n".join(f"CREATE OR REPLACE MACRO {signature} AS {body}"
                                          for signature, body in missing))
            self.registered += len(missing)
            if self.macros != "memory.main":
                self.macros = f"{self.macros},memory.main"

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


def host(memory_limit: str, import_dir: str | None = None) -> MemoryHost:
    """The shared host for in-memory graphs with this memory limit and import directory (DuckDB's limit and
    the directories it may read are per instance)."""
    key = memory_limit if import_dir is None else f"{memory_limit}|{import_dir}"
    with _lock:
        if key not in _hosts:
            _hosts[key] = MemoryHost(memory_limit, import_dir)
    made = _hosts[key]
    made.complete()
    return made


def allow_import(duck: duckdb.DuckDBPyConnection, import_dir: str | None) -> None:
    """Let the instance read the import directory's files (LOAD CSV), and no other, once external access is
    off (DuckDB fixes the allowed directories then)."""
    if import_dir is not None:
        duck.execute("SET allowed_directories = ?", [[import_dir.rstrip("/") + "/"]])


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
