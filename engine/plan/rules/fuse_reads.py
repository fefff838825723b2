"""Which read clauses run fused into one SELECT with the read clauses before them (ADR-0029).

Consecutive read clauses compile to one SELECT over the binding table before them, materialized only where a
clause that is not a plain read needs a table. A read clause is fusable unless it must run SQL before it can
compile: a procedure whose argument values are read off the rows (its SQL depends on them), or a CALL
subquery that runs clause by clause (a writing one, one IN TRANSACTIONS, one calling such a procedure,
ADR-0016).
"""

from __future__ import annotations

from engine.semantic import bound as b

READ_CLAUSES = (b.BMatch, b.BUnwind, b.BLoadCsv, b.BProjection, b.BCallProcedure)
"""The clauses that only read (a CALL subquery reads too when nothing in it writes)."""


def is_constant(expression: b.BoundExpression) -> bool:
    if isinstance(expression, b.BLiteral | b.BParameter):
        return True
    if isinstance(expression, b.BMap):
        return all(is_constant(value) for _, value in expression.entries)
    if isinstance(expression, b.BList):
        return all(is_constant(item) for item in expression.items)
    return False


def varying_arguments(clause: b.BoundClause) -> list[int]:
    """The positions of a compiled procedure call's arguments that depend on the row."""
    if not isinstance(clause, b.BCallProcedure) or clause.procedure.compile is None:
        return []
    return [number for number, argument in enumerate(clause.arguments) if not is_constant(argument)]


def calls_with_varying_arguments(query: b.BoundQuery) -> bool:
    """Whether a subquery calls such a procedure with per-row arguments, directly or in a nested CALL: it
    then runs clause by clause (like a writing CALL, ADR-0016), so each call's argument values can be read
    before it compiles."""
    for part in query.parts:
        for clause in part.clauses:
            if varying_arguments(clause):
                return True
            if isinstance(clause, b.BCallSubquery) and calls_with_varying_arguments(clause.query):
                return True
    return False


def runs_clause_by_clause(clause: b.BCallSubquery) -> bool:
    """Whether a CALL subquery runs its clauses one at a time, per outer row or batch (ADR-0016)."""
    return clause.query.updating or clause.transactions is not None or calls_with_varying_arguments(clause.query)


def fusable(clause: b.BoundClause) -> bool:
    """Whether a read clause compiles to SQL over the relation before it without running any first."""
    if not isinstance(clause, (*READ_CLAUSES, b.BCallSubquery)) or varying_arguments(clause):
        return False
    return not isinstance(clause, b.BCallSubquery) or not runs_clause_by_clause(clause)
