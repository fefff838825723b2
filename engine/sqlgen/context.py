"""What SQL generation needs while it writes one SELECT: bound values, variable columns, entity joins.

`Parameters` collects every value the statement carries (parameters and literals alike) so they are bound
to the SQL, never spliced into its text. `SelectContext` maps variables to SQL and hoists one join to the
node or relationship table per entity variable whose properties or labels the SELECT reads.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from engine import temporal
from engine import values as cypher_values
from engine.errors import UnsupportedFeature
from engine.quoting import sql_string
from engine.semantic.scope import Variable
from engine.sqlgen.arrow_rows import COLUMN as ARROW_COLUMN
from engine.sqlgen.arrow_rows import arrow_rows
from engine.sqlgen.decorrelate import SharedRows
from engine.sqlgen.sql import Term
from engine.storage.encoding import tag_key, vector_payload
from engine.storage.schema import ENTITY_TABLES, Catalog
from engine.types import ANY, CypherType, Kind, sql_type, type_of_value


def encode_json(value: Any, cypher_type: CypherType | None = None) -> Any:
    """A Python value as JSON-able data for SQL of `cypher_type`: a temporal value is its payload where the
    type is that temporal type, and tagged where the value travels as a VARIANT (ADR-0014)."""
    if isinstance(value, cypher_values.TEMPORAL_TYPES):
        kind, payload = temporal.encode(value)
        return payload if cypher_type is not None and cypher_type.kind.value == kind else {tag_key(kind): payload}
    if isinstance(value, cypher_values.Vector):
        return {tag_key("VECTOR"): vector_payload(value)}
    if isinstance(value, cypher_values.Point):
        payload = {"c": value.srid, "x": value.x, "y": value.y, "z": value.z}
        return payload if cypher_type is not None and cypher_type.kind is Kind.POINT else {tag_key("POINT"): payload}
    if isinstance(value, dict):
        record = cypher_type if cypher_type is not None and cypher_type.is_record else None
        return {str(k): encode_json(v, record.field(str(k)) if record else None) for k, v in value.items()}
    if isinstance(value, list | tuple):
        element = cypher_type.element if cypher_type is not None and cypher_type.kind is Kind.LIST else None
        return [encode_json(v, element) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        # lists and maps travel as JSON, which has no NaN or infinity (a scalar parameter may be either)
        raise UnsupportedFeature(f"a parameter holding {value} inside a list or map (NaN and infinite floats are"
                                 " passed as scalar parameters only)", detail="NonFiniteFloatInCollection")
    return value


def _json_text(value: Any, cypher_type: CypherType, own: bool) -> str:
    """The JSON text of a bound value. Rows of plain values (no temporal values, no maps of unknown keys)
    of their own type are already what `encode_json` would make: dumped as they are by orjson, eighteen
    times faster than `json.dumps` on a 10,000-row load batch (0.4 ms against 7 ms, ADR-0097). orjson
    refuses what JSON cannot keep exactly (a key that is not a string, an integer past 64 bits) with a
    TypeError, and such a value takes the general route; a value of its own plain type holds no NaN or
    infinity (`type_of_value` types those ANY), which orjson would write as null."""
    if own and _plain_rows(cypher_type):
        with contextlib.suppress(TypeError):
            return orjson.dumps(value).decode()
    return json.dumps(encode_json(value, cypher_type))


def _plain(cypher_type: CypherType) -> bool:
    """Booleans, numbers, strings, nulls, records of them, and lists of them."""
    if cypher_type.kind is Kind.LIST:
        return _plain(cypher_type.element or ANY)
    if cypher_type.is_record:
        return all(_plain(field) for _, field in cypher_type.fields or ())
    return cypher_type.kind in (Kind.BOOLEAN, Kind.INTEGER, Kind.FLOAT, Kind.STRING, Kind.NULL)


def _plain_rows(cypher_type: CypherType) -> bool:
    """A record of plain values, or a list of them."""
    row = cypher_type.element if cypher_type.kind is Kind.LIST else cypher_type
    return row is not None and row.is_record and all(_plain(field) for _, field in row.fields or ())


def _scalar_lists(cypher_type: CypherType) -> bool:
    """Whether `cypher_type` is a list, or list of lists, of booleans, integers, floats or strings."""
    element = cypher_type.element if cypher_type.kind is Kind.LIST else None
    if element is None:
        return False
    return element.kind in (Kind.BOOLEAN, Kind.INTEGER, Kind.FLOAT, Kind.STRING) or _scalar_lists(element)


PLACEHOLDER = "$?"
"""Where a binding's SQL (`binding`) reads its value: `Parameters` numbers it."""


