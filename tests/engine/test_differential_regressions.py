"""Regressions the differential runs (tests/differential, batch 2) found, each with the Neo4j rule that decides
it. The first and largest group: whether a statement compiles, and its compile-time errors, depend on its text
alone, never on the types of the data stored nor on the types its own writes give a column (ADR-0053)."""

from __future__ import annotations

import pytest

import engine

GRAPH = ("CREATE (:T {s: 'x', i: 1, b: true, li: [1], d: date('2020-01-01'), du: duration('P1D')})"
         "-[:R {w: 1}]->(:T)")
"""Typed columns of every kind, and a second :T node where each property is null."""


@pytest.fixture
def db():
    with engine.connect(":memory:") as connection:
        connection.execute(GRAPH)
        yield connection


# -- 1. a type read off stored data, or given by the statement's own writes, is checked per row ------------

MISMATCHED = [
    # operators whose operand types do not fit
    "n.s + duration('P2W')", "duration('P2W') - n.s", "n.s * duration('P2W')", "n.d + 1", "n.d % 2",
    "n.du ^ 2", "n.du / n.s",
    # functions and accessors
    "trim(n.b)", "date(n.i)", "datetime(n.li)", "duration(n.i)", "duration.between(n.i, date('2020-01-01'))",
    "duration.inDays(date('2020-01-01'), n.s)", "properties(n.s)", "properties(n.d)", "{a: 1}[n.i]", "n.d.foo",
    "n.du.year",
]
"""Expressions of a property of :T whose stored type the operation does not take: Neo4j types a property
read as ANY, so only a row that brings a non-null value fails."""


@pytest.mark.parametrize("expression", MISMATCHED)
def test_a_stored_type_that_does_not_fit_compiles_when_no_row_reaches_it(db, expression):
    assert db.execute(f"MATCH (n:T) WHERE false RETURN {expression} AS v").fetchall() == []
    assert db.execute(f"MATCH (n:T) WHERE n.s IS NULL RETURN {expression} AS v").fetchall() == [(None,)]


@pytest.mark.parametrize("expression", MISMATCHED)
def test_a_stored_type_that_does_not_fit_fails_on_the_row_that_brings_it(db, expression):
    with pytest.raises((engine.CypherTypeError, engine.CypherArgumentError)):
        db.execute(f"MATCH (n:T) WHERE n.s IS NOT NULL RETURN {expression} AS v").fetchall()


@pytest.mark.parametrize("expression", ["n.s + false", "n.i * duration('P2W')", "n.d.year", "date(n.d)"])
def test_a_stored_type_that_fits_is_computed(db, expression):
    assert db.execute(f"MATCH (n:T) WHERE n.s IS NOT NULL RETURN {expression} AS v").fetchall() != [(None,)]


@pytest.mark.parametrize(("expression", "value"), [
    ("any(x IN n.s WHERE x = 'x')", True), ("[x IN n.i | x + 1]", [2]), ("reduce(a = 0, x IN n.i | a + x)", 1),
    ("none(x IN n.b WHERE x)", False)])
def test_a_single_stored_value_is_walked_as_a_list_of_itself(db, expression, value):
    """Neo4j's runtime makes what a comprehension, a quantifier or reduce() walks traversable: a value that is
    no list is a list of itself (Cypher manual, Predicate functions, any(): `any(nationality IN p.nationality
    WHERE nationality = 'American')` over a STRING property returns the two American nodes)."""
    assert db.execute(f"MATCH (n:T) WHERE n.s IS NOT NULL RETURN {expression} AS v").fetchall() == [(value,)]
    assert db.execute(f"MATCH (n:T) WHERE n.s IS NULL RETURN {expression} AS v").fetchall() == [(None,)]


def test_plus_does_what_the_values_types_say(db):
    db.execute("CREATE (:X {b: 'a'}), (:Y {b: ['x']})")
    assert db.execute("MATCH (n:X) RETURN n.b + false AS v").fetchall() == [("afalse",)]
    assert db.execute("MATCH (n:Y) RETURN n.b + false AS v").fetchall() == [(["x", False],)]


CLAUSES = [
    "WITH n.s AS x MATCH (x) RETURN x",
    "WITH n.s AS x MATCH (x)-->() RETURN x",
    "WITH n.s AS x MATCH ()-[x]->() RETURN x",
    "WITH n.s AS x RETURN exists { (x)-->() } AS e",
    "WITH n.s AS x MATCH p = shortestPath((x)-[*]->()) RETURN p",
    "WITH n.s AS x SET x:L",
    "WITH n.s AS x SET x.p = 1",
    "WITH n.s AS x REMOVE x.p",
    "WITH n.s AS x SET x.p = null",
    "WITH n.s AS x DELETE x",
    "SET n += n.s",
    "SET n = n.li",
]
"""Clauses that take a node or relationship (or a map) from a value whose type was read off a column."""


