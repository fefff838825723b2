"""Spatial points (ADR-0065): the three ways point() is compiled agree, points travel in and out as
`engine.Point` (parameters, results, stored properties, a file database), and their text is Cypher's.

point() of a map of given values is worked out as the query compiles (`constant_point`), of a map literal or
record of other values by `cy_point_of`/`cy_point_make` over its keys, of a map only the data knows by looking
each key up on the row; the twin tests below hold the three to the same points and the same errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from engine import Point

MAPS: list[dict[str, Any]] = [
    {"x": 1, "y": 2}, {"x": 1.5, "y": -2, "z": 3}, {"longitude": 12.56459, "latitude": 55.672874},
    {"longitude": 190, "latitude": 10}, {"longitude": -900.5, "latitude": -90},
    {"longitude": 1, "latitude": 2, "height": 3},
    {"longitude": 1, "latitude": 2, "z": 3, "height": 4}, {"x": 2.3, "y": 4.5, "crs": "WGS-84"},
    {"x": 2.3, "y": 4.5, "srid": 4326}, {"X": 1, "Y": 2, "Z": 3, "CRS": "cartesian-3D"}, {"x": 1, "y": 2, "name": "a"},
    {"x": 1, "y": 2, "longitude": 3, "latitude": 4}, {"x": 1, "latitude": 2, "longitude": 3},
    {"x": 1, "y": 2, "srid": 9157, "z": 0}, {"x": 1, "y": None}, {"x": 1, "y": 2, "other": None},
]
FAILING: list[dict[str, Any]] = [
    {"y": 2}, {"y": 2, "crs": "wgs-84-3d"}, {"x": 1, "y": 2, "crs": "mercator"}, {"x": 1, "y": 2, "srid": 1},
    {"x": 1, "y": 2, "crs": "cartesian", "srid": 7203}, {"x": 1, "y": 2, "z": 3, "crs": "cartesian"},
    {"x": 1, "y": 2, "crs": "cartesian-3d"}, {"longitude": 1, "latitude": 2, "crs": "cartesian"},
    {"longitude": 0, "latitude": 90.5}, {"x": True, "y": 2}, {"x": "a", "y": 2},
]


def _rows(db: Any, query: str, parameters: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
    return db.execute(query, parameters or {}).fetchall()


def _literal(mapping: dict[str, Any]) -> str:
    def text(value: Any) -> str:
        return "null" if value is None else repr(value).lower() if isinstance(value, bool) else repr(value)
    return "{" + ", ".join(f"{key}: {text(value)}" for key, value in mapping.items()) + "}"


def _three_ways(db: Any, mapping: dict[str, Any]) -> list[Any]:
    """point() of the map as a literal (worked out as the query compiles), of its values read off a row
    (SQL for its keys), and of the map read off the data (looked into per row)."""
    constant = _rows(db, f"RETURN point({_literal(mapping)}) AS p")[0][0]
    keyed = _rows(db, "UNWIND [$m] AS m RETURN point({" + ", ".join(f"{key}: m.{key}" for key in mapping)
                  + "}) AS p", {"m": mapping})[0][0]
    dynamic = _rows(db, "UNWIND [$m, 1] AS m WITH m WHERE m <> 1 RETURN point(m) AS p", {"m": mapping})[0][0]
    return [constant, keyed, dynamic]


@pytest.mark.parametrize("mapping", MAPS, ids=_literal)
def test_point_compiled_three_ways_agrees(mapping: dict[str, Any]) -> None:
    with engine.connect(":memory:") as db:
        constant, keyed, dynamic = _three_ways(db, mapping)
    assert constant == keyed == dynamic


@pytest.mark.parametrize("mapping", FAILING, ids=_literal)
def test_point_errors_alike_three_ways(mapping: dict[str, Any]) -> None:
    messages = []
    with engine.connect(":memory:") as db:
        for query, parameters in (
                (f"RETURN point({_literal(mapping)}) AS p", {}),
                ("UNWIND [$m] AS m RETURN point({" + ", ".join(f"{key}: m.{key}" for key in mapping) + "}) AS p",
                 {"m": mapping}),
                ("UNWIND [$m, 1] AS m WITH m WHERE m <> 1 RETURN point(m) AS p", {"m": mapping})):
            with pytest.raises(engine.CypherArgumentError) as raised:
                _rows(db, query, parameters)
            messages.append(raised.value.message)
    assert len(set(messages)) == 1, messages


def test_constant_points_over_no_rows_raise_nothing() -> None:
    """A point Neo4j refuses fails on the rows that make it, as in Neo4j: over no rows, not at all."""
    with engine.connect(":memory:") as db:
        assert _rows(db, "MATCH (n:Nothing) RETURN point({x: 1, y: 2, crs: 'mercator'}) AS p") == []


def test_point_text_and_values() -> None:
    assert str(Point(7203, 1, 2)) == "point({x: 1.0, y: 2.0, crs: 'cartesian'})"
    assert str(Point(4979, 56.7, 12.78, 8)) == "point({x: 56.7, y: 12.78, z: 8.0, crs: 'wgs-84-3d'})"
    assert Point(4326, 1, 2).crs == "wgs-84"
    for bad in ((7203, 1, 2, 3), (9157, 1, 2), (1234, 1, 2), (7203, float("nan"), 2)):
        with pytest.raises(ValueError):
            Point(*bad)


def test_point_parameters_and_stored_points_round_trip(tmp_path: Path) -> None:
    points = [Point(7203, 1, 2), Point(9157, 1, 2, 3), Point(4326, 12.5, 55.6), Point(4979, -1, 2, 30.5)]
    path = str(tmp_path / "points.duckdb")
    with engine.connect(path) as db:
        _rows(db, "UNWIND $points AS p CREATE (:Place {at: p, text: toString(p)})", {"points": points})
        _rows(db, "CREATE (:Place {at: $one, route: $points})", {"one": points[0], "points": points[:1] * 2})
    with engine.connect(path) as db:
        stored = _rows(db, "MATCH (n:Place) WHERE n.text IS NOT NULL RETURN n.at, n.text ORDER BY n.at")
        assert stored == [(point, str(point)) for point in sorted(points, key=lambda p: (p.srid, p.x, p.y))]
        assert _rows(db, "MATCH (n:Place) WHERE n.at = $p RETURN count(*)", {"p": points[0]}) == [(2,)]
        assert _rows(db, "MATCH (n:Place) WHERE n.route IS NOT NULL RETURN n.route") == [([points[0]] * 2,)]


def test_distance_to_a_parameter_point_is_bound_once() -> None:
    """A point of given values is bound as its STRUCT (the same SQL for every row), and a compiled statement
    run again with other values gives their distance."""
    with engine.connect(":memory:") as db:
        _rows(db, "UNWIND range(0, 3) AS i CREATE (:P {at: point({x: i, y: 0})})")
        query = "MATCH (n:P) RETURN sum(point.distance(n.at, point({x: $x, y: 0}))) AS d"
        assert _rows(db, query, {"x": 0}) == [(6.0,)]
        assert _rows(db, query, {"x": 3}) == [(6.0,)]
        assert _rows(db, query, {"x": 10}) == [(34.0,)]
        query = "MATCH (n:P) RETURN sum(point.distance(n.at, point($p))) AS d"
        assert _rows(db, query, {"p": {"x": 0, "y": 0}}) == [(6.0,)]
        assert _rows(db, query, {"p": {"x": 10, "y": 0}}) == [(34.0,)]


def test_points_in_a_mixed_column_order_and_compare() -> None:
    """A property holding points and strings is a VARIANT column: points keep their order (CRS code, then
    coordinates) before the strings, and their components read per row."""
    with engine.connect(":memory:") as db:
        _rows(db, "CREATE (:M {v: point({x: 2, y: 1})}), (:M {v: 'text'}),"
                  " (:M {v: point({longitude: 1, latitude: 2})}), (:M {v: point({x: 1, y: 5, z: 0})})")
        rows = _rows(db, "MATCH (n:M) RETURN n.v AS v ORDER BY v")
        assert rows == [(Point(4326, 1, 2),), (Point(7203, 2, 1),), (Point(9157, 1, 5, 0),), ("text",)]
        assert _rows(db, "MATCH (n:M) WHERE n.v IS :: POINT RETURN n.v.srid AS s ORDER BY s") == [
            (4326,), (7203,), (9157,)]
        assert _rows(db, "MATCH (n:M) WHERE n.v = point({x: 2.0, y: 1.0}) RETURN count(*)") == [(1,)]


def test_schema_procedure_names_point_and_temporal_column_types() -> None:
    """Typed point and date columns are reported by their Java names, as Neo4j does (they read as MAP when
    the column's STRUCT was cast to a VARIANT without its tag)."""
    with engine.connect(":memory:") as db:
        _rows(db, "CREATE (:D {d: date('2020-01-01'), ds: [date('2020-01-01')], p: point({x: 1, y: 2}),"
                  " ps: [point({x: 1, y: 2})]})")
        rows = _rows(db, "CALL db.schema.nodeTypeProperties() YIELD propertyName, propertyTypes"
                         " RETURN propertyName, propertyTypes ORDER BY propertyName")
    assert rows == [("d", ["Date"]), ("ds", ["DateArray"]), ("p", ["Point"]), ("ps", ["PointArray"])]
