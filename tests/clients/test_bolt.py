"""The official `neo4j` driver against `cookbook serve --bolt`, started as a user starts it: sessions, managed
and explicit transactions, `execute_query`, every value type there and back, streaming in batches, the
status codes of failures, routing (`neo4j://`), authentication and TLS; and langchain-neo4j's `Neo4jGraph`
connecting over the wire."""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("neo4j")

import neo4j
import neo4j.exceptions
import neo4j.graph
import neo4j.spatial
import neo4j.time
import pytz

from tests.clients.bolt_server import ROOT, start, stop


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server, url = start(tmp_path_factory.mktemp("bolt") / "graph.rl")
    yield url.removeprefix("bolt://")
    stop(server)


@pytest.fixture
def driver(address: str) -> Iterator[neo4j.Driver]:
    with neo4j.GraphDatabase.driver(f"bolt://{address}", auth=("neo4j", "any")) as made:
        made.execute_query("MATCH (n) DETACH DELETE n")
        yield made


def test_the_driver_connects_with_bolt_5(driver: neo4j.Driver) -> None:
    driver.verify_connectivity()
    info = driver.get_server_info()
    assert info.protocol_version[0] == 5 and info.agent.startswith("Neo4j/")


def test_graph_values_come_back_as_the_drivers_types(driver: neo4j.Driver) -> None:
    records, summary, keys = driver.execute_query(
        "CREATE p = (a:A:Extra {x: 1})-[r:R {w: 2.5}]->(b:B)<-[:S]-(c:C) RETURN a, r, p")
    assert keys == ["a", "r", "p"]
    node, rel, path = records[0]["a"], records[0]["r"], records[0]["p"]
    assert isinstance(node, neo4j.graph.Node) and node.labels == {"A", "Extra"} and dict(node) == {"x": 1}
    assert isinstance(rel, neo4j.graph.Relationship) and rel.type == "R" and dict(rel) == {"w": 2.5}
    assert rel.start_node.element_id == node.element_id
    assert isinstance(path, neo4j.graph.Path) and [n.labels for n in path.nodes] == [{"A", "Extra"}, {"B"}, {"C"}]
    assert [r.type for r in path.relationships] == ["R", "S"]
    assert path.relationships[1].start_node.labels == {"C"}  # walked against its direction
    assert summary.counters.nodes_created == 3 and summary.counters.relationships_created == 2
    assert summary.counters.labels_added == 4 and summary.counters.contains_updates
    assert summary.query_type == "rw"


VALUES = {
    "null": None, "bool": True, "int": -(2**40), "float": 1.25, "string": "héllo", "list": [1, "two", [3.0]],
    "map": {"k": [1, {"deep": None}]},
    "date": neo4j.time.Date(1999, 12, 31),
    "time": neo4j.time.Time(12, 30, 15, 123456789, tzinfo=pytz.FixedOffset(120)),  # the driver's own zone class
    "localtime": neo4j.time.Time(1, 2, 3, 4),
    "datetime": neo4j.time.DateTime(2024, 2, 29, 23, 59, 59, 999999999,
                                    tzinfo=datetime.timezone(datetime.timedelta(hours=-5))),
    "localdatetime": neo4j.time.DateTime(1901, 1, 1, 0, 0, 0, 1),
    "duration": neo4j.time.Duration(months=14, days=-3, seconds=5, nanoseconds=6),
    "point": neo4j.spatial.CartesianPoint((1.5, -2.0)),
    "point3d": neo4j.spatial.CartesianPoint((1.0, 2.0, 3.0)),
    "geographic": neo4j.spatial.WGS84Point((12.5, 55.7)),
}


@pytest.mark.parametrize("name", list(VALUES))
def test_every_value_type_round_trips_as_a_parameter(driver: neo4j.Driver, name: str) -> None:
    records, _, _ = driver.execute_query("RETURN $value AS value", value=VALUES[name])
    assert records[0]["value"] == VALUES[name]


