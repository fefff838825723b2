"""The spatial functions: bound expressions -> SQL (ADR-0065): `point()`, `point.distance()` and
`point.withinBBox()` (a point's forms, components and text are in sqlgen/spatial_values.py).

Static types choose the SQL, as for temporal values: `point({x: n.a, y: n.b})` knows its keys when the query
compiles, so its SQL reads exactly those fields; a map whose keys only the data knows is looked into on each
row. Either way the construction itself is one runtime macro, `cy_point_make` (sqlgen/runtime_spatial.py),
which takes each of the eight keys' value or null; a key present with a null value makes the point null
before anything is checked, as Neo4j's point() does.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from engine import types as t
from engine.quoting import sql_string
from engine.semantic import bound as b
from engine.sqlgen.expressions import ExpressionCompiler
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.spatial_values import CODE, NULL_POINT, POINT_SQL, payload
from engine.sqlgen.sql import let, macro
from engine.sqlgen.temporal import SqlValue
from engine.types import Kind, is_variant
from engine.values import POINT_CRS

Builder = Callable[[ExpressionCompiler, b.BFunction], str]

COORDINATE_KEYS = ("x", "y", "z", "longitude", "latitude", "height")
POINT_KEYS = (*COORDINATE_KEYS, "crs", "srid")
"""The keys point() reads, in the order cy_point_make takes them; any other key of its map is ignored."""


# -- arguments ----------------------------------------------------------------------------------------------

def point_or_null(c: ExpressionCompiler, expression: b.BoundExpression) -> str:
    """An argument of point.distance() or point.withinBBox() as a STRUCT: a value that is no point (possible only
    for a type read off the data, or known only at run time) is null there, as Neo4j's functions answer null."""
    kind = expression.type.kind
    if kind is Kind.POINT:
        return c.compile(expression)
    if is_variant(expression.type):
        return let([c.variant(expression)], lambda v: f"CASE WHEN cy_kind({v}) = {CODE} THEN {payload(v)} END")
    return NULL_POINT


# -- point() -----------------------------------------------------------------------------------------------

def _fail(kind: str, message_sql: str) -> str:
    return error_sql(kind, "InvalidArgumentValue" if kind == "ArgumentError" else "InvalidArgumentType", message_sql)


def _cannot_assign(what_sql: str, key: str) -> str:
    return _fail("ArgumentError", f"'Cannot assign ' || {what_sql} || {sql_string(f' to field {key}')}")


def _parsed_double(text: str) -> str:
    """A coordinate given as a string, parsed as Java's Double.parseDouble does the decimal forms (an unparsable
    one fails; Java's hexadecimal and `d`/`f`-suffixed forms fail here too rather than parse differently)."""
    return (f"coalesce(TRY_CAST({text} AS DOUBLE), "
            + _fail("ArgumentError", f"'For input string: \"' || {text} || '\"'") + ")")


def _parsed_integer(text: str) -> str:
    """An SRID given as a string, parsed as Java's Integer.parseInt does (digits and a sign, nothing else)."""
    return (f"CASE WHEN regexp_full_match({text}, '[+-]?[0-9]+') THEN TRY_CAST({text} AS INTEGER) END")


def _variant_field(v: str, key: str) -> str:
    """The value of `key` in the SQL type cy_point_make takes, from a VARIANT (null stays null)."""
    text = f"TRY_CAST({v} AS VARCHAR)"
    wrong = _cannot_assign(f"cy_type_name({v})", key)
    if key == "crs":
        return f"CASE cy_kind({v}) WHEN 0 THEN NULL WHEN 4 THEN {text} ELSE {wrong} END"
    if key == "srid":
        return (f"CASE cy_kind({v}) WHEN 0 THEN NULL WHEN 2 THEN TRY_CAST({v} AS BIGINT)"
                f" WHEN 4 THEN coalesce({_parsed_integer(text)}, "
                + _fail("ArgumentError", f"'For input string: \"' || {text} || '\"'") + f") ELSE {wrong} END")
    return (f"CASE cy_kind({v}) WHEN 0 THEN NULL WHEN 2 THEN TRY_CAST({v} AS DOUBLE)"
            f" WHEN 3 THEN TRY_CAST({v} AS DOUBLE) WHEN 4 THEN {_parsed_double(text)} ELSE {wrong} END")


