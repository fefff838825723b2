"""CALL subqueries: the cases the conformance page `tests/conformance/call-subqueries.md` found the engine
getting wrong. ON ERROR CONTINUE / BREAK after a failed batch (the manual's "CALL subqueries in
transactions" examples), and the error for a returned variable the outer scope already has."""

from __future__ import annotations

import pytest

import engine

FAILING = "UNWIND [1, 0, 2, 4] AS i CALL (i) {{ CREATE (n:Person {{num: 100/i}}) {tail} }} IN TRANSACTIONS {options}"


def rows(query: str) -> list[tuple]:
    with engine.connect(":memory:") as db:
        return db.execute(query).fetchall()


@pytest.mark.parametrize(("options", "expected"), [
    ("OF 1 ROW ON ERROR CONTINUE", [100, None, 50, 25]),
    ("OF 2 ROWS ON ERROR CONTINUE", [None, None, 50, 25]),
    ("OF 1 ROW ON ERROR BREAK", [100, None, None, None]),
    ("OF 2 ROWS ON ERROR BREAK", [None, None, None, None]),
])
def test_a_failed_batch_gives_its_rows_nulls(options: str, expected: list) -> None:
    query = FAILING.format(tail="RETURN n", options=options) + " RETURN n.num AS num"
    assert [row[0] for row in rows(query)] == expected


def test_a_unit_subquery_reports_the_status_of_every_batch() -> None:
    query = (FAILING.format(tail="", options="OF 1 ROW ON ERROR CONTINUE REPORT STATUS AS s")
             + " RETURN i, s.committed AS committed, s.errorMessage AS error")
    assert rows(query) == [(1, True, None), (0, False, "/ by zero"), (2, True, None), (4, True, None)]


def test_a_returned_variable_already_in_the_outer_scope_is_already_bound() -> None:
    with engine.connect(":memory:") as db, pytest.raises(engine.CypherError) as raised:
        db.execute("WITH 1 AS x CALL () { RETURN 2 AS x } RETURN x")
    assert (raised.value.kind, raised.value.detail) == ("SyntaxError", "VariableAlreadyBound")
    assert raised.value.message == "Variable `x` already declared in outer scope"


def test_a_variable_returned_in_backticks_is_the_variable() -> None:
    """`RETURN `n`` names its column `n`, as Neo4j does (the variable, not the text): a CALL subquery hands `n`
    out, and a UNION of such parts has the column `n`."""
    with engine.connect(":memory:") as db:
        db.execute("CREATE (), ()")
        assert db.execute("CALL () { MATCH (n) RETURN `n` UNION ALL MATCH (n) RETURN `n` } "
                          "RETURN count(n) AS c").fetchall() == [(4,)]
        assert db.execute("MATCH (`n`) RETURN `n` LIMIT 1").columns == ["n"]


def test_a_failed_batch_leaves_no_table_behind_for_the_next_statement():
    """A statement's temp tables are numbered from 1 in every run (ADR-0116): those of batches committed before
    one failed are dropped with the failure, so the next statement can make tables of the same names."""
    with engine.connect(":memory:") as db:
        db.execute("UNWIND range(1, 5) AS i CREATE (:N {i: i})")
        with pytest.raises(engine.CypherError, match="by zero"):
            db.execute("UNWIND [1, 2, 0, 4] AS x CALL (x) { MATCH (n:N) WITH n, x ORDER BY n.i"
                       " MERGE (n)-[:R]->(:M {v: 10 / x}) } IN TRANSACTIONS OF 1 ROW")
        assert db._duck.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchall() == [(0,)]
        assert db.execute("UNWIND [1, 2] AS x MATCH (n:N {i: x}) MERGE (n)-[:R]->(:M {v: x})"
                          " RETURN count(*)").fetchall() == [(2,)]
