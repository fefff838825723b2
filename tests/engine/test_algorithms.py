"""Graph algorithm procedures (docs/adr/0024-graph-algorithms.md): `algo.pageRank`, `algo.betweenness` and
`algo.labelPropagation`, checked against igraph run directly on the same edges, on small graphs checked by
hand, and label propagation against a plain-Python rendering of its rule."""

from __future__ import annotations

from collections import Counter

import igraph
import numpy as np
import pytest

import engine


@pytest.fixture
def db():
    with engine.connect(":memory:") as connection:
        yield connection


def _random_graph(db: engine.Connection, n: int = 60, m: int = 240, seed: int = 3) -> list[tuple[int, int]]:
    """`n` :V nodes (and a few :W nodes and :OTHER edges the calls must leave out); returns the :E edges as
    (i, j) pairs, parallel edges included."""
    rng = np.random.default_rng(seed)
    edges = [(int(a), int(b)) for a, b in zip(rng.integers(0, n, m), rng.integers(0, n, m), strict=True) if a != b]
    edges += edges[:5]  # parallel edges count once
    db.execute("UNWIND range(0, $n - 1) AS i CREATE (:V {i: i})", {"n": n})
    db.execute("UNWIND range(0, 4) AS i CREATE (:W {i: 100 + i})")
    db.execute("UNWIND $edges AS e MATCH (a:V {i: e[0]}), (b:V {i: e[1]}) CREATE (a)-[:E]->(b)", {"edges": edges})
    db.execute("MATCH (a:V), (w:W) WHERE a.i % 7 = 0 CREATE (a)-[:E]->(w), (w)-[:OTHER]->(a)")
    db.execute("MATCH (a:V {i: 1}), (b:V {i: 2}) CREATE (a)-[:OTHER]->(b)")
    return edges


def _igraph(n: int, edges: list[tuple[int, int]]) -> igraph.Graph:
    return igraph.Graph(n=n, edges=sorted(set(edges)), directed=True)


def test_page_rank_matches_igraph(db) -> None:
    edges = _random_graph(db)
    rows = dict(db.execute("CALL algo.pageRank('V', 'E') YIELD node, score RETURN node.i, score").fetchall())
    expected = _igraph(60, edges).pagerank(damping=0.85)
    assert sorted(rows) == list(range(60))
    assert np.allclose([rows[i] for i in range(60)], expected, atol=1e-12)
    assert sum(rows.values()) == pytest.approx(1.0)


def test_page_rank_by_hand() -> None:
    """a -> b, b -> c, c -> a: every node 1/3; with d -> a added, d only gets the teleport share and a, whose
    rank d feeds, the most."""
    with engine.connect(":memory:") as db:
        db.execute("CREATE (a:P {n: 'a'})-[:L]->(b:P {n: 'b'})-[:L]->(c:P {n: 'c'})-[:L]->(a)")
        rows = db.execute("CALL algo.pageRank('P', 'L') YIELD node, score RETURN node.n, score").fetchall()
        assert [name for name, _ in rows] == ["a", "b", "c"]
        assert all(score == pytest.approx(1 / 3) for _, score in rows)
        db.execute("MATCH (a:P {n: 'a'}) CREATE (:P {n: 'd'})-[:L]->(a)")
        scores = dict(db.execute("CALL algo.pageRank(null, null) YIELD node, score RETURN node.n, score").fetchall())
        assert scores["d"] == pytest.approx(0.15 / 4)
        assert max(scores, key=scores.__getitem__) == "a"


def test_betweenness_matches_igraph(db) -> None:
    edges = _random_graph(db)
    rows = dict(db.execute("CALL algo.betweenness({nodeLabels: ['V'], relationshipTypes: ['E']}) YIELD node, score"
                           " RETURN node.i, score").fetchall())
    expected = _igraph(60, edges).betweenness(directed=True)
    assert np.allclose([rows[i] for i in range(60)], expected)


def test_betweenness_by_hand(db) -> None:
    """FalkorDB's documented graph: a -> b, b -> c, b -> d, c -> e, d -> e, directed. b lies on every path
    from a to c, d and e (3); c and d on half of the two a -> e and b -> e paths each (1)."""
    db.execute("CREATE (a:Person {name: 'Alice'})-[:FRIEND]->(b:Person {name: 'Bob'}),"
               " (b)-[:FRIEND]->(c:Person {name: 'Charlie'}), (b)-[:FRIEND]->(d:Person {name: 'David'}),"
               " (c)-[:FRIEND]->(e:Person {name: 'Emma'}), (d)-[:FRIEND]->(e)")
    rows = db.execute("CALL algo.betweenness({nodeLabels: ['Person'], relationshipTypes: ['FRIEND']})"
                      " YIELD node, score RETURN node.name AS person, score ORDER BY score DESC, person").fetchall()
    assert rows == [("Bob", 3.0), ("Charlie", 1.0), ("David", 1.0), ("Alice", 0.0), ("Emma", 0.0)]
    everything = db.execute("CALL algo.betweenness(null) YIELD node, score RETURN count(*) AS n").fetchall()
    assert everything == [(5,)]
    assert db.execute("CALL algo.betweenness() YIELD node, score RETURN sum(score)").fetchall() == [(5.0,)]


