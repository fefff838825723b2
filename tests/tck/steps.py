"""Running one scenario: each step's text is looked up in `STEPS` (pattern → handler) and run in order.

A scenario gets a fresh in-memory database. `executing query:` records what happened (the result, fully
fetched, or the error) and the `Then` steps judge it. Verdicts raise `ScenarioFailed`; anything else that
escapes (an engine crash, a setup query that fails, an unknown step) is an error of the run, not a verdict.
A snapshot of the graph is taken before a query only when a side-effect step follows it, and not at all
while no query has run (a fresh graph is empty): most scenarios then cost one snapshot, two queries.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from tests.tck.compare import compare_table
from tests.tck.error_rules import EXPECT_ERROR, ExpectedError, describe, error_mismatch
from tests.tck.features import Scenario, Step
from tests.tck.side_effects import GraphState, compare_side_effects, diff, expected_side_effects, snapshot
from tests.tck.values import parse_parameter, parse_value

EMPTY_GRAPH = GraphState({}, {})


class ScenarioFailed(Exception):
    """The engine's behaviour is not what the scenario says: a wrong result, error or side effect.

    `problem` is what was wrong; `where` adds the step, its line and the query, for the failure report.
    """

    def __init__(self, problem: str, where: str = "") -> None:
        super().__init__(f"{where}\n{problem}" if where else problem)
        self.problem = problem
        self.where = where


class HarnessError(Exception):
    """The scenario could not be run as written: an unknown step, a missing graph, a bad table."""


@dataclass
class QueryOutcome:
    query: str
    columns: list[str] = field(default_factory=list)
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    error: Exception | None = None
    judged: bool = False  # an error counts as expected only once an error step has looked at it


@dataclass
class Run:
    """The state of one scenario while its steps run."""

    scenario: Scenario
    graphs: Path
    connect: Callable[[], Any]
    snapshot_before: frozenset[int] = frozenset()  # indexes of the queries whose side effects are checked
    index: int = 0  # the step running now
    touched: bool = False  # whether any query ran yet: before that the fresh graph is known to be empty
    params: dict[str, Any] = field(default_factory=dict)
    outcome: QueryOutcome | None = None
    before: GraphState | None = None
    _db: Any = None

    @property
    def db(self) -> Any:
        if self._db is None:
            self._db = self.connect()
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()

    def last(self) -> QueryOutcome:
        if self.outcome is None:
            raise HarnessError("a Then step before any query was executed")
        return self.outcome


def _setup_query(run: Run, text: str) -> None:
    """Setup must succeed: a failure here makes the scenario an error, not a verdict. As in tck-api,
    setup queries get no parameters; those are for the query under test."""
    run.touched = True
    try:
        run.db.execute(text).fetchall()
    except Exception as error:
        raise HarnessError(f"setup query failed: {describe(error)}\n  query:\n{_indent(text)}") from error


def empty_graph(run: Run, step: Step, found: re.Match[str]) -> None:
    """`an empty graph` / `any graph`: every scenario starts from a fresh in-memory database."""


def named_graph(run: Run, step: Step, found: re.Match[str]) -> None:
    """`the <name> graph`: run the creation scripts in `<features>/../graphs/<name>/`."""
    folder = run.graphs / found["name"]
    description = folder / f"{found['name']}.json"
    scripts = json.loads(description.read_text())["scripts"] if description.exists() else [found["name"]]
    for script in scripts:
        path = folder / f"{script}.cypher"
        if not path.exists():
            raise HarnessError(f"graph script not found: {path}")
        text = path.read_text(encoding="utf-8").strip().removesuffix(";")
        _setup_query(run, text)


def having_executed(run: Run, step: Step, found: re.Match[str]) -> None:
    _setup_query(run, _docstring(step))


def parameters(run: Run, step: Step, found: re.Match[str]) -> None:
    """`parameters are:`: a header-less table of `name | value`."""
    for row in _table(step):
        if len(row) != 2:
            raise HarnessError(f"a parameter row has a name and a value: {list(row)}")
        run.params[row[0]] = parse_parameter(row[1])


def procedure(run: Run, step: Step, found: re.Match[str]) -> None:
    """`there exists a procedure <signature>:` with a table whose header names inputs and outputs."""
    header, *rows = _table(step) or ((),)
    records = [dict(zip(header, map(parse_parameter, row), strict=True)) for row in rows]
    try:
        run.db.register_procedure(found["signature"], records)
    except Exception as error:
        raise HarnessError(f"registering the procedure failed: {describe(error)}") from error


def executing_query(run: Run, step: Step, found: re.Match[str]) -> None:
    """Run the query and keep its result or error; a snapshot is taken first when side effects are checked."""
    query = _docstring(step)
    if run.index not in run.snapshot_before:
        run.before = None
    else:
        run.before = _snapshot(run) if run.touched else EMPTY_GRAPH  # two engine queries saved
    run.touched = True
    run.outcome = QueryOutcome(query)
    try:
        result = run.db.execute(query, run.params)
        run.outcome.columns = list(result.columns)
        run.outcome.rows = [tuple(row) for row in result.fetchall()]
    except Exception as error:
        run.outcome.error = error


def _result_of(run: Run) -> QueryOutcome:
    """The last query's result; an unexpected Cypher error is a verdict, any other exception a crash."""
    outcome = run.last()
    if outcome.error is None:
        return outcome
    if isinstance(outcome.error, engine.CypherError):
        outcome.judged = True
        raise ScenarioFailed(f"the query raised {describe(outcome.error)}") from outcome.error
    raise outcome.error


