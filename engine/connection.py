"""Connections: one DuckDB database (in memory or a single file) holding one property graph."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.execute.results import Result


class Connection:
    """An open graph database. Use `engine.connect()` to make one; close it or use it as a context manager."""

    def __init__(self, path: str = ":memory:") -> None:
        self.path = path
        raise NotImplementedError("the engine is being built")

    def execute(self, statement: str, params: Mapping[str, Any] | None = None, *,
                read_only: bool = False) -> Result:
        """Run exactly one Cypher statement as one transaction."""
        raise NotImplementedError

    def execute_script(self, text: str, params: Mapping[str, Any] | None = None) -> list[Result]:
        """Run `;`-separated statements in order; error positions are relative to `text`."""
        raise NotImplementedError

    def register_procedure(self, signature: str, rows: list[Mapping[str, Any]]) -> None:
        """Make a table-backed procedure callable: `CALL name(args) YIELD ...` returns the rows of `rows`
        whose input columns equal the arguments. `signature` is `ns.name(in :: TYPE?, ...) :: (out :: TYPE?, ...)`."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(path: str = ":memory:") -> Connection:
    """Open the graph in `path` (created if missing), or a fresh in-memory graph for ':memory:'."""
    return Connection(path)
