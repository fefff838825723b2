"""The plan (engine/plan, ADR-0057) as users see it: EXPLAIN shows the operator tree with estimated rows and
what the rules decided about each step, without running anything; PROFILE runs the statement and gives each
step's rows and time, and those of each operator DuckDB ran for it;
`python -m engine explain` prints the plan first. Assertions are on plan shape, not on SQL."""

from __future__ import annotations

import subprocess
import sys

import pytest

import engine
from tests.runner.helpers import ROOT, agent_memory_page


@pytest.fixture
def db():
    with engine.connect(":memory:") as connection:
        connection.execute("UNWIND range(1, 100) AS i CREATE (:P {id: i, g: i % 10})")
        yield connection


def plan_of(db, statement: str, params=None) -> list[tuple]:
    """EXPLAIN's operators root first: (operator, step, notes)."""
    result = db.execute("EXPLAIN " + statement, params or {})
    assert result.columns == ["id", "operator", "details", "estimatedRows", "step", "notes"]
    return [(operator, step, notes) for _, operator, _, _, step, notes in result.rows]


def operators(db, statement: str, params=None) -> list[str]:
    return [operator for operator, _, _ in plan_of(db, statement, params)]


def test_explain_shows_the_operator_tree_and_runs_nothing(db):
    result = db.execute("EXPLAIN MATCH (p:P) WITH p.g AS g, count(*) AS c CREATE (:Made {g: g}) RETURN g")
    assert [row[1] for row in result.rows] == [
        "+ProduceResults", "+Projection", "+Create", "+EagerAggregation", "+NodeByLabelScan"]
    assert [row[2] for row in result.rows][2:] == ["(:Made {g: g})", "p.g, count(*)", "p:P"]
    assert [row[4] for row in result.rows] == [4, 4, 3, 2, 1]  # the plan step each belongs to
    assert result.counters["nodes_created"] == 0
    assert db.execute("MATCH (m:Made) RETURN count(*) AS c").fetchall() == [(0,)]


@pytest.mark.parametrize(("statement", "query_type"), [
    ("MATCH (p:P) RETURN count(p) AS n", "r"),
    ("CREATE (:Made)", "w"),
    ("MATCH (n:Nothing) DELETE n", "w"),  # a write however little it changed
    ("CREATE (m:Made) RETURN m", "rw"),
    ("CREATE INDEX made_x IF NOT EXISTS FOR (m:Made) ON (m.x)", "s"),
    ("SHOW INDEXES", "r"),
])
def test_the_query_type_comes_from_the_statement_and_explain_reports_it(db, statement, query_type):
    """Neo4j's query type (`r`, `w`, `rw`, `s`), which clients read from a Bolt summary: EXPLAIN reports the
    statement's without running it (mcp-neo4j-cypher tells its read tool from its write tool so)."""
    explained = db.execute("EXPLAIN " + statement)
    assert explained.query_type == query_type and not explained.contains_updates
    assert db.execute(statement).query_type == query_type
    assert db.execute("MATCH (m:Made) RETURN count(m) AS n").rows == [(1 if query_type in ("w", "rw")
                                                                        and "Made" in statement else 0,)]


def test_estimated_rows_come_from_the_stores_counts(db):
    """100 :P nodes, 90 :R relationships: a label scan estimates 100 rows, an expansion the average degree
    (0.9) per row, an equality 1 row in 10, an aggregation with keys the square root, a LIMIT its count."""
    db.execute("MATCH (a:P), (b:P) WHERE b.id = a.id + 1 AND a.id <= 90 CREATE (a)-[:R]->(b)")
    result = db.execute("EXPLAIN MATCH (a:P)-[:R]->(b) WHERE b.g = 1 RETURN b.g AS g, count(*) AS c LIMIT 2")
    estimates = {row[1].lstrip("|+ "): row[3] for row in result.rows}
    assert estimates == {"ProduceResults": 2, "Limit": 2, "EagerAggregation": 3, "Filter": 9, "Expand(All)": 90,
                         "NodeByLabelScan": 100}


