"""Tool results sized for an agent (issue 40, ADR-0088): row and byte caps, truncation that says so, values
shortened unless asked for whole, and paging with cursors that give every row once or fail clearly.

The first tests call the tools in process (`CypherTools`); the last ones run `cookbook serve` over stdio and
over Streamable HTTP with the MCP SDK's client on a graph of 100,000 nodes."""

from __future__ import annotations

import json
import subprocess
import tracemalloc

import anyio
import pytest
from mcp import Client, StdioServerParameters

import engine
from runner.mcp.page_tools import PageTools
from runner.mcp.sizing import Caps
from runner.mcp.tools import CypherTools, ToolFailure
from runner.page import parse_page
from tests.runner.helpers import ROOT
from tests.runner.test_mcp_serve import SERVE, free_port, wait_for_port

NODES = 100_000
BUILD = f"UNWIND range(1, {NODES}) AS i CREATE (:Item {{i: i}})"


@pytest.fixture
def tools():
    with engine.connect() as connection:
        yield CypherTools(connection, caps=Caps(max_rows=10, max_bytes=4096))


def size(payload: dict) -> int:
    return len(json.dumps(payload, ensure_ascii=False).encode())


def all_pages(tools: CypherTools, statement: str, parameters: dict | None = None) -> list[dict]:
    """Every row of `statement`, following cursors page by page."""
    rows, cursor = [], None
    while True:
        page = tools.read_cypher(statement, parameters, cursor=cursor)
        rows.extend(page["rows"])
        assert page["returned"] == len(page["rows"]) <= tools.caps.max_rows
        if not page["truncated"]:
            return rows
        cursor = page["cursor"]


def test_a_result_within_the_caps_says_it_is_whole(tools):
    tools.write_cypher("UNWIND range(1, 5) AS i CREATE (:Item {i: i})")
    page = tools.read_cypher("MATCH (n:Item) RETURN n.i AS i ORDER BY i")
    assert page["rows"] == [{"i": i} for i in range(1, 6)]
    assert (page["truncated"], page["returned"]) == (False, 5)
    assert "cursor" not in page and "message" not in page


def test_a_longer_result_is_cut_at_max_rows_and_says_what_to_do(tools):
    tools.write_cypher("UNWIND range(1, 25) AS i CREATE (:Item {i: i})")
    page = tools.read_cypher("MATCH (n:Item) RETURN n.i AS i")
    assert (page["truncated"], page["returned"]) == (True, 10)
    assert page["rows"] == [{"i": i} for i in range(1, 11)]
    assert page["message"].startswith("Truncated: 10 rows sent (rows 1 to 10), more follow (max-rows cap).")
    assert "cursor" in page["message"] and "LIMIT" in page["message"]
    assert page["cursor"]


def test_a_result_is_cut_at_max_bytes(tools):
    tools.write_cypher("UNWIND range(1, 8) AS i CREATE (:Item {i: i, text: $text})", {"text": "x" * 900})
    page = tools.read_cypher("MATCH (n:Item) RETURN n.i AS i, n.text AS text")
    assert page["truncated"] and page["returned"] < 8
    assert size(page) <= tools.caps.max_bytes
    assert "(max-bytes cap)" in page["message"]
    assert [row["i"] for row in all_pages(tools, "MATCH (n:Item) RETURN n.i AS i, n.text AS text")] == list(range(1, 9))


def test_paging_gives_every_row_once_even_where_the_order_ties(tools):
    """Rows tied on the statement's ORDER BY (here `k`) come in the engine's row order (ADR-0007), which
    breaks the tie, so pages follow one another as one run gives the rows."""
    tools.write_cypher("UNWIND range(1, 57) AS i CREATE (:Item {i: i, k: i % 4})")
    statement = "MATCH (n:Item) RETURN n.k AS k, n.i AS i ORDER BY k"
    rows = all_pages(tools, statement)
    assert sorted(row["i"] for row in rows) == list(range(1, 58))
    assert [row["k"] for row in rows] == sorted(row["k"] for row in rows)
    assert [(row["k"], row["i"]) for row in rows] == [tuple(row) for row in tools.connection.execute(statement).rows]


def test_a_cursor_after_a_write_is_refused_with_a_clear_message(tools):
    tools.write_cypher("UNWIND range(1, 25) AS i CREATE (:Item {i: i})")
    page = tools.read_cypher("MATCH (n:Item) RETURN n.i AS i")
    tools.write_cypher("CREATE (:Item {i: 0})")
    with pytest.raises(ToolFailure, match=r"^CursorError: the graph was written after this cursor was given"):
        tools.read_cypher("MATCH (n:Item) RETURN n.i AS i", cursor=page["cursor"])
    # a write that changes nothing leaves the cursor valid
    page = tools.read_cypher("MATCH (n:Item) RETURN n.i AS i")
    tools.write_cypher("MATCH (n:Nothing) SET n.x = 1")
    assert tools.read_cypher("MATCH (n:Item) RETURN n.i AS i", cursor=page["cursor"])["rows"][0] == {"i": 11}


