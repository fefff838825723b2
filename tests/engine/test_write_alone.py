"""A statement whose whole write is one SQL statement runs it in DuckDB's own transaction, without BEGIN and
COMMIT (engine/execute/write_alone.py, ADR-0110); everything else about it is as in a transaction of its own:
nothing of a failing one remains, ids come back, and what reads after it sees it."""

from __future__ import annotations

import pytest

import engine
from tests.engine.sql_sent import Recording, recorded


def _transactions(recording: Recording) -> int:
    return sum(sql.startswith("BEGIN") for sql in recording.sent)


@pytest.mark.parametrize("statement, alone", [
    ("MATCH (p:P {id: 1}) SET p.seen = coalesce(p.seen, 0) + 1", True),
    ("MERGE (p:P {id: 1}) ON MATCH SET p.hits = 1", True),
    ("CREATE (:Q {id: 7})", True),
    ("CREATE (:Q {id: 7}), (:Q {id: 8})", True),
    ("MATCH (p:P {id: 1}) SET p.seen = 1 RETURN p.seen AS seen", False),
    ("CREATE (:Q {id: 7})-[:R]->(:Q {id: 8})", False),
    ("MERGE (p:P {id: 99}) ON MATCH SET p.hits = 1", False),  # creates: the UPDATE met nothing, then the INSERT
    ("MATCH (p:P {id: 1}) SET p.fresh = 1", False),  # a new column first
    ("MERGE (p:P {id: 1}) ON MATCH SET p.fresh = 1", False),  # the same, found on the way (`before_schema_write`)
])
def test_which_writes_run_without_begin_and_commit(statement, alone):
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:P {id: 1, seen: 0, hits: 0})")
        recording = recorded(db)
        db.execute(statement)
        assert (_transactions(recording) == 0) is alone
        assert ("COMMIT" in recording.sent) is not alone


def test_a_write_alone_is_seen_by_reads_kept_from_before_and_moves_the_last_write():
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:P {id: 1, seen: 0})")
        read = "MATCH (p:P {id: 1}) RETURN p.seen AS seen"
        assert db.execute(read).rows == [(0,)]
        assert db.execute(read).rows == [(0,)]  # now a kept read (ADR-0044)
        before = db.graphs()[0]["last_write"]
        recording = recorded(db)
        db.execute("MATCH (p:P {id: 1}) SET p.seen = p.seen + 1")
        assert _transactions(recording) == 0
        assert db.execute(read).rows == [(1,)]
        assert db.graphs()[0]["last_write"] > before


def test_a_failing_write_alone_leaves_nothing_and_gives_its_ids_back():
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:P {id: 1, n: 5})")
        with pytest.raises(engine.CypherError):
            db.execute("MATCH (p:P {id: 1}) SET p.n = p.n / $zero", {"zero": 0})
        assert db.execute("MATCH (p:P) RETURN p.n AS n").rows == [(5,)]
        for value in ([1, None], {"a": 1}):
            with pytest.raises(engine.CypherError):
                db.execute("CREATE (:Q {v: $v})", {"v": value})
        db.execute("CREATE (:Q {v: 1})")
        assert db.execute("MATCH (n) RETURN id(n) AS id, labels(n) AS labels ORDER BY id").rows == [
            (0, ["P"]), (1, ["Q"])]


def test_a_write_that_needs_a_new_column_runs_in_a_transaction_that_takes_the_column_back():
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:P {id: 1, n: 0})")
        with pytest.raises(engine.CypherError):
            db.execute("MATCH (p:P {id: 1}) SET p.fresh = 1 / p.n")
        keys = {row[0] for row in db.execute("CALL db.propertyKeys()").rows}
        assert "fresh" not in keys
        with pytest.raises(engine.CypherError):
            db.execute("MERGE (p:P {id: 1}) ON MATCH SET p.other = 1 / $zero", {"zero": 0})
        assert "other" not in {row[0] for row in db.execute("CALL db.propertyKeys()").rows}


def test_merges_alone_match_or_create_with_their_counters():
    with engine.connect(":memory:") as db:
        statement = "MERGE (p:P {id: $id}) ON MATCH SET p.hits = 1"
        created = db.execute(statement, {"id": 1}).counters
        matched = db.execute(statement, {"id": 1}).counters
        assert (created["nodes_created"], created["properties_set"]) == (1, 1)
        assert (matched["nodes_created"], matched["properties_set"]) == (0, 1)
        assert db.execute("MATCH (p:P) RETURN p.id AS id, p.hits AS hits").rows == [(1, 1)]


SEARCH_B = "CALL db.index.fulltext.queryNodes('names', 'b') YIELD node RETURN node.id AS id"


@pytest.mark.parametrize(("schema", "write", "key", "value", "search"), [
    ("CREATE CONSTRAINT FOR (p:P) REQUIRE p.seen IS UNIQUE", "MATCH (p:P {id: 1}) SET p.seen = 1", "seen", 1, None),
    ("CREATE FULLTEXT INDEX names FOR (p:P) ON EACH [p.name]", "MATCH (p:P {id: 1}) SET p.name = 'b'", "name", "b",
     SEARCH_B),
])
def test_a_constraint_or_an_index_keeps_the_write_in_a_transaction(schema, write, key, value, search):
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:P {id: 1, seen: 0, name: 'a'})")
        db.execute(schema)
        recording = recorded(db)
        db.execute(write)
        assert _transactions(recording) == 1
        assert db.execute(f"MATCH (p:P {{id: 1}}) RETURN p.{key} AS v").rows == [(value,)]
        if search is not None:  # the index saw the write
            assert db.execute(search).rows == [(1,)]
