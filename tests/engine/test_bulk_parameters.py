"""A list parameter of rows, the load batch's `$rows`, comes back exactly as given, whichever route binds it
(ADR-0097): rows of one shape and plain values travel as an Arrow table, others as JSON text."""


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.errors import CypherError
from engine.sqlgen import arrow_rows
from tests.engine.exact_values import exact

plain = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**63 - 1),
                  st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=4))


@pytest.fixture(scope="module", autouse=True)
def short_lists_take_the_arrow_route():
    """The Arrow route serves lists of `arrow_rows.SHORTEST` rows or more (load batches); these tests give
    it a few rows at a time, as many examples as hypothesis makes."""
    shortest, arrow_rows.SHORTEST = arrow_rows.SHORTEST, 1
    yield
    arrow_rows.SHORTEST = shortest


@pytest.fixture(scope="module")
def db():
    connection = engine.connect(":memory:")
    yield connection
    connection.close()


def test_a_short_list_binds_as_json_and_a_long_one_as_arrow(db):
    arrow_rows.SHORTEST = 2_000
    try:
        for count, route in ((3, "json"), (2_000, "query_table")):  # the JSON cast, or from_json (ADR-0114)
            rows = [{"a": i, "b": f"x{i}"} for i in range(count)]
            _, trace = db.explain("UNWIND $rows AS r RETURN sum(r.a) AS s", {"rows": rows})
            assert route in str(trace).lower()
            assert db.execute("UNWIND $rows AS r RETURN sum(r.a) AS s", {"rows": rows}).fetchall() == [
                (sum(range(count)),)]
    finally:
        arrow_rows.SHORTEST = 1


def column_rows(a, b, c):
    return st.lists(st.fixed_dictionaries({"a": a, "b": st.lists(b, max_size=3), "c": c}), min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(column_rows(st.integers(min_value=-(2**63), max_value=2**63 - 1), st.text(max_size=3),
                   st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=False))))
def test_rows_of_one_plain_shape_come_back_exactly(db, rows):
    got = db.execute("UNWIND $rows AS r RETURN r", {"rows": rows}).fetchall()
    assert exact([row for (row,) in got]) == exact(rows)


@settings(max_examples=60, deadline=None)
@given(column_rows(plain, plain, plain))
def test_rows_of_mixed_values_come_back_exactly(db, rows):
    got = db.execute("UNWIND $rows AS r RETURN r.a AS a, r.b AS b, r.c AS c", {"rows": rows}).fetchall()
    assert exact([list(row) for row in got]) == exact([[row["a"], row["b"], row["c"]] for row in rows])


def test_nested_rows_keep_their_types(db):
    rows = [{"id": 1, "m": {"xs": [1.0, -0.0], "n": None}, "tags": [["a"], []]},
            {"id": 2**62, "m": {"xs": [], "n": None}, "tags": [["é", "\u00e9\u0301"]]}]
    got = db.execute("UNWIND $rows AS r RETURN r", {"rows": rows}).fetchall()
    assert exact([row for (row,) in got]) == exact(rows)


def test_a_load_batch_creates_what_it_was_given():
    db = engine.connect(":memory:")
    people = [{"id": i, "name": f"p{i}", "score": i / 2} for i in range(50)]
    db.execute("UNWIND $rows AS r CREATE (:Person {id: r.id, name: r.name, score: r.score})", {"rows": people})
    knows = [{"src": i, "dst": (i * 7) % 50, "since": 2000 + i} for i in range(50) if i != (i * 7) % 50]
    db.execute("UNWIND $rows AS r MATCH (a:Person {id: r.src}), (b:Person {id: r.dst})"
               " CREATE (a)-[:KNOWS {since: r.since}]->(b)", {"rows": knows})
    got = db.execute("MATCH (a:Person)-[k:KNOWS]->(b:Person) RETURN a.id, b.id, k.since ORDER BY a.id").fetchall()
    assert got == [(row["src"], row["dst"], row["since"]) for row in knows]
    scores = db.execute("MATCH (p:Person) RETURN p.score ORDER BY p.id").fetchall()
    assert exact([s for (s,) in scores]) == exact([row["score"] for row in people])


