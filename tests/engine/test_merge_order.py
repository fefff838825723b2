"""A lone MERGE of one node tries first the way its kept statement's last run went: the UPDATE of its ON MATCH
SET, or the INSERT of its node where none matches (engine/execute/merge_order.py, ADR-0113).

Both ways must be one answer: every statement runs, creating and matching in turn, on a connection that keeps
bound statements (so its MERGE remembers how its last run went) and on one that keeps none (so it always
tries the UPDATE first, as before), and the counters, errors and the whole graph, ids included, are compared
after each. Then the SQL each way sends, to show both ways really ran.
"""

from __future__ import annotations

import pytest

import engine
from tests.engine.sql_sent import recorded

GRAPH = "UNWIND range(0, 4) AS i CREATE (:P {id: i})"

DUMP = "MATCH (n) RETURN id(n) AS id, labels(n) AS labels, properties(n) AS properties ORDER BY id"

KEYS = [10, 11, 11, 12, 12, 12, 13, 10, 14, 1, 14, 15]
"""Keys to merge on, in turn: new ones create, ones seen before match (1 is a P's)."""

STATEMENTS = [
    "MERGE (q:M {id: $id}) ON MATCH SET q.n = 1",
    "MERGE (q:P {id: $id}) ON MATCH SET q.n = $id",
    "MERGE (q:M {id: $id}) ON CREATE SET q.c = $id, q.d = 'new' ON MATCH SET q.n = 1",
    "MERGE (q:M:N {id: $id, k: 'x'}) ON MATCH SET q.fresh = [1, 2]",  # ON MATCH's column made on the first run
    "MERGE (q {id: $id}) ON MATCH SET q.n = 'any'",  # no label: a P's key matches too
    "MERGE (q:M {id: $id}) ON CREATE SET q.c = q.id + 1 ON MATCH SET q.n = 1",  # not folded: the UPDATE first
    "MERGE (q:M {id: $id}) ON MATCH SET q.n = 1 ON CREATE SET q.c = 1",
    "MERGE (q:M {id: $id}) ON MATCH SET q.n = 1 RETURN q.id AS id",  # rows read after: never an in-place one
    # ON CREATE SET items that run over no row when it matches, some running SQL even so:
    "MERGE (q:M {id: $id}) ON CREATE SET q:New ON MATCH SET q.n = 1",
    "MERGE (q:M {id: $id}) ON CREATE SET q += {a: 1} ON MATCH SET q.n = 1",
    "MERGE (q:M {id: $id}) ON CREATE SET q.a = 1, q.b = q.id ON MATCH SET q.n = 1",
    "MERGE (q:M {id: $id}) ON CREATE SET q:X:Y, q.c = 1 ON MATCH SET q.n = 1",
]


def _run(db, statement: str, parameters: dict) -> tuple:
    try:
        result = db.execute(statement, parameters)
    except engine.CypherError as error:
        return ("error", type(error).__name__, str(error))
    return ("ok", result.rows, {key: value for key, value in result.counters.items() if value})


def _twins():
    kept, fresh = engine.connect(":memory:"), engine.connect(":memory:", statement_cache_size=0)
    for db in (kept, fresh):
        db.execute(GRAPH)
    return kept, fresh


def _same(kept, fresh, statement: str, parameters: dict, *, fails: bool = False) -> tuple:
    ran = _run(kept, statement, parameters)
    assert ran == _run(fresh, statement, parameters), (statement, parameters)
    assert (ran[0] == "error") is fails, ran
    assert kept.execute(DUMP).rows == fresh.execute(DUMP).rows, (statement, parameters)
    return ran


@pytest.mark.parametrize("statement", STATEMENTS)
def test_creating_and_matching_in_turn_give_what_a_fresh_bind_gives(statement):
    kept, fresh = _twins()
    with kept, fresh:
        for key in KEYS:
            _same(kept, fresh, statement, {"id": key})
        assert kept.statement_cache_info()["bound_hits"] >= len(KEYS) - 1  # its bound tree, kept: remembering
        _same(kept, fresh, "CREATE (:Z)", {})  # the next id: none lost by an INSERT that found its node


def test_two_nodes_matching_are_both_set_after_a_run_that_created():
    kept, fresh = _twins()
    with kept, fresh:
        statement = "MERGE (q:M {id: $id}) ON MATCH SET q.n = 7"
        assert _same(kept, fresh, statement, {"id": 1})[2]["nodes_created"] == 1
        for db in (kept, fresh):
            db.execute("CREATE (:M {id: 2}), (:M {id: 2})")
        assert _same(kept, fresh, statement, {"id": 2})[2] == {"properties_set": 2}
        assert kept.execute("MATCH (q:M {id: 2}) RETURN q.n AS n").rows == [(7,), (7,)]


