"""Every error a page author can meet, with its message and the line (and column) it points at.

Page errors are found before any cell runs (`FILE:LINE: message`, exit 2); warnings do not stop the
page; cell errors come from the engine while the page runs (`FILE:LINE: cell 'NAME' failed: ...`,
the line and column of the page where the construct at fault is written).
"""

from __future__ import annotations

import pytest

from runner.page import parse_page
from runner.page.markdown import read_page
from runner.run import run_page

CELL = "```cypher cell=one\nRETURN 1 AS x\n```\n"

PAGE_ERRORS = {
    "yaml": ("---\ntitle: [unclosed\n---\n", 2, "front matter is not valid YAML: "),
    "not a mapping": ("---\n- a\n- b\n---\n", 2, "front matter must be a mapping of fields"),
    "no title": ("---\nsummary: s\n---\n", 1, "front matter: 'title' is a required property"),
    "unknown field": ("---\ntitle: t\ncategroy: x\n---\n", 3,
                      "front matter: unknown field 'categroy'; did you mean 'category'?"),
    "unknown field, no hint": ("---\ntitle: t\nzzz: 1\n---\n", 3, "front matter: unknown field 'zzz'; known fields: "),
    # keys YAML does not load as strings (found by the fuzzing: the check raised a TypeError)
    "null key": ("---\ntitle: t\nnull: 1\n---\n", 3, "front matter: unknown field 'None'; known fields: "),
    "anchored key": ("---\ntitle: t\n&level: Advanced\n---\n", 3, "front matter: unknown field 'None'"),
    "number key": ("---\ntitle: t\nzz: 2\n1: x\n---\n", 4, "front matter: unknown field '1'; known fields: "),
    "bad level": ("---\ntitle: t\nlevel: Expert\n---\n", 3, "front matter: field 'level': 'Expert' is not one of"),
    "bad features": ("---\ntitle: t\nfeatures: [a, a]\n---\n", 3, "front matter: field 'features': "),
    "bad feature item": ("---\ntitle: t\nfeatures: [a, 3]\n---\n", 3, "front matter: field 'features'[1]: "),
    "empty cell name": ("```cypher cell=\"\"\nRETURN 1\n```\n", 1, "cell= needs a name"),
    "duplicate cell": (CELL + "\n" + CELL, 5, "duplicate cell name 'one' (first defined at line 1)"),
    "empty data name": ("```json data=\"\"\n{}\n```\n", 1, "data= needs a name"),
    "duplicate data": ("```json data=d\n{}\n```\n\n```json data=d\n{}\n```\n", 5,
                       "duplicate data block name 'd' (first defined at line 1)"),
    "invalid json": ("```json data=d\n{\n  \"a\": 1,\n  \"b\" 2\n}\n```\n", 4,
                     "invalid JSON in data block 'd': Expecting ':' delimiter (column 7)"),
    "json not an object": ("```json data=d\n[1, 2]\n```\n", 1,
                           "data block 'd' must be a JSON object whose keys are parameters, not an array"),
    "recorded without cell": ("```table\n| x |\n```\n", 1,
                              "a `table` block records a cell's result, but there is no cell above it"),
    "two recordings": (CELL + "```table\n| x |\n```\n```gram\n()\n```\n", 7,
                       "cell 'one' already has its recorded block at line 4"),
    "error block for plain cell": (CELL + "```error\nSyntaxError: X\n```\n", 4,
                                   "an `error` block records the error of a cell marked `error`, and cell 'one' "
                                   "is not (write `cypher cell=one error`)"),
    "table for error cell": ("```cypher cell=bad error\nRETURN x\n```\n```table\n| x |\n```\n", 4,
                             "cell 'bad' is marked `error`: its recording is an `error` block, not a `table` block"),
    "trace without calls": ("```trace\n```\n", 1, "a `trace` block needs calls=DATA (the data block of tool "
                                                  "calls) and from=CELL"),
    "trace name taken": (CELL + "```trace calls=one from=one\n```\n", 4,
                         "duplicate cell name 'one': a trace runs under the name of its calls block, and line 1 "
                         "already uses it"),
    "trace from nowhere": (CELL + '```json data=c\n{"steps": [{"tool": "get_schema"}]}\n```\n'
                           "```trace calls=c from=onee\n```\n", 7, "trace 'c': from=onee names no cell; did you "
                                                                    "mean 'one'?"),
    "trace calls nowhere": (CELL + "```trace calls=c from=one\n```\n", 4, "trace 'c': calls=c names no data block"),
    "calls without steps": (CELL + '```json data=c\n{"step": []}\n```\n```trace calls=c from=one\n```\n', 4,
                            "data block 'c' is the calls of a trace, but it has no \"steps\" list of calls"),
    "step without tool": (CELL + '```json data=c\n{"steps": [{"tool": 1}]}\n```\n```trace calls=c from=one\n```\n',
                          4, "data block 'c' is the calls of a trace, but step 1 is not an object with a \"tool\" "
                             "name"),
    "step arguments": (CELL + '```json data=c\n{"steps": [{"tool": "x", "arguments": []}]}\n```\n'
                       "```trace calls=c from=one\n```\n", 4,
                       "data block 'c' is the calls of a trace, but the \"arguments\" of step 1 are not an object"),
    "unknown key on a cypher fence": ("```cypher cell=one parms=d\nRETURN 1\n```\n", 1,
                                      "unknown 'parms=' in `cypher` info string; did you mean 'params'?"),
    "never closed": ("text\n\n<details>\n```cypher cell=one\nRETURN 1\n</details>\n", 4,
                     "this `cypher` fence is never closed: end it with a line of ```"),
    "never closed at the end": (CELL + "\n```cypher cell=two\nRETURN 2\n\nMore prose.\n", 5,
                                "this `cypher` fence is never closed"),
    "a cell swallowed": ("```cypher cell=one\nRETURN 1\n\n```table\n| x |\n```\n", 1,
                         "this `cypher` fence is not closed before the `table` fence at line 4, which it reads "
                         "as its content"),
    "params nowhere": ("```json data=people\n{}\n```\n```cypher cell=one params=peple\nRETURN 1\n```\n", 4,
                       "cell 'one': params=peple names no data block; did you mean 'people'?"),
}