def _label_propagation_by_rule(n: int, edges: list[tuple[int, int]], rounds: int) -> list[int]:
    """The rule in plain Python: synchronous rounds, undirected neighbours, most frequent label, smallest on a
    tie, unchanged without neighbours."""
    neighbours: dict[int, set[int]] = {i: set() for i in range(n)}
    for a, b in edges:
        neighbours[a].add(b)
        neighbours[b].add(a)
    labels = list(range(n))
    for _ in range(rounds):
        updated = labels[:]
        for node, around in neighbours.items():
            if around:
                counts = Counter(labels[other] for other in around)
                top = max(counts.values())
                updated[node] = min(label for label, count in counts.items() if count == top)
        if updated == labels:
            break
        labels = updated
    return labels


@pytest.mark.parametrize("rounds", [1, 2, 10])
def test_label_propagation_follows_its_rule(db, rounds) -> None:
    edges = _random_graph(db, n=40, m=70, seed=5)
    rows = dict(db.execute("CALL algo.labelPropagation({nodeLabels: ['V'], relationshipTypes: ['E'],"
                           " maxIterations: $r}) YIELD node, communityId RETURN id(node), communityId",
                           {"r": rounds}).fetchall())
    ids = dict(db.execute("MATCH (v:V) RETURN v.i, id(v)").fetchall())
    expected = _label_propagation_by_rule(40, edges, rounds)
    assert {i: rows[ids[i]] for i in range(40)} == {i: ids[expected[i]] for i in range(40)}


def test_label_propagation_by_hand(db) -> None:
    """Two triangles joined by the edge c - x, and an isolated node: the triangles become two communities and
    the isolated node keeps its own id. The second is named 2, c's id: in round 1 x's neighbours y, z, c
    hold 4, 5, 2 (a tie, so 2) while y and z take 3; in round 2 x takes 3 and y, z take 2 (ties again); from
    round 3 on all three hold 2. The rounds are synchronous, as in LDBC's and LAGraph's CDLP."""
    db.execute("CREATE (a:D {n: 'a'}), (b:D {n: 'b'}), (c:D {n: 'c'}), (x:D {n: 'x'}), (y:D {n: 'y'}),"
               " (z:D {n: 'z'}), (:D {n: 'alone'}), (a)-[:CO]->(b), (b)-[:CO]->(c), (c)-[:CO]->(a),"
               " (x)-[:CO]->(y), (y)-[:CO]->(z), (z)-[:CO]->(x), (c)-[:CO]->(x)")
    rows = db.execute("CALL algo.labelPropagation({nodeLabels: ['D'], relationshipTypes: ['CO']})"
                      " YIELD node, communityId RETURN communityId, collect(node.n) AS members"
                      " ORDER BY communityId").fetchall()
    assert rows == [(0, ["a", "b", "c"]), (2, ["x", "y", "z"]), (6, ["alone"])]
    assert db.execute("CALL algo.labelPropagation() YIELD node, communityId RETURN communityId, count(*)"
                      " ORDER BY communityId").fetchall() == [(0, 3), (2, 3), (6, 1)]
    with pytest.raises(engine.CypherError, match="takes 0 to 1 argument"):
        db.execute("CALL algo.labelPropagation({}, {}) YIELD node RETURN node")


def test_algorithms_see_the_statements_own_writes(db) -> None:
    rows = db.execute("CREATE (a:Q)-[:R]->(b:Q) WITH a CALL algo.pageRank('Q', 'R') YIELD node, score"
                      " RETURN count(node) AS n, sum(score) AS total").fetchall()
    assert rows == [(2, pytest.approx(1.0))]


def test_configuration_errors(db) -> None:
    with pytest.raises(engine.CypherError, match="unknown key"):
        db.execute("CALL algo.betweenness({nodeLabel: ['V']}) YIELD node RETURN node")
    with pytest.raises(engine.CypherError, match="array of strings"):
        db.execute("CALL algo.labelPropagation({nodeLabels: 'V'}) YIELD node RETURN node")
    with pytest.raises(engine.CypherError, match="maxIterations"):
        db.execute("CALL algo.labelPropagation({maxIterations: 0}) YIELD node RETURN node")
    with pytest.raises(engine.UnsupportedFeature):
        db.execute("MATCH (n) WITH n.label AS label CALL algo.pageRank(label, null) YIELD node RETURN node")
    assert db.execute("CALL algo.pageRank('Nothing', 'NONE') YIELD node RETURN count(node) AS n").fetchall() == [(0,)]
