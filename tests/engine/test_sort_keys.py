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
