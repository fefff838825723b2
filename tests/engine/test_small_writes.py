"""Small writes take shorter paths (ADR-0085, ADR-0095): MERGE over one row stores no keys, groups or rows after
it; `MATCH (x ...) SET x.key = value` is one UPDATE over the MATCH's SELECT, and so is a last `MERGE (x ...)
ON MATCH SET x.key = value`, whose count tells whether it matched. Each path must give what the
general one gives: counters, stored values, errors where they were, constraints and indexes followed, and
no path chosen for a statement sent again after the schema changed under it."""

import pytest

import engine

SET_SEEN = "MATCH (p:P {id: $id}) SET p.seen = coalesce(p.seen, 0) + 1"


@pytest.fixture
def db():
    with engine.connect(":memory:") as connection:
        connection.execute("UNWIND range(0, 9) AS i CREATE (:P {id: i, seen: 0})")
        yield connection


def values(db, key):
    return dict(db.execute(f"MATCH (p:P) RETURN p.id AS id, p.{key} AS v").fetchall())


def refused_after(db, statement, first, constraint, second):
    """`statement` runs with `first`, then `constraint` is made, and the same statement sent with `second`
    breaks it."""
    db.execute(statement, first)
    db.execute(constraint)
    with pytest.raises(engine.ConstraintViolation):
        db.execute(statement, second)


def test_set_of_one_property_counts_and_writes_each_matched_node_once(db):
    assert db.execute(SET_SEEN, {"id": 3}).counters["properties_set"] == 1
    assert db.execute(SET_SEEN, {"id": 3}).counters["properties_set"] == 1
    assert db.execute(SET_SEEN, {"id": 99}).counters["properties_set"] == 0
    assert values(db, "seen")[3] == 2
    every = db.execute("MATCH (p:P) WHERE p.id < 4 SET p.seen = p.seen + 10")
    assert every.counters["properties_set"] == 4
    assert values(db, "seen") == {0: 10, 1: 10, 2: 10, 3: 12, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0, 9: 0}


def test_set_of_null_counts_only_a_value_removed(db):
    assert db.execute("MATCH (p:P) WHERE p.id < 2 SET p.gone = null").counters["properties_set"] == 0
    assert db.execute("MATCH (p:P {id: 1}) SET p.seen = null").counters["properties_set"] == 1
    assert db.execute("MATCH (p:P {id: 1}) SET p.seen = null").counters["properties_set"] == 0
    assert values(db, "seen")[1] is None


def test_set_keeps_the_rows_of_an_optional_match_that_found_nothing(db):
    result = db.execute("OPTIONAL MATCH (p:P {id: 42}) SET p.seen = 5")
    assert result.counters["properties_set"] == 0


def test_an_error_in_the_match_is_raised_on_the_match_and_one_in_the_value_on_the_set(db):
    statement = "MATCH (p:P) WHERE 10 / (p.id - p.id) = 1 SET p.seen = 1"
    with pytest.raises(engine.CypherError) as raised:
        db.execute(statement)
    assert raised.value.span.column == 1
    statement = "MATCH (p:P {id: 1}) SET p.seen = 10 / (p.id - 1)"
    with pytest.raises(engine.CypherError) as raised:
        db.execute(statement)
    assert raised.value.span.column == statement.index("SET") + 1
    assert values(db, "seen")[1] == 0  # rolled back


def test_a_set_sent_again_sees_a_widened_column(db):
    db.execute(SET_SEEN, {"id": 1})
    db.execute("MATCH (p:P {id: $id}) SET p.seen = $v", {"id": 2, "v": "two"})
    db.execute(SET_SEEN, {"id": 3})
    db.execute("MATCH (p:P {id: $id}) SET p.seen = $v", {"id": 4, "v": 4.5})
    assert values(db, "seen") == {0: 0, 1: 1, 2: "two", 3: 1, 4: 4.5, 5: 0, 6: 0, 7: 0, 8: 0, 9: 0}


def test_a_set_sent_again_meets_a_constraint_made_between_the_runs(db):
    statement = "MATCH (p:P {id: $id}) SET p.email = $email"
    refused_after(db, statement, {"id": 1, "email": "a@x"}, "CREATE CONSTRAINT p_email FOR (p:P) REQUIRE p.email"
                  " IS UNIQUE", {"id": 2, "email": "a@x"})
    db.execute("CREATE CONSTRAINT p_seen FOR (p:P) REQUIRE p.seen IS :: INTEGER")
    with pytest.raises(engine.ConstraintViolation):
        db.execute("MATCH (p:P {id: $id}) SET p.seen = $v", {"id": 3, "v": 1.5})
    db.execute(statement, {"id": 2, "email": "b@x"})
    assert values(db, "email") == {0: None, 1: "a@x", 2: "b@x", 3: None, 4: None, 5: None, 6: None, 7: None,
                                   8: None, 9: None}
    assert values(db, "seen")[3] == 0