@pytest.mark.parametrize("clause", CLAUSES)
def test_a_clause_given_a_stored_value_of_another_type_compiles(db, clause):
    db.execute(f"MATCH (n:T) WHERE false {clause}").fetchall()
    db.execute(f"MATCH (n:T) WHERE n.s IS NULL {clause}").fetchall()


@pytest.mark.parametrize("clause", CLAUSES)
def test_a_clause_given_a_stored_value_of_another_type_fails_on_its_row(db, clause):
    with pytest.raises(engine.CypherTypeError):
        db.execute(f"MATCH (n:T) WHERE n.s IS NOT NULL {clause}").fetchall()
    assert db.execute("MATCH (n) RETURN count(n) AS c").fetchall() == [(2,)]


def test_create_from_a_stored_value_of_another_type(db):
    create = "WITH n.s AS x CREATE (x)-[:R]->() RETURN x"
    assert db.execute(f"MATCH (n:T) WHERE false {create}").fetchall() == []
    with pytest.raises(engine.CypherSemanticError, match="a node is null"):  # as for any null node
        db.execute(f"MATCH (n:T) WHERE n.s IS NULL {create}").fetchall()
    with pytest.raises(engine.CypherTypeError):
        db.execute(f"MATCH (n:T) WHERE n.s IS NOT NULL {create}").fetchall()


def test_foreach_over_a_stored_value_that_is_no_list(db):
    """Neo4j's FOREACH takes a value that is not a list as a list of it (ListSupport.makeTraversable), as
    UNWIND does; the element was typed ANY over SQL of the column's type, which failed inside DuckDB."""
    db.execute("MATCH (n:T) WHERE false FOREACH (y IN n.i | SET n.z = y)")
    db.execute("MATCH (n:T) FOREACH (y IN n.i | SET n.z = y + 1)")
    assert db.execute("MATCH (n:T) RETURN n.z AS z ORDER BY z").fetchall() == [(2,), (None,)]


def test_set_properties_from_null_sets_none(db):
    db.execute("MATCH (n:T) SET n += null")
    assert db.execute("MATCH (n:T) WHERE n.i = 1 RETURN n.s AS s").fetchall() == [("x",)]


def test_a_value_only_known_at_run_time_is_checked_as_a_node():
    """Before, `MATCH (x)` took the value of a VARIANT for a node id (1 matched as a node), and CREATE failed
    inside DuckDB; a null still matches nothing."""
    with engine.connect(":memory:") as db:
        db.execute("CREATE ()-[:R]->()")
        with pytest.raises(engine.CypherTypeError):
            db.execute("MATCH (n) UNWIND [n, 1] AS x MATCH (x) RETURN x").fetchall()
        with pytest.raises(engine.CypherTypeError):
            db.execute("MATCH (n) UNWIND [n, 1] AS x CREATE (x)-[:Q]->()").fetchall()
        with pytest.raises(engine.CypherTypeError):
            db.execute("MATCH (n) UNWIND [n, 1] AS x MATCH p = shortestPath((x)-[*]->()) RETURN p").fetchall()
        assert db.execute("MATCH (n) UNWIND [n, null] AS x MATCH (x)-->(y) RETURN count(*) AS c").fetchall() == [(1,)]
        with pytest.raises(engine.CypherTypeError):
            db.execute("UNWIND [1] AS x WITH [x, 'a'][0] AS x DELETE x").fetchall()


def test_properties_of_a_value_only_known_at_run_time(db):
    rows = db.execute("MATCH ()-[r]->() UNWIND [r, {b: 2}, null] AS x RETURN properties(x) AS p").fetchall()
    assert rows == [({"w": 1},), ({"b": 2},), (None,)]


def test_an_untyped_aggregate_is_checked_per_row(db):
    assert db.execute("MATCH (n:T) WHERE false WITH max(n.d) AS m RETURN m.foo AS v, m + 1 AS w").fetchall() == [
        (None, None)]
    with pytest.raises(engine.CypherArgumentError):
        db.execute("MATCH (n:T) WITH max(n.d) AS m RETURN m.foo AS v").fetchall()


@pytest.mark.parametrize("query", [
    "MATCH (n7:B) SET n7.b = (false AND true), n7.a = trim(n7.b) RETURN count(*) AS c",
    "MATCH (n:B) SET n.d = date('2020-01-01'), n.e = n.d + 1 RETURN count(*) AS c",
    "MATCH (n:B) SET n.s = 'x' WITH n MATCH (m:B) WHERE m.s.year > 0 RETURN count(*) AS c",
])
def test_a_type_the_statement_writes_is_checked_per_row(query):
    with engine.connect(":memory:") as db:
        assert db.execute(query).fetchall() == [(0,)]
        db.execute("CREATE (:B)")
        with pytest.raises((engine.CypherTypeError, engine.CypherArgumentError)):
            db.execute(query).fetchall()


