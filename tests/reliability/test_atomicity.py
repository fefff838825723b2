"""Every statement is one transaction: a failure anywhere in it leaves the graph, its schema and its id
sequences exactly as they were, and the next statement runs as if the failed one had never been sent."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
import engine.errors
from tests.reliability.graph_state import counts, graph_state


def seeded() -> engine.Connection:
    """A graph with data, an index and a uniqueness constraint, so a failure has something to damage."""
    db = engine.connect(":memory:")
    db.execute("CREATE CONSTRAINT person_key FOR (p:Person) REQUIRE p.key IS UNIQUE")
    db.execute("CREATE INDEX item_name FOR (i:Item) ON (i.name)")
    db.execute("UNWIND range(1, 5) AS k CREATE (:Person {key: k, name: 'p' + toString(k)})")
    db.execute("MATCH (a:Person), (b:Person) WHERE a.key + 1 = b.key CREATE (a)-[:KNOWS {since: a.key}]->(b)")
    db.execute("CREATE (:Item {name: 'lamp'})-[:IN]->(:Room {name: 'hall'})")
    return db


FAILING = {
    # a uniqueness violation on the 4th row of an UNWIND, after three rows were created
    "unique on the Nth row": ("UNWIND [10, 11, 12, 3, 13] AS k CREATE (:Person {key: k})",
                              engine.ConstraintViolation),
    # the same, the duplicate inside the statement's own rows
    "unique among new rows": ("UNWIND [20, 21, 20] AS k CREATE (p:Person {key: k})-[:OWNS]->(:Item {name: 'x'})",
                              engine.ConstraintViolation),
    # a type error in a late clause, after creates, sets and a new property key
    "type error late": ("MATCH (p:Person) SET p.fresh = p.key CREATE (p)-[:HAS]->(:Tag {label: 'new'}) "
                        "WITH p, CASE WHEN p.key = 5 THEN 'five' ELSE p.key END AS v RETURN -v",
                        engine.CypherTypeError),
    # a deleted node that still has relationships
    "delete attached": ("MATCH (p:Person {key: 3}) DELETE p", engine.ConstraintViolation),
    # deletes and creates, then a division by zero in the projection
    "division late": ("MATCH (i:Item) DETACH DELETE i CREATE (:Ghost) WITH 1 AS one UNWIND [1, 0] AS d "
                      "RETURN one / d", engine.errors.CypherArithmeticError),
    # a MERGE that creates, then a SET that breaks the constraint
    "merge then set": ("MERGE (p:Person {key: 99}) WITH p MATCH (q:Person {key: 1}) SET q.key = 99",
                       engine.ConstraintViolation),
    # REMOVE and label changes, then a missing-property MERGE (null) error
    "merge null": ("MATCH (r:Room) REMOVE r.name SET r:Hall WITH r MERGE (:Person {key: r.name})",
                   engine.CypherSemanticError),
    # a schema command the data prevents
    "constraint the data breaks": ("CREATE CONSTRAINT dup FOR (p:Person) REQUIRE p.name IS UNIQUE",
                                   None),
}


@pytest.mark.parametrize("name", FAILING)
def test_a_failing_statement_changes_nothing(name):
    statement, error = FAILING[name]
    db, twin = seeded(), seeded()  # the twin never runs the failing statement
    for graph in (db, twin) if name == "constraint the data breaks" else ():
        graph.execute("CREATE (:Person {key: 100, name: 'p1'})")
    before = graph_state(db)
    with pytest.raises(error or engine.CypherError) as raised:
        db.execute(statement)
    assert raised.value.line is not None, "the error says where"
    assert graph_state(db) == before
    # the next statement runs normally and gets the ids the failed one would have taken
    after = "CREATE (n:After {fresh: 1})-[r:R]->(:After) RETURN id(n), id(r)"
    assert db.execute(after).fetchall() == twin.execute(after).fetchall()
    db.close()
    twin.close()


def test_a_new_property_key_of_a_failed_statement_is_forgotten():
    db = seeded()
    with pytest.raises(engine.ConstraintViolation):
        db.execute("UNWIND [1, 2] AS k CREATE (:Person {key: 1, brandNew: 'x'})")
    assert "brandNew" not in str(db.schema())
    db.execute("CREATE (:Other {brandNew: 42})")
    assert db.execute("MATCH (o:Other) RETURN o.brandNew").fetchall() == [(42,)]


def test_a_script_commits_statement_by_statement():
    db = seeded()
    nodes, _ = counts(db)
    with pytest.raises(engine.ConstraintViolation) as raised:
        db.execute_script("CREATE (:A);\nCREATE (:B);\nUNWIND [1, 1] AS k CREATE (:Person {key: 50});\nCREATE (:C)")
    assert raised.value.line == 3
    assert counts(db)[0] == nodes + 2
    assert db.execute("MATCH (n) WHERE n:C OR (n:Person AND n.key = 50) RETURN n").fetchall() == []


@settings(max_examples=12, deadline=None)
@given(size=st.integers(2, 40), data=st.data())
def test_a_violation_on_any_row_rolls_back_every_row(size, data):
    """Whatever row of an UNWIND breaks the constraint, none of the rows before it stays."""
    at = data.draw(st.integers(1, size - 1))
    keys = list(range(1000, 1000 + size))
    keys[at] = keys[data.draw(st.integers(0, at - 1))]
    db = seeded()
    before = graph_state(db)
    with pytest.raises(engine.ConstraintViolation):
        db.execute("UNWIND $keys AS k CREATE (p:Person {key: k})-[:OWNS]->(:Item {name: toString(k)})",
                   {"keys": keys})
    assert graph_state(db) == before
    db.close()


def test_explaining_a_write_leaves_the_catalog_as_stored():
    """`explain` runs the statement and rolls it back; a property column it added must be forgotten too
    (it was kept in the catalog, and the next SET of that key failed with an internal error)."""
    db = engine.connect(":memory:")
    db.execute("CREATE (:T {v: 1})")
    before = graph_state(db)
    db.explain("MATCH (n:T) SET n.brandNew = 1, n.v = 'now a string'")
    assert graph_state(db) == before
    db.execute("MATCH (n:T) SET n.brandNew = 2")
    assert db.execute("MATCH (n:T) RETURN n.brandNew, n.v").fetchall() == [(2, 1)]
