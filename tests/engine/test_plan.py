"""The plan (engine/plan, ADR-0057) as users see it: EXPLAIN shows a step per clause and what the rules
decided without running anything; PROFILE runs the statement and gives each step's rows and time;
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
    result = db.execute("EXPLAIN " + statement, params or {})
    assert result.columns == ["id", "operator", "details", "notes"]
    return [(operator, notes) for _, operator, _, notes in result.rows]


def test_explain_shows_a_step_per_clause_and_runs_nothing(db):
    result = db.execute("EXPLAIN MATCH (p:P) WITH p.g AS g, count(*) AS c CREATE (:Made {g: g}) RETURN g")
    assert [row[1] for row in result.rows] == ["Match", "Aggregation", "Create", "Projection"]
    assert [row[2] for row in result.rows][:2] == ["MATCH (p:P)", "WITH p.g AS g, count(*) AS c"]
    assert result.counters["nodes_created"] == 0
    assert db.execute("MATCH (m:Made) RETURN count(*) AS c").fetchall() == [(0,)]


def test_consecutive_reads_are_one_select_and_writes_are_not(db):
    assert plan_of(db, "MATCH (p:P) WHERE p.id > 3 WITH p ORDER BY p.id LIMIT 5 RETURN p.id AS id") == [
        ("Match", ""), ("Limit", "one SELECT with step 1"), ("Projection", "one SELECT with step 2, result")]
    assert plan_of(db, "MATCH (p:P) SET p.seen = true RETURN count(*) AS c") == [
        ("Match", ""), ("Set", "row order not read"), ("Aggregation", "result")]


def test_the_rules_properties_are_shown(db):
    """ADR-0029: an aggregation ordered by its own keys does not read its input's order; ADR-0048: a MATCH
    whose rows nothing counts reads distinct input rows."""
    steps = plan_of(db, "MATCH (a:P) MATCH (a)-->(b) RETURN DISTINCT b.id AS id")
    assert steps[1] == ("Match", "one SELECT with step 1, distinct input rows")
    steps = plan_of(db, "MATCH (p:P) RETURN p.g AS g, count(*) AS c ORDER BY g")
    assert "row order not read" in steps[0][1]


def test_explain_needs_no_parameters_and_points_errors_into_the_text_as_sent(db):
    assert plan_of(db, "UNWIND $rows AS r MERGE (n:P {id: r.id}) SET n.name = r.name") == [
        ("Unwind", ""), ("Merge", ""), ("Set", "result")]
    with pytest.raises(engine.CypherSyntaxError) as raised:
        db.execute("EXPLAIN MATCH (n RETURN n")
    assert raised.value.column == 18 and "EXPLAIN MATCH (n RETURN n" in str(raised.value)


def test_profile_runs_the_statement_and_gives_rows_per_step(db):
    result = db.execute("PROFILE MATCH (p:P) WHERE p.id <= 30 WITH p.g AS g, count(*) AS c RETURN g, c ORDER BY g")
    assert len(result.rows) == 10
    assert [line["operator"] for line in result.plan] == ["Match", "Aggregation", "Sort"]
    assert result.plan[-1]["rows"] == 10
    assert all(line["ms"] >= 0 for line in result.plan)
    written = db.execute("PROFILE UNWIND range(1, 7) AS i CREATE (:Q {i: i}) WITH i RETURN count(*) AS c")
    assert written.rows == [(7,)] and written.counters["nodes_created"] == 7
    assert written.plan[0] == {**written.plan[0], "operator": "Unwind", "rows": 7}


def test_python_m_engine_explain_prints_the_plan_of_each_seed_statement():
    page = agent_memory_page()
    for cell in (cell for cell in page.cells if type(cell).__name__ == "Cell"):  # not the trace
        done = subprocess.run([sys.executable, "-m", "engine", "explain", cell.text], cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, (cell.name, done.stderr)
        assert done.stdout.startswith("== plan"), (cell.name, done.stdout[:200])
        plans = done.stdout.count("\nid  operator")
        assert plans == len([part for part in cell.text.split(";") if part.strip()]), (cell.name, done.stdout)
