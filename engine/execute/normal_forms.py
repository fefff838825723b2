"""Unicode normal forms DuckDB has no SQL function for (NFD, NFKC, NFKD; NFC is its `nfc_normalize`), registered
on a DuckDB connection as vectorized Python functions: DuckDB hands each call a whole Arrow column, which
pyarrow's `utf8_normalize` (utf8proc, the library DuckDB's own `nfc_normalize` uses) normalizes in C, never a
Python loop per row. pyarrow is imported on the first call, so a process that never normalizes never loads it.

So is toLower()'s final sigma (runtime.FINAL_SIGMA): pyarrow's `replace_substring_regex` runs the same RE2
pattern DuckDB's `regexp_replace` would, compiled per call, where DuckDB would compile it for every statement
that names it (4 ms each, most of them never lower-casing a Greek word).

And so is the fast path of `datetime()` of strings known to be ISO 8601 with an offset (runtime_temporal's
ISO_DATETIME_FUNCTION): the fields the SQL of `_iso_datetime` computes, from pyarrow's slices and casts of the
column, where that SQL costs DuckDB 2-3 ms to bind in every statement naming it (ADR-0106)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import duckdb

from engine.sqlgen.runtime import FINAL_SIGMA, FINAL_SIGMA_FUNCTION, PYTHON_NORMAL_FORMS, normal_form_function
from engine.sqlgen.runtime_temporal import ISO_DATETIME_FUNCTION


def _normalizer(form: str) -> Callable[[Any], Any]:
    def normalize(texts: Any) -> Any:
        import pyarrow.compute  # loaded on first use: ~0.1 s a process that never normalizes does not pay
        return pyarrow.compute.utf8_normalize(texts, form=form)
    return normalize


def _final_sigma(texts: Any) -> Any:
    import pyarrow.compute
    pattern, replacement = FINAL_SIGMA
    return pyarrow.compute.replace_substring_regex(texts, pattern=pattern, replacement=replacement)


def _iso_datetimes(texts: Any) -> Any:
    """ZONED DATETIME payloads (e: UTC epoch seconds, n: nanoseconds, o: offset seconds, z: no zone name) of
    strings matching runtime_temporal.ISO_DATETIME (`YYYY-MM-DDTHH:MM[:SS[.f]](Z|+HH:MM)`, checked as the
    statement compiled), as `_iso_datetime` computes them; null for null."""
    import pyarrow.compute  # binds `pyarrow` too
    pc = pyarrow.compute
    if isinstance(texts, pyarrow.ChunkedArray):
        texts = texts.combine_chunks()

    def text(start: int, stop: int | None = None, where: Any = None, otherwise: str = "0") -> Any:
        sliced = pc.utf8_slice_codeunits(texts, start, stop)
        return sliced if where is None else pc.if_else(where, sliced, otherwise)

    def number(sliced: Any) -> Any:
        return pc.cast(sliced, pyarrow.int64())

    day = pc.cast(pc.strptime(text(0, 10), format="%Y-%m-%d", unit="s"), pyarrow.int64())
    seconds = number(text(17, 19, where=pc.equal(text(16, 17), ":")))
    clock = pc.add(pc.add(pc.multiply(number(text(11, 13)), 3600), pc.multiply(number(text(14, 16)), 60)), seconds)
    fraction = pc.struct_field(pc.extract_regex(texts, r"\.(?P<f>[0-9]+)"), [0])
    nanos = pc.fill_null(number(pc.utf8_rpad(fraction, width=9, padding="0")), 0)
    offset_given = pc.invert(pc.ends_with(texts, "Z"))
    sign = pc.if_else(pc.equal(text(-6, -5), "-"), -1, 1)
    offset = pc.multiply(sign, pc.add(pc.multiply(number(text(-5, -3, where=offset_given)), 3600),
                                      pc.multiply(number(text(-2, None, where=offset_given)), 60)))
    epoch = pc.subtract(pc.add(day, clock), offset)
    zone = pyarrow.repeat(pyarrow.scalar(""), len(texts))
    return pyarrow.StructArray.from_arrays([epoch, nanos, offset, zone], names=["e", "n", "o", "z"],
                                          mask=pc.is_null(texts))


STRING = "VARCHAR"
DATETIME = "STRUCT(e BIGINT, n BIGINT, o BIGINT, z VARCHAR)"


def _functions() -> dict[str, tuple[Callable[[Any], Any], str]]:
    """The functions `register` creates, by name, with their return type (each takes one VARCHAR)."""
    functions = {normal_form_function(form): (_normalizer(form), STRING) for form in PYTHON_NORMAL_FORMS}
    functions[FINAL_SIGMA_FUNCTION] = (_final_sigma, STRING)
    functions[ISO_DATETIME_FUNCTION] = (_iso_datetimes, DATETIME)
    return functions


def register(duck: duckdb.DuckDBPyConnection) -> None:
    """Create the functions in `duck`'s instance (every cursor and attached graph sees them), unless it has
    them: connections of one process to one file share its instance."""
    for name, (function, returns) in _functions().items():
        if duck.execute("SELECT 1 FROM duckdb_functions() WHERE function_name = ?", [name]).fetchall():
            continue
        duck.create_function(name, function, [STRING], duckdb.sqltype(returns), type="arrow", side_effects=False)
