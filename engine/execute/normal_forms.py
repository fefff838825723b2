"""Unicode normal forms DuckDB has no SQL function for (NFD, NFKC, NFKD; NFC is its `nfc_normalize`), registered
on a DuckDB connection as vectorized Python functions: DuckDB hands each call a whole Arrow column, which
pyarrow's `utf8_normalize` (utf8proc, the library DuckDB's own `nfc_normalize` uses) normalizes in C, never a
Python loop per row. pyarrow is imported on the first call, so a process that never normalizes never loads it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import duckdb

from engine.sqlgen.runtime import PYTHON_NORMAL_FORMS, normal_form_function


def _normalizer(form: str) -> Callable[[Any], Any]:
    def normalize(texts: Any) -> Any:
        import pyarrow.compute  # loaded on first use: ~0.1 s a process that never normalizes does not pay
        return pyarrow.compute.utf8_normalize(texts, form=form)
    return normalize


def register(duck: duckdb.DuckDBPyConnection) -> None:
    """Create the normal-form functions in `duck`'s instance (every cursor and attached graph sees them), unless
    it has them: connections of one process to one file share its instance."""
    for form in PYTHON_NORMAL_FORMS:
        name = normal_form_function(form)
        if duck.execute("SELECT 1 FROM duckdb_functions() WHERE function_name = ?", [name]).fetchall():
            continue
        duck.create_function(name, _normalizer(form), ["VARCHAR"], "VARCHAR", type="arrow", side_effects=False)
