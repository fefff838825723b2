"""Ordering, grouping and min/max keys of values only known at run time (VARIANTs)."""

from __future__ import annotations

import pytest

import engine

PEOPLE = "UNWIND range(1, 6) AS i CREATE (:P {i: i, name: 'p' + i})"


@pytest.mark.parametrize(("query", "expected"), [
    ("MATCH (c:P) RETURN properties(c) AS p ORDER BY p.i DESC LIMIT 2",
     [({"i": 6, "name": "p6"},), ({"i": 5, "name": "p5"},)]),
    ("MATCH (c:P) RETURN c.i AS i ORDER BY properties(c).i DESC LIMIT 2", [(6,), (5,)]),
    ("MATCH (c:P) WITH [c, 1] AS l RETURN DISTINCT l[0].i % 2 AS k ORDER BY k", [(0,), (1,)]),
    ("MATCH (c:P) WITH [c, 1] AS l RETURN max(l[0].i) AS top, min(l[0].name) AS first", [(6, "p1")]),
])
def test_a_key_of_a_property_read_off_a_value_that_may_be_a_node(query: str, expected: list) -> None:
    """The property of a value that may be a map or a node reads the node's row in a subquery, which the
    key's runtime macro must not take into its lambdas (DuckDB refuses that)."""
    with engine.connect(":memory:") as db:
        db.execute(PEOPLE)
        assert db.execute(query).fetchall() == expected


NESTED = "[[1, [2]], [1, [2, 0]], [1, 2], [1], {b: 1}, {a: 2}, {a: 1, b: [1.0]}, {a: 1, b: [1]}, [[]], null]"


def test_nested_lists_and_maps_order_as_cypher_orders_them() -> None:
    """The key walks lists and maps in steps (tokens, a list's end before any element): maps first, ordered
    by their sorted keys then values; lists element by element, a list that ends first sorts first at any
    depth; null last (Cypher manual, Ordering and comparison of values)."""
    with engine.connect(":memory:") as db:
        rows = db.execute(f"UNWIND {NESTED} AS x RETURN x ORDER BY x").fetchall()
    assert [row[0] for row in rows] == [
        {"a": 2}, {"a": 1, "b": [1.0]}, {"a": 1, "b": [1]}, {"b": 1},
        [[]], [1], [1, [2]], [1, [2, 0]], [1, 2], None]


def test_nested_values_group_by_equivalence() -> None:
    """1 and 1.0 are equivalent inside lists and maps at any depth; [1] and [[1]] are not."""
    query = "UNWIND [[1, {a: [1]}], [1.0, {a: [1.0]}], [[1], {a: [1]}], [1, {a: 1}]] AS x RETURN count(DISTINCT x)"
    with engine.connect(":memory:") as db:
        assert db.execute(query).fetchall() == [(3,)]


@pytest.mark.parametrize(("pair", "expected"), [
    ("[1, [2, {a: 3}]], [1.0, [2, {a: 3.0}]]", True),
    ("[1, [2]], [1, [2, 3]]", False),  # shapes differ below the top
    ("[null, [2]], [1, [3]]", False),  # false wins over null
    ("[null, [2]], [1, [2]]", None),
    ("[null], [[1]]", None),  # a list against null is null
    ("[1], [[1]]", False),
    ("{a: [1]}, {b: [1]}", False),
    ("[[[[1]]]], [[[[1.0]]]]", True),
])
def test_nested_equality_in_three_valued_logic(pair: str, expected: bool | None) -> None:
    """`=` of values known only at run time walks pairs of lists and maps of one shape in steps, and ANDs
    the pairs of elements in three-valued logic (Cypher manual, Equality and comparison of values)."""
    with engine.connect(":memory:") as db:
        assert db.execute(f"UNWIND [[{pair}]] AS p RETURN p[0] = p[1] AS e").fetchall() == [(expected,)]


@pytest.mark.parametrize(("query", "message"), [
    ("UNWIND [[[[[[[1]]]]]], 1] AS x RETURN x ORDER BY x", "ordering lists or maps nested deeper than 5 levels"),
    ("UNWIND [[[[[[[1]]]]], [[[[[1.0]]]]]]] AS p RETURN p[0] = p[1]", "comparing lists or maps nested deeper than 4"),
])
def test_values_nested_past_the_walk_are_refused(query: str, message: str) -> None:
    with engine.connect(":memory:") as db, pytest.raises(engine.UnsupportedFeature, match=message):
        db.execute(query)
