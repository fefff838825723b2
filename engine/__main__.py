"""`python -m engine explain "CYPHER" [--params JSON] [--db PATH]`: each stage's output, for checking by eye.

Prints the tokens, the syntax tree, the bound statement (variables with their static types) and every SQL
statement the executor runs, with its bound values. The statement runs in a transaction that is rolled
back, so explaining a write changes nothing.
"""

from __future__ import annotations

import argparse
import json
import pprint
import sys

import engine
from engine.syntax import ast
from engine.syntax.parser import parse
from engine.syntax.tokenizer import tokenize


def explain(statement: str, params: dict[str, object], path: str) -> str:
    lines = ["== tokens", " ".join(token.text for token in tokenize(statement)), "", "== syntax tree",
             ast.dump(parse(statement)), ""]
    with engine.connect(path) as db:
        bound, trace = db.explain(statement, params)
        lines += ["== bound statement", pprint.pformat(bound, width=110, compact=True), "", "== SQL, in order"]
        for number, (sql, values) in enumerate(trace, 1):
            lines.append(f"-- {number}" + (f"  values: {values}" if values else ""))
            lines.append(sql)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    explain_parser = commands.add_parser("explain", help="show tokens, tree, bound statement and SQL")
    explain_parser.add_argument("statement")
    explain_parser.add_argument("--params", default="{}", help="parameters as a JSON object")
    explain_parser.add_argument("--db", default=":memory:", help="database file (default: a fresh in-memory one)")
    arguments = parser.parse_args(argv)
    try:
        print(explain(arguments.statement, json.loads(arguments.params), arguments.db))
    except engine.CypherError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
