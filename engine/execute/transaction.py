"""An explicit transaction: several statements of one connection in one DuckDB transaction (ADR-0078).

A statement runs in a transaction of its own (ADR-0002). A Bolt client's BEGIN … COMMIT spans several: while
one is open, the executor neither begins nor ends a transaction per statement, and the graphs the statements
touched learn of the commit (their catalog is now every connection's) or of the rollback (their catalog is
read again, the ids they took given back) when it ends. A statement that fails ends it, rolled back: DuckDB
has no savepoint to undo one statement, and Neo4j too rolls back a transaction whose statement failed.

A file's write lock (storage/write_lock.py) is taken by the first statement that writes and held until the
transaction ends, so two transactions writing the same file take turns instead of conflicting at COMMIT.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import duckdb

from engine.storage.schema import GraphStore


class ExplicitTransaction:
    """Whether an explicit transaction is open on a DuckDB connection, and what its end must tell."""

    def __init__(self, connection: duckdb.DuckDBPyConnection) -> None:
        self.connection = connection
        self.open = False
        self._stores: dict[int, GraphStore] = {}
        self._lock = contextlib.ExitStack()
        self._locked = False

    def begin(self) -> None:
        self.connection.execute("BEGIN TRANSACTION")
        self.open = True

    def touched(self, store: GraphStore) -> None:
        """A statement of the transaction ran on `store`'s graph."""
        self._stores[id(store)] = store

    def hold_write_lock(self, writing: Callable[[], contextlib.AbstractContextManager[None]]) -> None:
        """Take the file's write lock (`writing()`) unless this transaction holds it already."""
        if not self._locked:
            self._lock.enter_context(writing())
            self._locked = True

    def commit(self) -> None:
        try:
            for store in self._stores.values():  # the id counters, when due (ADR-0103)
                store.before_commit()
            self.connection.execute("COMMIT")
        except BaseException:
            self.rollback()
            raise
        self._end(committed=True)

    def rollback(self) -> None:
        """End it, undone; also after a failed statement or COMMIT, when DuckDB may have ended it already."""
        with contextlib.suppress(duckdb.TransactionException):
            self.connection.execute("ROLLBACK")
        self._end(committed=False)

    def _end(self, *, committed: bool) -> None:
        self.open = False
        try:
            for store in self._stores.values():
                if committed:
                    store.committed()
                else:
                    store.rolled_back()
                    store.reload()
        finally:
            self._stores.clear()
            self._locked = False
            self._lock.close()
