"""Vector indexes and k-NN search (docs/adr/0025-vector-indexes.md): FalkorDB's `db.idx.vector.queryNodes`
scores are distances (cosine distance 1 - cos, euclidean distance), nearest first; Neo4j's
`db.index.vector.queryNodes` scores are similarities in [0, 1] ((1 + cos) / 2, 1 / (1 + d²)), most similar
first. Scores are checked against numpy on random vectors."""

from __future__ import annotations

import numpy as np
import pytest

import engine

DIM = 8


def error_of(db: engine.Connection, query: str, params: dict | None = None) -> tuple[str, str | None, str]:
    with pytest.raises(engine.CypherError) as raised:
        db.execute(query, params)
    return raised.value.kind, raised.value.detail, raised.value.message


@pytest.fixture
def vectors() -> np.ndarray:
    return np.random.default_rng(7).normal(size=(40, DIM)).astype(np.float32)


def _graph(vectors: np.ndarray, similarity: str, *, neo4j: bool = False) -> engine.Connection:
    """One index on :Chunk(embedding), created in FalkorDB's form (unnamed) or Neo4j's (named `neo`)."""
    db = engine.connect(":memory:")
    if neo4j:
        db.execute(f"CREATE VECTOR INDEX neo FOR (c:Chunk) ON c.embedding OPTIONS {{indexConfig: "
                   f"{{`vector.dimensions`: {DIM}, `vector.similarity_function`: '{similarity}'}}}}")
    else:
        db.execute(f"CREATE VECTOR INDEX FOR (c:Chunk) ON (c.embedding) OPTIONS {{dimension: {DIM}, "
                   f"similarityFunction: '{similarity}'}}")
    db.execute("UNWIND range(0, size($vs) - 1) AS i CREATE (:Chunk {i: i, embedding: vecf32($vs[i])})",
               {"vs": vectors.tolist()})
    return db


def _distances(vectors: np.ndarray, query: np.ndarray, similarity: str) -> np.ndarray:
    v, q = vectors.astype(np.float64), query.astype(np.float64)
    if similarity == "cosine":
        return 1 - v @ q / (np.linalg.norm(v, axis=1) * np.linalg.norm(q))
    return np.linalg.norm(v - q, axis=1)


@pytest.mark.parametrize("similarity", ["cosine", "euclidean"])
def test_falkordb_scores_are_distances_nearest_first(vectors, similarity) -> None:
    query = np.random.default_rng(1).normal(size=DIM).astype(np.float32)
    with _graph(vectors, similarity) as db:
        rows = db.execute("CALL db.idx.vector.queryNodes('Chunk', 'embedding', 5, vecf32($q)) YIELD node, score"
                          " RETURN node.i AS i, score", {"q": query.tolist()}).fetchall()
    expected = _distances(vectors, query, similarity)
    order = np.argsort(expected, kind="stable")[:5]
    assert [i for i, _ in rows] == order.tolist()
    assert np.allclose([score for _, score in rows], expected[order], atol=1e-6)


@pytest.mark.parametrize("similarity", ["cosine", "euclidean"])
def test_neo4j_scores_are_similarities_most_similar_first(vectors, similarity) -> None:
    query = np.random.default_rng(2).normal(size=DIM)
    with _graph(vectors, similarity, neo4j=True) as db:
        rows = db.execute("CALL db.index.vector.queryNodes('neo', 7, $q) YIELD node, score"
                          " RETURN node.i AS i, score", {"q": query.tolist()}).fetchall()
    distance = _distances(vectors, query.astype(np.float32).astype(np.float64), similarity)
    expected = 1 - distance / 2 if similarity == "cosine" else 1 / (1 + distance ** 2)
    order = np.argsort(-expected, kind="stable")[:7]
    assert [i for i, _ in rows] == order.tolist()
    scores = [score for _, score in rows]
    assert np.allclose(scores, expected[order], atol=1e-5)
    assert all(0 <= score <= 1 for score in scores)


def test_k_larger_than_the_index_returns_every_vector(vectors) -> None:
    with _graph(vectors, "cosine") as db:
        (count,) = db.execute("CALL db.idx.vector.queryNodes('Chunk', 'embedding', 1000, vecf32($q)) YIELD node"
                              " RETURN count(node) AS n", {"q": [1.0] * DIM}).fetchall()[0]
    assert count == len(vectors)