def test_a_subquery_and_a_union_are_branches_of_the_tree(db):
    tree = operators(db, "MATCH (a:P {id: 1}) CALL (a) { MATCH (a)-[*1..2]->(c) RETURN count(c) AS n }"
                         " RETURN a.id AS id, n UNION ALL RETURN 0 AS id, 0 AS n")
    assert tree == ["+ProduceResults", "+Union", "| +Projection", "+Projection", "+Apply",
                    "| +EagerAggregation", "| +VarLengthExpand(All)", "| +Argument", "+Filter", "+NodeByLabelScan"]


def test_consecutive_reads_are_one_select_and_writes_are_not(db):
    steps = plan_of(db, "MATCH (p:P) WHERE p.id > 3 WITH p ORDER BY p.id LIMIT 5 RETURN p.id AS id")
    assert [(step, notes) for _, step, notes in steps if notes] == [
        (3, "one SELECT with step 2, result"), (2, "one SELECT with step 1")]
    steps = plan_of(db, "MATCH (p:P) SET p.seen = true RETURN count(*) AS c")
    assert [(operator, notes) for operator, _, notes in steps if notes] == [
        ("+EagerAggregation", "result"), ("+SetProperties", "row order not read")]


def test_the_rules_properties_are_shown(db):
    """ADR-0029: an aggregation ordered by its own keys does not read its input's order; ADR-0048: a MATCH
    whose rows nothing counts reads distinct input rows; ADR-0035: a shortest path between bound nodes may
    walk by levels."""
    steps = plan_of(db, "MATCH (a:P) MATCH (a)-->(b) RETURN DISTINCT b.id AS id")
    assert ("+Expand(All)", 2, "one SELECT with step 1, distinct input rows") in steps
    steps = plan_of(db, "MATCH (p:P) RETURN p.g AS g, count(*) AS c ORDER BY g")
    assert "row order not read" in steps[-1][2]
    steps = plan_of(db, "MATCH (a:P {id: 1}), (b:P {id: 2}) MATCH p = shortestPath((a)-[*]->(b)) RETURN p")
    assert ("+ShortestPath", 2, "one SELECT with step 1, may walk levels") in steps


def test_explain_needs_no_parameters_and_points_errors_into_the_text_as_sent(db):
    assert operators(db, "UNWIND $rows AS r MERGE (n:P {id: r.id}) SET n.name = r.name") == [
        "+SetProperties", "+Merge", "+Unwind"]
    paged = operators(db, "MATCH (p:P) RETURN p SKIP $s LIMIT $k")  # checked when the values are given
    assert paged[1:3] == ["+Limit", "+Skip"]
    with pytest.raises(engine.CypherArgumentError):
        db.execute("PROFILE MATCH (p:P) RETURN p LIMIT $k", {"k": -1})
    with pytest.raises(engine.CypherSyntaxError) as raised:
        db.execute("EXPLAIN MATCH (n RETURN n")
    assert raised.value.column == 18 and "EXPLAIN MATCH (n RETURN n" in str(raised.value)


def cypher_lines(plan: list[dict]) -> list[dict]:
    """PROFILE's lines of the Cypher plan, without the operators DuckDB ran under each step."""
    return [line for line in plan if line["notes"] != "DuckDB"]


def test_profile_runs_the_statement_and_gives_rows_and_time_per_step(db):
    result = db.execute("PROFILE MATCH (p:P) WHERE p.id <= 30 WITH p.g AS g, count(*) AS c RETURN g, c ORDER BY g")
    assert len(result.rows) == 10
    lines = cypher_lines(result.plan)
    measured = [(line["operator"], line["step"]) for line in lines if line["ms"] is not None]
    assert measured == [("+Sort", 3), ("+EagerAggregation", 2), ("+Filter", 1)]
    assert lines[1]["rows"] == 10
    assert all(line["ms"] >= 0 for line in result.plan if line["ms"] is not None)
    assert [line["id"] for line in result.plan] == list(range(len(result.plan)))
    written = db.execute("PROFILE UNWIND range(1, 7) AS i CREATE (:Q {i: i}) WITH i RETURN count(*) AS c")
    assert written.rows == [(7,)] and written.counters["nodes_created"] == 7
    assert cypher_lines(written.plan)[-1] == {**cypher_lines(written.plan)[-1], "operator": "+Unwind", "rows": 7}