def test_a_cursor_belongs_to_its_statement_and_parameters(tools):
    tools.write_cypher("UNWIND range(1, 25) AS i CREATE (:Item {i: i})")
    statement = "MATCH (n:Item) WHERE n.i > $low RETURN n.i AS i"
    page = tools.read_cypher(statement, {"low": 0})
    for other, parameters in ((statement, {"low": 1}), ("MATCH (n:Item) RETURN n.i AS i", {"low": 0})):
        with pytest.raises(ToolFailure, match=r"^CursorError: this cursor belongs to another statement"):
            tools.read_cypher(other, parameters, cursor=page["cursor"])
    with pytest.raises(ToolFailure, match=r"^CursorError: this cursor is not one this server gave"):
        tools.read_cypher(statement, {"low": 0}, cursor="not-a-cursor")
    assert tools.read_cypher(statement, {"low": 0}, cursor=page["cursor"])["rows"][0] == {"i": 11}


@pytest.mark.parametrize("statement", [
    "MATCH (n:Item) RETURN n.i AS i, rand() AS r",  # draws at random
    "MATCH (n:Item) RETURN n.i AS i, datetime() AS now",  # reads the clock
    "MATCH (n:Item) RETURN n.i AS i UNION ALL MATCH (n:Item) RETURN -n.i AS i",  # its parts numbered in Python order
])
def test_a_statement_that_need_not_repeat_gets_no_cursor(tools, statement):
    tools.write_cypher("UNWIND range(1, 25) AS i CREATE (:Item {i: i})")
    page = tools.read_cypher(statement)
    assert page["truncated"] and page["returned"] == 10 and "cursor" not in page
    assert "No cursor: running it again need not give the same rows" in page["message"]


def test_long_values_are_shortened_unless_asked_for_whole(tools):
    tools.write_cypher("CREATE (:Doc {text: $text, tags: range(1, 80), embedding: vector(range(1, 32), 32, FLOAT32)})",
                       {"text": "abc" * 500})
    statement = "MATCH (d:Doc) RETURN d, d.text AS text, d.tags AS tags"
    row = tools.read_cypher(statement)["rows"][0]
    text = row["text"]
    assert text.startswith("abc" * 333 + "a… [cut: 1,500 characters in all; full_values: true gives it whole]")
    assert row["tags"][:50] == list(range(1, 51))
    assert row["tags"][50:] == ["… [cut: 80 items in all; full_values: true gives it whole]"]
    properties = row["d"]["properties"]
    assert properties["embedding"] == {"coordinateType": "FLOAT32", "dimension": 32,
                                       "coordinates": "[cut: 32 coordinates; full_values: true gives it whole]"}
    assert properties["text"] == text and properties["tags"] == row["tags"]
    whole = CypherTools(tools.connection, caps=Caps(max_rows=10, max_bytes=64 * 1024)).read_cypher(
        statement, full_values=True)["rows"][0]
    assert whole["text"] == "abc" * 500 and whole["tags"] == list(range(1, 81))
    assert whole["d"]["properties"]["embedding"]["coordinates"] == [float(i) for i in range(1, 33)]


def test_one_row_larger_than_max_bytes_still_comes(tools):
    tools.write_cypher("CREATE (:Doc {text: $text})", {"text": "y" * 20_000})
    page = tools.read_cypher("MATCH (d:Doc) RETURN d.text AS text", full_values=True)
    assert page["rows"] == [{"text": "y" * 20_000}] and page["truncated"] is False


def test_get_schema_is_cut_to_the_caps(tools):
    tools.write_cypher("UNWIND range(1, 30) AS i CALL (i) { CREATE (n) SET n:$('L' + toString(i)) } RETURN count(*)")
    schema = tools.get_schema()
    assert len(schema["labels"]) == 10 and schema["truncated"] is True
    assert "CALL db.labels()" in schema["message"]


ITEMS_PAGE = """Every item, with its number.

```cypher cell=items tool=items
MATCH (n:Item) RETURN n, n.i AS i
```

```json tool=items
{"keys": ["i"]}
```
"""


def test_a_page_tool_is_cut_to_the_caps(tools):
    page = parse_page(ITEMS_PAGE)
    assert page.errors == []
    tools.write_cypher("UNWIND range(1, 30) AS i CREATE (:Item {i: i})")
    result = PageTools(tools, page.tools).call("items", {})
    assert [row["i"] for row in result["rows"]] == list(range(1, 11))
    assert (result["truncated"], result["returned"]) == (True, 10)
    assert result["keys"] == sorted(f"n{id}" for id in range(10))  # the nodes of the rows sent, no others
    assert "read the rest with read_cypher, which pages with a cursor" in result["message"]


