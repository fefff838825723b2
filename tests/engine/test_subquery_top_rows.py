"""ORDER BY ... LIMIT under an outer row (a CALL or expression subquery) with literal SKIP and LIMIT compiles
to one aggregate keeping the first rows (ADR-0112); with a parameter it keeps ORDER BY ... LIMIT. The two
forms must give the same rows in the same order: ties (broken by the rows' own order), nulls first or last,
values of mixed types, SKIP, and an outer row whose subquery has no row."""

from __future__ import annotations

import pytest

import engine

ITEMS = [
    # (group, key, v: ties and nulls, w: mixed types and nulls)
    (1, "a", 3, 1), (1, "b", 1, "x"), (1, "c", 3, None), (1, "d", None, 2.5), (1, "e", 2, 1),
    (1, "f", None, "x"), (1, "g", 3, [1, 2]),
    (2, "h", 5, None), (2, "i", 5, 0),
    (3, "j", None, None),
]
GROUPS = [1, 2, 3, 4]  # group 4 has no item

ORDERS = ["i.v", "i.v DESC", "i.v NULLS FIRST", "i.v DESC NULLS LAST", "i.w", "i.w DESC, i.v", "i.v, i.k DESC"]
PAGES = [("LIMIT 1", "LIMIT $n", {"n": 1}), ("LIMIT 2", "LIMIT $n", {"n": 2}),
         ("LIMIT 20", "LIMIT $n", {"n": 20}), ("SKIP 1 LIMIT 2", "SKIP $s LIMIT $n", {"s": 1, "n": 2}),
         ("SKIP 8 LIMIT 1", "SKIP $s LIMIT $n", {"s": 8, "n": 1}), ("LIMIT 0", "LIMIT $n", {"n": 0})]


@pytest.fixture(scope="module")
def db():
    with engine.connect(":memory:") as connection:
        connection.execute("UNWIND $groups AS g CREATE (:G {g: g})", {"groups": GROUPS})
        for group, key, v, w in ITEMS:
            connection.execute("CREATE (:Item {g: $g, k: $k, v: $v, w: $w})", {"g": group, "k": key, "v": v, "w": w})
        yield connection


def both(db, template: str, literal: str, parameter: str, values: dict) -> tuple[list, list]:
    """The rows of `template` with literal paging and with the same paging from parameters."""
    return (db.execute(template.replace("{page}", literal)).fetchall(),
            db.execute(template.replace("{page}", parameter), values).fetchall())


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize(("literal", "parameter", "values"), PAGES)
def test_call_keeps_the_rows_limit_keeps(db, order: str, literal: str, parameter: str, values: dict) -> None:
    template = ("MATCH (a:G) CALL (a) { MATCH (i:Item) WHERE i.g = a.g RETURN i.k AS k ORDER BY "
                + order + " {page} } RETURN a.g AS g, k")
    kept, expected = both(db, template, literal, parameter, values)
    assert kept == expected


@pytest.mark.parametrize(("literal", "parameter", "values"), PAGES)
@pytest.mark.parametrize("subquery", [
    "COLLECT { MATCH (i:Item) WHERE i.g = a.g RETURN i.k ORDER BY i.v DESC {page} }",
    "COUNT { MATCH (i:Item) WHERE i.g = a.g RETURN i.k ORDER BY i.v {page} }",
    "EXISTS { MATCH (i:Item) WHERE i.g = a.g RETURN i.k ORDER BY i.v {page} }",
    "COLLECT { MATCH (i:Item) WHERE i.g = a.g RETURN DISTINCT i.v ORDER BY i.v DESC {page} }",
    "COLLECT { MATCH (i:Item) WHERE i.g = a.g WITH i.v AS v, count(*) AS n RETURN [v, n] ORDER BY n DESC {page} }",
])
def test_expression_subqueries_keep_the_rows_limit_keeps(db, subquery: str, literal: str, parameter: str,
                                                         values: dict) -> None:
    kept, expected = both(db, "MATCH (a:G) RETURN a.g AS g, " + subquery + " AS kept", literal, parameter, values)
    assert kept == expected


def test_the_first_rows_by_order_then_by_row(db) -> None:
    """Ties on the sort key keep the rows' own order (the MATCH's, here creation order); nulls sort last
    ascending, first descending; a group with no item drops its outer row; OPTIONAL CALL keeps it."""
    query = ("MATCH (a:G) {optional}CALL (a) { MATCH (i:Item) WHERE i.g = a.g RETURN i.k AS k ORDER BY i.v DESC"
             " LIMIT 2 } RETURN a.g AS g, k ORDER BY g, k")
    assert db.execute(query.replace("{optional}", "")).fetchall() == [
        (1, "d"), (1, "f"), (2, "h"), (2, "i"), (3, "j")]
    assert db.execute(query.replace("{optional}", "OPTIONAL ")).fetchall()[-1] == (4, None)
    ascending = ("MATCH (a:G {g: 1}) CALL (a) { MATCH (i:Item) WHERE i.g = a.g RETURN i.k AS k ORDER BY i.v"
                 " SKIP 1 LIMIT 3 } RETURN collect(k) AS ks")
    assert db.execute(ascending).fetchall() == [(["e", "a", "c"],)]


def test_a_nested_call_keeps_its_rows(db) -> None:
    query = ("MATCH (a:G) CALL (a) { MATCH (i:Item) WHERE i.g = a.g CALL (i) { MATCH (j:Item) WHERE j.g = i.g"
             " AND j.k <> i.k RETURN j.k AS other ORDER BY j.w DESC, j.k {page} } RETURN i.k AS k, other"
             " ORDER BY i.v, i.k {page} } RETURN a.g AS g, k, other")
    kept, expected = both(db, query, "LIMIT 2", "LIMIT $n", {"n": 2})
    assert kept == expected
    assert kept  # the query has rows to compare


@pytest.mark.parametrize("body", [
    "MATCH (i:Item) WHERE i.g = a.g RETURN i.k AS k {page}",
    "MATCH (i:Item) WHERE i.g = a.g WITH i ORDER BY i.w {page} MATCH (j:Item) WHERE j.g = i.g RETURN i.k + j.k AS k",
    "UNWIND [3, 1, 2, 1] AS x RETURN x AS k ORDER BY x {page}",
])
def test_other_bodies_keep_their_rows(db, body: str) -> None:
    template = "MATCH (a:G) CALL (a) { " + body + " } RETURN a.g AS g, k"
    for literal, parameter, values in PAGES:
        kept, expected = both(db, template, literal, parameter, values)
        assert kept == expected, literal