def test_a_set_sent_again_keeps_an_index_made_between_the_runs_up_to_date(db):
    statement = "MATCH (p:P {id: $id}) SET p.title = $title"
    db.execute(statement, {"id": 1, "title": "apple"})
    db.execute("CREATE FULLTEXT INDEX titles FOR (n:P) ON EACH [n.title]")
    db.execute(statement, {"id": 2, "title": "zebra crossing"})
    db.execute(statement, {"id": 1, "title": "zebra"})
    found = db.execute("CALL db.index.fulltext.queryNodes('titles', 'zebra') YIELD node"
                       " RETURN node.id AS id ORDER BY id").fetchall()
    assert found == [(1,), (2,)]


def test_merge_of_one_row_that_matches_sets_on_match_only(db):
    result = db.execute("MERGE (p:P {id: $id}) ON MATCH SET p.n = 1 ON CREATE SET p.c = 1", {"id": 4})
    assert (result.counters["nodes_created"], result.counters["properties_set"]) == (0, 1)
    assert values(db, "n")[4] == 1 and values(db, "c")[4] is None
    result = db.execute("MERGE (p:P) ON MATCH SET p.n = 2 RETURN count(p) AS n")
    assert result.fetchall() == [(10,)] and result.counters["properties_set"] == 10


def test_merge_of_one_row_that_creates_sets_on_create_only(db):
    statement = "MERGE (q:Q {id: $id}) ON MATCH SET q.n = 1 ON CREATE SET q.c = $c RETURN q.id AS id, q.c AS c"
    result = db.execute(statement, {"id": 7, "c": "new"})
    assert result.fetchall() == [(7, "new")]
    assert (result.counters["nodes_created"], result.counters["properties_set"]) == (1, 2)
    again = db.execute(statement, {"id": 7, "c": "other"})
    assert again.fetchall() == [(7, "new")]
    assert (again.counters["nodes_created"], again.counters["properties_set"]) == (0, 1)
    assert db.execute("MATCH (q:Q) RETURN count(q) AS n, collect(q.n) AS ns").fetchall() == [(1, [1])]


def test_merge_of_one_row_refuses_a_null_property_and_writes_nothing(db):
    for statement, params in (("MERGE (q:Q {id: $id})", {"id": None}),
                              ("MERGE (q:Q {id: $row.id})", {"row": {}}),
                              ("WITH {a: 1} AS row MERGE (q:Q {id: row.b})", {})):
        with pytest.raises(engine.CypherError) as raised:
            db.execute(statement, params)
        assert raised.value.detail == "MergeReadOwnWrites"
    assert db.execute("MATCH (q:Q) RETURN count(q) AS n").fetchall() == [(0,)]


def test_merge_of_one_relationship_between_matched_nodes_creates_then_matches(db):
    statement = ("MATCH (a:P {id: 1}), (b:P {id: 2}) MERGE (a)-[r:R {w: $w}]->(b) ON CREATE SET r.new = true"
                 " ON MATCH SET r.new = false RETURN r.new AS new")
    first = db.execute(statement, {"w": 1})
    assert first.fetchall() == [(True,)] and first.counters["relationships_created"] == 1
    second = db.execute(statement, {"w": 1})
    assert second.fetchall() == [(False,)] and second.counters["relationships_created"] == 0
    assert db.execute("MATCH ()-[r:R]->() RETURN count(r) AS n").fetchall() == [(1,)]


def test_merge_sent_again_meets_a_constraint_made_between_the_runs(db):
    refused_after(db, "MERGE (q:Q {id: $id}) ON CREATE SET q.name = $name", {"id": 1, "name": "x"},
                  "CREATE CONSTRAINT q_name FOR (q:Q) REQUIRE q.name IS UNIQUE", {"id": 2, "name": "x"})
    assert db.execute("MATCH (q:Q) RETURN count(q) AS n").fetchall() == [(1,)]


MERGE_SEEN = "MERGE (p:P {id: $id}) ON MATCH SET p.n = $n ON CREATE SET p.c = true"


def test_merge_last_with_on_match_set_counts_each_match_and_creates_when_none(db):
    result = db.execute(MERGE_SEEN, {"id": 4, "n": 1})
    assert (result.counters["nodes_created"], result.counters["properties_set"]) == (0, 1)
    again = db.execute(MERGE_SEEN, {"id": 4, "n": 1})  # the same value again still sets it, as Neo4j counts
    assert (again.counters["nodes_created"], again.counters["properties_set"]) == (0, 1)
    created = db.execute(MERGE_SEEN, {"id": 42, "n": 1})
    assert (created.counters["nodes_created"], created.counters["properties_set"]) == (1, 2)
    db.execute("CREATE (:P {id: 4})")
    both = db.execute(MERGE_SEEN, {"id": 4, "n": 2})
    assert (both.counters["nodes_created"], both.counters["properties_set"]) == (0, 2)
    found = db.execute("MATCH (p:P) WHERE p.id IN [4, 42] RETURN p.id AS id, p.n AS n, p.c AS c"
                       " ORDER BY id, n").fetchall()
    assert found == [(4, 2, None), (4, 2, None), (42, None, True)]


