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
