"""PROFILE: the rows and the time of each step of a statement's plan, and of each operator DuckDB ran
for it, measured as it runs (ADR-0079).

A step is timed from its start to the next one's; the SQL of fused read clauses runs when the chain is
materialized or when the result is read, so its time and rows go to the chain's last step, the others of
the chain showing their compile time and no rows of their own. Rows are known where the engine holds a
table: a step that materializes its rows, and the result.

The operators that ran are DuckDB's physical operators of each SQL statement of the step (its profiler's
tree, read after the statement finished), with their actual rows and time: the Cypher operators of
EXPLAIN say what a step does, these what ran for it, and no mapping between the two is guessed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import duckdb

from engine.plan.describe import PlanLine
from engine.sqlgen.relation import Relation

if TYPE_CHECKING:
    from engine.execute.statement_run import Chain, StatementRun


PASS_THROUGH = frozenset({"RESULT_COLLECTOR", "PROJECTION"})
"""DuckDB operators left out of a profile: they pass rows on unchanged (a projection computes columns, not
rows), and a one-hop query has a dozen of them."""
DETAIL_KEYS = ("Table", "Join Type", "Conditions", "Filters", "Groups", "Aggregates", "Function")
"""The profiler's notes on an operator shown as its details, in this order."""
DETAIL_LENGTH = 160


@dataclass
class PhysicalOperator:
    """One operator DuckDB ran: its name, what it worked on, its estimated and actual rows, its time, and
    its children (the input first)."""

    name: str
    details: str
    estimated_rows: int | None
    rows: int
    seconds: float
    children: list[PhysicalOperator] = field(default_factory=list)

    def walk(self, depth: int = 0) -> Iterator[tuple[int, PhysicalOperator]]:
        """This operator and those below it with their depths, as `plan.operators.Operator.walk` lays a tree
        out (the input child at its parent's depth, another child one deeper)."""
        yield depth, self
        for index, child in enumerate(reversed(self.children)):
            yield from child.walk(depth + (1 if index < len(self.children) - 1 else 0))


def _details(info: dict[str, Any]) -> str:
    parts = []
    for key in DETAIL_KEYS:
        value = info.get(key)
        if value:
            parts.append(f"{key.lower()}: {', '.join(value) if isinstance(value, list) else value}")
    text = "; ".join(parts)
    return text if len(text) <= DETAIL_LENGTH else text[:DETAIL_LENGTH - 1] + "…"


def _operators(node: dict[str, Any]) -> list[PhysicalOperator]:
    """The operators of a profiler tree from `node` down, pass-through operators replaced by their inputs."""
    children = [operator for child in node.get("children", []) for operator in _operators(child)]
    if node.get("type") in PASS_THROUGH:
        return children
    info = node.get("extra_info", {})
    estimate = info.get("Estimated Cardinality")
    return [PhysicalOperator(node.get("type", "?"), _details(info),
                             int(estimate) if isinstance(estimate, str) and estimate.isdigit() else None,
                             int(node.get("intermediate_rows", 0)), float(node.get("timing", 0.0)), children)]


@dataclass
class StepProfile:
    rows: int | None = None
    seconds: float = 0.0
    operators: list[PhysicalOperator] = field(default_factory=list)
    """What DuckDB ran for the step: the operator trees of its SQL statements, in running order."""


@dataclass
class Profile:
    """The statement's steps in running order (its top-level clauses)."""

    steps: list[StepProfile] = field(default_factory=list)
    _started: float = 0.0

    def ran(self, connection: duckdb.DuckDBPyConnection) -> None:
        """A SQL statement of the current step finished: keep the operators DuckDB ran for it."""
        if not self.steps:
            return
        tree = json.loads(connection.get_profiling_information(format="json"))
        roots = tree.get("operator", [])
        for root in roots if isinstance(roots, list) else [roots]:
            self.steps[-1].operators.extend(_operators(root))

    def next_step(self, run: StatementRun, relation: Relation) -> None:
        """A step starts; the one before it, whose output is `relation`, ends."""
        self.close(run, relation)
        self.steps.append(StepProfile())

    def close(self, run: StatementRun, relation: Relation) -> None:
        """The current step ends with `relation` as its output (its rows, when it is a table)."""
        now = time.perf_counter()
        if self.steps:
            self.steps[-1].seconds += now - self._started
            if relation.sql in run.row_counts:
                self.steps[-1].rows = run.row_counts[relation.sql]
        self._started = now

    def settled(self, run: StatementRun, relation: Relation, pending: Chain) -> Relation:
        """Materialize the chain of fused steps before the current one: its time and rows are the chain's
        last step's."""
        started = time.perf_counter()
        ran_before = len(self.steps[-1].operators) if self.steps else 0
        table = run.settle(relation, pending)
        if len(self.steps) >= 2:
            self.steps[-2].seconds += time.perf_counter() - started
            self.steps[-2].rows = run.row_counts.get(table.sql)
            self.steps[-2].operators.extend(self.steps[-1].operators[ran_before:])
            del self.steps[-1].operators[ran_before:]
        self._started = time.perf_counter()
        return table

    def finished(self, rows: int, seconds: float) -> None:
        """The result was read: the last step's rows, and the SELECT's time added to it."""
        if self.steps:
            self.steps[-1].rows = rows
            self.steps[-1].seconds += seconds


def profiled_rows(lines: list[PlanLine], profile: Profile) -> list[dict[str, Any]]:
    """PROFILE's plan: each line of the Cypher plan, the topmost operator of a step with the step's rows and
    time, and under it, one level deeper, the operators DuckDB ran for the step with theirs (`notes` says
    "DuckDB"; `estimatedRows` is DuckDB's estimate)."""
    rows: list[dict[str, Any]] = []
    for line in lines:
        measured = profile.steps[line.step - 1] if line.root_of_step and line.step <= len(profile.steps) else None
        rows.append({**line.as_row(), "rows": measured.rows if measured else None,
                     "ms": round(measured.seconds * 1000, 3) if measured else None})
        if measured is None:
            continue
        indent = line.operator.index("+") // 2 + 1
        for operator in measured.operators:
            for depth, ran in operator.walk(indent):
                rows.append({"id": None, "operator": "| " * depth + "+" + ran.name, "details": ran.details,
                             "estimatedRows": ran.estimated_rows, "step": line.step, "notes": "DuckDB",
                             "rows": ran.rows, "ms": round(ran.seconds * 1000, 3)})
    for number, row in enumerate(rows):
        row["id"] = number
    return rows