@pytest.mark.parametrize("name", PAGE_ERRORS)
def test_page_error(name):
    source, line, message = PAGE_ERRORS[name]
    page = parse_page(source, "page.md")
    assert page.errors, f"no error for {name}"
    error = page.errors[0]
    assert (error.line, error.message[:len(message)]) == (line, message)
    assert str(error).startswith(f"page.md:{line}: ")


def test_a_page_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.md"
    path.write_bytes(b"# Page\n\ncaf\xe9\n")
    page = read_page(path)
    assert [(error.line, error.message) for error in page.errors] == [
        (3, "the page is not UTF-8 text (invalid continuation byte)")]


WARNINGS = {
    "unknown flag": ("```cypher cell=one setpu\nRETURN 1\n```\n", 1,
                     "unknown 'setpu' in `cypher` info string; did you mean 'setup'?"),
    "key on a table": (CELL + "```table extra=1\n| x |\n```\n", 4, "unknown 'extra=' in `table` info string"),
    "flag on a table": (CELL + "```table extra\n| x |\n```\n", 4, "unknown 'extra' in `table` info string"),
    "unclosed brace": ("```cypher {cell=one\nRETURN 1\n```\n", 1,
                       "info string 'cypher {cell=one': the '{' of the attributes is never closed"),
    "unreadable": ("```cypher cell=one \"quoted\nRETURN 1\n```\n", 1, "info string 'cypher cell=one \"quoted': "
                                                                      "cannot read"),
    "no cell name": ("```cypher setup\nRETURN 1\n```\n", 1,
                     "a `cypher` block with params=, setup or error but no cell=NAME is not run"),
}


@pytest.mark.parametrize("name", WARNINGS)
def test_page_warning(name):
    source, line, message = WARNINGS[name]
    page = parse_page(source, "page.md")
    assert page.warnings, f"no warning for {name}"
    warning = page.warnings[0]
    assert (warning.line, warning.message[:len(message)]) == (line, message)
    assert str(warning).startswith(f"page.md:{line}: warning: ")


def run(source: str, **options):
    return run_page(parse_page(source, "page.md"), **options)


