"""A MERGE of a relationship at a node the statement created does not look for a match where none can be
(ADR-0106, plan/rules/fresh_nodes.py): the node has only the relationships the statement gave it. Wherever
the statement may have given it one of the MERGE's type, the MERGE still finds it."""

import pytest

import engine


@pytest.fixture
def db():
    with engine.connect(":memory:") as connection:
        connection.execute("CREATE (:X {k: 1}), (:X {k: 2})")
        yield connection


def created(db, statement):
    result = db.execute(statement)
    result.fetchall()
    return result.counters["relationships_created"], db.execute("MATCH ()-[r:R]->() RETURN count(r)").fetchall()[0][0]


@pytest.mark.parametrize(("statement", "expected"), [
    # nothing of type R at m before: every row creates, one relationship per distinct pair
    ("CREATE (m:M)-[:IN]->(:S) WITH m UNWIND [1, 1, 2] AS i MATCH (x:X {k: i}) MERGE (m)-[:R]->(x)", (3, 2)),
    ("UNWIND [1, 2] AS i CREATE (m:M {i: i}) WITH m MATCH (x:X) MERGE (m)-[:R]->(x) RETURN m.i", (4, 4)),
    # R given to m before the MERGE: found
    ("CREATE (m:M)-[:R]->(x:X) WITH m, x MERGE (m)-[:R]->(x)", (1, 1)),
    ("CREATE (m:M) WITH m MATCH (x:X {k: 1}) MERGE (m)-[:R]->(x) WITH m, x MERGE (m)-[:R]->(x)", (1, 1)),
    ("CREATE (m:M) WITH m MATCH (x:X {k: 1}) CREATE (x)-[:R]->(m) WITH m, x MERGE (m)<-[:R]-(x)", (1, 1)),
    ("CREATE (m:M) WITH m MATCH (x:X {k: 1}) CALL (m, x) { CREATE (m)-[:R]->(x) } MERGE (m)-[:R]->(x)", (1, 1)),
    ("CREATE (m:M) WITH m MATCH (x:X {k: 1}) FOREACH (i IN [1] | CREATE (m)-[:R]->(x)) MERGE (m)-[:R]->(x)",
     (1, 1)),
    ("CREATE (m:M) WITH m MATCH (x:X {k: 1}) CREATE (m)-[:$('R')]->(x) WITH m, x MERGE (m)-[:R]->(x)", (1, 1)),
    ("CREATE (m:M) WITH m MATCH (x:X {k: 1}) CALL apoc.create.relationship(m, 'R', {}, x) YIELD rel"
     " WITH m, x MERGE (m)-[:R]->(x)", (1, 1)),
])
def test_a_merge_at_a_created_node_finds_what_the_statement_gave_it(db, statement, expected):
    assert created(db, statement) == expected


def test_a_merge_at_a_matched_node_still_matches(db):
    db.execute("MATCH (x:X {k: 1}) CREATE (:M {k: 1})-[:R]->(x)")
    assert created(db, "MATCH (m:M {k: 1}), (x:X {k: 1}) MERGE (m)-[:R]->(x)") == (0, 1)
    assert created(db, "MATCH (m:M {k: 1}) WITH m CREATE (n:N) WITH m, n MATCH (x:X {k: 1}) MERGE (m)-[:R]->(x)"
                       " MERGE (n)-[:R]->(x)") == (1, 2)


def test_a_merge_that_creates_at_a_created_node_counts_and_fails_as_before(db):
    result = db.execute("CREATE (m:M) WITH m UNWIND [1, 2, 2] AS i MATCH (x:X {k: i})"
                        " MERGE (m)-[r:R {w: i}]->(x) ON CREATE SET r.first = i RETURN r.w, r.first")
    assert result.fetchall() == [(1, 1), (2, 2), (2, 2)]
    assert result.counters["relationships_created"] == 2 and result.counters["properties_set"] == 4
    with pytest.raises(engine.CypherError):
        db.execute("CREATE (m:M) WITH m OPTIONAL MATCH (x:Nothing) MERGE (m)-[:R]->(x)")
    assert db.execute("MATCH (m:M) RETURN count(m)").fetchall() == [(1,)]


