"""The SQL statements a connection sends to DuckDB, for tests that check which ones a write runs."""

from __future__ import annotations


class Recording:
    """The engine's DuckDB connection, keeping the text of every statement sent through it."""

    def __init__(self, real):
        self._real, self.sent = real, []

    def execute(self, sql, *args):
        self.sent.append(getattr(sql, "query", sql))  # the text of a statement kept parsed (ADR-0109)
        return self._real.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._real, name)


def recorded(db) -> Recording:
    """Record what `db`'s statements send from now on."""
    recording = Recording(db._duck)
    db._executor.connection = recording
    return recording
