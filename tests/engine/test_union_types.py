"""A UNION's column holds each part's values with their own types (found by the differential runs): the
first part's type used to be forced on the others."""

from __future__ import annotations

import pytest

import engine
from engine import Date, Node, Relationship


@pytest.fixture
def db():
    with engine.connect(":memory:") as connection:
        connection.execute("CREATE (:A {x: 1})-[:R]->(:B {x: 'b'})")
        yield connection


@pytest.mark.parametrize(("query", "rows"), [
    ("RETURN 1 AS c UNION RETURN 'a' AS c", [(1,), ("a",)]),
    ("RETURN 1.5 AS c UNION ALL RETURN 1 AS c", [(1.5,), (1,)]),
    ("RETURN true AS c UNION ALL RETURN 1 AS c", [(True,), (1,)]),
    ("MATCH (n:Nope) RETURN n AS c UNION ALL RETURN 1 AS c", [(1,)]),
    ("RETURN [1] AS c UNION ALL RETURN 1 AS c", [([1],), (1,)]),
    ("RETURN {a: 1} AS c UNION ALL RETURN 'x' AS c", [({"a": 1},), ("x",)]),
    ("RETURN null AS c UNION ALL RETURN 1 AS c", [(None,), (1,)]),
    ("RETURN [1, 'a'] AS c UNION ALL RETURN date('2024-01-01') AS c", [([1, "a"],), (Date(2024, 1, 1),)]),
])
def test_each_value_keeps_its_type(db, query, rows):
    assert db.execute(query).fetchall() == rows


def test_graph_elements_and_scalars_mix(db):
    rows = db.execute("MATCH (n:A) RETURN n AS c UNION ALL MATCH ()-[r]->() RETURN r AS c"
                      " UNION ALL RETURN 'x' AS c").fetchall()
    assert [type(value) for (value,) in rows] == [Node, Relationship, str]


@pytest.mark.parametrize(("query", "rows"), [
    ("RETURN 1 AS c UNION RETURN 1.0 AS c", [(1,)]),  # equal in Cypher: the first part's value stays
    ("RETURN 1.0 AS c UNION RETURN 1 AS c", [(1.0,)]),
    ("RETURN [1] AS c UNION RETURN [1.0] AS c", [([1],)]),
    ("RETURN 'a' AS c UNION RETURN 'a' AS c UNION RETURN 1 AS c", [("a",), (1,)]),
])
def test_union_removes_duplicates_by_cypher_equality(db, query, rows):
    assert db.execute(query).fetchall() == rows


def test_a_call_subquery_union_orders_its_mixed_column(db):
    rows = db.execute("CALL { RETURN 1 AS c UNION RETURN 'a' AS c } RETURN c ORDER BY c").fetchall()
    assert rows == [("a",), (1,)]  # strings before numbers (Cypher's order of values)


def test_a_call_subquery_run_per_row_keeps_types(db):
    rows = db.execute("MATCH (n) CALL { WITH n RETURN n.x AS c UNION RETURN 2.5 AS c }"
                      " RETURN n.x AS x, c ORDER BY x, c").fetchall()
    assert rows == [("b", "b"), ("b", 2.5), (1, 1), (1, 2.5)]


def test_collect_and_count_subqueries_over_a_mixed_union(db):
    assert db.execute("RETURN COLLECT { RETURN 1 AS c UNION RETURN 'a' AS c } AS l").fetchall() == [([1, "a"],)]
    assert db.execute("RETURN COUNT { RETURN 1 AS c UNION RETURN 'a' AS c } AS n").fetchall() == [(2,)]


def test_values_keep_their_types_when_a_part_ran_apart():
    """A part with a variable-length pattern runs into a table of its own before the UNION; DuckDB's Python
    client then converted the sorted VARIANT column to its first row's type (1 arrived as '1')."""
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:A {s: 'x'}), (:A {s: 'y'}), (:B)")
        rows = db.execute("MATCH (a:A)<-[*0..1]-(a) RETURN a.s AS c UNION ALL MATCH (b:B) RETURN 1 AS c"
                          " UNION ALL RETURN 1.5 AS c UNION ALL RETURN true AS c").fetchall()
        assert rows == [("x",), ("y",), (1,), (1.5,), (True,)]


@pytest.mark.parametrize(("query", "rows"), [
    # each part drops its own duplicates first (binder `_distinct_return`): the same rows, in the same order
    ("UNWIND [3, 1, 3, 2, 1] AS x RETURN x AS c UNION UNWIND [2, 4, 4] AS y RETURN y AS c", [(3,), (1,), (2,), (4,)]),
    ("UNWIND [1, 1.0, 2] AS x RETURN x AS c UNION RETURN 2.0 AS c", [(1,), (2,)]),
    ("UNWIND [1, 2] AS x RETURN count(*) AS c UNION UNWIND [5, 6] AS y RETURN count(*) AS c", [(2,)]),
    # a LIMIT, SKIP or ORDER BY reads the part's rows before any are dropped
    ("UNWIND ['a', 'a', 'b'] AS x RETURN x AS c LIMIT 2 UNION RETURN 'z' AS c", [("a",), ("z",)]),
    ("UNWIND ['a', 'a', 'b'] AS x RETURN x AS c SKIP 1 UNION RETURN 'z' AS c", [("a",), ("b",), ("z",)]),
    ("UNWIND ['b', 'a', 'b'] AS x RETURN x AS c ORDER BY c UNION RETURN 'z' AS c", [("a",), ("b",), ("z",)]),
])
def test_a_union_part_drops_its_duplicates_before_the_union(db, query, rows):
    assert db.execute(query).fetchall() == rows


def test_a_union_part_of_many_equal_rows_is_made_distinct_where_it_is_made(db):
    db.execute("MATCH (a:A) UNWIND range(1, 200) AS i CREATE (a)-[:S]->(a)")
    query = ("MATCH (a:A)-[:S*2]->(b) RETURN b.x AS c UNION MATCH (a:B) RETURN a.x AS c")
    assert db.execute(query).fetchall() == [(1,), ("b",)]
    _, trace = db.explain(query)
    part = next(sql for sql, _ in trace if "_cypher_t1" in sql)
    assert any(form in part for form in ("QUALIFY", "GROUP BY", "DISTINCT"))  # deduplicated as it is stored


def test_a_subquery_union_part_drops_duplicates_per_outer_row(db):
    assert db.execute("UNWIND [1, 2] AS o CALL (o) { UNWIND [1, 1, o] AS x RETURN x AS c UNION RETURN 5 AS c }"
                      " RETURN o, c").fetchall() == [(1, 1), (1, 5), (2, 1), (2, 2), (2, 5)]
    assert db.execute("UNWIND [1, 2] AS o RETURN o, COUNT { UNWIND [1, 1, o] AS x RETURN x AS c UNION"
                      " RETURN 5 AS c } AS n").fetchall() == [(1, 2), (2, 3)]
