"""Reading the values a procedure call's varying arguments take (sqlgen/procedure_arguments.py) before the call
compiles: the SELECT is SQL generation's, running it and checking the values the executor's."""

from __future__ import annotations

from engine.errors import CypherTypeError
from engine.execute.statement_run import StatementRun
from engine.semantic import bound as b
from engine.sqlgen.generator import QueryCompiler
from engine.sqlgen.procedure_arguments import argument_values_query
from engine.sqlgen.relation import Relation


def read_argument_values(run: StatementRun, queries: QueryCompiler, clause: b.BoundClause, relation: Relation) -> None:
    """Record in `queries` the distinct values the varying arguments of `clause` take over `relation`. The
    statement's connection is asked for only when there are some: getting it opens a read's deferred
    transaction (ADR-0033)."""
    query = argument_values_query(queries, clause, relation)
    if query is None:
        return
    assert isinstance(clause, b.BCallProcedure)
    rows = run.connection.execute(query.sql, run.bound(query.parameters)).fetchall()
    for row in rows:
        for number, is_string in zip(query.varying, row[1::2], strict=True):
            if is_string is False:
                field = clause.procedure.inputs[number]
                raise CypherTypeError(f"Failed to invoke procedure `{clause.procedure.name}`: the {field.name} must be "
                                      "a STRING", clause.arguments[number].span, detail="InvalidArgumentType")
    queries.procedure_arguments[id(clause)] = [row[0::2] for row in rows if None not in row[0::2]]
