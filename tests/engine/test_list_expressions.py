"""List expressions: the cases the conformance page `tests/conformance/lists-and-maps.md` found the engine
getting wrong. An aggregate inside reduce()'s step is refused, as in a list comprehension (Neo4j checks the
step as a simple expression: "Can't use aggregating expressions inside of expressions executing over lists")."""

from __future__ import annotations

import pytest

import engine


@pytest.mark.parametrize("query", [
    "RETURN reduce(s = 0, x IN [1, 2] | s + count(*)) AS r",
    "RETURN reduce(s = 0, x IN [1, 2] | s + count(x)) AS r",
    "UNWIND [1, 2] AS y RETURN reduce(s = 0, x IN [1, 2] | s + sum(y)) AS r",
])
def test_an_aggregate_in_the_reduce_step_is_invalid(query: str) -> None:
    with engine.connect(":memory:") as db, pytest.raises(engine.CypherError) as raised:
        db.execute(query)
    assert (raised.value.kind, raised.value.detail) == ("SyntaxError", "InvalidAggregation")


def test_aggregates_around_reduce_still_work() -> None:
    with engine.connect(":memory:") as db:
        query = ("UNWIND [1, 2, 3] AS y "
                 "RETURN reduce(s = count(y), x IN collect(y) | s + x) AS r")
        assert db.execute(query).fetchall() == [(9,)]
