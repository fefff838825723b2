"""`cookbook serve` as a subprocess, driven by the MCP SDK's client: the seed's session 2 as tool calls
over stdio, the read-only refusals, Streamable HTTP, and a database file another process holds."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

import engine
from tests.runner.helpers import ROOT, agent_memory_page

SERVE = [sys.executable, "-m", "runner", "serve"]

SEED_RESULTS = [
    {"rows": [{"slot": "billing service/on-call"}, {"slot": "orders service/database"},
              {"slot": "orders service/owner"}, {"slot": "orders service/team"}]},
    {"counters": {"nodes_created": 5, "relationships_created": 8, "properties_set": 14, "labels_added": 5}},
    {"counters": {"nodes_created": 1, "relationships_created": 3, "properties_set": 4, "labels_added": 1}},
    {"counters": {"nodes_created": 1, "relationships_created": 3, "properties_set": 5, "labels_added": 1}},
    {"counters": {"relationships_created": 2, "properties_set": 2}},
    {"rows": [{"seq": 5, "entities": 3, "facts": 0, "decisions": 1},
              {"seq": 6, "entities": 3, "facts": 1, "decisions": 0}]},
    {"rows": [{
        "entity": "orders service", "kind": "service",
        "facts": [{"fact": "The orders service is built for the checkout team.", "session": "session-1"},
                  {"fact": "The billing service consumes OrderPlaced events from the orders service.",
                   "session": "session-1"},
                  {"fact": "The orders service publishes OrderPlaced events to Kafka.",
                   "session": "session-1"},
                  {"fact": "Carol owns the orders service.", "session": "session-2"}],
        "decisions": [{"decision": "Use CockroachDB as the orders service database",
                       "rationale": "Postgres failover was too slow in the multi-region test",
                       "replaced": ["Use Postgres as the orders service database"], "session": "session-2"}],
        "history": ["Alice owns the orders service."],
        "nearby": [{"entity": "billing service", "fact": "Bob is on call for the billing service."},
                   {"entity": "checkout team", "fact": "Bob is on the checkout team."}]}]},
]
"""What the seed's "Session 2 as an agent's tool calls" shows for its seven steps: rows for the reads,
non-zero counters (and no rows) for the writes."""

REFUSED = {
    "CREATE": "CREATE (:Fact {text: 'planted'})",
    "MERGE": "MERGE (e:Entity {key: 'planted'})",
    "SET": "MATCH (f:Fact) SET f.text = 'overwritten'",
    "DELETE": "MATCH (f:Fact) DETACH DELETE f",
    "REMOVE": "MATCH (d:Decision) REMOVE d.supersededAt, d:Decision",
    "write inside CALL { }": "MATCH (f:Fact) CALL (f) { SET f.text = 'overwritten' } RETURN count(*) AS n",
    "FOREACH": "MATCH (f:Fact) FOREACH (x IN [1] | SET f.text = 'overwritten')",
}
"""Statements read_cypher must refuse, each as the engine's read-only violation (ForbiddenError)."""


def build_up_to_slots(path: Path) -> None:
    """The page's cells through `slots`, on the file the server will open: session 1, left on disk."""
    page = agent_memory_page()
    with engine.connect(str(path)) as connection:
        for cell in page.cells_through("slots"):
            connection.execute_script(cell.text, page.params_for(cell))


def stdio_server(path: Path | str) -> StdioServerParameters:
    return StdioServerParameters(command=SERVE[0], args=[*SERVE[1:], "--db", str(path)], cwd=str(ROOT))


async def snapshot(client: Client) -> str:
    """Every node and relationship, and the schema: compared before and after the refusals."""
    parts = []
    for statement in ("MATCH (n) RETURN n", "MATCH ()-[r]->() RETURN r"):
        result = await client.call_tool("read_cypher", {"statement": statement})
        parts.append(sorted(json.dumps(row, sort_keys=True) for row in result.structured_content["rows"]))
    parts.append((await client.call_tool("get_schema", {})).structured_content)
    return json.dumps(parts, sort_keys=True)


def nonzero(counters: dict[str, int]) -> dict[str, int]:
    return {key: count for key, count in counters.items() if count}


def test_the_seeds_session_2_over_stdio(tmp_path):
    database = tmp_path / "agent.rl"
    build_up_to_slots(database)
    steps = agent_memory_page().data["session-2-calls"].values["steps"]

    async def session():
        async with Client(stdio_server(database)) as client:
            tools = (await client.list_tools()).tools
            results = [await client.call_tool(step["tool"], step["arguments"]) for step in steps]
            before = await snapshot(client)
            refusals = {name: await client.call_tool("read_cypher", {"statement": statement})
                        for name, statement in REFUSED.items()}
            return tools, results, refusals, before, await snapshot(client)

    tools, results, refusals, before, after = anyio.run(session)

    assert sorted(tool.name for tool in tools) == ["get_schema", "read_cypher", "write_cypher"]
    assert [step["tool"] for step in steps] == ["read_cypher", *["write_cypher"] * 4, *["read_cypher"] * 2]
    for number, (step, result, expected) in enumerate(zip(steps, results, SEED_RESULTS, strict=True), 1):
        assert not result.is_error, (number, result.content)
        payload = result.structured_content
        if step["tool"] == "write_cypher":
            assert (payload["rows"], nonzero(payload["counters"])) == ([], expected["counters"]), number
        else:
            assert nonzero(payload["counters"]) == {}, number
            assert payload["rows"] == expected["rows"], number

    for name, refused in refusals.items():
        assert refused.is_error, name
        assert refused.content[0].text.startswith("ForbiddenError: "), (name, refused.content[0].text)
    assert after == before


