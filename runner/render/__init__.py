"""A cell's result as recorded-block text: `table` or `gram`."""

from __future__ import annotations

from collections.abc import Callable

from runner.render.gram import prefers_gram, render_gram
from runner.render.table import render_table
from runner.result import CellResult

RENDERERS: dict[str, Callable[[CellResult], str]] = {"table": render_table, "gram": render_gram}
"""Recorded block kind → the function writing its content."""


def block_kind_for(result: CellResult) -> str:
    """The kind of block `--update` adds for a cell that has none."""
    return "gram" if prefers_gram(result) else "table"


def render(result: CellResult, kind: str) -> str:
    return RENDERERS[kind](result)


__all__ = ["RENDERERS", "block_kind_for", "render", "render_gram", "render_table"]