def test_each_calling_row_gets_its_own_neighbours(vectors) -> None:
    with _graph(vectors, "euclidean") as db:
        rows = db.execute("UNWIND [0, 5, 9] AS i MATCH (c:Chunk {i: i}) CALL db.idx.vector.queryNodes('Chunk',"
                          " 'embedding', 1, c.embedding) YIELD node, score RETURN i, node.i AS j, score").fetchall()
    assert rows == [(0, 0, 0.0), (5, 5, 0.0), (9, 9, 0.0)]


def test_a_k_read_from_the_row_ranks_each_rows_own_number(vectors) -> None:
    """A k that is one literal or parameter for the whole call takes the k nearest; one read from the row
    ranks the candidates for each row: both answer alike."""
    query = (vectors[2] + 0.01).tolist()
    with _graph(vectors, "cosine") as db:
        per_row = db.execute("UNWIND [1, 3, 0 + 5] AS k CALL db.idx.vector.queryNodes('Chunk', 'embedding', k,"
                             " vecf32($q)) YIELD node RETURN k, collect(node.i) AS ids", {"q": query}).fetchall()
        for k, ids in per_row:
            ((fixed,),) = db.execute("CALL db.idx.vector.queryNodes('Chunk', 'embedding', $k, vecf32($q)) YIELD node"
                                    " RETURN collect(node.i)", {"k": k, "q": query}).fetchall()
            assert ids == fixed and len(ids) == k
    assert per_row[0][1] == [2]


def test_the_catalogue_similarity_form(vectors) -> None:
    """`1 - min(score)` of the FalkorDB cosine index is the cosine similarity of the nearest chunk."""
    query = vectors[3] + 0.01
    with _graph(vectors, "cosine") as db:
        db.execute("MATCH (c:Chunk) WHERE c.i < 4 CREATE (c)-[:PART_OF]->(:Entity {key: 'e' + toString(c.i)})")
        rows = db.execute("CALL db.idx.vector.queryNodes('Chunk', 'embedding', $k, vecf32($vec)) YIELD node, score"
                          " MATCH (node)-[:PART_OF]->(n:Entity) RETURN n.key AS key, 1 - min(score) AS similarity"
                          " ORDER BY similarity DESC LIMIT 1", {"k": 40, "vec": query.tolist()}).fetchall()
    assert rows[0][0] == "e3" and rows[0][1] == pytest.approx(1 - _distances(vectors, query, "cosine")[3], abs=1e-6)


def test_either_procedure_finds_an_index_made_in_either_form(vectors) -> None:
    with _graph(vectors, "euclidean", neo4j=True) as db:
        falkordb = db.execute("CALL db.idx.vector.queryNodes('Chunk', 'embedding', 2, vecf32($q)) YIELD node, score"
                              " RETURN node.i, score", {"q": vectors[0].tolist()}).fetchall()
        assert falkordb[0] == (0, 0.0)
    with _graph(vectors, "euclidean") as db:
        (name,) = db.execute("SHOW VECTOR INDEXES YIELD name").fetchall()[0]
        neo4j = db.execute("CALL db.index.vector.queryNodes($name, 2, $q) YIELD node, score RETURN node.i, score",
                           {"name": name, "q": vectors[0].tolist()}).fetchall()
        assert neo4j[0] == (0, 1.0)


def test_the_index_follows_create_set_and_delete(vectors) -> None:
    query = {"q": [0.0] * (DIM - 1) + [1.0]}
    nearest = ("CALL db.idx.vector.queryNodes('Chunk', 'embedding', 1, vecf32($q)) YIELD node, score"
               " RETURN node.i AS i, score")
    with _graph(vectors, "cosine") as db:
        db.execute("CREATE (:Chunk {i: 100, embedding: vecf32($q)})", query)
        assert db.execute(nearest, query).fetchall() == [(100, 0.0)]
        db.execute("MATCH (c:Chunk {i: 100}) SET c.embedding = vecf32([1.0] + $rest)", {"rest": [0.0] * (DIM - 1)})
        db.execute("MATCH (c:Chunk {i: 5}) SET c.embedding = vecf32($q)", query)
        assert db.execute(nearest, query).fetchall() == [(5, 0.0)]
        db.execute("MATCH (c:Chunk {i: 5}) DETACH DELETE c")
        assert db.execute(nearest, query).fetchall()[0][0] != 5
        db.execute("MATCH (c:Chunk {i: 7}) REMOVE c:Chunk")
        ids = [i for (i,) in db.execute("CALL db.idx.vector.queryNodes('Chunk', 'embedding', 100, vecf32($q))"
                                        " YIELD node RETURN node.i", query).fetchall()]
        assert 7 not in ids and 5 not in ids and 100 in ids