def binding(value: Any, cypher_type: CypherType, own: bool | None = None,
            reads: CypherType | None = None) -> tuple[str, Any] | str:
    """How SQL reads `value` in the representation of `cypher_type`: its SQL around PLACEHOLDER and the
    value bound there, or (a null) SQL that binds nothing. `own`: whether `cypher_type` is the value's own
    type (`type_of_value`), where the caller knows it: typing a 10,000-row batch again costs 6 ms. `reads`:
    the narrower type of the fields the statement reads (`BParameter.reads`), which the SQL may give
    instead, in its own representation (ADR-0114)."""
    target = sql_type(cypher_type)
    if value is None:
        return Term(f"NULL::{target}")
    kind = cypher_type.kind
    if kind in (Kind.BOOLEAN, Kind.INTEGER, Kind.FLOAT, Kind.STRING):
        return Term(f"CAST({PLACEHOLDER} AS {target})"), value
    if isinstance(value, float):
        return f"CAST({PLACEHOLDER} AS DOUBLE)::VARIANT", value
    if isinstance(value, list) and _scalar_lists(cypher_type):
        # a list (of lists) of one scalar type binds as itself: the cast gives what the JSON route would,
        # five times faster on a batch of embeddings
        return Term(f"CAST({PLACEHOLDER} AS {target})"), value
    if own is None:
        own = type_of_value(value) == cypher_type
    if own and isinstance(value, list) and _plain_rows(cypher_type) and "VARIANT" not in target:
        rows = arrow_rows(value, cypher_type)
        if rows is not None:  # the Arrow table the execute layer names for DuckDB (arrow_rows.py)
            # list(l)[1], not the plain scalar subquery, whose first() turns -0.0 inside a list into 0.0
            return f"CAST((SELECT list({ARROW_COLUMN})[1] FROM query_table({PLACEHOLDER})) AS {target})", rows
    text = _json_text(value, cypher_type, own)
    if own and reads is not None and "VARIANT" not in target:
        # only the fields read: DuckDB's JSON cast refuses a key its STRUCT lacks, `from_json` skips it
        # (the value's JSON is of its own type, so each field kept converts as the cast would convert it)
        return f"from_json({PLACEHOLDER}, {sql_string(json.dumps(sql_type(reads)))})", text
    if own and "VARIANT" not in target:
        # JSON of the value's own type casts straight to it, 5x faster than through a VARIANT (which
        # is lenient to keys the type lacks, so it stays the route for other values)
        return f"CAST(CAST({PLACEHOLDER} AS JSON) AS {target})", text
    placeholder = f"CAST(CAST({PLACEHOLDER} AS JSON) AS VARIANT)"
    return (placeholder if target == "VARIANT" else f"CAST({placeholder} AS {target})"), text


UNBOUND = object()
"""`ParameterSlot.value_for` of a value the slot's SQL cannot read."""


@dataclass(frozen=True)
class ParameterSlot:
    """A value of `Parameters` that a parameter's value fills, so that a compiled statement can bind
    another value of the parameter there (statement_cache.py)."""

    position: int
    name: str
    type: CypherType
    sql: str
    derive: Callable[[Any], Any] | None = None
    """For a value the compiler computed from the parameter's: how (None from a value it cannot have)."""
    reads: CypherType | None = None
    """The fields of `type` the statement reads, as `binding` takes them."""

    def value_for(self, value: Any) -> Any:
        """What this slot binds for the parameter's `value`, or UNBOUND if the SQL would be other."""
        if self.derive is not None:
            derived = self.derive(value)
            return UNBOUND if derived is None else derived
        read = binding(value, self.type, reads=self.reads)
        return UNBOUND if isinstance(read, str) or read[0] != self.sql else read[1]


@dataclass
class Parameters:
    """Values bound to `$1, $2, ...` of one SQL statement, and which of them come from which parameter."""

    values: list[Any] = field(default_factory=list)
    slots: list[ParameterSlot] = field(default_factory=list)

    def bind(self, value: Any, cypher_type: CypherType) -> str:
        """SQL for `value` in the representation of `cypher_type`."""
        return self._read(binding(value, cypher_type))

    def bind_parameter(self, name: str, value: Any, cypher_type: CypherType, *, own: bool | None = None,
                       reads: CypherType | None = None) -> str:
        """`bind` for parameter `name`'s value, noting the slot it fills (`own`, `reads` as `binding` takes
        them)."""
        read = binding(value, cypher_type, own, reads)
        if not isinstance(read, str):
            self.slots.append(ParameterSlot(len(self.values), name, cypher_type, read[0], reads=reads))
        return self._read(read)

    def _read(self, read: tuple[str, Any] | str) -> str:
        if isinstance(read, str):
            return read
        sql, bound = read
        self.values.append(bound)
        read_sql = sql.replace(PLACEHOLDER, f"${len(self.values)}")
        return Term(read_sql) if isinstance(sql, Term) else read_sql

    def derived(self, name: str, value: Any, derive: Callable[[Any], Any], type_sql: str) -> str | None:
        """SQL for `derive(value)` of parameter `name` in its stored STRUCT form, None if that is None."""
        derived = derive(value)
        if derived is None:
            return None
        self.values.append(derived)
        self.slots.append(ParameterSlot(len(self.values) - 1, name, CypherType(Kind.ANY), "", derive))
        return Term(f"CAST(${len(self.values)} AS {type_sql})")

    def truncate(self, count: int) -> None:
        """Forget the values bound after the first `count` (SQL compiled and thrown away)."""
        del self.values[count:]
        self.slots = [slot for slot in self.slots if slot.position < count]

    def text(self, value: str) -> str:
        self.values.append(value)
        return Term(f"CAST(${len(self.values)} AS VARCHAR)")

    def struct(self, value: dict[str, Any], type_sql: str) -> str:
        """A value the compiler computed, in its stored STRUCT form (DuckDB binds a dict as a STRUCT)."""
        self.values.append(value)
        return Term(f"CAST(${len(self.values)} AS {type_sql})")


