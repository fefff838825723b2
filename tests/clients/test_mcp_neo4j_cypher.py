"""mcp-neo4j-cypher against the engine, two ways. As a user runs it: the package's own `mcp-neo4j-cypher`
command, started by the official MCP client over stdio with `NEO4J_URI` naming `cookbook serve --bolt`, its
three tools called as an agent calls them. And its `get_neo4j_schema` tool's code alone, in this process:
its `apoc.meta.schema` call goes through the driver stand-in (tests/clients/driver.py), which shows the
statement sent, and the tool cleans what comes back into the JSON it hands the model.

The package cannot be installed beside the runner: it needs fastmcp < 2.14, whose `mcp` is older than the
runner's. So the test downloads its wheel (`pip download --no-deps`, kept in pytest's cache); the server
process runs from a virtualenv of its own made from that wheel and its dependencies (also kept in the
cache), and the in-process tests import the package from the wheel, with the MCP framework it registers its
tools on (fastmcp) and the tokenizer only its truncation uses (tiktoken) replaced by stand-ins that keep the
tool's function as written. It runs with the `clients` extra (which brings the Neo4j driver the package
imports), and skips without it.
"""

from __future__ import annotations

import asyncio
import fcntl
import importlib
import json
import os
import subprocess
import sys
import types
import venv
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("neo4j")

from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult

import engine
from tests.clients.bolt_server import start, stop
from tests.clients.driver import AsyncEngineDriver

REQUIREMENT = "mcp-neo4j-cypher>=0.6,<0.7"
"""The versions checked (0.6.0 when this was written)."""


@pytest.fixture(scope="session")
def wheel(request: pytest.FixtureRequest) -> Path:
    """The package's wheel, downloaded once into pytest's cache."""
    cache = Path(request.config.cache.mkdir("mcp-neo4j-cypher"))
    found = sorted(cache.glob("mcp_neo4j_cypher-0.6.*-py3-none-any.whl"))
    if not found:
        staging = cache / f"download-{os.getpid()}"
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                               "--disable-pip-version-check", "--quiet", REQUIREMENT, "--dest", str(staging)],
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            pytest.fail(f"could not download {REQUIREMENT}: {done.stderr.strip()}")
        for downloaded in staging.glob("*.whl"):
            os.replace(downloaded, cache / downloaded.name)
        staging.rmdir()
        found = sorted(cache.glob("mcp_neo4j_cypher-0.6.*-py3-none-any.whl"))
    return found[-1]