def test_a_kept_read_binds_each_new_batch(db):
    statement = "UNWIND $rows AS r RETURN r.a AS a"
    assert db.execute(statement, {"rows": [{"a": 1}, {"a": 2}]}).fetchall() == [(1,), (2,)]
    assert db.execute(statement, {"rows": [{"a": 3}]}).fetchall() == [(3,)]


def test_a_failed_batch_leaves_the_connection_usable():
    db = engine.connect(":memory:")
    with pytest.raises(CypherError):
        db.execute("UNWIND $rows AS r CREATE (:N {id: r.a / r.b})", {"rows": [{"a": 1, "b": 0}]})
    assert db.execute("UNWIND $rows AS r RETURN r.a * 2", {"rows": [{"a": 21}]}).fetchall() == [(42,)]
    assert db.execute("MATCH (n:N) RETURN count(n)").fetchall() == [(0,)]


def test_rows_holding_nan_are_refused_as_before(db):
    with pytest.raises(CypherError, match="NaN and infinite floats"):
        db.execute("UNWIND $rows AS r RETURN r.f", {"rows": [{"f": float("nan")}, {"f": 1.0}]})


def test_rows_keyed_by_integers_read_as_their_string_keys(db):
    got = db.execute("UNWIND $rows AS r RETURN r", {"rows": [{1: "x"}, {"1": "y"}, None]}).fetchall()
    assert got == [({"1": "x"},), ({"1": "y"},), (None,)]


def test_null_rows_and_integer_keys_by_the_arrow_route(db):
    """A null row among maps (the key check's second pass), a null row among maps keyed by integers (no
    Arrow table), and rows of differing or missing keys come back as given."""
    for rows in ([{"a": 1, "b": [2.0]}, None, {"a": 2**63 - 1, "b": []}], [None, {2: "x"}, {2: "y"}],
                 [{"a": 1}, {"b": "1"}, {}], [None, None]):
        got = db.execute("UNWIND $rows AS r RETURN r", {"rows": rows}).fetchall()
        assert exact([row for (row,) in got]) == exact([None if row is None else {str(k): v for k, v in row.items()}
                                                        for row in rows])


def test_rows_nested_past_the_depth_limit_are_refused_at_any_level(db):
    """The depth check walks lists of lists and tuples in C (`chain`): a value one level past the limit is
    refused whether its levels are lists, tuples or maps, and one at the limit runs."""
    def nested(depth, wrap):
        value = 1
        for level in range(depth):
            value = wrap(level, value)
        return value
    wraps = (lambda _, v: [v], lambda _, v: (v,), lambda n, v: [v] if n % 2 else {"k": v},
             lambda n, v: [v, "x"] if n % 2 else {"k": v},  # ANY: the type hides the depth, the walk finds it
             lambda n, v: [{"k": v}, {"j": 1}] if n % 2 else v)  # maps of two shapes: a plain MAP
    for wrap in wraps:
        with pytest.raises(CypherError, match="deeper than 100"):
            db.execute("RETURN size($rows) AS n", {"rows": [nested(100, wrap), 1]})
        assert db.execute("RETURN size($rows) AS n", {"rows": [nested(99, wrap), 1]}).fetchall() == [(2,)]


def test_a_parameter_nested_thousands_deep_is_refused(db):
    value = 1
    for _ in range(5_000):
        value = [value]
    with pytest.raises(CypherError, match="deeper than 100"):
        db.execute("RETURN 1 AS n", {"other": 1, "deep": value})


def test_a_batch_typed_once_binds_with_the_type_of_its_own_value(db):
    """The type found as the depth was checked is the binder's: rows of integers stay integers, a batch
    of floats after it binds as floats, and a parameter the statement does not use changes nothing."""
    statement = "UNWIND $rows AS r RETURN r.a AS a"
    for rows in ([{"a": 1}, {"a": 2}], [{"a": 1.5}, {"a": -0.0}], [{"a": 2**63 - 1}, {"a": None}], [{"a": [1]}]):
        got = db.execute(statement, {"rows": rows, "unused": [[[1]]]}).fetchall()
        assert exact([a for (a,) in got]) == exact([row["a"] for row in rows])
