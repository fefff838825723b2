"""neo4j-graphrag's schema functions (`neo4j_graphrag.schema`) on the engine: with the official driver connected
to `cookbook serve --bolt`, and through a driver stand-in (tests/clients/driver.py), which shows the statements
sent; either way the statements are the installed package's own, sent unchanged, and what comes back
goes through the package's own parsing (`get_structured_schema`, `format_schema`, `enhance_properties`,
`SchemaFromExistingGraphExtractor`, a pydantic model that refuses a shape it does not know).

The expected schemas (tests/clients/conftest.py) are written from the fixture graph and from what APOC's
`apoc.meta.data` and `apoc.schema.nodes` return for it; property lists are compared as sets, as APOC does
not promise their order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("neo4j_graphrag")

import neo4j
from neo4j_graphrag import schema
from neo4j_graphrag.components.schema import SchemaFromExistingGraphExtractor

import engine
from tests.clients.conftest import NODE_PROPS, PATTERNS, REL_PROPS
from tests.clients.driver import EngineDriver


def _properties(listed: dict[str, list[dict[str, str]]]) -> dict[str, set[tuple[str, str]]]:
    return {label: {(item["property"], item["type"]) for item in items} for label, items in listed.items()}


@pytest.fixture
def driver(movies: engine.Connection) -> EngineDriver:
    return EngineDriver(movies)


def test_the_schema_statements_are_the_packages_own(driver: EngineDriver) -> None:
    schema.get_structured_schema(driver)
    sent = [text for text, _ in driver.statements]
    assert sent == [schema.NODE_PROPERTIES_QUERY, schema.REL_PROPERTIES_QUERY, schema.REL_QUERY,
                    "SHOW CONSTRAINTS", schema.INDEX_QUERY]


def test_structured_schema(driver: EngineDriver) -> None:
    check_structured_schema(schema.get_structured_schema(driver))


def check_structured_schema(structured: dict[str, Any]) -> None:
    """The movies graph's schema as `get_structured_schema` parses it."""
    assert _properties(structured["node_props"]) == NODE_PROPS
    assert _properties(structured["rel_props"]) == REL_PROPS
    assert len(structured["relationships"]) == len(PATTERNS)
    assert {(rel["start"], rel["type"], rel["end"]) for rel in structured["relationships"]} == PATTERNS
    assert structured["metadata"]["constraint"] == [
        {"id": 4, "name": "person_name", "type": "NODE_PROPERTY_UNIQUENESS", "entityType": "NODE",
         "labelsOrTypes": ["Person"], "properties": ["name"], "ownedIndex": "person_name", "propertyType": None}]
    # the RANGE indexes: the constraint's own and movie_released; each of its entries distinct
    assert sorted(structured["metadata"]["index"], key=lambda index: index["label"]) == [
        {"label": "Movie", "properties": ["released"], "type": "RANGE", "size": 2, "valuesSelectivity": 1.0,
         "distinctValues": 2.0},
        {"label": "Person", "properties": ["name"], "type": "RANGE", "size": 3, "valuesSelectivity": 1.0,
         "distinctValues": 3.0}]


def test_schema_text(driver: EngineDriver) -> None:
    check_schema_text(schema.get_schema(driver))


def check_schema_text(text: str) -> None:
    """The movies graph's schema as `get_schema` writes it for a prompt."""
    lines = text.splitlines()
    assert lines[0] == "Node properties:"
    heads = [lines.index("Relationship properties:"), lines.index("The relationships:")]
    node_lines, rel_lines, pattern_lines = lines[1:heads[0]], lines[heads[0] + 1:heads[1]], lines[heads[1] + 1:]
    assert {line.split(" {")[0] for line in node_lines} == set(NODE_PROPS)
    for line in node_lines:
        label, _, listed = line.partition(" {")
        assert {tuple(item.split(": ")) for item in listed.rstrip("}").split(", ")} == NODE_PROPS[label]
    assert rel_lines == ["ACTED_IN {premiere: DATE_TIME, roles: LIST}"] or rel_lines == [
        "ACTED_IN {roles: LIST, premiere: DATE_TIME}"]
    assert set(pattern_lines) == {f"(:{start})-[:{rel}]->(:{end})" for start, rel, end in PATTERNS}


def test_schema_of_an_empty_graph() -> None:
    with engine.connect(":memory:") as db:
        structured = schema.get_structured_schema(EngineDriver(db))
    assert structured == {"node_props": {}, "rel_props": {}, "relationships": [],
                          "metadata": {"constraint": [], "index": []}}


def _counts(db: engine.Connection) -> tuple[dict[str, int], dict[str, int]]:
    (labels, types), = db.execute("CALL apoc.meta.stats() YIELD labels, relTypesCount RETURN labels, relTypesCount")
    return labels, types


