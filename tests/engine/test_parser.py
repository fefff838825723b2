"""The parser: fixture cases (text → ast.dump, text → error), the whole openCypher TCK, the seed page."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.errors import CypherSyntaxError
from engine.syntax import ast
from engine.syntax.parser import parse, parse_script
from tests.case_files import Case, check, parametrize

REPO = Path(__file__).resolve().parents[2]
TCK_DIR = Path(os.environ.get("COOKBOOK_TCK_DIR", REPO.parent / "shared" / "tck"))
SEEDS_DIR = Path(os.environ.get("COOKBOOK_SEEDS_DIR", REPO.parent / "shared" / "seeds"))

# TCK error details the parser reports itself; every other SyntaxError needs scope and is the binder's.
PARSER_DETAILS = frozenset({
    "UnexpectedSyntax", "InvalidNumberLiteral", "IntegerOverflow", "FloatingPointOverflow",
    "InvalidUnicodeLiteral", "InvalidUnicodeCharacter", "InvalidRelationshipPattern", "CreatingVarLength",
    "NoSingleRelationshipType", "RequiresDirectedRelationship", "InvalidParameterUse", "InvalidDelete",
    "InvalidClauseComposition", "NegativeIntegerArgument",
})
# Scenarios with a parser detail that still need scope: `MERGE (a)-[NO_COLON]->(b)` is a missing type only if
# NO_COLON is not bound already (else it is VariableAlreadyBound), so the binder decides.
BINDER_DECIDES = ("clauses/merge/Merge5.feature::[24] ",)


def error_line(error: CypherSyntaxError) -> str:
    return f"{error.span.line}:{error.span.column} {error.detail}: {error.message}"


@pytest.mark.parametrize("case", parametrize("engine/fixtures/parse/*.txt"))
def test_parse(case: Case) -> None:
    check(case, ast.dump(parse(case.input)))


@pytest.mark.parametrize("case", parametrize("engine/fixtures/syntax_errors/*.txt"))
def test_syntax_error(case: Case) -> None:
    try:
        tree = parse(case.input)
    except CypherSyntaxError as error:
        check(case, error_line(error))
    else:
        pytest.fail(f"{case.location}: {case.title}: parsed, expected an error\n{ast.dump(tree)}",
                    pytrace=False)


def test_single_query_is_a_query_of_one_part() -> None:
    query = parse("MATCH (n) RETURN n;")
    assert isinstance(query, ast.Query)
    assert len(query.parts) == 1
    assert query.union_all == ()


def test_comparison_chain_shares_the_middle_operand() -> None:
    query = parse("RETURN 1 < x <= 3")
    chain = query.parts[0].clauses[0].projection.items[0].expression
    assert isinstance(chain, ast.BinaryOp) and chain.op == "AND"
    assert (chain.left.op, chain.right.op) == ("<", "<=")
    assert chain.left.right is chain.right.left


def test_projection_text_is_the_source_text() -> None:
    query = parse("WITH 1 AS a\nRETURN  toUpper( 'x' ) ,\n  a.b  AS c")
    items = query.parts[0].clauses[1].projection.items
    assert [(item.text, item.alias) for item in items] == [("toUpper( 'x' )", None), ("a.b", "c")]


def test_parse_script_splits_on_top_level_semicolons() -> None:
    script = "CREATE (:A {s: 'a;b'}); // comment; still a comment\nMATCH (n)\nRETURN n ;;\n RETURN 1 AS `x;y`"
    statements = parse_script(script)
    assert len(statements) == 3
    texts = [script[span.start:span.end] for _, span in statements]
    assert texts == ["CREATE (:A {s: 'a;b'})", "MATCH (n)\nRETURN n", "RETURN 1 AS `x;y`"]
    assert [(span.line, span.column) for _, span in statements] == [(1, 1), (2, 1), (4, 2)]
    # Node spans are relative to the whole script too.
    last = statements[2][0].parts[0].clauses[0].projection.items[0]
    assert script[last.span.start:last.span.end] == "1 AS `x;y`"


def test_parse_script_reports_positions_in_the_script() -> None:
    with pytest.raises(CypherSyntaxError) as raised:
        parse_script("RETURN 1;\nMATCH (n RETURN n")
    assert (raised.value.span.line, raised.value.span.column) == (2, 10)


def test_parse_script_of_nothing_is_empty() -> None:
    assert parse_script("  // nothing\n ; ;") == []


def test_a_position_an_error_message_names_is_structured_too() -> None:
    """The bracket left open is `related`: an adapter showing the statement inside a larger text (a page)
    writes it as a position of that text with `message_at`."""
    import engine

    with engine.connect(":memory:") as db, pytest.raises(CypherSyntaxError) as raised:
        db.execute_script("RETURN 1;\nMATCH (n:Person\nRETURN n")
    error = raised.value
    assert error.message == "expected ')' to close the node pattern opened at 2:7, found RETURN"
    assert [(span.line, span.column) for span in error.related] == [(2, 7)]
    assert (error.line, error.column) == (3, 1)
    assert error.message_at(lambda span: f"line {span.line + 10}") == (
        "expected ')' to close the node pattern opened at line 12, found RETURN")


def test_errors_carry_the_source_for_a_caret() -> None:
    with pytest.raises(CypherSyntaxError) as raised:
        parse("MATCH (n:Person RETURN n")
    assert str(raised.value).splitlines() == [
        "expected ')' to close the node pattern opened at 1:7, found RETURN (line 1, column 17)",
        "  MATCH (n:Person RETURN n",
        "                  ^",
    ]


@pytest.mark.parametrize(("text", "detail"), [
    ("RETURN " + "(" * 2000 + "1" + ")" * 2000, "UnexpectedSyntax"),
    ("RETURN " + "9" * 5000, "IntegerOverflow"),
], ids=["nested too deeply", "thousands of digits"])
def test_huge_input_is_a_syntax_error_not_a_crash(text: str, detail: str) -> None:
    with pytest.raises(CypherSyntaxError) as raised:
        parse(text)
    assert raised.value.detail == detail


# ----------------------------------------------------------------------------------------------------
# Spans


def nodes(value: object, parent: ast.SyntaxNode | None = None) -> Iterator[tuple[ast.SyntaxNode, object]]:
    if isinstance(value, ast.SyntaxNode):
        yield value, parent
        for field in dataclasses.fields(value):
            yield from nodes(getattr(value, field.name), value)
    elif isinstance(value, tuple):
        for item in value:
            yield from nodes(item, parent)


@pytest.mark.parametrize("case", parametrize("engine/fixtures/parse/*.txt"))
def test_spans_nest(case: Case) -> None:
    """Every node's span lies inside its parent's, and a projection item's text is its expression's span."""
    for node, parent in nodes(parse(case.input)):
        assert 0 <= node.span.start <= node.span.end <= len(case.input), (case.location, node)
        if isinstance(parent, ast.SyntaxNode):
            assert parent.span.start <= node.span.start and node.span.end <= parent.span.end, \
                (case.location, type(parent).__name__, type(node).__name__)
        if isinstance(node, ast.ProjectionItem):
            assert case.input[node.expression.span.start:node.expression.span.end] == node.text


# ----------------------------------------------------------------------------------------------------
# The openCypher TCK and the seed page


def tck_scenarios() -> list[dict]:
    index = TCK_DIR / "index.jsonl"
    if not index.exists():
        pytest.skip(f"no openCypher TCK at {TCK_DIR} (set COOKBOOK_TCK_DIR)")
    with index.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def compile_time_syntax_error(scenario: dict) -> str | None:
    """The detail of the compile-time SyntaxError the scenario expects, if it expects one."""
    for step in scenario["steps"]:
        error = step.get("tck") or {}
        if error.get("type") == "expect_error" and error.get("error_type") == "SyntaxError" \
                and error.get("phase") == "compile time":
            return error["detail"]
    return None


def test_tck_queries_parse() -> None:
    """Every TCK query parses, except where the scenario expects a SyntaxError the parser can see: there it
    must fail with the TCK's detail."""
    problems: list[str] = []
    parsed = rejected = 0
    for scenario in tck_scenarios():
        detail = compile_time_syntax_error(scenario)
        must_fail = detail in PARSER_DETAILS and not scenario["key"].startswith(BINDER_DECIDES)
        for step in scenario["steps"]:
            if step["docstring"] is None or step["kind"] not in ("when", "given"):
                continue
            query = step["docstring"]
            where = f"{scenario['file']}:{step['line']} {scenario['key']}"
            try:
                parse(query)
            except CypherSyntaxError as error:
                if must_fail and step["kind"] == "when" and error.detail == detail:
                    rejected += 1
                    continue
                problems.append(f"{where}\n  {error_line(error)}\n  expected: "
                                f"{detail if must_fail else 'parses'}\n  {query!r}")
                continue
            if must_fail and step["kind"] == "when":
                problems.append(f"{where}\n  parsed, expected SyntaxError {detail}\n  {query!r}")
            else:
                parsed += 1
    summary = f"{len(problems)} TCK queries ({parsed} parsed, {rejected} rejected as expected):"
    assert not problems, "\n".join([summary, *problems])


