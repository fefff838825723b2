"""Self-loop counts per relationship type: the uniqueness check between two consecutive hops of one direction
is left out where their type has no self-loop, and kept, with the right answers, as soon as one exists
(ADR-0098). The counts themselves are checked against a full recount after random writes in
test_end_labels.py, whose writes create and delete self-loops."""

from __future__ import annotations

import duckdb
import pytest

import engine
from engine.errors import CypherError
from engine.storage.end_labels import contributions
from engine.storage.schema import GraphStore

TWO_HOPS = "MATCH (a)-[:R]->()-[:R]->(c) RETURN count(*) AS paths"
TWO_PATTERNS = "MATCH (a)-[r1:R]->(b), (b)-[r2:R]->(c) RETURN count(*) AS paths"
"""The same paths as TWO_HOPS, as two patterns: their relationships are not consecutive hops of one path, so
the check between them always stays."""
UP_TO_THREE = "MATCH (a)-[:R*1..3]->(c) RETURN count(*) AS paths"
QUANTIFIED = "MATCH (a) (()-[:R]->()){1,3} (c) RETURN count(*) AS paths"
"""The same paths as UP_TO_THREE as a quantified path pattern, whose uniqueness the rule leaves alone."""


def checks(db: engine.Connection, query: str) -> int:
    """How many relationship-id inequalities the statement's SQL tests."""
    return sum(sql.count(".id <> ") for sql, _ in db.explain(query)[1])


def counts(db: engine.Connection) -> list[tuple[str, str, str, int]]:
    """The counts the writers kept: the table's, with what the relationships the store says they miss add
    (ADR-0111)."""
    return sorted((*key, n) for key, n in db._store.end_label_counts().items())


def recount(db: engine.Connection) -> list[tuple[str, str, str, int]]:
    return sorted(db._duck.execute(contributions("true")).fetchall())


def answers(db: engine.Connection) -> tuple[object, object]:
    """The two reads' answers, each beside its reference form's."""
    return ((db.execute(TWO_HOPS).rows, db.execute(TWO_PATTERNS).rows),
            (db.execute(UP_TO_THREE).rows, db.execute(QUANTIFIED).rows))


def assert_right(db: engine.Connection) -> None:
    (two, two_reference), (three, three_reference) = answers(db)
    assert two == two_reference
    assert three == three_reference


def chain(db: engine.Connection) -> None:
    db.execute("CREATE (:N {i: 1})-[:R]->(:N {i: 2})-[:R]->(:N {i: 3})-[:R]->(:N {i: 4})")


def test_the_check_is_left_out_only_while_the_type_has_no_self_loop() -> None:
    with engine.connect(":memory:") as db:
        chain(db)
        assert checks(db, TWO_HOPS) == 0
        assert checks(db, UP_TO_THREE) == 1  # the first and third of three hops can still be one relationship
        assert db.execute(TWO_HOPS).rows == [(2,)]
        db.execute("MATCH (n:N {i: 2}) CREATE (n)-[:R]->(n)")
        assert checks(db, TWO_HOPS) == 1
        assert checks(db, UP_TO_THREE) == 4
        assert db.execute(TWO_HOPS).rows == [(4,)]  # 1-2-3, 2-3-4, 1-2-2, 2-2-3, and no 2-2-2
        assert_right(db)
        db.execute("MATCH (n:N {i: 2})-[r:R]->(n) DELETE r")
        assert checks(db, TWO_HOPS) == 0
        assert db.execute(TWO_HOPS).rows == [(2,)]


def test_a_self_loop_of_another_type_leaves_the_check_out() -> None:
    with engine.connect(":memory:") as db:
        chain(db)
        db.execute("MATCH (n:N {i: 2}) CREATE (n)-[:S]->(n)")
        assert checks(db, TWO_HOPS) == 0
        assert checks(db, "MATCH (a)-[]->()-[]->(c) RETURN count(*)") == 1  # any type: S's loop counts
        assert db.execute("MATCH (a)-[]->()-[]->(c) RETURN count(*)").rows == [(4,)]
        assert checks(db, "MATCH (a)-[:R]->()-[:S]->(c) RETURN count(*)") == 0  # R has none: never the same
        assert checks(db, "MATCH (a)-[:R]->()<-[:R]-(c) RETURN count(*)") == 1  # two directions: kept


