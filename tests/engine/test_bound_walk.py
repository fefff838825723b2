"""`bound.walk` reads only the fields whose annotations may hold a bound node: it must reach every node that
reading every attribute reaches, in the same order, on statements using every kind of bound node."""

from __future__ import annotations

import pytest

import engine
from engine.compile import bind
from engine.semantic import bound as b
from engine.semantic.unknown import WithUnknowns
from engine.syntax.parser import parse

STATEMENTS = [
    "MATCH (a:P {id: $id})-[r:KNOWS*1..3]->(b) WHERE b.x > 1 AND a:Q RETURN DISTINCT a, count(*) AS n"
    " ORDER BY n DESC SKIP 1 LIMIT $limit",
    "MATCH p = shortestPath((a)-[*]-(b)) RETURN [x IN nodes(p) WHERE x.v IS NOT NULL | x.v][1..2], length(p)",
    "MATCH (a) RETURN CASE WHEN a.x = 1 THEN 'one' ELSE a.y END, reduce(s = 0, x IN a.l | s + x),"
    " all(x IN a.l WHERE x > 0), a {.name, k: a.l[0]}, a.x IS :: INTEGER",
    "MATCH (a) WHERE EXISTS { MATCH (a)-->(c) WHERE c.k = a.k } RETURN COUNT { (a)-->() } AS n,"
    " COLLECT { MATCH (a)-->(d) RETURN d.k } AS ks",
    "MATCH (a) CALL (a) { CREATE (a)-[:R]->(:N {v: a.v}) } IN TRANSACTIONS OF 10 ROWS",
    "UNWIND $rows AS row MERGE (n:N {id: row.id}) ON CREATE SET n.c = timestamp() ON MATCH SET n.m = rand(),"
    " n:Seen, n += row.props",
    "MATCH (n) FOREACH (x IN n.l | SET n.t = x CREATE (:T {x: x})) WITH n, collect(n.v) AS vs"
    " DETACH DELETE n RETURN size(vs)",
    "MATCH (a)((x)-[:R]->(y) WHERE x.v < y.v){1,3}(b) RETURN a, b",
    "MATCH (n) SET n:$($label) REMOVE n.gone WITH n MATCH (n:$any($labels)) RETURN labels(n)",
    "MATCH (n) CALL db.labels() YIELD label WHERE label <> 'X' RETURN n.v[..2], label",
    "MATCH (n) OPTIONAL MATCH (n)-[r]-(m) WITH n, min(m.v) AS low, avg(DISTINCT m.w) AS mean"
    " RETURN n.v + low AS s UNION ALL RETURN 1 AS s",
]


def _every_attribute(root: object) -> list[int]:
    """What `walk` yielded before it read only fields: every attribute of every node looked into."""
    stack, seen, found = [root], set(), []
    while stack:
        node = stack.pop()
        if isinstance(node, list | tuple):
            stack.extend(node)
        elif type(node).__module__ == b.__name__ and id(node) not in seen:
            seen.add(id(node))
            found.append(id(node))
            if not isinstance(node, b.BLiteral | b.BParameter):
                stack.extend(vars(node).values())
    return found


@pytest.fixture(scope="module")
def procedures():
    with engine.connect(":memory:") as connection:
        yield connection.procedures


@pytest.mark.parametrize("statement", STATEMENTS)
def test_walk_reaches_what_reading_every_attribute_reaches(statement, procedures):
    bound = bind(parse(statement), WithUnknowns({"label": "L", "labels": ["A", "B"]}), procedures=procedures)
    walked = [id(node) for node in b.walk(bound)]
    assert walked == _every_attribute(bound)
    assert len(walked) > 10


def test_walk_looks_into_an_attribute_beyond_the_fields():
    """A node carrying an attribute no field declares (a memo) has all its values looked into."""
    bound = bind(parse("RETURN 1 + 2 AS x"), WithUnknowns({}))
    operator = next(node for node in b.walk(bound) if isinstance(node, b.BOperator))
    extra = b.BLiteral(3, type=operator.type, span=operator.span)
    operator.__dict__["_extra"] = extra
    assert any(node is extra for node in b.walk(bound))