RESULT_STEPS: dict[str, tuple[bool, bool]] = {
    # step text → (rows in order, lists in order)
    "the result should be, in any order:": (False, True),
    "the result should be, in order:": (True, True),
    "the result should be (ignoring element order for lists):": (False, False),
    "the result should be, in order (ignoring element order for lists):": (True, False),
}


def expect_result(run: Run, step: Step, found: re.Match[str]) -> None:
    ordered_rows, ordered_lists = RESULT_STEPS[step.text]
    outcome = _result_of(run)
    header, *rows = _table(step)
    expected = [tuple(parse_value(cell) for cell in row) for row in rows]
    problem = compare_table(outcome.columns, outcome.rows, header, expected,
                            ordered_rows=ordered_rows, ordered_lists=ordered_lists)
    if problem:
        raise ScenarioFailed(problem)


def expect_empty(run: Run, step: Step, found: re.Match[str]) -> None:
    outcome = _result_of(run)
    if outcome.rows:
        raise ScenarioFailed(f"expected no rows, got {len(outcome.rows)} (columns {outcome.columns})")


def expect_error(run: Run, step: Step, found: re.Match[str]) -> None:
    expected = ExpectedError.from_step(step.text)
    assert expected is not None  # the step pattern is the same regular expression
    outcome = run.last()
    if outcome.error is None:
        raise ScenarioFailed(f"expected {expected}, but the query succeeded with {len(outcome.rows)} rows")
    if not isinstance(outcome.error, engine.CypherError):
        raise outcome.error
    outcome.judged = True
    problem = error_mismatch(expected, outcome.error)
    if problem:
        raise ScenarioFailed(problem) from outcome.error


def _snapshot(run: Run) -> GraphState:
    try:
        return snapshot(run.db)
    except Exception as error:
        raise HarnessError(f"reading the graph for side effects failed: {describe(error)}") from error


def _check_side_effects(run: Run, expected: dict[str, int]) -> None:
    outcome = run.last()
    if outcome.error is not None and not outcome.judged:
        _result_of(run)  # an unexpected error is the verdict, not the side effects it left
    if run.before is None:
        raise HarnessError("side effects checked without a snapshot before the query")
    problem = compare_side_effects(diff(run.before, _snapshot(run)), expected)
    if problem:
        raise ScenarioFailed(problem)


def side_effects(run: Run, step: Step, found: re.Match[str]) -> None:
    try:
        expected = expected_side_effects(_table(step))
    except ValueError as error:
        raise HarnessError(str(error)) from error
    _check_side_effects(run, expected)


def no_side_effects(run: Run, step: Step, found: re.Match[str]) -> None:
    _check_side_effects(run, expected_side_effects(()))


Handler = Callable[[Run, Step, re.Match[str]], None]
STEP_PATTERNS: tuple[tuple[str, Handler], ...] = (
    (r"an empty graph|any graph", empty_graph),
    (r"the (?P<name>[\w.-]+) graph", named_graph),
    (r"having executed:", having_executed),
    (r"parameters are:", parameters),
    (r"there exists a procedure (?P<signature>.+?)\s*:", procedure),
    (r"executing (?:control )?query:", executing_query),
    ("|".join(re.escape(text) for text in RESULT_STEPS), expect_result),
    (r"the result should be empty", expect_empty),
    (EXPECT_ERROR.pattern, expect_error),
    (r"the side effects should be:", side_effects),
    (r"no side effects", no_side_effects),
)
STEPS = tuple((re.compile(pattern), handler) for pattern, handler in STEP_PATTERNS)
EXECUTING = executing_query
SIDE_EFFECT_HANDLERS = (side_effects, no_side_effects)


def resolve(step: Step) -> tuple[Handler, re.Match[str]]:
    """The handler for a step's text; an unknown step is a harness error naming the known ones."""
    for pattern, handler in STEPS:
        found = pattern.fullmatch(step.text)
        if found:
            return handler, found
    known = "\n".join(f"  {pattern.pattern}" for pattern, _ in STEPS)
    raise HarnessError(f"unknown step {step.text!r} at line {step.line}; known steps:\n{known}")


def _snapshot_points(handlers: list[Handler]) -> frozenset[int]:
    """Indexes of query steps followed by a side-effect step before the next query."""
    points: set[int] = set()
    last_query: int | None = None
    for index, handler in enumerate(handlers):
        if handler is EXECUTING:
            last_query = index
        elif handler in SIDE_EFFECT_HANDLERS and last_query is not None:
            points.add(last_query)
    return frozenset(points)


def _docstring(step: Step) -> str:
    if step.docstring is None:
        raise HarnessError(f"step {step.text!r} at line {step.line} needs a \"\"\" block")
    return step.docstring


def _table(step: Step) -> tuple[tuple[str, ...], ...]:
    if step.table is None:
        raise HarnessError(f"step {step.text!r} at line {step.line} needs a table")
    return step.table


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


def _where(run: Run, step: Step) -> str:
    query = f"\n  query:\n{_indent(run.outcome.query)}" if run.outcome else ""
    return f"{run.scenario.feature}:{step.line}: {step.text}{query}"


def run_scenario(scenario: Scenario, graphs: Path, connect: Callable[[], Any]) -> None:
    """Run every step; raise `ScenarioFailed` with the step and query on a wrong verdict."""
    resolved = [resolve(step) for step in scenario.steps]
    run = Run(scenario, graphs, connect, _snapshot_points([handler for handler, _ in resolved]))
    try:
        for run.index, (step, (handler, found)) in enumerate(zip(scenario.steps, resolved, strict=True)):
            try:
                handler(run, step, found)
            except ScenarioFailed as failure:
                raise ScenarioFailed(failure.problem, _where(run, step)) from failure.__cause__
        if run.outcome is not None and run.outcome.error is not None and not run.outcome.judged:
            _result_of(run)
    finally:
        run.close()
