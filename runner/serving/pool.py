"""The connections `cookbook serve`'s servers run statements on: one per call in flight, so calls from several
clients run side by side, and `execute`, the one place a statement is run.

The MCP SDK runs each tool call in a worker thread, and so does the Bolt server each message. On a file, a
call borrows an idle connection or opens another to the same file: the engine shares one file among a
process's connections (and through the holder among processes, ADR-0055), so reads run at once and writes
take turns with a bounded wait. An in-memory graph lives in one connection only, so its calls take turns on
it. A Bolt client's explicit transaction holds its connection (`acquire` … `release`) from BEGIN to its end.
`interrupt(thread)` stops the statement of the call running in `thread`: a cancelled request's, or every one
when the server stops.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import engine
from runner.serving.database import open_database

Connection = Any
"""An engine connection (`engine.Connection` or, for a file another process holds, a SharedConnection)."""


class Connections:
    """`first`, and for a file more opened by `open_more` as calls overlap; each lent to one call at a time."""

    def __init__(self, first: Connection, open_more: Callable[[], Connection] | None = None) -> None:
        self.first = first
        self._open_more = open_more
        self._idle = [first]
        self._opened: list[Connection] = []
        self._busy: dict[int, Connection] = {}
        self._turn = threading.Condition()

    @contextmanager
    def borrow(self) -> Iterator[Connection]:
        """A connection of this call's own until the block ends."""
        connection = self.acquire()
        thread = threading.get_ident()
        self._busy[thread] = connection
        try:
            yield connection
        finally:
            del self._busy[thread]
            self.release(connection)

    def acquire(self) -> Connection:
        """A connection of the caller's own until it gives it back with `release` (waits for the in-memory
        graph's one connection while another call has it)."""
        with self._turn:
            while not self._idle and self._open_more is None:
                self._turn.wait()
            connection = self._idle.pop() if self._idle else None
        if connection is None:
            assert self._open_more is not None
            connection = self._open_more()
            self._opened.append(connection)
        return connection

    def release(self, connection: Connection) -> None:
        with self._turn:
            self._idle.append(connection)
            self._turn.notify()

    def interrupt(self, thread: int | None = None) -> None:
        """Stop the statement of the call in `thread`, or of every call when None; rolled back, each
        raises StatementInterrupted to its caller."""
        for running, connection in list(self._busy.items()):
            if thread is None or running == thread:
                connection.interrupt()

    def close(self) -> None:
        """Close the connections opened here; `first` is its opener's to close."""
        for connection in self._opened:
            connection.close()
        self._opened.clear()

    def close_all(self) -> None:
        """Close every connection, `first` too (a server's pool from `open_connections`, when it stops)."""
        self.close()
        self.first.close()


def open_connections(database: str, *, timeout: float | None, memory_limit: str | None, graph: str,
                     import_dir: str | None) -> Connections:
    """A server's connections to `database`: the first opened now (CannotOpenDatabase when it cannot be), and
    for a file more as calls overlap. `close_all` closes them all."""
    def opened() -> Connection:
        return open_database(database, timeout=timeout, memory_limit=memory_limit, graph=graph,
                             import_dir=import_dir)
    return Connections(opened(), None if database == ":memory:" else opened)


def execute(connection: Connection, statement: str, parameters: Mapping[str, Any] | None, *, read_only: bool,
            graph: str | None = None, timeout: float | None = None,
            window: engine.Window | None = None) -> engine.Result:
    """Run one statement as every server runs it: its parameters a dict, `read_only` refusing a write, on
    `graph` (None: the connection's), with `timeout` seconds (None: the connection's), fetching only `window`'s
    rows when given."""
    return connection.execute(statement, dict(parameters or {}), read_only=read_only, graph=graph, timeout=timeout,
                              window=window)
