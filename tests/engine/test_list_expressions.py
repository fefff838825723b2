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


@pytest.mark.parametrize(("query", "expected"), [
    ("WITH [date('2020-01-01'), date('2021-05-01')] AS ds RETURN reduce(s = 0, d IN ds | s + d.year) AS r", 4041),
    ("WITH [duration('P1D'), duration('P2D')] AS ds RETURN reduce(s = 0, d IN ds | s + d.days) AS r", 3),
    ("WITH [point({x: 1, y: 2}), point({x: 3, y: 4})] AS ps RETURN reduce(s = 0.0, p IN ps | s + p.y) AS r", 6.0),
])
def test_reduce_reads_components_of_temporal_values_and_points(query: str, expected: object) -> None:
    """The step sees each element as a VARIANT (list_reduce folds values of one type): a date's `d.year` read
    null from it, a point's `p.y` failed to bind, until the element was read back as its STRUCT."""
    with engine.connect(":memory:") as db:
        assert db.execute(query).fetchall() == [(expected,)]


MIXED_LISTS = ("[[1, 'a', 1, 1.0, null, null, 2], null, [], ['b', 'b', [1], [1.0], {k: 1}, {k: 1.0}],"
               " [true, 'true', true]]")


def test_coll_distinct_of_mixed_lists_is_the_same_in_a_row_and_inside_a_list_expression():
    """Over VARIANT lists coll.distinct groups by `cy_key` in a subquery on a row, and keys inside lambdas in a
    list expression (where no subquery may go): both keep each first equal element, and one null."""
    expected = [[1, "a", None, 2], None, [], ["b", [1], {"k": 1}], [True, "true"]]
    with engine.connect(":memory:") as db:
        rows = db.execute(f"UNWIND {MIXED_LISTS} AS l RETURN coll.distinct(l) AS d").fetchall()
        assert [row[0] for row in rows] == expected
        [(inside,)] = db.execute(f"RETURN [l IN {MIXED_LISTS} | apoc.coll.toSet(l)] AS d").fetchall()
        assert inside == expected
