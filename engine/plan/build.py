"""Building a single query's plan: a step per clause, then each rule in turn (ADR-0057)."""

from __future__ import annotations

from engine.plan.plan import QueryPlan, Step
from engine.plan.rules.fresh_nodes import unmatched_merges
from engine.plan.rules.fuse_reads import fusable
from engine.plan.rules.level_walks import may_walk_levels
from engine.plan.rules.multiplicity import reads_after
from engine.plan.rules.order_demand import demands
from engine.plan.rules.property_reads import property_reads
from engine.semantic import bound as b


def plan_single_query(query: b.BoundSingleQuery, *, fuse: bool = True, final: bool = False) -> QueryPlan:
    """The plan of `query`'s clauses. Without `fuse` (a re-run that locates an error clause by clause, or
    clauses run once per outer row) every step runs alone and in order, and no rule applies. With `final`,
    the last clause's rows are the statement's result."""
    steps = [Step(clause) for clause in query.clauses]
    if final and steps:
        steps[-1].final = True
    plan = QueryPlan(steps)
    if not fuse:
        return plan
    for step, fused in zip(steps, map(fusable, query.clauses), strict=True):
        step.fused = fused
        step.may_walk_levels = fused and may_walk_levels(step.clause)
    for step, ordered in zip(steps, demands(query.clauses), strict=True):
        step.ordered = ordered
    for clause_id, variables in reads_after(query.clauses).items():
        plan.step_by_id(clause_id).distinct_input = variables
    for clause_id in unmatched_merges(query.clauses):
        plan.step_by_id(clause_id).unmatched = True
    if any(isinstance(clause, b.BMatch) for clause in query.clauses):
        plan.reads = property_reads(query)
    return plan


def plan_subquery(query: b.BoundSingleQuery, *, counted: bool = True, final: bool = False,
                  ordered: bool = True) -> QueryPlan:
    """The plan of a subquery compiled inside a clause: its rows keep their order where the clause around it
    reads it (`ordered`: not for COUNT and EXISTS, where only the order the subquery's own clauses read is
    kept), a step may read distinct input where nothing after it counts rows (`counted`: whether the
    subquery's own rows are, not for EXISTS), and with `final` its last step's rows go straight to the
    consumer (a COLLECT's list)."""
    steps = [Step(clause) for clause in query.clauses]
    if final and steps:
        steps[-1].final = True
    if not ordered:
        for step, demanded in zip(steps, demands(query.clauses, result_read=False), strict=True):
            step.ordered = demanded
    plan = QueryPlan(steps)
    for clause_id, variables in reads_after(query.clauses, counted=counted).items():
        plan.step_by_id(clause_id).distinct_input = variables
    return plan
