"""Which line is which in a JUnit report (issue 36, item 10): a failure message starts with the `FILE:LINE` an
editor opens (1-based), and a testcase's `line` attribute is pytest's 0-based location of the item."""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

import pytest

import runner.run  # noqa: F401  pytester's in-process runs restore sys.modules, and duckdb must load only once
from tests.runner.helpers import FIXTURES

pytest_plugins = ["pytester"]

INI = """\
[pytest]
addopts = -p no:cacheprovider -p no:randomly
filterwarnings = ignore::pytest.PytestAssertRewriteWarning
"""
BROKEN = """\
# A cell the engine refuses

```cypher cell=one
RETURN 1 AS one
```

```cypher cell=broken
RETURN 1 AS one,
  2 AS two ORDER BY
```
"""
HEAD = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+): ")


def failures(pytester: pytest.Pytester) -> dict[str, tuple[str, int, str, int]]:
    """Each failed testcase (`file::name`) → (the file and line its message starts with, its file and line
    attributes), from an xunit1 report, the family that writes `file` and `line`."""
    report = pytester.path / "report.xml"
    pytester.runpytest(f"--junitxml={report}", "-o", "junit_family=xunit1")
    found = {}
    for case in ElementTree.parse(report).iter("testcase"):
        for failure in case.iter("failure"):
            head = HEAD.match(failure.get("message", ""))
            assert head, failure.get("message")
            found[f"{case.get('file')}::{case.get('name')}"] = (
                head["file"], int(head["line"]), case.get("file"), int(case.get("line")))
    return found


def line_of(pytester: pytest.Pytester, file: str, number: int) -> str:
    """Line `number` of a file, counted as an editor counts (from 1)."""
    return (pytester.path / file).read_text().splitlines()[number - 1]


@pytest.fixture
def project(pytester: pytest.Pytester) -> Path:
    pytester.makefile(".ini", pytest=INI)
    folder = pytester.mkdir("cookbook")
    (folder / "small.md").write_bytes((FIXTURES / "small.md").read_bytes())
    (folder / "broken.md").write_text(BROKEN)
    pytester.runpytest("--regen-all")
    return pytester.path


def test_every_failure_starts_with_the_line_an_editor_opens_and_junit_counts_from_0(pytester, project):
    page = project / "cookbook" / "small.md"
    page.write_text(page.read_text().replace('| "Grace" | 1906 |', '| "Grace" | 1907 |'))  # a drift
    snapshot = project / "snapshots" / "small.yml"
    snapshot.write_text(snapshot.read_text().replace("- [Ada, 1815]", "- [Ada, 1816]"))  # a snapshot difference
    (project / "snapshots" / "broken.yml").unlink()  # a missing snapshot

    found = failures(pytester)
    assert set(found) == {"cookbook/small.md::by-birth", "cookbook/broken.md::one", "cookbook/broken.md::broken"}

    file, line, junit_file, junit_line = found["cookbook/small.md::by-birth"]
    assert (file, junit_file) == ("cookbook/small.md", "cookbook/small.md")
    assert line_of(pytester, file, line) == "```table"  # the drifted block, where the diff's header points too
    assert junit_line == line - 1  # the same line, as pytest counts

    file, line, _, junit_line = found["cookbook/broken.md::broken"]
    assert line_of(pytester, file, line) == "  2 AS two ORDER BY"  # the statement's line, not the cell's
    assert line_of(pytester, file, junit_line + 1) == "```cypher cell=broken"  # the item: the cell

    file, line, _, junit_line = found["cookbook/broken.md::one"]  # the page's one snapshot failure
    assert (file, line_of(pytester, file, line)) == ("cookbook/broken.md", "```cypher cell=one")
    assert junit_line == line - 1


def test_a_snapshot_difference_names_the_snapshot_line_that_differs(pytester, project):
    snapshot = project / "snapshots" / "small.yml"
    snapshot.write_text(snapshot.read_text().replace("- [Ada, 1815]", "- [Ada, 1816]"))
    file, line, junit_file, _ = failures(pytester)["cookbook/small.md::by-birth"]
    assert (file, junit_file) == ("snapshots/small.yml", "cookbook/small.md")
    assert line_of(pytester, file, line) == "    - [Ada, 1816]"
