"""Lists no element of which can be null (`labels()`, `keys()`, `split()`, `range()`, `collect()`) compare
with SQL's own list `=` (types.CypherType.null_free); everything else element by element in three-valued
logic. Both must give Cypher's answer: null for a null list, and null where a null element decides."""

from __future__ import annotations

import pytest

import engine


@pytest.fixture(scope="module")
def db():
    with engine.connect(":memory:") as connection:
        connection.execute("CREATE (:A:B {x: 1, y: 'p q'}), (:B:A {x: 2}), (:A {y: 'p q'})")
        yield connection


def value(db, query: str):
    rows = db.execute(query).fetchall()
    assert len(rows) == 1
    return rows[0][0]


@pytest.mark.parametrize(("query", "expected"), [
    # labels: in order, so [A, B] is not [B, A]
    ("MATCH (a:A), (b:A) RETURN collect(labels(a) = labels(b)) AS r",
     [True, False, False, False, True, False, False, False, True]),
    # a null node's labels are a null list: null against a list and against itself
    ("OPTIONAL MATCH (m:Missing) MATCH (a:A {x: 1}) RETURN [labels(m) = labels(a), labels(m) = labels(m),"
     " labels(m) <> labels(a)] AS r", [None, None, None]),
    ("MATCH (a:A {x: 1}), (b:B {x: 2}) RETURN [keys(a) = keys(b), keys(a) = keys(a)] AS r", [False, True]),
    ("MATCH (a:A {x: 1}), (c:A) WHERE c.x IS NULL RETURN split(a.y, ' ') = split(c.y, ' ') AS r", True),
    ("MATCH (a:A {x: 2}) RETURN split(a.y, ' ') = split('p', ' ') AS r", None),
    ("RETURN [range(1, 3) = range(1, 3), range(1, 3) = range(1, 4), range(1, 3) <> range(0, 3)] AS r",
     [True, False, True]),
    # collect() leaves nulls out
    ("UNWIND [1, null, 2] AS x WITH collect(x) AS xs, collect(x + 0) AS ys RETURN xs = ys AS r", True),
    # a list that may hold a null: element by element
    ("MATCH (a:A {x: 1}) RETURN [labels(a) = ['A', null], labels(a) = ['C', null], ['A', 'B'] = labels(a)] AS r",
     [None, False, True]),
    # types taken together keep null-freedom only where both are null-free
    ("OPTIONAL MATCH (m:Missing) RETURN coalesce(labels(m), ['A', null]) = coalesce(labels(m), ['A', null]) AS r",
     None),
    ("OPTIONAL MATCH (m:Missing) RETURN (CASE WHEN m IS NULL THEN ['A', null] ELSE labels(m) END)"
     " = (CASE WHEN m IS NULL THEN ['A', null] ELSE labels(m) END) AS r", None),
    ("MATCH (a:A {x: 1}) RETURN labels(a) + [null] = labels(a) + [null] AS r", None),
    ("MATCH (a:A {x: 1}) RETURN [l IN labels(a) | null] = [l IN labels(a) | null] AS r", None),
    ("MATCH (a:A {x: 1}) RETURN [l IN labels(a) WHERE l = 'A'] = ['A'] AS r", True),
])
def test_list_equality(db, query: str, expected) -> None:
    assert value(db, query) == expected


def test_a_property_set_from_labels_keeps_its_list_column(db) -> None:
    """A null-free list stores as any list of its elements: the column's type is not widened by it."""
    db.execute("CREATE (:S {tags: ['t']})")
    db.execute("MATCH (s:S), (a:A {x: 1}) SET s.tags = labels(a)")
    rows = db.execute("CALL db.schema.nodeTypeProperties() YIELD nodeType, propertyName, propertyTypes"
                      " WHERE propertyName = 'tags' RETURN propertyTypes").fetchall()
    assert rows == [(["StringArray"],)]
