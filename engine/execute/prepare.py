"""What a step needs from the data as it stands when its clause runs, decided or run just before the clause
compiles (ADR-0002, ADR-0057): SQL generation then reads it off the step and runs nothing itself.
"""

from __future__ import annotations

from engine.execute import end_labels
from engine.execute.level_walks import run_level_walk
from engine.execute.statement_run import StatementRun
from engine.plan.plan import Step
from engine.plan.rules.end_labels import implied_labels, loop_free
from engine.plan.rules.walk_branching import single_path_walks
from engine.procedures import ProcedurePreparation
from engine.semantic import bound as b
from engine.sqlgen.walks import LevelWalk
from engine.storage.end_labels import EndLabels, Side


def prepare_step(run: StatementRun, step: Step) -> None:
    """Which of the clause's walks cannot branch (walk_branching.py), which of its label tests the catalog's
    end-label counts make redundant, which relationship patterns match no self-loop (end_labels.py), and the
    rows of a procedure call that runs SQL before it compiles (`Procedure.prepare`: the graph algorithms)."""
    clause = step.clause
    if step.relationships:
        step.single_path_walks = single_path_walks(clause, run.store)
        counts = _Counts(run)
        step.implied_labels = implied_labels(clause, counts)
        step.loop_free = loop_free(clause, counts)
    # else (only node patterns, as most small writes' MATCH, plan.py): none of the three rules has anything to read
    if isinstance(clause, b.BCallProcedure) and clause.procedure.prepare is not None:
        preparation = ProcedurePreparation(clause.procedure, tuple(clause.arguments), run, clause.span)
        step.prepared[id(clause)] = clause.procedure.prepare(preparation)


class _Counts:
    """The end-label counts, brought up to date (a writing statement counts the relationships they miss,
    `end_labels.flush`) and read only when a rule asks: most clauses test no label at the end of a typed
    relationship, and a CREATE asks nothing (a load batch's `MATCH ... CREATE` reads no counts, ADR-0097).
    A read asks the counts as stored first: where they say no, relationships they miss cannot say yes, and
    what those add is worked out only for a yes (`GraphStore.end_labels`, ADR-0111)."""

    def __init__(self, run: StatementRun) -> None:
        self.run = run
        self.counted = not run.writes
        """Whether what the counts miss is counted or left to the store: a writing statement counts it once."""

    def _facts(self, *, complete: bool) -> EndLabels:
        if not self.counted:
            end_labels.flush(self.run)
            self.counted = True
        return self.run.store.end_labels(complete=complete)

    def holds(self, relationship_type: str, side: Side, label: str) -> bool:
        return (self._facts(complete=False).holds(relationship_type, side, label)
                and self._facts(complete=True).holds(relationship_type, side, label))

    def loop_free(self, relationship_types: frozenset[str] | None) -> bool:
        return (self._facts(complete=False).loop_free(relationship_types)
                and self._facts(complete=True).loop_free(relationship_types))


def run_level_walks(run: StatementRun, step: Step, requests: list[LevelWalk]) -> bool:
    """Run the level walks a compile of `step` asked for; whether any found its table of paths (the step
    then compiles again, joining it)."""
    for request in requests:
        found = run_level_walk(run, request)
        if found is not None:
            step.level_walks[request.relationship] = found
    return bool(step.level_walks)
