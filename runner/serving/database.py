"""Opening a file database for `cookbook serve`, and the one clear error when it cannot be opened.

A file another process holds is used through that process (ADR-0055): two servers on one agent memory
both work. Only a file held by a program that does not serve it (DuckDB itself, another tool) cannot be
opened: DuckDB takes an exclusive lock on the file for its holder.

`engine.connect` reports the failures as engine errors (DatabaseLocked, DatabaseCorrupt,
DatabaseUnreadable); `open_database` turns them into CannotOpenDatabase (DatabaseInUse for the lock),
whose message says what to do, for the command line.
"""

from __future__ import annotations

import engine


class CannotOpenDatabase(Exception):
    """The database could not be opened; the message says which and why."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"cannot open the database {path}: {reason}")
        self.path = path


class DatabaseInUse(CannotOpenDatabase):
    """The database file is open (and locked for writing) in another process."""

    def __init__(self, path: str, pid: int | None) -> None:
        holder = f"another process (PID {pid})" if pid is not None else "another process"
        super().__init__(path, f"it is open in {holder}, which holds it for writing and does not "
                               "share it (it is not the engine). Wait for that process to exit, or stop "
                               "it, and try again")
        self.pid = pid


def open_database(path: str, *, timeout: float | None = None, memory_limit: str | None = None,
                  graph: str = "neo4j", import_dir: str | None = None) -> engine.Connection:
    """`engine.connect(path, graph=graph, import_dir=import_dir)`, with a lock held by another process reported
    as DatabaseInUse and a graph the database lacks as CannotOpenDatabase. `import_dir`: the folder LOAD CSV
    may read (none: LOAD CSV refused)."""
    try:
        return engine.connect(path, timeout=timeout, memory_limit=memory_limit, graph=graph, import_dir=import_dir)
    except engine.DatabaseNotFound as error:
        raise CannotOpenDatabase(path, error.message) from error
    except engine.DatabaseLocked as error:
        raise DatabaseInUse(path, error.pid) from error
    except engine.DatabaseOpenError as error:
        message = str(error)
        raise CannotOpenDatabase(path, message.removeprefix(f"cannot open the database {path}: ")) from error
