"""The pages benchmark's harness (`python -m bench.pages`), on a two-page site: the typical page has ten
cells and records cleanly, and every runner it times passes on the recorded site. No time is asserted."""

from __future__ import annotations

from bench.pages import RUNNERS, build_site, run_checked, typical_page
from runner.page import parse_page


def test_the_typical_page_has_ten_cells_one_of_them_an_error_cell():
    page = parse_page(typical_page(), "typical.md")
    assert not page.errors and not page.warnings
    assert len(page.cells) == 10
    assert [cell.name for cell in page.cells if cell.expects_error] == ["unknown"]


def test_every_timed_runner_passes_on_the_recorded_site(tmp_path):
    names = build_site(tmp_path, 2)
    assert sorted(path.name for path in (tmp_path / "snapshots").iterdir()) == ["p000.yml", "p001.yml"]
    recorded = (tmp_path / names[0]).read_text()
    assert (recorded.count("```table"), recorded.count("```error")) == (9, 1)  # every cell recorded
    for runner in RUNNERS:
        run_checked(tmp_path, [*runner.command, *names])  # raises unless the run passes
