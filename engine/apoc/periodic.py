"""APOC Core's `apoc.periodic.iterate(cypherIterate, cypherAction, config)`: run the action for every row
the iterate query returns, committing every `batchSize` rows, and report the batches (ADR-0062). And
`apoc.periodic.commit(statement, params)`: run the statement again, each run committed, until it counts 0
(ADR-0075).

It is bound as the Cypher it stands for: `CALL () { iterate } CALL (columns) { action } IN TRANSACTIONS OF
batchSize ROWS ON ERROR CONTINUE REPORT STATUS`, then one row of counts. A failed batch is rolled back and
counted, as APOC does, instead of failing the statement. The action reads the iterate query's columns as
variables (APOC's default batch mode) or as `$name`; `config.params` gives the other parameters of both.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.apoc.cypher import query_text, quoted, read_parameters, returned_columns
from engine.errors import ParameterMissing, ProcedureError, UnsupportedFeature
from engine.semantic.procedure_macros import ProcedureMacro, clauses_of, yielded
from engine.span import Span
from engine.syntax import ast
from engine.syntax.tokenizer import tokenize
from engine.syntax.tokens import TokenType

NAME = "apoc.periodic.iterate"
OUTPUTS = (("batches", "INTEGER"), ("total", "INTEGER"), ("timeTaken", "INTEGER"),
           ("committedOperations", "INTEGER"), ("failedOperations", "INTEGER"), ("failedBatches", "INTEGER"),
           ("retries", "INTEGER"), ("errorMessages", "MAP"), ("batch", "MAP"), ("operations", "MAP"),
           ("wasTerminated", "BOOLEAN"), ("failedParams", "MAP"), ("updateStatistics", "MAP"))
DEFAULT_BATCH_SIZE = 10000
IGNORED = {"parallel", "concurrency", "iterateList", "failedParams", "planner", "params"}
"""Config keys that change nothing here: batches run one after another (APOC's `parallel` is allowed to)."""

_COUNTS = (
    "WITH count(`__status`) AS `__total`, count(DISTINCT `__status`.transactionId) AS `__batches`,"
    " count(CASE WHEN NOT `__status`.committed THEN 1 END) AS `__failed`,"
    " count(DISTINCT CASE WHEN NOT `__status`.committed THEN `__status`.transactionId END) AS `__failedBatches`,"
    " collect(`__status`.errorMessage) AS `__errors`,"
    " collect(DISTINCT CASE WHEN NOT `__status`.committed THEN [`__status`.transactionId,"
    " `__status`.errorMessage] END) AS `__batchErrors`"
    " WITH *, apoc.map.fromPairs([`__m` IN coll.distinct(`__errors`) |"
    " [`__m`, size([`__e` IN `__errors` WHERE `__e` = `__m`])]]) AS `__opErrors`,"
    " apoc.map.fromPairs([`__m` IN coll.distinct([`__b` IN `__batchErrors` | `__b`[1]]) |"
    " [`__m`, size([`__b` IN `__batchErrors` WHERE `__b`[1] = `__m`])]]) AS `__bErrors`"
    " WITH `__batches` AS `__out_batches`, `__total` AS `__out_total`, 0 AS `__out_timeTaken`,"
    " `__total` - `__failed` AS `__out_committedOperations`, `__failed` AS `__out_failedOperations`,"
    " `__failedBatches` AS `__out_failedBatches`, 0 AS `__out_retries`, `__opErrors` AS `__out_errorMessages`,"
    " {total: `__batches`, committed: `__batches` - `__failedBatches`, failed: `__failedBatches`,"
    " errors: `__bErrors`} AS `__out_batch`,"
    " {total: `__total`, committed: `__total` - `__failed`, failed: `__failed`, errors: `__opErrors`}"
    " AS `__out_operations`, false AS `__out_wasTerminated`, {} AS `__out_failedParams`,"
    " null AS `__out_updateStatistics`")
"""APOC's report from the batches' statuses: operations are rows, batches transactions, errors counted by
message. `updateStatistics` is null: the statement's own counters hold them."""


def _batch_size(config: ast.Expression | None, span: Span) -> int:
    """The config's batchSize (a map literal's entry, an integer literal); the config's other keys checked."""
    if config is None or (isinstance(config, ast.Literal) and config.value is None):
        return DEFAULT_BATCH_SIZE
    if not isinstance(config, ast.MapLiteral):
        raise UnsupportedFeature(f"{NAME} with a config that is not a map literal (its batchSize must be known "
                                 "when the statement compiles)", span)
    size = DEFAULT_BATCH_SIZE
    for key, value in config.entries:
        literal = value.value if isinstance(value, ast.Literal) else ...
        if key == "batchSize":
            if not isinstance(literal, int) or isinstance(literal, bool) or literal < 1:
                raise UnsupportedFeature(f"{NAME} with a batchSize that is not a positive integer literal", span)
            size = literal
        elif key == "retries" and literal not in (0, None):
            raise UnsupportedFeature(f"{NAME} with retries (a failed batch fails the same way again here)", span)
        elif key == "batchMode" and literal not in ("BATCH", "SINGLE"):
            raise UnsupportedFeature(f"{NAME} with batchMode {literal!r} (the action reads the rows as variables:"
                                     " BATCH or SINGLE)", span)
        elif key not in IGNORED | {"retries", "batchMode"}:
            raise UnsupportedFeature(f"{NAME} with the config key `{key}`", span)
    return size


def _expand(call: ast.CallProcedure, standalone: bool, _values: Mapping[str, Any]) -> tuple[ast.Clause, ...]:
    assert call.arguments is not None
    iterate, action, config = call.arguments
    span = call.span
    size = _batch_size(config, span)
    params = next((value for key, value in config.entries if key == "params"), None) if isinstance(
        config, ast.MapLiteral) else None
    iterate_text, iterate_query = query_text(NAME, "cypherIterate", iterate, span)
    action_text, action_query = query_text(NAME, "cypherAction", action, span)
    columns = returned_columns(NAME, "cypherIterate", iterate_query, span) if iterate_query else None
    if not columns or action_query is None:
        raise UnsupportedFeature(f"{NAME} whose cypherIterate returns nothing or whose cypherAction is empty", span)
    if returned_columns(NAME, "cypherAction", action_query, span) is not None:
        raise UnsupportedFeature(f"{NAME} whose cypherAction returns rows (APOC ignores them: drop its RETURN)",
                                 span)
    imported = ", ".join(f"`{quoted(column)}`" for column in columns)
    chosen = yielded(call, NAME, OUTPUTS, standalone)
    text = (f"WITH coalesce({'__a2.params' if params is not None else 'null'}, {{}}) AS `__params`"
            f" CALL (`__params`) {{ {read_parameters(iterate_text, params, NAME, span)} }}"
            f" CALL ({imported}, `__params`) {{ {read_parameters(action_text, params, NAME, span, columns)} }}"
            f" IN TRANSACTIONS OF {size} ROWS ON ERROR CONTINUE REPORT STATUS AS `__status` {_COUNTS}")
    picked = ", ".join(f"`__out_{field}` AS `{alias}`" for field, alias in chosen)
    text += f" RETURN {picked}" if standalone else f" WITH {picked}"
    if call.where is not None:
        text += " WITH * WHERE __where"
    return clauses_of(text, call)


COMMIT = "apoc.periodic.commit"
COMMIT_OUTPUTS = (("updates", "INTEGER"), ("executions", "INTEGER"), ("runtime", "INTEGER"), ("batches", "INTEGER"),
                  ("failedBatches", "INTEGER"), ("batchErrors", "MAP"), ("failedCommits", "INTEGER"),
                  ("commitErrors", "MAP"), ("wasTerminated", "BOOLEAN"))
LIMIT = re.compile(r"\slimit\s", re.IGNORECASE)
"""APOC's test that the statement limits its rows (`Periodic.LIMIT_PATTERN`)."""

_RUN_COUNTS = (
    "WITH sum(coalesce(`__updates`, 0)) AS `__out_updates`,"
    " count(CASE WHEN `__updates` > 0 THEN 1 END) AS `__out_executions`, 0 AS `__out_runtime`,"
    " count(`__status`) AS `__out_batches`,"
    " count(CASE WHEN NOT `__status`.committed THEN 1 END) AS `__out_failedBatches`,"
    " collect(`__status`.errorMessage) AS `__errors`"
    " WITH *, apoc.map.fromPairs([`__m` IN coll.distinct(`__errors`) |"
    " [`__m`, size([`__e` IN `__errors` WHERE `__e` = `__m`])]]) AS `__out_batchErrors`,"
    " 0 AS `__out_failedCommits`, {} AS `__out_commitErrors`, false AS `__out_wasTerminated`")
"""APOC's rundown from the runs' statuses: a run that counted more than 0 is an execution, every run a batch
(the last one, which counted 0, too), a failed one a failed batch, its error counted by message. A commit
never fails apart from its run, and runtime is 0 (APOC's whole seconds; a run's time is not reported)."""


def _inlined(text: str, params: ast.Expression, span: Span) -> tuple[str, tuple[ast.Expression, ...]]:
    """`text` with each `$name` the call's argument `__a2`, `__a3`, ...: the params map's entry (a map literal
    must have it), or `params.name` of a map given otherwise. A statement parameter stays one, so `LIMIT
    $limit` keeps the constant LIMIT needs."""
    entries = dict(params.entries) if isinstance(params, ast.MapLiteral) else None
    pieces: list[str] = []
    arguments: dict[str, ast.Expression] = {}
    position = 0
    for token in tokenize(text):
        if token.type is not TokenType.PARAMETER:
            continue
        name = str(token.value)
        if name in ("_count", "_total"):
            raise UnsupportedFeature(f"{COMMIT} whose statement reads ${name} (the count of the run before, or of"
                                     " all runs: each run here is the same compiled statement)", span)
        if name not in arguments:
            if entries is not None and name not in entries:
                raise ParameterMissing(f"{COMMIT}: the statement uses ${name} and its params give no `{name}`", span)
            arguments[name] = entries[name] if entries is not None else ast.PropertyLookup(params, name, span=span)
        pieces += [text[position:token.start], f"__a{2 + list(arguments).index(name)}"]
        position = token.end
    return "".join(pieces) + text[position:], tuple(arguments.values())


def _expand_commit(call: ast.CallProcedure, standalone: bool, _values: Mapping[str, Any]) -> tuple[ast.Clause, ...]:
    """`CALL () { CALL () { statement } RETURN sum(count) AS __updates } IN TRANSACTIONS ON ERROR BREAK`, run
    again until `__updates` is 0 (`repeat_until`), then APOC's counts."""
    assert call.arguments is not None
    statement, params = call.arguments
    span = call.span
    text, query = query_text(COMMIT, "statement", statement, span)
    if query is None or not LIMIT.search(text):
        raise ProcedureError(f"Failed to invoke procedure `{COMMIT}`: the statement sent to apoc.periodic.commit "
                             "must contain a `limit`", span, detail="ProcedureCallFailed")
    columns = returned_columns(COMMIT, "statement", query, span)
    if columns is None or len(columns) != 1:
        raise UnsupportedFeature(f"{COMMIT} whose statement does not return one column (the count of what it "
                                 "did, which APOC sums)", span)
    chosen = yielded(call, COMMIT, COMMIT_OUTPUTS, standalone)
    last = query.parts[0].clauses[-1]
    assert isinstance(last, ast.Return)
    item = last.projection.items[0]
    if item.alias is None:  # a CALL's RETURN must alias its expressions
        text = f"{text[:item.span.end]} AS `__count`{text[item.span.end:]}"
    inlined, arguments = _inlined(text, params, span)
    count = f"`{quoted(columns[0])}`" if item.alias is not None else "`__count`"
    body = f"CALL () {{ {inlined} }} RETURN sum({count}) AS `__updates`"
    text = f"CALL () {{ {body} }} IN TRANSACTIONS ON ERROR BREAK REPORT STATUS AS `__status` {_RUN_COUNTS}"
    picked = ", ".join(f"`__out_{field}` AS `{alias}`" for field, alias in chosen)
    text += f" RETURN {picked}" if standalone else f" WITH {picked}"
    if call.where is not None:
        text += " WITH * WHERE __where"
    clauses = clauses_of(text, replace(call, arguments=(statement, params, *arguments)))
    return tuple(replace(clause, repeat_until="__updates") if isinstance(clause, ast.CallSubquery) else clause
                 for clause in clauses)


PROCEDURE_MACROS: tuple[ProcedureMacro, ...] = (
    ProcedureMacro(COMMIT, (("statement", "STRING"), ("params", "MAP")), COMMIT_OUTPUTS, "WRITE", _expand_commit,
                   ("{}",), leading=True),
    ProcedureMacro(NAME, (("cypherIterate", "STRING"), ("cypherAction", "STRING"), ("config", "MAP")), OUTPUTS,
                   "WRITE", _expand, ("{}",), leading=True),
)