def test_values_made_by_cypher(driver: neo4j.Driver) -> None:
    record = driver.execute_query(
        "RETURN datetime('2024-06-01T12:00:00.5[Europe/Stockholm]') AS zoned, date('2024-01-02') AS d,"
        " localtime('10:11') AS lt, time('10:11+01:00') AS t, localdatetime('2024-01-02T03:04') AS ldt,"
        " duration('P1Y2M3DT4H') AS du, point({latitude: 1, longitude: 2}) AS geo").records[0]
    zoned = record["zoned"]
    assert zoned.tzinfo is not None and str(zoned.tzinfo) == "Europe/Stockholm"
    assert (zoned.hour, zoned.nanosecond, zoned.utcoffset()) == (12, 500_000_000, datetime.timedelta(hours=2))
    assert record["d"] == neo4j.time.Date(2024, 1, 2)
    assert record["lt"] == neo4j.time.Time(10, 11)
    assert record["t"].utc_offset() == datetime.timedelta(hours=1)
    assert record["ldt"] == neo4j.time.DateTime(2024, 1, 2, 3, 4)
    assert record["du"] == neo4j.time.Duration(years=1, months=2, days=3, hours=4)
    assert record["geo"] == neo4j.spatial.WGS84Point((2.0, 1.0))


def test_results_stream_in_batches_of_the_fetch_size(driver: neo4j.Driver) -> None:
    with driver.session(fetch_size=7) as session:
        result = session.run("UNWIND range(1, 100) AS i RETURN i")
        assert [record["i"] for record in result] == list(range(1, 101))
        partly = session.run("UNWIND range(1, 100) AS i RETURN i")
        assert partly.peek()["i"] == 1
        summary = partly.consume()  # the rest discarded
        assert summary.query_type == "r" and summary.result_available_after is not None


def test_managed_transactions_commit_and_retry_nothing_on_success(driver: neo4j.Driver) -> None:
    def create(tx: neo4j.ManagedTransaction, name: str) -> int:
        tx.run("CREATE (:Person {name: $name})", name=name).consume()
        first = tx.run("MATCH (p:Person) RETURN count(p) AS n")  # two results open in one transaction
        second = tx.run("RETURN 1 AS one")
        return first.single()["n"] + second.single()["one"]

    with driver.session() as session:
        assert session.execute_write(create, "Ada") == 2
        assert session.execute_read(lambda tx: tx.run("MATCH (p:Person) RETURN p.name AS n").single()["n"]) == "Ada"


def test_explicit_transactions_commit_or_roll_back(driver: neo4j.Driver) -> None:
    with driver.session() as session:
        tx = session.begin_transaction()
        tx.run("CREATE (:Kept)")
        tx.commit()
        tx = session.begin_transaction()
        tx.run("CREATE (:Undone)")
        assert tx.run("MATCH (u:Undone) RETURN count(u) AS n").single()["n"] == 1
        tx.rollback()
        counts = session.run("MATCH (k:Kept) WITH count(k) AS kept OPTIONAL MATCH (u:Undone)"
                             " RETURN kept, count(u) AS undone")
        assert counts.single().data() == {"kept": 1, "undone": 0}
        assert session.last_bookmarks()


def test_a_failed_statement_rolls_its_transaction_back(driver: neo4j.Driver) -> None:
    with driver.session() as session:
        tx = session.begin_transaction()
        tx.run("CREATE (:Lost)").consume()
        with pytest.raises(neo4j.exceptions.ClientError) as failure:
            tx.run("RETURN 1 / 0").consume()
        assert failure.value.code == "Neo.ClientError.Statement.ArithmeticError"
        tx.close()
        assert session.run("MATCH (l:Lost) RETURN count(l) AS n").single()["n"] == 0


@pytest.mark.parametrize(("statement", "parameters", "code"), [
    ("RETURN 1 +", {}, "Neo.ClientError.Statement.SyntaxError"),
    ("RETURN $missing", {}, "Neo.ClientError.Statement.ParameterMissing"),
    ("UNWIND [1, 'a'] AS x RETURN x - 1", {}, "Neo.ClientError.Statement.TypeError"),
    ("RETURN $b", {"b": b"\x00"}, "Neo.ClientError.Statement.TypeError"),
    ("CREATE (:U {k: 1}), (:U {k: 1})", {}, "Neo.ClientError.Schema.ConstraintValidationFailed"),
])
def test_failures_carry_neo4js_status_codes(driver: neo4j.Driver, statement: str, parameters: dict[str, object],
                                            code: str) -> None:
    driver.execute_query("CREATE CONSTRAINT u_k IF NOT EXISTS FOR (u:U) REQUIRE u.k IS UNIQUE")
    with pytest.raises(neo4j.exceptions.ClientError) as failure:
        driver.execute_query(statement, parameters)
    assert failure.value.code == code
    assert driver.execute_query("RETURN 1 AS still").records[0]["still"] == 1  # the connection goes on