def test_a_kept_read_answers_right_after_a_self_loop_is_created() -> None:
    with engine.connect(":memory:") as db:
        chain(db)
        for _ in range(3):  # compiled once, then kept
            assert db.execute(TWO_HOPS).rows == [(2,)]
            assert db.execute(UP_TO_THREE).rows == [(6,)]
        db.execute("MATCH (n:N {i: 3}) CREATE (n)-[:R]->(n)")
        assert db.execute(TWO_HOPS).rows == [(4,)]
        assert_right(db)


def test_a_self_loop_created_in_the_statement_is_seen_by_its_later_match() -> None:
    with engine.connect(":memory:") as db:
        chain(db)
        rows = db.execute("MATCH (n:N {i: 4}) CREATE (n)-[:R]->(n) WITH n MATCH (n)-[:R]->()-[:R]->(c)"
                          " RETURN count(*) AS paths").rows
        assert rows == [(0,)]  # n's only relationship is the loop, which a path may not use twice
        assert_right(db)


def test_a_rolled_back_self_loop_leaves_the_check_out_again() -> None:
    with engine.connect(":memory:") as db:
        chain(db)
        with pytest.raises(CypherError):
            db.execute("MATCH (n:N {i: 2}) CREATE (n)-[:R]->(n) WITH n RETURN 1 / 0")
        assert counts(db) == recount(db)
        assert checks(db, TWO_HOPS) == 0
        db.begin()
        db.execute("MATCH (n:N {i: 2}) CREATE (n)-[:R]->(n)")
        assert db.execute(TWO_HOPS).rows == [(4,)]
        assert_right(db)
        db.rollback()
        assert checks(db, TWO_HOPS) == 0
        assert db.execute(TWO_HOPS).rows == [(2,)]
        assert_right(db)


def test_variable_length_hops_over_self_loops() -> None:
    with engine.connect(":memory:") as db:
        chain(db)
        db.execute("MATCH (n:N) WHERE n.i IN [1, 3] CREATE (n)-[:R]->(n)")
        assert_right(db)
        # by the loop at 1 then on, and along the chain; never the loop twice
        assert db.execute("MATCH (a:N {i: 1})-[:R*2]->(c) RETURN c.i AS i ORDER BY i").rows == [(2,), (3,)]
        db.execute("MATCH (:N)-[r:R]->(:N {i: 2}) DELETE r")
        assert_right(db)
        db.execute("MATCH (n)-[r:R]->(n) DELETE r")
        assert checks(db, UP_TO_THREE) == 1
        assert_right(db)


def test_a_graph_counted_before_self_loops_counts_them_when_opened(tmp_path) -> None:
    path = str(tmp_path / "g.duckdb")
    with engine.connect(path) as db:
        chain(db)
        db.execute("MATCH (n:N {i: 2}) CREATE (n)-[:R]->(n)")
    connection = duckdb.connect(path)  # the file as a version before the self-loop counts left it
    connection.execute("DELETE FROM graph_end_labels WHERE side = 'loop'")
    connection.execute("DELETE FROM graph_meta WHERE key = 'self_loops'")
    connection.close()
    connection = duckdb.connect(path, read_only=True)
    try:  # read-only, the loops are not counted: every type may have one
        assert not GraphStore(connection, read_only=True).end_labels().loop_free(frozenset(["R"]))
    finally:
        connection.close()
    with engine.connect(path) as db:
        assert counts(db) == recount(db)
        assert ("R", "loop", "", 1) in counts(db)
        assert checks(db, TWO_HOPS) == 1
        assert_right(db)