class _FastMCP:
    """fastmcp's `FastMCP` as far as the server uses it: `tool(...)` registers the function as it is."""

    def __init__(self, name: str, **options: Any) -> None:
        self.tools: dict[str, Callable[..., Any]] = {}

    def tool(self, name: str | None = None, **options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def register(function: Callable[..., Any]) -> Callable[..., Any]:
            self.tools[name or function.__name__] = function
            return function
        return register


class _Content:
    def __init__(self, **fields: Any) -> None:
        self.__dict__.update(fields)


def _module(name: str, **attributes: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    return module


@pytest.fixture
def server_module(wheel: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    """`mcp_neo4j_cypher.server`, imported from the wheel over the stand-ins."""
    stand_ins = {
        "fastmcp": _module("fastmcp"),
        "fastmcp.exceptions": _module("fastmcp.exceptions", ToolError=type("ToolError", (Exception,), {})),
        "fastmcp.server": _module("fastmcp.server", FastMCP=_FastMCP),
        "fastmcp.tools": _module("fastmcp.tools"),
        "fastmcp.tools.tool": _module("fastmcp.tools.tool", TextContent=_Content, ToolResult=_Content),
        "tiktoken": _module("tiktoken"),
    }
    for name, module in stand_ins.items():
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.syspath_prepend(str(wheel))
    try:
        yield importlib.import_module("mcp_neo4j_cypher.server")
    finally:
        for name in [name for name in sys.modules if name.split(".")[0] == "mcp_neo4j_cypher"]:
            del sys.modules[name]


def _schema_tool(server_module: types.ModuleType, db: engine.Connection) -> tuple[Callable[..., Any],
                                                                                  AsyncEngineDriver]:
    driver = AsyncEngineDriver(db)
    server = server_module.create_mcp_server(driver, config_sample_size=1000)
    return server.tools["get_neo4j_schema"], driver


def _run(tool: Callable[..., Any], **arguments: Any) -> dict[str, Any]:
    result = asyncio.run(tool(**arguments))
    (content,) = result.content
    assert content.type == "text"
    return json.loads(content.text)


def test_schema_tool(server_module: types.ModuleType, movies: engine.Connection) -> None:
    tool, driver = _schema_tool(server_module, movies)
    cleaned = _run(tool, sample_size=1000)
    ((statement, parameters),) = driver.statements
    assert statement == "CALL apoc.meta.schema({sample: 1000}) YIELD value RETURN value"
    # the driver takes the tool's `routing_control=` as a query parameter; the engine ignores it, as Neo4j does
    assert set(parameters) == {"routing_control"}
    check_schema(cleaned)


def check_schema(cleaned: dict[str, Any]) -> None:
    """The tool's JSON for the movies graph (tests/clients/conftest.py), from what APOC's apoc.meta.schema
    returns for it: every label and relationship type, the clients' internal labels too (the tool leaves
    none out)."""
    assert set(cleaned) == {"Person", "Actor", "Movie", "__Entity__", "__KGBuilder__", "_Bloom_Perspective_",
                            "ACTED_IN", "KNOWS"}
    assert cleaned["Movie"] == {
        "type": "node", "count": 2,
        "properties": {"title": {"indexed": False, "type": "STRING"},
                       "released": {"indexed": True, "type": "INTEGER"},
                       "tagline": {"indexed": False, "type": "STRING"}},
        "relationships": {"ACTED_IN": {"direction": "in", "labels": ["Actor", "Person"],
                                       "properties": {"roles": {"indexed": False, "type": "LIST"},
                                                      "premiere": {"indexed": False, "type": "DATE_TIME"}}}}}
    person = cleaned["Person"]
    assert person["type"] == "node" and person["count"] == 3
    assert sorted(person["labels"]) == ["Actor", "__Entity__"]
    assert person["properties"]["name"] == {"indexed": True, "type": "STRING"}
    assert person["properties"]["aliases"] == {"indexed": False, "type": "LIST"}
    assert person["properties"]["birthday"] == {"indexed": False, "type": "DATE"}
    assert person["relationships"]["ACTED_IN"]["direction"] == "out"
    assert person["relationships"]["ACTED_IN"]["labels"] == ["Movie"]
    assert cleaned["Actor"]["relationships"]["KNOWS"] == {"direction": "in", "labels": ["Person"]}
    assert cleaned["ACTED_IN"] == {"type": "relationship", "count": 3,
                                   "properties": {"roles": {"indexed": False, "type": "LIST"},
                                                  "premiere": {"indexed": False, "type": "DATE_TIME"}}}
    assert cleaned["KNOWS"] == {"type": "relationship", "count": 1}


def test_schema_tool_whole_graph_sample(server_module: types.ModuleType, movies: engine.Connection) -> None:
    """`sample_size=-1` (the tool's "sample the whole graph") is the same call with another config."""
    tool, driver = _schema_tool(server_module, movies)
    whole = _run(tool, sample_size=-1)
    assert driver.statements[0][0] == "CALL apoc.meta.schema({sample: -1}) YIELD value RETURN value"
    assert whole == _run(tool, sample_size=1000)


def test_schema_tool_on_an_empty_graph(server_module: types.ModuleType) -> None:
    with engine.connect(":memory:") as db:
        tool, _ = _schema_tool(server_module, db)
        assert _run(tool, sample_size=1000) == {}


# -- the server process, over Bolt ------------------------------------------------------------------------


@pytest.fixture(scope="session")
def server_command(wheel: Path, request: pytest.FixtureRequest) -> Path:
    """The package's `mcp-neo4j-cypher` command, installed from the wheel with the dependencies it declares
    into a virtualenv of its own in pytest's cache, as `pip install mcp-neo4j-cypher` installs it for a
    user (once; a lock keeps parallel workers from building it twice)."""
    cache = Path(request.config.cache.mkdir("mcp-neo4j-cypher"))
    home = cache / f"venv-{wheel.stem}"
    command = home / "bin" / "mcp-neo4j-cypher"
    with (cache / "venv.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not command.exists():
            venv.create(home, with_pip=True, clear=True)
            done = subprocess.run([str(home / "bin" / "python"), "-m", "pip", "install", "--only-binary=:all:",
                                   "--disable-pip-version-check", "--quiet", str(wheel)],
                                  capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                command.unlink(missing_ok=True)
                pytest.fail(f"could not install {wheel.name}: {done.stderr.strip()}")
    return command


def _server(command: Path, url: str) -> StdioServerParameters:
    """The server as its README has an MCP host start it: the connection in NEO4J_* variables. The default
    sample size is set because 0.6.0 otherwise sends `apoc.meta.schema({sample: None})`, which Neo4j
    refuses as well."""
    return StdioServerParameters(command=str(command), env={
        "NEO4J_URI": url, "NEO4J_USERNAME": "neo4j", "NEO4J_PASSWORD": "any", "NEO4J_SCHEMA_SAMPLE_SIZE": "1000",
        "FASTMCP_SHOW_CLI_BANNER": "false"})


def _calls(command: Path, url: str, *calls: tuple[str, dict[str, Any]]) -> tuple[list[str],
                                                                                 list[CallToolResult]]:
    """The server's tool names, and what each call returned, in one client session."""
    async def session() -> tuple[list[str], list[CallToolResult]]:
        async with Client(_server(command, url)) as client:
            tools = sorted(tool.name for tool in (await client.list_tools()).tools)
            return tools, [await client.call_tool(name, arguments) for name, arguments in calls]

    return anyio.run(session)


def _json(result: CallToolResult) -> Any:
    assert not result.is_error, result.content
    (content,) = result.content
    return json.loads(content.text)


def _refused(result: CallToolResult) -> str:
    assert result.is_error
    return result.content[0].text


def test_the_server_lists_its_tools_and_reads_the_schema_over_bolt(server_command: Path,
                                                                   movies_over_bolt: str) -> None:
    tools, (default, whole) = _calls(server_command, movies_over_bolt, ("get_neo4j_schema", {}),
                                     ("get_neo4j_schema", {"sample_size": -1}))
    assert tools == ["get_neo4j_schema", "read_neo4j_cypher", "write_neo4j_cypher"]
    check_schema(_json(default))
    assert _json(whole) == _json(default)


def test_the_read_tool_over_bolt(server_command: Path, movies_over_bolt: str) -> None:
    _, (titles, people, write, wrong) = _calls(
        server_command, movies_over_bolt,
        ("read_neo4j_cypher", {"query": "MATCH (m:Movie) WHERE m.released > $year RETURN m.title AS title",
                               "params": {"year": 1995}}),
        ("read_neo4j_cypher", {"query": "MATCH (p:Person)-[r:ACTED_IN]->(:Movie {title: 'The Matrix'})"
                                        " RETURN p, r.roles AS roles ORDER BY p.name"}),
        ("read_neo4j_cypher", {"query": "CREATE (:Planted)"}),
        ("read_neo4j_cypher", {"query": "MATCH (m:Movie RETURN m"}))
    assert _json(titles) == [{"title": "The Matrix"}]
    # nodes as their properties, dates as text: the tool's own sanitising of the driver's values
    assert _json(people) == [
        {"p": {"name": "Carrie-Anne Moss", "born": 1967}, "roles": ["Trinity"]},
        {"p": {"name": "Keanu Reeves", "born": 1964, "height": 1.86, "alive": True, "birthday": "1964-09-02",
               "aliases": ["Neo", "John Wick"]}, "roles": ["Neo"]}]
    # the tool refuses a write (the summary of its `EXPLAIN` says `w`), and nothing ran
    assert "Only MATCH queries are allowed for read-query" in _refused(write)
    assert "Neo.ClientError.Statement.SyntaxError" in _refused(wrong)
    _, (planted,) = _calls(server_command, movies_over_bolt,
                           ("read_neo4j_cypher", {"query": "MATCH (p:Planted) RETURN count(p) AS n"}))
    assert _json(planted) == [{"n": 0}]


def test_the_write_tool_over_bolt(server_command: Path, tmp_path: Path) -> None:
    server, url = start(tmp_path / "written.rl")
    try:
        _, (created, linked, read, seen) = _calls(
            server_command, url,
            ("write_neo4j_cypher", {"query": "CREATE (:Genre {name: $name}), (:Genre {name: 'Noir'})",
                                    "params": {"name": "Sci-Fi"}}),
            ("write_neo4j_cypher", {"query": "MATCH (a:Genre {name: 'Noir'}), (b:Genre {name: 'Sci-Fi'})"
                                             " CREATE (a)-[:NEAR {weight: 0.5}]->(b)"}),
            ("write_neo4j_cypher", {"query": "MATCH (g:Genre) RETURN g.name AS name"}),
            ("read_neo4j_cypher", {"query": "MATCH (a)-[n:NEAR]->(b) RETURN a.name AS a, n.weight AS w,"
                                            " b.name AS b"}))
    finally:
        stop(server)
    # the driver's counters, as the tool hands them on
    assert _json(created) == {"nodes_created": 2, "labels_added": 2, "properties_set": 2,
                              "_contains_updates": True}
    assert _json(linked) == {"relationships_created": 1, "properties_set": 1, "_contains_updates": True}
    assert "Only write queries are allowed for write-query" in _refused(read)
    assert _json(seen) == [{"a": "Noir", "w": 0.5, "b": "Sci-Fi"}]