def test_a_windowed_read_holds_a_page_of_rows_not_all(tmp_path):
    """The engine fetches a window's rows only: Python's allocations while reading the first 200 of 20,000
    nodes are a small part of those while reading all of them (measured in the same run)."""
    with engine.connect() as connection:
        connection.execute("UNWIND range(1, 20000) AS i CREATE (:Item {i: i})")
        connection.execute("MATCH (n) RETURN n", window=engine.Window(0, 200))  # compiled and cached
        tracemalloc.start()
        try:
            windowed = connection.execute("MATCH (n) RETURN n", window=engine.Window(0, 200))
            window_peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.reset_peak()
            whole = connection.execute("MATCH (n) RETURN n")
            whole_peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert len(windowed.rows) == 200 and windowed.more and len(whole.rows) == 20_000
    assert windowed.rows == whole.rows[:200]
    assert window_peak * 20 < whole_peak, (window_peak, whole_peak)


# -- over the protocol ----------------------------------------------------------------------------------------

CAPS = ["--max-rows", "10000", "--max-bytes", "400000"]


async def page_through(client: Client, statement: str) -> tuple[list[dict], int]:
    """Every row of `statement` over MCP, following cursors; and how many calls it took."""
    rows, cursor, calls = [], None, 0
    while True:
        arguments = {"statement": statement} | ({"cursor": cursor} if cursor else {})
        result = await client.call_tool("read_cypher", arguments)
        calls += 1
        assert not result.is_error, result.content[0].text
        page = result.structured_content
        assert len(page["rows"]) == page["returned"] <= 10_000 and size(page) <= 400_000
        rows.extend(page["rows"])
        if not page["truncated"]:
            return rows, calls
        cursor = page["cursor"]


async def session_on_100k_nodes(client: Client) -> None:
    """The whole story on one server: build, one capped answer, every row by cursors, a write between pages.
    The pages carry each node's number rather than the node, which costs the client ten times the bytes."""
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert "10000 rows" in tools["read_cypher"].description and "cursor" in tools["read_cypher"].description
    built = await client.call_tool("write_cypher", {"statement": BUILD})
    assert built.structured_content["counters"]["nodes_created"] == NODES

    first = (await client.call_tool("read_cypher", {"statement": "MATCH (n) RETURN n"})).structured_content
    assert first["truncated"] is True and 0 < first["returned"] < 10_000 and first["cursor"]
    assert size(first) <= 400_000 and "(max-bytes cap)" in first["message"]

    rows, calls = await page_through(client, "MATCH (n) RETURN n.i AS i")
    numbers = [row["i"] for row in rows]
    assert len(numbers) == NODES and sorted(numbers) == list(range(1, NODES + 1))  # each row exactly once
    assert calls == NODES // 10_000  # every page full: the last one knows no row follows it

    cursor = first["cursor"]
    following = await client.call_tool("read_cypher", {"statement": "MATCH (n) RETURN n", "cursor": cursor})
    after = following.structured_content["rows"][0]["n"]["properties"]["i"]
    assert after == first["rows"][-1]["n"]["properties"]["i"] + 1
    await client.call_tool("write_cypher", {"statement": "CREATE (:Item {i: 0})"})
    refused = await client.call_tool("read_cypher", {"statement": "MATCH (n) RETURN n", "cursor": cursor})
    assert refused.is_error
    assert refused.content[0].text.startswith("CursorError: the graph was written after this cursor was given")


def test_100k_nodes_capped_and_paged_over_stdio():
    parameters = StdioServerParameters(command=SERVE[0], args=[*SERVE[1:], "--db", ":memory:", *CAPS], cwd=str(ROOT))

    async def session():
        async with Client(parameters) as client:
            await session_on_100k_nodes(client)

    anyio.run(session)


def test_100k_nodes_capped_and_paged_over_streamable_http(tmp_path):
    port = free_port()
    server = subprocess.Popen([*SERVE, "--db", str(tmp_path / "items.rl"), "--http", "--port", str(port), *CAPS],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_port(server, port, 30)

        async def session():
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                await session_on_100k_nodes(client)

        anyio.run(session)
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_default_caps_answer_match_n_return_n_with_200_rows():
    parameters = StdioServerParameters(command=SERVE[0], args=[*SERVE[1:], "--db", ":memory:"], cwd=str(ROOT))

    async def session():
        async with Client(parameters) as client:
            await client.call_tool("write_cypher", {"statement": BUILD})
            return (await client.call_tool("read_cypher", {"statement": "MATCH (n) RETURN n"})).structured_content

    page = anyio.run(session)
    assert (page["truncated"], page["returned"]) == (True, 200) and size(page) <= 64 * 1024
    assert [row["n"]["properties"]["i"] for row in page["rows"]] == list(range(1, 201))


def test_serve_refuses_caps_too_small():
    served = subprocess.run([*SERVE, "--db", ":memory:", "--max-bytes", "100"], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert served.returncode == 2
    assert "a result must hold a row and 2048 bytes at least" in served.stderr
