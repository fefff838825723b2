"""Procedures whose SQL depends on their argument values (`Procedure.compile`, the full-text queries) with
arguments that vary per row: the executor reads the distinct argument values off the binding table before
the clause compiles; the rows are then one SELECT per distinct value, keyed by it, each input row joined
with the SELECT of its own values.

An argument that does not depend on the row (a literal, a parameter, a map of them) is compiled as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine import types as t
from engine.errors import UnsupportedFeature
from engine.plan.rules.fuse_reads import varying_arguments
from engine.quoting import sql_identifier
from engine.semantic import bound as b
from engine.sqlgen.context import Parameters
from engine.sqlgen.expressions import ExpressionCompiler
from engine.types import Kind, sql_type

if TYPE_CHECKING:
    from engine.sqlgen.generator import QueryCompiler
    from engine.sqlgen.relation import Relation


@dataclass(frozen=True)
class ArgumentValues:
    """The SELECT of the distinct values the varying arguments of a procedure call take over its input rows:
    per argument, its value as a string (NULL if none) and whether it is a string. The executor runs it
    (execute/procedure_arguments.py) before the call compiles."""

    sql: str
    parameters: list[Any]
    varying: list[int]


def argument_values_query(queries: QueryCompiler, clause: b.BoundClause, relation: Relation) -> ArgumentValues | None:
    """The query of the values the varying arguments of `clause` take over `relation`; None without any."""
    varying = varying_arguments(clause)
    if not varying:
        return None
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
    return ArgumentValues(f"SELECT DISTINCT {', '.join(columns)} FROM {relation.sql} AS {alias}{context.join_text()}",
                          parameters.values, varying)


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
        columns += [f"NULL::{sql_type(field.type)} AS {sql_identifier(field.name)}" for field in procedure.outputs]
        parts.append(f"SELECT {', '.join(columns)}, 0 AS __i WHERE false")
    conditions = [f"{rows_alias}.__arg{number} = {_string_sql(compiler, clause.arguments[number])}"
                  for number in varying]
    return f"({' UNION ALL '.join(parts)})", conditions
