"""Live pages as an author uses them: `mkdocs serve` on a copy of the cookbook, the agent-memory page opened
in headless Chromium (Debian's; skipped only when it is not installed), its buttons clicked.

The plugin starts the live endpoint because it serves; every request the page makes that is not for this
machine is refused. Run gives a cell's recorded result, an edited statement or parameters give another
one with the diff against the recording, and Step and Play all send the trace's calls, each step's
result the recorded one. Screenshots go to artifacts/preview/ (ignored by git).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from runner.check.compare import TableShape
from runner.mcp.recording import read_steps
from runner.page import Trace
from tests.runner.helpers import COOKBOOK_PAGE, ROOT, agent_memory_page
from tests.runner.preview_site import chromium, headless_chromium, mkdocs_build, site_copy

pytestmark = pytest.mark.skipif(chromium() is None,
                                reason="needs Debian's chromium (apt-get install chromium)")

ARTIFACTS = ROOT / "artifacts" / "preview"
TABLES_JS = """tables => tables.map(table => ({
    columns: [...table.tHead.rows[0].cells].map(cell => cell.textContent),
    rows: [...table.tBodies[0].rows].map(row => [...row.cells].map(cell => cell.textContent)),
}))"""
TRACE = "session-2-calls"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`mkdocs serve` of a copy of the cookbook, as an author starts it; its address."""
    folder = site_copy(tmp_path_factory.mktemp("serve"))
    port = free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith("COOKBOOK_")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    log = (folder / "serve.log").open("w")
    process = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-f", str(folder / "mkdocs.yml"),
                                "-a", f"127.0.0.1:{port}", "--no-livereload"],
                               cwd=folder, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert process.poll() is None, (folder / "serve.log").read_text()
            try:
                with urllib.request.urlopen(url + f"{COOKBOOK_PAGE.stem}/", timeout=5):
                    break
            except OSError:
                assert time.monotonic() < deadline, (folder / "serve.log").read_text()
                time.sleep(0.5)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


@pytest.fixture(scope="module")
def tab(served: str) -> Iterator[Any]:
    with headless_chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.route("**/*", lambda route: (route.continue_() if route.request.url.startswith("http://127.0.0.1:")
                                          else route.abort()))
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(served + f"{COOKBOOK_PAGE.stem}/")
        page.wait_for_function("document.documentElement.dataset.cbLive === 'ready'")
        yield page
        page.close()
        assert errors == []


def recorded_table(cell: str) -> dict[str, Any]:
    found = agent_memory_page().cell(cell)
    assert found is not None and found.recorded is not None
    shape = TableShape.from_text(found.recorded.text)
    return {"columns": list(shape.columns or []), "rows": [list(row) for row in shape.rows]}


def recorded_steps() -> list[dict[str, Any]]:
    trace = agent_memory_page().cell(TRACE)
    assert isinstance(trace, Trace)
    return [{"columns": list(step.columns), "rows": [list(row) for row in step.rows]}
            for step in read_steps(trace.text) if step.columns]


def run(tab: Any, cell: str, button: str = ".cb-live-run") -> Any:
    """Click a cell's (or trace's) button and wait for its answer; its live panel."""
    panel = tab.locator(f'[id="cell-{cell}"] > .cb-live')
    before = panel.evaluate("node => [node.dataset.live, node.dataset.step, node.querySelector('.cb-live-output')"
                            ".innerHTML]")
    panel.locator(button).click()
    tab.wait_for_function("""([cell, before]) => {
        const node = document.querySelector(`[id="cell-${cell}"] > .cb-live`);
        const now = [node.dataset.live, node.dataset.step, node.querySelector('.cb-live-output').innerHTML];
        return !node.dataset.busy && node.dataset.live && JSON.stringify(now) !== JSON.stringify(before);
    }""", arg=[cell, before], timeout=60_000)
    return panel


def live_tables(panel: Any) -> list[dict[str, Any]]:
    return panel.locator(".cb-live-output").evaluate(
        f"output => ({TABLES_JS})([...output.querySelectorAll('table.cb-table')])")


def test_run_gives_a_cell_its_recorded_result(tab):
    panel = run(tab, "labels")
    assert panel.get_attribute("data-live") == "same"
    assert panel.locator(".cb-live-state").inner_text() == "same as the recording"
    assert live_tables(panel) == [recorded_table("labels")]
    assert panel.locator("pre.cb-diff").count() == 0

    gram = run(tab, "chains")  # a gram block, drawn as the recorded one is
    assert gram.get_attribute("data-live") == "same"
    assert gram.locator(".cb-live-output svg.cb-graph .cb-graph-node").count() == 5


