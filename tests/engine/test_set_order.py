"""SET gives Neo4j's row-by-row, item-by-item outcome whether it runs its items one UPDATE each, several
in one UPDATE, in one pass over the rows or in rounds (writes.py: `_rounds`, `_property_groups`)."""

import pytest

import engine

CASES = [
    # a value reading what the SET writes sees the rows and items before it
    ("UNWIND [1, 2, 3] AS x MATCH (n:N) SET n.hits = n.hits + 1", "n.hits", [3]),
    ("UNWIND [1, 2, 3] AS x MATCH (n:N) SET n.b = n.a + x, n.c = n.b", "[n.b, n.c]", [[4, 4]]),
    ("MATCH (n:N) SET n.a = 10, n.d = n.a", "[n.a, n.d]", [[10, 10]]),
    ("MATCH (n:N) SET n.d = n.a, n.a = 10", "[n.a, n.d]", [[10, 1]]),
    # values reading other keys, or none: the last row's value wins, per key
    ("UNWIND [1, 2, 3] AS x MATCH (n:N) SET n.b = n.a + x, n.c = x * 10", "[n.b, n.c]", [[4, 30]]),
    ("UNWIND [{a: 1, b: 'x'}, {a: 2, b: null}] AS r MATCH (n:N) SET n.e = r.a, n.f = r.b", "[n.e, n.f]",
     [[2, None]]),
    ("MATCH (n:N) SET n.a = 5, n.a = 6", "n.a", [6]),
]


@pytest.mark.parametrize(("statement", "read", "expected"), CASES)
def test_set_matches_row_by_row(statement, read, expected):
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:N {hits: 0, a: 1})")
        db.execute(statement)
        assert [row[0] for row in db.execute(f"MATCH (n:N) RETURN {read} AS v").fetchall()] == expected


def test_grouped_items_count_every_property_they_set_or_remove():
    with engine.connect(":memory:") as db:
        db.execute("CREATE (:N {a: 1, b: 2})")
        result = db.execute("UNWIND [{v: null}, {v: 1}] AS r MATCH (n:N) SET n.b = r.v, n.c = 'c'")
        # the first row removes b and sets c, the second sets both
        assert result.counters["properties_set"] == 4
        assert db.execute("MATCH (n:N) RETURN n.b, n.c").fetchall() == [(1, "c")]
