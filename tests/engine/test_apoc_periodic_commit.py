"""apoc.periodic.commit runs its statement again, each run committed, until it counts 0 (ADR-0075): what a
failed run and a statement that never counts 0 leave behind."""

from __future__ import annotations

import pytest

import engine
from engine.execute import subqueries

COUNTING = ("MATCH (n:N) WHERE n.done IS NULL WITH n ORDER BY n.i LIMIT $limit"
            " SET n.done = 10 / (n.i - $bad) RETURN count(*)")
"""Marks `limit` nodes a run, in order; the node whose i is `bad` fails its run."""


@pytest.fixture
def db():
    with engine.connect() as connection:
        connection.execute("UNWIND range(1, 10) AS i CREATE (:N {i: i})")
        yield connection


def done(db) -> int:
    return db.execute("MATCH (n:N) WHERE n.done IS NOT NULL RETURN count(*)").fetchall()[0][0]


def test_the_runs_before_a_failed_one_stay_committed(db):
    result = db.execute(f"CALL apoc.periodic.commit('{COUNTING}', {{limit: 3, bad: 5}})"
                        " YIELD updates, executions, batches, failedBatches, batchErrors"
                        " RETURN updates, executions, batches, failedBatches, batchErrors")
    assert result.fetchall() == [(3, 1, 2, 1, {"/ by zero": 1})]
    assert done(db) == 3  # the first run (nodes 1-3); the second (4-6) rolled back


def test_a_statement_still_counting_after_the_bound_stops_with_an_error(db, monkeypatch):
    monkeypatch.setattr(subqueries, "MAX_RUNS", 2)
    with pytest.raises(engine.CypherError, match=r"still counts more after 2 runs.*Transactions committed: 2"):
        db.execute(f"CALL apoc.periodic.commit('{COUNTING}', {{limit: 3, bad: 0}})")
    assert done(db) == 6  # two runs of three committed, the third rolled back


def test_a_read_only_call_refuses_it(db):
    with pytest.raises(engine.ReadOnlyViolation):
        db.execute(f"CALL apoc.periodic.commit('{COUNTING}', {{limit: 3, bad: 0}})", read_only=True)
    assert done(db) == 0