def test_profile_gives_the_rows_and_time_of_each_operator_duckdb_ran(db):
    """ADR-0079: under each step's topmost operator, one level deeper, what DuckDB ran for the step, each
    operator with its actual rows and time; a fused chain's operators sit under the step that ran them."""
    db.execute("MATCH (p:P) WHERE p.id <= 20 CREATE (p)-[:R]->(:Q)")
    result = db.execute("PROFILE MATCH (p:P)-[:R]->(q:Q) WHERE p.g = 3 RETURN count(*) AS c")
    assert result.rows == [(2,)]
    lines = result.plan
    root = next(index for index, line in enumerate(lines) if line["operator"] == "+EagerAggregation")
    ran = [line for line in lines if line["notes"] == "DuckDB"]
    assert ran and all(line["step"] == lines[root]["step"] for line in ran)
    assert all(line["operator"].startswith("| ") and line["rows"] is not None and line["ms"] >= 0 for line in ran)
    assert lines[root + 1]["operator"] == "| +" + ran[0]["operator"].split("+")[-1]  # right under the step
    scans = [line for line in ran if line["operator"].endswith("TABLE_SCAN")]
    assert any(".nodes" in line["details"] for line in scans) and any(".rels" in line["details"] for line in scans)
    assert {line["rows"] for line in ran} >= {1, 2}  # the count's one row; the two matches of p.g = 3
    assert not {"PROJECTION", "RESULT_COLLECTOR"} & {line["operator"].split("+")[-1] for line in ran}
    explained = db.execute("EXPLAIN MATCH (p:P)-[:R]->(q:Q) RETURN count(*) AS c").plan
    assert all(line["notes"] != "DuckDB" for line in explained)
    written = db.execute("PROFILE MATCH (p:P) WHERE p.id = 1 SET p.seen = true")
    assert any(line["notes"] == "DuckDB" for line in written.plan)
    assert db.execute("MATCH (p:P) WHERE p.seen RETURN count(*)").rows == [(1,)]


def test_python_m_engine_explain_prints_the_plan_of_each_seed_statement():
    page = agent_memory_page()
    for cell in (cell for cell in page.cells if type(cell).__name__ == "Cell"):  # not the trace
        done = subprocess.run([sys.executable, "-m", "engine", "explain", cell.text], cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, (cell.name, done.stderr)
        assert done.stdout.startswith("== plan"), (cell.name, done.stdout[:200])
        plans = done.stdout.count("\nid  operator")
        assert plans == len([part for part in cell.text.split(";") if part.strip()]), (cell.name, done.stdout)


def test_python_m_engine_profile_prints_each_steps_rows_and_the_operators_duckdb_ran(tmp_path):
    database = str(tmp_path / "g.duckdb")
    statements = ("PROFILE UNWIND range(1, 10) AS i CREATE (:P {i: i});"
                  " MATCH (p:P) WHERE p.i > $min RETURN count(*) AS c")
    done = subprocess.run([sys.executable, "-m", "engine", "profile", statements, "--params", '{"min": 3}',
                           "--db", database], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    second = done.stdout.split("== profile of: MATCH")[1]
    assert second.startswith(" (p:P) WHERE p.i > $min RETURN count(*) AS c: 1 rows")
    ran = [line.split() for line in second.splitlines() if line.endswith("DuckDB")]
    assert any(words[1] == "|" and "TABLE_SCAN" in words[2] for words in ran)
    assert "7" in {words[-4] for words in ran}  # columns end rows, ms, step, notes: the seven nodes with i > 3
    with engine.connect(database) as db:  # PROFILE commits, as in Neo4j
        assert db.execute("MATCH (p:P) RETURN count(*)").rows == [(10,)]


def test_python_m_engine_explain_without_params_names_the_unknown_parameters_and_errors_give_their_kind():
    query = "MATCH (n:P {name: $name}) WHERE n.age > $age RETURN n.name"
    done = subprocess.run([sys.executable, "-m", "engine", "explain", query], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("== plan")
    assert "$name, $age are unknown" in done.stdout and "pass them with --params" in done.stdout
    given = subprocess.run([sys.executable, "-m", "engine", "explain", query, "--params", '{"name": "a", "age": 3}'],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert "== SQL, in order" in given.stdout
    broken = subprocess.run([sys.executable, "-m", "engine", "explain", "MATCH (n RETURN n"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert broken.returncode == 1 and broken.stderr.startswith("CypherSyntaxError: expected ')'")
