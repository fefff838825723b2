"""Opening a file database, and the one clear error when another process has it open.

A file database is open in one process at a time. DuckDB, under the engine, takes an exclusive lock on
the file when it opens it for writing and keeps it until the connection closes, so a second process
that opens the same file fails at once; it never waits, and it never sees or writes a half-written
file. The processes of the agent's story take turns: session 1 writes and exits, session 2 opens the
file afterwards. A running `cookbook serve` holds its file for as long as it runs, so while it does,
other programs reach that graph through its tools rather than by opening the file.

DuckDB reports the conflict as an IOException naming the process that holds the lock; `open_database`
turns that into DatabaseInUse, whose message says what to do; any other failure to open (a file that
is not a database, a directory that does not exist) is CannotOpenDatabase with DuckDB's reason.
"""

from __future__ import annotations

import re

import duckdb

import engine

LOCK_CONFLICT = re.compile(r"Could not set lock on file")
HOLDER = re.compile(r"Conflicting lock is held in .*? \(PID (?P<pid>\d+)\)")


class CannotOpenDatabase(Exception):
    """The database could not be opened; the message says which and why."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"cannot open the database {path}: {reason}")
        self.path = path


class DatabaseInUse(CannotOpenDatabase):
    """The database file is open (and locked for writing) in another process."""

    def __init__(self, path: str, pid: int | None) -> None:
        holder = f"another process (PID {pid})" if pid is not None else "another process"
        super().__init__(path, f"it is open in {holder}, which holds it for writing, and a file database "
                               "is open in one process at a time. Wait for that process to exit, or stop "
                               "it, and try again (while `cookbook serve` runs on the file, use its tools "
                               "instead of opening the file)")
        self.pid = pid


def open_database(path: str, *, timeout: float | None = None) -> engine.Connection:
    """`engine.connect(path)`, with a lock held by another process reported as DatabaseInUse."""
    try:
        return engine.connect(path, timeout=timeout)
    except duckdb.Error as error:
        if not LOCK_CONFLICT.search(str(error)):
            raise CannotOpenDatabase(path, str(error)) from error
        holder = HOLDER.search(str(error))
        raise DatabaseInUse(path, int(holder["pid"]) if holder else None) from error
