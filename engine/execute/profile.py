"""PROFILE: the rows and the time of each step of a statement's plan, measured as it runs.

A step is timed from its start to the next one's; the SQL of fused read clauses runs when the chain is
materialized or when the result is read, so its time and rows go to the chain's last step, the others of
the chain showing their compile time and no rows of their own. Rows are known where the engine holds a
table: a step that materializes its rows, and the result.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.sqlgen.relation import Relation

if TYPE_CHECKING:
    from engine.execute.statement_run import Chain, StatementRun


@dataclass
class StepProfile:
    rows: int | None = None
    seconds: float = 0.0


@dataclass
class Profile:
    """The statement's steps in running order (its top-level clauses)."""

    steps: list[StepProfile] = field(default_factory=list)
    _started: float = 0.0

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
        table = run.settle(relation, pending)
        if len(self.steps) >= 2:
            self.steps[-2].seconds += time.perf_counter() - started
            self.steps[-2].rows = run.row_counts.get(table.sql)
        self._started = time.perf_counter()
        return table

    def finished(self, rows: int, seconds: float) -> None:
        """The result was read: the last step's rows, and the SELECT's time added to it."""
        if self.steps:
            self.steps[-1].rows = rows
            self.steps[-1].seconds += seconds
