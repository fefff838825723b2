"""SQL texts a connection sends again, kept parsed: DuckDB then binds and plans them without parsing again.

A write sent again compiles to the same SQL text with other bound values (parameters are never spliced
in), and DuckDB's parse of that text is a tenth to a third of a small write's time in DuckDB (ADR-0109).
A text is parsed and kept on its second sight, so a text seen once (a statement's one-off temp-table
names, a CREATE's block of new ids) costs no extra parse; the least recently used are dropped first.
"""

from __future__ import annotations

from collections import OrderedDict

import duckdb

DEFAULT_SIZE = 512
"""Parsed texts kept per connection."""


class ParsedSql:
    """The parsed form of the SQL texts sent more than once on one DuckDB connection."""

    def __init__(self, connection: duckdb.DuckDBPyConnection, size: int = DEFAULT_SIZE) -> None:
        self._connection = connection
        self._size = size
        self._parsed: OrderedDict[str, duckdb.Statement] = OrderedDict()
        self._seen: OrderedDict[str, None] = OrderedDict()
        """Texts sent once so far, by the same bound."""

    def statement(self, sql: str) -> str | duckdb.Statement:
        """What to execute for `sql`: its parsed statement when it has been sent before, else the text."""
        parsed = self._parsed.get(sql)
        if parsed is not None:
            self._parsed.move_to_end(sql)
            return parsed
        if sql not in self._seen:
            _keep(self._seen, sql, None, self._size)
            return sql
        del self._seen[sql]
        try:
            statements = self._connection.extract_statements(sql)
        except duckdb.Error:  # executing the text raises it as it always did
            return sql
        if len(statements) != 1:
            return sql
        _keep(self._parsed, sql, statements[0], self._size)
        return statements[0]


def _keep(kept: OrderedDict, key: str, value: object, size: int) -> None:
    kept[key] = value
    if len(kept) > size:
        kept.popitem(last=False)
