"""A statement sent again runs the tree bound for its text (engine/execute/bound_cache.py, ADR-0105).

Every answer, error and graph must be what a fresh bind gives: each write runs with many parameter values,
alike and of other types, on a connection that keeps bound statements and on one that keeps none, and the
results and graphs are compared (the plan's rules are kept with the tree; what the data decides, end labels
and how far walks branch, is decided on every run). Then what binding read changes between two sends of the
same write: a column widened, a column added, a constraint, an index, a new end label (ADR-0092).
"""

from __future__ import annotations

import pytest

import engine
from engine.compile import bind
from engine.plan.build import plan_single_query
from engine.syntax.parser import parse

GRAPH = "UNWIND range(0, 9) AS i CREATE (:P {id: i, n: i * 10, name: 'p' + i})"

DUMP = ("MATCH (n) RETURN labels(n) AS l, properties(n) AS p ORDER BY l, p.id, p.name, p.x, p.seen"
        " UNION ALL MATCH ()-[r]->() RETURN [type(r)] AS l, properties(r) AS p")

CASES: list[tuple[str, list[dict]]] = [
    ("MATCH (p:P {id: $id}) SET p.seen = coalesce(p.seen, 0) + 1",
     [{"id": v} for v in (1, 2, 1, 99, None, "1", 2.0, 3)]),
    ("CREATE (:Q {id: $id, v: $v})", [{"id": i, "v": v} for i, v in enumerate((1, "a", 2.5, None, [1, 2], True))]),
    ("MERGE (p:P {id: $id}) ON MATCH SET p.m = $m ON CREATE SET p.c = $m",
     [{"id": i, "m": m} for i, m in ((1, 1), (20, 2), (1, "x"), (20, None), (21, [1]))]),
    ("UNWIND $rows AS row MERGE (n:N {id: row.id}) SET n.v = row.v",
     [{"rows": rows} for rows in ([{"id": 1, "v": 1}], [{"id": 1, "v": 2}, {"id": 2, "v": "b"}], [], [{"id": 3}])]),
    ("WITH $v AS v MATCH (p:P {id: v}) SET p.w = v * 2 RETURN p.w AS w", [{"v": v} for v in (1, 2, 3, 1.5, "x")]),
    ("MATCH (p:P) WHERE p.n > $n SET p.x = $x RETURN count(*) AS c",
     [{"n": n, "x": x} for n, x in ((50, 1), (80, "a"), (0, None), (85.5, 2))]),
    ("MATCH (a:P {id: $a}), (b:P {id: $b}) CREATE (a)-[r:R {w: $w}]->(b) RETURN r.w AS w",
     [{"a": a, "b": b, "w": w} for a, b, w in ((1, 2, 1), (2, 3, 2.5), (3, 1, "x"), (4, 4, None))]),
    ("MATCH (a:P {id: $a}), (b:P {id: $b}) CREATE (a)-[:S]->(b) WITH a"
     " MATCH p = shortestPath((a)-[:S*]->(c:P {id: $c})) MATCH (a)-[:S*1..3]->(d) RETURN length(p) AS l, count(d) AS n",
     [{"a": a, "b": b, "c": c} for a, b, c in ((1, 2, 2), (2, 3, 3), (1, 3, 3), (3, 1, 2), (2, 2, 1))]),
    ("MATCH (p:P {id: $id}) SET p:$($label) RETURN labels(p) AS l",
     [{"id": i, "label": label} for i, label in ((1, "A"), (2, "B"), (1, "B"), (3, 5))]),
]


def outcome(db: engine.Connection, statement: str, params: dict) -> tuple:
    try:
        result = db.execute(statement, params)
        return ("rows", result.columns, result.rows, db.execute(DUMP).rows)
    except engine.CypherError as error:
        return ("error", type(error).__name__, str(error))


@pytest.mark.parametrize(("statement", "runs"), CASES)
def test_a_write_sent_again_gives_what_a_fresh_bind_gives(statement, runs):
    with engine.connect() as kept, engine.connect(statement_cache_size=0) as fresh:
        kept.execute(GRAPH)
        fresh.execute(GRAPH)
        for params in runs:
            assert outcome(kept, statement, params) == outcome(fresh, statement, params), params
        assert kept.statement_cache_info()["bound_hits"] > 0
        assert fresh.statement_cache_info()["bound_hits"] == 0


def hits(db: engine.Connection) -> int:
    return db.statement_cache_info()["bound_hits"]


def test_a_widened_column_binds_the_write_again():
    """`p.n + $d` is bound as integer arithmetic; once a string is stored in n the column holds any value,
    and the same text binds again (kept, it would add to a string column as to an integer one)."""
    with engine.connect() as db:
        db.execute(GRAPH)
        write = "MATCH (p:P {id: $id}) SET p.m = p.n + $d RETURN p.m AS m"
        assert db.execute(write, {"id": 1, "d": 1}).rows == [(11,)]
        assert db.execute(write, {"id": 2, "d": 1}).rows == [(21,)]  # bound again: m is a column now
        assert db.execute(write, {"id": 5, "d": 1}).rows == [(51,)]
        before = hits(db)
        assert before > 0
        db.execute("MATCH (p:P {id: 3}) SET p.n = 'ten'")
        assert db.execute(write, {"id": 3, "d": 1}).rows == [("ten1",)]  # Cypher's string + number
        assert db.execute(write, {"id": 4, "d": 1}).rows == [(41,)]  # bound again: m holds a string too
        assert db.execute(write, {"id": 6, "d": 1}).rows == [(61,)]
        assert hits(db) == before + 1


