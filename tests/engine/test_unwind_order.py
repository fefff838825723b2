"""UNWIND keeps its list's order wherever a later clause or the result observes it (as Neo4j does), and
numbers its elements only there; a one-row aggregate's result is not sorted (ADR-0098)."""

from __future__ import annotations

import pytest

import engine


@pytest.fixture(scope="module")
def db():
    with engine.connect(":memory:") as connection:
        connection.execute("UNWIND [5, 3, 9, 1] AS i CREATE (:N {id: i})-[:R]->(:M {id: i * 10})")
        yield connection


def sql(db: engine.Connection, query: str, params: dict | None = None) -> str:
    return " ".join(text for text, _ in db.explain(query, params)[1])


ORDER_OBSERVED = [
    ("UNWIND [3, 1, 2] AS x RETURN x", None, [(3,), (1,), (2,)]),
    ("UNWIND $l AS x RETURN x", {"l": [3, 1, 2]}, [(3,), (1,), (2,)]),
    ("UNWIND [3, 1, 2] AS x RETURN collect(x) AS xs", None, [([3, 1, 2],)]),
    ("UNWIND [3, 1, 2] AS x WITH x WHERE x > 1 RETURN x", None, [(3,), (2,)]),
    ("UNWIND [[2, 1], [3]] AS l UNWIND l AS x RETURN x", None, [(2,), (1,), (3,)]),
    ("UNWIND [[2, 1], [3]] AS l UNWIND l AS x RETURN collect(x) AS xs", None, [([2, 1, 3],)]),
    ("UNWIND $ids AS id MATCH (n:N {id: id})-[:R]->(m) RETURN m.id AS id", {"ids": [9, 1, 5]},
     [(90,), (10,), (50,)]),
    ("UNWIND $ids AS id MATCH (n:N {id: id}) WITH n LIMIT 2 RETURN n.id AS id", {"ids": [9, 1, 5]}, [(9,), (1,)]),
    ("UNWIND [3, 1, 2] AS x CALL (x) { RETURN x * 2 AS y } RETURN y", None, [(6,), (2,), (4,)]),
    ("UNWIND [[1, 'a'], [0, 'b'], [1, 'c']] AS p RETURN p[1] AS s ORDER BY p[0]", None,
     [("b",), ("a",), ("c",)]),  # ties keep the list's order
    ("UNWIND [3, 1, 2] AS x WITH count(*) AS n UNWIND [n, 1, 2] AS y RETURN y", None, [(3,), (1,), (2,)]),
]


@pytest.mark.parametrize(("query", "params", "rows"), ORDER_OBSERVED, ids=[q for q, _, _ in ORDER_OBSERVED])
def test_unwind_order_is_kept_where_it_is_observed(db, query, params, rows) -> None:
    result = db.execute(query, params)
    assert result.rows == rows
    assert "generate_subscripts" in sql(db, query, params)


ORDER_UNREAD = [
    ("UNWIND [3, 1, 2] AS x RETURN count(*) AS n, sum(x) AS s", None, [(3, 6)]),
    ("UNWIND $ids AS id MATCH (n:N {id: id})-[:R]->(m) RETURN count(*) AS n", {"ids": [9, 1, 5, 7]}, [(3,)]),
    ("UNWIND [[2, 1], [3]] AS l UNWIND l AS x RETURN sum(x) AS s", None, [(6,)]),
    ("UNWIND null AS x RETURN count(*) AS n", None, [(0,)]),
]


@pytest.mark.parametrize(("query", "params", "rows"), ORDER_UNREAD, ids=[q for q, _, _ in ORDER_UNREAD])
def test_unwind_unnests_without_positions_where_nothing_reads_its_order(db, query, params, rows) -> None:
    assert db.execute(query, params).rows == rows
    assert "generate_subscripts" not in sql(db, query, params)


def test_a_one_row_aggregate_is_not_sorted(db) -> None:
    query = "MATCH (n:N) RETURN count(*) AS n, collect(n.id) AS ids"
    assert db.execute(query).rows == [(4, [5, 3, 9, 1])]
    assert "ORDER BY __ord" not in sql(db, query).rsplit(")", 1)[-1]
    grouped = "MATCH (n:N)-[:R]->(m) RETURN n.id % 2 AS odd, count(*) AS n"
    assert sql(db, grouped).endswith("ORDER BY __ord")
    assert db.execute("MATCH (n:N) WITH count(*) AS n WHERE n > 10 RETURN n").rows == []
    assert db.execute("MATCH (n:N) RETURN count(*) AS n SKIP 1").rows == []
