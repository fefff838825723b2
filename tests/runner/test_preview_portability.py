"""The preview's portability line: `mkdocs build` of the cookbook's site with its committed portability
matrices (docs/portability/PAGE.json, written by `cookbook run PAGE --target ... --matrix PAGE.md`) shows,
per cell, what FalkorDB and ArcadeDB gave, each verdict's note from notes.yaml; nothing without a matrix; a
stale matrix says so; an unreadable one fails a strict build."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.runner.helpers import COOKBOOK_PAGE, ROOT
from tests.runner.preview_site import mkdocs_build, site_copy

PORTABILITY = ROOT / "docs" / "portability"


def with_matrices(folder: Path) -> Path:
    """The site of a fresh clone, with the committed matrices where mkdocs.yml's `portability` looks."""
    site_copy(folder)
    shutil.copytree(PORTABILITY, folder / "docs" / "portability")
    return folder


def portability_of(html: str, cell: str) -> str:
    """The portability line under one cell of a built page."""
    found = re.search(rf'<div class="cb-portability[^"]*" data-cell="{re.escape(cell)}">(.*?)</div>', html, re.S)
    assert found, f"no portability line for {cell!r}"
    return found.group(1)


def badges(line: str) -> list[str]:
    return re.findall(r'<span class="cb-port cb-port--[a-z-]+"[^>]*>([^<]*)</span>', line)


def built_page(folder: Path, name: str) -> str:
    return (folder / "site" / name / "index.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = with_matrices(tmp_path_factory.mktemp("clone"))
    built = mkdocs_build(folder, "--strict")
    assert built.returncode == 0, built.stderr
    return folder


def test_each_cell_says_what_each_other_database_gave(site):
    html = built_page(site, "01-agent-memory")
    assert badges(portability_of(html, "schema")) == ["FalkorDB: error", "ArcadeDB: same"]
    assert badges(portability_of(html, "recall-tool")) == ["FalkorDB: error", "ArcadeDB: error"]
    assert badges(portability_of(html, "session-2-calls")) == ["FalkorDB: not run", "ArcadeDB: not run"]
    team = built_page(site, "03-team-knowledge-graph")
    assert badges(portability_of(team, "byKeys")) == ["FalkorDB: same", "ArcadeDB: differs"]
    assert "cb-port-stale" not in html + team and "is stale" not in html + team


def test_a_verdicts_note_shows_on_hover_and_behind_why(site):
    line = portability_of(built_page(site, "01-agent-memory"), "schema")
    hover = re.search(r'data-target="falkordb://local" title="([^"]*)"', line)
    assert hover and "GRAPH.CONSTRAINT CREATE" in hover.group(1)
    assert 'data-target="arcadedb:" title=' not in line  # a same verdict needs no note
    assert "<summary>why</summary>" in line
    assert "it creates constraints with <code>GRAPH.CONSTRAINT CREATE</code>, outside Cypher." in line


def test_the_card_names_the_databases_and_the_matrix(site):
    html = built_page(site, "02-context-graph")
    assert ("Other databases: FalkorDB, ArcadeDB <span class=\"cb-card-origin\">(from "
            "docs/portability/02-context-graph.json)</span>") in html


def test_without_a_matrix_nothing_is_said(tmp_path):
    folder = site_copy(tmp_path / "clone")  # mkdocs.yml names docs/portability, which this clone lacks
    built = mkdocs_build(folder, "--strict")
    assert built.returncode == 0, built.stderr
    html = built_page(folder, "01-agent-memory")
    assert "cb-portability" not in html and "Other databases" not in html


def test_a_stale_matrix_says_which_cells_it_does_not_know(tmp_path):
    folder = with_matrices(tmp_path / "clone")
    page = folder / "cookbook" / COOKBOOK_PAGE.name
    source = page.read_text(encoding="utf-8")
    source = source.replace("```cypher cell=nearby ", "```cypher cell=nearby-2 ", 1)
    source = source.replace("RETURN label, count(*) AS nodes\n", "RETURN label, count(*) AS nodes // per label\n", 1)
    page.write_text(source, encoding="utf-8")
    built = mkdocs_build(folder)
    assert built.returncode == 0, built.stderr
    html = built_page(folder, "01-agent-memory")
    renamed = portability_of(html, "nearby-2")
    assert badges(renamed) == []
    assert "not in the portability matrix docs/portability/01-agent-memory.json" in renamed
    changed = portability_of(html, "labels")
    assert badges(changed) == ["FalkorDB: differs", "ArcadeDB: same"]
    assert "the cell changed since the matrix was made" in changed
    card = re.search(r'<p class="cb-card-portability cb-portability--stale">(.*?)</p>', html, re.S)
    assert card, "the card does not say the matrix is stale"
    assert ("cells not in it: <code>nearby-2</code>; cells changed since it was made: <code>labels</code>; cells in "
            "it the page no longer has: <code>nearby</code>") in card.group(1)
    assert "--matrix docs/portability/01-agent-memory.md</code> makes it again" in card.group(1)
    assert "the portability matrix is stale" in built.stderr  # said, not a warning: strict builds pass


def test_an_unreadable_matrix_fails_a_strict_build(tmp_path):
    folder = with_matrices(tmp_path / "clone")
    (folder / "docs" / "portability" / "01-agent-memory.json").write_text("<<<<<<< HEAD\n", encoding="utf-8")
    built = mkdocs_build(folder, "--strict")
    assert built.returncode != 0
    assert "docs/portability/01-agent-memory.json cannot be read: JSONDecodeError" in built.stdout + built.stderr
