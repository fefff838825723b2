"""Cells marked `error`: read, run, checked, updated, snapshotted and previewed (docs/error-cells.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
import runner.run  # noqa: F401  pytester's in-process runs restore sys.modules, and duckdb must load only once
from runner.cli import main
from runner.page import parse_page, read_page
from runner.preview import DRIFTED, PASSING, from_run, from_snapshot, preview_markdown
from runner.render import render_error
from runner.render.error import read_error_block
from runner.result import RaisedError
from runner.run import ERROR, FAILED, PASSED, SKIPPED, UNRECORDED, run_page
from runner.snapshot import cell_result, dump_snapshot, outcome_record, read_snapshot, same_entry
from runner.update import edits_for, update_page

pytest_plugins = ["pytester"]

PAGE = """\
# Errors

```cypher cell=one setup
CREATE (:A {x: 1})
```

```table
(no rows) · nodes created: 1, properties set: 1, labels added: 1
```

```cypher cell=rebind error
MATCH (a) CREATE (a)
```

```error
SyntaxError: VariableAlreadyBound
```

```cypher cell=convert error
RETURN toInteger([1]) AS x
```

```error
TypeError: InvalidArgumentValue
toInteger() cannot convert this value, got LIST
```

```cypher cell=rolled-back error
CREATE (:B) WITH 1 AS one RETURN toInteger([one]) AS x
```

```error
TypeError: InvalidArgumentValue
```

```cypher cell=after
MATCH (n) RETURN count(n) AS nodes
```