def _static_field(c: ExpressionCompiler, expression: b.BoundExpression, key: str) -> str:
    """The value of `key` in the SQL type cy_point_make takes, from an expression of known static type."""
    kind = expression.type.kind
    if kind is Kind.NULL:
        return "NULL::VARCHAR" if key == "crs" else "NULL::BIGINT" if key == "srid" else "NULL::DOUBLE"
    if is_variant(expression.type):
        return let([c.variant(expression)], lambda v: _variant_field(v, key))
    sql = c.compile(expression)
    if key == "crs" and kind is Kind.STRING:
        return sql
    if key == "srid" and kind is Kind.INTEGER:
        return sql
    if key == "srid" and kind is Kind.STRING:
        return let([sql], lambda text: (
            f"CASE WHEN {text} IS NULL THEN NULL ELSE coalesce({_parsed_integer(text)}, "
            + _fail("ArgumentError", f"'For input string: \"' || {text} || '\"'") + ") END"))
    if key in COORDINATE_KEYS and kind in (Kind.INTEGER, Kind.FLOAT):
        return f"({sql})::DOUBLE"
    if key in COORDINATE_KEYS and kind is Kind.STRING:
        return let([sql], lambda text: f"CASE WHEN {text} IS NULL THEN NULL ELSE {_parsed_double(text)} END")
    # a type the key does not take: an error on the rows that bring a value (Neo4j checks it when it runs)
    return let([sql], lambda value: (
        f"CASE WHEN {value} IS NULL THEN NULL ELSE {_cannot_assign(sql_string(repr(expression.type)), key)} END"))


def _make(fields: dict[str, str]) -> str:
    """cy_point_make over the SQL of each key given (absent keys null)."""
    absent = {"crs": "NULL::VARCHAR", "srid": "NULL::BIGINT"}
    return macro("cy_point_make", *(fields.get(key, absent.get(key, "NULL::DOUBLE")) for key in POINT_KEYS))


def _from_record(c: ExpressionCompiler, argument: b.BoundExpression) -> str:
    """point() of a map whose keys the query fixes: a map literal, or a record (a parameter, a projected map)."""
    if isinstance(argument, b.BMap):
        if any(value.type.kind is Kind.NULL for _, value in argument.entries):
            return NULL_POINT  # a key given null makes the point null (Neo4j's point() checks that first)
        entries = [(key, c.compile(value), value.type) for key, value in argument.entries]
        literals = {key.lower(): value.value for key, value in argument.entries if isinstance(value, b.BLiteral)}
        return let([sql for _, sql, _ in entries], lambda *names: _from_entries(
            c, [(key, name, value_type) for (key, _, value_type), name in zip(entries, names, strict=True)], None,
            literals))
    return let([c.compile(argument)], lambda record: _from_entries(
        c, [(key, f"struct_extract({record}, {sql_string(key)})", field) for key, field in argument.type.fields or ()],
        record, {}))


def _from_entries(c: ExpressionCompiler, entries: list[tuple[str, str, t.CypherType]], record: str | None,
                  literals: dict[str, object]) -> str:
    """The point of a map's entries (key, SQL, type), null when the map or any of its values is."""
    nulls = " OR ".join([f"{record} IS NULL"] * (record is not None) + [f"({sql}) IS NULL" for _, sql, _ in entries])
    fields = {key.lower(): _static_field(c, SqlValue(sql, type=value_type, span=None), key.lower())
              for key, sql, value_type in entries if key.lower() in POINT_KEYS}
    known = _known_crs(set(fields), literals)
    if known is None:
        point = _make(fields)
    else:
        srid, axes = known
        coordinates = [fields[axis] for axis in axes] + ["NULL::DOUBLE"] * (3 - len(axes))
        point = macro("cy_point_of", str(srid), *coordinates)
    return f"CASE WHEN {nulls} THEN {NULL_POINT} ELSE {point} END" if nulls else point


