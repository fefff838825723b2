"""A MERGE of one node whose match a uniqueness constraint bounds to one node per row, where every row found
its node, groups nothing and creates nothing (merge.py `_finds_at_most_one`): the same rows and counters as
the general path, without the table of the groups to create."""

import pytest

import engine


@pytest.fixture
def db():
    with engine.connect(":memory:") as connection:
        connection.execute("CREATE CONSTRAINT e_key FOR (e:E) REQUIRE e.key IS UNIQUE")
        connection.execute("UNWIND ['a', 'b', 'c'] AS k CREATE (:E {key: k, n: 0})")
        yield connection


def groups_stored(db, statement, params=None):
    return any("__rep" in sql for sql, _ in db.explain(statement, params)[1])


def test_every_row_found_its_node(db):
    statement = "UNWIND $keys AS k MERGE (e:E {key: k}) ON MATCH SET e.n = e.n + 1 RETURN e.key, e.n"
    params = {"keys": ["b", "a", "b", "c"]}
    assert not groups_stored(db, statement, params)
    result = db.execute(statement, params)
    assert result.fetchall() == [("b", 2), ("a", 1), ("b", 2), ("c", 1)]
    assert result.counters["nodes_created"] == 0 and result.counters["properties_set"] == 4
    assert db.execute("MATCH (e:E) RETURN count(e)").fetchall() == [(3,)]


@pytest.mark.parametrize(("keys", "created"), [
    (["a", "z", "a"], 1),  # as many matches as rows would need a row to find two: one is new instead
    (["z", "y", "z"], 2),
])
def test_rows_that_found_nothing_still_create(db, keys, created):
    statement = "UNWIND $keys AS k MERGE (e:E {key: k}) ON CREATE SET e.n = -1 RETURN e.key, e.n"
    result = db.execute(statement, {"keys": keys})
    rows = result.fetchall()
    assert [key for key, _ in rows] == keys
    assert result.counters["nodes_created"] == created
    assert all((n == -1) == (key not in "abc") for key, n in rows)


def test_without_a_constraint_on_what_it_matches_the_groups_are_looked_for(db):
    db.execute("CREATE (:F {key: 'a'}), (:F {key: 'a'})")  # two nodes one row finds
    statement = "UNWIND ['a', 'z'] AS k MERGE (f:F {key: k}) RETURN f.key"
    assert groups_stored(db, statement)
    result = db.execute(statement)
    assert result.fetchall() == [("a",), ("a",), ("z",)] and result.counters["nodes_created"] == 1
    # a value of another kind than the constrained column's: equality is not the constraint's grouping
    assert groups_stored(db, "UNWIND [1.0, 2.0] AS k MERGE (e:E {key: k}) RETURN e")
