"""A node reached by a hop joins the node table only where something reads it beyond its id."""

from __future__ import annotations

import engine
from engine.values import Node

CHAIN = "UNWIND range(1, 6) AS i CREATE (:P {i: i, name: 'p' + i})"
LINKS = "MATCH (a:P), (b:P) WHERE b.i = a.i + 1 OR b.i = a.i + 2 CREATE (a)-[:R {w: a.i}]->(b)"


def node_joins(db: engine.Connection, query: str) -> int:
    """How many times the statement's SQL joins the node table."""
    return sum(sql.count("nodes AS n") for sql, _ in db.explain(query)[1])


def graph() -> engine.Connection:
    db = engine.connect(":memory:")
    db.execute(CHAIN)
    db.execute(LINKS)
    return db


def test_a_named_end_node_read_only_as_a_value_is_the_relationship_end() -> None:
    with graph() as db:
        query = "MATCH (a:P {i: 1})-[:R]->()-[:R]->(c) RETURN count(*) AS paths, count(DISTINCT c) AS reached"
        assert db.execute(query).fetchall() == [(4, 3)]
        assert node_joins(db, query) == 1  # a's, for its label and property; c is r.dst


def test_a_named_end_node_whose_properties_are_read_keeps_its_join() -> None:
    with graph() as db:
        query = "MATCH (a:P {i: 1})-[:R]->(c) RETURN c.name AS name ORDER BY name"
        assert db.execute(query).fetchall() == [("p2",), ("p3",)]
        assert node_joins(db, query) == 2


def test_a_node_reached_without_a_join_is_still_a_whole_node() -> None:
    with graph() as db:
        rows = db.execute("MATCH (a:P {i: 4})-[:R]->(c) RETURN c, properties(c) AS p ORDER BY p.i").fetchall()
        assert [(row[0].labels, row[0].properties, row[1]) for row in rows] == [
            (("P",), {"i": 5, "name": "p5"}, {"i": 5, "name": "p5"}),
            (("P",), {"i": 6, "name": "p6"}, {"i": 6, "name": "p6"})]
        assert all(isinstance(row[0], Node) for row in rows)


def test_a_node_reached_after_a_delete_in_the_statement_is_joined() -> None:
    with graph() as db:
        db.execute("CREATE (:Q)")
        query = ("MATCH (q:Q) DELETE q WITH count(*) AS gone MATCH (a:P {i: 1})-[:R]->(c)"
                 " RETURN gone, count(DISTINCT c) AS reached")
        assert db.execute(query).fetchall() == [(1, 2)]



def test_a_node_before_a_walk_filtered_by_an_earlier_clauses_node_reads_it_after_the_join() -> None:
    """The node before a variable-length walk filters itself (a LATERAL subquery), except by conditions that
    read an entity row the SELECT joins after its pattern: `x.i` here, a join of x's row (x is a node id
    unwound from a list, so nothing carries its properties)."""
    walk = "-[:R*4..]->(c) RETURN a.i AS a, count(*) AS paths ORDER BY a"
    with engine.connect(":memory:") as db:
        db.execute("UNWIND range(1, 12) AS i CREATE (:P {i: i})")
        db.execute(LINKS)
        read_off_x = db.execute("MATCH (x:P {i: 2}) WITH collect(x) AS xs UNWIND xs AS x "
                                f"MATCH (a:P WHERE a.i > x.i AND a.i < 5){walk}")
        constant = db.execute(f"MATCH (a:P WHERE a.i > 2 AND a.i < 5){walk}")
        assert read_off_x.fetchall() == constant.fetchall() == [(3, 128), (4, 73)]  # 4+ steps of 1 or 2, to p12
