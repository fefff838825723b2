"""MERGE ... ON CREATE SET (ADR-0106): items a created element's INSERT can store are stored with it, and a MERGE
that creates nodes on the keys it matched runs no uniqueness check of those keys. Either must give what the
items run after the INSERT gave: values, counters, errors where they were, nothing written by a failed
statement, and every constraint still enforced."""

import pytest

import engine


@pytest.fixture
def db():
    with engine.connect(":memory:") as connection:
        yield connection


def counters(result):
    return {key: value for key, value in result.counters.items() if value}


def properties(db, label):
    return db.execute(f"MATCH (n:{label}) RETURN properties(n) AS p ORDER BY n.k").fetchall()


def test_on_create_values_are_stored_and_counted_once_per_created_node(db):
    result = db.execute("UNWIND [1, 2, 2, 3] AS i MERGE (n:Y {k: i})"
                        " ON CREATE SET n.v = i * 10, n.gone = null, n.tag = 'new' RETURN n.v, n.tag")
    assert result.fetchall() == [(10, "new"), (20, "new"), (20, "new"), (30, "new")]
    assert counters(result) == {"nodes_created": 3, "labels_added": 3, "properties_set": 9}
    assert properties(db, "Y") == [({"k": 1, "v": 10, "tag": "new"},), ({"k": 2, "v": 20, "tag": "new"},),
                                   ({"k": 3, "v": 30, "tag": "new"},)]


def test_on_create_runs_only_where_the_merge_creates(db):
    db.execute("CREATE (:Y {k: 1, v: 1})")
    result = db.execute("UNWIND [1, 5] AS i MERGE (n:Y {k: i}) ON CREATE SET n.v = i * 10 ON MATCH SET n.seen = true"
                        " RETURN n.k, n.v, n.seen")
    assert result.fetchall() == [(1, 1, True), (5, 50, None)]
    assert counters(result) == {"nodes_created": 1, "labels_added": 1, "properties_set": 3}


def test_an_on_create_value_of_a_row_is_read_from_the_row_that_created(db):
    result = db.execute("UNWIND [{k: 1, name: 'first'}, {k: 1, name: 'second'}] AS row"
                        " MERGE (n:E {k: row.k}) ON CREATE SET n.name = row.name RETURN n.name")
    assert result.fetchall() == [("first",), ("first",)]
    assert counters(result) == {"nodes_created": 1, "labels_added": 1, "properties_set": 2}


def test_items_keep_their_order_with_those_that_run_after_the_insert(db):
    assert db.execute("MERGE (n:W {k: 1}) ON CREATE SET n.a = 5, n += {a: 6} RETURN n.a").fetchall() == [(6,)]
    assert db.execute("MERGE (n:W {k: 2}) ON CREATE SET n += {a: 5}, n.a = 6 RETURN n.a").fetchall() == [(6,)]
    twice = db.execute("MERGE (n:W {k: 3}) ON CREATE SET n.a = 5, n.a = 7 RETURN n.a")
    assert twice.fetchall() == [(7,)]
    assert counters(twice)["properties_set"] == 3
    reading = db.execute("MERGE (n:W {k: 4}) ON CREATE SET n.a = 1, n.b = n.a + 1 RETURN n.a, n.b")
    assert reading.fetchall() == [(1, 2)]
    assert db.execute("MERGE (n:W {k: 5}) ON CREATE SET n.c = COUNT { (:W) } RETURN n.c").fetchall() == [(5,)]


def test_on_create_of_a_created_relationship_and_both_ends(db):
    db.execute("CREATE (:S {id: 'a', v: 3})")
    result = db.execute("MATCH (s:S {id: 'a'}) MERGE (s)-[r:R]->(x:Z {k: 1}) ON CREATE SET r.w = s.v, x.q = 'z'"
                        " RETURN r.w, x.q")
    assert result.fetchall() == [(3, "z")]
    assert counters(result) == {"nodes_created": 1, "relationships_created": 1, "labels_added": 1,
                                "properties_set": 3}


def test_a_failing_on_create_value_fails_the_statement_at_the_merge_and_writes_nothing(db):
    with pytest.raises(engine.CypherError) as raised:
        db.execute("UNWIND [1, 2] AS i MERGE (n:Y {k: i}) ON CREATE SET n.v = 10 / (i - 2)")
    assert (raised.value.span.line, raised.value.span.column) == (1, 20)
    assert "by zero" in str(raised.value)
    assert db.execute("MATCH (n) RETURN count(n)").fetchall() == [(0,)]
    with pytest.raises(engine.CypherError, match="non-null"):
        db.execute("MERGE (n:X {k: 5}) ON CREATE SET n.v = $list", {"list": [1, None]})
    with pytest.raises(engine.CypherError, match="primitive types"):
        db.execute("MERGE (n:X {k: 6}) ON CREATE SET n.v = {a: 1}")
    assert db.execute("MATCH (n) RETURN count(n)").fetchall() == [(0,)]


def test_a_merge_creating_nodes_keeps_every_uniqueness_constraint(db):
    db.execute("CREATE CONSTRAINT FOR (s:S) REQUIRE s.id IS UNIQUE")
    created = db.execute("UNWIND ['e', 'f', 'e'] AS i MERGE (n:S {id: i}) ON CREATE SET n.v = i RETURN n.v")
    assert created.fetchall() == [("e",), ("f",), ("e",)]
    assert counters(created) == {"nodes_created": 2, "labels_added": 2, "properties_set": 4}
    db.execute("CREATE (:S {id: 'b'})")
    for statement in ("MERGE (n:S:T {id: 'b'})",  # matches only nodes with both labels
                      "MERGE (n:S {id: 'c'}) ON CREATE SET n.id = 'b'",
                      "MERGE (n:S {id: 'd'}) ON CREATE SET n.v = 1, n.id = 'b'",
                      "MERGE (n:S {id: 'g', v: 1}) WITH n MERGE (m:S {id: 'g', v: 2})"):
        with pytest.raises(engine.ConstraintViolation):
            db.execute(statement)
    db.execute("CREATE (:S {id: 1})")
    assert db.execute("UNWIND [1, 1.0, 2] AS i MERGE (n:S {id: i}) RETURN n.id").fetchall() == [(1,), (1,), (2,)]
    assert db.execute("MATCH (n:S) DELETE n MERGE (m:S {id: 'b'}) RETURN m.id").fetchall() == [("b",)] * 5


def test_a_merge_creating_nodes_keeps_a_node_key_whole(db):
    db.execute("CREATE CONSTRAINT FOR (e:K) REQUIRE (e.a, e.b) IS NODE KEY")
    assert counters(db.execute("MERGE (e:K {a: 1, b: 2})"))["nodes_created"] == 1
    with pytest.raises(engine.ConstraintViolation, match="must have the properties"):
        db.execute("MERGE (e:K {a: 2}) ON CREATE SET e.c = 2")
    assert counters(db.execute("MERGE (e:K {a: 3}) ON CREATE SET e.b = 2"))["nodes_created"] == 1
    with pytest.raises(engine.ConstraintViolation, match="already exists"):
        db.execute("MERGE (e:K {a: 1, c: 1}) ON CREATE SET e.b = 2")