def _known_crs(keys: set[str], literals: dict[str, object]) -> tuple[int, list[str]] | None:
    """The SRID and the keys of the coordinates (x, y, z in order) when the map's keys and its `crs` or `srid`
    literal decide them as the query compiles, as Neo4j's PointValue.fromInputFields decides; None where that
    takes the data (a `crs` that is no literal) or fails (then cy_point_make fails on the rows, as Neo4j does)."""
    named = None
    if "crs" in keys and "srid" in keys:
        return None
    if "crs" in keys:
        names = {name: srid for srid, (name, _, _) in POINT_CRS.items()}
        crs = literals.get("crs")
        named = names.get(crs.lower()) if isinstance(crs, str) else None
        if named is None:
            return None
    if "srid" in keys:
        srid = literals.get("srid")
        named = srid if type(srid) is int and srid in POINT_CRS else None
        if named is None:
            return None
    if {"x", "y"} <= keys:
        axes = ["x", "y", "z"] if "z" in keys else ["x", "y"]
        srid = named if named is not None else 9157 if "z" in keys else 7203
    elif {"longitude", "latitude"} <= keys:
        third = ["z"] if "z" in keys else ["height"] if "height" in keys else []
        axes = ["longitude", "latitude", *third]
        srid = named if named is not None else 4979 if third else 4326
        if not POINT_CRS[srid][2]:
            return None
    else:
        return None
    return (srid, axes) if POINT_CRS[srid][1] == len(axes) else None


def _from_variant_map(m: str) -> str:
    """point() of a VARIANT map, whose keys only the data knows: each of the eight keys looked up ignoring case
    (given twice, in two cases, it fails as Neo4j's does)."""
    keys = f"variant_keys({m})"
    lowered = f"list_transform({keys}, lambda k: lower(k))"
    null_values = f"list_transform({keys}, lambda k: coalesce(cy_kind(cy_map_get({m}, k)), 0) = 0)"
    nulls = f"coalesce(list_bool_or({null_values}), false)"
    duplicates = " ".join(
        f"WHEN len(list_filter({lowered}, lambda k: k = {sql_string(key)})) > 1 THEN "
        + _fail("ArgumentError", sql_string(f"Duplicate field '{key}' is not allowed.")) for key in POINT_KEYS)
    fields = {key: let([f"cy_map_get({m}, {keys}[list_position({lowered}, {sql_string(key)})])"],
                       lambda v, key=key: _variant_field(v, key)) for key in POINT_KEYS}
    return f"CASE WHEN {nulls} THEN {NULL_POINT} {duplicates} ELSE {_make(fields)} END"


NULL_MAP_VALUE = object()
"""`constant_point` of a map holding a null: the point is null."""


def constant_point(mapping: Mapping[str, Any]) -> dict[str, Any] | object | None:
    """The STRUCT of the point a map of literal or given values makes, worked out as the query compiles (the
    point of `point({latitude: $lat, longitude: $lon})`, bound once rather than built on every row it is
    compared with); NULL_MAP_VALUE for a map holding a null; None where the SQL is to decide: a value of
    another type than a number (or a string naming the CRS, an integer SRID), or a point Neo4j refuses."""
    if any(value is None for value in mapping.values()):
        return NULL_MAP_VALUE
    fields: dict[str, Any] = {}
    for key, value in mapping.items():
        name = key.lower()
        if name not in POINT_KEYS:
            continue
        wanted = str if name == "crs" else int if name == "srid" else (int, float)
        if name in fields or isinstance(value, bool) or not isinstance(value, wanted):
            return None
        fields[name] = value if name in ("crs", "srid") else float(value)
    known = _known_crs(set(fields), fields)
    if known is None:
        return None
    srid, axes = known
    x, y, *rest = (fields[axis] for axis in axes)
    if not all(math.isfinite(value) for value in (x, y, *rest)):
        return None
    if POINT_CRS[srid][2]:
        if not -90 <= y <= 90:
            return None
        if x > 180:  # as cy_point_of wraps it
            x = x - 360 * math.ceil((x - 180) / 360)
        elif x < -180:
            x = x + 360 * math.ceil((-180 - x) / 360)
    return {"c": srid, "x": x, "y": y, "z": rest[0] if rest else None}


