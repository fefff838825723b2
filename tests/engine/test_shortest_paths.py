"""Path selectors and the legacy shortest-path functions: the cases the conformance page
`tests/conformance/shortest-paths.md` found the engine getting wrong. The k of `SHORTEST k` / `ANY k` may be a
parameter, `SHORTEST GROUPS` means one group and `PATH`/`PATHS` may stand before `GROUPS` (Cypher manual,
Syntax and semantics, Shortest paths); `MATCH (a ...), (b ...), p = shortestPath((a)-[*]-(b))` is the
functions' classic form, not a selective path pattern mixed with others."""

from __future__ import annotations

import pytest

import engine

# Two two-hop routes and one three-hop route from a to d, and a node z that no route reaches.
GRAPH = ("CREATE (a:N {name: 'a'}), (b:N {name: 'b'}), (c:N {name: 'c'}), (d:N {name: 'd'}), (z:N {name: 'z'}),"
         " (a)-[:R]->(b), (b)-[:R]->(d), (a)-[:R]->(c), (c)-[:R]->(d), (b)-[:R]->(c)")
ROUTES = "(:N {name: 'a'})-[:R]->+(:N {name: 'd'})"


@pytest.mark.parametrize(("selector", "params", "lengths"), [
    ("SHORTEST $k", {"k": 1}, [2]),
    ("SHORTEST $k", {"k": 3}, [2, 2, 3]),
    ("ANY $k", {"k": 2}, None),
    ("SHORTEST $k GROUPS", {"k": 2}, [2, 2, 3]),
    ("SHORTEST GROUPS", {}, [2, 2]),
    ("SHORTEST PATHS GROUPS", {}, [2, 2]),
    ("SHORTEST 2 PATH GROUPS", {}, [2, 2, 3]),
])
def test_selector_counts(selector: str, params: dict, lengths: list[int] | None) -> None:
    with engine.connect(":memory:") as db:
        db.execute(GRAPH)
        rows = db.execute(f"MATCH p = {selector} {ROUTES} RETURN length(p) AS n ORDER BY n", params).fetchall()
    if lengths is None:
        assert len(rows) == 2
    else:
        assert [row[0] for row in rows] == lengths


@pytest.mark.parametrize(("value", "detail"), [("2", "InvalidArgumentType"), (-1, "NegativeIntegerArgument")])
def test_selector_parameter_must_be_a_non_negative_integer(value: object, detail: str) -> None:
    with engine.connect(":memory:") as db, pytest.raises(engine.CypherError) as raised:
        db.execute(f"MATCH p = SHORTEST $k {ROUTES} RETURN p", {"k": value})
    assert (raised.value.kind, raised.value.detail) == ("ArgumentError", detail)


def test_shortest_path_function_with_node_patterns_in_one_match() -> None:
    with engine.connect(":memory:") as db:
        db.execute(GRAPH)
        one = db.execute("MATCH (a:N {name: 'a'}), (d:N {name: 'd'}), p = shortestPath((a)-[:R*..15]->(d))"
                         " RETURN length(p) AS n").fetchall()
        every = db.execute("MATCH (a:N {name: 'a'}), (x:N), p = shortestPath((a)-[:R*]->(x))"
                           " WHERE none(n IN nodes(p) WHERE n.name = 'b')"
                           " RETURN x.name AS x, length(p) AS n ORDER BY x").fetchall()
        tied = db.execute("MATCH (a:N {name: 'a'}), (d:N {name: 'd'}), p = allShortestPaths((a)-[:R*]->(d))"
                          " RETURN count(*) AS n").fetchall()
    assert one == [(2,)]
    assert every == [("c", 1), ("d", 2)]
    assert tied == [(2,)]


@pytest.mark.parametrize("query", [
    "MATCH (a:N)-[:R]->(b), p = shortestPath((a)-[:R*]->(b)) RETURN p",
    "OPTIONAL MATCH (a:N), (b:N), p = shortestPath((a)-[:R*]->(b)) RETURN p",
    "MATCH (a:N), (b:N), p = shortestPath((a)-[:R*]->(b)), q = shortestPath((b)-[:R*]->(a)) RETURN p",
])
def test_other_mixes_with_the_functions_are_not_run(query: str) -> None:
    with engine.connect(":memory:") as db, pytest.raises(engine.UnsupportedFeature):
        db.execute(query)


def test_selective_selector_with_other_patterns_is_still_an_error() -> None:
    with engine.connect(":memory:") as db, pytest.raises(engine.CypherError) as raised:
        db.execute("MATCH (a:N), p = SHORTEST 1 (a)-[:R]->+(b) RETURN p")
    assert (raised.value.kind, raised.value.detail) == ("SyntaxError", "SelectivePathPattern")


# A complete graph of 8 nodes: 7 nodes one hop away, trails in the tens of thousands within 6 hops.
COMPLETE = ("UNWIND range(1, 8) AS i CREATE (:K {i: i})"
            " WITH 1 AS one MATCH (a:K), (b:K) WHERE a <> b CREATE (a)-[:E]->(b)")


@pytest.mark.parametrize("where", ["", "WHERE a.i < b.i"])
def test_shortest_path_function_walks_breadth_first_under_a_where_that_reads_no_path(where: str) -> None:
    # breadth first, no step holds more than the 8 nodes; enumerating trails would pass the cap of 50
    with engine.connect(":memory:", max_walk_rows=50) as db:
        db.execute(COMPLETE)
        rows = db.execute(f"UNWIND [[1, 2], [3, 8]] AS pair MATCH (a:K {{i: pair[0]}}), (b:K {{i: pair[1]}})"
                          f" MATCH p = shortestPath((a)-[:E*..6]->(b)) {where} RETURN length(p) AS n").fetchall()
    assert rows == [(1,), (1,)]


def test_shortest_path_function_whose_where_reads_the_path_still_enumerates() -> None:
    with engine.connect(":memory:", max_walk_rows=50) as db:
        db.execute(COMPLETE)
        with pytest.raises(engine.CypherError, match="partial paths"):
            db.execute("MATCH (a:K {i: 1}), (b:K {i: 2}) MATCH p = shortestPath((a)-[:E*..6]->(b))"
                       " WHERE length(p) > 1 RETURN length(p) AS n").fetchall()


def test_one_shortest_path_per_node_needs_no_walk_cap() -> None:
    # keeping one path per node, a step holds at most the graph's nodes (7 here), over a cap of 3; keeping
    # every tie, the paths of one length can multiply, and the cap still applies
    with engine.connect(":memory:", max_walk_rows=3) as db:
        db.execute(COMPLETE)
        rows = db.execute("MATCH (a:K {i: 1}), (b:K {i: 2}) MATCH p = shortestPath((a)-[:E*..6]->(b))"
                          " WHERE a.i < b.i RETURN length(p) AS n").fetchall()
        assert rows == [(1,)]
        rows = db.execute("MATCH p = SHORTEST 1 (a:K {i: 1})-[:E]->+(b:K) RETURN count(p) AS n").fetchall()
        assert rows == [(8,)]  # the 7 other nodes, and a itself by a cycle of two
        with pytest.raises(engine.WalkLimitExceeded):
            db.execute("MATCH p = ALL SHORTEST (a:K {i: 1})-[:E]->+(b:K) RETURN count(p) AS n").fetchall()
