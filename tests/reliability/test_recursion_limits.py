"""Long flat chains compile, and what nests too deeply is an engine error, never a RecursionError
(issue 32, item 3)."""

from __future__ import annotations

import pytest

import engine


@pytest.fixture(scope="module")
def db():
    with engine.connect(":memory:") as connection:
        yield connection


def nested(depth: int, make) -> object:
    value: object = 1
    for _ in range(depth):
        value = make(value)
    return value


@pytest.mark.parametrize("terms", [300, 1000])
def test_a_long_flat_chain_compiles_and_gives_its_value(db, terms):
    assert db.execute("RETURN " + " OR ".join(["1 = 2"] * (terms - 1) + ["1 = 1"]) + " AS c").fetchall() == [(True,)]
    assert db.execute("RETURN " + " + ".join(["1"] * terms) + " AS c").fetchall() == [(terms,)]
    where = " AND ".join([f"x > {i}" for i in range(terms)])
    assert db.execute(f"UNWIND [{terms}, 1, 100000] AS x WITH x WHERE {where} RETURN collect(x) AS c").fetchall() == [
        ([terms, 100000],)]


@pytest.mark.parametrize("value", [nested(900, lambda v: {"a": v}), nested(5000, lambda v: [v])],
                         ids=["maps 900 deep", "lists 5000 deep"])
def test_a_parameter_nested_too_deeply_is_an_argument_error(db, value):
    with pytest.raises(engine.CypherArgumentError, match=r"parameter \$p nests lists and maps deeper than 100"):
        db.execute("RETURN $p AS c", {"p": value})
    assert db.execute("RETURN $p AS c", {"p": nested(50, lambda v: [v])}).fetchall()[0][0] == nested(50, lambda v: [v])


@pytest.mark.parametrize("terms", [5000, 20000])
def test_a_very_long_and_or_xor_chain_compiles_and_gives_its_value(db, terms):
    """AND, OR and XOR are associative, so a long chain of one of them is parsed as a balanced tree: its
    depth, which every later stage walks, grows with the logarithm of its length."""
    assert db.execute("RETURN " + " OR ".join(["1 = 2"] * (terms - 1) + ["1 = 1"]) + " AS c").fetchall() == [(True,)]
    assert db.execute("RETURN " + " OR ".join(["null"] * (terms - 1) + ["false"]) + " AS c").fetchall() == [(None,)]
    assert db.execute("RETURN " + " XOR ".join(["true"] * (terms + 1)) + " AS c").fetchall() == [(True,)]
    where = " AND ".join([f"x > {i}" for i in range(terms)])
    assert db.execute(f"UNWIND [{terms}, 1, 100000] AS x WITH x WHERE {where} RETURN collect(x) AS c").fetchall() == [
        ([terms, 100000],)]


def test_a_long_chain_keeps_the_order_of_its_terms(db):
    """Balancing keeps the terms in order: a chain of ORs mixed with a `+` chain inside each term reads as
    written, and the first true term's neighbours do not change the value."""
    terms = [f"x = {i}" for i in range(40)]
    query = "UNWIND [3, 39, 40] AS x RETURN x, " + " OR ".join(terms) + " AS c ORDER BY x"
    assert db.execute(query).fetchall() == [(3, True), (39, True), (40, False)]
    assert db.execute("RETURN 'a' + " + " + ".join(["1"] * 40) + " AS c").fetchall() == [("a" + "1" * 40,)]


@pytest.mark.parametrize("terms", [5000])
def test_a_chain_too_long_to_run_is_an_unsupported_feature(db, terms):
    """`+` is not associative in Cypher (`'a' + 1 + 2` is 'a12'), so its chains stay left-deep and a very
    long one is refused clearly."""
    with pytest.raises(engine.UnsupportedFeature, match=r"too deeply|deeper than"):
        db.execute("RETURN " + " + ".join(["1"] * terms) + " AS c")
    assert db.execute("RETURN 1 AS one").fetchall() == [(1,)]


def test_a_thousand_term_sum_is_computed(db):
    """A flat `+` chain of 1,000 terms (a model writes such sums) binds and runs: the binder asks whether
    each operand's type is read off data once per node, not once per node and level."""
    assert db.execute("RETURN " + " + ".join(["1"] * 1000) + " AS c").fetchall() == [(1000,)]
    assert db.execute("WITH 2 AS x RETURN " + " * ".join(["x"] * 60) + " AS c").fetchall() == [(2 ** 60,)]
