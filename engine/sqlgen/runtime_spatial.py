"""Spatial points in the SQL runtime (ADR-0065): DuckDB macros over a point's STRUCT.

A point is `STRUCT(c BIGINT, x DOUBLE, y DOUBLE, z DOUBLE)`: `c` the SRID of its coordinate reference system,
then its coordinates (`z` null in 2D; for a geographic point x is the longitude, y the latitude, z the height).
STRUCT equality is Cypher's point equality and STRUCT order Cypher's order of points (CRS code, then x, y, z).
In a VARIANT a point is that STRUCT under the reserved key `\\x01point` (cy_kind 16), as temporal values are.

`cy_point_make` is Neo4j's point construction (PointValue.fromInputFields and its constructor): the CRS the
map names or the keys imply, the coordinates' count checked against it, coordinates finite, a latitude
within [-90, 90], a longitude wrapped into [-180, 180]; each failure the InvalidArgumentException Neo4j raises.
`cy_point_distance` is Neo4j's CRSCalculator: Pythagoras for Cartesian points, the haversine formula on a sphere
of radius 6,378,140 m for WGS-84 (at the points' mean height, then Pythagoras with the height difference, in
3D). `cy_point_within` is point.withinBBox, crossing the 180th meridian when the box's west edge is east of its
east edge.
"""

from __future__ import annotations

from engine.quoting import sql_string
from engine.sqlgen.runtime import error_sql
from engine.values import POINT_CRS

EARTH_RADIUS_METERS = 6378140.0
"""Neo4j's CRSCalculator.GeographicCalculator.EARTH_RADIUS_METERS: the sphere WGS-84 distances are taken on."""

CARTESIAN = tuple(srid for srid, (_, _, geographic) in POINT_CRS.items() if not geographic)
GEOGRAPHIC = tuple(srid for srid, (_, _, geographic) in POINT_CRS.items() if geographic)
THREE_D = tuple(srid for srid, (_, dimensions, _) in POINT_CRS.items() if dimensions == 3)


def _codes(srids: tuple[int, ...]) -> str:
    return "(" + ", ".join(map(str, srids)) + ")"


def _fail(message_sql: str) -> str:
    return error_sql("ArgumentError", "InvalidArgumentValue", message_sql)


def _crs_name(code: str) -> str:
    whens = " ".join(f"WHEN {srid} THEN {sql_string(name)}" for srid, (name, _, _) in POINT_CRS.items())
    return f"CASE {code} {whens} END"


def _coordinates_text(*values: str) -> str:
    """Java's Arrays.toString of the coordinates (`[1.0, 2.0]`), the form Neo4j's messages quote them in."""
    parts = " || ', ' || ".join(f"cy_float_to_string({value})" for value in values)
    return f"'[' || {parts} || ']'"


def _required_keys(code: str) -> str:
    """What a point of CRS `code` must be given, as Neo4j's message says it."""
    keys = {7203: "'x' and 'y'", 9157: "'x', 'y' and 'z'", 4326: "'latitude' and 'longitude'",
            4979: "'latitude', 'longitude' and 'height'"}
    whens = " ".join(f"WHEN {srid} THEN {sql_string(text)}" for srid, text in keys.items())
    return f"CASE {code} {whens} END"


def _specified_crs(crs: str, srid: str) -> str:
    """The SRID a `crs` name or an `srid` picks (null when neither is given); both, or an unknown one, fail."""
    names = " ".join(f"WHEN {sql_string(name)} THEN {code}" for code, (name, _, _) in POINT_CRS.items())
    unknown_name = _fail(f"'Unknown coordinate reference system: ' || {crs}")
    unknown_code = _fail(f"'Unknown coordinate reference system: code=' || {srid}")
    both = _fail(sql_string("Cannot specify both CRS and SRID"))
    return (f"CASE WHEN {crs} IS NOT NULL AND {srid} IS NOT NULL THEN {both}"
            f" WHEN {crs} IS NOT NULL THEN CASE lower({crs}) {names} ELSE {unknown_name} END"
            f" WHEN {srid} IS NOT NULL THEN CASE WHEN {srid} IN {_codes(tuple(POINT_CRS))} THEN {srid}"
            f" ELSE {unknown_code} END END")


def _make() -> str:
    """The body of cy_point_make(x, y, z, lon, lat, h, crs, srid): every argument null when its key is absent
    (a key present with null makes the whole point null; callers decide that first)."""
    missing = _fail("'A point must contain either ''x'' and ''y'' or ''latitude'' and ''longitude'''")
    named_missing = _fail(f"'A ' || {_crs_name('s')} || ' point must contain ' || {_required_keys('s')}")
    not_geographic = _fail(f"'Geographic points does not support coordinate reference system: ' || {_crs_name('s')}")
    # the CRS: named, else implied by the keys (x and y first, as Neo4j looks at them first)
    code = (f"CASE WHEN x IS NOT NULL AND y IS NOT NULL THEN coalesce(s, CASE WHEN z IS NULL THEN 7203 ELSE 9157 END)"
            f" WHEN lon IS NOT NULL AND lat IS NOT NULL THEN CASE WHEN s IN {_codes(CARTESIAN)} THEN {not_geographic}"
            f" ELSE coalesce(s, CASE WHEN coalesce(z, h) IS NULL THEN 4326 ELSE 4979 END) END"
            f" WHEN s IS NULL THEN {missing} ELSE {named_missing} END")
    geo = "(x IS NULL OR y IS NULL)"
    px, py = f"CASE WHEN {geo} THEN lon ELSE x END", f"CASE WHEN {geo} THEN lat ELSE y END"
    pz = f"CASE WHEN {geo} THEN coalesce(z, h) ELSE z END"
    count = "CASE WHEN p.z IS NULL THEN 2 ELSE 3 END"
    dimension = f"CASE WHEN p.c IN {_codes(THREE_D)} THEN 3 ELSE 2 END"
    wrong_dimension = _fail(f"'Cannot create point with ' || {dimension} || 'D coordinate reference system and ' ||"
                            f" {count} || ' coordinates. Please consider using equivalent ' || {count} ||"
                            " 'D coordinate reference system'")
    checked = (f"CASE WHEN ({dimension}) <> ({count}) THEN {wrong_dimension}"
               " ELSE cy_point_of(p.c, p.x, p.y, p.z) END")
    return (f"list_transform([{_specified_crs('crs', 'srid')}], lambda s:"
            f" list_transform([struct_pack(c := ({code})::BIGINT, x := ({px})::DOUBLE, y := ({py})::DOUBLE,"
            f" z := ({pz})::DOUBLE)], lambda p: {checked})[1])[1]")


