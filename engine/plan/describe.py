"""A plan as people read it (EXPLAIN, PROFILE, `python -m engine explain`): one line per step, in the order the
steps run, with the operator, the clause's own text, and what the rules decided.

Operators follow Neo4j's names where one fits: a MATCH is `Match` (`OptionalMatch`), a WITH or RETURN is
`Projection`, `Aggregation`, `Distinct` or, ending in ORDER BY / SKIP / LIMIT, `Sort` / `Limit`; a CALL
subquery is `Apply` (`Foreach Apply` when it runs per row or in batches), a procedure call `ProcedureCall`.
A UNION's parts are numbered as their steps run, one part after the other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engine.plan.build import plan_single_query
from engine.plan.plan import QueryPlan, Step
from engine.plan.rules.fuse_reads import runs_clause_by_clause
from engine.semantic import bound as b


class Unknown:
    """The value of a parameter EXPLAIN was not given: of no known type (ANY), as it would be at run time."""

    def __repr__(self) -> str:
        return "<unknown>"


class WithUnknowns(Mapping[str, Any]):
    """Parameters for EXPLAIN: the given ones, and an Unknown for any other name."""

    def __init__(self, given: Mapping[str, Any] | None) -> None:
        self._given = dict(given or {})

    def __getitem__(self, name: str) -> Any:
        return self._given.get(name, UNKNOWN)

    def __contains__(self, name: object) -> bool:
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self._given)

    def __len__(self) -> int:
        return len(self._given)


UNKNOWN = Unknown()
EXPLAIN_COLUMNS = ("id", "operator", "details", "notes")
"""The columns of EXPLAIN's rows; PROFILE's plan adds `rows` and `ms`."""


@dataclass
class PlanLine:
    id: int
    operator: str
    details: str
    notes: str

    def as_row(self) -> dict[str, object]:
        return {"id": self.id, "operator": self.operator, "details": self.details, "notes": self.notes}


def _projection(clause: b.BProjection) -> str:
    if clause.aggregating:
        return "Aggregation"
    if clause.distinct:
        return "Distinct"
    if clause.limit is not None or clause.skip is not None:
        return "Limit"
    if clause.order_by:
        return "Sort"
    return "Projection"


OPERATORS: dict[type, Callable[[b.BoundClause], str]] = {
    b.BMatch: lambda clause: "OptionalMatch" if clause.optional else "Match",  # type: ignore[attr-defined]
    b.BProjection: _projection,  # type: ignore[dict-item]
    b.BUnwind: lambda clause: "Unwind",
    b.BCallProcedure: lambda clause: "ProcedureCall",
    b.BCallSubquery: lambda clause: "Foreach Apply" if runs_clause_by_clause(clause) else "Apply",  # type: ignore[arg-type]
    b.BCreate: lambda clause: "Create",
    b.BMerge: lambda clause: "Merge",
    b.BSet: lambda clause: "Set",
    b.BDelete: lambda clause: "Delete",
    b.BForeach: lambda clause: "Foreach",
}
"""Bound clause type → the operator it runs as; anything else is named after its clause."""


def operator(clause: b.BoundClause) -> str:
    name = OPERATORS.get(type(clause))
    return name(clause) if name is not None else type(clause).__name__.removeprefix("B")


def _notes(step: Step, previous: Step | None, number: int) -> str:
    """What the rules decided about step `number`, in words."""
    notes = []
    if step.fused and previous is not None and previous.fused:
        notes.append(f"one SELECT with step {number - 1}")
    if not step.ordered:
        notes.append("row order not read")
    if step.distinct_input is not None:
        notes.append("distinct input rows")
    if step.final:
        notes.append("result")
    return ", ".join(notes)


def statement_plans(query: b.BoundQuery) -> list[QueryPlan]:
    """The plan of each part of a bound statement, as the executor builds them."""
    if len(query.parts) == 1:
        return [plan_single_query(query.parts[0], final=True)]
    return [plan_single_query(part) for part in query.parts]


def plan_lines(query: b.BoundQuery, text: str) -> list[PlanLine]:
    """One line per step of `query` (its text is `text`), numbered in running order."""
    lines: list[PlanLine] = []
    for plan in statement_plans(query):
        previous: Step | None = None
        for step in plan:
            number, span = len(lines) + 1, step.clause.span
            details = " ".join(text[span.start:span.end].split())
            lines.append(PlanLine(number, operator(step.clause), details, _notes(step, previous, number)))
            previous = step
    return lines


def schema_line(command: b.BSchemaCommand, text: str) -> PlanLine:
    """The one step of a schema command (CREATE INDEX, SHOW CONSTRAINTS, ...)."""
    span = command.statement.span
    return PlanLine(1, type(command.statement).__name__, " ".join(text[span.start:span.end].split()), "result")


def render(lines: list[PlanLine]) -> str:
    """The lines as a table, for a terminal."""
    header = ("id", "operator", "details", "notes")
    rows = [header, *((str(line.id), line.operator, line.details, line.notes) for line in lines)]
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
                     for row in rows)
