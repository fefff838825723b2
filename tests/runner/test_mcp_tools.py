"""The tools without a subprocess: values as JSON, the three tools on a connection, and the server they
make, called by the SDK's client in this process."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import anyio
import pytest
from mcp import Client

import engine
from runner.mcp.server import build_server
from runner.mcp.tools import CypherTools, ToolFailure
from runner.mcp.values import to_json
from runner.serving.database import open_database

VALUES = [
    (None, None), (True, True), (7, 7), (2.5, 2.5), ("Ada", "Ada"), ([1, "a", None], [1, "a", None]),
    ({"b": 1, "a": [2.0]}, {"b": 1, "a": [2.0]}),
    (math.nan, "NaN"), (math.inf, "Infinity"), (-math.inf, "-Infinity"),
    (engine.Node(5, ("Entity", "Thing"), {"key": "orders service"}),
     {"id": 5, "labels": ["Entity", "Thing"], "properties": {"key": "orders service"}}),
    (engine.Relationship(48, "ABOUT", 25, 5, {"w": 0.5}),
     {"id": 48, "type": "ABOUT", "start": 25, "end": 5, "properties": {"w": 0.5}}),
    (engine.Path((engine.Node(1), engine.Node(2)), (engine.Relationship(0, "R", 2, 1),)),
     {"nodes": [{"id": 1, "labels": [], "properties": {}}, {"id": 2, "labels": [], "properties": {}}],
      "relationships": [{"id": 0, "type": "R", "start": 2, "end": 1, "properties": {}}]}),
    (engine.DateTime(2026, 3, 2, 9, 0), "2026-03-02T09:00:00Z"),
    (engine.DateTime(2026, 3, 2, 9, 30, 5, 120_000_000, 3600), "2026-03-02T09:30:05.12+01:00"),
    (engine.DateTime(2026, 3, 2, 9, 0, 0, 0, 3600, "Europe/Paris"),
     "2026-03-02T09:00:00+01:00[Europe/Paris]"),
    (engine.LocalDateTime(2026, 3, 2, 9, 0), "2026-03-02T09:00:00"),
    (engine.Date(2026, 3, 2), "2026-03-02"),
    (engine.Time(9, 0, 0, 0, -18000), "09:00:00-05:00"),
    (engine.LocalTime(9, 0), "09:00:00"),
    (engine.Duration(14, 3, 3600), "P1Y2M3DT1H"),
    (engine.Vector("INTEGER8", (1, 2)), {"coordinateType": "INTEGER8", "dimension": 2, "coordinates": [1, 2]}),
    (engine.Point(4326, 12.5, 55.6), "point({x: 12.5, y: 55.6, crs: 'wgs-84'})"),
    ({"at": [engine.Date(2026, 1, 1)]}, {"at": ["2026-01-01"]}),
]


@pytest.mark.parametrize(("value", "expected"), VALUES, ids=[repr(value)[:40] for value, _ in VALUES])
def test_values_become_json(value, expected):
    assert to_json(value) == expected
    json.dumps(to_json(value), allow_nan=False)  # JSON a client can parse, NaN included


def test_an_unknown_value_type_is_an_error():
    with pytest.raises(TypeError, match="no JSON form for a value of type object"):
        to_json(object())


@pytest.fixture
def tools():
    with engine.connect(":memory:") as connection:
        connection.execute("CREATE (:Person {name: 'Ada', born: 1815})-[:KNOWS {since: 1833}]->"
                           "(:Person {name: 'Charles', born: 1791})")
        yield CypherTools(connection)


def test_read_cypher_gives_columns_rows_keyed_by_column_and_every_counter(tools):
    result = tools.read_cypher("MATCH (p:Person) WHERE p.born < $year RETURN p.name AS name, p",
                               {"year": 1800})
    assert result["columns"] == ["name", "p"]
    assert result["rows"] == [{"name": "Charles",
                               "p": {"id": 1, "labels": ["Person"],
                                     "properties": {"born": 1791, "name": "Charles"}}}]
    assert list(result["counters"]) == list(engine.COUNTER_NAMES)
    assert set(result["counters"].values()) == {0}
    assert tools.last_ordered is False
    tools.read_cypher("MATCH (p:Person) RETURN p.name AS name ORDER BY name")
    assert tools.last_ordered is True


def test_write_cypher_gives_snake_case_counters_and_no_rows(tools):
    result = tools.write_cypher("CREATE (p:Person {name: $name}) RETURN p", {"name": "Grace"})
    assert result["rows"] == []
    assert {key: count for key, count in result["counters"].items() if count} == {
        "nodes_created": 1, "properties_set": 1, "labels_added": 1}


def test_get_schema(tools):
    tools.write_cypher("CREATE CONSTRAINT person_name FOR (p:Person) REQUIRE p.name IS UNIQUE")
    schema = tools.get_schema()
    assert schema["labels"] == ["Person"]
    assert schema["relationship_types"] == ["KNOWS"]
    assert schema["node_properties"] == {"Person": ["born", "name"]}
    assert schema["relationship_properties"] == {"KNOWS": ["since"]}
    assert [constraint["name"] for constraint in schema["constraints"]] == ["person_name"]
    assert set(schema) == {"labels", "relationship_types", "node_properties", "relationship_properties",
                           "indexes", "constraints", "truncated"}
    assert schema["truncated"] is False


def graph(tools: CypherTools) -> str:
    nodes = tools.read_cypher("MATCH (n) RETURN n")["rows"]
    relationships = tools.read_cypher("MATCH ()-[r]->() RETURN r")["rows"]
    return json.dumps([sorted(nodes, key=json.dumps), sorted(relationships, key=json.dumps),
                       tools.get_schema()], sort_keys=True)


WRITES = {
    "CREATE": "CREATE (:Person {name: 'Mallory'})",
    "MERGE": "MERGE (p:Person {name: 'Mallory'})",
    "SET": "MATCH (p:Person) SET p.name = 'Mallory'",
    "SET +=": "MATCH (p:Person) SET p += {name: 'Mallory'}",
    "SET label": "MATCH (p:Person) SET p:Admin",
    "DELETE": "MATCH ()-[r:KNOWS]->() DELETE r",
    "DETACH DELETE": "MATCH (p:Person) DETACH DELETE p",
    "REMOVE property": "MATCH (p:Person) REMOVE p.born",
    "REMOVE label": "MATCH (p:Person) REMOVE p:Person",
    "CALL (x) { SET }": "MATCH (p:Person) CALL (p) { SET p.name = 'Mallory' } RETURN count(*) AS n",
    "CALL { CREATE }": "CALL { CREATE (:Person {name: 'Mallory'}) }",
    "schema command": "CREATE INDEX person_born FOR (p:Person) ON (p.born)",
    "lower case, read after": "create (x:Person) with x match (p) return count(p) as people",
    "hidden behind comments": "// only reads\nMATCH (p:Person) /* RETURN p */ SET p.born = 0 RETURN p",
    # every procedure whose mode is WRITE (SHOW PROCEDURES; the test below keeps this list complete)
    "db.create.setNodeVectorProperty": "MATCH (p:Person) CALL db.create.setNodeVectorProperty(p, 'e', [1.0])",
    "db.create.setRelationshipVectorProperty":
        "MATCH ()-[r:KNOWS]->() CALL db.create.setRelationshipVectorProperty(r, 'e', [1.0])",
    "apoc.create.node": "CALL apoc.create.node(['Person'], {name: 'Mallory'})",
    "apoc.create.nodes": "CALL apoc.create.nodes(['Person'], [{name: 'Mallory'}]) YIELD node RETURN node",
    "apoc.create.relationship":
        "MATCH (a:Person), (b:Person) CALL apoc.create.relationship(a, 'KNOWS', {}, b) YIELD rel RETURN count(*)",
    **{f"apoc.create.{name}": f"MATCH (p:Person) CALL apoc.create.{name}(p, {arguments}) YIELD node RETURN node"
       for name, arguments in (("addLabels", "['Admin']"), ("removeLabels", "['Person']"), ("setLabels", "['X']"),
                               ("setProperty", "'born', 0"), ("setProperties", "['born'], [0]"))},
    **{f"apoc.create.{name}": f"MATCH ()-[r:KNOWS]->() CALL apoc.create.{name}(r, {arguments}) YIELD rel RETURN rel"
       for name, arguments in (("setRelProperty", "'since', 0"), ("setRelProperties", "['since'], [0]"))},
    "apoc.do.when": "CALL apoc.do.when(true, 'CREATE (:Person {name: \"Mallory\"})', '', {}) YIELD value RETURN value",
    "apoc.do.case": "CALL apoc.do.case([true, 'MATCH (p:Person) SET p.born = 0 RETURN p'], '', {}) YIELD value"
                    " RETURN value",
    "apoc.periodic.iterate": "CALL apoc.periodic.iterate('MATCH (p:Person) RETURN p', 'SET p.born = 0', {})",
    "apoc.periodic.commit": "CALL apoc.periodic.commit('MATCH (p:Person) WHERE p.born > 0 WITH p LIMIT $limit"
                            " SET p.born = 0 RETURN count(*)', {limit: 1})",
    # mode SCHEMA, as APOC declares it, but it changes the catalog
    "apoc.schema.assert": "CALL apoc.schema.assert({Person: ['born']}, {})",
    "apoc.cypher.doIt": "CALL apoc.cypher.doIt('MATCH (p:Person) DETACH DELETE p', {}) YIELD value RETURN value",
    "apoc.refactor.mergeNodes": "MATCH (p:Person) WITH collect(p) AS people CALL apoc.refactor.mergeNodes(people)"
                                " YIELD node RETURN node",
    **{f"apoc.merge.node{eager}": f"CALL apoc.merge.node{eager}(['Person'], {{name: 'Mallory'}}) YIELD node RETURN node"
       for eager in ("", ".eager")},
    **{f"apoc.merge.relationship{eager}": f"MATCH (a:Person), (b:Person) CALL apoc.merge.relationship{eager}"
                                          "(a, 'KNOWS', {}, {}, b) YIELD rel RETURN count(*)"
       for eager in ("", ".eager")},
}


@pytest.mark.parametrize("statement", WRITES.values(), ids=WRITES.keys())
def test_read_cypher_refuses_writes_and_leaves_the_graph_unchanged(tools, statement):
    before = graph(tools)
    with pytest.raises(ToolFailure) as refused:
        tools.read_cypher(statement)
    assert str(refused.value).startswith("ForbiddenError: ")  # the engine's read-only refusal
    assert str(refused.value).endswith("send this one with write_cypher.")
    assert graph(tools) == before


SCHEMA_READERS = {"apoc.schema.nodes", "apoc.schema.relationships"}
"""The procedures of mode SCHEMA that only read the catalog."""


def test_every_writing_procedure_is_among_the_refused_writes(tools):
    writing = tools.read_cypher("SHOW PROCEDURES YIELD name, mode WHERE mode IN ['WRITE', 'SCHEMA'] RETURN name")
    assert {row["name"] for row in writing["rows"]} - SCHEMA_READERS == {name for name in WRITES if "." in name}


def test_read_cypher_runs_the_schema_procedures_that_only_read(tools):
    """APOC declares its index and constraint listings mode SCHEMA; they read the catalog, write nothing."""
    listed = tools.read_cypher("SHOW PROCEDURES YIELD name, mode WHERE NOT mode IN ['READ', 'WRITE'] RETURN name, mode")
    assert {(row["name"], row["mode"]) for row in listed["rows"]} == {
        ("apoc.schema.nodes", "SCHEMA"), ("apoc.schema.relationships", "SCHEMA"), ("apoc.schema.assert", "SCHEMA")}
    before = graph(tools)
    for name in SCHEMA_READERS:
        assert tools.read_cypher(f"CALL {name}() YIELD name RETURN count(name) AS n")["rows"][0]["n"] >= 1
    assert graph(tools) == before


def test_read_cypher_refuses_foreach_and_leaves_the_graph_unchanged(tools):
    before = graph(tools)
    with pytest.raises(ToolFailure):
        tools.read_cypher("MATCH (p:Person) FOREACH (x IN [1] | SET p.name = 'Mallory')")
    assert graph(tools) == before


def test_read_cypher_refuses_foreach_as_a_write(tools):
    with pytest.raises(ToolFailure, match=r"^ForbiddenError"):
        tools.read_cypher("MATCH (p:Person) FOREACH (x IN [1] | SET p.name = 'Mallory')")


def test_a_read_that_mentions_write_keywords_in_text_is_not_refused(tools):
    result = tools.read_cypher("RETURN 'CREATE (n) SET n.x = 1' AS text, {delete: true} AS `SET`")
    assert result["rows"] == [{"text": "CREATE (n) SET n.x = 1", "SET": {"delete": True}}]


def test_errors_carry_kind_message_position_and_a_caret(tools):
    with pytest.raises(ToolFailure) as failure:
        tools.read_cypher("MATCH (n RETURN n")
    assert str(failure.value) == ("SyntaxError: expected ')' to close the node pattern opened at 1:7, found "
                                  "RETURN (line 1, column 10)\n  MATCH (n RETURN n\n           ^")
    with pytest.raises(ToolFailure, match=r"^ParameterMissing: .*\$who"):
        tools.read_cypher("MATCH (p:Person {name: $who}) RETURN p")


def call(server, *calls: tuple[str, dict]) -> list:
    async def session():
        async with Client(server, mode="legacy") as client:
            listed = await client.list_tools()
            results = [await client.call_tool(name, arguments) for name, arguments in calls]
            return listed, results
    return anyio.run(session)


def test_the_server_lists_three_tools_with_schemas_and_hints(tools):
    listed, _ = call(build_server(tools))
    by_name = {tool.name: tool for tool in listed.tools}
    assert sorted(by_name) == ["get_schema", "read_cypher", "write_cypher"]
    assert by_name["read_cypher"].input_schema["required"] == ["statement"]
    assert set(by_name["write_cypher"].input_schema["properties"]) == {"statement", "parameters", "graph"}
    assert set(by_name["read_cypher"].output_schema["properties"]) == {"columns", "rows", "counters", "plan",
                                                                         "truncated", "returned", "message", "cursor"}
    assert by_name["read_cypher"].annotations.read_only_hint is True
    assert by_name["get_schema"].annotations.read_only_hint is True
    assert by_name["write_cypher"].annotations.destructive_hint is True


def test_the_server_sends_structured_content_and_the_same_json_as_text(tools):
    _, (read, write, failed) = call(
        build_server(tools),
        ("read_cypher", {"statement": "MATCH (p:Person {name: $n}) RETURN p.born AS born",
                         "parameters": {"n": "Ada"}}),
        ("write_cypher", {"statement": "MATCH (p:Person) SET p.seen = true"}),
        ("read_cypher", {"statement": "MATCH (p:Person) DELETE p"}))
    assert read.is_error is False and read.structured_content["rows"] == [{"born": 1815}]
    assert json.loads(read.content[0].text) == read.structured_content
    assert write.structured_content["rows"] == []
    assert write.structured_content["counters"]["properties_set"] == 2
    assert failed.is_error is True and failed.structured_content is None
    assert failed.content[0].text.startswith("ForbiddenError: ")


def test_read_cypher_with_profile_returns_the_plan_beside_the_rows(tools):
    """ADR-0057: PROFILE's operator tree, with the rows each step gave, comes back as `plan`; EXPLAIN's plan
    is its rows, with estimated rows."""
    tools.write_cypher("UNWIND range(1, 4) AS i CREATE (:P {i: i})")
    profiled = tools.read_cypher("PROFILE MATCH (p:P) RETURN count(*) AS c")
    assert profiled["rows"] == [{"c": 4}]
    cypher = [line for line in profiled["plan"] if line["notes"] != "DuckDB"]
    assert [line["operator"] for line in cypher] == ["+ProduceResults", "+EagerAggregation", "+NodeByLabelScan"]
    # the MATCH runs in one SELECT with the aggregation: its rows are the operators DuckDB ran for it (ADR-0079)
    assert [line["rows"] for line in cypher] == [None, 1, None]
    assert any(line["notes"] == "DuckDB" and line["rows"] == 4 for line in profiled["plan"])
    explained = tools.read_cypher("EXPLAIN MATCH (p:P) RETURN count(*) AS c")
    assert [(row["operator"], row["estimatedRows"]) for row in explained["rows"]] == [
        ("+ProduceResults", 1), ("+EagerAggregation", 1), ("+NodeByLabelScan", 4)]
    assert "plan" in explained  # EXPLAIN's result carries its plan too


def test_load_csv_reads_the_import_directory_the_server_is_given(tmp_path):
    """`cookbook serve --import-dir DIR`: an agent's read_cypher may LOAD CSV from that folder, and without
    it LOAD CSV is refused (ADR-0064)."""
    (tmp_path / "people.csv").write_text("name,born\nAda,1815\n", encoding="utf-8")
    with open_database(":memory:", import_dir=str(tmp_path)) as connection:
        rows = CypherTools(connection).read_cypher(
            "LOAD CSV WITH HEADERS FROM 'file:///people.csv' AS row RETURN row.name AS name, row.born AS born")
        assert rows["rows"] == [{"name": "Ada", "born": "1815"}]
    with open_database(":memory:") as connection, pytest.raises(ToolFailure, match="import directory"):
        CypherTools(connection).read_cypher("LOAD CSV FROM 'file:///people.csv' AS row RETURN row")


def test_serve_refuses_an_import_dir_that_is_no_folder(tmp_path):
    served = subprocess.run([sys.executable, "-m", "runner", "serve", "--db", ":memory:", "--import-dir",
                             str(tmp_path / "missing")], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                            timeout=60)
    assert served.returncode == 2
    assert served.stderr.strip().endswith("missing: no such folder")