def test_query_vectors_of_the_wrong_dimension_are_errors(vectors) -> None:
    with _graph(vectors, "cosine", neo4j=True) as db:
        kind, detail, message = error_of(db, "CALL db.idx.vector.queryNodes('Chunk', 'embedding', 3, vecf32([1, 2]))"
                                             " YIELD node RETURN node")
        assert (kind, detail) == ("ArgumentError", "InvalidArgumentValue")
        assert "2 dimensions" in message and f"has {DIM}" in message
        assert error_of(db, "CALL db.index.vector.queryNodes('neo', 3, [1.0]) YIELD node RETURN node")[0] == \
            "ArgumentError"
        assert error_of(db, "CALL db.index.vector.queryNodes('neo', 0, $q) YIELD node RETURN node",
                        {"q": [1.0] * DIM})[0] == "ArgumentError"


def test_stored_vectors_of_another_dimension_are_not_indexed(vectors) -> None:
    with _graph(vectors, "euclidean") as db:
        db.execute("CREATE (:Chunk {i: -1, embedding: [1.0, 2.0]}), (:Chunk {i: -2, embedding: 'text'})")
        (count,) = db.execute("CALL db.idx.vector.queryNodes('Chunk', 'embedding', 100, vecf32($q)) YIELD node"
                              " RETURN count(*)", {"q": [0.5] * DIM}).fetchall()[0]
    assert count == len(vectors)


def test_missing_indexes_and_bad_options_are_errors() -> None:
    with engine.connect(":memory:") as db:
        assert error_of(db, "CALL db.idx.vector.queryNodes('X', 'e', 1, vecf32([1])) YIELD node RETURN node")[0] \
            == "ProcedureError"
        assert "no such vector schema index" in error_of(
            db, "CALL db.index.vector.queryNodes('nope', 1, [1.0]) YIELD node RETURN node")[2]
        assert error_of(db, "CREATE VECTOR INDEX FOR (c:C) ON (c.e) OPTIONS {dimension: 3}")[1] == \
            "InvalidArgumentValue"
        assert error_of(db, "CREATE VECTOR INDEX FOR (c:C) ON (c.e) OPTIONS {dimension: 3, "
                            "similarityFunction: 'dot'}")[1] == "InvalidArgumentValue"
        assert error_of(db, "CREATE VECTOR INDEX FOR (c:C) ON (c.e)")[1] == "InvalidArgumentValue"
        db.execute("CREATE VECTOR INDEX v IF NOT EXISTS FOR (c:C) ON (c.e) OPTIONS {dimension: 3, "
                   "similarityFunction: 'euclidean'}")
        again = db.execute("CREATE VECTOR INDEX v IF NOT EXISTS FOR (c:C) ON (c.e) OPTIONS {dimension: 3, "
                           "similarityFunction: 'euclidean'}")
        assert not any(again.counters.values())
        assert db.execute("SHOW VECTOR INDEXES YIELD name, type, labelsOrTypes, properties").fetchall() == [
            ("v", "VECTOR", ["C"], ["e"])]
        assert db.execute("DROP INDEX v").counters["indexes_removed"] == 1


def test_vector_functions() -> None:
    with engine.connect(":memory:") as db:
        row = db.execute("RETURN vecf32([0.1, 1]) AS v, vec.euclideanDistance(vecf32([0, 0]), vecf32([3, 4])) AS d,"
                         " vec.cosineDistance([1.0, 0.0], [0.0, 1.0]) AS c,"
                         " vector.similarity.cosine([1.0, 0.0], [1.0, 0.0]) AS s,"
                         " vector.similarity.euclidean([0.0], [2.0]) AS e").fetchall()[0]
        assert row == (pytest.approx([float(np.float32(0.1)), 1.0]), 5.0, 1.0, 1.0, pytest.approx(0.2))
        assert error_of(db, "RETURN vec.cosineDistance([1.0], [1.0, 2.0]) AS d")[0] == "ArgumentError"
        assert error_of(db, "RETURN vecf32(['a']) AS v")[0] == "TypeError"
        assert error_of(db, "RETURN vecf32([1, null]) AS v")[0] == "TypeError"


