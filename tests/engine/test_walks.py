"""Walks (ADR-0026): a variable-length hop or quantified path pattern walks from the start nodes of the rows it
extends, and a selector of one path, or one length group, walks breadth first.

The walk cap (`max_walk_rows`) makes both observable without timing anything: walking from every node, or
enumerating every trail, holds more partial paths in one step than the cap allows, while the seeded or
breadth-first walk stays under it. Breadth first must also answer exactly what enumerating every path and
ranking them answers, rows and row order alike: a path pattern WHERE (here `WHERE true`) turns breadth first
off, so each case runs both ways on random graphs."""

from __future__ import annotations

import random

import pytest

import engine
from engine.execute import level_walks


def star_of_chains(db: engine.Connection, chains: int, length: int) -> None:
    """`chains` chains of `length` R hops, all from one hub: a walk from every node holds about
    chains * length partial paths in its first step, one from a chain's start node one."""
    db.execute("CREATE (:Hub {i: 0})")
    db.execute("MATCH (h:Hub) UNWIND range(1, $chains) AS c CREATE (h)-[:R]->(:N {i: c * 1000})",
               {"chains": chains})
    for step in range(1, length):
        db.execute("MATCH (n:N) WHERE n.i % 1000 = $step - 1 CREATE (n)-[:R]->(:N {i: n.i + 1})", {"step": step})


@pytest.mark.parametrize("query", [
    "UNWIND [1000, 2000, 3000] AS start MATCH (a:N {i: start})-[:R*1..3]->(b) RETURN count(*) AS n",
    "UNWIND [1000, 2000, 3000] AS start MATCH (a:N {i: start})-[:R]->{1,3}(b) RETURN count(*) AS n",
    "UNWIND [1000, 2000, 3000] AS start MATCH (a:N {i: start})-[:R]->(m)-[:R*0..2]->(b) RETURN count(*) AS n",
    "UNWIND [1000, 2000, 3000] AS start MATCH (a:N {i: start}) MATCH (a)-[:R*1..3]->(b) RETURN count(*) AS n",
    "MATCH (a:N) WHERE a.i IN [1000, 2000, 3000] RETURN sum(COUNT { MATCH (a)-[:R]->{1,3}(b) }) AS n",
    "MATCH (a:N) WHERE a.i IN [1000, 2000, 3000] CALL (a) { MATCH (a)-[:R*1..3]->(b) RETURN b }"
    " RETURN count(*) AS n",
])
def test_a_walk_starts_only_at_the_rows_start_nodes(query: str) -> None:
    with engine.connect(":memory:", max_walk_rows=50) as db:
        star_of_chains(db, chains=100, length=4)
        assert db.execute(query).fetchall() == [(9,)]


def test_a_walk_from_a_fresh_start_node_still_walks_from_every_node() -> None:
    with engine.connect(":memory:") as db:
        star_of_chains(db, chains=3, length=3)
        # 9 relationships, and 6 two-hop paths (from the hub, and from each chain's first node)
        assert db.execute("MATCH (a)-[:R*1..2]->(b) RETURN count(*) AS n").fetchall() == [(15,)]
        assert db.execute("MATCH (a:N)-[:R*2]->(b) RETURN count(*) AS n").fetchall() == [(3,)]


def test_the_walk_cap_counts_one_start_nodes_partial_paths() -> None:
    with engine.connect(":memory:", max_walk_rows=50) as db:
        star_of_chains(db, chains=100, length=2)
        assert db.execute("MATCH (a:N)-[:R*1..4]->(b) RETURN count(*) AS n").fetchall() == [(100,)]
        with pytest.raises(engine.WalkLimitExceeded):
            db.execute("MATCH (h:Hub)-[:R*1..4]->(b) RETURN count(*) AS n")


def test_a_hop_of_at_most_three_relationships_is_joins_without_the_walk_cap() -> None:
    """Up to `generator.CHAIN_MAX` hops a variable-length relationship is a plain join per length (ADR-0037),
    bounded as a fixed-length pattern is: by the graph, not by the walk cap."""
    with engine.connect(":memory:", max_walk_rows=50) as db:
        star_of_chains(db, chains=100, length=2)
        assert db.execute("MATCH (h:Hub)-[:R*1..3]->(b) RETURN count(*) AS n").fetchall() == [(200,)]
        trace = db.explain("MATCH (h:Hub)-[:R*1..3]->(b) RETURN count(*) AS n")[1]
        assert not any("RECURSIVE" in sql for sql, _ in trace)