def test_the_file_keeps_what_the_server_wrote(tmp_path):
    database = tmp_path / "memory.rl"

    async def write():
        async with Client(stdio_server(database)) as client:
            return await client.call_tool("write_cypher", {
                "statement": "CREATE (:Fact {text: $text, at: datetime($at)})",
                "parameters": {"text": "Carol owns the orders service.", "at": "2026-03-16T14:07:00Z"}})

    async def read():
        async with Client(stdio_server(database)) as client:
            return await client.call_tool("read_cypher",
                                          {"statement": "MATCH (f:Fact) RETURN f.text AS text, f.at AS at"})

    assert nonzero(anyio.run(write).structured_content["counters"]) == {
        "nodes_created": 1, "properties_set": 2, "labels_added": 1}
    assert anyio.run(read).structured_content["rows"] == [
        {"text": "Carol owns the orders service.", "at": "2026-03-16T14:07:00Z"}]


def test_cypher_errors_reach_the_client_with_message_and_position():
    async def session():
        async with Client(stdio_server(":memory:")) as client:
            return await client.call_tool("read_cypher",
                                          {"statement": "MATCH (n:Fact)\nWHERE n.seq > \nRETURN n"})

    result = anyio.run(session)
    assert result.is_error
    text = result.content[0].text
    assert text.startswith("SyntaxError: ") and "(line 3, column 1)" in text, text


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(server: subprocess.Popen, port: int, seconds: float) -> None:
    """Wait until the served HTTP port accepts connections; a server that exits, or one that takes longer
    than `seconds`, fails the test with what it printed."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert server.poll() is None, server.stderr.read()
            assert time.monotonic() < deadline, "the HTTP server did not start"
            time.sleep(0.2)


def test_streamable_http_on_localhost(tmp_path):
    port = free_port()
    server = subprocess.Popen([*SERVE, "--db", str(tmp_path / "http.rl"), "--http", "--port", str(port)],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_port(server, port, 30)

        async def session():
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                await client.call_tool("write_cypher", {"statement": "CREATE (:Session {id: 's1'})"})
                return await client.call_tool("read_cypher",
                                              {"statement": "MATCH (s:Session) RETURN s.id AS id"})

        assert anyio.run(session).structured_content["rows"] == [{"id": "s1"}]
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_two_servers_on_one_file_both_work_and_see_each_others_writes(tmp_path):
    """ADR-0055: agent hosts start one stdio server per window; the second on a file works through the first
    (which holds the file), and takes it over when the first exits."""
    database = tmp_path / "agent.rl"

    async def both() -> tuple[list, list]:
        async with Client(stdio_server(database)) as first, Client(stdio_server(database)) as second:
            await first.call_tool("write_cypher", {"statement": "CREATE (:Session {id: 'one'})"})
            await second.call_tool("write_cypher", {"statement": "CREATE (:Session {id: 'two', turn: 2})"})
            seen_by_first = await first.call_tool(
                "read_cypher", {"statement": "MATCH (s:Session) RETURN s.id AS id, s.turn AS turn ORDER BY id"})
        async with Client(stdio_server(database)) as third:
            after = await third.call_tool("read_cypher", {"statement": "MATCH (s:Session) RETURN count(*) AS n"})
        return seen_by_first.structured_content["rows"], after.structured_content["rows"]

    rows, after = anyio.run(both)
    assert rows == [{"id": "one", "turn": None}, {"id": "two", "turn": 2}]
    assert after == [{"n": 2}]


RAW_HOLD = """
import sys, duckdb
connection = duckdb.connect(sys.argv[1])
print("holding", flush=True)
sys.stdin.read()
"""
"""A program that holds the file and does not serve it: DuckDB itself."""


def test_serve_on_a_file_a_program_holds_without_serving_it_is_a_clear_error(tmp_path):
    database = tmp_path / "agent.rl"
    holder = subprocess.Popen([sys.executable, "-c", RAW_HOLD, str(database)], cwd=ROOT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline() == "holding\n"
        served = subprocess.run([*SERVE, "--db", str(database)], cwd=ROOT, capture_output=True, text=True,
                                stdin=subprocess.DEVNULL, timeout=60)
        assert served.returncode == 2
        assert served.stdout == ""
        assert served.stderr.startswith(
            f"cookbook serve: error: cannot open the database {database}: it is open in another process "
            f"(PID {holder.pid}), which holds it for writing")
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)


def test_serve_needs_a_database():
    served = subprocess.run(SERVE, cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                            timeout=60)
    assert served.returncode == 2 and "--db" in served.stderr


def test_serve_on_a_file_that_is_not_a_database(tmp_path):
    database = tmp_path / "notes.rl"
    content = b"not a database\n" * 100
    database.write_bytes(content)
    served = subprocess.run([*SERVE, "--db", str(database)], cwd=ROOT, capture_output=True, text=True,
                            stdin=subprocess.DEVNULL, timeout=60)
    assert served.returncode == 2
    assert served.stderr.startswith(f"cookbook serve: error: cannot open the database {database}: ")
    assert database.read_bytes() == content
