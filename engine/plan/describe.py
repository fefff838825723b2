"""A plan as people read it (EXPLAIN, PROFILE, `python -m engine explain`): the operator tree of
operators.py, one line per operator from the root down, each with its estimated rows, the plan step it
belongs to (steps are numbered in running order: a UNION's parts one after the other) and, on the topmost
operator of each step, what the rules decided about the step.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.plan.build import plan_single_query
from engine.plan.operators import Statistics, statement_tree
from engine.plan.plan import QueryPlan, Step
from engine.semantic import bound as b

EXPLAIN_COLUMNS = ("id", "operator", "details", "estimatedRows", "step", "notes")
"""The columns of EXPLAIN's rows; PROFILE's plan adds `rows` and `ms` (on the topmost operator of each step)."""


@dataclass
class PlanLine:
    id: int
    operator: str
    """The operator's name, indented by its depth in the tree (`| ` per level, `+` before the name)."""
    details: str
    estimated_rows: int
    step: int
    notes: str
    root_of_step: bool = False

    def as_row(self) -> dict[str, object]:
        return {"id": self.id, "operator": self.operator, "details": self.details,
                "estimatedRows": self.estimated_rows, "step": self.step, "notes": self.notes}


def _notes(step: Step, previous: Step | None, number: int) -> str:
    """What the rules decided about step `number`, in words."""
    notes = []
    if step.fused and previous is not None and previous.fused:
        notes.append(f"one SELECT with step {number - 1}")
    if step.may_walk_levels:
        notes.append("may walk levels")
    if not step.ordered:
        notes.append("row order not read")
    if step.distinct_input is not None:
        notes.append("distinct input rows")
    notes.extend(f"one node scan for {len(lookup.values)} lookups by {lookup.key}" for lookup in step.key_lookups)
    if step.final:
        notes.append("result")
    return ", ".join(notes)


def statement_plans(query: b.BoundQuery) -> list[QueryPlan]:
    """The plan of each part of a bound statement, as the executor builds them."""
    if len(query.parts) == 1:
        return [plan_single_query(query.parts[0], final=True)]
    return [plan_single_query(part) for part in query.parts]


def plan_lines(query: b.BoundQuery, text: str, statistics: Statistics) -> list[PlanLine]:
    """One line per operator of `query`'s plan (its text is `text`), the root first, estimated over the
    store's `statistics`."""
    plans = statement_plans(query)
    notes: dict[int, str] = {}
    for plan in plans:
        previous: Step | None = None
        for step in plan:
            number = len(notes) + 1
            notes[number] = _notes(step, previous, number)
            previous = step
    tree = statement_tree(plans, query, text, statistics)
    return [PlanLine(number, "| " * depth + "+" + operator.name, operator.details, round(operator.estimated_rows),
                     operator.step, notes.get(operator.step, "") if operator.root_of_step else "",
                     operator.root_of_step)
            for number, (depth, operator) in enumerate(tree.walk())]


def schema_line(command: b.BSchemaCommand, text: str) -> PlanLine:
    """The one step of a schema command (CREATE INDEX, SHOW CONSTRAINTS, ...)."""
    span = command.statement.span
    return PlanLine(0, "+" + type(command.statement).__name__, " ".join(text[span.start:span.end].split()), 1, 1,
                    "result", True)


def render(lines: list[PlanLine]) -> str:
    """The lines as a table, for a terminal."""
    header = ("id", "operator", "details", "estimated rows", "step", "notes")
    rows = [header, *((str(line.id), line.operator, line.details, str(line.estimated_rows), str(line.step),
                       line.notes) for line in lines)]
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
                     for row in rows)