def test_enhanced_properties(driver: EngineDriver, movies: engine.Connection) -> None:
    """The enhanced schema's per-label and per-type statements (the package writes them from the schema it
    read) and its formatting; the counts it starts from come from apoc.meta.stats here, see the next test."""
    structured = schema.get_structured_schema(driver)
    labels, types = _counts(movies)
    for name, count in labels.items():
        schema.enhance_properties(driver, structured, {"name": name, "count": count}, is_relationship=False)
    for name, count in types.items():
        schema.enhance_properties(driver, structured, {"name": name, "count": count}, is_relationship=True)
    person = {item["property"]: item for item in structured["node_props"]["Person"]}
    assert person["born"] == {"property": "born", "type": "INTEGER", "min": "1964", "max": "1967",
                                   "distinct_count": 2}
    assert person["birthday"]["min"] == person["birthday"]["max"] == "1964-09-02"
    assert person["height"]["min"] == "1.86"
    assert person["aliases"] == {"property": "aliases", "type": "LIST", "min_size": 2, "max_size": 2}
    assert sorted(person["name"]["values"]) == ["Carrie-Anne Moss", "Keanu Reeves", "Lana Wachowski"]
    assert person["name"]["distinct_count"] == 3
    assert person["alive"] == {"property": "alive", "type": "BOOLEAN"}
    acted_in = {item["property"]: item for item in structured["rel_props"]["ACTED_IN"]}
    assert acted_in["premiere"]["min"] == acted_in["premiere"]["max"] == "1999-03-31T20:00:00Z"
    assert acted_in["roles"] == {"property": "roles", "type": "LIST", "min_size": 1, "max_size": 1}
    text = schema.format_schema(structured, is_enhanced=True)
    assert "  - `born`: INTEGER Min: 1964, Max: 1967" in text
    assert "  - `premiere`: DATE_TIME Min: 1999-03-31T20:00:00Z, Max: 1999-03-31T20:00:00Z" in text
    assert "  - `aliases`: LIST Min Size: 2, Max Size: 2" in text


def test_enhanced_properties_of_a_large_label() -> None:
    """From 10,000 nodes of a label on, the package samples five nodes and reads a small indexed property's
    values with apoc.schema.properties.distinct."""
    with engine.connect(":memory:") as db:
        db.execute("UNWIND range(1, 10000) AS i CREATE (:Item {sku: 'sku-' + toString(i),"
                   " kind: ['book', 'film', 'game'][i % 3], price: i * 0.5})")
        db.execute("CREATE INDEX item_kind FOR (n:Item) ON (n.kind)")
        driver = EngineDriver(db)
        structured = schema.get_structured_schema(driver)
        (labels, _) = _counts(db)
        schema.enhance_properties(driver, structured, {"name": "Item", "count": labels["Item"]},
                                  is_relationship=False)
    assert "CALL apoc.schema.properties.distinct('Item', 'kind') YIELD value" in [text for text, _ in
                                                                                 driver.statements]
    item = {entry["property"]: entry for entry in structured["node_props"]["Item"]}
    assert sorted(item["kind"]["values"]) == ["book", "film", "game"]
    assert item["kind"]["distinct_count"] == 3
    assert len(item["sku"]["values"]) == 5
    assert len(item["price"]["values"]) == 5  # not indexed: the sampled values


def test_enhanced_schema(driver: EngineDriver) -> None:
    structured = schema.get_structured_schema(driver, is_enhanced=True)
    assert schema.SCHEMA_COUNTS_QUERY in [text for text, _ in driver.statements]
    assert {item["property"] for item in structured["node_props"]["Movie"]} == {"released", "tagline", "title"}


def test_schema_from_existing_graph(driver: EngineDriver, movies: engine.Connection) -> None:
    # the package's model knows no DATE_TIME (APOC's name for a zoned datetime), so a graph holding one fails
    # its validation against Neo4j as well: this graph does without
    movies.execute("MATCH ()-[r:ACTED_IN]->() REMOVE r.premiere")
    graph_schema = asyncio.run(SchemaFromExistingGraphExtractor(driver).run())
    assert {node.label: {(p.name, p.type) for p in node.properties} for node in graph_schema.node_types} == NODE_PROPS
    assert {rel.label: {(p.name, p.type) for p in rel.properties} for rel in graph_schema.relationship_types} == {
        "ACTED_IN": {("roles", "LIST")}, "KNOWS": set()}
    assert set(graph_schema.patterns) == PATTERNS
    assert [(c.type, c.node_type, c.property_names) for c in graph_schema.constraints] == [
        ("UNIQUENESS", "Person", ("name",))]


@pytest.fixture(scope="module")
def bolt_driver(movies_over_bolt: str) -> Iterator[neo4j.Driver]:
    """The official driver, connected to `cookbook serve --bolt` on the movies graph."""
    with neo4j.GraphDatabase.driver(movies_over_bolt, auth=("neo4j", "any")) as made:
        yield made


def test_structured_schema_over_bolt(bolt_driver: neo4j.Driver) -> None:
    check_structured_schema(schema.get_structured_schema(bolt_driver))


def test_schema_text_over_bolt(bolt_driver: neo4j.Driver) -> None:
    check_schema_text(schema.get_schema(bolt_driver))


def test_enhanced_schema_text_over_bolt(bolt_driver: neo4j.Driver) -> None:
    """The enhanced schema: the package counts each label and type, then reads each property's values
    (distinct values, ranges, list sizes) with statements of its own, and writes them in its text."""
    text = schema.get_schema(bolt_driver, is_enhanced=True)
    sections = {head: body for head, _, body in (part.partition("\n") for part in text.split("\n- **"))}
    assert sections["Movie**"].splitlines() == [
        "  - `released`: INTEGER Min: 1994, Max: 1999",
        "  - `tagline`: STRING Available options: ['Welcome to the Real World']",
        "  - `title`: STRING Available options: ['The Matrix', 'Speed']"]
    person = sections["Person**"].splitlines()
    assert "  - `born`: INTEGER Min: 1964, Max: 1967" in person
    assert "  - `birthday`: DATE Min: 1964-09-02, Max: 1964-09-02" in person
    assert "  - `aliases`: LIST Min Size: 2, Max Size: 2" in person
    acted_in = sections["ACTED_IN**"].split("\nThe relationships:")[0].splitlines()
    assert acted_in == ["  - `premiere`: DATE_TIME Min: 1999-03-31T20:00:00Z, Max: 1999-03-31T20:00:00Z",
                        "  - `roles`: LIST Min Size: 1, Max Size: 1"]
