"""langchain-neo4j's `Neo4jGraph` on the engine: made as a user makes it, with the Neo4j driver it opens
replaced by the stand-in (tests/clients/driver.py), so that its schema refresh (at construction, and
`refresh_schema()`) sends the statements of the installed packages (langchain-neo4j builds its schema with
neo4j-graphrag's `get_structured_schema`) and parses what comes back with its own code into `graph.schema`,
the text a Cypher-writing chain puts in its prompt, and `graph.structured_schema`.
"""

from __future__ import annotations

import pytest

pytest.importorskip("langchain_neo4j")

import neo4j
from langchain_neo4j import Neo4jGraph
from neo4j_graphrag import schema

import engine
from tests.clients.conftest import NODE_PROPS, PATTERNS, REL_PROPS
from tests.clients.driver import EngineDriver


@pytest.fixture
def driver(movies: engine.Connection, monkeypatch: pytest.MonkeyPatch) -> EngineDriver:
    """The driver `Neo4jGraph` gets when it calls `neo4j.GraphDatabase.driver(url, ...)`."""
    stand_in = EngineDriver(movies)
    monkeypatch.setattr(neo4j.GraphDatabase, "driver", lambda *args, **kwargs: stand_in)
    return stand_in


def _graph(**options: object) -> Neo4jGraph:
    return Neo4jGraph(url="bolt://localhost:7687", username="neo4j", password="secret", **options)


def test_schema_refresh_on_construction(driver: EngineDriver) -> None:
    graph = _graph()
    assert [text for text, _ in driver.statements] == [
        schema.NODE_PROPERTIES_QUERY, schema.REL_PROPERTIES_QUERY, schema.REL_QUERY, "SHOW CONSTRAINTS",
        schema.INDEX_QUERY]
    structured = graph.get_structured_schema
    assert {label: {(p["property"], p["type"]) for p in props}
            for label, props in structured["node_props"].items()} == NODE_PROPS
    assert {rel: {(p["property"], p["type"]) for p in props}
            for rel, props in structured["rel_props"].items()} == REL_PROPS
    assert {(r["start"], r["type"], r["end"]) for r in structured["relationships"]} == PATTERNS
    text = graph.get_schema
    assert text.startswith("Node properties:\n")
    assert "The relationships:\n" in text
    for start, rel, end in PATTERNS:
        assert f"(:{start})-[:{rel}]->(:{end})" in text.splitlines()
    assert any(line.startswith("Movie {") and "released: INTEGER" in line for line in text.splitlines())


def test_refresh_schema_sees_new_labels(driver: EngineDriver, movies: engine.Connection) -> None:
    graph = _graph()
    graph.query("CREATE (:Genre {name: $name})", {"name": "Sci-Fi"})
    graph.refresh_schema()
    assert graph.structured_schema["node_props"]["Genre"] == [{"property": "name", "type": "STRING"}]
    assert "Genre {name: STRING}" in graph.schema.splitlines()


def test_query_returns_the_records_as_dicts(driver: EngineDriver) -> None:
    graph = _graph(refresh_schema=False)
    rows = graph.query("MATCH (p:Person)-[:ACTED_IN]->(m:Movie {title: $title}) RETURN p.name AS name, m"
                       " ORDER BY name", {"title": "The Matrix"})
    assert rows == [
        {"name": "Carrie-Anne Moss", "m": {"title": "The Matrix", "released": 1999,
                                           "tagline": "Welcome to the Real World"}},
        {"name": "Keanu Reeves", "m": {"title": "The Matrix", "released": 1999,
                                       "tagline": "Welcome to the Real World"}}]


def test_constraint_metadata_for_graph_documents(driver: EngineDriver) -> None:
    """`add_graph_documents(baseEntityLabel=True)` creates its `__Entity__` id constraint unless the schema's
    constraint metadata lists one: the SHOW CONSTRAINTS rows must carry `labelsOrTypes` and `properties`."""
    graph = _graph()
    graph.query("CREATE CONSTRAINT IF NOT EXISTS FOR (b:__Entity__) REQUIRE b.id IS UNIQUE;")
    graph.refresh_schema()
    assert any(c["labelsOrTypes"] == ["__Entity__"] and c["properties"] == ["id"]
               for c in graph.structured_schema["metadata"]["constraint"])


def test_enhanced_schema(driver: EngineDriver) -> None:
    graph = _graph(enhanced_schema=True)
    assert "  - `born`: INTEGER Min: 1964, Max: 1967" in graph.schema.splitlines()


def _documents() -> list[object]:
    """Two graph documents as an LLM graph transformer makes them: typed nodes with properties, and typed
    relationships between them (one repeated, as extractions from several chunks repeat)."""
    from langchain_core.documents import Document
    from langchain_neo4j.graphs.graph_document import GraphDocument, Node, Relationship

    ada = Node(id="Ada Lovelace", type="Person", properties={"born": 1815})
    engine_node = Node(id="Analytical Engine", type="Machine", properties={"designed": 1837})
    babbage = Node(id="Charles Babbage", type="Person")
    source = Document(page_content="Ada wrote about Babbage's engine.", metadata={"id": "chunk-1"})
    return [GraphDocument(nodes=[ada, engine_node, babbage], source=source, relationships=[
                Relationship(source=ada, target=engine_node, type="DESCRIBED", properties={"year": 1843}),
                Relationship(source=babbage, target=engine_node, type="DESIGNED")]),
            GraphDocument(nodes=[ada], source=source, relationships=[
                Relationship(source=ada, target=engine_node, type="DESCRIBED", properties={"year": 1843})])]


@pytest.mark.parametrize("base_entity_label", [True, False], ids=["__Entity__ label", "apoc.merge"])
def test_add_graph_documents(driver: EngineDriver, movies: engine.Connection, base_entity_label: bool) -> None:
    """The import statements of the installed package (`SET source:$(row.type)` with a base label, or
    `apoc.merge.node` / `apoc.merge.relationship` per row without) run unchanged and build the graph once,
    however often a node or relationship repeats."""
    graph = _graph(refresh_schema=False)
    graph.add_graph_documents(_documents(), baseEntityLabel=base_entity_label, include_source=True)
    rows = movies.execute(
        "MATCH (p {id: 'Ada Lovelace'})-[r]->(m {id: 'Analytical Engine'}) RETURN labels(p) AS person,"
        " labels(m) AS machine, p.born AS born, type(r) AS type, r.year AS year").fetchall()
    base = ["__Entity__"] if base_entity_label else []
    assert rows == [([*base, "Person"], [*base, "Machine"], 1815, "DESCRIBED", 1843)]
    assert movies.execute("MATCH (:Person {id: 'Charles Babbage'})-[:DESIGNED]->(m:Machine) RETURN"
                          " m.designed").fetchall() == [(1837,)]
    assert movies.execute("MATCH (:Document {id: 'chunk-1'})-[:MENTIONS]->(n) RETURN count(n)").fetchall() == [(3,)]