JOINED = [
    "(a:N)-[r:R*1..3]->(b)",
    "(a:N)-[r:R*0..2]->(b:N)",
    "(a:N)-[r:R*2..3]->(b)",
    "(a:N)<-[r:R*..2]-(b)",
    "(a:N)-[r:R*1..2]-(b)",
    "(a:N)-[r:R*1..3 {w: 1}]->(b)",
    "(a:N)-[r:R*1..2]->(m)-[s:R*1..2]->(b)",
    "(a:N)-[r:R*3]->(b)",
]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("pattern", JOINED)
def test_a_hop_as_joins_matches_what_the_walk_matches(seed: int, pattern: str) -> None:
    """The same pattern with a higher bound and a WHERE on the length walks recursively: the rows, and
    their order, are the same."""
    query = ("MATCH p = {pattern} {where} RETURN a.i AS a, b.i AS b, [n IN nodes(p) | n.i] AS nodes,"
             " [x IN relationships(p) | id(x)] AS rels, [x IN r | id(x)] AS r")
    walked = pattern.replace("*1..3", "*1..4").replace("*0..2", "*0..4").replace("*2..3", "*2..4").replace(
        "*..2", "*..4").replace("*1..2", "*1..4").replace("*3]", "*3..4]")
    lengths = {"*1..3": 3, "*0..2": 2, "*2..3": 3, "*..2": 2, "*1..2": 2, "*3]": 3}
    bound = next(length for token, length in lengths.items() if token in pattern)
    where = f"WHERE size(r) <= {bound}" + (f" AND size(s) <= {bound}" if "[s:" in pattern else "")
    with engine.connect(":memory:") as db:
        random_graph(db, seed, nodes=6, rels=14)
        db.execute("MATCH ()-[x]->() SET x.w = id(x) % 2")
        joined = db.execute(query.format(pattern=pattern, where="")).fetchall()
        assert joined == db.execute(query.format(pattern=walked, where=where)).fetchall()
        assert joined


def complete_graph(db: engine.Connection, size: int) -> None:
    db.execute("UNWIND range(1, $n) AS i CREATE (:N {i: i})", {"n": size})
    db.execute("MATCH (a:N), (b:N) WHERE a <> b CREATE (a)-[:R]->(b)")


@pytest.mark.parametrize(("selector", "pattern"), [
    ("SHORTEST 1", "(a:N {i: 1})-[:R]->+(b:N {i: 2})"),
    ("ANY", "(a:N {i: 1})-[:R]->+(b:N {i: 2})"),
    ("ALL SHORTEST", "(a:N {i: 1})-[:R]->+(b:N {i: 2})"),
    ("SHORTEST 1", "(a:N {i: 1})-[:R*]->(b:N {i: 2})"),
    ("ANY SHORTEST", "(a:N {i: 1})((x)-[:R]->(y))*(b:N {i: 2})"),
])
def test_a_selective_selector_walks_breadth_first(selector: str, pattern: str) -> None:
    # from a node of K12 there are 11 * 11^(k-1) trails of k hops or so: enumerating them all passes the cap
    query = "MATCH p = {selector} {pattern} RETURN length(p) AS n"
    with engine.connect(":memory:", max_walk_rows=2000) as db:
        complete_graph(db, 12)
        assert db.execute(query.format(selector=selector, pattern=pattern)).fetchall() == [(1,)]
        with pytest.raises(engine.WalkLimitExceeded):  # a path pattern WHERE: every path, then ranked
            db.execute(query.format(selector=selector, pattern=f"({pattern} WHERE true)"))


def random_graph(db: engine.Connection, seed: int, nodes: int = 7, rels: int = 12) -> None:
    rng = random.Random(seed)
    db.execute("UNWIND range(1, $n) AS i CREATE (:N {i: i})", {"n": nodes})
    pairs = [[rng.randint(1, nodes), rng.randint(1, nodes)] for _ in range(rels)]
    db.execute("UNWIND $pairs AS pair MATCH (a:N {i: pair[0]}), (b:N {i: pair[1]}) CREATE (a)-[:R]->(b)",
               {"pairs": pairs})


