"""The README's authoring walk-through, run as written: its draft page and every command of its steps, in a
fresh git repository, each command as the shell would run it (`cookbook` and `pytest` from this
environment), and the message it promises for a page committed without its snapshot."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from tests.runner.helpers import ROOT

SECTION = "## Writing a page: from first draft to a green CI run"


def section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.index("\n## ", start + len(SECTION))
    return text[start:end]


def blocks(text: str, info: str) -> list[str]:
    """The contents of the fenced blocks with this info string (```` ```` ```` fences included)."""
    return [match[2] for match in re.finditer(r"^(`{3,})" + re.escape(info) + r"\n(.*?)^\1$", text, re.M | re.S)]


def shell(folder: Path, line: str) -> subprocess.CompletedProcess[str]:
    """One command line of the README, its comment dropped, run in `folder` with this environment's tools."""
    words = shlex.split(line, comments=True)
    bin_folder = str(Path(sys.executable).parent)
    environment = {**os.environ, "PATH": bin_folder + os.pathsep + os.environ.get("PATH", ""),
                   "PYTHONPATH": str(ROOT), "GIT_AUTHOR_NAME": "Author", "GIT_AUTHOR_EMAIL": "author@example.com",
                   "GIT_COMMITTER_NAME": "Author", "GIT_COMMITTER_EMAIL": "author@example.com"}
    return subprocess.run(words, cwd=folder, env=environment, capture_output=True, text=True, timeout=300)


def test_the_readme_walks_a_new_page_to_a_green_pytest_run(tmp_path):
    text = section()
    [page] = blocks(text, "markdown")
    [steps] = blocks(text, "sh")
    [promised] = [line for line in text.splitlines() if "has no snapshot" in line]
    commands = [line for line in steps.splitlines() if line.strip()]
    programs = [shlex.split(line, comments=True)[0] for line in commands]
    assert programs == ["cookbook", "cookbook", "git", "git", "pytest"]
    name = re.search(r"`(cookbook/[\w-]+\.md)`", text)[1]
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "cookbook").mkdir()
    (tmp_path / name).write_text(page, encoding="utf-8")

    done = shell(tmp_path, commands[-1])  # pytest before the page is recorded: the promised message, once
    assert done.returncode == 1, done.stdout
    assert promised.strip() in done.stdout
    assert re.search(r"\b1 failed, 1 passed\b", done.stdout), done.stdout

    for line in commands:
        done = shell(tmp_path, line)
        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
    assert "2 passed" in done.stdout  # the last step: CI's pytest, green
    recorded = (tmp_path / name).read_text(encoding="utf-8")
    assert recorded.count("```table") == 2 and '| "Ada" | "Grace" |' in recorded
    committed = subprocess.run(["git", "ls-files"], cwd=tmp_path, capture_output=True, text=True).stdout.split()
    assert committed == [name, "snapshots/who-knows-whom.yml"]
    assert subprocess.run(["git", "status", "--porcelain"], cwd=tmp_path, capture_output=True,
                          text=True).stdout == ""  # nothing left to commit: the CI run wrote nothing