def seed_statements() -> list[tuple[str, str]]:
    """(where, text) of every statement of the seed page: its cypher cells split on `;`, and the statements
    of its session-2-calls data block."""
    page = SEEDS_DIR / "01-agent-memory.md"
    if not page.exists():
        pytest.skip(f"no seed page at {page} (set COOKBOOK_SEEDS_DIR)")
    text = page.read_text(encoding="utf-8")
    statements = []
    for match in re.finditer(r"^```cypher[^\n]*\n(.*?)^```", text, re.S | re.M):
        cell, first_line = match.group(1), text.count("\n", 0, match.start()) + 2
        for _, span in parse_script(cell):
            statements.append((f"{page.name}:{first_line + span.line - 1}", cell[span.start:span.end]))
    calls = re.search(r"^```json data=session-2-calls\n(.*?)^```", text, re.S | re.M)
    assert calls, "the seed page has a session-2-calls data block"
    for number, step in enumerate(json.loads(calls.group(1))["steps"]):
        statements.append((f"session-2-calls step {number}", step["arguments"]["statement"]))
    return statements


def test_seed_page_parses() -> None:
    statements = seed_statements()
    assert len(statements) >= 20
    for where, text in statements:
        assert isinstance(parse(text), ast.Statement), where


def test_parsing_stays_fast() -> None:
    """A guard against slow paths (regex backtracking, quadratic lookahead), not a benchmark: the seed's
    longest statement parses in about 1 ms on a slow shared machine; fail only when it is ten times slower."""
    longest = max((text for _, text in seed_statements()), key=len)
    timings = []
    for _ in range(30):
        started = time.perf_counter()
        parse(longest)
        timings.append(time.perf_counter() - started)
    assert statistics.median(timings) < 0.010, f"median {statistics.median(timings) * 1000:.2f} ms"
