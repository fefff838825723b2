"""A list parameter of plain rows bound as an Arrow table, the route of `UNWIND $rows` load batches (ADR-0097).

DuckDB's Python client takes no Arrow value as a prepared statement's parameter, and converts a list of
dicts value by value (26 ms for 10,000 rows of three integers), while its JSON reader casts the text to a
list of STRUCTs in about 7 ms after Python wrote it. pyarrow converts the same rows to a STRUCT array in
C++ (about 1 ms, given the type), and DuckDB reads an Arrow table without copying it: the value is bound
as a one-row, one-column table `l` that the SQL reads by name, `query_table($n)`, the name being the
bound parameter. `ArrowRows` is what `Parameters` holds in the value's place; the execute layer registers
it under a fresh name just before the SQL runs and binds that name there (statement_run.py).

Only values already typed by themselves to a list of booleans, integers, floats, strings, lists and maps
of them come here, so the Arrow type is exact: pyarrow would turn 1.0 into an INTEGER column's 1, but a
value typed INTEGER holds only ints. Any value pyarrow still refuses takes the JSON route.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from engine.types import CypherType, Kind

COLUMN = "l"
"""The one column of the table: the whole list, one row."""

SHORTEST = 2_000
"""Rows a list needs before it takes this route: registering a table and reading it back costs about a
millisecond whatever its size, more than the JSON route takes for a few hundred rows. CPU ms of `UNWIND
$rows` and a sum, JSON against Arrow: 100 rows 1.5 / 2.7, 1,000 rows 2.5 / 3.4, 3,000 rows 5.1 / 4.7,
10,000 rows (a load batch) 16.1 / 9.4."""

_SCALARS = {Kind.BOOLEAN: pa.bool_(), Kind.INTEGER: pa.int64(), Kind.FLOAT: pa.float64(), Kind.STRING: pa.string()}


@dataclass(frozen=True, eq=False)
class ArrowRows:
    """A list value as an Arrow table for DuckDB to read by name (see the module's docstring)."""

    table: pa.Table

    def __repr__(self) -> str:
        return f"ArrowRows({len(self.table.column(COLUMN)[0])} items)"


def arrow_type(cypher_type: CypherType) -> pa.DataType | None:
    """The Arrow type holding values of `cypher_type` exactly, or None where there is none here."""
    if cypher_type.kind in _SCALARS:
        return _SCALARS[cypher_type.kind]
    if cypher_type.kind is Kind.LIST and cypher_type.element is not None:
        element = arrow_type(cypher_type.element)
        return None if element is None else pa.list_(element)
    if cypher_type.is_record and cypher_type.fields:
        fields = [(key, arrow_type(field)) for key, field in cypher_type.fields]
        if any(field is None for _, field in fields):
            return None
        return pa.struct(fields)
    return None


def arrow_rows(value: list[Any], cypher_type: CypherType) -> ArrowRows | None:
    """`value`, a list whose own type is `cypher_type`, as ArrowRows, or None if Arrow cannot hold it."""
    if len(value) < SHORTEST:
        return None
    list_type = arrow_type(cypher_type)
    if list_type is None or cypher_type.kind is not Kind.LIST or not _text_keys(value):
        return None
    try:
        column = pa.array([value], type=list_type)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        return None
    return ArrowRows(pa.table({COLUMN: column}))


def _text_keys(rows: list[Any]) -> bool:
    """Whether every map of `rows` has only string keys. pyarrow finds a STRUCT field by its name, so a row
    keyed 1 where the type (`type_of_value` names fields by `str`) says "1" would read as null. The rows'
    distinct keys are gathered in one set union (1 ms for 10,000 rows). Rows hold maps, or nulls; the
    values inside are plain, so the top level's keys are all there are."""
    try:
        keys = set().union(*rows)  # no generator skipping nulls unless there are any: 0.3 ms against 0.4
    except TypeError:  # a null row, or not maps after all (pyarrow will refuse those)
        try:
            keys = set().union(*(row for row in rows if row is not None))
        except TypeError:
            return False
    return all(type(key) is str for key in keys)