def test_cypher_25_search_clause(vectors) -> None:
    """`MATCH ... SEARCH v IN (VECTOR INDEX name FOR q LIMIT k) SCORE AS s`: the pattern's matches whose v is
    among the index's k nearest, scored as db.index.vector.queryNodes scores them."""
    query = vectors[11] * 2
    with _graph(vectors, "cosine", neo4j=True) as db:
        db.execute("MATCH (c:Chunk) WHERE c.i % 2 = 1 CREATE (c)-[:PART_OF]->(:Doc {n: c.i})")
        procedure = db.execute("CALL db.index.vector.queryNodes('neo', 4, $q) YIELD node, score"
                               " RETURN node.i AS i, score", {"q": query.tolist()}).fetchall()
        searched = db.execute("MATCH (c:Chunk) SEARCH c IN (VECTOR INDEX neo FOR $q LIMIT 4) SCORE AS s"
                              " RETURN c.i AS i, s", {"q": query.tolist()}).fetchall()
        assert searched == procedure and searched[0] == (11, pytest.approx(1.0))
        joined = db.execute("MATCH (c:Chunk) SEARCH c IN (VECTOR INDEX neo FOR $q LIMIT 4) MATCH (c)-[:PART_OF]->(d)"
                            " RETURN d.n AS n ORDER BY n", {"q": query.tolist()}).fetchall()
        assert joined == sorted((i,) for i, _ in procedure if i % 2 == 1)
        assert error_of(db, "MATCH (c:Chunk)-[:PART_OF]->(d) SEARCH c IN (VECTOR INDEX neo FOR $q LIMIT 4) RETURN c",
                        {"q": query.tolist()})[1] == "InvalidSearchPattern"  # Neo4j: one bound variable
        assert error_of(db, "OPTIONAL MATCH (c:Chunk) SEARCH c IN (VECTOR INDEX neo FOR $q LIMIT 4) RETURN c",
                        {"q": query.tolist()})[0] == "UnsupportedFeature"
        assert error_of(db, "MATCH (c:Chunk) SEARCH x IN (VECTOR INDEX neo FOR $q LIMIT 4) RETURN c",
                        {"q": query.tolist()})[0] == "SyntaxError"


def test_all_zero_vectors_are_not_in_a_cosine_index(vectors) -> None:
    with _graph(vectors[:3], "cosine") as db:
        db.execute("CREATE (:Chunk {i: -1, embedding: vecf32($z)})", {"z": [0.0] * DIM})
        ids = [i for (i,) in db.execute("CALL db.idx.vector.queryNodes('Chunk', 'embedding', 10, vecf32($q))"
                                        " YIELD node RETURN node.i", {"q": [1.0] * DIM}).fetchall()]
        assert sorted(ids) == [0, 1, 2]
        assert error_of(db, "CALL db.idx.vector.queryNodes('Chunk', 'embedding', 1, vecf32($z)) YIELD node"
                            " RETURN node", {"z": [0.0] * DIM})[0] == "ArgumentError"


def test_a_neo4j_index_without_a_dimension_takes_the_query_vectors() -> None:
    with engine.connect(":memory:") as db:
        db.execute("CREATE VECTOR INDEX any_size FOR (d:Doc) ON d.v OPTIONS {indexConfig: {}}")
        db.execute("CREATE (:Doc {n: 1, v: [1.0, 0.0]}), (:Doc {n: 2, v: [0.0, 1.0, 0.0]}),"
                   " (:Doc {n: 3, v: [3.0, 4.0]})")
        rows = db.execute("CALL db.index.vector.queryNodes('any_size', 5, [1.0, 0.0]) YIELD node, score"
                          " RETURN node.n, score").fetchall()
        assert rows == [(1, 1.0), (3, pytest.approx(0.8))]
        assert db.execute("SHOW VECTOR INDEXES YIELD options").fetchall() == [
            ({"indexConfig": {"vector.dimensions": None, "vector.similarity_function": "COSINE"},
              "indexProvider": "vector-2.0"},)]