def test_a_write_in_a_read_session_is_refused(driver: neo4j.Driver) -> None:
    with driver.session(default_access_mode=neo4j.READ_ACCESS) as session, pytest.raises(
            neo4j.exceptions.ClientError) as failure:
        session.run("CREATE (:Nope)").consume()
    assert failure.value.code == "Neo.ClientError.Statement.AccessMode"


def test_a_schema_statement_is_summarised_as_one(driver: neo4j.Driver) -> None:
    summary = driver.execute_query("CREATE INDEX s_x IF NOT EXISTS FOR (s:S) ON (s.x)").summary
    assert summary.query_type == "s"  # whether or not the index existed already
    driver.execute_query("DROP INDEX s_x")


@pytest.mark.parametrize(("statement", "query_type"), [
    ("MATCH (n) RETURN n", "r"), ("CREATE (:T)", "w"), ("MATCH (t:Nothing) DELETE t", "w"),
    ("CREATE (t:T) RETURN t", "rw"), ("CREATE INDEX t_x FOR (t:T) ON (t.x)", "s")])
def test_explain_summarises_the_statements_query_type(driver: neo4j.Driver, statement: str,
                                                      query_type: str) -> None:
    """As Neo4j: the summary of `EXPLAIN statement` has the statement's type and nothing ran (a client tells
    a write from a read so before it runs it: mcp-neo4j-cypher does)."""
    assert driver.execute_query("EXPLAIN " + statement).summary.query_type == query_type
    assert driver.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0
    assert driver.execute_query("SHOW INDEXES YIELD name WHERE name = 't_x' RETURN name").records == []


def test_routing_driver_sees_one_server_for_every_role(address: str) -> None:
    with neo4j.GraphDatabase.driver(f"neo4j://{address}", auth=("neo4j", "any")) as routed:
        records, _, _ = routed.execute_query("RETURN 41 + 1 AS answer", routing_=neo4j.RoutingControl.READ)
        assert records[0]["answer"] == 42


def test_langchain_neo4j_graph_over_bolt(driver: neo4j.Driver, address: str) -> None:
    langchain_neo4j = pytest.importorskip("langchain_neo4j")
    driver.execute_query("CREATE (:Movie {title: 'The Matrix', released: 1999})<-[:ACTED_IN {role: 'Neo'}]-"
                         "(:Person {name: 'Keanu'})")
    graph = langchain_neo4j.Neo4jGraph(url=f"bolt://{address}", username="neo4j", password="any")
    schema = graph.get_structured_schema
    assert {"property": "title", "type": "STRING"} in schema["node_props"]["Movie"]
    assert {"start": "Person", "type": "ACTED_IN", "end": "Movie"} in schema["relationships"]
    graph.refresh_schema()
    assert "ACTED_IN" in graph.schema
    assert graph.query("MATCH (m:Movie) RETURN m.title AS title") == [{"title": "The Matrix"}]
    graph.close()


def test_a_password_is_checked_when_set(tmp_path: Path) -> None:
    server, url = start(tmp_path / "locked.rl", "--password", "s3cret")
    try:
        with neo4j.GraphDatabase.driver(url, auth=("neo4j", "wrong")) as wrong, pytest.raises(
                neo4j.exceptions.AuthError):
            wrong.verify_connectivity()
        with neo4j.GraphDatabase.driver(url, auth=("neo4j", "s3cret")) as right:
            assert right.execute_query("RETURN 1 AS one").records[0]["one"] == 1
    finally:
        stop(server)


def test_tls_from_the_given_certificate(tmp_path: Path) -> None:
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-keyout", str(key), "-out", str(certificate)], check=True, capture_output=True)
    server, url = start(tmp_path / "tls.rl", "--tls-cert", str(certificate), "--tls-key", str(key))
    try:
        assert url.startswith("bolt+s://")
        with neo4j.GraphDatabase.driver(url.replace("bolt+s://", "bolt+ssc://"), auth=("neo4j", "x")) as secure:
            assert secure.execute_query("RETURN 'tls' AS over").records[0]["over"] == "tls"
    finally:
        stop(server)


def test_beyond_loopback_the_server_needs_a_password_and_tls(tmp_path: Path) -> None:
    refused = subprocess.run([sys.executable, "-m", "runner", "serve", "--db", str(tmp_path / "x.rl"), "--bolt",
                              "--host", "0.0.0.0", "--password", "p"], cwd=ROOT, capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert refused.returncode == 2 and "needs TLS" in refused.stderr
