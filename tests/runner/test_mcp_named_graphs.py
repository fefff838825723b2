"""The MCP tools on named graphs (ADR-0068): a tool call names the graph it runs on (Threadline's
per-visitor memory, `tl_mem_<visitor>`), and `cookbook serve --graph` sets the graph of calls that name none."""

from __future__ import annotations

import anyio
import pytest
from mcp import Client

import engine
from runner.mcp.server import build_server
from runner.mcp.tools import CypherTools, ToolFailure
from runner.serving.database import CannotOpenDatabase, open_database


@pytest.fixture
def tools():
    with engine.connect(":memory:") as connection:
        connection.execute("CREATE (:Repo {name: 'brain'})")
        connection.execute("CREATE DATABASE tl_mem_ada")
        yield CypherTools(connection)


def test_a_tool_call_runs_on_the_graph_it_names(tools):
    written = tools.write_cypher("CREATE (:Turn {text: $text})", {"text": "hello"}, graph="tl_mem_ada")
    assert written["counters"]["nodes_created"] == 1
    rows = tools.read_cypher("MATCH (n) RETURN labels(n) AS labels", graph="tl_mem_ada")["rows"]
    assert rows == [{"labels": ["Turn"]}]
    assert tools.read_cypher("MATCH (n) RETURN labels(n) AS labels")["rows"] == [{"labels": ["Repo"]}]
    assert tools.get_schema(graph="tl_mem_ada")["labels"] == ["Turn"]
    assert tools.get_schema()["labels"] == ["Repo"]
    with pytest.raises(ToolFailure, match=r"^DatabaseError: no graph named 'tl_mem_bob'"):
        tools.read_cypher("MATCH (n) RETURN n", graph="tl_mem_bob")
    with pytest.raises(ToolFailure, match=r"^ForbiddenError: this statement writes"):
        tools.read_cypher("CREATE (:X)", graph="tl_mem_ada")


def test_the_server_takes_the_graph_as_an_argument(tools):
    server = build_server(tools)

    async def session():
        async with Client(server, mode="legacy") as client:
            listed = await client.list_tools()
            written = await client.call_tool("write_cypher", {"statement": "CREATE (:Fact)", "graph": "tl_mem_ada"})
            read = await client.call_tool("read_cypher", {"statement": "MATCH (f:Fact) RETURN count(f) AS n",
                                                          "graph": "tl_mem_ada"})
            default = await client.call_tool("read_cypher", {"statement": "MATCH (f:Fact) RETURN count(f) AS n"})
            return listed, written, read, default

    listed, written, read, default = anyio.run(session)
    by_name = {tool.name: tool for tool in listed.tools}
    for name in ("read_cypher", "write_cypher", "get_schema"):
        assert "graph" in by_name[name].input_schema["properties"], name
        assert "graph" not in by_name[name].input_schema.get("required", []), name
    assert written.structured_content["counters"]["nodes_created"] == 1
    assert read.structured_content["rows"] == [{"n": 1}]
    assert default.structured_content["rows"] == [{"n": 0}]


def test_a_server_opens_the_graph_it_is_given(tmp_path):
    path = str(tmp_path / "threadline.rl")
    with engine.connect(path) as connection:
        connection.execute("CREATE DATABASE tl_shared")
        connection.execute("USE tl_shared CREATE (:Playbook {name: 'triage'})")
    with open_database(path, graph="tl_shared") as connection:
        tools = CypherTools(connection)
        assert tools.read_cypher("MATCH (p:Playbook) RETURN p.name AS name")["rows"] == [{"name": "triage"}]
    with pytest.raises(CannotOpenDatabase, match="no graph named 'tl_missing'"):
        open_database(path, graph="tl_missing")