PATTERNS = [
    ("SHORTEST 1", "(a:N)-[r:R]->+(b)"),
    ("SHORTEST 1", "(a:N)<-[r:R]-{0,4}(b)"),
    ("ANY", "(a:N)-[r:R*]->(b)"),
    ("ANY", "(a:N)-[r:R*0..3]->(b:N)"),
    ("ALL SHORTEST", "(a:N)-[r:R]->+(b)"),
    ("SHORTEST 1 GROUP", "(a:N)-[r:R*1..4]->(b)"),
    ("ANY SHORTEST", "(a:N)((x)-[s:R]->(y WHERE y.i > 1))+(b)"),
    ("SHORTEST 1 ACYCLIC", "(a:N)-[r:R]-+(b)"),
    ("ALL SHORTEST ACYCLIC", "(a:N)-[r:R]-{1,5}(b)"),
]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("selector", "pattern"), PATTERNS)
def test_breadth_first_finds_what_ranking_every_path_finds(seed: int, selector: str, pattern: str) -> None:
    query = ("MATCH p = {selector} {pattern} RETURN a.i AS a, b.i AS b,"
             " [n IN nodes(p) | n.i] AS nodes, [x IN relationships(p) | id(x)] AS rels")
    with engine.connect(":memory:") as db:
        random_graph(db, seed)
        breadth_first = db.execute(query.format(selector=selector, pattern=pattern)).fetchall()
        ranked = db.execute(query.format(selector=selector, pattern=f"({pattern} WHERE true)")).fetchall()
    assert breadth_first == ranked


@pytest.mark.parametrize("seed", range(6))
def test_breadth_first_with_a_bound_end_node(seed: int) -> None:
    query = ("MATCH (a:N), (b:N) WHERE a.i <= 3 MATCH p = {selector} {pattern} RETURN a.i AS a, b.i AS b,"
             " [x IN relationships(p) | id(x)] AS rels")
    with engine.connect(":memory:") as db:
        random_graph(db, seed)
        for selector, pattern in [("SHORTEST 1", "(a)-[:R]->+(b)"), ("ALL SHORTEST", "(a)<-[:R]-*(b)"),
                                  ("ANY", "(a)-[:R*..3]->(b)"), ("ALL SHORTEST", "(a)-[:R]-+(b)")]:
            if "]-+" in pattern:  # an undirected trail walks breadth first only under REPEATABLE ELEMENTS
                selector = f"{selector} ACYCLIC"
            breadth_first = db.execute(query.format(selector=selector, pattern=pattern)).fetchall()
            ranked = db.execute(query.format(selector=selector, pattern=f"({pattern} WHERE true)")).fetchall()
            assert breadth_first == ranked, (selector, pattern)


@pytest.mark.parametrize("seed", range(4))
def test_breadth_first_closed_walks(seed: int) -> None:
    """A path back to its start: directed trails and (under REPEATABLE ELEMENTS) walks find the shortest
    one breadth first too."""
    with engine.connect(":memory:") as db:
        random_graph(db, seed, nodes=5, rels=10)
        for match, pattern in [("MATCH", "(a:N)-[:R]->+(a)"), ("MATCH", "(a:N)((x)-[:R]->(y))+(a)"),
                               ("MATCH REPEATABLE ELEMENTS", "(a:N)((x)-[:R]-(y)){1,4}(a)")]:
            query = (f"{match} p = SHORTEST 1 {{pattern}} RETURN a.i AS a, [x IN relationships(p) | id(x)] AS rels")
            breadth_first = db.execute(query.format(pattern=pattern)).fetchall()
            ranked = db.execute(query.format(pattern=f"({pattern} WHERE true)")).fetchall()
            assert breadth_first == ranked, pattern


