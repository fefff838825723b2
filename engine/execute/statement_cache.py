"""Compiled reads kept by statement text, so a statement sent again skips parse, bind and SQL generation.

An agent or a page sends the same few statements again and again with other parameters. A read that
compiles to one SELECT (nothing ran before it: no temp table, no level walk, no procedure) binds every
parameter's value, so the SELECT serves any values of the same types. It is reused when:
- the store is as it was (`GraphStore.version`: no statement has committed or rolled back since, nor has
  another connection of the process created a relationship);
- every parameter it bound is given again, with the same type (`parameter_type`: as the connection typed it once);
- the parameters whose values the compile looked at (parameter_reads.py) have the same values;
- each parameter's value binds through the same SQL as before (`ParameterSlot.value_for`; a null, for
  one, binds none).
Then only the parameters' slots are bound afresh. See docs/adr/0044-compiled-reads-are-reused.md.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

import duckdb

from engine.semantic.parameter_reads import ParameterReads
from engine.span import Span
from engine.sqlgen.context import UNBOUND, ParameterSlot
from engine.types import CypherType, parameter_type

DEFAULT_SIZE = 256
"""Statements kept per connection, the least recently used dropped first."""

LARGEST_INSPECTED = 64
"""A looked-at list or map with more items than this is not kept to compare (a batch of rows an UNWIND
reads): such a statement would rarely be sent again with the same value."""


@dataclass
class CompiledRead:
    """A read statement's one SELECT, and how to read its rows."""

    sql: str
    windowed_sql: str
    """The same SELECT fetching a window of its rows (executor.final_select)."""
    values: tuple[Any, ...]
    """The values bound, with None at each parameter's slot (filled from the parameters of each run)."""
    slots: tuple[ParameterSlot, ...]
    types: tuple[CypherType, ...]
    columns: tuple[str, ...]
    ordered: bool
    span: Span | None
    fused: bool
    """Whether the SELECT is several fused clauses (an error in it re-runs them one at a time)."""
    repeatable: bool
    """Whether it gives the same rows again on the same data (`Result.repeatable`)."""
    parsed: duckdb.Statement | None = field(default=None, compare=False)
    """The SELECT as DuckDB parsed it, kept at its first reuse: parsing our SQL text again would cost
    0.5–2 ms of every run (ADR-0046). A parsed statement is bound and planned afresh on each run."""

    parsed_windowed: duckdb.Statement | None = field(default=None, compare=False)

    def statement(self, connection: duckdb.DuckDBPyConnection, *, windowed: bool = False) -> duckdb.Statement:
        if windowed:
            if self.parsed_windowed is None:
                (self.parsed_windowed,) = connection.extract_statements(self.windowed_sql)
            return self.parsed_windowed
        if self.parsed is None:
            (self.parsed,) = connection.extract_statements(self.sql)
        return self.parsed


@dataclass(frozen=True)
class _Entry:
    compiled: CompiledRead
    version: Hashable
    types: tuple[tuple[str, CypherType], ...]
    inspected: tuple[tuple[str, Any], ...]


class StatementCache:
    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self.hits = 0
        """Statements run from a compiled read kept here."""

    def info(self) -> dict[str, int]:
        return {"hits": self.hits, "kept": len(self._entries), "size": self.size}

    def lookup(self, text: str, params: Mapping[str, Any] | None,
               version: Hashable) -> tuple[CompiledRead, list[Any]] | None:
        """The compiled read kept for `text` and the values to bind for `params`, if it serves them."""
        entry = self._entries.get(text)
        if entry is None or entry.version != version:
            return None
        params = params or {}
        try:
            if any(name not in params or parameter_type(params, name) != cypher_type
                   for name, cypher_type in entry.types):
                return None
            if any(name not in params or not same_value(params[name], value) for name, value in entry.inspected):
                return None
            values = list(entry.compiled.values)
            for slot in entry.compiled.slots:
                value = slot.value_for(params[slot.name])
                if value is UNBOUND:
                    return None
                values[slot.position] = value
        except (TypeError, ValueError):  # a value the binder refuses: it raises the error
            return None
        self._entries.move_to_end(text)
        self.hits += 1
        return entry.compiled, values

    def remember(self, text: str, params: Mapping[str, Any] | None, reads: ParameterReads,
                 compiled: CompiledRead | None, version: Hashable) -> None:
        """Keep `compiled` (what running `text` just compiled, None if it was not one SELECT) for `text`."""
        if compiled is None or reads.calls_procedure or self.size <= 0:
            return
        params = params or {}
        inspected = tuple((name, params[name]) for name in sorted(reads.inspected))
        if any(too_large(value) for _, value in inspected):
            return
        self._entries[text] = _Entry(compiled, version, tuple(reads.types.items()),
                                     tuple((name, copy.deepcopy(value)) for name, value in inspected))
        self._entries.move_to_end(text)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)


def compiled_read(sql: str, windowed_sql: str, values: list[Any], slots: list[ParameterSlot],
                  types: list[CypherType], columns: list[str], ordered: bool, span: Span | None, fused: bool,
                  repeatable: bool) -> CompiledRead:
    kept = list(values)
    for slot in slots:
        kept[slot.position] = None  # not the caller's value: it may be a large batch, or change
    return CompiledRead(sql, windowed_sql, tuple(kept), tuple(slots), tuple(types), tuple(columns), ordered, span,
                        fused, repeatable)


def same_value(a: Any, b: Any) -> bool:
    """Equal and of the same types throughout (1, 1.0 and True are equal in Python, not in Cypher); any
    value but a builtin scalar, list or map is taken to differ."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_value(a[key], b[key]) for key in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return type(a) in _SCALARS and bool(a == b)


_SCALARS = (str, int, float, bool, type(None))


def too_large(value: Any) -> bool:
    if isinstance(value, Mapping | list | tuple):
        return len(value) > LARGEST_INSPECTED or any(too_large(item) for item in
                                                     (value.values() if isinstance(value, Mapping) else value))
    return False
