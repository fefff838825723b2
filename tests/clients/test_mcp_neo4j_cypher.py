"""mcp-neo4j-cypher's `get_neo4j_schema` tool on the engine: the tool's own code, from the package's wheel,
sends its `apoc.meta.schema` call through the driver stand-in (tests/clients/driver.py) and cleans what comes
back into the JSON it hands the model.

The package cannot be installed beside the runner: it needs fastmcp < 2.14, whose `mcp` is older than the
runner's. So the test downloads its wheel (`pip download --no-deps`, kept in pytest's cache) and imports the
package from it, with the MCP framework it registers its tools on (fastmcp) and the tokenizer only its
truncation uses (tiktoken) replaced by stand-ins that keep the tool's function as written. It runs with the
`clients` extra (which brings the Neo4j driver the package imports), and skips without it.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import subprocess
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("neo4j")

import engine
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
    # every label and relationship type, the clients' internal labels too (the tool leaves none out)
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