def test_a_column_added_binds_the_write_again():
    with engine.connect() as db:
        db.execute(GRAPH)
        write = "MATCH (p:P {id: $id}) SET p.b = coalesce(p.a, 0) + 1 RETURN p.b AS b"
        assert db.execute(write, {"id": 1}).rows == [(1,)]
        assert db.execute(write, {"id": 1}).rows == [(1,)]
        db.execute("MATCH (p:P {id: 2}) SET p.a = 5")
        assert db.execute(write, {"id": 2}).rows == [(6,)]


def test_a_constraint_between_two_sends_is_enforced():
    with engine.connect() as db:
        write = "CREATE (:Q {id: $id})"
        db.execute(write, {"id": 1})
        db.execute(write, {"id": 1})
        db.execute("MATCH (q:Q) WITH q SKIP 1 DELETE q")
        db.execute("CREATE CONSTRAINT q_id FOR (q:Q) REQUIRE q.id IS UNIQUE")
        with pytest.raises(engine.ConstraintViolation):
            db.execute(write, {"id": 1})
        db.execute(write, {"id": 2})
        assert db.execute("MATCH (q:Q) RETURN q.id AS id ORDER BY id").rows == [(1,), (2,)]


def test_an_index_between_two_sends_changes_no_answer():
    with engine.connect() as db:
        db.execute(GRAPH)
        write = "MATCH (p:P {name: $name}) SET p.seen = coalesce(p.seen, 0) + 1 RETURN p.seen AS s"
        assert db.execute(write, {"name": "p1"}).rows == [(1,)]
        db.execute("CREATE INDEX p_name FOR (p:P) ON (p.name)")
        db.execute("CREATE FULLTEXT INDEX p_text FOR (p:P) ON EACH [p.name]")
        assert db.execute(write, {"name": "p1"}).rows == [(2,)]
        assert db.execute(write, {"name": "p2"}).rows == [(1,)]
        assert db.execute("CALL db.index.fulltext.queryNodes('p_text', 'p1') YIELD node RETURN node.seen AS s"
                          ).rows == [(2,)]


def test_a_new_end_label_between_two_sends_is_seen():
    """The end-label facts (ADR-0092) are read when the statement runs: a relationship to a node of another
    label, created between two sends, is written by the second."""
    with engine.connect() as db:
        db.execute("CREATE (:A {id: 1})-[:R]->(:B {id: 2})")
        write = "MATCH (:A)-[:R]->(b:B) SET b.seen = $v RETURN count(*) AS c"
        assert db.execute(write, {"v": 1}).rows == [(1,)]
        assert db.execute(write, {"v": 2}).rows == [(1,)]
        db.execute("MATCH (a:A) CREATE (a)-[:R]->(:C:B {id: 3})")
        assert db.execute(write, {"v": 3}).rows == [(2,)]
        assert db.execute("MATCH (b:B) RETURN b.id AS id, b.seen AS s ORDER BY id").rows == [(2, 3), (3, 3)]


def test_a_statement_calling_a_procedure_is_not_kept():
    with engine.connect() as db:
        db.register_procedure("test.rows() :: (x :: INTEGER)", [{"x": 1}])
        statement = "CALL test.rows() YIELD x CREATE (:T {x: x})"
        db.execute(statement)
        db.register_procedure("test.rows() :: (x :: INTEGER)", [{"x": 2}])
        db.execute(statement)
        assert db.execute("MATCH (t:T) RETURN t.x AS x ORDER BY x").rows == [(1,), (2,)]
        assert hits(db) == 0


def test_a_plan_made_again_for_a_kept_tree_holds_what_the_rules_decided_and_nothing_the_data_did():
    """The rules' plan is made once per bound query; each run gets new steps, which the executor fills with
    what the data decides as it runs (level walks' tables, procedure rows, end-label facts)."""
    query = bind(parse("MATCH (a:P)-[:R]->(b:B) WITH DISTINCT b MATCH (b)-[*..2]->(c) RETURN c.v AS v")).parts[0]
    first = plan_single_query(query, final=True)
    for step in first.steps:
        step.level_walks[1] = "paths_of_the_first_run"
        step.prepared[1] = "rows_of_the_first_run"
        step.implied_labels[1] = frozenset({"B"})
        step.single_path_walks = step.loop_free = frozenset({1})
    again = plan_single_query(query, final=True)
    decided = [(s.clause, s.fused, s.ordered, s.distinct_input, s.final, s.may_walk_levels, s.relationships)
               for s in first.steps]
    assert [(s.clause, s.fused, s.ordered, s.distinct_input, s.final, s.may_walk_levels, s.relationships)
            for s in again.steps] == decided
    assert [step.relationships for step in again.steps] == [True, False, True, False]
    assert again.reads == first.reads
    for step in again.steps:
        assert (step.level_walks, step.prepared, step.implied_labels) == ({}, {}, {})
        assert step.single_path_walks == step.loop_free == frozenset()


def test_a_kept_statement_lets_go_of_its_parameters_values_once_it_has_run():
    """A batch of rows a load sends is not held by the kept tree until the text comes again."""
    import gc
    import weakref

    class Rows(list):
        """A list that can be referred to weakly."""

    with engine.connect() as db:
        db.execute("CREATE (:X {id: 0})")  # the column the load writes is there before it binds
        load = "UNWIND $rows AS row CREATE (:L {id: row.id})"
        db.execute(load, {"rows": Rows([{"id": 0}])})
        rows = Rows([{"id": i} for i in range(1, 100)])
        seen = weakref.ref(rows)
        db.execute(load, {"rows": rows})
        assert hits(db) == 1
        del rows
        gc.collect()
        assert seen() is None
        assert db.execute("MATCH (l:L) RETURN count(*) AS n").rows == [(100,)]
