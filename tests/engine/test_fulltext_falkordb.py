"""FalkorDB's full-text forms: createNodeIndex as a schema command, queryNodes by label with RediSearch's
query syntax, over the same BM25 index as Neo4j's procedures."""

import pytest

import engine


@pytest.fixture
def db():
    with engine.connect(":memory:") as connection:
        assert connection.execute(
            "CALL db.idx.fulltext.createNodeIndex('Entity', 'title', 'name')").counters["indexes_added"] == 1
        connection.execute("CREATE (:Entity {title: 'vector index for chunks'}), (:Entity {name: 'full-text index'}),"
                           " (:Entity {title: 'release notes'}), (:Other {title: 'vector index'})")
        yield connection


def hits(db, query: str) -> list[str]:
    result = db.execute("CALL db.idx.fulltext.queryNodes('Entity', $q) YIELD node, score"
                        " RETURN coalesce(node.title, node.name) AS text ORDER BY score DESC, text", {"q": query})
    return [text for (text,) in result.fetchall()]


def test_the_index_is_listed_like_any_full_text_index(db):
    assert db.execute("SHOW FULLTEXT INDEXES YIELD labelsOrTypes, properties").fetchall() == [
        (["Entity"], ["title", "name"])]


@pytest.mark.parametrize(("query", "expected"), [
    ("index", ["vector index for chunks", "full-text index"]),
    ("vector index", ["vector index for chunks"]),             # terms are ANDed, as RediSearch does
    ("index -vector", ["full-text index"]),
    ("vect*", ["vector index for chunks"]),
    ("release|vector", ["release notes", "vector index for chunks"]),
    ('"index for"', ["vector index for chunks"]),
])
def test_redisearch_syntax_over_the_labels_index(db, query, expected):
    assert hits(db, query) == expected


def test_scores_are_the_same_bm25_as_neo4js_procedure(db):
    falkor = db.execute("CALL db.idx.fulltext.queryNodes('Entity', 'index') YIELD node, score"
                        " RETURN id(node) AS id, score ORDER BY id").fetchall()
    neo4j = db.execute("CALL db.index.fulltext.queryNodes('falkordb_fulltext_Entity', 'index') YIELD node, score"
                       " RETURN id(node) AS id, score ORDER BY id").fetchall()
    assert falkor == neo4j and len(falkor) == 2


def test_a_label_without_an_index_is_a_procedure_error(db):
    with pytest.raises(engine.ProcedureError, match="no full-text index on the label 'Nope'"):
        db.execute("CALL db.idx.fulltext.queryNodes('Nope', 'x') YIELD node RETURN node")


@pytest.mark.parametrize("query", ["(a b)", "@title:x", "%fuzy%"])
def test_syntax_outside_the_documented_subset_is_refused(db, query):
    with pytest.raises(engine.UnsupportedFeature):
        hits(db, query)


def test_create_node_index_needs_a_label_and_string_properties():
    with engine.connect(":memory:") as connection:
        with pytest.raises(engine.CypherError, match="a label and one or more property names"):
            connection.execute("CALL db.idx.fulltext.createNodeIndex('Movie', 3)")
        with pytest.raises(engine.UnsupportedFeature, match="the map form"):
            connection.execute("CALL db.idx.fulltext.createNodeIndex({label: 'Movie'}, 'title')")