CELL_ERRORS = {
    # (page, line of the page, column, kind, message start)
    # "end of input" is just after the last token, not on the closing fence
    "syntax": ("# P\n\n```cypher cell=one\nMATCH (n)\nRETURN n.x +\n\n```\n", 5, 13, "SyntaxError",
               "expected an expression, found end of input"),
    "undefined variable": ("```cypher cell=one\nMATCH (n)\nRETURN m\n```\n", 3, 8, "SyntaxError",
                           "variable `m` not defined"),
    "second statement": ("```cypher cell=one\nCREATE (:A);\n  RETURN 1 / 0 AS x\n```\n", 3, 3, "ArithmeticError",
                         "/ by zero"),
    "missing parameter": ("```cypher cell=one\nRETURN $who AS x\n```\n", 2, 8, "ParameterMissing", ""),
    "type error": ("```cypher cell=one\nWITH 'a' AS s\nRETURN -s AS x\n```\n", 3, None, "TypeError", ""),
    "constraint": ("```cypher cell=one setup\nCREATE CONSTRAINT c FOR (p:P) REQUIRE p.k IS UNIQUE\n```\n\n"
                   "```cypher cell=two\nUNWIND [1, 1] AS k\nCREATE (:P {k: k})\n```\n", 7, 1,
                   "ConstraintValidationFailed", ""),
    "a position in the message": ("# P\n\n```cypher cell=one\nRETURN 1 AS x;\nMATCH (n\nRETURN n\n```\n", 6, 1,
                                  "SyntaxError", "expected ')' to close the node pattern opened at 5:7, found RETURN"),
    "in a block quote": ("> ```cypher cell=one\n> RETURN nope AS x\n> ```\n", 2, 10, "SyntaxError", ""),
    "unsupported": ("```cypher cell=one\nLOAD CSV FROM 'x' AS row RETURN row\n```\n", 2, None, None, ""),
}


@pytest.mark.parametrize("name", CELL_ERRORS)
def test_cell_error_points_at_the_page(name):
    source, line, column, kind, message = CELL_ERRORS[name]
    outcome = run(source)
    failed = [cell for cell in outcome.cells if cell.status == "error"]
    assert failed, f"no cell error for {name}"
    error = failed[0].error
    assert error.line == line
    if column is not None:
        assert error.column == column
    if kind is not None:
        assert error.kind == kind
    assert error.message.startswith(message)
    assert failed[0].failure.startswith(f"page.md:{line}: cell '{failed[0].cell.name}' failed: {error.kind}: ")


def test_cells_after_a_failed_cell_are_skipped_with_the_reason():
    outcome = run("```cypher cell=one\nRETURN x\n```\n\n" + CELL.replace("one", "two"))
    assert [cell.status for cell in outcome.cells] == ["error", "skipped"]
    assert outcome.cells[1].failure == "skipped: cell 'one' failed before it"


def test_drift_names_the_recorded_block():
    outcome = run(CELL + "\n```table\n| x |\n|---|\n| 2 |\n1 row\n```\n")
    (cell,) = outcome.cells
    assert cell.status == "failed" and cell.failure.startswith("page.md:5: cell 'one'")


def test_error_cell_that_raises_another_error():
    outcome = run("```cypher cell=bad error\nRETURN 1 / 0 AS x\n```\n\n```error\nSyntaxError: UndefinedVariable\n```\n")
    (cell,) = outcome.cells
    assert cell.status == "failed"
    assert "the error differs: recorded SyntaxError: UndefinedVariable, actual ArithmeticError: DivisionByZero" \
        in cell.failure


def test_error_cell_that_raises_none():
    outcome = run("```cypher cell=bad error\nRETURN 1 AS x\n```\n")
    (cell,) = outcome.cells
    assert cell.failure == "page.md:1: cell 'bad' is marked `error` but ran without one\n"


def test_missing_cell_and_unopenable_database(tmp_path):
    outcome = run(CELL, cell="oen")
    assert [(e.line, e.message) for e in outcome.errors] == [(1, "no cell named 'oen'; did you mean 'one'?")]
    outcome = run(CELL, database=str(tmp_path / "missing" / "db.rl"))
    assert outcome.errors[0].line == 1
    assert outcome.errors[0].message.startswith(f"cannot open the database {tmp_path / 'missing' / 'db.rl'}: ")