def test_merge_on_match_set_read_after_or_profiled_gives_the_rows(db):
    result = db.execute("MERGE (p:P {id: $id}) ON MATCH SET p.n = 5 RETURN p.n AS n", {"id": 2})
    assert result.fetchall() == [(5,)] and result.counters["properties_set"] == 1
    profiled = db.execute("PROFILE MERGE (p:P {id: $id}) ON MATCH SET p.n = 6", {"id": 2})
    assert profiled.counters["properties_set"] == 1 and values(db, "n")[2] == 6


def test_merge_on_match_set_errors_and_constraints_as_before(db):
    db.execute("CREATE CONSTRAINT p_n FOR (p:P) REQUIRE p.n IS UNIQUE")
    db.execute(MERGE_SEEN, {"id": 1, "n": 7})
    with pytest.raises(engine.ConstraintViolation):
        db.execute(MERGE_SEEN, {"id": 2, "n": 7})
    assert values(db, "n")[2] is None
    with pytest.raises(engine.CypherError) as raised:
        db.execute("MERGE (p:P {id: $id}) ON MATCH SET p.n = $n", {"id": 3, "n": {"a": 1}})
    assert raised.value.span is not None
    with pytest.raises(engine.CypherError) as raised:
        db.execute("MERGE (q:Q {id: $id}) ON MATCH SET q.n = 1", {"id": None})
    assert raised.value.detail == "MergeReadOwnWrites"
    assert db.execute("MATCH (q:Q) RETURN count(q) AS n").fetchall() == [(0,)]


def traced(db, statement, params=None):
    """The SQL statements `statement` runs, as explain traces them (run in a transaction rolled back)."""
    return [sql for sql, _ in db.explain(statement, params or {})[1]]


def test_a_set_of_one_node_updates_the_table_by_the_match_with_its_values_bound(db):
    (update,) = traced(db, SET_SEEN, {"id": 31337})
    assert update.startswith("UPDATE nodes AS ") and " FROM " not in update and "31337" not in update
    (update,) = traced(db, "MERGE (p:P {id: $id}) ON MATCH SET p.n = $n", {"id": 1, "n": 31337})
    assert update.startswith("UPDATE nodes AS ") and " FROM " not in update and "31337" not in update
    result = db.execute("MATCH (p:P) WHERE p.id IN [1, 2] AND p:P SET p.seen = p.id * 10 + p.seen")
    assert result.counters["properties_set"] == 2
    assert values(db, "seen") == {0: 0, 1: 10, 2: 20, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0, 9: 0}


@pytest.mark.parametrize("value", ["COUNT { MATCH (q:P) WHERE q.seen > 0 }", "rand() * 0", "size([(p)--() | 1])"])
def test_a_set_whose_value_reads_other_rows_or_chance_still_joins_the_match(db, value):
    statement = f"MATCH (p:P {{id: 1}}) SET p.seen = toInteger({value})"
    (update,) = [sql for sql in traced(db, statement) if sql.startswith("UPDATE")]
    assert " FROM " in update
    assert db.execute(statement).counters["properties_set"] == 1
    assert values(db, "seen")[1] == 0


def test_a_set_of_a_key_an_index_follows_goes_through_the_table_of_targets(db):
    db.execute("CREATE FULLTEXT INDEX titles FOR (n:P) ON EACH [n.title]")
    statement = "MATCH (p:P {id: $id}) SET p.title = $title"
    assert not any(sql.startswith("UPDATE nodes AS ") for sql in traced(db, statement, {"id": 1, "title": "x"}))
    db.execute(statement, {"id": 1, "title": "zebra"})
    found = db.execute("CALL db.index.fulltext.queryNodes('titles', 'zebra') YIELD node RETURN node.id AS id")
    assert found.fetchall() == [(1,)]


def test_a_create_over_one_row_of_known_values_inserts_values(db):
    (insert,) = traced(db, "CREATE (:Q {id: $id})", {"id": 31337})
    assert insert.startswith("INSERT INTO nodes (id, labels, ") and " VALUES (" in insert and "31337" not in insert
    result = db.execute("CREATE (a:A {l: [1, 2]})-[:R {w: $w}]->(b:B), (:C)", {"w": 2.5})
    assert (result.counters["nodes_created"], result.counters["relationships_created"],
            result.counters["properties_set"], result.counters["labels_added"]) == (3, 1, 2, 3)
    assert db.execute("MATCH (a:A)-[r:R]->(b:B) RETURN a.l AS l, r.w AS w").fetchall() == [([1, 2], 2.5)]
    with pytest.raises(engine.CypherError) as raised:
        db.execute("CREATE (:Q {l: [1, null]})")
    assert raised.value.detail == "InvalidPropertyType"
    assert db.execute("MATCH (q:Q) RETURN count(q) AS n").fetchall() == [(0,)]
    rows = db.execute("UNWIND [1, 2] AS i CREATE (q:Q {id: i}) RETURN q.id AS id").fetchall()
    assert rows == [(1,), (2,)]
