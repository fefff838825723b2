"""APOC Core's procedures that run Cypher given as text: `apoc.when` / `apoc.do.when`, `apoc.case` /
`apoc.do.case`, `apoc.cypher.run` / `apoc.cypher.doIt` (ADR-0062).

Each is bound as the subquery its text stands for, so it is set-based, counted and in the statement's one
transaction: the chosen query runs in `CALL (params) { ... }` for the rows whose condition picks it, its
`$name` parameters read the `params` map, and each row it returns is a `value` map of its columns. The text
must be a string literal (the statement's SQL is made before any row exists); a query with no RETURN yields
no row, an empty one yields `{}`, as APOC's do. The read-only forms refuse a query that writes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.errors import CypherError, CypherSyntaxError, ParameterMissing, UnsupportedFeature
from engine.semantic.procedure_macros import ProcedureMacro, subquery_macro
from engine.span import Span
from engine.syntax import ast
from engine.syntax.parser import parse
from engine.syntax.tokenizer import tokenize
from engine.syntax.tokens import TokenType

_WRITING_CLAUSES = (ast.Create, ast.Merge, ast.SetClause, ast.Remove, ast.Delete, ast.Foreach)
_VALUE = (("value", "MAP"),)
WRITING = {"apoc.when": "apoc.do.when", "apoc.case": "apoc.do.case", "apoc.cypher.run": "apoc.cypher.doIt"}
"""The writing twin of each read-only procedure, which a query that writes needs."""


def query_text(procedure: str, role: str, argument: ast.Expression, span: Span) -> tuple[str, ast.Query | None]:
    """The text of a query argument and its parse (None for an empty text): a string literal holding one query
    (not a UNION or a command); errors in it name the procedure and the argument."""
    if not (isinstance(argument, ast.Literal) and isinstance(argument.value, str)):
        raise UnsupportedFeature(f"{procedure} whose {role} is not a string literal (the engine compiles the "
                                 "query with the statement)", span)
    text = argument.value
    if not text.strip():
        return text, None
    try:
        statement = parse(text)
    except CypherError as error:
        raise CypherSyntaxError(f"in the {role} of {procedure}: {error.message}", span,
                                detail=error.detail) from None
    if not isinstance(statement, ast.Query) or len(statement.parts) != 1:
        raise UnsupportedFeature(f"{procedure} whose {role} is not one query (a UNION or a command)", span)
    return text, statement


def returned_columns(procedure: str, role: str, query: ast.Query, span: Span) -> list[str] | None:
    """The names of the columns a query returns, or None when it returns nothing (no RETURN)."""
    last = query.parts[0].clauses[-1]
    if not isinstance(last, ast.Return):
        return None
    if last.projection.star:
        raise UnsupportedFeature(f"{procedure} whose {role} ends in RETURN *", span)
    return [item.column for item in last.projection.items]


def inner_query(procedure: str, role: str, argument: ast.Expression, params: ast.Expression, *,
                 writes: bool, span: Span, end: str = "RETURN") -> str:
    """The Cypher of one query argument, as the clauses of `CALL (__params) { ... }` followed by `end` (RETURN
    or WITH) of its `value` map: its parameters read `__params`, its columns become the map's keys."""
    text, statement = query_text(procedure, role, argument, span)
    if statement is None:
        return f"{end} {{}} AS `__out_value`"
    if not writes and _writes(statement):
        raise CypherSyntaxError(f"{procedure} runs read-only queries, and its {role} writes: use {WRITING[procedure]}",
                                span, detail="ForbiddenStatement")
    used = read_parameters(text, params, procedure, span)
    names = returned_columns(procedure, role, statement, span)
    if names is None:
        return f"CALL (`__params`) {{ {used} }} WITH * WHERE false {end} {{}} AS `__out_value`"
    entries = ", ".join(f"`{quoted(name)}`: `{quoted(name)}`" for name in names)
    return f"CALL (`__params`) {{ {used} }} {end} {{{entries}}} AS `__out_value`"


def read_parameters(text: str, params: ast.Expression | None, procedure: str, span: Span,
                    variables: Sequence[str] = ()) -> str:
    """`text` with each `$name` read from the `__params` map, or the variable of that name for one of
    `variables`; a map literal `params` must give every other one."""
    pieces: list[str] = []
    position = 0
    for token in tokenize(text):
        if token.type is not TokenType.PARAMETER:
            continue
        name = str(token.value)
        if name in variables:
            pieces += [text[position:token.start], f"`{quoted(name)}`"]
            position = token.end
            continue
        if isinstance(params, ast.MapLiteral) and name not in {key for key, _ in params.entries}:
            raise ParameterMissing(f"{procedure}: the query uses ${name} and its params give no `{name}`", span)
        pieces += [text[position:token.start], f"`__params`.`{quoted(name)}`"]
        position = token.end
    return "".join(pieces) + text[position:]


def quoted(name: str) -> str:
    """`name` for use between backticks."""
    return name.replace("`", "``")


