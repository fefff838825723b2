"""`cookbook serve --tools PAGE`: a page's tool cells as typed MCP tools, driven by the official MCP client
over stdio and Streamable HTTP. Threadline's eleven tools from page 03 give what the page's recorded trace
shows; a bad argument is refused with the schema's message, a writing cell declared read is refused by
the engine, and pages whose declarations are wrong are refused with FILE:LINE before the server starts."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

import engine
from runner.mcp.page_tools import OUTPUT_SCHEMA, PageTools
from runner.mcp.recording import check_steps
from runner.mcp.tools import CypherTools
from runner.mcp.trace import step_from_call
from runner.page import parse_page, read_page
from tests.runner.helpers import FIXTURES, ROOT
from tests.runner.test_mcp_serve import SERVE, free_port, wait_for_port
from tests.runner.test_tool_cells import TEAM_PAGE, THREADLINE_TOOLS, TOOLS_PAGE

GENERIC = ["get_schema", "read_cypher", "write_cypher"]


def build(page_path: Path, through: str, database: Path) -> Path:
    """The database the page's cells through `through` make, in a file a server can open."""
    page = read_page(page_path)
    with engine.connect(str(database)) as connection:
        for cell in page.cells_through(through):
            connection.execute_script(cell.text, page.params_for(cell))
    return database


@pytest.fixture(scope="module")
def team_database(tmp_path_factory) -> Path:
    return build(TEAM_PAGE, "fulltextEntry", tmp_path_factory.mktemp("team") / "team.rl")


def stdio(database: Path, *pages: Path) -> StdioServerParameters:
    arguments = [*SERVE[1:], "--db", str(database), "--tools", *map(str, pages)]
    return StdioServerParameters(command=SERVE[0], args=arguments, cwd=str(ROOT))


async def threadline_session(client: Client) -> tuple[list, list, dict]:
    """List the tools, send the page's recorded session of typed calls, and a few the schema refuses."""
    listed = (await client.list_tools()).tools
    steps = read_page(TEAM_PAGE).data["tool-calls"].values["steps"]
    results = [await client.call_tool(step["tool"], step["arguments"]) for step in steps]
    refused = {
        "unknown argument": await client.call_tool("expand", {"key": "person:bodhi", "depth": 2}),
        "missing argument": await client.call_tool("who_knows", {}),
        "wrong type": await client.call_tool("activity", {"since": "last week", "until": 1796169600}),
    }
    return listed, results, refused


def check_threadline_session(listed: list, results: list, refused: dict) -> None:
    page = read_page(TEAM_PAGE)
    assert sorted(tool.name for tool in listed) == sorted([*GENERIC, *THREADLINE_TOOLS])
    by_name = {tool.name: tool for tool in listed}
    for name, declaration in page.tools.items():
        tool = by_name[name]
        assert tool.description == (declaration.description or tool.description)
        assert tool.annotations.read_only_hint is True, name
        if declaration.alias is None:
            assert tool.input_schema == declaration.input_schema, name
            assert tool.output_schema == OUTPUT_SCHEMA, name
    assert by_name["cypher_readonly"].input_schema == by_name["read_cypher"].input_schema

    steps = page.data["tool-calls"].values["steps"]
    called = {step["tool"] for step in steps}
    assert called == set(THREADLINE_TOOLS)  # each of the eleven, at least once
    for step, result in zip(steps, results, strict=True):
        if step.get("note", "").startswith("refused"):
            continue
        assert not result.is_error, (step["tool"], result.content)
        if step["tool"] != "cypher_readonly":
            payload = result.structured_content
            assert payload["cypher"] == page.tools[step["tool"]].cell.text
            assert set(payload) == {"columns", "rows", "keys", "relationships", "cypher", "counters",
                                    "truncated", "returned"}
    recorded = page.cell("tool-calls").recorded.text
    check = check_steps(recorded, [step_from_call(step["tool"], result, ordered=False)
                                   for step, result in zip(steps, results, strict=True)])
    assert check.equal, check.reasons
    assert results[-1].is_error and results[-1].content[0].text.startswith(
        "ArgumentError: 0 is less than the minimum of 1 (argument 'limit' of expand)")

    texts = {name: result.content[0].text for name, result in refused.items() if result.is_error}
    assert texts == {
        "unknown argument": "ArgumentError: Additional properties are not allowed ('depth' was unexpected) (the "
                            "arguments of expand)\nexpand takes key (string), types (array, optional), limit "
                            "(integer, optional).",
        "missing argument": "ArgumentError: 'term' is a required property (the arguments of who_knows)\nwho_knows "
                            "takes term (string), repo (string or null, optional), now (integer, optional).",
        "wrong type": "ArgumentError: 'last week' is not of type 'integer' (argument 'since' of activity)\n"
                      "activity takes since (integer), until (integer), repo (string or null, optional), kind "
                      "(string or null, optional), limit (integer, optional).",
    }


def test_threadlines_eleven_tools_over_stdio(team_database):
    async def session():
        async with Client(stdio(team_database, TEAM_PAGE)) as client:
            return await threadline_session(client)

    check_threadline_session(*anyio.run(session))


