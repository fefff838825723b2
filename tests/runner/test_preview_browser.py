"""The preview as a reader sees it: the agent-memory page built with `mkdocs build`, opened in headless
Chromium (Debian's; skipped only when it is not installed), checked from the DOM.

Playwright drives the browser: it starts /usr/bin/chromium headless with a fresh profile of its own,
and every request that is not for the local server is refused, so nothing leaves the machine: mermaid's
script is the copy the package ships, and the diagrams are drawn with it. Screenshots are saved under
artifacts/preview/ in the checkout (ignored by git): the whole page, and the drifted cell.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from runner.check.compare import TableShape
from runner.mcp.recording import read_steps
from runner.page import Page, Trace, read_page
from tests.runner.helpers import COOKBOOK_PAGE, ROOT, agent_memory_page
from tests.runner.preview_site import (
    LABELS_ROW,
    TAMPERED_ROW,
    chromium,
    headless_chromium,
    mkdocs_build,
    site_copy,
    tamper,
)

pytestmark = pytest.mark.skipif(chromium() is None,
                                reason="needs Debian's chromium (apt-get install chromium)")

ARTIFACTS = ROOT / "artifacts" / "preview"
PAGE_URL = f"{COOKBOOK_PAGE.stem}/"
TABLES_JS = """tables => tables.map(table => ({
    columns: [...table.tHead.rows[0].cells].map(cell => cell.textContent),
    rows: [...table.tBodies[0].rows].map(row => [...row.cells].map(cell => cell.textContent)),
}))"""
VALUE_COLOURS_JS = """cells => {
    const colours = {};
    for (const cell of cells) {
        const kind = cell.classList.contains("cb-v-number") ? "number" : "string";
        colours[kind] = [...new Set([...(colours[kind] || []), getComputedStyle(cell).color])];
    }
    colours.text = getComputedStyle(cells[0].closest(".md-typeset")).color;
    return colours;
}"""
CELLS_JS = """cells => cells.map(cell => [cell.dataset.cell, cell.dataset.status,
                                   cell.querySelector('.cb-status').textContent])"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with headless_chromium() as browser:
        yield browser


@contextmanager
def served(site: Path) -> Iterator[str]:
    """The built site over HTTP on a free port of 127.0.0.1, for the length of the block."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    handler = functools.partial(Handler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def opened(browser: Any, site: Path) -> Iterator[Any]:
    """The agent-memory page of `site` in a new tab, its mermaid diagrams done."""
    with served(site) as url:
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        tab.route("**/*", lambda route: (route.continue_() if route.request.url.startswith(url)
                                         else route.abort()))
        errors: list[str] = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        tab.goto(url + PAGE_URL)
        tab.wait_for_function("document.documentElement.dataset.cbMermaid !== undefined")
        try:
            yield tab
        finally:
            tab.close()
        assert errors == []


def recorded_tables(page: Page) -> list[dict[str, Any]]:
    """Every table the page records, in page order, read with the runner's own readers: `table` blocks
    that have rows, and the steps of trace blocks that returned rows."""
    tables = []
    for cell in page.cells:
        if isinstance(cell, Trace):
            shapes = [(step.columns, step.rows) for step in read_steps(cell.text) if step.columns]
        elif cell.recorded is not None and cell.recorded.kind == "table":
            shape = TableShape.from_text(cell.recorded.text)
            shapes = [(shape.columns, shape.rows)] if shape.columns else []
        else:
            shapes = []
        tables += [{"columns": list(columns), "rows": [list(row) for row in rows]}
                   for columns, rows in shapes]
    return tables


@pytest.fixture(scope="module")
def live_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built as `COOKBOOK_LIVE=true mkdocs build --strict` builds it: every page run."""
    folder = site_copy(tmp_path_factory.mktemp("live"))
    built = mkdocs_build(folder, "--strict", COOKBOOK_LIVE="true")
    assert built.returncode == 0, built.stdout + built.stderr
    return folder / "site"


