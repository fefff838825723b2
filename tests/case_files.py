"""Test cases kept as data: markdown-it-py's fixture format, read once here for every test module.

A case file holds cases one after the other, each a title line and three `.` lines around the input and the
expected output::

    Match a node with a label
    .
    MATCH (n:Person) RETURN n
    .
    Query
      ...
    .

Lines between cases (blank, or notes) are ignored. `parametrize(pattern)` turns every case of the matching
files into a `pytest.param` whose id is the title; `check(case, actual)` compares and, on a mismatch, fails
with the case's `file:line` and a diff, so the failure points at the data to fix.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

import pytest

TESTS = Path(__file__).parent


@dataclass(frozen=True)
class Case:
    title: str
    input: str
    expected: str
    path: Path
    line: int  # 1-based line of the title

    @property
    def location(self) -> str:
        try:
            shown = self.path.relative_to(TESTS.parent)
        except ValueError:
            shown = self.path
        return f"{shown}:{self.line}"


def read_cases(path: Path) -> list[Case]:
    """The cases of one file, in order. A file that ends inside a case is an error, not a silent skip."""
    lines = path.read_text(encoding="utf-8").splitlines()
    cases: list[Case] = []
    section = 0
    title, title_line, last_dot = "", 0, 0
    parts: list[str] = []
    for index, line in enumerate(lines):
        if line.rstrip() != ".":
            continue
        if section == 0:
            title = lines[index - 1].strip() if index > 0 else ""
            title_line = index  # the title is the line above the first dot: 1-based `index`
            if not title:
                raise ValueError(f"{path}:{index + 1}: a case needs a title on the line above its first '.'")
            parts = []
        else:
            parts.append("\n".join(lines[last_dot + 1:index]))
        if section == 2:
            cases.append(Case(title, parts[0], parts[1], path, title_line))
        section = (section + 1) % 3
        last_dot = index
    if section != 0:
        raise ValueError(f"{path}:{title_line}: case {title!r} is not closed by a third '.'")
    return cases


def parametrize(pattern: str, directory: Path = TESTS) -> list[pytest.ParameterSet]:
    """`pytest.param(case, id=title)` for every case of the files matching `pattern`, a glob under
    `directory`."""
    params = []
    for path in sorted(directory.glob(pattern)):
        for case in read_cases(path):
            params.append(pytest.param(case, id=f"{path.stem}: {case.title}"))
    if not params:
        raise ValueError(f"no cases match {pattern!r} under {directory}")
    return params


def check(case: Case, actual: str) -> None:
    """Fail with `file:line`, the title and a diff unless `actual` equals the case's expected text."""
    expected = case.expected.rstrip("\n")
    actual = actual.rstrip("\n")
    if actual == expected:
        return
    diff = "\n".join(difflib.unified_diff(expected.splitlines(), actual.splitlines(), "expected", "actual",
                                          lineterm=""))
    pytest.fail(f"{case.location}: {case.title}\n{diff}", pytrace=False)
