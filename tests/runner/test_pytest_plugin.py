"""The pytest plugin end to end: pages written into a pytester folder, run with pytest, the output matched."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

import runner.run  # noqa: F401  pytester's in-process runs restore sys.modules, and duckdb must load only once
from runner.page import read_page
from tests.runner.helpers import FIXTURES, ROOT

pytest_plugins = ["pytester"]

INI = """\
[pytest]
addopts = -p no:cacheprovider
filterwarnings = ignore::pytest.PytestAssertRewriteWarning
"""
SMALL_CELLS = ["people", "knows", "by-birth", "names", "path", "when"]

ENGINE_ERROR_PAGE = """\
# A cell the engine refuses

```cypher cell=one
RETURN 1 AS one
```

```table
| one |
|-----|
| 1   |
1 row
```

```cypher cell=broken
MATCH (n) RETURN n ORDER BY
```

```cypher cell=after
RETURN 2 AS two
```

```table
| two |
|-----|
| 2   |
1 row
```
"""


@pytest.fixture
def pages(pytester: pytest.Pytester) -> Path:
    """A project with the small fixture page in cookbook/ and its snapshot recorded."""
    pytester.makefile(".ini", pytest=INI)
    folder = pytester.mkdir("cookbook")
    (folder / "small.md").write_bytes((FIXTURES / "small.md").read_bytes())
    result = pytester.runpytest("--regen-all")
    result.assert_outcomes(passed=len(SMALL_CELLS))
    assert (pytester.path / "snapshots" / "small.yml").is_file()
    return folder


def run(pytester: pytest.Pytester, *arguments: str) -> tuple[pytest.RunResult, dict[str, str]]:
    """Run pytest; also return each item's outcome (passed, failure, error, skipped) from its JUnit report,
    keyed `cookbook.small.md::by-birth`."""
    result = pytester.runpytest("--junitxml=outcome.xml", *arguments)
    found = {}
    for case in ElementTree.parse(pytester.path / "outcome.xml").iter("testcase"):
        kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        found[f"{case.get('classname')}::{case.get('name')}"] = kinds[0] if kinds else "passed"
    return result, found


def small(outcome: str = "passed", **cells: str) -> dict[str, str]:
    return {f"cookbook.small.md::{cell}": cells.get(cell.replace("-", "_"), outcome) for cell in SMALL_CELLS}


def test_collect_only_lists_one_item_per_cell(pytester, pages):
    (pages / "brace.md").write_bytes((FIXTURES / "brace.md").read_bytes())
    result = pytester.runpytest("--collect-only", "-q")
    assert [line for line in result.outlines if "::" in line] == [
        "cookbook/brace.md::make", "cookbook/brace.md::list people", "cookbook/brace.md::plain",
        *(f"cookbook/small.md::{cell}" for cell in SMALL_CELLS)]


def test_the_projects_pytest_collects_every_cell_of_every_page():
    """Acceptance: `pytest --collect-only -q` in the project lists one item per cell of each page."""
    expected = [f"{path.relative_to(ROOT).as_posix()}::{cell.name}"
                for path in sorted((ROOT / "cookbook").rglob("*.md")) for cell in read_page(path).cells]
    assert expected
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    listed = [line for line in done.stdout.splitlines() if line.startswith("cookbook/")]
    assert listed == expected, done.stdout[-2000:] + done.stderr[-2000:]


def test_a_tampered_value_fails_its_item_only_naming_file_line_and_cell(pytester, pages):
    page = pages / "small.md"
    page.write_text(page.read_text().replace('| "Grace" | 1906 |', '| "Grace" | 1907 |'))
    result, outcomes = run(pytester)
    assert outcomes == small(by_birth="failure")
    result.stdout.fnmatch_lines([
        "cookbook/small.md:37: cell 'by-birth' drifted from its recording",
        "  rows differ (in order: the last statement ends in ORDER BY)",
        "--- cookbook/small.md:37 (recorded)",
        "+++ cell 'by-birth' (actual)",
        "@@ -39,5 +39,5 @@",
        '-| "Grace" | 1907 |',
        '+| "Grace" | 1906 |',
    ])
    assert "differs from its snapshot" not in result.stdout.str()


def test_the_junit_report_names_the_file_and_line(pytester, pages):
    page = pages / "small.md"
    page.write_text(page.read_text().replace('| "Grace" | 1906 |', '| "Grace" | 1907 |'))
    pytester.runpytest("--junitxml=report.xml", "-o", "junit_family=xunit1")
    report = (pytester.path / "report.xml").read_text()
    # pytest writes the line 0-based, as for every test; the failure text has it 1-based
    assert re.search(r'<testcase classname="cookbook.small.md" name="by-birth" file="cookbook/small.md" '
                     r'line="36"[^>]*><failure message="cookbook/small.md:37: cell \'by-birth\' drifted',
                     report)


def test_one_cell_can_be_selected_and_the_cells_before_it_run_silently(pytester, pages):
    _, outcomes = run(pytester, "-k", "by-birth")
    assert outcomes == {"cookbook.small.md::by-birth": "passed"}


def test_an_engine_error_fails_its_cell_and_skips_the_rest_of_its_page_only(pytester, pages):
    pytester.makefile(".md", **{"cookbook/broken": ENGINE_ERROR_PAGE})
    result, outcomes = run(pytester, "-rs", "--regen-all")
    assert outcomes == {"cookbook.broken.md::one": "passed", "cookbook.broken.md::broken": "failure",
                        "cookbook.broken.md::after": "skipped", **small()}
    result.stdout.fnmatch_lines([
        "cookbook/broken.md:1[56]: cell 'broken' failed: *",
        "SKIPPED [[]1[]] cookbook/broken.md:22: cell 'broken' failed before it: *",
    ])


def test_a_page_error_is_a_collection_error_with_file_and_line(pytester, pages):
    (pages / "orphan.md").write_bytes((FIXTURES / "errors" / "orphan.md").read_bytes())
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(["*ERROR collecting cookbook/orphan.md*",
                                 "cookbook/orphan.md:5: a `table` block records a cell's result, but *"])
    assert result.ret == pytest.ExitCode.INTERRUPTED


def test_a_page_without_cells_is_not_collected_but_a_misspelled_cell_key_is_an_error(pytester, pages):
    (pages / "README.md").write_text("# About these recipes\n\n```cypher\nMATCH (n) RETURN n\n```\n")
    result = pytester.runpytest("--collect-only", "-q")
    assert [line for line in result.outlines if "::" in line] == [f"cookbook/small.md::{cell}" for cell in SMALL_CELLS]
    assert result.ret == pytest.ExitCode.OK
    (pages / "typo.md").write_text("# Typo\n\n```cypher cel=one\nRETURN 1 AS n\n```\n")
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(["*ERROR collecting cookbook/typo.md*",
                                 "cookbook/typo.md:3: unknown 'cel=' in `cypher` info string; did you mean 'cell'?"])
    assert result.ret == pytest.ExitCode.INTERRUPTED


def test_the_pages_and_the_snapshot_folder_are_configurable(pytester, pages):
    pytester.makefile(".ini", pytest=INI + "cookbook_pages =\n    docs/*.md\n    notes.md\n"
                                           "cookbook_snapshots = records\n")
    (pytester.mkdir("docs") / "page.md").write_bytes((FIXTURES / "brace.md").read_bytes())
    (pytester.path / "notes.md").write_bytes((FIXTURES / "details.md").read_bytes())
    result = pytester.runpytest("--collect-only", "-q")
    listed = [line for line in result.outlines if "::" in line]
    assert listed[:3] == ["docs/page.md::make", "docs/page.md::list people", "docs/page.md::plain"]
    assert listed[3:] and all(line.startswith("notes.md::") for line in listed[3:])  # and not cookbook/
    pytester.runpytest("--regen-all").assert_outcomes(passed=len(listed))
    assert sorted(path.name for path in (pytester.path / "records").iterdir()) == ["notes.yml", "page.yml"]


def test_snapshot_drift_fails_until_force_regen(pytester, pages):
    snapshot = pytester.path / "snapshots" / "small.yml"
    recorded = snapshot.read_text()
    assert "    - [Ada, 1815]\n" in recorded  # by-birth's first row, as the engine gave it
    snapshot.write_text(recorded.replace("    - [Ada, 1815]\n", "    - [Ada, 1816]\n"))

    result, outcomes = run(pytester)
    assert outcomes == small(by_birth="failure")
    result.stdout.fnmatch_lines([
        "snapshots/small.yml:21: cell 'by-birth' differs from its snapshot (`pytest --force-regen` or "
        "`cookbook run --update cookbook/small.md` records it)",
        "--- snapshots/small.yml (snapshot)",
        "+++ cell 'by-birth' (actual)",
        "@@ -*",
        "-    - [[]Ada, 1816[]]",
        "+    - [[]Ada, 1815[]]",
    ])
    assert "drifted from its recording" not in result.stdout.str()  # the page itself still matches

    pytester.runpytest().assert_outcomes(passed=5, failed=1)  # a failing check does not rewrite it
    result = pytester.runpytest("--force-regen")
    result.assert_outcomes(passed=5, failed=1)
    result.stdout.fnmatch_lines(
        ["*cell 'by-birth': Files differ and --force-regen set, regenerating file at:"])
    assert snapshot.read_text() == recorded
    pytester.runpytest().assert_outcomes(passed=len(SMALL_CELLS))


def test_a_new_cell_without_a_snapshot_entry_fails_its_page_once_naming_the_command(pytester, pages):
    page = pages / "small.md"
    page.write_text(page.read_text() + "\n```cypher cell=extra\nRETURN [1, 2.5, 'x', null] AS list\n```\n"
                    "\n```cypher cell=more\nRETURN 2 AS two\n```\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=len(SMALL_CELLS) + 1, failed=1)
    result.stdout.fnmatch_lines(["cookbook/small.md:9?: snapshots/small.yml has no entry for 'extra', 'more': "
                                 "record it with `cookbook run --update cookbook/small.md`, then commit "
                                 "snapshots/small.yml with the page"])
    assert "  extra:\n" not in (pytester.path / "snapshots" / "small.yml").read_text()  # the command records it


def test_xdist_keeps_a_page_on_one_worker_with_the_serial_outcome(pytester, pages):
    (pages / "brace.md").write_bytes((FIXTURES / "brace.md").read_bytes())
    pytester.makefile(".md", **{"cookbook/broken": ENGINE_ERROR_PAGE})
    page = pages / "small.md"
    page.write_text(page.read_text().replace('| "Grace" | 1906 |', '| "Grace" | 1907 |'))
    pytester.runpytest("--regen-all")

    _, serial = run(pytester)
    parallel, outcomes = run(pytester, "-n", "2", "-v")
    assert outcomes == serial
    assert len(serial) == len(SMALL_CELLS) + 6
    assert serial["cookbook.small.md::by-birth"] == "failure"
    assert serial["cookbook.broken.md::broken"] == "failure"
    assert serial["cookbook.broken.md::after"] == "skipped"
    workers: dict[str, set[str]] = {}
    for line in parallel.outlines:
        match = re.match(r"^\[(gw\d+)\] .*?(PASSED|FAILED|SKIPPED) (cookbook/[^:]+)::", line)
        if match:
            workers.setdefault(match[3], set()).add(match[1])
    assert set(workers) == {"cookbook/small.md", "cookbook/brace.md", "cookbook/broken.md"}
    assert all(len(ids) == 1 for ids in workers.values()), workers