LEVEL_WALKS = [
    "shortestPath((a)-[:R*]->(b))",
    "shortestPath((a)<-[:R*..3]-(b))",
    "shortestPath((a)-[:R*]-(b))",
    "SHORTEST 1 (a)-[:R*]->(b)",
    "SHORTEST 1 (a)-[:R*0..4]->(b)",
    "ANY (a)<-[:R*1..3]-(b)",
    "shortestPath((a)-[:R|S*]-(b)) WHERE b.i > 2",
    "SHORTEST 1 (a)-[:R*1..5 {w: 1}]->(b)",
    "ANY SHORTEST (a)-[:R|S*]->(b)",
]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("pattern", LEVEL_WALKS)
def test_a_walk_between_bound_nodes_of_a_top_level_match_finds_what_one_per_row_finds(
        seed: int, pattern: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between nodes an earlier clause bound, a shortest path in a large graph runs one level per statement
    over all pairs at once (ADR-0035); inside a CALL subquery it walks per row (ADR-0026). Both give the same
    rows, in the same order, on random graphs with parallel relationships, ties, closed paths (a = b) and
    repeated pairs. The size thresholds are lowered so that small graphs walk by levels."""
    monkeypatch.setattr(level_walks, "LEVEL_WALK_RELATIONSHIPS", 0)
    monkeypatch.setattr(level_walks, "LEVEL_WALK_PAIRS", 0)
    rng = random.Random(seed)
    paths = ("[n IN nodes(p) | n.i] AS nodes, [x IN relationships(p) | id(x)] AS rels")
    top_level = (f"UNWIND $pairs AS pair MATCH (a:N {{i: pair[0]}}), (b:N {{i: pair[1]}}) MATCH p = {pattern}"
                 f" RETURN a.i AS a, b.i AS b, {paths}")
    per_row = (f"UNWIND $pairs AS pair MATCH (a:N {{i: pair[0]}}), (b:N {{i: pair[1]}})"
               f" CALL (a, b) {{ MATCH p = {pattern} RETURN p }} RETURN a.i AS a, b.i AS b, {paths}")
    with engine.connect(":memory:") as db:
        random_graph(db, seed, nodes=8, rels=20)
        db.execute("MATCH ()-[r]->() SET r.w = id(r) % 2")
        db.execute("MATCH (a:N {i: 1}), (b:N {i: 2}) CREATE (a)-[:S {w: 1}]->(b), (b)-[:S {w: 0}]->(a)")
        pairs = [[rng.randint(1, 8), rng.randint(1, 8)] for _ in range(12)] + [[3, 3], [1, 2], [1, 2], [1, 99]]
        levelled = db.execute(top_level, {"pairs": pairs}).fetchall()
        assert levelled == db.execute(per_row, {"pairs": pairs}).fetchall()
        assert any(row[2] for row in levelled)
        assert by_levels(db, top_level, {"pairs": pairs})


def by_levels(db: engine.Connection, query: str, params: dict) -> bool:
    """Whether `query` walks by levels: its SQL inserts a level into a walk table."""
    return any(sql.startswith("INSERT INTO _cypher_walk") for sql, _ in db.explain(query, params)[1])


def test_a_walk_in_a_small_graph_or_for_few_pairs_is_one_recursive_statement() -> None:
    with engine.connect(":memory:") as db:
        random_graph(db, 1, nodes=8, rels=20)
        query = ("UNWIND $pairs AS pair MATCH (a:N {i: pair[0]}), (b:N {i: pair[1]})"
                 " MATCH p = shortestPath((a)-[:R*]->(b)) RETURN length(p) AS n")
        assert not by_levels(db, query, {"pairs": [[1, 2], [3, 4]]})


def test_a_walk_deeper_than_the_level_limit_gives_way_to_the_recursive_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(level_walks, "LEVEL_WALK_RELATIONSHIPS", 0)
    monkeypatch.setattr(level_walks, "LEVEL_WALK_PAIRS", 0)
    monkeypatch.setattr(level_walks, "LEVEL_WALK_LEVELS", 5)
    with engine.connect(":memory:") as db:
        db.execute("UNWIND range(1, 12) AS i CREATE (:N {i: i})")
        db.execute("MATCH (a:N), (b:N) WHERE b.i = a.i + 1 CREATE (a)-[:R]->(b)")
        query = ("UNWIND $pairs AS pair MATCH (a:N {i: pair[0]}), (b:N {i: pair[1]})"
                 " MATCH p = shortestPath((a)-[:R*]->(b)) RETURN a.i AS a, b.i AS b, length(p) AS n")
        assert db.execute(query, {"pairs": [[1, 4], [1, 12], [12, 1]]}).fetchall() == [(1, 4, 3), (1, 12, 11)]
        assert by_levels(db, query, {"pairs": [[1, 4]]})
        assert any("RECURSIVE" in sql for sql, _ in db.explain(query, {"pairs": [[1, 12]]})[1])


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("plain", "walked"), [
    ("(a:N)-[:R]->{1,3}(b)", "(a:N)((x)-[:R]->(y)){1,3}(b)"),
    ("(a:N)<-[:R]-{0,2}(b:N)", "(a:N)((x)<-[:R]-(y)){0,2}(b:N)"),
    ("(a:N)-[:R]-{2,3}(b)", "(a:N)((x)-[:R]-(y)){2,3}(b)"),
])
def test_a_quantified_relationship_as_joins_matches_what_the_walk_matches(seed: int, plain: str, walked: str) -> None:
    """A quantified relationship of up to three iterations is joins, as `-[*1..3]->` is; naming the group's
    nodes makes it a group walk, with the same rows in the same order."""
    query = ("MATCH p = {pattern} RETURN a.i AS a, b.i AS b, [n IN nodes(p) | n.i] AS nodes,"
             " [x IN relationships(p) | id(x)] AS rels")
    with engine.connect(":memory:") as db:
        random_graph(db, seed, nodes=6, rels=14)
        joined = db.execute(query.format(pattern=plain)).fetchall()
        assert joined == db.execute(query.format(pattern=walked)).fetchall()
        assert joined
        assert not any("RECURSIVE" in sql for sql, _ in db.explain(query.format(pattern=plain))[1])


def capped(db: engine.Connection, query: str) -> bool:
    """Whether `query`'s walk checks the cap: its SQL reads the connection's max_walk_rows."""
    return any("max_walk_rows" in sql for sql, _ in db.explain(query)[1])


CHAIN_WALK = "MATCH (a:N {i: 1})-[:R*1..8]->(b) RETURN count(*) AS n"


def test_a_walk_that_cannot_branch_has_no_cap_until_a_node_can_branch() -> None:
    """ADR-0039: over a chain a walk holds one partial path per start, so it checks no cap; a second
    relationship from one node (or into one, for an undirected hop) brings the check back."""
    with engine.connect(":memory:", max_walk_rows=2) as db:
        db.execute("UNWIND range(1, 10) AS i CREATE (:N {i: i})")
        db.execute("MATCH (a:N), (b:N) WHERE b.i = a.i + 1 CREATE (a)-[:R]->(b)")
        assert db.execute(CHAIN_WALK).fetchall() == [(8,)]
        assert not capped(db, CHAIN_WALK)
        assert capped(db, "MATCH (a:N {i: 1})-[:R*1..8]-(b) RETURN count(*) AS n")  # nodes 2..9: two each
        db.execute("MATCH (a:N {i: 2}), (b:N {i: 3}) CREATE (a)-[:R]->(b), (a)-[:R]->(b)")
        assert capped(db, CHAIN_WALK)
        with pytest.raises(engine.WalkLimitExceeded):
            db.execute(CHAIN_WALK)


def test_a_walk_counts_only_the_relationship_types_it_takes() -> None:
    with engine.connect(":memory:") as db:
        db.execute("CREATE (a:N {i: 1})-[:R]->(:N {i: 2})-[:R]->(:N {i: 3}), (a)-[:OTHER]->(:M), (a)-[:OTHER]->(:M)")
        assert not capped(db, CHAIN_WALK)
        assert capped(db, "MATCH (a:N {i: 1})-[:R|OTHER*1..8]->(b) RETURN count(*) AS n")
        assert capped(db, "MATCH (a:N {i: 1})-[*1..8]->(b) RETURN count(*) AS n")


def test_a_rolled_back_branch_is_not_counted_and_a_committed_one_is_counted_by_every_connection(
        tmp_path) -> None:
    path = str(tmp_path / "graph.duckdb")
    with engine.connect(path) as db:
        db.execute("UNWIND range(1, 10) AS i CREATE (:N {i: i})")
        db.execute("MATCH (a:N), (b:N) WHERE b.i = a.i + 1 CREATE (a)-[:R]->(b)")
        assert not capped(db, CHAIN_WALK)
        with pytest.raises(engine.CypherError):
            db.execute("MATCH (a:N {i: 2}) CREATE (a)-[:R]->(:N) WITH a RETURN 1 / 0 AS boom")
        assert not capped(db, CHAIN_WALK)
        with engine.connect(path) as other:
            assert not capped(other, CHAIN_WALK)
            db.execute("MATCH (a:N {i: 2}) CREATE (a)-[:R]->(:N)")
            assert capped(other, CHAIN_WALK)


def level_statements(db: engine.Connection, query: str, params: dict) -> list[str]:
    """The statements of `query`'s level walk that add a level."""
    return [sql for sql, _ in db.explain(query, params)[1] if sql.startswith("INSERT INTO _cypher_walk")]


def ranks_its_frontier(db: engine.Connection, query: str, params: dict) -> bool:
    """Whether `query`'s level walk ranks each level's paths (the tie order a read path needs)."""
    return any("row_number()" in sql for sql in level_statements(db, query, params))


def keeps_parents(db: engine.Connection, query: str, params: dict) -> bool:
    """Whether `query`'s level walk keeps each node's parent, to read the paths back."""
    statements = level_statements(db, query, params)
    assert statements, "no level walk"
    return any("arg_min(" in sql for sql in statements)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("pattern", LEVEL_WALKS)
def test_a_shortest_path_read_only_by_its_length_is_any_shortest_path(
        seed: int, pattern: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """When nothing reads which path was found (only `length(p)`, `count(p)`, `p IS NULL`), the level walk
    keeps any one per node, unranked; the lengths and counts are those of the ranked walk."""
    monkeypatch.setattr(level_walks, "LEVEL_WALK_RELATIONSHIPS", 0)
    monkeypatch.setattr(level_walks, "LEVEL_WALK_PAIRS", 0)
    rng = random.Random(seed)
    match = f"UNWIND $pairs AS pair MATCH (a:N {{i: pair[0]}}), (b:N {{i: pair[1]}}) MATCH p = {pattern}"
    lengths = f"{match} RETURN a.i AS a, b.i AS b, length(p) AS n, p IS NULL AS none"
    counted = f"{match} RETURN count(p) AS found, sum(length(p)) AS hops"
    read = f"{match} RETURN a.i AS a, b.i AS b, length(p) AS n, p IS NULL AS none, size(nodes(p)) AS size"
    with engine.connect(":memory:") as db:
        random_graph(db, seed, nodes=8, rels=20)
        db.execute("MATCH ()-[r]->() SET r.w = id(r) % 2")
        db.execute("MATCH (a:N {i: 1}), (b:N {i: 2}) CREATE (a)-[:S {w: 1}]->(b), (b)-[:S {w: 0}]->(a)")
        pairs = {"pairs": [[rng.randint(1, 8), rng.randint(1, 8)] for _ in range(12)] + [[1, 2], [1, 2]]}
        ranked = db.execute(read, pairs).fetchall()
        assert db.execute(lengths, pairs).fetchall() == [row[:4] for row in ranked]
        assert db.execute(counted, pairs).fetchall() == [(len(ranked), sum(row[2] for row in ranked))]
        assert ranks_its_frontier(db, read, pairs)
        assert not ranks_its_frontier(db, lengths, pairs)
        assert not ranks_its_frontier(db, counted, pairs)
        assert keeps_parents(db, read, pairs)
        assert not keeps_parents(db, lengths, pairs)
        assert not keeps_parents(db, counted, pairs)


def walks_from_both_ends(db: engine.Connection, query: str, params: dict) -> bool:
    """Whether `query`'s level walk searches from both ends of each pair (it seeds a side per end)."""
    return any(sql.startswith("CREATE TEMP TABLE _cypher_walk") and "WHERE s <> t" in sql
               for sql, _ in db.explain(query, params)[1])


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("pattern", ["shortestPath((a)-[:R*]->(b))", "shortestPath((a)<-[:R*..3]-(b))",
                                     "shortestPath((a)-[:R*0..]-(b))",
                                     "shortestPath((a)-[:R*1..4]->(b)) WHERE b.i > 3"])
def test_a_length_only_shortest_path_from_both_ends_has_the_shortest_length(
        seed: int, pattern: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On graphs large enough for paths of several hops, the length searched from both ends of each pair is
    the length of the path the ranked walk from the start finds, for every pair, and the same pairs have one."""
    monkeypatch.setattr(level_walks, "LEVEL_WALK_RELATIONSHIPS", 0)
    monkeypatch.setattr(level_walks, "LEVEL_WALK_PAIRS", 0)
    rng = random.Random(1000 + seed)  # not the graph's own pairs
    match = f"UNWIND $pairs AS pair MATCH (a:N {{i: pair[0]}}), (b:N {{i: pair[1]}}) MATCH p = {pattern}"
    lengths = f"{match} RETURN a.i AS a, b.i AS b, length(p) AS n"
    read = f"{match} RETURN a.i AS a, b.i AS b, length(p) AS n, size(nodes(p)) AS size"
    with engine.connect(":memory:") as db:
        random_graph(db, seed, nodes=40, rels=70)
        pairs = {"pairs": [[rng.randint(1, 40), rng.randint(1, 40)] for _ in range(60)] + [[5, 5]]}
        ranked = db.execute(read, pairs).fetchall()
        assert any(row[2] >= 3 for row in ranked), "no long path: the test checks little"
        assert db.execute(lengths, pairs).fetchall() == [row[:3] for row in ranked]
        assert walks_from_both_ends(db, lengths, pairs)
        assert not walks_from_both_ends(db, read, pairs)
