"""The runtime macros as a database file, built once per DuckDB version and macro set and attached read-only
by every connection after that (ADR-0031).

DuckDB binds a macro's body when the macro is created, so creating the hundred runtime macros costs about
0.2 s, every process. Attaching a file that already holds them costs about 10 ms: DuckDB loads its catalog
without binding anything. The file lives in the user's cache directory, named by DuckDB's version and a hash
of the macros' SQL, so a new DuckDB or a changed macro builds a new one; a cache that cannot be written or
read leaves the caller to create the macros itself (`macros.install`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
from pathlib import Path

import duckdb
import platformdirs

from engine.execute import macros
from engine.quoting import sql_string

CATALOG = "cypher_runtime"
"""The name the macro file is attached under; its schema goes on the search path after the graph's."""

SCHEMA = f"{CATALOG}.main"


def catalog_path() -> Path:
    """Where this DuckDB's file of these macros is, made or not (`$XDG_CACHE_HOME` moves it on Linux)."""
    name = f"runtime-macros-duckdb{duckdb.__version__}-{digest()}.duckdb"
    return Path(platformdirs.user_cache_dir("cookbook")) / name


def digest() -> str:
    """The macros' fingerprint as they stand (the feature packages register theirs when the compiler loads,
    which may be after a first host was made: `host.MemoryHost.complete`)."""
    return _digest_of(len(macros.REGISTERED))


@functools.cache
def _digest_of(registered: int) -> str:
    return hashlib.sha256(macros.install_sql(temporary=False).encode()).hexdigest()[:16]


def attach(connection: duckdb.DuckDBPyConnection) -> bool:
    """Attach the macro file to `connection` (building it first if missing) and set the session variables the
    macros read; False, with nothing attached, when the cache cannot be had. Must run while the connection
    still has external access."""
    path = catalog_path()
    for attempt in range(2):
        if attempt or not path.exists():
            with contextlib.suppress(OSError, duckdb.Error):
                _build(path)
        try:
            connection.execute(f"ATTACH {sql_string(str(path))} AS {CATALOG} (READ_ONLY)")
        except duckdb.Error:
            continue  # missing, unreadable or not a database: build it once more, then give up
        macros.prepare_session(connection)
        return True
    return False


def _build(path: Path) -> None:
    """Write the file next to its final name and move it there, so no process attaches a half-made one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    partial.unlink(missing_ok=True)
    try:
        with duckdb.connect(str(partial)) as builder:
            macros.install(builder, temporary=False)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
