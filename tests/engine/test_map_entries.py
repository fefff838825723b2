"""Maps built from entries: map projections with `.*`, SET with a map, map parameters (found by the
differential runs, tests/differential)."""

from __future__ import annotations

import pytest

import engine


@pytest.fixture
def db():
    with engine.connect(":memory:") as connection:
        connection.execute("CREATE (:N {uid: 1, a: 1, b: 2, c: 1.5}), (:N {uid: 2, a: 3})")
        yield connection


def test_a_projected_key_the_element_lacks_is_there_with_null(db):
    rows = db.execute("MATCH (n:N {uid: 2}) RETURN n {.*, .zz, .b} AS m").fetchall()
    assert rows == [({"uid": 2, "a": 3, "zz": None, "b": None},)]


def test_a_literal_entry_overrides_a_property_also_with_null(db):
    rows = db.execute("MATCH (n:N {uid: 1}) RETURN n {.*, a: null, k: 'x'} AS m").fetchall()
    assert rows == [({"uid": 1, "a": None, "b": 2, "c": 1.5, "k": "x"},)]


def test_all_entries_of_a_map_keep_their_null_values():
    with engine.connect(":memory:") as db:
        assert db.execute("WITH {a: 1, b: null} AS m RETURN m {.*, c: 3} AS x").fetchall() == [
            ({"a": 1, "b": None, "c": 3},)]


def test_a_set_map_reads_every_entry_before_writing_any_key(db):
    db.execute("MATCH (n:N) SET n += {a: n.b, b: n.a}")
    rows = db.execute("MATCH (n:N) RETURN n.uid AS u, n.a AS a, n.b AS b ORDER BY u").fetchall()
    assert rows == [(1, 2, 1), (2, None, 3)]


def test_a_set_map_entry_reads_the_old_value_of_a_key_the_map_writes(db):
    rows = db.execute("MATCH (n:N) SET n += {uid: 5, g: n.uid} RETURN n.g AS g ORDER BY g").fetchall()
    assert rows == [(1,), (2,)]


def test_replacing_properties_with_a_map_reads_the_old_properties(db):
    rows = db.execute("MATCH (n:N {uid: 1}) SET n = {a: n.b, x: n.a + n.c} RETURN properties(n) AS p").fetchall()
    assert rows == [({"a": 2, "x": 2.5},)]


def test_a_set_map_over_repeated_rows_applies_once_per_row(db):
    rows = db.execute("MATCH (n:N), (m:N) SET n += {a: coalesce(n.a, 0) + 1} RETURN DISTINCT n.uid AS u, n.a AS a"
                      " ORDER BY u").fetchall()
    assert rows == [(1, 3), (2, 5)]


@pytest.mark.parametrize("value", [[float("nan")], {"a": float("inf")}, [[1.0, float("-inf")]]])
def test_a_non_finite_float_inside_a_collection_parameter_is_a_cypher_error(value):
    with engine.connect(":memory:") as db, pytest.raises(engine.UnsupportedFeature, match="inside a list or map"):
        db.execute("RETURN $value AS v", {"value": value})
