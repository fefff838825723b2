"""Writes sent again run the SQL DuckDB parsed before (engine/execute/parsed_sql.py, ADR-0109): the same
answers and stored values as the first sends, also when the tables changed between two sends."""

from __future__ import annotations

import engine


def test_writes_sent_again_store_what_each_send_says():
    with engine.connect(":memory:") as db:
        db.execute("UNWIND range(0, 9) AS i CREATE (:P {id: i})")
        for n in range(30):
            db.execute("MATCH (p:P {id: $id}) SET p.seen = coalesce(p.seen, 0) + 1", {"id": n % 10})
            db.execute("MERGE (q:Q {id: $id}) ON MATCH SET q.hits = coalesce(q.hits, 0) + 1", {"id": n % 7})
        rows = db.execute("MATCH (p:P) RETURN p.id AS id, p.seen AS seen ORDER BY id").rows
        assert rows == [(i, 3) for i in range(10)]
        hits = db.execute("MATCH (q:Q) RETURN q.id AS id, q.hits AS hits ORDER BY id").rows
        assert hits == [(0, 4), (1, 4), (2, 3), (3, 3), (4, 3), (5, 3), (6, 3)]  # sent 5, 5, 4, ... times: created once


def test_a_column_widened_between_sends_is_read_as_it_is_now():
    with engine.connect(":memory:") as db:
        db.execute("UNWIND range(0, 4) AS i CREATE (:P {id: i, v: i})")
        statement = "MATCH (p:P {id: $id}) SET p.w = p.v"
        for n in range(3):
            db.execute(statement, {"id": n})
        db.execute("MATCH (p:P {id: 4}) SET p.v = 'four'")  # p.v's column becomes a VARIANT
        for n in range(3, 5):
            db.execute(statement, {"id": n})
        rows = db.execute("MATCH (p:P) RETURN p.id AS id, p.w AS w ORDER BY id").rows
        assert rows == [(0, 0), (1, 1), (2, 2), (3, 3), (4, "four")]


def test_a_failing_write_sent_again_fails_again_and_leaves_nothing():
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:P {id: 1})")
        statement = "MATCH (p:P {id: $id}) SET p.n = 1 / $zero"
        for _ in range(3):
            try:
                db.execute(statement, {"id": 1, "zero": 0})
            except engine.CypherError as error:
                assert "/ by zero" in str(error) or "zero" in str(error).lower()
            else:
                raise AssertionError("a division by zero wrote")
        assert db.execute("MATCH (p:P) RETURN p.n AS n").rows == [(None,)]
