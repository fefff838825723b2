"""Unicode normal forms DuckDB has no SQL function for (NFD, NFKC, NFKD; NFC is its `nfc_normalize`), registered
on a DuckDB connection as vectorized Python functions: DuckDB hands each call a whole Arrow column, which
pyarrow's `utf8_normalize` (utf8proc, the library DuckDB's own `nfc_normalize` uses) normalizes in C, never a
Python loop per row. pyarrow is imported on the first call, so a process that never normalizes never loads it.

So is toLower()'s final sigma (runtime.FINAL_SIGMA): pyarrow's `replace_substring_regex` runs the same RE2
pattern DuckDB's `regexp_replace` would, compiled per call, where DuckDB would compile it for every statement
that names it (4 ms each, most of them never lower-casing a Greek word)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import duckdb

from engine.sqlgen.runtime import FINAL_SIGMA, FINAL_SIGMA_FUNCTION, PYTHON_NORMAL_FORMS, normal_form_function


def _normalizer(form: str) -> Callable[[Any], Any]:
    def normalize(texts: Any) -> Any:
        import pyarrow.compute  # loaded on first use: ~0.1 s a process that never normalizes does not pay
        return pyarrow.compute.utf8_normalize(texts, form=form)
    return normalize


def _final_sigma(texts: Any) -> Any:
    import pyarrow.compute
    pattern, replacement = FINAL_SIGMA
    return pyarrow.compute.replace_substring_regex(texts, pattern=pattern, replacement=replacement)


def _functions() -> dict[str, Callable[[Any], Any]]:
    """The functions `register` creates, by name."""
    functions = {normal_form_function(form): _normalizer(form) for form in PYTHON_NORMAL_FORMS}
    functions[FINAL_SIGMA_FUNCTION] = _final_sigma
    return functions


def register(duck: duckdb.DuckDBPyConnection) -> None:
    """Create the normal-form functions in `duck`'s instance (every cursor and attached graph sees them), unless
    it has them: connections of one process to one file share its instance."""
    for name, function in _functions().items():
        if duck.execute("SELECT 1 FROM duckdb_functions() WHERE function_name = ?", [name]).fetchall():
            continue
        duck.create_function(name, function, ["VARCHAR"], "VARCHAR", type="arrow", side_effects=False)
