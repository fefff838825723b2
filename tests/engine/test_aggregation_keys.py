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


@pytest.fixture
def facts():
    with engine.connect(":memory:") as connection:
        connection.execute("CREATE (:F {who: 'a', what: 'x'}), (:F {who: 'a', what: 'x'}), (:F {who: 'a'}),"
                           " (:F {who: 'a'}), (:F {who: 'b', what: 'x', n: 1}), (:F {who: 'b', what: 'x', n: 1.0})")
        yield connection


def test_distinct_records_of_strings_treat_null_fields_as_equal(facts):
    # records of strings, integers and booleans are grouped natively: nulls must still meet each other
    rows = facts.execute("MATCH (f:F) RETURN collect(DISTINCT {who: f.who, what: f.what}) AS kept").fetchall()
    assert rows == [([{"who": "a", "what": "x"}, {"who": "a", "what": None}, {"who": "b", "what": "x"}],)]


def test_distinct_lists_of_records_and_floats_in_records(facts):
    lists = facts.execute("MATCH (f:F) WITH DISTINCT [{w: f.what}] AS l RETURN l ORDER BY size(l[0].w)").fetchall()
    assert lists == [([{"w": "x"}],), ([{"w": None}],)]
    # n is 1 and 1.0: equivalent in Cypher, so the two b records are one value; n is absent on the a's
    numbers = facts.execute("MATCH (f:F) RETURN count(DISTINCT {who: f.who, n: f.n}) AS c").fetchall()
    assert numbers == [(2,)]
