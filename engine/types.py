"""Static Cypher types, as far as compilation can know them, and their SQL representation.

The compiler emits native SQL (BIGINT, VARCHAR, lists, structs) wherever a value's type is known, and
falls back to a VARIANT with the runtime macros of `engine.sqlgen.runtime` where it is not (ADR-0004).
Every expression carries one of these types; `sql_type` says how its value travels in SQL.

A map whose keys are known (a literal, a parameter) is a *record* (`fields` set): a STRUCT in SQL, so
`row.name` is a plain field access. A map of unknown keys is a VARIANT object.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from operator import itemgetter
from typing import Any

from engine import temporal, values
from engine.limits import PARAMETER_DEPTH, parameter_too_deep
from engine.quoting import sql_identifier
from engine.values import Vector


class Kind(Enum):
    ANY = "ANY"
    NULL = "NULL"
    BOOLEAN = "BOOLEAN"
    INTEGER = "INTEGER"
    FLOAT = "FLOAT"
    STRING = "STRING"
    LIST = "LIST"
    MAP = "MAP"
    NODE = "NODE"
    RELATIONSHIP = "RELATIONSHIP"
    PATH = "PATH"
    DATE = "DATE"
    LOCAL_TIME = "LOCAL TIME"
    ZONED_TIME = "ZONED TIME"
    LOCAL_DATETIME = "LOCAL DATETIME"
    ZONED_DATETIME = "ZONED DATETIME"
    DURATION = "DURATION"
    POINT = "POINT"
    VECTOR = "VECTOR"


@dataclass(frozen=True, slots=True)
class CypherType:
    kind: Kind
    element: CypherType | None = None
    fields: tuple[tuple[str, CypherType], ...] | None = None
    null_free: bool = False
    """Of a list: no element is ever null (Cypher's `LIST<T NOT NULL>`), as of `labels()` or `collect()`. A
    type of its own, so that a rule taking two types as one (`unify`) keeps it only where both have it."""

    def __repr__(self) -> str:
        if self.kind is Kind.LIST:
            return f"LIST<{self.element!r}>"
        if self.kind is Kind.MAP and self.fields is not None:
            return "MAP{" + ", ".join(f"{k}: {t!r}" for k, t in self.fields) + "}"
        return self.kind.value

    @property
    def is_record(self) -> bool:
        return self.kind is Kind.MAP and self.fields is not None

    def field(self, key: str) -> CypherType | None:
        for name, value_type in self.fields or ():
            if name == key:
                return value_type
        return None


ANY = CypherType(Kind.ANY)
NULL = CypherType(Kind.NULL)
BOOLEAN = CypherType(Kind.BOOLEAN)
INTEGER = CypherType(Kind.INTEGER)
FLOAT = CypherType(Kind.FLOAT)
STRING = CypherType(Kind.STRING)
MAP = CypherType(Kind.MAP)
NODE = CypherType(Kind.NODE)
RELATIONSHIP = CypherType(Kind.RELATIONSHIP)
PATH = CypherType(Kind.PATH)
DATE = CypherType(Kind.DATE)
LOCAL_TIME = CypherType(Kind.LOCAL_TIME)
ZONED_TIME = CypherType(Kind.ZONED_TIME)
LOCAL_DATETIME = CypherType(Kind.LOCAL_DATETIME)
ZONED_DATETIME = CypherType(Kind.ZONED_DATETIME)
DURATION = CypherType(Kind.DURATION)
VECTOR = CypherType(Kind.VECTOR)
"""A Cypher 25 VECTOR: a VARIANT object tagged `\\x01vector` (ADR-0066); its coordinate type and dimension are
only known at run time."""
POINT = CypherType(Kind.POINT)
TEMPORAL_KINDS = frozenset({Kind.DATE, Kind.LOCAL_TIME, Kind.ZONED_TIME, Kind.LOCAL_DATETIME, Kind.ZONED_DATETIME,
                            Kind.DURATION})


def list_of(element: CypherType, *, null_free: bool = False) -> CypherType:
    return CypherType(Kind.LIST, element=element, null_free=null_free)


def record(fields: Sequence[tuple[str, CypherType]]) -> CypherType:
    """A map of known keys, carried as a STRUCT; DuckDB's struct fields ignore case, so keys that differ
    only in case make it a plain (VARIANT) map instead."""
    if len({key.lower() for key, _ in fields}) < len(fields):
        return MAP
    return CypherType(Kind.MAP, fields=tuple(fields))


ANY_LIST = list_of(ANY)

# Kinds whose values are plain DuckDB scalars; everything else without a rule below is a VARIANT.
NATIVE_SQL: dict[Kind, str] = {
    Kind.BOOLEAN: "BOOLEAN",
    Kind.INTEGER: "BIGINT",
    Kind.FLOAT: "DOUBLE",
    Kind.STRING: "VARCHAR",
    Kind.NODE: "BIGINT",
    Kind.RELATIONSHIP: "BIGINT",
    Kind.PATH: "STRUCT(nodes BIGINT[], rels BIGINT[])",
    # Spatial points: the CRS code, then the coordinates, z null in 2D (ADR-0065).
    Kind.POINT: "STRUCT(c BIGINT, x DOUBLE, y DOUBLE, z DOUBLE)",
    # Temporal values: one STRUCT per type (ADR-0014).
    **{kind: temporal.payload_sql_type(kind.value) for kind in TEMPORAL_KINDS},
}


def sql_type(cypher_type: CypherType) -> str:
    """The DuckDB type that carries values of `cypher_type`."""
    if cypher_type.kind in NATIVE_SQL:
        return NATIVE_SQL[cypher_type.kind]
    if cypher_type.kind is Kind.LIST:
        return sql_type(cypher_type.element or ANY) + "[]"
    if cypher_type.is_record:
        inner = ", ".join(f"{sql_identifier(k)} {sql_type(t)}" for k, t in cypher_type.fields or ())
        return f"STRUCT({inner})" if inner else "VARIANT"
    return "VARIANT"


def is_variant(cypher_type: CypherType) -> bool:
    return sql_type(cypher_type) == "VARIANT"


def leaf_types(cypher_type: CypherType) -> Iterator[CypherType]:
    """The types a value's parts have, down through lists and records to the first VARIANT or scalar:
    what decides how its SQL form converts (a record of no known fields has none)."""
    if is_variant(cypher_type):
        yield cypher_type
    elif cypher_type.kind is Kind.LIST:
        yield from leaf_types(cypher_type.element or ANY)
    elif cypher_type.is_record:
        for _, field in cypher_type.fields or ():
            yield from leaf_types(field)
    else:
        yield cypher_type


def unify(first: CypherType, second: CypherType) -> CypherType:
    """The most precise type holding values of both (null fits anywhere; different kinds give ANY)."""
    if first == second:
        return first
    if first.kind is Kind.NULL:
        return second
    if second.kind is Kind.NULL:
        return first
    if first.kind is Kind.LIST and second.kind is Kind.LIST:
        return list_of(unify(first.element or ANY, second.element or ANY))
    if first.is_record and second.is_record:
        first_keys = [k for k, _ in first.fields or ()]
        if first_keys == [k for k, _ in second.fields or ()]:
            return record([(k, unify(t, second.field(k) or ANY)) for k, t in first.fields or ()])
        return MAP
    if first.kind is Kind.MAP and second.kind is Kind.MAP:
        return MAP
    return ANY


def unify_all(types: Sequence[CypherType]) -> CypherType:
    result = NULL
    for each in types:
        result = unify(result, each)
    return result


def type_of_value(value: Any) -> CypherType:
    """The static type of a parameter's value, so `$rows` of uniform maps compiles to STRUCT access."""
    if value is None:
        return NULL
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER if -(2**63) <= value < 2**63 else ANY
    if isinstance(value, float):
        return FLOAT if math.isfinite(value) else ANY
    if isinstance(value, str):
        return STRING
    if isinstance(value, Mapping):
        if not value:
            return MAP
        return record([(str(k), type_of_value(v)) for k, v in value.items()])
    if isinstance(value, list | tuple):
        return list_of(type_of_items(value))
    if type(value) in temporal.VALUE_KINDS:
        return CypherType(Kind(temporal.VALUE_KINDS[type(value)]))
    if isinstance(value, Vector):
        return VECTOR
    if type(value) is values.Point:
        return POINT
    return ANY


_SCALAR_TYPES: dict[type, CypherType] = {bool: BOOLEAN, str: STRING}
_BUILTINS = frozenset({bool, int, float, str, dict, list})


def type_of_items(items: Sequence[Any]) -> CypherType:
    """`unify_all` of the items' types, a column at a time: a batch of 10,000 rows for `UNWIND $rows` is
    typed by one pass per key instead of one `type_of_value` and `unify` per value (0.25 s a batch).
    Items of exact builtin types only; anything else takes the value-by-value path."""
    classes = set(map(type, items))
    if tuple in classes:
        classes = (classes - {tuple}) | {list}
    nulls = type(None) in classes
    classes.discard(type(None))
    if not classes:
        return NULL
    if len(classes) > 1:
        # builtins of different kinds unify to ANY; other classes may be subclasses of one kind
        return ANY if classes <= _BUILTINS else unify_all([type_of_value(item) for item in items])
    (cls,) = classes
    if cls in _SCALAR_TYPES:
        return _SCALAR_TYPES[cls]
    present = [item for item in items if item is not None] if nulls else items
    if cls is int:
        return INTEGER if min(present) >= -(2**63) and max(present) < 2**63 else ANY
    if cls is float:
        return FLOAT if all(map(math.isfinite, present)) else ANY
    if cls is list:
        return list_of(type_of_items([element for item in present for element in item]))
    if cls is dict:
        shapes = set(map(tuple, present))
        if len(shapes) > 1 or () in shapes:
            return MAP  # maps of different keys (or none) unify to a plain map
        (keys,) = shapes
        if not all(type(key) is str for key in keys):
            return unify_all([type_of_value(item) for item in items])
        return record([(key, type_of_items(list(map(itemgetter(key), present)))) for key in keys])
    return unify_all([type_of_value(item) for item in items])



def nesting_depth(cypher_type: CypherType) -> int | None:
    """How deeply lists and maps nest in every value of `cypher_type` (as `limits.parameter_too_deep` counts
    them), where the type shows the whole structure: None under a MAP or ANY, whose values it does not."""
    if cypher_type.kind is Kind.LIST:
        inner = nesting_depth(cypher_type.element or NULL)
        return None if inner is None else inner + 1
    if cypher_type.is_record and cypher_type.fields:
        depths = [nesting_depth(field) for _, field in cypher_type.fields]
        return None if None in depths else 1 + max(d for d in depths if d is not None)
    return None if cypher_type.kind in (Kind.MAP, Kind.ANY) else 0


class TypedParameters(dict[str, Any]):
    """A statement's parameters with the types of their values (`types`), typed once as their depth was
    checked (`typed_parameters`), so that the binder does not type a 10,000-row batch again (ADR-0108)."""

    types: dict[str, CypherType]


def typed_parameters(params: Mapping[str, Any] | None) -> tuple[Mapping[str, Any] | None, str | None]:
    """`params` as TypedParameters, and the name of a parameter nested deeper than PARAMETER_DEPTH (or None).
    A value's own type gives its depth where it shows the whole structure (a batch of rows of plain values):
    then the level-by-level walk of `parameter_too_deep`, as long as the typing, is not needed."""
    if not params:
        return params, None
    typed = TypedParameters(params)
    typed.types = {}
    for name, value in typed.items():
        try:
            cypher_type = type_of_value(value)
        except RecursionError:  # nested far too deep: the walk measures it
            cypher_type = None
        depth = None if cypher_type is None else nesting_depth(cypher_type)
        if (depth is None and parameter_too_deep({name: value}) is not None) or (depth or 0) > PARAMETER_DEPTH:
            return typed, name
        if cypher_type is not None:
            typed.types[name] = cypher_type
    return typed, None


def parameter_type(params: Mapping[str, Any], name: str) -> CypherType:
    """The type of parameter `name`'s value: as `typed_parameters` found it, else typed now."""
    known = getattr(params, "types", None)
    if known is not None and name in known:
        return known[name]
    return type_of_value(params[name])


def is_storable(cypher_type: CypherType) -> bool | None:
    """Whether values of this type may be stored as properties: True, False, or None (only known at run time)."""
    kind = cypher_type.kind
    if kind in (Kind.BOOLEAN, Kind.INTEGER, Kind.FLOAT, Kind.STRING, Kind.NULL, Kind.DATE, Kind.LOCAL_TIME,
                Kind.ZONED_TIME, Kind.LOCAL_DATETIME, Kind.ZONED_DATETIME, Kind.DURATION, Kind.POINT, Kind.VECTOR):
        return True
    if kind in (Kind.MAP, Kind.NODE, Kind.RELATIONSHIP, Kind.PATH):
        return False
    return None


# -- property columns ---------------------------------------------------------------------------------

COLUMN_KINDS = (Kind.BOOLEAN, Kind.INTEGER, Kind.FLOAT, Kind.STRING, *sorted(TEMPORAL_KINDS, key=lambda k: k.value),
                Kind.POINT)


def column_type(value_type: CypherType) -> CypherType | None:
    """The column type that stores values of `value_type`: itself for scalars and lists of scalars,
    ANY (a VARIANT column) for anything else; None for null, which is never stored."""
    if value_type.kind is Kind.NULL:
        return None
    if value_type.kind in COLUMN_KINDS:
        return value_type
    if value_type.kind is Kind.LIST and (value_type.element or ANY).kind in COLUMN_KINDS:
        return list_of(value_type.element or ANY)  # a column may hold lists with nulls
    return ANY


def widened_column_type(current: CypherType | None, written: Sequence[CypherType]) -> CypherType | None:
    """A column's type after values of `written` types are stored in it: unchanged while every value
    fits, ANY as soon as two types meet (ADR-0009)."""
    stored = {column_type(value) for value in written} - {None}
    if current is not None:
        stored.add(current)
    if not stored:
        return None
    return stored.pop() if len(stored) == 1 else ANY


def type_name(cypher_type: CypherType) -> str:
    """A column type as stored in the catalog: `INTEGER`, `LIST<STRING>`, `ANY`."""
    if cypher_type.kind is Kind.LIST:
        return f"LIST<{type_name(cypher_type.element or ANY)}>"
    return cypher_type.kind.value


def parse_type_name(text: str) -> CypherType:
    if text.startswith("LIST<") and text.endswith(">"):
        return list_of(parse_type_name(text[5:-1]))
    return CypherType(Kind(text))
