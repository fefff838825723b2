"""The `cookbook` command end to end, on the real engine: exit codes, FILE:LINE, --update, reports."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from runner.cli import main
from tests.runner.helpers import COOKBOOK_PAGE, FIXTURES, ROOT, SEED_PAGE


def run(capsys, *arguments: str) -> tuple[int, str, str]:
    code = main(["run", *map(str, arguments)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_agent_memory_page_passes(capsys):
    code, out, _ = run(capsys, COOKBOOK_PAGE)
    assert code == 0, out
    assert "12 passed, 0 failed" in out  # 11 cells and the replayed trace


@pytest.mark.skipif(not SEED_PAGE.exists(), reason="the user's seed page is not beside this checkout")
def test_the_seed_page_passes_byte_for_byte(capsys, tmp_path):
    copy = tmp_path / "seed.md"
    shutil.copy(SEED_PAGE, copy)
    code, out, _ = run(capsys, copy)
    assert code == 0, out
    assert run(capsys, copy, "--update")[0] == 0
    assert copy.read_bytes() == SEED_PAGE.read_bytes()


def test_a_page_name_is_looked_up_in_cookbook(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = run(capsys, "01-agent-memory")
    assert code == 0, out
    assert "cookbook/01-agent-memory.md" in out


def test_the_small_page_passes(capsys):
    code, out, _ = run(capsys, FIXTURES / "small.md", FIXTURES / "crlf.md", FIXTURES / "brace.md")
    assert code == 0, out
    assert "14 passed, 0 failed, 1 unrecorded" in out


def test_drift_is_reported_with_file_line_and_update_restores_the_page(capsys, tmp_path):
    copy = tmp_path / "agent-memory.md"
    original = COOKBOOK_PAGE.read_bytes()
    copy.write_bytes(original.replace(b'| "Entity"   | 8     |', b'| "Entity"   | 9     |', 1)
                     .replace(b"constraints added: 2", b"constraints added: 1", 1))
    code, out, _ = run(capsys, copy)
    assert code == 1
    assert f"{copy}:226: cell 'labels' drifted from its recording" in out
    assert '-| "Entity"   | 9     |\n+| "Entity"   | 8     |' in out
    assert (f"{copy}:92: cell 'schema' drifted from its recording\n"
            "  constraints added: recorded 1, actual 2") in out
    assert "10 passed, 2 failed" in out
    code, out, _ = run(capsys, copy, "--update")
    assert code == 0, out
    assert copy.read_bytes() == original
    assert run(capsys, copy)[0] == 0


def test_update_adds_a_missing_block_and_keeps_crlf(capsys, tmp_path):
    copy = tmp_path / "crlf.md"
    original = (FIXTURES / "crlf.md").read_bytes()
    start = original.index(b"```gram\r\n")
    end = original.index(b"```\r\n", start + 3) + len(b"```\r\n\r\n")
    copy.write_bytes(original[:start] + original[end:])
    code, out, _ = run(capsys, copy)
    assert code == 0 and "1 unrecorded" in out
    assert run(capsys, copy, "--update")[0] == 0
    assert copy.read_bytes() == original


def test_a_page_error_stops_its_page_only_and_the_run_exits_with_the_worst_status(capsys, tmp_path):
    broken = tmp_path / "a.md"
    broken.write_text("# A\n\n```cypher cell=x\nRETURN 1 AS n\n```\n\n```cypher cell=x\nRETURN 2 AS n\n```\n")
    drifted = tmp_path / "c.md"
    drifted.write_bytes((FIXTURES / "small.md").read_bytes().replace(b'"Grace" | 1906', b'"Grace" | 1907'))
    code, out, err = run(capsys, broken, FIXTURES / "small.md", drifted, "--json", tmp_path / "run.json")
    assert code == 2
    assert f"{broken}:7: duplicate cell name 'x' (first defined at line 3)" in err
    assert f"ERROR   {broken}  page error" in out
    assert "PASS    " + str(FIXTURES / "small.md") in out
    assert f"{drifted}:37: cell 'by-birth' drifted" in out
    assert "11 passed, 1 failed" in out
    document = json.loads((tmp_path / "run.json").read_text())
    assert [page["status"] for page in document["pages"]] == ["error", "passed", "failed"]
    assert run(capsys, FIXTURES / "small.md", drifted)[0] == 1


def test_a_page_named_to_run_needs_a_cell(capsys, tmp_path):
    prose = tmp_path / "prose.md"
    prose.write_text("# Notes\n\n```cypher\nRETURN 1\n```\n")
    misspelled = tmp_path / "misspelled.md"
    misspelled.write_text("# Typo\n\n```cypher cel=one\nRETURN 1 AS n\n```\n")
    code, out, err = run(capsys, prose, misspelled, FIXTURES / "small.md")
    assert code == 2
    assert f"{prose}:1: no cells: nothing on this page runs (a cell is a fence opened with ```cypher cell=NAME)" in err
    assert f"{misspelled}:3: unknown 'cel=' in `cypher` info string; did you mean 'cell'?" in err
    assert f"ERROR   {prose}  page error" in out and "6 passed, 0 failed" in out


def test_an_unclosed_fence_is_a_page_error_at_its_line_and_the_prose_after_it_never_runs(capsys, tmp_path):
    page = tmp_path / "unclosed.md"
    page.write_text("# U\n\n```cypher cell=one\nRETURN 1 AS n\n\nMore prose here.\n")
    code, out, err = run(capsys, page)
    assert code == 2
    assert f"{page}:3: this `cypher` fence is never closed: end it with a line of ```" in err
    assert f"ERROR   {page}  page error" in out and "cell 'one' failed" not in out  # no prose ran as Cypher


def test_invalid_json_is_reported_without_the_errors_that_follow_from_it(capsys, tmp_path):
    page = tmp_path / "json.md"
    page.write_text("# J\n\n```cypher cell=s params=d\nRETURN $a AS a\n```\n\n"
                    "```json data=d\n{\"a\": 1,\n \"b\": }\n```\n")
    code, _, err = run(capsys, page)
    assert code == 2
    assert err.strip().splitlines() == [f"{page}:9: invalid JSON in data block 'd': Expecting value (column 7)"]


def test_an_engine_error_fails_its_cell_skips_the_rest_and_other_pages_run(capsys, tmp_path):
    page = tmp_path / "broken.md"
    page.write_text("# Broken\n\n```cypher cell=one\nRETURN 1 AS n\n```\n\n"
                    "```cypher cell=two\nRETURN 1 AS n;\nRETURN nope(2) AS m\n```\n\n"
                    "```cypher cell=three\nRETURN 3 AS n\n```\n")
    code, out, _ = run(capsys, page, FIXTURES / "small.md")
    assert code == 1
    assert f"{page}:9: cell 'two' failed: " in out  # the cell's text starts on line 8; the error is on line 2
    assert "     9 | RETURN nope(2) AS m" in out
    assert "1 error, 1 skipped" in out
    assert "PASS    " + str(FIXTURES / "small.md") in out


def test_every_position_in_an_engine_error_is_a_page_position(capsys, tmp_path):
    page = tmp_path / "syntax.md"
    page.write_text("# S\n\nSome text\n\n> ```cypher cell=t\n> MATCH (n\n> RETURN n\n> ```\n")
    code, out, _ = run(capsys, page, "--json", tmp_path / "run.json")
    assert code == 1
    assert (f"{page}:7: cell 't' failed: SyntaxError: expected ')' to close the node pattern opened at 6:9, "
            "found RETURN\n     7 | > RETURN n\n       |   ^\n") in out
    [cell] = json.loads((tmp_path / "run.json").read_text())["pages"][0]["cells"]
    assert (cell["error"]["line"], cell["error"]["column"]) == (7, 3)
    assert cell["error"]["message"].endswith("opened at 6:9, found RETURN")


def test_cell_option_runs_the_cells_before_it_unchecked(capsys, tmp_path):
    copy = tmp_path / "small.md"
    text = (FIXTURES / "small.md").read_bytes()
    copy.write_bytes(text.replace(b"relationships created: 2", b"relationships created: 7"))
    code, out, _ = run(capsys, copy, "--cell", "by-birth")
    assert code == 0, out
    assert "1 passed, 0 failed" in out
    code, _, err = run(capsys, copy, "--cell", "by-brith")
    assert code == 2 and "no cell named 'by-brith'; did you mean 'by-birth'?" in err


def test_json_and_html_reports(capsys, tmp_path):
    copy = tmp_path / "small.md"
    copy.write_bytes((FIXTURES / "small.md").read_bytes().replace(b'"Grace" | 1906', b'"Grace" | 1907'))
    report, page = tmp_path / "run.json", tmp_path / "run.html"
    code, _, _ = run(capsys, copy, "--json", report, "--html", page)
    assert code == 1
    document = json.loads(report.read_text())
    assert document["exit_code"] == 1
    assert document["summary"]["failed"] == 1
    [outcome] = document["pages"]
    assert outcome["status"] == "failed"
    cells = {cell["name"]: cell for cell in outcome["cells"]}
    assert cells["by-birth"]["status"] == "failed" and cells["by-birth"]["recorded_line"] == 37
    assert cells["by-birth"]["diff"].startswith(f"{copy}:37: cell 'by-birth' drifted")
    assert cells["people"] == {"name": "people", "line": 9, "setup": True, "status": "passed",
                               "recorded_line": 14, "reasons": [], "diff": None, "error": None,
                               "raised": None}
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>")
    assert 'class="cell-status failed" id="cell-by-birth"' in html
    assert "+| &quot;Grace&quot; | 1906 |" in html


def test_db_option_runs_on_a_file(capsys, tmp_path):
    database = tmp_path / "small.rl"
    code, out, _ = run(capsys, FIXTURES / "small.md", "--db", database)
    assert code == 0, out
    assert database.exists()
    code, _, err = run(capsys, FIXTURES / "small.md", "--db", database)
    assert code == 2 and "exists" in err


def test_usage_errors_exit_2(capsys):
    assert run(capsys, "no-such-page")[0] == 2
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "--no-such-option"])
    assert exit_info.value.code == 2


def test_version_prints_the_installed_package_version(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"cookbook {version('cookbook')}\n"


def test_the_command_runs_as_a_module():
    completed = subprocess.run([sys.executable, "-m", "runner", "run", str(FIXTURES / "small.md")],
                               capture_output=True, text=True, cwd=ROOT, check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert completed.stdout.rstrip().splitlines()[-1].startswith("6 passed, 0 failed")


def test_the_command_ends_with_everything_written(tmp_path):
    """The process ends without the interpreter's teardown (`entry`): the exit code, the piped output,
    the JSON report and the database file must all be complete by then."""
    page = tmp_path / "small.md"
    page.write_bytes((FIXTURES / "small.md").read_bytes().replace(b'| "Ada"   | 1815 |', b'| "Ada"   | 1816 |'))
    database, report = tmp_path / "graph.duckdb", tmp_path / "out.json"
    completed = subprocess.run([sys.executable, "-m", "runner", "run", str(page), "--db", str(database),
                                "--json", str(report)], capture_output=True, text=True, cwd=ROOT, check=False)
    assert completed.returncode == 1, completed.stdout + completed.stderr
    assert completed.stdout.rstrip().splitlines()[-1].startswith("5 passed, 1 failed")
    assert json.loads(report.read_text(encoding="utf-8"))["pages"][0]["cells"]
    import engine

    with engine.connect(str(database)) as reopened:
        assert reopened.execute("MATCH (n) RETURN count(n) > 0 AS stored").rows == [(True,)]