def test_the_agent_memory_page_reads_as_recorded(browser, live_site):
    page = agent_memory_page()
    with opened(browser, live_site) as tab:
        assert tab.locator("h1").first.inner_text().startswith("Long-term memory for an agent")
        card = tab.locator(".cb-card").inner_text()
        assert "Intermediate" in card and "Agent memory" in card and f"{len(page.cells)} passing" in card

        # every table is an HTML table holding the recorded values, and none is left as text
        assert tab.eval_on_selector_all("table.cb-table", TABLES_JS) == recorded_tables(page)
        assert tab.locator("pre.cb-text").count() == 0

        # numbers and strings are in the text's own colour (red reads as an error on this page)
        colours = tab.eval_on_selector_all("table.cb-table td:is(.cb-v-number, .cb-v-string)", VALUE_COLOURS_JS)
        assert colours["number"] == colours["string"] == [colours["text"]]

        # the mermaid diagrams are drawn as SVG
        diagrams = page.source.count("```mermaid")
        assert diagrams == 2
        assert tab.get_attribute("html", "data-cb-mermaid") == "done"
        assert tab.locator("pre.cb-mermaid").count() == 0
        assert tab.locator(".cb-mermaid-drawing > svg").count() == diagrams
        for index in range(diagrams):
            drawing = tab.locator(".cb-mermaid-drawing > svg").nth(index)
            assert drawing.locator("g.node").count() >= 5 and drawing.is_visible()

        # the setup cell is folded, its status in sight
        setup = tab.locator('details.cb-setup[data-cell="schema"]')
        assert setup.get_attribute("open") is None
        summary = setup.locator("summary")
        assert summary.is_visible() and "Show the setup step" in summary.inner_text()
        assert summary.locator(".cb-status").inner_text() == "passing"
        assert not setup.locator(".cb-cell .highlight").is_visible()

        # every cell shows "passing", on a badge a reader can see
        assert tab.eval_on_selector_all(".cb-cell[data-cell]", CELLS_JS) == [
            [cell.name, "passing", "passing"] for cell in page.cells]
        for cell in page.cells:
            head = summary if cell.setup else tab.locator(f'[id="cell-{cell.name}"] > .cb-cell-head')
            badge = head.locator(".cb-status")
            assert badge.is_visible() and badge.inner_text() == "passing", cell.name

        # the gram block is drawn beside its text
        gram = tab.locator(".cb-gram")
        assert gram.locator("svg.cb-graph .cb-graph-node").count() == 5
        assert gram.locator("pre.cb-gram-text").inner_text().startswith("// 2 rows")

        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(ARTIFACTS / f"{COOKBOOK_PAGE.stem}.png"), full_page=True)


def test_a_tampered_value_shows_the_cell_drifted_with_its_diff(browser, tmp_path):
    folder = site_copy(tmp_path / "clone")
    tamper(folder)
    built = mkdocs_build(folder)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "cell 'labels' drifted" in built.stderr
    with opened(browser, folder / "site") as tab:
        labels = tab.locator('[id="cell-labels"]')
        assert labels.get_attribute("data-status") == "drifted"
        badge = labels.locator(".cb-cell-head .cb-status")
        assert badge.is_visible() and badge.inner_text() == "drifted"
        diff = labels.locator("pre.cb-diff")
        assert diff.is_visible()
        assert f"-{TAMPERED_ROW}" in diff.inner_text() and f"+{LABELS_ROW}" in diff.inner_text()
        assert labels.locator("table.cb-table tbody tr").nth(1).inner_text().split() == ['"Entity"', "9"]
        others = tab.eval_on_selector_all(".cb-cell[data-cell]", CELLS_JS)
        drifted = [name for name, status, _ in others if status == "drifted"]
        assert drifted == ["labels"]
        assert "1 drifted" in tab.locator(".cb-card").inner_text()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        tab.evaluate("window.scrollTo(0, 0)")  # box in page coordinates, below the fixed header
        box = labels.bounding_box()
        assert box is not None
        clip = {"x": box["x"] - 8, "y": box["y"] - 8, "width": box["width"] + 16,
                "height": box["height"] + 16}
        tab.screenshot(path=str(ARTIFACTS / f"{COOKBOOK_PAGE.stem}-drifted-cell.png"), full_page=True,
                       clip=clip)
    assert read_page(folder / "cookbook" / COOKBOOK_PAGE.name).cell("labels") is not None