def test_threadlines_eleven_tools_over_streamable_http(team_database):
    port = free_port()
    server = subprocess.Popen([*SERVE, "--db", str(team_database), "--tools", str(TEAM_PAGE), "--http", "--port",
                               str(port)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_port(server, port, 60)

        async def session():
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                return await threadline_session(client)

        check_threadline_session(*anyio.run(session))
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_writing_cell_declared_read_is_refused_and_changes_nothing(tmp_path):
    database = build(TOOLS_PAGE, "people", tmp_path / "people.rl")
    count = {"statement": "MATCH (p:Person) RETURN count(p) AS people"}

    async def session():
        async with Client(stdio(database, TOOLS_PAGE)) as client:
            added = await client.call_tool("add_person", {"key": "person:ida", "name": "Ida"})
            forgot = await client.call_tool("forget", {"key": "person:ida"})
            after = await client.call_tool("cypher_readonly", count)
            chain = await client.call_tool("chain", {"from": "person:ada", "to": "person:alan"})
            return added, forgot, after, chain

    added, forgot, after, chain = anyio.run(session)
    assert not added.is_error
    assert {key: n for key, n in added.structured_content["counters"].items() if n} == {
        "nodes_created": 1, "properties_set": 2, "labels_added": 1}
    assert added.structured_content["keys"] == ["person:ida"]
    assert forgot.is_error
    assert forgot.content[0].text == (
        "ForbiddenError: this statement writes to the graph (it has an updating clause); use a writing call for it\n"
        "forget is declared read-only, and its cell writes: nothing was changed. The page that declares it must say "
        "\"access\": \"write\" for it to run.")
    assert after.structured_content["rows"] == [{"people": 4}]
    assert chain.structured_content["keys"] == ["person:ada", "person:alan", "person:grace"]
    assert chain.structured_content["relationships"] == [
        {"id": 0, "type": "KNOWS", "start": "person:ada", "end": "person:grace"},
        {"id": 1, "type": "KNOWS", "start": "person:grace", "end": "person:alan"}]


BAD_PAGE = """# Bad tools

Finds people.

```cypher cell=find params=find tool=find
MATCH (p:Person {name: $name}) RETURN p
```

```json tool=find
{
  "parameters": {"name": {"type": "strng"}}
}
```

```json data=find
{"name": "Ada"}
```
"""


def serve_refused(*pages: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*SERVE, "--db", ":memory:", "--tools", *map(str, pages)], cwd=ROOT, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=60)


def test_serve_refuses_a_page_with_a_bad_declaration_with_file_and_line(tmp_path):
    page = tmp_path / "bad.md"
    page.write_text(BAD_PAGE, encoding="utf-8")
    served = serve_refused(page)
    assert served.returncode == 2 and served.stdout == ""
    assert served.stderr.splitlines() == [
        f"{page}:11: tool block 'find': parameters.name.type: 'strng' is not valid under any of the given schemas "
        "('strng' is not one of ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']; 'strng' is "
        "not of type 'array')"]


def test_serve_refuses_a_tool_two_pages_declare_and_a_page_with_none(tmp_path):
    copy = tmp_path / "copy.md"
    copy.write_text(TOOLS_PAGE.read_text(encoding="utf-8"), encoding="utf-8")
    served = serve_refused(TOOLS_PAGE, copy)
    assert served.returncode == 2
    assert f"{copy}:18: tool 'born_before' is also declared at {TOOLS_PAGE}:18" in served.stderr.splitlines()
    served = serve_refused(FIXTURES / "small.md")
    assert served.returncode == 2
    assert served.stderr.strip().endswith("the page declares no tools (mark a cell `tool=NAME`: docs/tool-cells.md)")


def test_the_typed_output_schema_is_what_a_result_meets():
    """The schema the client validates structured content with, as clients read it."""
    assert OUTPUT_SCHEMA["required"] == ["columns", "rows", "keys", "relationships", "cypher", "counters",
                                         "truncated", "returned"]
    assert json.loads(json.dumps(OUTPUT_SCHEMA)) == OUTPUT_SCHEMA


KEYLESS_PAGE = """The graph's one relationship, and the node it starts at.

```cypher cell=edge tool=edge
MATCH (a)-[r]->(b) RETURN a, r, [b.name] AS names
```

```json tool=edge
{"keys": ["names"]}
```
"""


def test_nodes_without_a_key_are_named_by_their_id_and_key_columns_add_their_strings():
    """Without MCP: PageTools on a connection, as the server and the trace replay use it."""
    page = parse_page(KEYLESS_PAGE)
    assert page.errors == []
    with engine.connect(":memory:") as connection:
        connection.execute("CREATE (:X)-[:R]->(:Y {name: 'y'})")
        payload = PageTools(CypherTools(connection), page.tools).call("edge", {})
    assert payload["keys"] == ["n0", "y"]
    assert payload["relationships"] == [{"id": 0, "type": "R", "start": "n0", "end": "n1"}]
    assert payload["cypher"] == "MATCH (a)-[r]->(b) RETURN a, r, [b.name] AS names\n"
