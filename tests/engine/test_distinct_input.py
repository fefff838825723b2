"""A MATCH whose rows nothing after it counts reads the distinct rows of the variables still read
(engine/plan/rules/multiplicity.py). Every answer must stay as it was, row order included.

Each query is compared with a twin that differs only in reading the dropped variable once more (`x = x`,
always true for a matched node or a non-null value), which keeps every input row: the reference the rule
must agree with."""

from __future__ import annotations

import random

import pytest

import engine


@pytest.fixture(scope="module")
def graph():
    """A random graph where many (x, o) rows lead to the same o: people, topics, and who reads what."""
    rng = random.Random(11)
    people = [{"i": i, "name": f"p{i % 7}"} for i in range(40)]
    topics = [{"i": i, "title": f"t{i % 5}"} for i in range(12)]
    reads = [{"p": rng.randrange(40), "t": rng.randrange(12)} for _ in range(160)]
    knows = [{"a": rng.randrange(40), "b": rng.randrange(40)} for _ in range(120)]
    with engine.connect() as db:
        db.execute("UNWIND $rows AS r CREATE (:Person {i: r.i, name: r.name})", {"rows": people})
        db.execute("UNWIND $rows AS r CREATE (:Topic {i: r.i, title: r.title})", {"rows": topics})
        db.execute("UNWIND $rows AS r MATCH (p:Person {i: r.p}), (t:Topic {i: r.t}) CREATE (p)-[:READS]->(t)",
                   {"rows": reads})
        db.execute("UNWIND $rows AS r MATCH (a:Person {i: r.a}), (b:Person {i: r.b}) CREATE (a)-[:KNOWS]->(b)",
                   {"rows": knows})
        yield db


# {keep} is where the twin reads x again: ` AND x = x` in the second MATCH's WHERE
HOP = "MATCH (x:Person)-[:KNOWS]->(o:Person) MATCH (o)-[:READS]->(t) WHERE true{keep}"
# the same from each person p: its readers' acquaintances o, reached many times each
FAN_IN = ("MATCH (p)-[:READS]->(:Topic)<-[:READS]-(x:Person)-[:KNOWS]->(o:Person)"
          " MATCH (o)-[:READS]->(t) WHERE true{keep}")
SAME_ANSWER = [
    # DISTINCT without ORDER BY: the rows come in the order of their first occurrence
    HOP + " RETURN DISTINCT o.name, t.title",
    HOP + " RETURN DISTINCT t.title ORDER BY t.title",
    "MATCH (x:Person)-[:READS]->(t:Topic) MATCH (t)<-[:READS]-(o) WHERE true{keep} RETURN DISTINCT o",
    "MATCH (x:Person)-[:READS]->(t:Topic) MATCH (t)<-[:READS]-(o) WHERE true{keep}"
    " WITH DISTINCT o RETURN o.i ORDER BY o.i",
    # aggregates blind to repeats
    HOP + " RETURN o.name, count(DISTINCT t) AS n, min(t.i) AS lo, max(t.i) AS hi ORDER BY o.name",
    HOP + " RETURN collect(DISTINCT t.title) AS titles",
    # OPTIONAL MATCH after, a WHERE reading a kept variable, a further MATCH
    "MATCH (x:Person)-[:KNOWS]->(o:Person) OPTIONAL MATCH (o)-[:READS]->(t) WHERE true{keep} RETURN DISTINCT o.i, t.i",
    "MATCH (x:Person)-[:KNOWS]->(o:Person) MATCH (o)-[:READS]->(t) WHERE t.i > o.i % 5{keep}"
    " MATCH (t)<-[:READS]-(q) RETURN DISTINCT q.name",
    # an UNWIND value dropped
    "UNWIND [1, 1, 2, 2, 2] AS x MATCH (o:Person) WHERE o.i < 3"
    " MATCH (o)-[:READS]->(t) WHERE true{keep} RETURN DISTINCT o.i, t.i",
    # counted: each repeat must stay
    HOP + " RETURN o.name, count(*) AS n ORDER BY o.name",
    HOP + " RETURN t.title ORDER BY t.title",
    HOP + " RETURN collect(t.i) AS all",
    HOP + " WITH o, t SKIP 8 RETURN DISTINCT o.i, t.i",
    HOP + " WITH t.title AS title, count(*) AS n RETURN DISTINCT title, n ORDER BY title",
    # inside subqueries: EXISTS never counts its rows, COLLECT of DISTINCT rows keeps their first order,
    # COUNT counts them
    "MATCH (p:Person) RETURN p.i, EXISTS { " + FAN_IN
    + " AND t.i > 3 } AS e ORDER BY p.i",
    "MATCH (p:Person) WHERE p.i < 10 RETURN p.i, COLLECT { " + FAN_IN
    + " RETURN DISTINCT t.title } AS titles ORDER BY p.i",
    "MATCH (p:Person) WHERE p.i < 10 RETURN p.i, COUNT { " + FAN_IN
    + " RETURN t.title } AS n ORDER BY p.i",
]


