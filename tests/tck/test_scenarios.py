"""The TCK harness end to end on small .feature files, against a scripted stand-in for the engine."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine import CypherError, Node, Relationship, Result
from tests.tck import expected
from tests.tck.deadline import ScenarioTimeout, deadline, interrupt
from tests.tck.features import Scenario, parse_feature
from tests.tck.report import Record, summary_lines
from tests.tck.side_effects import NODES_QUERY, RELATIONSHIPS_QUERY
from tests.tck.steps import HarnessError, ScenarioFailed, run_scenario

Answer = Callable[["FakeDb", dict[str, Any]], Result]


@dataclass
class FakeDb:
    """Answers scripted queries; the snapshot queries read `nodes` and `relationships`."""

    answers: dict[str, Answer]
    nodes: list[Node] = field(default_factory=list)
    relationships: list[Relationship] = field(default_factory=list)
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    procedures: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)
    closed: bool = False
    snapshot_queries: int = 0

    def execute(self, statement: str, params: dict[str, Any] | None = None) -> Result:
        self.snapshot_queries += statement in (NODES_QUERY, RELATIONSHIPS_QUERY)
        if statement == NODES_QUERY:
            return Result(["n"], [(node,) for node in self.nodes])
        if statement == RELATIONSHIPS_QUERY:
            return Result(["r"], [(rel,) for rel in self.relationships])
        self.calls.append((statement, dict(params or {})))
        return self.answers[statement](self, dict(params or {}))

    def register_procedure(self, signature: str, rows: list[dict[str, Any]]) -> None:
        self.procedures.append((signature, rows))

    def close(self) -> None:
        self.closed = True


def cypher_error(kind: str, phase: str, detail: str | None = None) -> CypherError:
    """A Cypher error as the engine would raise it, independent of which subclass says what."""
    error = CypherError("message", detail=detail)
    error.kind, error.phase = kind, phase
    return error


def rows(columns: list[str], *values: tuple[Any, ...]) -> Answer:
    return lambda db, params: Result(columns, list(values))


def raises(error: Exception) -> Answer:
    def answer(db: FakeDb, params: dict[str, Any]) -> Result:
        raise error
    return answer


def create_node(db: FakeDb, params: dict[str, Any]) -> Result:
    db.nodes.append(Node(len(db.nodes), ("A",), {"name": "a"}))
    return Result([], [])


def scenarios(tmp_path: Path, text: str) -> list[Scenario]:
    path = tmp_path / "features" / "clauses" / "demo" / "Demo1.feature"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("Feature: Demo1\n\n" + text, encoding="utf-8")
    return parse_feature(path, tmp_path / "features")


def run(tmp_path: Path, text: str, db: FakeDb) -> None:
    (scenario,) = scenarios(tmp_path, text)
    run_scenario(scenario, tmp_path / "graphs", lambda: db)


RETURN_ONE = '''
  Scenario: [1] Return one
    Given an empty graph
    When executing query:
      """
      RETURN 1 AS x
      """
    Then the result should be, in any order:
      | x |
      | 1 |
    And no side effects
'''


def test_a_passing_scenario(tmp_path: Path) -> None:
    db = FakeDb({"RETURN 1 AS x": rows(["x"], (1,))})
    run(tmp_path, RETURN_ONE, db)
    assert db.calls == [("RETURN 1 AS x", {})]
    assert db.snapshot_queries == 2  # only after the query: before it, a fresh graph is empty
    assert db.closed


def test_a_wrong_result_names_step_line_and_query(tmp_path: Path) -> None:
    db = FakeDb({"RETURN 1 AS x": rows(["x"], (1.0,))})
    with pytest.raises(ScenarioFailed) as failure:
        run(tmp_path, RETURN_ONE, db)
    message = str(failure.value)
    assert "clauses/demo/Demo1.feature:10: the result should be, in any order:" in message
    assert "RETURN 1 AS x" in message and "| 1.0 |" in message


def test_an_unexpected_cypher_error_is_a_verdict(tmp_path: Path) -> None:
    db = FakeDb({"RETURN 1 AS x": raises(cypher_error("SyntaxError", "compile time", "UnexpectedSyntax"))})
    with pytest.raises(ScenarioFailed, match="query raised SyntaxError at compile time: UnexpectedSyntax"):
        run(tmp_path, RETURN_ONE, db)


def test_an_engine_crash_is_not_a_verdict(tmp_path: Path) -> None:
    db = FakeDb({"RETURN 1 AS x": raises(KeyError("oops"))})
    with pytest.raises(KeyError):
        run(tmp_path, RETURN_ONE, db)


EXPECT_ERROR = '''
  Scenario: [2] Undefined variable
    Given any graph
    When executing query:
      """
      RETURN x
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable
'''


@pytest.mark.parametrize(("error", "problem"), [
    (cypher_error("SyntaxError", "compile time", "UndefinedVariable"), None),
    (cypher_error("SyntaxError", "compile time", None), "detail"),
    (cypher_error("SemanticError", "compile time", "UndefinedVariable"), "type"),
    (cypher_error("SyntaxError", "runtime", "UndefinedVariable"), "phase"),
])
def test_expected_errors(tmp_path: Path, error: Exception, problem: str | None) -> None:
    db = FakeDb({"RETURN x": raises(error)})
    if problem is None:
        run(tmp_path, EXPECT_ERROR, db)
        return
    with pytest.raises(ScenarioFailed, match=f"wrong error \\({problem}\\)"):
        run(tmp_path, EXPECT_ERROR, db)


def test_a_missing_error_fails(tmp_path: Path) -> None:
    db = FakeDb({"RETURN x": rows(["x"], (1,))})
    with pytest.raises(ScenarioFailed, match="but the query succeeded"):
        run(tmp_path, EXPECT_ERROR, db)


def test_runtime_phase_mismatch_and_wildcards(tmp_path: Path) -> None:
    text = EXPECT_ERROR.replace("a SyntaxError should be raised at compile time: UndefinedVariable",
                                "an Error should be raised at any time: *")
    run(tmp_path, text, FakeDb({"RETURN x": raises(cypher_error("SemanticError", "runtime"))}))
    text = EXPECT_ERROR.replace("compile time", "runtime")
    db = FakeDb({"RETURN x": raises(cypher_error("SyntaxError", "compile time", "UndefinedVariable"))})
    with pytest.raises(ScenarioFailed, match=r"wrong error \(phase\)"):
        run(tmp_path, text, db)


CREATE = '''
  Scenario: [3] Create a node
    Given an empty graph
    And having executed:
      """
      SETUP
      """
    When executing query:
      """
      CREATE (:A {name: 'a'})
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | <labels> |
      | +properties | 1 |

    Examples:
      | labels |
      | 0      |
      | 1      |
'''


def test_side_effects_are_a_graph_diff(tmp_path: Path) -> None:
    outline = scenarios(tmp_path, CREATE)
    assert [scenario.id for scenario in outline] == [
        "clauses/demo/Demo1.feature::[3] Create a node#0", "clauses/demo/Demo1.feature::[3] Create a node#1"]
    assert outline[0].group == "clauses/demo"
    wrong, right = outline
    answers = {"SETUP": rows([]), "CREATE (:A {name: 'a'})": create_node}
    run_scenario(right, tmp_path, lambda: FakeDb(answers))
    with pytest.raises(ScenarioFailed, match=r"\+labels: expected 0, got 1"):
        run_scenario(wrong, tmp_path, lambda: FakeDb(answers))


def test_a_failing_setup_is_a_harness_error(tmp_path: Path) -> None:
    (scenario, _) = scenarios(tmp_path, CREATE)
    db = FakeDb({"SETUP": raises(cypher_error("SyntaxError", "compile time"))})
    with pytest.raises(HarnessError, match="setup query failed"):
        run_scenario(scenario, tmp_path, lambda: db)


def test_parameters_procedures_and_named_graphs(tmp_path: Path) -> None:
    graph = tmp_path / "graphs" / "tiny"
    graph.mkdir(parents=True)
    (graph / "tiny.json").write_text(json.dumps({"name": "tiny", "scripts": ["tiny"]}))
    (graph / "tiny.cypher").write_text("CREATE (:A);\n")
    text = '''
  Scenario: [4] Everything given
    Given the tiny graph
    And parameters are:
      | name | 'Alice'          |
      | ages | [1, 2.5, {k: 1}] |
    And there exists a procedure test.my.proc(in :: INTEGER?) :: (out :: STRING?) :
      | in   | out   |
      | null | 'nix' |
    When executing query:
      """
      RETURN $name AS n
      """
    Then the result should be, in order:
      | n       |
      | 'Alice' |
'''
    def echo(db: FakeDb, params: dict[str, Any]) -> Result:
        return Result(["n"], [(params["name"],)])

    db = FakeDb({"CREATE (:A)": rows([]), "RETURN $name AS n": echo})
    run(tmp_path, text, db)
    assert db.calls[0] == ("CREATE (:A)", {})
    assert db.calls[1][1] == {"name": "Alice", "ages": [1, 2.5, {"k": 1}]}
    signature = "test.my.proc(in :: INTEGER?) :: (out :: STRING?)"
    assert db.procedures == [(signature, [{"in": None, "out": "nix"}])]


def test_unknown_steps_are_named(tmp_path: Path) -> None:
    text = "  Scenario: [5] Odd\n    Given a graph made of cheese\n"
    with pytest.raises(HarnessError, match="unknown step 'a graph made of cheese' at line 4"):
        run(tmp_path, text, FakeDb({}))


def test_background_steps_come_first(tmp_path: Path) -> None:
    text = "  Background:\n    Given any graph\n\n" + RETURN_ONE
    (scenario,) = scenarios(tmp_path, text)
    assert [step.text for step in scenario.steps][:2] == ["any graph", "an empty graph"]


# The expected-failures list and the summary

def test_expected_list_round_trips() -> None:
    entries = {"a/B1.feature::[1] x#0": "needs UNWIND", "a/B1.feature::[2] y": ""}
    assert expected.parse(expected.dump(entries)) == entries


def test_regenerating_keeps_reasons_and_unreported_ids() -> None:
    current = {"f::[1] fixed": "old", "f::[2] still": "why it fails", "g::[9] not run": "elsewhere"}
    records = [
        Record("f::[1] fixed", "f", "passed"),
        Record("f::[2] still", "f", "failed", "rows differ"),
        Record("f::[3] new", "f", "errored", "KeyError: 'x'"),
    ]
    assert expected.regenerate(records, current) == {
        "f::[2] still": "why it fails",
        "f::[3] new": "errored: KeyError: 'x'",
        "g::[9] not run": "elsewhere",
    }


def test_summary_lines() -> None:
    records = [Record("a::1", "clauses/match", "passed"), Record("a::2", "clauses/match", "failed"),
               Record("b::1", "expressions/list", "errored", expected_failure=True)]
    lines = summary_lines(records)
    assert lines[0] == "TCK: passed 1 / failed 1 / errored 1 / total 3"
    assert any(line.startswith("clauses/match") and line.endswith("1 / 2") for line in lines)
    assert lines[-1] == "expected failures: 1 run, 0 now passing"


# The time limit

def test_deadline_stops_a_runaway_loop() -> None:
    with pytest.raises(ScenarioTimeout), deadline(0.2, lambda: None) as clock:
        while True:
            pass
    assert clock.expired


def test_deadline_interrupts_work_the_alarm_cannot_reach() -> None:
    """Off the main thread there is no alarm: only the interrupt (here, setting an event) stops the work."""
    stopped = threading.Event()
    seen: dict[str, bool] = {}

    def work() -> None:
        with deadline(0.2, stopped.set) as clock:
            seen["stopped"] = stopped.wait(5)
        seen["expired"] = clock.expired

    worker = threading.Thread(target=work)
    worker.start()
    worker.join(10)
    assert seen == {"stopped": True, "expired": True}


def test_deadline_leaves_quick_work_alone() -> None:
    with deadline(5, lambda: None) as clock:
        total = sum(range(1000))
    assert total == 499500 and not clock.expired


def test_interrupt_prefers_the_connections_own_method() -> None:
    class Stoppable:
        stopped = False

        def interrupt(self) -> None:
            self.stopped = True

    db = Stoppable()
    interrupt(db)
    assert db.stopped
    interrupt(object())  # nothing to call: no error
