"""SET where one element is the target of several rows (set_items.py `_write_per_target`): the last row's
value is written, and propertiesSet counts as Neo4j's row-by-row write does: every value set, and every
null that removes a property present at its row's turn (set by the statement's earlier row or stored)."""

import pytest

import engine

CASES = [
    # several rows, one value each: every row counts, the last one's value stays
    (["CREATE (:N {k: 1}), (:N {k: 2})"], "UNWIND [1, 2, 3] AS x MATCH (n:N) SET n.v = x",
     "MATCH (n:N) RETURN n.k, n.v ORDER BY n.k", 6, [(1, 3), (2, 3)]),
    # a null after a value removes what the row before set, though the node had no such property
    (["CREATE (:N {k: 1})"], "UNWIND [1, null] AS x MATCH (n:N) SET n.v = x",
     "MATCH (n:N) RETURN n.k, n.v", 2, [(1, None)]),
    (["CREATE (:N {k: 1, v: 5})"], "UNWIND [1, null] AS x MATCH (n:N) SET n.v = x",
     "MATCH (n:N) RETURN n.k, n.v", 2, [(1, None)]),
    # a first null removes the stored value, then the value is set
    (["CREATE (:N {k: 1, v: 5})"], "UNWIND [null, 1] AS x MATCH (n:N) SET n.v = x",
     "MATCH (n:N) RETURN n.k, n.v", 2, [(1, 1)]),
    # nulls only: one removal where the property is there, none where it is not
    (["CREATE (:N {k: 1, v: 5}), (:N {k: 2})"], "UNWIND [null, null] AS x MATCH (n:N) SET n.v = x",
     "MATCH (n:N) RETURN n.k, n.v ORDER BY n.k", 1, [(1, None), (2, None)]),
    (["CREATE (:N {k: 1, v: 5})"], "UNWIND [null, 1, null, null] AS x MATCH (n:N) SET n.v = x",
     "MATCH (n:N) RETURN n.k, n.v", 3, [(1, None)]),
    # several keys in one UPDATE (`_property_groups`), each counted row by row
    (["CREATE (:N {k: 1, v: 5}), (:N {k: 2})"], "UNWIND [null, 7] AS x MATCH (n:N) SET n.v = x, n.w = x + 1",
     "MATCH (n:N) RETURN n.k, n.v, n.w ORDER BY n.k", 5, [(1, 7, 8), (2, 7, 8)]),
    (["CREATE (:N {k: 1, v: 5}), (:N {k: 2})"], "UNWIND [7, null] AS x MATCH (n:N) SET n.v = x, n.w = x + 1",
     "MATCH (n:N) RETURN n.k, n.v, n.w ORDER BY n.k", 8, [(1, None, None), (2, None, None)]),
    # relationships
    (["CREATE (:N)-[:R {w: 1}]->(:N)"], "UNWIND [3, null, 4] AS x MATCH ()-[r:R]->() SET r.w = x",
     "MATCH ()-[r:R]->() RETURN r.w, 0", 3, [(4, 0)]),
    # a value drawn at random is computed once for the count and the write
    (["CREATE (:N {k: 1, v: 5}), (:N {k: 2})"],
     "UNWIND [1, 2] AS x MATCH (n:N) SET n.v = CASE WHEN rand() < 2 THEN x END",
     "MATCH (n:N) RETURN n.k, n.v ORDER BY n.k", 4, [(1, 2), (2, 2)]),
    # an indexed key: the index follows the last value
    (["CREATE INDEX i FOR (n:N) ON (n.v)", "CREATE (:N {k: 1, v: 5}), (:N {k: 2})"],
     "UNWIND [1, null, 3] AS x MATCH (n:N) SET n.v = x", "MATCH (n:N) WHERE n.v = 3 RETURN n.k, n.v ORDER BY n.k",
     6, [(1, 3), (2, 3)]),
    (["CREATE INDEX i FOR (n:N) ON (n.v)", "CREATE (:N {k: 1, v: 5}), (:N {k: 2})"],
     "UNWIND [1, null] AS x MATCH (n:N) SET n.v = x", "MATCH (n:N) WHERE n.v IS NOT NULL RETURN n.k, n.v", 4, []),
    # REMOVE over several rows of one node counts the one removal
    (["CREATE (:N {k: 1, v: 5}), (:N {k: 2})"], "UNWIND [1, 2] AS x MATCH (n:N) REMOVE n.v",
     "MATCH (n:N) RETURN n.k, n.v ORDER BY n.k", 1, [(1, None), (2, None)]),
]


@pytest.mark.parametrize(("setup", "statement", "read", "properties_set", "rows"), CASES)
def test_recurring_target_counts_and_values(setup, statement, read, properties_set, rows):
    with engine.connect(":memory:") as db:
        for text in setup:
            db.execute(text)
        result = db.execute(statement)
        assert result.counters["properties_set"] == properties_set
        assert db.execute(read).fetchall() == rows


def test_supersede_shape_writes_a_shared_old_item_once_per_row():
    """The seed's supersede statement where two new items pick the same older one: both rows set it (two
    properties set), the later row's value stays, and each row gets its relationship."""
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:Fact {slot: 'a', seq: 1}), (:Fact {slot: 'a', seq: 2, at: 10}),"
                   " (:Fact {slot: 'a', seq: 2, at: 20}), (:Fact {slot: 'b', seq: 2, at: 30})")
        result = db.execute(
            "UNWIND $messages AS msg MATCH (new:Fact {seq: msg.seq, at: msg.at}) WHERE new.slot <> ''"
            " CALL (new) { MATCH (old:Fact {slot: new.slot}) WHERE old.seq < new.seq AND labels(old) = labels(new)"
            " RETURN old ORDER BY old.seq DESC LIMIT 1 }"
            " SET old.supersededAt = new.at CREATE (new)-[:SUPERSEDES]->(old)",
            {"messages": [{"seq": 2, "at": 10}, {"seq": 2, "at": 20}, {"seq": 2, "at": 30}]})
        assert result.counters["properties_set"] == 2
        assert result.counters["relationships_created"] == 2
        assert db.execute("MATCH (f:Fact) RETURN f.seq, f.at, f.supersededAt ORDER BY f.seq, f.at").fetchall() == [
            (1, None, 20), (2, 10, None), (2, 20, None), (2, 30, None)]
        assert db.execute("MATCH (n)-[:SUPERSEDES]->(o) RETURN n.at, o.seq ORDER BY n.at").fetchall() == [
            (10, 1), (20, 1)]
