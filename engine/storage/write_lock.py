"""One writing statement at a time per database file in a process, with a bounded wait (ADR-0055).

Several connections of a process may use one file (the serving threads of a shared file, `cookbook serve`
over HTTP): DuckDB lets their reads run side by side, but two writing transactions on one table conflict
and one of them fails, and the engine's catalog changes (a new property column) must not interleave. So a
statement that writes takes its file's lock first; one that waits longer than `wait` seconds fails with
DatabaseBusy, having done nothing. Reads take no lock.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from engine.errors import DatabaseBusy

_LOCKS: dict[str, threading.Lock] = {}
_GUARD = threading.Lock()


@contextmanager
def writing(key: str, wait: float) -> Iterator[None]:
    """Hold the write lock of the database `key` (its real path) while the block runs."""
    with _GUARD:
        lock = _LOCKS.setdefault(key, threading.Lock())
    if not lock.acquire(timeout=wait):
        raise DatabaseBusy(f"another statement has been writing to this database for more than {wait:g} s, "
                           "so this one did not run; nothing of it was done. Send it again when that one "
                           "has finished")
    try:
        yield
    finally:
        lock.release()
