"""Functions that stand for a Cypher expression over their arguments, by lower-case name: the binder binds a
call as that expression, so the function has the engine's own semantics and compiles like any expression.
Cypher's list conversions are defined here; feature packages add theirs through the composition root
(`engine/apoc/functions.py`).

A body names its arguments `__a0`, `__a1`, ...; its own variables start with `__` too, so an argument that
reads a variable of the query is never captured by them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import CypherSyntaxError
from engine.span import Span
from engine.syntax import ast
from engine.syntax.parser import parse_expression


@dataclass(frozen=True)
class FunctionMacro:
    """A function that is a Cypher expression (`body`) over its arguments, named `parameters` in it."""

    parameters: tuple[str, ...]
    body: ast.Expression
    required: int | None = None
    """How many arguments must be given (the rest are null); None: all."""

    def expand(self, call: ast.FunctionCall) -> ast.Expression:
        """The body with the call's arguments in place of the parameters, every span the call's (an error in
        the body points at the call). A parameter that names a node of a pattern in the body takes a
        variable only."""
        arguments = dict(zip(self.parameters, call.arguments, strict=False))
        missing = ast.Literal(None, span=call.span)
        for node in ast.walk(self.body):
            if isinstance(node, ast.NodePattern) and node.variable is not None and \
                    node.variable.name in arguments and not isinstance(arguments[node.variable.name], ast.Variable):
                raise CypherSyntaxError(f"{call.name}() takes a variable there (it is matched in a pattern)",
                                        arguments[node.variable.name].span, detail="InvalidArgumentType")

        values = {name: arguments.get(name, missing) for name in self.parameters}
        return substitute(self.body, values, call.span)  # type: ignore[return-value]


def substitute(node: ast.SyntaxNode, values: Mapping[str, ast.Expression], span: Span) -> ast.SyntaxNode:
    """`node` with each variable named in `values` replaced by its value, every other span `span` (an error in
    a macro's body points at its call)."""
    if isinstance(node, ast.Variable) and node.name in values:
        return values[node.name]
    return ast.replace_spans(ast.replace_children(node, lambda child: substitute(child, values, span)), span)


def parse_macros(definitions: Mapping[str, tuple[int, int | None, str]]) -> dict[str, FunctionMacro]:
    """Lower-case name → (least arguments, most arguments (None: the least), body) as function macros."""
    result = {}
    for name, (low, high, body) in definitions.items():
        count = high if high is not None else low
        result[name] = FunctionMacro(tuple(f"__a{i}" for i in range(count)), parse_expression(body), low)
    return result


LIST_CONVERSIONS: dict[str, tuple[int, int | None, str]] = {
    f"to{kind}list": (1, None,
                      f"CASE WHEN __a0 IS NULL THEN null ELSE [`__x` IN __a0[0..] | to{kind}OrNull(`__x`)] END")
    for kind in ("boolean", "float", "integer", "string")
}
"""toBooleanList() and its kin: each element converted as toBooleanOrNull() (...) would, nulls kept. The
slice `[0..]` insists on a list ("If the input is not a LIST<ANY>, an error will be returned"), which a
comprehension alone would not: it walks a single value as a list of itself."""

CLOCK_FUNCTIONS: dict[str, tuple[int, int | None, str]] = {"timestamp": (0, None, "datetime().epochMillis")}
"""timestamp(), "the equivalent of `datetime().epochMillis`" (Cypher manual, Scalar functions), rewritten as Neo4j
rewrites it, so that both read the statement's one clock (DuckDB's now() is another, a millisecond apart)."""

FUNCTION_MACROS: dict[str, FunctionMacro] = parse_macros({**LIST_CONVERSIONS, **CLOCK_FUNCTIONS})