```table
| nodes |
|-------|
| 1     |
1 row
```
"""


def write(tmp_path: Path, text: str, name: str = "page.md") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def statuses(path: Path) -> dict[str, str]:
    return {outcome.cell.name: outcome.status for outcome in run_page(read_page(path)).cells}


# -- reading --------------------------------------------------------------------------------------------

def test_the_error_word_marks_a_cell_and_an_error_block_records_it(tmp_path):
    page = read_page(write(tmp_path, PAGE))
    assert page.errors == [] and page.warnings == []
    assert [cell.name for cell in page.cells if cell.expects_error] == ["rebind", "convert", "rolled-back"]
    assert page.cell("rebind").recorded.kind == "error"


def test_an_error_block_under_an_unmarked_cell_is_a_page_error(tmp_path):
    page = parse_page("```cypher cell=x\nRETURN 1 AS x\n```\n\n```error\nTypeError\n```\n", tmp_path / "p.md")
    assert [(error.line, error.message) for error in page.errors] == [
        (5, "an `error` block records the error of a cell marked `error`, and cell 'x' is not "
            "(write `cypher cell=x error`)")]


def test_a_table_under_a_cell_marked_error_is_a_page_error(tmp_path):
    page = parse_page("```cypher cell=x error\nRETURN 1 AS x\n```\n\n```table\n1 row\n```\n", tmp_path / "p.md")
    assert [error.message for error in page.errors] == [
        "cell 'x' is marked `error`: its recording is an `error` block, not a `table` block"]


# -- the block ------------------------------------------------------------------------------------------

def test_the_block_is_kind_and_detail_then_the_message():
    raised = RaisedError("SyntaxError", "VariableAlreadyBound", "Variable `a` already declared\n")
    assert render_error(raised) == "SyntaxError: VariableAlreadyBound\nVariable `a` already declared\n"
    assert render_error(RaisedError("ConstraintValidationFailed", None, "Node(0) already exists")) == (
        "ConstraintValidationFailed\nNode(0) already exists\n")
    block = read_error_block("\nTypeError: InvalidArgumentValue  \n  first\nsecond  \n\n")
    assert (block.headline, block.message) == ("TypeError: InvalidArgumentValue", ["  first", "second"])
    with pytest.raises(ValueError, match="empty"):
        read_error_block("\n \n")


def test_the_block_is_what_the_engine_raises():
    with engine.connect(":memory:") as connection, pytest.raises(engine.CypherError) as caught:
        connection.execute_script("MATCH (a) CREATE (a)")
    assert render_error(RaisedError.from_error(caught.value)).split("\n")[0] == "SyntaxError: VariableAlreadyBound"


# -- running --------------------------------------------------------------------------------------------

def test_an_expected_error_passes_and_the_page_goes_on_with_the_statement_rolled_back(tmp_path):
    outcome = run_page(read_page(write(tmp_path, PAGE)))
    assert {item.cell.name: item.status for item in outcome.cells} == dict.fromkeys(
        ["one", "rebind", "convert", "rolled-back", "after"], PASSED)
    rebind = outcome.cells[1]
    assert rebind.result is None and rebind.error is None
    assert rebind.raised == RaisedError("SyntaxError", "VariableAlreadyBound", rebind.raised.message)
    assert rebind.as_dict()["raised"]["detail"] == "VariableAlreadyBound"


def test_a_different_error_fails_with_the_diff(tmp_path):
    path = write(tmp_path, PAGE.replace("TypeError: InvalidArgumentValue\ntoInteger", "ArgumentError\ntoInteger"))
    outcome = run_page(read_page(path))
    failed = next(item for item in outcome.cells if item.cell.name == "convert")
    assert failed.status == FAILED
    assert failed.failure.startswith(f"{path}:23: cell 'convert' drifted from its recording\n"
                                     "  the error differs: recorded ArgumentError, actual TypeError: "
                                     "InvalidArgumentValue\n")
    assert "-ArgumentError\n+TypeError: InvalidArgumentValue\n" in failed.failure
    assert outcome.cells[-1].status == PASSED  # a failed check does not stop the page


def test_a_different_message_fails_and_a_block_without_one_checks_only_the_first_line(tmp_path):
    path = write(tmp_path, PAGE.replace("got LIST", "got MAP"))
    failed = next(item for item in run_page(read_page(path)).cells if item.cell.name == "convert")
    assert failed.status == FAILED and failed.check.reasons == ["the error's message differs"]
    assert "-toInteger() cannot convert this value, got MAP\n+toInteger() cannot convert this value, got LIST" \
        in failed.failure
    assert statuses(write(tmp_path, PAGE.replace("\ntoInteger() cannot convert this value, got LIST", ""),
                          "short.md"))["convert"] == PASSED


def test_a_cell_marked_error_that_succeeds_fails(tmp_path):
    path = write(tmp_path, PAGE.replace("RETURN toInteger([1]) AS x", "RETURN toInteger('1') AS x"))
    outcome = run_page(read_page(path))
    failed = next(item for item in outcome.cells if item.cell.name == "convert")
    assert failed.status == FAILED and failed.raised is None and failed.result is not None
    assert failed.check.reasons == ["the cell is marked `error` but ran without one"]
    assert "-TypeError: InvalidArgumentValue\n" in failed.failure and "+| 1 |\n" in failed.failure
    assert not failed.updatable
    unrecorded = write(tmp_path, "```cypher cell=x error\nRETURN 1 AS x\n```\n", "unrecorded.md")
    only = run_page(read_page(unrecorded)).cells[0]
    assert (only.status, only.failure) == (FAILED, f"{unrecorded}:1: cell 'x' is marked `error` but ran "
                                                   "without one\n")


def test_an_unmarked_cell_that_raises_is_an_error_as_before(tmp_path):
    path = write(tmp_path, PAGE.replace("cell=rebind error", "cell=rebind").replace(
        "```error\nSyntaxError: VariableAlreadyBound\n```\n", ""))
    assert list(statuses(path).values()) == [PASSED, ERROR, SKIPPED, SKIPPED, SKIPPED]


def test_an_engine_bug_in_a_cell_marked_error_is_still_an_error(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(engine.Connection, "execute_script", broken)
    outcome = run_page(read_page(write(tmp_path, PAGE)))
    assert [item.status for item in outcome.cells] == [ERROR, SKIPPED, SKIPPED, SKIPPED, SKIPPED]


def test_a_cell_marked_error_without_a_block_is_unrecorded_and_shows_its_error(tmp_path):
    path = write(tmp_path, "```cypher cell=x error\nMATCH (a) CREATE (a)\n```\n")
    outcome = run_page(read_page(path)).cells[0]
    assert outcome.status == UNRECORDED and outcome.block_kind == "error"
    assert outcome.actual.startswith("SyntaxError: VariableAlreadyBound\n")


# -- --update -------------------------------------------------------------------------------------------

def test_update_rewrites_a_wrong_error_block_and_adds_a_missing_one(tmp_path):
    path = write(tmp_path, PAGE.replace("SyntaxError: VariableAlreadyBound\n", "TypeError\n").replace(
        "```error\nTypeError: InvalidArgumentValue\n```\n", ""))
    edits = update_page(run_page(read_page(path)))
    assert [(edit.cell.name, edit.kind) for edit in edits] == [("rebind", "error"), ("rolled-back", "error")]
    text = path.read_text(encoding="utf-8")
    assert ("```error\nSyntaxError: VariableAlreadyBound\n"
            "variable `a` already declared: CREATE would create nothing new\n```") in text
    assert "```cypher cell=rolled-back error\nCREATE (:B) WITH 1 AS one RETURN toInteger([one]) AS x\n```\n\n" \
           "```error\nTypeError: InvalidArgumentValue\ntoInteger() cannot convert this value, got LIST\n```\n" in text
    assert set(statuses(path).values()) == {PASSED}


def test_update_leaves_the_block_of_a_cell_marked_error_that_succeeded(tmp_path):
    text = PAGE.replace("RETURN toInteger([1]) AS x", "RETURN 1 AS x")
    path = write(tmp_path, text)
    assert edits_for(run_page(read_page(path))) == []
    assert main(["run", "--update", "--color", "never", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == text


def test_update_never_records_an_error_for_an_unmarked_cell(tmp_path):
    text = "```cypher cell=x\nMATCH (a) CREATE (a)\n```\n"
    path = write(tmp_path, text)
    assert main(["run", "--update", "--color", "never", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == text


def test_the_command_passes_a_page_of_expected_errors(tmp_path, capsys):
    assert main(["run", "--color", "never", str(write(tmp_path, PAGE))]) == 0
    assert "5 passed, 0 failed" in capsys.readouterr().out


# -- snapshots and the preview ----------------------------------------------------------------------------

def test_an_error_is_a_snapshot_entry_of_its_own():
    raised = RaisedError("SyntaxError", "VariableAlreadyBound", "Variable `a` already declared")
    text = dump_snapshot("p.md", {"rebind": outcome_record(raised)})
    assert ("  rebind:\n    error: {kind: SyntaxError, detail: VariableAlreadyBound, message: Variable `a` "
            "already declared}\n") in text
    entry = read_snapshot(text)["cells"]["rebind"]
    assert cell_result(entry) == raised and same_entry(entry, outcome_record(raised))
    assert not same_entry(entry, outcome_record(RaisedError("SyntaxError", None, raised.message)))
    no_detail = RaisedError("ConstraintValidationFailed", None, "m")
    assert cell_result(read_snapshot(dump_snapshot("p.md", {"c": outcome_record(no_detail)}))["cells"]["c"]) \
        == no_detail


def snapshot_of(path: Path, tmp_path: Path) -> Path:
    outcome = run_page(read_page(path))
    snapshot = tmp_path / "page.yml"
    snapshot.write_text(dump_snapshot("page.md", {item.cell.name: outcome_record(item.outcome)
                                                  for item in outcome.cells}), encoding="utf-8")
    return snapshot


def test_the_preview_shows_error_cells_passing_or_drifted(tmp_path):
    path = write(tmp_path, PAGE)
    snapshot = snapshot_of(path, tmp_path)
    status = from_snapshot(read_page(path), snapshot)
    assert {name: item.state for name, item in status.cells.items()} == dict.fromkeys(
        ["one", "rebind", "convert", "rolled-back", "after"], PASSING)
    html = preview_markdown(read_page(path), status)
    assert '<pre class="cb-error cb-error--expected"><strong>SyntaxError: VariableAlreadyBound</strong></pre>' in html
    assert ('<strong>TypeError: InvalidArgumentValue</strong><div class="cb-error-message">toInteger() cannot '
            "convert this value, got LIST</div>") in html
    drifted = read_page(write(tmp_path, PAGE.replace("VariableAlreadyBound", "UndefinedVariable"), "drifted.md"))
    assert from_snapshot(drifted, snapshot).cells["rebind"].state == DRIFTED
    assert from_run(drifted).cells["rebind"].state == DRIFTED
    assert from_run(read_page(path)).cells["rebind"].state == PASSING


def test_a_result_in_the_snapshot_of_a_cell_marked_error_drifts(tmp_path):
    succeeded = write(tmp_path, PAGE.replace("RETURN toInteger([1]) AS x", "RETURN 1 AS x"), "succeeded.md")
    status = from_snapshot(read_page(write(tmp_path, PAGE)), snapshot_of(succeeded, tmp_path))
    assert status.cells["convert"].state == DRIFTED
    assert "marked `error` but ran without one" in status.cells["convert"].detail


# -- the pytest plugin ----------------------------------------------------------------------------------

def test_the_pytest_plugin_checks_error_cells_and_their_snapshot(pytester):
    pytester.makefile(".ini", pytest="[pytest]\naddopts = -p no:cacheprovider\n"
                                     "filterwarnings = ignore::pytest.PytestAssertRewriteWarning\n")
    (pytester.mkdir("cookbook") / "errors.md").write_text(PAGE, encoding="utf-8")
    pytester.runpytest("--regen-all").assert_outcomes(passed=5)
    snapshot = (pytester.path / "snapshots" / "errors.yml").read_text(encoding="utf-8")
    assert "  rebind:\n    error: {kind: SyntaxError, detail: VariableAlreadyBound, message:" in snapshot
    pytester.runpytest().assert_outcomes(passed=5)
    page = pytester.path / "cookbook" / "errors.md"
    page.write_text(PAGE.replace("RETURN toInteger([1]) AS x", "RETURN 1 AS x"), encoding="utf-8")
    result = pytester.runpytest()
    result.assert_outcomes(passed=4, failed=1)
    result.stdout.fnmatch_lines(["*cookbook/errors.md:23: cell 'convert' drifted from its recording",
                                 "*the cell is marked `error` but ran without one",
                                 "*snapshots/errors.yml:*: cell 'convert' differs from its snapshot*"])
