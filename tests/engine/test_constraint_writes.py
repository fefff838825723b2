"""Every kind of write that can break a constraint is caught: constraint checks look only at the
constraints a clause's writes may break (constraints.Write.may_break), so each writer must report them."""

import pytest

import engine

SCHEMA = [
    "CREATE CONSTRAINT person_name FOR (p:Person) REQUIRE p.name IS UNIQUE",
    "CREATE CONSTRAINT author_name FOR (a:Author) REQUIRE a.name IS NOT NULL",
    "CREATE CONSTRAINT book_year FOR (b:Book) REQUIRE b.year IS :: INTEGER",
    "CREATE CONSTRAINT knows_since FOR ()-[k:KNOWS]-() REQUIRE k.since IS UNIQUE",
    "CREATE CONSTRAINT wrote_year FOR ()-[w:WROTE]-() REQUIRE w.year IS NOT NULL",
    "CREATE (:Person {name: 'Ann'}), (:Other {name: 'Ann'}), (:Author {name: 'Bo'}), (:Book {year: 1965}),"
    " (:Person {name: 'Cy'})-[:KNOWS {since: 1}]->(:Person {name: 'Di'})",
    "MATCH (a:Author), (b:Book) CREATE (a)-[:WROTE {year: 1965}]->(b)",
]

VIOLATIONS = [
    ("CREATE (:Person {name: 'Ann'})", "PropertyUniquenessViolation"),
    ("MATCH (p:Person {name: 'Cy'}) SET p.name = 'Ann'", "PropertyUniquenessViolation"),
    ("MATCH (p:Person {name: 'Cy'}) SET p.name = 'Ann', p.age = 3", "PropertyUniquenessViolation"),
    ("MATCH (p:Person {name: 'Cy'}) SET p += {name: 'Ann'}", "PropertyUniquenessViolation"),
    ("MATCH (p:Person {name: 'Cy'}) SET p = {name: 'Ann'}", "PropertyUniquenessViolation"),
    ("MATCH (o:Other) SET o:Person", "PropertyUniquenessViolation"),
    ("MERGE (p:Person {name: 'Eve'}) ON CREATE SET p.name = 'Ann'", "PropertyUniquenessViolation"),
    ("FOREACH (x IN [1] | CREATE (:Person {name: 'Ann'}))", "PropertyUniquenessViolation"),
    ("UNWIND [1, 2] AS x CALL (x) { CREATE (:Person {name: 'Fay'}) }", "PropertyUniquenessViolation"),
    ("MATCH (a:Person {name: 'Cy'}), (b:Person {name: 'Ann'}) CREATE (a)-[:KNOWS {since: 1}]->(b)",
     "PropertyUniquenessViolation"),
    ("MATCH (a:Person {name: 'Cy'}), (b:Person {name: 'Ann'}) CREATE (a)-[k:KNOWS]->(b) SET k.since = 1",
     "PropertyUniquenessViolation"),
    ("CREATE (:Author)", "PropertyExistenceViolation"),
    ("CREATE (:Author {name: null})", "PropertyExistenceViolation"),
    ("MATCH (a:Author) REMOVE a.name", "PropertyExistenceViolation"),
    ("MATCH (a:Author) SET a.name = null", "PropertyExistenceViolation"),
    ("MATCH (a:Author) SET a = {born: 1920}", "PropertyExistenceViolation"),
    ("MATCH (o:Other) REMOVE o.name SET o:Author", "PropertyExistenceViolation"),
    ("FOREACH (x IN [1] | CREATE (:Author))", "PropertyExistenceViolation"),
    ("MATCH (a:Author), (b:Book) CREATE (a)-[:WROTE]->(b)", "PropertyExistenceViolation"),
    ("MATCH ()-[w:WROTE]->() REMOVE w.year", "PropertyExistenceViolation"),
    ("CREATE (:Book {year: '1965'})", "PropertyTypeViolation"),
    ("MATCH (b:Book) SET b.year = 1965.5", "PropertyTypeViolation"),
    ("MATCH (o:Other) SET o.year = 'x', o:Book", "PropertyTypeViolation"),
]


@pytest.fixture(scope="module")
def db():
    with engine.connect(":memory:") as connection:
        for statement in SCHEMA:
            connection.execute(statement)
        yield connection


@pytest.mark.parametrize(("statement", "detail"), VIOLATIONS)
def test_a_write_that_breaks_a_constraint_fails(db, statement, detail):
    before = db.execute("MATCH (n) RETURN count(n) AS n").fetchall()
    with pytest.raises(engine.ConstraintViolation) as raised:
        db.execute(statement)
    assert raised.value.detail == detail
    assert db.execute("MATCH (n) RETURN count(n) AS n").fetchall() == before


@pytest.mark.parametrize("statement", [
    "CREATE (:Other {name: 'Ann'})",
    "MATCH (p:Person {name: 'Cy'}) SET p.age = 3",
    "MATCH (p:Person {name: 'Cy'}) SET p.name = 'Cyd'",
    "CREATE (:Author {name: 'Al'})-[:WROTE {year: 2000}]->(:Book {year: 2000})",
    "MATCH (a:Author {name: 'Al'}) DETACH DELETE a",
])
def test_a_write_that_keeps_the_constraints_passes(db, statement):
    db.execute(statement)