@pytest.mark.parametrize(("query", "error"), [
    ("RETURN 'a' + true AS v", engine.CypherSyntaxError),
    ("RETURN date('2020-01-01') + 1 AS v", engine.CypherSyntaxError),
    ("RETURN date(1) AS v", engine.CypherTypeError),
    ("RETURN {a: 1}[1] AS v", engine.CypherTypeError),
    ("WITH date('2020-01-01') AS d RETURN d.foo AS v", engine.CypherSyntaxError),
    ("WITH 'x' AS x MATCH (x) RETURN x", engine.CypherSyntaxError),
    ("WITH 'x' AS x SET x.p = 1", engine.CypherTypeError),
    ("WITH 'x' AS x SET x:L", engine.CypherTypeError),
    ("WITH 'x' AS x DELETE x", engine.CypherSyntaxError),
])
def test_a_type_the_query_text_fixes_is_a_compile_time_error(query, error):
    with engine.connect(":memory:") as db, pytest.raises(error):
        db.execute(f"MATCH (n:Nothing) {query}").fetchall()


# -- 2. a quantifier over a null list is null -------------------------------------------------------------

def test_quantifiers_over_a_property_null_on_some_nodes():
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:N {e: [1, -2]}), (:N {e: [3]}), (:N)")
        rows = db.execute("MATCH (n:N) RETURN none(x IN n.e WHERE x < 0) AS a, any(x IN n.e WHERE x < 0) AS b,"
                          " all(x IN n.e WHERE x > 0) AS c, single(x IN n.e WHERE x > 0) AS d"
                          " ORDER BY size(n.e)").fetchall()
        assert rows == [(True, False, True, True), (False, True, False, True), (None, None, None, None)]
        for predicate in ("none(x IN n.e WHERE x < 0)", "all(x IN n.e WHERE x > 0)",
                          "NOT any(x IN n.e WHERE x < 0)"):
            assert db.execute(f"MATCH (n:N) WHERE {predicate} RETURN n.e AS e").fetchall() == [([3],)]


# -- 3. a slice needs a bound --------------------------------------------------------------------------

def test_a_slice_without_bounds_is_refused_as_neo4j_does():
    """Neo4j's semantic analysis: "The start or end (or both) is required for a collection slice"."""
    with engine.connect(":memory:") as db:
        with pytest.raises(engine.CypherSyntaxError, match="start or end"):
            db.execute("RETURN [1, 2, 3][..] AS v")
        assert db.execute("RETURN [1, 2, 3][1..] AS a, [1, 2, 3][..2] AS b").fetchall() == [([2, 3], [1, 2])]


# -- 4. split ------------------------------------------------------------------------------------------

def test_split_of_stored_strings_by_themselves():
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:S {s: '', t: ''}), (:S {s: 'a,b', t: 'a,b'}), (:S {s: 'aa', t: 'a'})")
        rows = db.execute("MATCH (n:S) RETURN split(n.s, n.t) AS p ORDER BY n.s").fetchall()
        assert rows == [(["", ""],), (["", ""],), (["", "", ""],)]


# -- 5. a pattern predicate compared with < ---------------------------------------------------------------

@pytest.mark.parametrize(("query", "count"), [
    ("MATCH (n:P) WHERE (n)<-[:R]-() < false RETURN count(*) AS c", 0),
    ("MATCH (n:P) WHERE (n)<-[:R]-()<true RETURN count(*) AS c", 1),
    ("MATCH (n:P) WHERE (n)-->() < -1 RETURN count(*) AS c", 0),
    # a relationship's arrow head may stand apart from its dash, as Neo4j's grammar allows
    ("MATCH (a) < -[:R]- (b) RETURN count(*) AS c", 1),
    ("MATCH (a) < -- (b) RETURN count(*) AS c", 1),
    ("MATCH (a)<--(b)<--(c) RETURN count(*) AS c", 0),
])
def test_less_than_after_a_pattern_and_spaced_arrow_heads(query, count):
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:P)-[:R]->(:P)")
        assert db.execute(query).fetchall() == [(count,)]


# -- 6. a column widened by a write widens what is computed from it ----------------------------------------

def test_writes_that_widen_columns_through_each_other():
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:B {a: 2, uid: 3, c: 5})")
        db.execute("MATCH (n3:B) SET n3.c = n3.uid + n3.c, n3.uid = (n3.a * n3.uid), n3.a = replace('Ab', ' ', 'b')")
        assert db.execute("MATCH (n:B) RETURN n.c, n.uid, n.a").fetchall() == [(8, 6, "Ab")]
        db.execute("MATCH (n:B) SET n.c = n.uid + 'x', n.uid = n.a, n.a = 1.5")
        assert db.execute("MATCH (n:B) RETURN n.c, n.uid, n.a").fetchall() == [("6x", "Ab", 1.5)]
