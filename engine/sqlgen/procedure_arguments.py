"""Procedures whose SQL depends on their argument values (`Procedure.compile`, the full-text queries) with
arguments that vary per row: the executor reads the distinct argument values off the binding table before
the clause compiles; the rows are then one SELECT per distinct value, keyed by it, each input row joined
with the SELECT of its own values.

An argument that does not depend on the row (a literal, a parameter, a map of them) is compiled as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import types as t
from engine.errors import CypherTypeError, UnsupportedFeature
from engine.semantic import bound as b
from engine.sqlgen.context import Parameters, quote_identifier
from engine.sqlgen.expressions import ExpressionCompiler
from engine.types import Kind, sql_type

if TYPE_CHECKING:
    from collections.abc import Callable

    import duckdb

    from engine.sqlgen.generator import QueryCompiler, Relation


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


def read_argument_values(connection: Callable[[], duckdb.DuckDBPyConnection], queries: QueryCompiler,
                         clause: b.BoundClause, relation: Relation) -> None:
    """Record in `queries` the distinct values the varying arguments of `clause` take over `relation`.
    `connection` is called only when there are some: getting the statement's connection opens a read's
    deferred transaction (ADR-0033)."""
    varying = varying_arguments(clause)
    if not varying:
        return
    assert isinstance(clause, b.BCallProcedure)
    parameters = Parameters()
    reader = type(queries)(queries.catalog, parameters)
    reader.aliases = queries.aliases
    alias = reader.alias()
    context = reader.context_for(relation, alias)
    compiler = ExpressionCompiler(context, reader)
    columns = []
    for number in varying:
        field = clause.procedure.inputs[number]
        if field.type_name != "STRING":
            raise UnsupportedFeature(f"{clause.procedure.name}: its {field.name} must be a literal or a parameter",
                                     clause.arguments[number].span)
        columns += [_string_sql(compiler, clause.arguments[number]), _is_string_sql(compiler, clause.arguments[number])]
    rows = connection().execute(f"SELECT DISTINCT {', '.join(columns)} FROM {relation.sql} AS {alias}"
                              f"{context.join_text()}", parameters.values).fetchall()
    for row in rows:
        for number, is_string in zip(varying, row[1::2], strict=True):
            if is_string is False:
                field = clause.procedure.inputs[number]
                raise CypherTypeError(f"Failed to invoke procedure `{clause.procedure.name}`: the {field.name} must be "
                                      "a STRING", clause.arguments[number].span, detail="InvalidArgumentType")
    queries.procedure_arguments[id(clause)] = [row[0::2] for row in rows if None not in row[0::2]]


def _string_sql(compiler: ExpressionCompiler, expression: b.BoundExpression) -> str:
    """The argument as VARCHAR: NULL when it is null or not a string."""
    if expression.type.kind is Kind.STRING:
        return compiler.compile(expression)
    variant = compiler.variant(expression)
    return f"CASE WHEN variant_typeof({variant}) = 'VARCHAR' THEN ({variant})::VARCHAR END"


def _is_string_sql(compiler: ExpressionCompiler, expression: b.BoundExpression) -> str:
    """Whether the argument is a string (NULL when it is null)."""
    if expression.type.kind is Kind.STRING:
        return "true"
    variant = compiler.variant(expression)
    return f"CASE WHEN ({variant}) IS NULL THEN NULL ELSE variant_typeof({variant}) = 'VARCHAR' END"


def compiled_rows(queries: QueryCompiler, clause: b.BCallProcedure, compiler: ExpressionCompiler,
                  rows_alias: str) -> tuple[str, list[str]]:
    """The rows relation of a compiled procedure call and the conditions joining it to the input row."""
    procedure = clause.procedure
    assert procedure.compile is not None
    varying = varying_arguments(clause)
    if not varying:
        return procedure.compile(queries, clause.arguments, clause.span), []
    values = queries.procedure_arguments.get(id(clause))
    if values is None:
        raise UnsupportedFeature(f"{procedure.name} with arguments computed per row inside an expression "
                                 "subquery (EXISTS, COUNT, COLLECT); use literals or parameters there", clause.span)
    parts = []
    for row in values:
        arguments = list(clause.arguments)
        keys = []
        for number, value in zip(varying, row, strict=True):
            arguments[number] = b.BLiteral(value, type=t.STRING, span=clause.arguments[number].span)
            keys.append(f"{queries.parameters.bind(value, t.STRING)} AS __arg{number}")
        part = procedure.compile(queries, tuple(arguments), clause.span)
        parts.append(f"SELECT {', '.join(keys)}, * FROM {part}")
    if not parts:
        columns = [f"NULL::VARCHAR AS __arg{number}" for number in varying]
        columns += [f"NULL::{sql_type(field.type)} AS {quote_identifier(field.name)}" for field in procedure.outputs]
        parts.append(f"SELECT {', '.join(columns)}, 0 AS __i WHERE false")
    conditions = [f"{rows_alias}.__arg{number} = {_string_sql(compiler, clause.arguments[number])}"
                  for number in varying]
    return f"({' UNION ALL '.join(parts)})", conditions
