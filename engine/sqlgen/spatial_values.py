"""Spatial points in SQL that need no expression compiler (ADR-0065): between a point's STRUCT and VARIANT
forms, its components and its text. The expression compiler builds on this module; the spatial functions
(sqlgen/spatial.py) build on both."""

from __future__ import annotations

from engine import types as t
from engine.quoting import sql_identifier, sql_string
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.runtime_spatial import GEOGRAPHIC
from engine.sqlgen.sql import let, macro
from engine.storage.encoding import KIND_CODES, tag_key
from engine.types import Kind, sql_type
from engine.values import POINT_COMPONENTS

POINT_SQL = sql_type(t.POINT)
NULL_POINT = f"NULL::{POINT_SQL}"
TAG = tag_key("POINT")
CODE = KIND_CODES["POINT"]


# -- STRUCT and VARIANT forms ------------------------------------------------------------------------------

def to_variant(sql: str) -> str:
    """A point's STRUCT as a VARIANT: the STRUCT under its reserved key."""
    return let([sql], lambda p: (f"CASE WHEN {p} IS NULL THEN NULL ELSE"
                                 f" struct_pack({sql_identifier(TAG)} := {p})::VARIANT END"))


def payload(v: str) -> str:
    """The point STRUCT inside VARIANT `v` (null when `v` holds anything else)."""
    return f"TRY_CAST(variant_extract({v}, {sql_string(TAG)}) AS {POINT_SQL})"


def from_variant(sql: str) -> str:
    """A VARIANT known to hold a point (or null) as the STRUCT; anything else is a type error on its row."""
    return let([sql], lambda v: (
        f"CASE cy_kind({v}) WHEN {CODE} THEN {payload(v)} WHEN 0 THEN {NULL_POINT} ELSE "
        + error_sql("TypeError", "InvalidArgumentType", f"'expected a point, got ' || cy_type_name({v})") + " END"))


# -- components ----------------------------------------------------------------------------------------------

def _unavailable(p: str, key: str, cartesian: bool) -> str:
    on = "cartesian point" if cartesian else "point"
    return error_sql("ArgumentError", "InvalidArgumentValue",
                     f"{sql_string(f'Field: {key} is not available on {on}: ')} || cy_point_text({p})")


def component(sql: str, key: str) -> str:
    """Component `key` of the point STRUCT `sql`, matched ignoring case as Cypher does: a coordinate, `crs` or
    `srid`; a geographic name of a Cartesian point, `z` of a 2D one, or a name points lack fail on the row."""
    name = key.lower()
    if name not in POINT_COMPONENTS:
        return let([sql], lambda p: f"CASE WHEN {p} IS NULL THEN NULL::VARIANT ELSE " + error_sql(
            "ArgumentError", "InvalidArgumentValue", sql_string(f"No such field: {key}")) + " END")
    if name in ("x", "y"):
        return f"struct_extract({sql}, {sql_string(name)})"
    if name == "srid":
        return f"struct_extract({sql}, 'c')"
    if name == "crs":
        return f"cy_point_crs(struct_extract({sql}, 'c'))"

    def read(p: str) -> str:
        geographic_only = name in ("longitude", "latitude", "height")
        axis = {"z": "z", "longitude": "x", "latitude": "y", "height": "z"}[name]
        checks = f"WHEN {p} IS NULL THEN NULL::DOUBLE "
        if geographic_only:
            checks += f"WHEN {p}.c NOT IN ({', '.join(map(str, GEOGRAPHIC))}) THEN {_unavailable(p, key, True)} "
        if axis == "z":
            checks += f"WHEN {p}.z IS NULL THEN {_unavailable(p, key, False)} "
        return f"CASE {checks}ELSE {p}.{axis} END"
    return let([sql], read)


def component_type(key: str) -> t.CypherType:
    """The static type of component `key` of a point (ANY for a name points lack, which fails on its row)."""
    name = POINT_COMPONENTS.get(key.lower())
    return t.CypherType(Kind(name)) if name is not None else t.ANY


def variant_component_branches(v: str, key: str) -> str:
    """A `WHEN 16 THEN ...` branch over cy_kind(v) reading component `key` of a point inside a VARIANT."""
    value = component(payload(v), key)
    return f" WHEN {CODE} THEN ({value})::VARIANT"


def to_string(sql: str) -> str:
    """toString() of a point STRUCT: `point({x: 1.0, y: 2.0, crs: 'cartesian'})`."""
    return macro("cy_point_text", sql)
