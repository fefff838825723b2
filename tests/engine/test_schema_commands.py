"""Schema commands: the cases the conformance page `tests/conformance/schema.md` found the engine getting
wrong. CREATE INDEX ... IF NOT EXISTS still fails on a constraint of that name (Neo4j's
DoNothingIfExistsForIndex skips only an index of that name or schema), and property type constraints
(`REQUIRE n.p IS :: TYPE`, Cypher Manual › Constraints › Create property type constraints)."""

from __future__ import annotations

import pytest

import engine


def error_of(db: engine.Connection, query: str) -> tuple[str, str | None, str]:
    with pytest.raises(engine.CypherError) as raised:
        db.execute(query)
    return raised.value.kind, raised.value.detail, raised.value.message


@pytest.fixture
def db():
    with engine.connect(":memory:") as connection:
        yield connection


def test_index_if_not_exists_named_like_a_constraint_fails(db) -> None:
    db.execute("CREATE CONSTRAINT author_name FOR (a:Author) REQUIRE a.name IS NOT NULL")
    assert error_of(db, "CREATE INDEX author_name IF NOT EXISTS FOR (a:Author) ON (a.surname)")[:2] == (
        "SchemaError", "ConstraintWithNameAlreadyExists")


def test_index_if_not_exists_on_a_constraints_backing_index_is_a_no_op(db) -> None:
    db.execute("CREATE CONSTRAINT book_isbn FOR (b:Book) REQUIRE b.isbn IS UNIQUE")
    result = db.execute("CREATE INDEX other IF NOT EXISTS FOR (b:Book) ON (b.isbn)")
    assert not any(result.counters.values())


def test_property_type_constraints_are_created_shown_and_dropped(db) -> None:
    result = db.execute("CREATE CONSTRAINT movie_tagline FOR (m:Movie) REQUIRE m.tagline IS :: LIST<STRING NOT NULL>"
                        " | STRING")
    assert result.counters["constraints_added"] == 1
    shown = db.execute("SHOW CONSTRAINTS YIELD name, type, propertyType, ownedIndex, createStatement").fetchall()
    assert shown == [("movie_tagline", "NODE_PROPERTY_TYPE", "STRING | LIST<STRING NOT NULL>", None,
                      "CREATE CONSTRAINT `movie_tagline` FOR (n:`Movie`) REQUIRE (n.`tagline`) IS :: STRING | "
                      "LIST<STRING NOT NULL>")]
    assert db.execute("DROP CONSTRAINT movie_tagline").counters["constraints_removed"] == 1


def test_property_type_constraints_are_enforced(db) -> None:
    db.execute("CREATE CONSTRAINT part_of FOR ()-[p:PART_OF]-() REQUIRE p.order IS :: INTEGER")
    db.execute("CREATE (:Movie)-[:PART_OF {order: 3}]->(:Franchise), (:Movie)-[:PART_OF]->(:Franchise)")
    assert error_of(db, "MATCH ()-[p:PART_OF {order: 3}]->() SET p.order = '1'") == (
        "ConstraintValidationFailed", "PropertyTypeViolation",
        "Relationship(0) with type `PART_OF` required the property `order` to be of type `INTEGER`, but was of "
        "type `STRING`.")
    assert db.execute("MATCH ()-[p:PART_OF]->() RETURN p.order ORDER BY p.order").fetchall() == [(3,), (None,)]


def test_property_type_constraints_check_existing_data_and_other_types(db) -> None:
    db.execute("CREATE (:Person {age: '42'})")
    kind, detail, message = error_of(db, "CREATE CONSTRAINT person_age FOR (p:Person) REQUIRE p.age IS :: INTEGER")
    assert (kind, detail) == ("SchemaError", "ConstraintCreationFailed")
    assert message.endswith("but was of type `STRING`. Note that only the first found violation is shown.")
    db.execute("CREATE CONSTRAINT person_age FOR (p:Person) REQUIRE p.age IS :: STRING")
    assert error_of(db, "CREATE CONSTRAINT other IF NOT EXISTS FOR (p:Person) REQUIRE p.age IS :: INTEGER")[:2] == (
        "SchemaError", "ConstraintAlreadyExists")
    assert not any(db.execute("CREATE CONSTRAINT other IF NOT EXISTS FOR (p:Person) REQUIRE p.age IS :: STRING")
                   .counters.values())


@pytest.mark.parametrize("type_name", ["MAP", "STRING NOT NULL", "LIST<STRING>", "NODE"])
def test_property_type_constraints_refuse_types_a_property_cannot_be(db, type_name: str) -> None:
    assert error_of(db, f"CREATE CONSTRAINT c FOR (m:Movie) REQUIRE m.p IS :: {type_name}")[:2] == (
        "SyntaxError", "InvalidPropertyType")
