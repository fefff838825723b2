"""Grouping keys reused inside an aggregating expression: everywhere in it, CASE conditions included."""

import pytest

import engine


@pytest.fixture
def db():
    with engine.connect(":memory:") as connection:
        connection.execute("CREATE (:A {x: 1}), (:B {x: 2}), (:B {x: 2})")
        yield connection


def test_a_label_test_on_a_grouping_key_inside_case(db):
    # the context-graph seed weights seeds this way: sum(idf) * CASE WHEN n:Chunk THEN 1.0 ELSE 1.5 END
    rows = db.execute("MATCH (n) WITH n, count(*) * CASE WHEN n:A THEN 10 ELSE 1 END AS s"
                      " RETURN n.x AS x, s ORDER BY x, s").fetchall()
    assert rows == [(1, 10), (2, 1), (2, 1)]


def test_a_simple_case_on_a_grouping_key(db):
    rows = db.execute("MATCH (n) RETURN n.x AS k, count(*) * CASE n.x WHEN 1 THEN 10 ELSE 20 END AS s"
                      " ORDER BY k").fetchall()
    assert rows == [(1, 10), (2, 40)]


def test_a_variable_that_is_not_a_grouping_key_is_still_refused(db):
    with pytest.raises(engine.CypherSyntaxError, match="not a grouping key") as raised:
        db.execute("MATCH (n) RETURN n.x, count(*) * CASE WHEN n:A THEN 1 ELSE 2 END AS s")
    assert raised.value.detail == "AmbiguousAggregationExpression"
