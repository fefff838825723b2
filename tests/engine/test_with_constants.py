"""A value a WITH projects from literals and parameters alone is compiled where later clauses read it
(scope.Variable.constant), and an ordering comparison of temporal values against a constant also compares
their leading fields (temporal.comparison). Both must leave every answer as it was."""

from __future__ import annotations

import pytest

import engine


@pytest.fixture
def db():
    with engine.connect() as connection:
        yield connection


INSTANTS = ["2015-07-21T20:40Z", "2015-07-21T21:40+01:00", "2015-07-21T20:39:59.999999999Z",
            "2015-07-21T20:40:00.000000001Z", "2015-07-21T21:40+01:00[Europe/London]", "2015-07-21T19:40-01:00",
            "2014-01-01T00:00Z", "2016-01-01T00:00Z"]
OPERATORS = ["<", "<=", ">", ">="]


@pytest.fixture
def timeline(db):
    db.execute("UNWIND range(0, size($at) - 1) AS i CREATE (:X {i: i, at: datetime($at[i])})", {"at": INSTANTS})
    db.execute("CREATE (:Cut {at: datetime($cut)})", {"cut": "2015-07-21T20:40Z"})
    return db


@pytest.mark.parametrize("op", OPERATORS)
def test_a_datetime_compared_with_a_constant_answers_as_with_a_stored_value(timeline, op):
    """Same instants in other offsets and zones, a nanosecond either side: the STRUCT order decides, and
    the leading-field test the constant adds never changes it."""
    constant = timeline.execute(f"WITH datetime($cut) AS t MATCH (x:X) WHERE x.at {op} t RETURN x.i ORDER BY x.i",
                                {"cut": "2015-07-21T20:40Z"}).fetchall()
    stored = timeline.execute(f"MATCH (c:Cut) WITH c.at AS t MATCH (x:X) WHERE x.at {op} t RETURN x.i ORDER BY x.i"
                              ).fetchall()
    assert constant == stored
    assert 0 < len(constant) < len(INSTANTS)


@pytest.mark.parametrize(("kind", "values", "cut"), [
    ("date", ["2015-07-20", "2015-07-21", "2015-07-22"], "2015-07-21"),
    ("localdatetime", ["2015-07-21T20:39:59", "2015-07-21T20:40", "2015-07-21T20:40:00.5"], "2015-07-21T20:40"),
    ("localtime", ["10:00", "10:00:00.000000001", "09:59"], "10:00"),
    ("time", ["12:00+01:00", "11:00Z", "11:00:01Z", "10:59Z"], "11:00Z"),
])
@pytest.mark.parametrize("op", OPERATORS)
def test_each_ordered_temporal_kind_compared_with_a_constant(db, kind, values, cut, op):
    db.execute(f"UNWIND range(0, size($v) - 1) AS i CREATE (:V {{i: i, at: {kind}($v[i])}})", {"v": values})
    db.execute(f"CREATE (:Cut {{at: {kind}($cut)}})", {"cut": cut})
    constant = db.execute(f"MATCH (v:V) WHERE v.at {op} {kind}($cut) RETURN v.i ORDER BY v.i", {"cut": cut}).fetchall()
    stored = db.execute(f"MATCH (c:Cut), (v:V) WHERE v.at {op} c.at RETURN v.i ORDER BY v.i").fetchall()
    assert constant == stored


def test_the_constant_is_compiled_where_it_is_read(timeline):
    """The comparison reads a bound value, not the WITH's column: DuckDB can push it into the scan."""
    _, trace = timeline.explain("MATCH (c:Cut) WITH c, datetime($cut) AS t MATCH (x:X) WHERE x.at <= t RETURN x.i",
                                {"cut": "2015-07-21T20:40Z"})
    sql = trace[-1][0]
    assert ".e <= (CAST($" in sql


def test_constants_pass_through_withs_and_aggregations(timeline):
    rows = timeline.execute("WITH $cut AS a WITH a AS b, count(*) AS n MATCH (x:X) WHERE x.at >= datetime(b)"
                            " RETURN b, n, count(x) AS later", {"cut": "2015-07-21T20:40Z"}).fetchall()
    assert rows == [("2015-07-21T20:40Z", 1, 5)]


def test_a_constant_returned_by_a_subquery_that_yields_nothing_is_null(db):
    """A RETURN hands its variables out of a CALL subquery; an OPTIONAL CALL with no row makes them null,
    so they are never taken for the constant they were projected from."""
    rows = db.execute("OPTIONAL CALL { MATCH (n:Nobody) WITH 1 AS one RETURN one } RETURN one").fetchall()
    assert rows == [(None,)]
    rows = db.execute("UNWIND [1, 2] AS i OPTIONAL CALL (i) { WITH $k AS k WHERE i = 2 RETURN k }"
                      " RETURN i, k ORDER BY i", {"k": "x"}).fetchall()
    assert rows == [(1, None), (2, "x")]


def test_a_constant_read_inside_subqueries(timeline):
    rows = timeline.execute("WITH datetime($cut) AS t RETURN COUNT { MATCH (x:X) WHERE x.at < t } AS before,"
                            " COLLECT { MATCH (x:X) WHERE x.at > t RETURN x.i ORDER BY x.i } AS after",
                            {"cut": "2015-07-21T20:40Z"}).fetchall()
    stored = timeline.execute("MATCH (c:Cut) WITH c.at AS t RETURN COUNT { MATCH (x:X) WHERE x.at < t } AS before,"
                              " COLLECT { MATCH (x:X) WHERE x.at > t RETURN x.i ORDER BY x.i } AS after").fetchall()
    assert rows == stored