def test_an_edited_statement_shows_its_drift_and_reset_brings_the_page_back(tab):
    cell = tab.locator('[id="cell-labels"]')
    cell.locator(".cb-live-edit-toggle").click()
    statement = cell.locator("textarea.cb-live-statement")
    original = statement.input_value()
    assert original.rstrip() == agent_memory_page().cell("labels").text.rstrip()
    statement.fill(original.replace("MATCH (n)", "MATCH (n) WHERE NOT n:Session"))
    panel = run(tab, "labels")
    assert panel.get_attribute("data-live") == "differs"
    diff = panel.locator("pre.cb-diff")
    assert diff.is_visible()
    assert '-| "Session"  | 1     |' in diff.inner_text()
    recorded_at = agent_memory_page().cell("labels").recorded.line
    assert diff.inner_text().startswith(f"cookbook/{COOKBOOK_PAGE.name}:{recorded_at}: cell 'labels' drifted")
    assert [row[0] for row in live_tables(panel)[0]["rows"]] == ['"Decision"', '"Entity"', '"Fact"', '"Message"']
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    cell.screenshot(path=str(ARTIFACTS / f"{COOKBOOK_PAGE.stem}-live-drift.png"))

    cell.locator(".cb-live-reset-text").click()
    assert statement.input_value() == original
    assert run(tab, "labels").get_attribute("data-live") == "same"

    statement.fill(original.replace("count(*) AS nodes", "count(*) AS n"))  # Ctrl+Enter runs it too
    statement.press("Control+Enter")
    tab.wait_for_function("""() => document.querySelector('[id="cell-labels"] > .cb-live')
                                 .dataset.live === 'differs'""", timeout=60_000)
    assert "columns differ" in panel.locator("pre.cb-diff").inner_text()
    cell.locator(".cb-live-reset-text").click()


def test_edited_parameters_run_the_cell_on_them(tab):
    cell = tab.locator('[id="cell-recall"]')
    cell.locator(".cb-live-edit-toggle").click()
    params = cell.locator("textarea.cb-live-params")
    assert '"What do you remember about the orders service?"' in params.input_value()
    params.fill('{"question": "What do you remember about the billing service?"}')
    panel = run(tab, "recall")
    assert panel.get_attribute("data-live") == "differs"
    assert [row[1] for row in live_tables(panel)[0]["rows"]] == [
        '"The billing service consumes OrderPlaced events from the orders service."',
        '"Bob is on call for the billing service."']
    assert "-5 rows" in panel.locator("pre.cb-diff").inner_text()

    params.fill('{"question": ')  # not JSON: an error, said where
    broken = run(tab, "recall")
    assert broken.get_attribute("data-live") == "error"
    assert "the parameters are not JSON" in broken.locator("pre.cb-error").inner_text()


def test_step_and_play_all_replay_the_trace_as_recorded(tab):
    steps = recorded_steps()
    panel = run(tab, TRACE, ".cb-live-step")
    assert panel.get_attribute("data-live") == "same" and panel.get_attribute("data-step") == "1"
    assert panel.locator(".cb-live-state").inner_text() == "step 1 of 7 · same as the recording"
    assert live_tables(panel) == steps[:1]

    panel = run(tab, TRACE, ".cb-live-step")
    assert panel.get_attribute("data-step") == "2" and panel.get_attribute("data-live") == "same"

    panel = run(tab, TRACE, ".cb-live-play")
    assert panel.get_attribute("data-step") == "7" and panel.get_attribute("data-live") == "same"
    assert "the database is emptied" in panel.locator(".cb-live-state").inner_text()
    assert live_tables(panel) == steps
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.locator(f'[id="cell-{TRACE}"]').screenshot(path=str(ARTIFACTS / f"{COOKBOOK_PAGE.stem}-live-trace.png"))

    # the trace emptied the database: a cell after it runs on what the cells before it write
    again = run(tab, "recall-again")
    assert again.get_attribute("data-live") == "same"
    assert live_tables(again) == [recorded_table("recall-again")]


def test_the_endpoint_refuses_a_request_without_the_pages_token(served):
    page = urllib.request.urlopen(served + f"{COOKBOOK_PAGE.stem}/", timeout=10).read().decode()
    endpoint = page.split('data-endpoint="', 1)[1].split('"', 1)[0]
    assert endpoint.startswith("http://127.0.0.1:")
    request = urllib.request.Request(endpoint, data=b'{"page": "01-agent-memory.md", "request": {"op": "reset"}}',
                                     headers={"Content-Type": "application/json"}, method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 403


def test_a_built_site_has_no_endpoint(tmp_path: Path):
    folder = site_copy(tmp_path / "built")
    built = mkdocs_build(folder)
    assert built.returncode == 0, built.stdout + built.stderr
    html = (folder / "site" / COOKBOOK_PAGE.stem / "index.html").read_text(encoding="utf-8")
    assert 'class="cb-live-page" data-page="01-agent-memory.md" hidden' in html
    assert "data-endpoint" not in html
