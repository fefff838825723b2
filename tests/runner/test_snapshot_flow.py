"""A new page from draft to green pytest (ADR-0069): `cookbook run --update` records the page's blocks and its
snapshot, and pytest fails a page whose snapshot is missing once, naming that command."""

from __future__ import annotations

from pathlib import Path

import pytest

import runner.run  # noqa: F401  pytester's in-process runs restore sys.modules, and duckdb must load only once
from runner.cli import main
from runner.snapshot_files import layout_for

pytest_plugins = ["pytester"]

INI = """\
[pytest]
addopts = -p no:cacheprovider -p no:randomly
filterwarnings = ignore::pytest.PytestAssertRewriteWarning
"""
CELLS = 12


def draft(cells: int = CELLS) -> str:
    """A page of `cells` cells and no recorded block, as an author first writes it."""
    parts = ["# A new page\n\n```cypher cell=c0\nCREATE (:Step {n: 0})\n```\n"]
    parts += [f"\n```cypher cell=c{i}\nMATCH (s:Step) CREATE (:Step {{n: {i}}}) RETURN count(s) AS before\n```\n"
              for i in range(1, cells)]
    return "".join(parts)


def update(capsys: pytest.CaptureFixture[str], page: str) -> tuple[int, str]:
    code = main(["run", "--update", "--color", "never", page])
    return code, capsys.readouterr().out


@pytest.fixture
def project(pytester: pytest.Pytester) -> Path:
    pytester.makefile(".ini", pytest=INI)
    pytester.mkdir("cookbook")
    return pytester.path


def test_a_page_recorded_with_update_passes_its_first_pytest_run(pytester, project, capsys):
    page = project / "cookbook" / "new.md"
    page.write_text(draft())
    code, out = update(capsys, "cookbook/new.md")
    assert code == 0, out
    assert "snapshots/new.yml: recorded the snapshot of cookbook/new.md (commit it with the page)" in out
    assert (project / "snapshots" / "new.yml").read_text().count("columns:") == CELLS
    pytester.runpytest().assert_outcomes(passed=CELLS)

    recorded = (project / "snapshots" / "new.yml").read_bytes()
    code, out = update(capsys, "cookbook/new.md")  # nothing changed: nothing written
    assert code == 0 and "snapshot" not in out
    assert (project / "snapshots" / "new.yml").read_bytes() == recorded


def test_a_page_without_its_snapshot_fails_once_naming_the_command(pytester, project, capsys):
    page = project / "cookbook" / "new.md"
    page.write_text(draft())
    assert update(capsys, "cookbook/new.md")[0] == 0
    (project / "snapshots" / "new.yml").unlink()  # recorded, but not committed

    result = pytester.runpytest()
    result.assert_outcomes(passed=CELLS - 1, failed=1)
    result.stdout.fnmatch_lines([
        "cookbook/new.md:3: the page has no snapshot (snapshots/new.yml): record it with "
        "`cookbook run --update cookbook/new.md`, then commit snapshots/new.yml with the page",
    ])
    assert not (project / "snapshots" / "new.yml").exists()  # pytest does not write it behind the author's back

    code, out = update(capsys, "cookbook/new.md")
    assert code == 0 and "recorded the snapshot" in out
    pytester.runpytest().assert_outcomes(passed=CELLS)


def test_force_regen_still_writes_a_missing_snapshot(pytester, project):
    (project / "cookbook" / "new.md").write_text(draft(3))
    pytester.runpytest("--regen-all").assert_outcomes(passed=3)
    pytester.runpytest().assert_outcomes(passed=3)


def test_update_changes_only_the_entries_that_differ_and_drops_removed_cells(pytester, project, capsys):
    page = project / "cookbook" / "new.md"
    page.write_text(draft(3))
    update(capsys, "cookbook/new.md")
    snapshot = project / "snapshots" / "new.yml"
    page.write_text(draft(2).replace("CREATE (:Step {n: 0})", "CREATE (:Step {n: 0}), (:Step {n: -1})"))
    code, out = update(capsys, "cookbook/new.md")
    assert code == 0 and "recorded the snapshot" in out
    text = snapshot.read_text()
    assert "  c2:" not in text and "nodes_created: 2" in text
    pytester.runpytest().assert_outcomes(passed=2)


def test_the_snapshot_goes_where_pytest_looks_for_it_with_pyproject_settings(pytester, capsys):
    pytester.makefile(".toml", pyproject='[tool.pytest.ini_options]\naddopts = "-p no:cacheprovider"\n'
                                         'cookbook_pages = ["docs/**/*.md"]\ncookbook_snapshots = "records"\n')
    folder = pytester.mkdir("docs") / "guide"
    folder.mkdir()
    (folder / "page.md").write_text(draft(2))
    (pytester.path / "cookbook").mkdir()
    (pytester.path / "cookbook" / "other.md").write_text(draft(2))  # not among the pages pytest collects

    assert update(capsys, "docs/guide/page.md")[0] == 0
    assert update(capsys, "cookbook/other.md")[0] == 0
    written = sorted(path.relative_to(pytester.path).as_posix() for path in pytester.path.rglob("*.yml"))
    assert written == ["records/guide/page.yml"]
    assert "page: docs/guide/page.md\n" in (pytester.path / "records" / "guide" / "page.yml").read_text()
    pytester.runpytest().assert_outcomes(passed=2)


@pytest.mark.parametrize(("name", "text", "snapshots"), [
    ("pytest.ini", "[pytest]\ncookbook_snapshots =\n", ""),
    ("tox.ini", "[pytest]\ncookbook_snapshots = kept\n", "kept"),
    ("setup.cfg", "[tool:pytest]\ncookbook_pages =\n    a/*.md\n    b/*.md\n", "snapshots"),
    ("pytest.toml", '[pytest]\ncookbook_snapshots = "t"\n', "t"),
    ("pyproject.toml", '[tool.pytest]\ncookbook_pages = ["x/*.md"]\n', "snapshots"),
])
def test_the_configuration_is_read_from_pytests_files(tmp_path, name, text, snapshots):
    (tmp_path / name).write_text(text)
    (tmp_path / "a").mkdir()
    layout = layout_for(tmp_path / "a" / "page.md")
    assert (layout.rootdir, layout.config_file, layout.snapshots) == (tmp_path, tmp_path / name, snapshots)
    if name == "setup.cfg":
        assert layout.patterns == ("a/*.md", "b/*.md")


def test_without_a_configuration_file_the_defaults_apply_from_the_current_folder(tmp_path, monkeypatch):
    (tmp_path / "cookbook").mkdir()
    page = tmp_path / "cookbook" / "p.md"
    page.write_text(draft(1))
    monkeypatch.chdir(tmp_path)
    layout = layout_for(page)
    assert (layout.rootdir, layout.config_file) == (tmp_path.resolve(), None)
    assert layout.snapshot_of(page) == tmp_path.resolve() / "snapshots" / "p.yml"
