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