def _writes(node: ast.SyntaxNode) -> bool:
    """Whether a query holds a writing clause anywhere (subqueries too)."""
    found = False

    def visit(child: ast.SyntaxNode) -> ast.SyntaxNode:
        nonlocal found
        found = found or isinstance(child, _WRITING_CLAUSES) or _writes(child)
        return child

    ast.replace_children(node, visit)
    return found


def _branches(procedure: str, conditions: Sequence[str], queries: Sequence[ast.Expression],
              otherwise: ast.Expression | None, params: ast.Expression, *, writes: bool, span: Span) -> str:
    """The body choosing, per row, the first query whose condition holds (a null condition does not), else
    `otherwise`: one UNION ALL branch per query, each guarded by its condition and the earlier ones' failing."""
    parts = []
    failed: list[str] = []
    for condition, query in zip(conditions, queries, strict=True):
        guard = " AND ".join([*failed, f"coalesce({condition}, false)"])
        role = "ifQuery" if "when" in procedure else "query"
        inner = inner_query(procedure, role, query, params, writes=writes, span=span)
        parts.append(f"WITH * WHERE {guard} {inner}")
        failed.append(f"NOT coalesce({condition}, false)")
    if otherwise is not None:
        inner = inner_query(procedure, "elseQuery", otherwise, params, writes=writes, span=span)
        parts.append(f"WITH * WHERE {' AND '.join(failed)} {inner}")
    imported = ", ".join(f"`__c{i}`" for i in range(len(conditions)))
    return f"CALL ({imported}, `__params`) {{ {' UNION ALL '.join(parts)} }}"


def _macro(name: str, inputs: tuple[tuple[str, str], ...], mode: str, defaults: tuple[str, ...],
           body: Callable[[ast.CallProcedure], tuple[str, tuple[ast.Expression, ...]]]) -> ProcedureMacro:
    """A procedure whose body is made from its call: `body` gives the Cypher (over `__a0`, ...) and the
    arguments those names stand for."""

    def expand(call: ast.CallProcedure, standalone: bool, params: Mapping[str, Any]) -> tuple[ast.Clause, ...]:
        text, arguments = body(call)
        return subquery_macro(name, inputs, _VALUE, mode, text).expand(replace(call, arguments=arguments),
                                                                       standalone, params)

    return ProcedureMacro(name, inputs, _VALUE, mode, expand, defaults)


def _when(name: str, writes: bool) -> ProcedureMacro:
    def body(call: ast.CallProcedure) -> tuple[str, tuple[ast.Expression, ...]]:
        assert call.arguments is not None
        condition, if_query, else_query, params = call.arguments
        choice = _branches(name, ["`__c0`"], [if_query], else_query, params, writes=writes, span=call.span)
        return f"WITH __a0 AS `__c0`, __a1 AS `__params` {choice}", (condition, params)

    return _macro(name, (("condition", "BOOLEAN"), ("ifQuery", "STRING"), ("elseQuery", "STRING"),
                         ("params", "MAP")), "WRITE" if writes else "READ", ("''", "{}"), body)


def _case(name: str, writes: bool) -> ProcedureMacro:
    def body(call: ast.CallProcedure) -> tuple[str, tuple[ast.Expression, ...]]:
        assert call.arguments is not None
        conditionals, else_query, params = call.arguments
        if not isinstance(conditionals, ast.ListLiteral) or len(conditionals.items) % 2:
            raise UnsupportedFeature(f"{name} with conditionals that are not a list literal of condition and "
                                     "query pairs", call.span)
        conditions = conditionals.items[0::2]
        names = [f"`__c{i}`" for i in range(len(conditions))]
        choice = _branches(name, names, conditionals.items[1::2], else_query, params, writes=writes,
                           span=call.span)
        bindings = ", ".join(f"__a{i} AS {alias}" for i, alias in enumerate(names))
        return (f"WITH {bindings}, __a{len(names)} AS `__params` {choice}", (*conditions, params))

    return _macro(name, (("conditionals", "LIST<ANY>"), ("elseQuery", "STRING"), ("params", "MAP")),
                  "WRITE" if writes else "READ", ("''", "{}"), body)


def _run(name: str, writes: bool) -> ProcedureMacro:
    def body(call: ast.CallProcedure) -> tuple[str, tuple[ast.Expression, ...]]:
        assert call.arguments is not None
        statement, params = call.arguments
        inner = inner_query(name, "statement", statement, params, writes=writes, span=call.span, end="WITH")
        return f"WITH __a0 AS `__params` {inner}", (params,)

    return _macro(name, (("statement", "STRING"), ("params", "MAP")), "WRITE" if writes else "READ", ("{}",),
                  body)


PROCEDURE_MACROS: tuple[ProcedureMacro, ...] = (
    _when("apoc.when", writes=False), _when("apoc.do.when", writes=True),
    _case("apoc.case", writes=False), _case("apoc.do.case", writes=True),
    _run("apoc.cypher.run", writes=False), _run("apoc.cypher.doIt", writes=True),
)
