"""The MCP server under hostile and heavy use: `read_cypher` refuses every writing statement of the TCK
and the graph stays as it was; concurrent clients over HTTP lose no write (short load test; long form:
`python -m tests.reliability.long --load-seconds N`)."""

from __future__ import annotations

import collections

import pytest

import engine
from runner.mcp.tools import CypherTools, ToolFailure
from tests.reliability.corpus import TCK_INDEX, TCK_MISSING, tck_writing_statements
from tests.reliability.graph_state import graph_state
from tests.reliability.load import load_test

SEED_GRAPH = """
CREATE CONSTRAINT person_name FOR (p:Person) REQUIRE p.name IS UNIQUE;
CREATE INDEX thing_num FOR (t:Thing) ON (t.num);
UNWIND range(1, 4) AS i CREATE (:A {num: i, name: 'a' + toString(i)})-[:T {w: i}]->(:B {num: i});
CREATE (:Person {name: 'Alice', age: 3})-[:KNOWS]->(:Person {name: 'Bob'})-[:KNOWS]->(:X:Y {num: 1});
MATCH (a:A), (b:B) WHERE a.num = b.num + 1 CREATE (b)-[:REL {name: 'r'}]->(a)
"""


@pytest.mark.skipif(not TCK_INDEX.exists(), reason=TCK_MISSING)
def test_read_cypher_refuses_every_writing_statement_of_the_tck():
    statements = tck_writing_statements()
    assert len(statements) > 500
    with engine.connect(":memory:") as connection:
        connection.execute_script(SEED_GRAPH)
        tools = CypherTools(connection)
        before = graph_state(connection)
        accepted, kinds = [], collections.Counter()
        for statement in statements:
            try:
                tools.read_cypher(statement, {})
            except ToolFailure as failure:
                kinds[str(failure).split(":", 1)[0]] += 1
            else:
                accepted.append(statement)
        assert accepted == []
        assert graph_state(connection) == before
    # most are refused as writes; the rest fail earlier (unknown parameters, unsupported features)
    assert kinds["ForbiddenError"] > len(statements) // 2, kinds


def test_concurrent_clients_lose_no_write():
    figures = load_test(seconds=3, clients=3)
    assert figures["errors"] == 0, figures["first errors"]
    assert figures["writes acknowledged"] > 0
    assert figures["lost writes"] == 0 and figures["unacknowledged writes stored"] == 0
    assert figures["writes stored"] == figures["writes acknowledged"]
    assert figures["read_cypher"]["p50_ms"] > 0 and figures["write_cypher"]["p99_ms"] > 0


def test_a_tool_call_past_the_servers_timeout_is_a_tool_error(tmp_path):
    from runner.cli import build_parser
    from runner.serving.database import open_database

    arguments = build_parser().parse_args(["serve", "--db", "x.rl", "--timeout", "0.3"])
    assert arguments.timeout == 0.3
    connection = open_database(str(tmp_path / "served.rl"), timeout=arguments.timeout)
    with connection:
        tools = CypherTools(connection)
        tools.write_cypher("CREATE (:Kept)")
        with pytest.raises(ToolFailure) as raised:
            tools.write_cypher("MATCH (k:Kept) UNWIND range(1, 3000) AS x UNWIND range(1, 3000) AS y "
                               "UNWIND range(1, 3000) AS z CREATE (:Made)")
        assert str(raised.value).startswith("TransactionError: the statement ran longer than its 0.3 s timeout")
        assert tools.read_cypher("MATCH (n) RETURN count(n) AS n")["rows"] == [{"n": 1}]
