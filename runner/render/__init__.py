"""A cell's result as recorded-block text: `table` or `gram`, or `error` for the error of a cell marked
`error`."""

from __future__ import annotations

from collections.abc import Callable

from runner.render.error import render_error
from runner.render.gram import prefers_gram, render_gram
from runner.render.table import render_table
from runner.result import CellResult, RaisedError

RENDERERS: dict[str, Callable[[CellResult], str]] = {"table": render_table, "gram": render_gram}
"""Recorded block kind → the function writing a result as its content (`error` blocks: `render_error`)."""


def block_kind_for(result: CellResult | RaisedError) -> str:
    """The kind of block `--update` adds for a cell that has none."""
    if isinstance(result, RaisedError):
        return "error"
    return "gram" if prefers_gram(result) else "table"


def render(result: CellResult | RaisedError, kind: str) -> str:
    """`result` as the content of a block of `kind`. An error is always written as an `error` block, and a
    result asked for as an `error` block (a cell marked `error` that ran without one) as its own kind."""
    if isinstance(result, RaisedError):
        return render_error(result)
    return RENDERERS[kind if kind in RENDERERS else block_kind_for(result)](result)


__all__ = ["RENDERERS", "block_kind_for", "render", "render_error", "render_gram", "render_table"]