def _constant(c: ExpressionCompiler, argument: b.BoundExpression) -> str | None:
    """SQL binding the point of a map whose values the query's text and parameters give, or None."""
    if isinstance(argument, b.BParameter) and isinstance(argument.given, Mapping):
        return c.context.parameters.derived(argument.name, argument.given, _constant_payload, POINT_SQL)
    if not (isinstance(argument, b.BMap)
            and all(isinstance(value, b.BLiteral | b.BParameter) for _, value in argument.entries)):
        return None
    payload = constant_point({key: value.value for key, value in argument.entries})
    if payload is NULL_MAP_VALUE:
        return NULL_POINT
    return None if payload is None else c.context.parameters.struct(payload, POINT_SQL)  # type: ignore[arg-type]


def _constant_payload(value: Any) -> dict[str, Any] | None:
    """`constant_point` of a parameter's map, for a value derived from it (None: the SQL decides)."""
    payload = constant_point(value) if isinstance(value, Mapping) else None
    return payload if isinstance(payload, dict) else None


def _point(c: ExpressionCompiler, f: b.BFunction) -> str:
    """point(map): a map of given values is worked out as the query compiles; a map literal or record of other
    values compiles to SQL for its keys; a node's or relationship's properties, and a map known only at run
    time, are looked into on each row."""
    argument = f.arguments[0]
    kind = argument.type.kind
    if kind is Kind.NULL:
        return NULL_POINT
    constant = _constant(c, argument)
    if constant is not None:
        return constant
    if argument.type.is_record or (isinstance(argument, b.BMap) and argument.type.is_record):
        return _from_record(c, argument)
    if kind in (Kind.NODE, Kind.RELATIONSHIP):
        properties = c.compile(b.BEntityProperties(argument, type=t.MAP, span=argument.span))
        return let([properties], _from_variant_map)
    if is_variant(argument.type):
        def dynamic(v: str) -> str:
            return (f"CASE cy_kind({v}) WHEN 0 THEN {NULL_POINT} WHEN 6 THEN {_from_variant_map(v)}"
                    " WHEN 7 THEN " + error_sql("UnsupportedFeature", "Unsupported",
                                                "'point() of a node known only when the statement runs'")
                    + " WHEN 8 THEN " + error_sql("UnsupportedFeature", "Unsupported",
                                                  "'point() of a relationship known only when the statement runs'")
                    + " ELSE " + _fail("TypeError", "'Invalid input for function ''point()'': Expected a map but got '"
                                       " || cy_type_name(" + v + ")") + " END")
        return let([c.variant(argument)], dynamic)
    # a type read off the data that is no map (the binder refuses those the query text fixes)
    return let([c.compile(argument)], lambda value: (
        f"CASE WHEN {value} IS NULL THEN {NULL_POINT} ELSE "
        + _fail("TypeError", sql_string(f"Invalid input for function 'point()': Expected a map but got "
                                        f"{argument.type!r}")) + " END"))


def _distance(c: ExpressionCompiler, f: b.BFunction) -> str:
    return macro("cy_point_distance", *(point_or_null(c, argument) for argument in f.arguments))


def _within_bbox(c: ExpressionCompiler, f: b.BFunction) -> str:
    return macro("cy_point_within", *(point_or_null(c, argument) for argument in f.arguments))


FUNCTIONS: dict[str, Builder] = {
    "point": _point,
    "point.distance": _distance,
    "point.withinbbox": _within_bbox,
}