@dataclass
class SelectContext:
    """One SELECT under construction: how variables read, and the entity joins it needs."""

    catalog: Catalog
    parameters: Parameters
    variables: dict[int, str] = field(default_factory=dict)
    joins: list[str] = field(default_factory=list)
    entity_aliases: dict[tuple[str, str], str] = field(default_factory=dict)
    hoistable: set[str] = field(default_factory=set)
    alias_prefix: str = "e"
    aggregates: dict[int, str] | None = None
    counter: list[int] = field(default_factory=lambda: [0])
    lambda_depth: int = 0
    tombstones: bool = False
    """True once the statement has deleted something: reads of an element must then tell a deleted one
    (DeletedEntityAccess) from an absent one."""
    carried: dict[tuple[str, str, str], str] = field(default_factory=dict)
    """(entity, id SQL, table column) -> a column of the input that already holds it (generator.Carried)."""
    shared: SharedRows | None = None
    """A projection's outer rows, for its items' subqueries to run over all at once (decorrelate.py)."""
    detached: bool = False
    """The outer context of a subquery body run over all outer rows at once: it sees no outer variable, yet
    the body compiles as a subquery's (kept row order, no separate SQL statements)."""
    read_trackers: list[set[str]] = field(default_factory=list)
    """Open `tracking_entity_reads` scopes, innermost last."""
    row_number: str | None = None
    """SQL numbering this SELECT's rows 1..n in their order, where a call may make virtual elements (a
    projection's items and sort keys); None elsewhere (`sqlgen.virtual_elements`)."""
    element_indices: tuple[str, ...] = ()
    """Inside list comprehensions that make virtual elements, the position of the element of each, innermost
    last."""

    def bind_variable(self, variable: Variable, sql: str, *, hoistable: bool = True) -> None:
        self.variables[id(variable)] = sql
        if hoistable:
            self.hoistable.add(sql)

    def variable_sql(self, variable: Variable) -> str | None:
        return self.variables.get(id(variable))

    def fresh(self, prefix: str) -> str:
        self.counter[0] += 1
        return f"{prefix}{self.counter[0]}"

    def entity_row(self, entity: str, id_sql: str) -> str | None:
        """An alias of the entity table joined on `id_sql`, when `id_sql` is a column of this SELECT."""
        if id_sql not in self.hoistable:
            return None
        key = (entity, id_sql)
        if key not in self.entity_aliases:
            alias = self.fresh(self.alias_prefix)
            self.entity_aliases[key] = alias
            self.joins.append(f"LEFT JOIN {ENTITY_TABLES[entity]} AS {alias} ON {alias}.id = {id_sql}")
        alias = self.entity_aliases[key]
        for tracker in self.read_trackers:
            tracker.add(alias)
        return alias

    @contextlib.contextmanager
    def tracking_entity_reads(self) -> Iterator[set[str]]:
        """The aliases of the entity rows SQL compiled inside it reads: which joins of the SELECT it needs,
        known from how it was made (a pattern places a condition before the joins only if it reads none)."""
        tracker: set[str] = set()
        self.read_trackers.append(tracker)
        try:
            yield tracker
        finally:
            self.read_trackers.remove(tracker)

    def lambda_context(self) -> SelectContext:
        """A context for a DuckDB lambda's body inside this SELECT: its variables, joins and entity rows,
        one level deeper."""
        return SelectContext(self.catalog, self.parameters, dict(self.variables), self.joins, self.entity_aliases,
                             set(self.hoistable), self.alias_prefix, self.aggregates, self.counter,
                             self.lambda_depth + 1, read_trackers=self.read_trackers, row_number=self.row_number,
                             element_indices=self.element_indices)

    def register_entity_alias(self, entity: str, id_sql: str, alias: str) -> None:
        """A pattern element already joins the entity table as `alias`: reuse it for property reads."""
        self.entity_aliases[(entity, id_sql)] = alias
        self.hoistable.add(id_sql)

    def child(self) -> SelectContext:
        """A context for a nested SELECT: sees the same variables, joins of its own."""
        return SelectContext(self.catalog, self.parameters, dict(self.variables), [], {}, set(),
                             self.alias_prefix, None, self.counter, 0, self.tombstones, dict(self.carried))

    def join_text(self) -> str:
        return (" " + " ".join(self.joins)) if self.joins else ""
