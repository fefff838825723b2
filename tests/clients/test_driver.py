"""The driver stand-in itself: records, graph values and temporal values come back as the Neo4j driver's own
types, so that what the client packages parse is what they would get from a server."""

from __future__ import annotations

import asyncio
import datetime

import pytest

pytest.importorskip("neo4j")

import neo4j.graph
import neo4j.time

import engine
from tests.clients.driver import AsyncEngineDriver, EngineDriver


@pytest.fixture
def db():
    with engine.connect() as connection:
        yield connection


def test_graph_values(db: engine.Connection) -> None:
    result = EngineDriver(db).execute_query(
        "CREATE p = (a:A {x: 1})-[r:R {w: 2}]->(b:B {y: 'b'}) RETURN r, a, p")
    assert result.keys == ["r", "a", "p"]
    (record,) = result.records
    rel, node, path = record["r"], record["a"], record["p"]
    assert isinstance(node, neo4j.graph.Node) and node.labels == {"A"} and dict(node) == {"x": 1}
    assert isinstance(rel, neo4j.graph.Relationship) and rel.type == "R" and dict(rel) == {"w": 2}
    assert rel.start_node is node  # one object per node within a result, as the driver makes them
    assert rel.end_node.labels == {"B"} and dict(rel.end_node) == {"y": "b"}  # filled in from the path
    assert isinstance(path, neo4j.graph.Path) and [n.labels for n in path.nodes] == [{"A"}, {"B"}]
    assert record.data() == {"r": ({"x": 1}, "R", {"y": "b"}), "a": {"x": 1}, "p": [{"x": 1}, "R", {"y": "b"}]}
    assert result.summary.counters["nodes_created"] == 2


def test_temporal_values(db: engine.Connection) -> None:
    (record,) = EngineDriver(db).execute_query(
        "RETURN date('2024-01-02') AS d, localtime('03:04:05') AS lt, time('03:04+02:00') AS t,"
        " localdatetime('2024-01-02T03:04') AS ldt, datetime('2024-01-02T03:04:05.000000001+01:00') AS dt,"
        " duration('P1Y2M3DT4H') AS du").records
    assert record["d"] == neo4j.time.Date(2024, 1, 2)
    assert record["lt"] == neo4j.time.Time(3, 4, 5)
    assert record["t"].utc_offset() == datetime.timedelta(hours=2)
    assert record["ldt"] == neo4j.time.DateTime(2024, 1, 2, 3, 4)
    assert record["dt"].nanosecond == 1 and record["dt"].utcoffset() == datetime.timedelta(hours=1)
    assert record["du"] == neo4j.time.Duration(months=14, days=3, hours=4)


def test_keyword_arguments_are_parameters(db: engine.Connection) -> None:
    driver = EngineDriver(db)
    rows = driver.execute_query("RETURN $a + $b AS s", {"a": 1}, b=2, database_="neo4j",
                                result_transformer_=lambda result: result.data())
    assert rows == [{"s": 3}]
    with driver.session(database="neo4j") as session:
        assert [record["s"] for record in session.run("RETURN $a AS s", {"a": 4})] == [4]


def test_async_result_data_is_awaited(db: engine.Connection) -> None:
    async def run() -> list[dict[str, int]]:
        return await AsyncEngineDriver(db).execute_query("UNWIND [1, 2] AS x RETURN x",
                                                         result_transformer_=lambda result: result.data())
    assert asyncio.run(run()) == [{"x": 1}, {"x": 2}]


def test_virtual_graph_values(db: engine.Connection) -> None:
    """`db.schema.visualization()` read as schema tools read it: virtual nodes (negative ids) by their `name`,
    each virtual relationship's ends as nodes of the same result."""
    db.execute("CREATE (:Person {name: 'a'})-[:KNOWS]->(:Person:Actor {name: 'b'})")
    (record,) = EngineDriver(db).execute_query("CALL db.schema.visualization()").records
    nodes = {node["name"]: node for node in record["nodes"]}
    assert set(nodes) == {"Actor", "Person"} and all(node.id < 0 for node in nodes.values())
    assert nodes["Person"].labels == {"Person"}
    ends = {(rel.start_node["name"], rel.type, rel.end_node["name"]) for rel in record["relationships"]}
    assert ends == {("Person", "KNOWS", "Actor"), ("Person", "KNOWS", "Person")}
    assert all(rel.start_node is nodes[rel.start_node["name"]] for rel in record["relationships"])
