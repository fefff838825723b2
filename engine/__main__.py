"""`python -m engine explain|profile "CYPHER" [--params JSON] [--db PATH]`: how a statement runs, by eye.

`explain` prints the statement's plan (a step per clause, what the rules decided: `EXPLAIN`), then every SQL
statement the executor runs, with its bound values, from a run in a transaction that is rolled back, so
explaining a write changes nothing. The SQL needs the parameters' values; without them the plan is shown,
unknown parameters typed as anything, and the parameters named as unknown. `--verbose` adds the tokens, the
syntax tree and the bound statement.

`profile` runs the statement as `PROFILE` does (a write is committed to `--db`) and prints its plan with
each step's rows and time and, under each step, the operators DuckDB ran for it with theirs (ADR-0079).

An error is printed with its kind.
"""

from __future__ import annotations

import argparse
import json
import pprint
import sys

import engine
from engine.syntax import ast
from engine.syntax.parser import parse_script
from engine.syntax.prefix import plan_prefix
from engine.syntax.tokenizer import tokenize


def explain(statement: str, params: dict[str, object] | None, path: str, *, verbose: bool = False) -> str:
    """The plan and, given the parameters (or when there are none), the SQL of each statement in `statement`."""
    lines: list[str] = []
    if verbose:
        lines += ["== tokens", " ".join(token.text for token in tokenize(statement)), "", "== syntax tree",
                  ast.dump(parse_script(statement)[0][0]), ""]
    texts = statements(plan_prefix(statement)[1])  # `EXPLAIN ...` explains the statement
    with engine.connect(path) as db:
        for text in texts:
            title = f" of: {' '.join(text.split())[:70]}" if len(texts) > 1 else ""
            plan = db.execute("EXPLAIN " + text, params or {})
            lines += [f"== plan{title}", render_rows(plan.columns, plan.rows), ""]
            try:
                bound, trace = db.explain(text, params or {})
            except engine.ParameterMissing:
                unknown = ", ".join(f"${name}" for name in parameter_names(text) if name not in (params or {}))
                verb = "is" if ", " not in unknown else "are"
                lines += [f"== SQL: not shown: the SQL depends on the parameters' values, and {unknown} {verb}"
                          " unknown (typed as anything in the plan above); pass them with --params JSON", ""]
                continue
            if verbose:
                lines += ["== bound statement", pprint.pformat(bound, width=110, compact=True), ""]
            lines.append("== SQL, in order")
            for number, (sql, values) in enumerate(trace, 1):
                lines.append(f"-- {number}" + (f"  values: {values}" if values else ""))
                lines.append(sql)
            lines.append("")
    return "\n".join(lines).rstrip()


PROFILE_COLUMNS = ("id", "operator", "details", "estimatedRows", "rows", "ms", "step", "notes")


def profile(statement: str, params: dict[str, object] | None, path: str) -> str:
    """The profiled plan of each statement in `statement`, run (and committed) in order."""
    lines: list[str] = []
    texts = statements(plan_prefix(statement)[1])
    with engine.connect(path) as db:
        for text in texts:
            title = f" of: {' '.join(text.split())[:70]}" if len(texts) > 1 else ""
            result = db.execute("PROFILE " + text, params or {})
            plan = [tuple("" if line[column] is None else line[column] for column in PROFILE_COLUMNS)
                    for line in result.plan or []]
            lines += [f"== profile{title}: {len(result.rows)} rows", render_rows(list(PROFILE_COLUMNS), plan), ""]
    return "\n".join(lines).rstrip()


def parameter_names(text: str) -> list[str]:
    """The parameters `text` names, in order of first use."""
    found = [node for node in ast.walk(parse_script(text)[0][0]) if isinstance(node, ast.Parameter)]
    return list(dict.fromkeys(node.name for node in sorted(found, key=lambda node: node.span.start)))


def statements(text: str) -> list[str]:
    """The `;`-separated statements of `text`."""
    return [text[span.start:span.end] for _, span in parse_script(text)]


def render_rows(columns: list[str], rows: list[tuple[object, ...]]) -> str:
    table = [columns, *([str(cell) for cell in row] for row in rows)]
    widths = [max(len(row[column]) for row in table) for column in range(len(columns))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
                     for row in table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    explain_parser = commands.add_parser("explain", help="show the plan and the SQL of a statement")
    explain_parser.add_argument("statement")
    explain_parser.add_argument("--params", default=None, help="parameters as a JSON object")
    explain_parser.add_argument("--verbose", action="store_true",
                                help="also the tokens, the syntax tree and the bound statement")
    explain_parser.add_argument("--db", default=":memory:", help="database file (default: a fresh in-memory one)")
    profile_parser = commands.add_parser("profile", help="run a statement and show its plan with the rows and time "
                                         "of each step and of each operator DuckDB ran (writes are committed)")
    profile_parser.add_argument("statement")
    profile_parser.add_argument("--params", default=None, help="parameters as a JSON object")
    profile_parser.add_argument("--db", default=":memory:", help="database file (default: a fresh in-memory one)")
    arguments = parser.parse_args(argv)
    try:
        params = json.loads(arguments.params) if arguments.params else None
        if arguments.command == "profile":
            print(profile(arguments.statement, params, arguments.db))
        else:
            print(explain(arguments.statement, params, arguments.db, verbose=arguments.verbose))
    except engine.CypherError as error:
        print(f"{type(error).__name__}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