def _twin(query: str) -> str:
    return query.replace("{keep}", " AND x = x")


@pytest.mark.parametrize("query", SAME_ANSWER)
def test_distinct_input_rows_give_the_same_answer(graph, query):
    optimized = graph.execute(query.replace("{keep}", "")).fetchall()
    reference = graph.execute(_twin(query)).fetchall()
    assert optimized == reference
    assert optimized


def _groupings(db: engine.Connection, query: str) -> int:
    _, trace = db.explain(query)
    return sum(sql.count("GROUP BY") for sql, _ in trace)


@pytest.mark.parametrize(("query", "shrinks"), [
    (HOP + " RETURN DISTINCT t.title", True),
    (HOP + " RETURN max(t.i) AS m", True),
    (HOP + " RETURN count(*) AS n", False),
    (HOP + " RETURN DISTINCT t.i + rand() AS r", False),
    ("MATCH (p:Person) RETURN p.i, COLLECT { " + FAN_IN
     + " RETURN DISTINCT t.title } AS titles", True),
    ("MATCH (p:Person) RETURN p.i, COUNT { " + FAN_IN
     + " RETURN t.title } AS n", False),
    # only a relationship dropped: a repeated row needs parallel relationships, not worth a grouping
    ("MATCH (x:Person)-[r:KNOWS]->(o:Person) MATCH (o)-[:READS]->(t) WHERE true{keep} RETURN DISTINCT x.i, t.i", False),
])
def test_the_input_is_grouped_only_where_no_row_is_counted(graph, query, shrinks):
    """The optimized statement groups its second MATCH's input once more than its twin does, or not at all."""
    extra = _groupings(graph, query.replace("{keep}", "")) - _groupings(graph, _twin(query))
    assert extra == (1 if shrinks else 0)


PROJECTED = [
    # the twin's `WITH v SKIP 0` passes every row on (SKIP counts them), so its projection computes on each
    ("MATCH (x:Person)-[:KNOWS]->(o:Person)-[:READS]->(t) {twin}RETURN DISTINCT properties(t) AS p", "t"),
    ("MATCH (x:Person)-[:KNOWS*1..2]->(o:Person) {twin}RETURN DISTINCT o.name + '!' AS n", "o"),
    ("MATCH (x:Person)-[:KNOWS]->(o:Person) {twin}RETURN max(o.name + 'x') AS m", "o"),
]


@pytest.mark.parametrize(("query", "read"), PROJECTED)
def test_a_distinct_projection_reads_the_distinct_rows_of_what_it_reads(graph, query, read):
    """A DISTINCT (or min/max) projection computes its values over the distinct rows of the variables it
    reads, with the twin's answer, row order included, and one grouping more."""
    optimized, twin = query.format(twin=""), query.format(twin=f"WITH {read} SKIP 0 ")
    assert graph.execute(optimized).fetchall() == graph.execute(twin).fetchall()
    assert _groupings(graph, optimized) == _groupings(graph, twin) + 1
