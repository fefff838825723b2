"""Building a single query's plan: a step per clause, then each rule in turn (ADR-0057)."""

from __future__ import annotations

import weakref

from engine.plan.plan import QueryPlan, Step
from engine.plan.rules.fresh_nodes import unmatched_merges
from engine.plan.rules.fuse_reads import fusable
from engine.plan.rules.key_lookups import key_lookups
from engine.plan.rules.level_walks import may_walk_levels
from engine.plan.rules.multiplicity import reads_after
from engine.plan.rules.order_demand import demands
from engine.plan.rules.property_reads import property_reads
from engine.semantic import bound as b

_DECIDED: weakref.WeakKeyDictionary[b.BoundSingleQuery, dict[tuple[bool, bool], QueryPlan]] = (
    weakref.WeakKeyDictionary())
"""The plans made for a bound query, by (fuse, final): a bound tree kept for its text runs again
(execute/bound_cache.py, ADR-0105), and the rules read nothing but the tree, which running never changes."""


def plan_single_query(query: b.BoundSingleQuery, *, fuse: bool = True, final: bool = False) -> QueryPlan:
    """The plan of `query`'s clauses. Without `fuse` (a re-run that locates an error clause by clause, or
    clauses run once per outer row) every step runs alone and in order, and no rule applies. With `final`,
    the last clause's rows are the statement's result. Each call gives new steps, which the executor
    fills with what the data decides (prepare.py); what the rules decided is made once per bound query."""
    made = _DECIDED.setdefault(query, {})
    decided = made.get((fuse, final))
    if decided is None:
        decided = made[(fuse, final)] = _planned(query, fuse=fuse, final=final)
    return QueryPlan([step.again() for step in decided.steps], decided.reads)


def _planned(query: b.BoundSingleQuery, *, fuse: bool, final: bool) -> QueryPlan:
    steps = [Step(clause, relationships=any(isinstance(node, b.BoundRelationship | b.BoundGroup)
                                            for node in b.walk(clause))) for clause in query.clauses]
    if final and steps:
        steps[-1].final = True
    plan = QueryPlan(steps)
    if not fuse:
        return plan
    for step, fused in zip(steps, map(fusable, query.clauses), strict=True):
        step.fused = fused
        step.may_walk_levels = fused and may_walk_levels(step.clause)
        step.key_lookups = key_lookups(step.clause)
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
