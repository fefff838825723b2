"""Ids and the last write, held in the process that holds the database (ADR-0103): ids dense, in creation
order and given back by whatever rolls back; never given twice, across closes, reopens and a killed process;
`lastWrite` moving on a write only, the same for every connection of the process and after a reopen; each
named graph with its own."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

import engine
from tests.runner.helpers import ROOT

NEW = "CREATE (a:N)-[r:R]->(b:N) RETURN id(a), id(r), id(b)"


def new_ids(db, graph: str | None = None) -> tuple[int, int, int]:
    (row,) = db.execute(NEW, graph=graph).fetchall()
    return row


def last_writes(db) -> dict[str, object]:
    return {row[0]: row[6] for row in db.execute("SHOW DATABASES").rows}


def test_ids_are_dense_and_a_failing_statement_gives_its_ids_back():
    with engine.connect() as db:
        assert new_ids(db) == (0, 0, 1)
        with pytest.raises(engine.CypherError):
            db.execute("UNWIND [1, 0] AS d CREATE (:N)-[:R]->(:N) RETURN 1 / d")
        assert new_ids(db) == (2, 1, 3)


def test_a_rolled_back_transaction_gives_its_ids_back(tmp_path):
    with engine.connect(str(tmp_path / "g.db")) as db:
        assert new_ids(db) == (0, 0, 1)
        db.begin()
        assert new_ids(db) == (2, 1, 3)
        assert new_ids(db) == (4, 2, 5)
        db.rollback()
        assert new_ids(db) == (2, 1, 3)
        db.begin()
        new_ids(db)
        db.commit()
        assert new_ids(db) == (6, 3, 7)


def test_a_failed_batch_of_call_in_transactions_gives_its_ids_back():
    with engine.connect() as db:
        rows = db.execute("UNWIND [1, 2, 0, 3] AS d CALL (d) { CREATE (n:B {v: 1 / d}) } IN TRANSACTIONS OF 1 ROW "
                          "ON ERROR CONTINUE RETURN d").rows
        assert len(rows) == 4
        assert sorted(db.execute("MATCH (n:B) RETURN id(n)").rows) == [(0,), (1,), (2,)]
        assert new_ids(db)[0] == 3


def test_explain_of_a_write_takes_no_id():
    with engine.connect() as db:
        _, trace = db.explain("CREATE (:N)-[:R]->(:N)")
        assert trace
        assert new_ids(db) == (0, 0, 1)


def test_ids_go_on_after_a_reopen_and_deleted_ones_are_not_given_again(tmp_path):
    path = str(tmp_path / "g.db")
    with engine.connect(path) as db:
        assert new_ids(db) == (0, 0, 1)
        assert new_ids(db) == (2, 1, 3)
        db.execute("MATCH (n:N) WHERE id(n) >= 2 DETACH DELETE n")  # the highest ids
    with engine.connect(path) as db:
        assert new_ids(db) == (4, 2, 5)


KILLED = """
import os, signal, sys, engine
db = engine.connect(sys.argv[1])
db.execute("CREATE (:N)-[:R]->(:N)")
db.execute("CREATE (:N)-[:R]->(:N)")
db.execute(sys.argv[2])
os.kill(os.getpid(), signal.SIGKILL)
"""
"""Two paths (ids 0-3, relationships 0-1), then the statement given, then killed: no close stores the counters."""

LAST = {
    # in the tables, their ids not yet stored in graph_meta (stored at most once a second)
    "created": ("CREATE (:N)-[:R]->(:N)", [0, 1, 2, 3, 4, 5], (6, 3, 7)),
    # the highest node and relationship ids gone: only the stored counters know they were given
    "deleted": ("MATCH (n:N) WHERE id(n) = 3 DETACH DELETE n", [0, 1, 2], (4, 2, 5)),
}


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("last", LAST)
def test_a_killed_process_never_makes_an_id_be_given_twice(tmp_path, last):
    path = str(tmp_path / "g.db")
    statement, nodes, after = LAST[last]
    done = subprocess.run([sys.executable, "-c", KILLED, path, statement], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert done.returncode == -signal.SIGKILL, done.stderr
    with engine.connect(path) as db:
        assert sorted(db.execute("MATCH (n) RETURN id(n)").rows) == [(node,) for node in nodes]
        assert new_ids(db) == after
        assert last_writes(db)["neo4j"] is not None  # the last write stored before the kill, at the latest


def test_last_write_moves_on_a_write_not_on_a_read_for_every_connection_and_after_a_reopen(tmp_path):
    path = str(tmp_path / "g.db")
    with engine.connect(path) as db, engine.connect(path) as other:
        assert last_writes(db)["neo4j"] is None
        db.execute("CREATE (:N)")
        first = last_writes(db)["neo4j"]
        assert first is not None and last_writes(other)["neo4j"] == first
        before = other.graphs()[0]["last_write"]
        time.sleep(0.002)
        other.execute("MATCH (n) RETURN count(n)")
        other.execute("MATCH (n:Missing) SET n.x = 1")  # a write that changes nothing
        assert last_writes(db)["neo4j"] == first
        other.execute("MATCH (n:N) SET n.x = 1")
        second = last_writes(db)["neo4j"]
        assert second != first and last_writes(other)["neo4j"] == second
        assert db.graphs()[0]["last_write"] == other.graphs()[0]["last_write"] > before
    with engine.connect(path) as db:
        assert last_writes(db)["neo4j"] == second


def test_a_rolled_back_write_leaves_the_last_write():
    with engine.connect() as db:
        db.execute("CREATE (:N)")
        before = last_writes(db)["neo4j"]
        db.begin()
        db.execute("CREATE (:N)")
        db.rollback()
        with pytest.raises(engine.CypherError):
            db.execute("UNWIND [1, 0] AS d CREATE (:N) RETURN 1 / d")
        assert last_writes(db)["neo4j"] == before


def test_named_graphs_have_their_own_ids_and_last_write(tmp_path):
    path = str(tmp_path / "g.db")
    with engine.connect(path) as db:
        db.execute("CREATE DATABASE other")
        assert new_ids(db) == (0, 0, 1)
        assert new_ids(db) == (2, 1, 3)
        quiet = last_writes(db)["other"]
        assert new_ids(db, graph="other") == (0, 0, 1)
        assert last_writes(db)["other"] != quiet
        neo4j = last_writes(db)["neo4j"]
        time.sleep(0.002)
        new_ids(db, graph="other")
        assert last_writes(db)["neo4j"] == neo4j
        written = last_writes(db)
    with engine.connect(path, graph="other") as db:
        assert last_writes(db) == written  # each graph's stored in its own graph_meta at close
        assert new_ids(db) == (4, 2, 5)
        assert new_ids(db, graph="neo4j") == (4, 2, 5)