def test_a_null_property_fails_either_way():
    kept, fresh = _twins()
    with kept, fresh:
        statement = "MERGE (q:M {id: $id}) ON MATCH SET q.n = 1"
        for parameters in ({"id": 1}, {"id": 2}, {"id": None}, {"id": 3}, {"id": None}, {"id": 3}):
            _same(kept, fresh, statement, parameters, fails=parameters["id"] is None)


def test_a_constraint_keeps_the_update_first():
    kept, fresh = _twins()
    with kept, fresh:
        for db in (kept, fresh):
            db.execute("CREATE CONSTRAINT m_id FOR (q:M) REQUIRE q.id IS UNIQUE")
        statement = "MERGE (q:M {id: $id}) ON MATCH SET q.n = 1"
        for key in KEYS:
            _same(kept, fresh, statement, {"id": key})
        recording = recorded(kept)
        _same(kept, fresh, statement, {"id": 99})
        _same(kept, fresh, statement, {"id": 100})
        assert not any("count(*) = 0" in sql for sql in recording.sent)


@pytest.mark.parametrize("statement", [STATEMENTS[0], STATEMENTS[2], STATEMENTS[8]])
def test_in_an_explicit_transaction_ids_stay_dense_and_a_rollback_undoes_both_ways(statement):
    kept, fresh = _twins()
    with kept, fresh:
        for db in (kept, fresh):
            db.begin()
        for key in (1, 2, 2, 3, 1):
            _same(kept, fresh, statement, {"id": key})
            _same(kept, fresh, "CREATE (:Z {after: $id})", {"id": key})
        for db in (kept, fresh):
            db.rollback()
        assert kept.execute(DUMP).rows == fresh.execute(DUMP).rows
        for key in (4, 4, 5):
            _same(kept, fresh, statement, {"id": key})
        _same(kept, fresh, "CREATE (:Z)", {})


def _kinds(sent: list[str]) -> list[str]:
    """Each statement sent by its first word, an INSERT that looks for its node first as INSERT-IF-ABSENT."""
    return ["INSERT-IF-ABSENT" if "count(*) = 0" in sql else sql.split()[0].upper() for sql in sent]


def test_each_run_tries_first_the_way_the_last_one_went():
    with engine.connect(":memory:") as db:
        db.execute("UNWIND range(0, 4) AS i CREATE (:P {id: i, n: 0})")  # column n there: no ALTER first
        statement = "MERGE (q:M {id: $id}) ON MATCH SET q.n = 1"
        recording = recorded(db)
        steps = [  # key, what it does, the SQL statements it sends
            (10, "creates", ["UPDATE", "BEGIN", "INSERT", "COMMIT"]),  # first run: the UPDATE first
            (11, "creates", ["INSERT-IF-ABSENT"]),  # the last created: one INSERT, in DuckDB's own transaction
            (11, "matches", ["INSERT-IF-ABSENT", "UPDATE"]),  # it found the node, wrote nothing: the UPDATE alone
            (10, "matches", ["UPDATE"]),  # the last matched: one UPDATE
            (12, "creates", ["UPDATE", "BEGIN", "INSERT", "COMMIT"]),
            (13, "creates", ["INSERT-IF-ABSENT"]),
        ]
        for key, does, sends in steps:
            recording.sent.clear()
            counters = db.execute(statement, {"id": key}).counters
            assert (counters["nodes_created"], counters["properties_set"]) == (
                (1, 1) if does == "creates" else (0, 1)), key
            assert _kinds(recording.sent) == sends, key
        assert db.execute("MATCH (q:M) RETURN id(q) AS id, q.id AS key, q.n AS n ORDER BY id").rows == [
            (5, 10, 1), (6, 11, 1), (7, 12, None), (8, 13, None)]


@pytest.mark.parametrize("on_create, alone", [
    ("q.c = $id", True),  # over no row, no SQL: the UPDATE is still the statement's one write
    ("q.c = $id, q.d = 'x'", True),
    ("q.fresh = $id", False),  # a new column: its ALTER TABLE comes after the UPDATE
    ("q:New", False),
    ("q.c = q.id + 1", False),
])
def test_a_matching_merge_runs_alone_only_where_its_on_create_set_runs_no_sql(on_create, alone):
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:M {id: 1, n: 0, c: 0, d: ''})")
        recording = recorded(db)
        counters = db.execute(f"MERGE (q:M {{id: $id}}) ON CREATE SET {on_create} ON MATCH SET q.n = 1",
                              {"id": 1}).counters
        assert (counters["nodes_created"], counters["properties_set"]) == (0, 1)
        assert ("BEGIN TRANSACTION" not in recording.sent) is alone
        assert db.execute("MATCH (q:M) RETURN q.n AS n, labels(q) AS labels").rows == [(1, ["M"])]