def _point_of() -> str:
    """The body of cy_point_of(c, x, y, z): the point of CRS `c` (whose dimensions the coordinates have) as
    Neo4j's PointValue constructor makes it: coordinates finite, a latitude within [-90, 90], a longitude
    wrapped into [-180, 180]. With a constant `c` DuckDB folds the CRS tests away."""
    coordinates = f"CASE WHEN z IS NULL THEN {_coordinates_text('x', 'y')} ELSE {_coordinates_text('x', 'y', 'z')} END"
    infinite = _fail(f"'Cannot create a point with non-finite coordinate values: ' || {coordinates}")
    latitude = _fail(f"'Cannot create WGS84 point with invalid coordinate: ' || {coordinates} ||"
                     " '. Valid range for Y coordinate is [-90, 90].'")
    geographic = f"c IN {_codes(GEOGRAPHIC)}"
    # Java subtracts (adds) 360 while the longitude is above 180 (below -180): as many times at once
    wrapped = (f"CASE WHEN {geographic} AND x > 180 THEN x - 360 * ceil((x - 180) / 360)"
               f" WHEN {geographic} AND x < -180 THEN x + 360 * ceil((-180 - x) / 360) ELSE x END")
    return (f"CASE WHEN NOT isfinite(x) OR NOT isfinite(y) OR NOT coalesce(isfinite(z), true) THEN {infinite}"
            f" WHEN {geographic} AND (y > 90 OR y < -90) THEN {latitude}"
            f" ELSE {{'c': c::BIGINT, 'x': ({wrapped})::DOUBLE, 'y': y::DOUBLE, 'z': z::DOUBLE}} END")


def _distance() -> str:
    """The body of cy_point_distance(a, b): null for a null point or points of different CRSs."""
    cartesian = "sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + coalesce((a.z - b.z) * (a.z - b.z), 0))"
    dlon, dlat = "(radians(b.x) - radians(a.x))", "(radians(b.y) - radians(a.y))"
    alpha = (f"(pow(sin({dlat} / 2), 2.0) + cos(radians(a.y)) * cos(radians(b.y)) * pow(sin({dlon} / 2.0), 2.0))")
    circle = f"(2.0 * atan2(sqrt({alpha}), sqrt(1 - {alpha})))"
    surface = f"(({EARTH_RADIUS_METERS} + (a.z + b.z) / 2) * {circle})"
    geographic = (f"CASE WHEN a.z IS NULL THEN {EARTH_RADIUS_METERS} * {circle}"
                  f" ELSE sqrt({surface} * {surface} + (0 - (a.z - b.z)) * (0 - (a.z - b.z))) END")
    return (f"CASE WHEN a IS NULL OR b IS NULL OR a.c <> b.c THEN NULL::DOUBLE"
            f" WHEN a.c IN {_codes(GEOGRAPHIC)} THEN {geographic} ELSE {cartesian} END")


def _within() -> str:
    """The body of cy_point_within(p, ll, ur): null for a null point or points of different CRSs. A geographic
    box whose west edge lies east of its east edge crosses the 180th meridian; the other coordinates are plain
    ranges (a south edge north of the north edge gives an empty one)."""
    def inside(axis: str) -> str:
        return f"(p.{axis} >= ll.{axis} AND p.{axis} <= ur.{axis})"
    longitude = (f"CASE WHEN ll.x <= ur.x OR p.c NOT IN {_codes(GEOGRAPHIC)} THEN {inside('x')}"
                 " ELSE NOT (p.x > ur.x AND p.x < ll.x) END")
    return (f"CASE WHEN p IS NULL OR ll IS NULL OR ur IS NULL OR p.c <> ll.c OR p.c <> ur.c THEN NULL::BOOLEAN"
            f" ELSE {longitude} AND {inside('y')} AND coalesce({inside('z')}, true) END")


MACROS: list[tuple[str, str]] = [
    ("cy_point_crs(c)", _crs_name("c")),
    ("cy_point_of(c, x, y, z)", _point_of()),
    ("cy_point_make(x, y, z, lon, lat, h, crs, srid)", _make()),
    ("cy_point_text(p)",
     "CASE WHEN p IS NULL THEN NULL ELSE 'point({x: ' || cy_float_to_string(p.x) || ', y: ' ||"
     " cy_float_to_string(p.y) || CASE WHEN p.z IS NULL THEN '' ELSE ', z: ' || cy_float_to_string(p.z) END ||"
     " ', crs: ''' || cy_point_crs(p.c) || '''})' END"),
    ("cy_point_distance(a, b)", _distance()),
    ("cy_point_within(p, ll, ur)", _within()),
]
"""The spatial runtime macros, created after runtime.MACROS (they name cy_float_to_string)."""
