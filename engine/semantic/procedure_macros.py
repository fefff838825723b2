"""Procedures that stand for clauses over their arguments, by lower-case name: the binder binds a call as
those clauses (ADR-0060), so a writing procedure is the write it performs, with the engine's counters,
transaction and read-only check. Feature packages register theirs through the composition root
(`engine/vector/set_property.py`, `engine/apoc/create.py`).

A body written in Cypher names its arguments `__a0`, `__a1`, ... and its own variables start with `__`, so an
argument that reads a variable of the query is never captured by them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import CypherSyntaxError
from engine.semantic.function_macros import substitute
from engine.syntax import ast
from engine.syntax.parser import parse, parse_expression


@dataclass(frozen=True)
class ProcedureMacro:
    """A procedure that is clauses over its arguments. `mode` is Neo4j's (SHOW PROCEDURES lists it)."""

    name: str
    inputs: tuple[tuple[str, str], ...]
    """(name, Neo4j's type name) of each argument."""
    outputs: tuple[tuple[str, str], ...]
    """(name, Neo4j's type name) of each output; none: the procedure yields nothing (VOID)."""
    mode: str
    expand: Callable[[ast.CallProcedure, bool, Mapping[str, Any]], tuple[ast.Clause, ...]]
    """The clauses of one call (its arguments counted and completed with `defaults`), given whether it is the
    statement's only clause (then, without YIELD, it returns every output) and the statement's parameters (a
    macro that compiles what a parameter gives, as the path expanders compile their filters, notes each value
    it reads: `parameter_reads.inspected`)."""
    defaults: tuple[str, ...] = ()
    """The values (Cypher) of the last inputs, which a call may leave out."""
    leading: bool = False
    """Whether a call must be its query's first clause (its clauses would run once over all the rows before)."""

    def complete(self, call: ast.CallProcedure) -> ast.CallProcedure:
        """`call` with every input: the ones it leaves out are their defaults. A count out of range is an error."""
        given = call.arguments or ()
        required = len(self.inputs) - len(self.defaults)
        if call.arguments is None or not required <= len(given) <= len(self.inputs):
            expected = str(required) if not self.defaults else f"{required} to {len(self.inputs)}"
            raise CypherSyntaxError(f"procedure {self.name} takes {expected} argument(s), got "
                                    f"{'none' if call.arguments is None else len(given)}", call.span,
                                    detail="InvalidNumberOfArguments")
        missing = self.defaults[len(given) - required:] if len(given) < len(self.inputs) else ()
        return replace(call, arguments=(*given, *(ast.replace_spans(parse_expression(text), call.span)
                                                  for text in missing)))

    def signature_inputs(self) -> str:
        """The inputs as SHOW PROCEDURES writes them (`name = default :: TYPE` for an optional one)."""
        first_default = len(self.inputs) - len(self.defaults)
        return ", ".join(f"{name}{' = ' + self.defaults[i - first_default] if i >= first_default else ''}"
                         f" :: {type_name}" for i, (name, type_name) in enumerate(self.inputs))


PROCEDURE_MACROS: dict[str, ProcedureMacro] = {}


def yielded(call: ast.CallProcedure, name: str, outputs: tuple[tuple[str, str], ...],
            standalone: bool) -> list[tuple[str, str]]:
    """(output, variable) for each output a call yields: those its YIELD names, under their aliases, or every
    one (YIELD *, or a standalone call without YIELD; inside a query a call must YIELD)."""
    if call.yield_items is None and not standalone:
        raise CypherSyntaxError(f"procedure call {name} inside a query must YIELD its results", call.span,
                                detail="UndefinedVariable")
    chosen = [(field, field) for field, _ in outputs] if call.yield_items is None or call.yield_star else [
        (item.field, item.alias.name if item.alias is not None else item.field) for item in call.yield_items]
    known = {field for field, _ in outputs}
    for field, _ in chosen:
        if field not in known:
            raise CypherSyntaxError(f"procedure {name} has no output `{field}`", call.span,
                                    detail="UndefinedVariable")
    return chosen


def clauses_of(text: str, call: ast.CallProcedure) -> tuple[ast.Clause, ...]:
    """The clauses of `text`, its `__a0`, `__a1`, ... the call's arguments and `__where` its YIELD's WHERE,
    every span the call's."""
    query = parse(text)
    assert isinstance(query, ast.Query) and call.arguments is not None
    values = {f"__a{i}": argument for i, argument in enumerate(call.arguments)}
    if call.where is not None:
        values["__where"] = call.where
    return tuple(substitute(clause, values, call.span) for clause in query.parts[0].clauses)  # type: ignore[misc]


def with_outputs(body: str, call: ast.CallProcedure, chosen: list[tuple[str, str]],
                 standalone: bool, suffix: str = "") -> tuple[ast.Clause, ...]:
    """The clauses of `body` (Cypher over `__a0`, ... that binds each output `o` as `__out_o` + `suffix`)
    followed by a WITH naming the outputs `chosen` (`yielded`), the call's WHERE, and a RETURN of them when it
    stands alone."""
    text = f"{body} WITH *, " + ", ".join(f"`__out_{field}{suffix}` AS `{alias}`" for field, alias in chosen)
    if call.where is not None:
        text += " WHERE __where"
    if standalone:
        text += " RETURN " + ", ".join(f"`{alias}` AS `{alias}`" for _, alias in chosen)
    return clauses_of(text, call)


def subquery_macro(name: str, inputs: tuple[tuple[str, str], ...], outputs: tuple[tuple[str, str], ...],
                   mode: str, body: str, defaults: tuple[str, ...] = ()) -> ProcedureMacro:
    """A procedure that yields rows: `body` (Cypher over `__a0`, ...) runs in `CALL (*) { ... }` once per input
    row and binds each output `o` as the variable `__out_o`; the call's YIELD picks and renames them and its
    WHERE filters the rows after."""

    def expand(call: ast.CallProcedure, standalone: bool, params: Mapping[str, Any]) -> tuple[ast.Clause, ...]:
        assert call.arguments is not None
        chosen = yielded(call, name, outputs, standalone)
        returned = ", ".join(f"`__out_{field}` AS `{alias}`" for field, alias in chosen)
        text = f"CALL (*) {{ {body} RETURN {returned} }}"
        if call.where is not None:
            text += " WITH * WHERE __where"
        if standalone:
            text += " RETURN " + ", ".join(f"`{alias}` AS `{alias}`" for _, alias in chosen)
        return clauses_of(text, call)

    return ProcedureMacro(name, inputs, outputs, mode, expand, defaults)