def test_no_match_is_looked_for_at_a_node_without_relationships_of_the_type(db):
    _, trace = db.explain("CREATE (m:M)-[:IN]->(:S) WITH m MATCH (x:X) MERGE (m)-[:R]->(x)")
    assert not any("JOIN rels" in sql for sql, _ in trace)
    _, trace = db.explain("CREATE (m:M)-[:R]->(:S) WITH m MATCH (x:X) MERGE (m)-[:R]->(x)")
    assert any("JOIN rels" in sql for sql, _ in trace)


def test_a_last_merge_that_can_match_nothing_creates_in_one_insert(db):
    """ADR-0116: the MERGE's rows are read once by its INSERT; no table of them or of their groups is stored."""
    statement = ("CREATE (m:M) WITH m UNWIND [1, 2, 2, 1, 2] AS i MATCH (x:X {k: i})"
                 " MERGE (m)-[r:R {w: i % 2}]->(x) ON CREATE SET r.first = i")
    _, trace = db.explain(statement)
    merge_sql = [sql for sql, _ in trace if "INSERT INTO rels" in sql]
    assert len(merge_sql) == 1 and not any("__rep" in sql for sql, _ in trace)
    result = db.execute(statement)
    assert result.counters["relationships_created"] == 2 and result.counters["properties_set"] == 4
    assert db.execute("MATCH (:M)-[r:R]->(x:X) RETURN x.k, r.w, r.first ORDER BY x.k").fetchall() == [
        (1, 1, 1), (2, 0, 2)]
    # ids stay dense: the next relationship takes the id after the MERGE's last
    ids = db.execute("MATCH ()-[r:R]->() RETURN id(r) ORDER BY id(r)").fetchall()
    db.execute("CREATE (:N)-[:Q]->(:N)")
    assert db.execute("MATCH ()-[q:Q]->() RETURN id(q)").fetchall() == [(ids[-1][0] + 1,)]


def test_a_last_merge_at_once_that_fails_leaves_nothing_and_takes_no_ids(db):
    before = db.execute("CREATE (:N)-[q:Q]->(:N) RETURN id(q)").fetchall()[0][0]
    with pytest.raises(engine.CypherError) as failure:
        db.execute("CREATE (m:M) WITH m UNWIND [1, 5] AS i OPTIONAL MATCH (x:X {k: i}) MERGE (m)-[:R]->(x)")
    assert failure.value.span is not None and failure.value.detail == "CreateRelationshipWithNullNode"
    with pytest.raises(engine.CypherError):  # a null property value in the pattern
        db.execute("CREATE (m:M) WITH m UNWIND [1, null] AS i MATCH (x:X) MERGE (m)-[:R {w: i}]->(x)")
    assert db.execute("MATCH (m:M) RETURN count(m)").fetchall() == [(0,)]
    assert db.execute("CREATE (:N)-[q:Q]->(:N) RETURN id(q)").fetchall() == [(before + 1,)]


def test_a_last_merge_at_once_reads_the_values_its_rows_bind(db):
    result = db.execute("CREATE (m:M) WITH m UNWIND $pairs AS p MATCH (x:X {k: p.k})"
                        " MERGE (m)-[:R {tag: toLower(p.tag)}]->(x)",
                        {"pairs": [{"k": 1, "tag": "A"}, {"k": 1, "tag": "a"}, {"k": 2, "tag": "B"}]})
    assert result.counters["relationships_created"] == 2
    assert db.execute("MATCH (:M)-[r:R]->(x) RETURN x.k, r.tag ORDER BY x.k").fetchall() == [(1, "a"), (2, "b")]


def test_a_last_merge_at_once_refuses_a_set_of_its_own_key_over_rows_it_read_in_place(db):
    with pytest.raises(engine.CypherError, match="ON CREATE or ON MATCH SET"):
        db.execute("CREATE (m:M) WITH m UNWIND $ks AS k MATCH (x:X {k: k})"
                   " MERGE (m)-[r:R {w: k}]->(x) ON CREATE SET r.w = 0", {"ks": [1, 2]})

