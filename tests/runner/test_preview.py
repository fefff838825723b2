"""The preview's pieces without a browser: statuses from snapshots and from runs, the page's HTML, the gram
drawing, the index, and the MkDocs build (strict fails on drift)."""

from __future__ import annotations

import math
import re
import shutil
import tomllib
from collections import Counter
from fnmatch import fnmatch
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit
from xml.etree import ElementTree

import pytest

from runner.page import parse_page, read_page
from runner.preview import (
    ASSETS,
    DRIFTED,
    ERRORED,
    MERMAID,
    MERMAID_LICENSE,
    MERMAID_VERSION,
    NOT_RECORDED,
    NOT_RUN,
    PASSING,
    RECORDED,
    LiveRuns,
    PageStatus,
    Recipe,
    from_run,
    from_snapshot,
    index_markdown,
    preview_markdown,
    snapshot_path,
)
from runner.preview.graph import ARROW, RADIUS, Outline, gram_html, graph_svg, node_outline, read_gram
from runner.preview.tables import read_table
from runner.snapshot import cell_record, dump_snapshot
from tests.runner.helpers import COOKBOOK_PAGE, ROOT, agent_memory_page, recorded_text
from tests.runner.preview_site import LABELS_ROW, TAMPERED_ROW, mkdocs_build, site_copy, tamper

SNAPSHOT = ROOT / "snapshots" / "01-agent-memory.yml"


def tampered_page(tmp_path: Path) -> Path:
    """The agent-memory page with one recorded value changed: the `labels` table says 9 entities."""
    folder = tmp_path / "tampered"
    (folder / "cookbook").mkdir(parents=True)
    shutil.copy(COOKBOOK_PAGE, folder / "cookbook" / COOKBOOK_PAGE.name)
    return tamper(folder)


def states(status: PageStatus) -> dict[str, int]:
    return dict(Counter(item.state for item in status.cells.values()))


# -- statuses -------------------------------------------------------------------------------------------

def test_snapshot_mode_every_cell_passes_and_the_trace_shows_its_recording():
    status = from_snapshot(agent_memory_page(), SNAPSHOT, shown="snapshots/01-agent-memory.yml")
    page = agent_memory_page()
    traces = {cell.name for cell in page.cells if type(cell).__name__ == "Trace"}
    assert traces == {"session-2-calls"}
    assert {name: item.state for name, item in status.cells.items() if name not in traces} == {
        cell.name: PASSING for cell in page.cells if cell.name not in traces}
    trace = status.cells["session-2-calls"]
    assert trace.state == RECORDED  # not "not run": its steps ran when the page was recorded
    assert trace.detail.startswith("each step ran when the page was recorded. Live: `cookbook run`")
    assert "live mode" in trace.detail
    assert "snapshots/01-agent-memory.yml" in status.source
    assert status.problems() == []


def test_snapshot_mode_a_tampered_value_drifts_with_the_runners_diff(tmp_path):
    page = read_page(tampered_page(tmp_path))
    status = from_snapshot(page, SNAPSHOT)
    labels = status.cells["labels"]
    assert labels.state == DRIFTED
    assert f"-{TAMPERED_ROW}" in labels.detail and f"+{LABELS_ROW}" in labels.detail
    assert "rows differ" in labels.detail
    assert [item.name for item in status.problems()] == ["labels"]
    assert status.cells["recall"].state == PASSING


def test_snapshot_mode_without_a_snapshot_nothing_has_run(tmp_path):
    status = from_snapshot(agent_memory_page(), tmp_path / "missing.yml")
    assert states(status) == {NOT_RUN: 11, RECORDED: 1}  # the trace's recording is on the page itself
    assert "no snapshot file" in status.cells["recall"].detail


def test_snapshot_mode_an_unreadable_snapshot_is_a_problem_of_the_page(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text("<<<<<<< HEAD\nformat: 1\n", encoding="utf-8")
    status = from_snapshot(agent_memory_page(), broken, shown="broken.yml")
    assert status.errors and status.errors[0].startswith("broken.yml cannot be read")
    assert states(status) == {NOT_RUN: 11, RECORDED: 1}


def test_snapshot_mode_a_cell_without_a_recording_shows_the_snapshots_result(tmp_path):
    page = parse_page("# P\n\n```cypher cell=two\nRETURN 1 + 1 AS two\n```\n", tmp_path / "p.md")
    import engine
    from runner.result import CellResult

    with engine.connect(":memory:") as connection:
        result = CellResult.from_results(connection.execute_script("RETURN 1 + 1 AS two"))
    snapshot = tmp_path / "p.yml"
    snapshot.write_text(dump_snapshot("p.md", {"two": cell_record(result)}), encoding="utf-8")
    status = from_snapshot(page, snapshot).cells["two"]
    assert (status.state, status.result_kind) == (NOT_RECORDED, "table")
    assert "| 2   |" in (status.result or "")
    assert "<td" in preview_markdown(page, from_snapshot(page, snapshot))


def test_live_mode_errored_and_skipped_cells(tmp_path):
    page = parse_page("# P\n\n```cypher cell=bad\nRETURN nope(1)\n```\n\n```table\n1 row\n```\n\n"
                      "```cypher cell=after\nRETURN 1 AS one\n```\n", tmp_path / "p.md")
    status = from_run(page)
    assert status.cells["bad"].state == ERRORED and "nope" in status.cells["bad"].detail
    assert status.cells["after"].state == NOT_RUN
    html = preview_markdown(page, status)
    assert 'data-status="errored"' in html and 'class="cb-error"' in html


SMALL_PAGE = """# Numbers

```cypher cell=numbers
UNWIND [3, 1, 2] AS n
RETURN n ORDER BY n
```

```table
| n |
|---|
| 1 |
| 2 |
| 3 |
3 rows
```
"""


def test_live_runs_are_cached_by_page_content(tmp_path):
    cache = LiveRuns(tmp_path / "cache")
    page = parse_page(SMALL_PAGE, tmp_path / "numbers.md")
    first = cache.statuses(page)
    assert first.cells["numbers"].state == PASSING
    assert cache.statuses(parse_page(SMALL_PAGE, tmp_path / "numbers.md")) is first
    assert cache.runs == 1
    again = LiveRuns(tmp_path / "cache")
    assert again.statuses(page).cells == first.cells and again.runs == 0  # read from the files
    edited = parse_page(SMALL_PAGE.replace("| 2 |", "| 5 |"), page.path)
    assert cache.statuses(edited).cells["numbers"].state == DRIFTED
    assert cache.runs == 2


def test_snapshot_path_mirrors_the_page_below_its_folder():
    assert snapshot_path(COOKBOOK_PAGE, ROOT / "cookbook", ROOT / "snapshots") == SNAPSHOT


# -- the page as HTML -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def page_html() -> str:
    page = agent_memory_page()
    return preview_markdown(page, from_snapshot(page, SNAPSHOT, shown="snapshots/01-agent-memory.yml"))


def test_no_fence_of_ours_is_left_for_markdown(page_html):
    assert not re.search(r"^\s*```", page_html, re.MULTILINE)
    assert "---\ntitle:" not in page_html


def test_cells_show_name_parameters_link_and_status(page_html):
    recall = re.search(r'<div class="cb-cell cb-cell--passing" id="cell-recall".*?</div>', page_html,
                       re.DOTALL)
    assert recall is not None
    assert 'href="#data-question"' in recall.group(0)
    assert '<span class="cb-status cb-status--passing">passing</span>' in recall.group(0)
    assert 'id="data-question"' in page_html


def test_the_setup_cell_is_folded(page_html):
    folded = re.search(r'<details class="cb-setup" data-cell="schema"><summary>(.*?)</summary>', page_html,
                       re.DOTALL)
    assert folded is not None and "Show the setup step" in folded.group(1) and "passing" in folded.group(1)
    assert "<details class=\"cb-setup\" data-cell=\"schema\" open" not in page_html


def test_data_blocks_fold_unless_the_author_folded_them(page_html):
    assert '<details class="cb-data" id="data-question">' in page_html
    assert '<div class="cb-data" id="data-session-1">' in page_html  # inside the page's own <details>


def test_tables_are_html_tables_with_the_recorded_values(page_html):
    table = read_table(recorded_text(agent_memory_page(), "labels"))
    assert table.columns == ["label", "nodes"] and table.rows[1] == ('"Entity"', "8")
    assert '<th>label</th><th>nodes</th>' in page_html
    row = '<td class="cb-v-string cb-short">&quot;Entity&quot;</td><td class="cb-v-number cb-short">8</td>'
    assert row in page_html


def test_values_in_tables_are_in_the_texts_colour():
    """Red and green say failed and passed on a preview page, and Material's colour for numbers is red: no
    rule of the stylesheet gives a number, string or boolean in a table a colour of its own."""
    css = re.sub(r"/\*.*?\*/", "", (ASSETS / "preview.css").read_text(encoding="utf-8"), flags=re.DOTALL)
    rules = re.findall(r"([^{}]+)\{([^{}]*)\}", css)
    assert any("cb-v-null" in selector for selector, _ in rules)  # the rules were read
    coloured = [selector.strip() for selector, body in rules
                if re.search(r"\.cb-v-(?:number|string|boolean)\b", selector)
                and re.search(r"(?:^|;)\s*color\s*:", body)]
    assert coloured == []


def test_front_matter_is_a_card_under_the_heading(page_html):
    heading = page_html.index("# Long-term memory for an agent")
    card = page_html.index('<div class="cb-card">')
    assert heading < card < page_html.index('<pre class="cb-mermaid">')
    for text in ("Intermediate", "Agent memory", "quantified path patterns", "Apache-2.0", "Licence",
                 "11 passing", "1 recorded"):
        assert text in page_html


def test_the_traces_note_says_it_is_a_recording_with_commands_as_code(page_html):
    trace = page_html[page_html.index('id="cell-session-2-calls"'):]
    trace = trace[:trace.index("</div>\n")]
    assert 'data-status="recorded"' in trace and ">recorded</span>" in trace and "not run" not in trace
    note = re.search(r'<p class="cb-note">(.*?)</p>', trace)
    assert note is not None
    assert note.group(1).startswith("Recorded: each step ran when the page was recorded. Live: "
                                    "<code>cookbook run</code> and pytest replay every call")
    assert "<code>COOKBOOK_LIVE=true mkdocs serve</code>" in note.group(1) and "`" not in note.group(1)


def test_a_not_run_note_shows_its_command_as_code(tmp_path):
    status = from_snapshot(agent_memory_page(), tmp_path / "missing.yml")
    html = preview_markdown(agent_memory_page(), status)
    notes = re.findall(r'<p class="cb-note">(Not run: .*?)</p>', html)
    assert len(notes) == len(agent_memory_page().cells) - 1  # the trace is a recording
    assert all("<code>pytest --force-regen</code>" in note and "`" not in note for note in notes)


def test_mermaid_blocks_are_left_for_the_script(page_html):
    assert page_html.count('<pre class="cb-mermaid">') == 2
    assert "flowchart LR" in page_html


def test_a_drifted_cell_shows_its_diff(tmp_path):
    page = read_page(tampered_page(tmp_path))
    html = preview_markdown(page, from_snapshot(page, SNAPSHOT))
    labels = html[html.index('id="cell-labels"'):]
    labels = labels[:labels.index("</div>\n")]
    assert 'data-status="drifted"' in labels and ">drifted</span>" in labels
    assert '<span class="cb-diff-del">-| &quot;Entity&quot;   | 9     |</span>' in labels
    assert '<span class="cb-diff-add">+| &quot;Entity&quot;   | 8     |</span>' in labels


# -- gram -----------------------------------------------------------------------------------------------

def test_gram_blocks_are_read_back_into_a_graph():
    graph = read_gram(recorded_text(agent_memory_page(), "chains"))
    assert sorted(graph.nodes) == ["n14", "n19", "n25", "n26", "n5"]
    assert graph.nodes["n5"].labels == ["Entity"] and graph.nodes["n5"].caption == "orders service"
    relationships = {key: (item.type, item.start, item.end) for key, item in graph.relationships.items()}
    assert relationships == {"r51": ("ABOUT", "n26", "n5"), "r53": ("SUPERSEDES", "n26", "n19"),
                             "r48": ("ABOUT", "n25", "n5"), "r54": ("SUPERSEDES", "n25", "n14")}


def test_gram_html_draws_the_graph_beside_the_text():
    text = recorded_text(agent_memory_page(), "chains")
    html = gram_html(text)
    assert html.count('class="cb-graph-node"') == 5 and html.count('class="cb-graph-rel"') == 4
    assert html.index("<svg") < html.index('<pre class="cb-gram-text">')
    assert html == gram_html(text)  # the same block, the same drawing
    assert "<svg" not in gram_html("// 1 row\nnot gram\n")


STAR = """// 7 rows
(n0:Service {name: "orders service"})-[r1:CALLS]->(n1:Service {name: "billing service for invoices"})
(n0)<-[r2:OWNS]-(n2:Person {name: "Alice"})
(n0)-[r3:USES]->(n3:Technology {name: "Postgres"})
(n0)<-[r4:MENTIONS]-(n4:Message {text: "Update: Postgres failover was too slow"})
(n0)-[r5:PUBLISHES]->(n5:Topic {name: "OrderPlaced"})
(n1)-[r6:CALLS]->(n0)
(n2)-[r7:KNOWS]->(n2)
"""
"""Relationships in every direction, two between one pair (one drawn bowed), a loop, long captions."""
SVG = "{http://www.w3.org/2000/svg}"


def drawn_arrows(text: str) -> tuple[ElementTree.Element, list[tuple[str, str, list[float]]]]:
    """The drawing of a gram block, and each relationship between two nodes as (start node, end node,
    [x0, y0, control x, control y, x1, y1]) read from its path."""
    svg = ElementTree.fromstring(graph_svg(read_gram(text)))
    arrows = []
    for group in svg.iter(f"{SVG}g"):
        if group.get("class") == "cb-graph-rel" and group.get("data-start") != group.get("data-end"):
            path = group.find(f"{SVG}path")
            assert path is not None
            numbers = [float(number) for number in re.findall(r"-?\d+(?:\.\d+)?", path.get("d", ""))]
            arrows.append((group.get("data-start", ""), group.get("data-end", ""), numbers))
    return svg, arrows


def outside(point: tuple[float, float], outline: Outline) -> bool:
    x, y = point
    box = outline.caption
    return (math.dist(point, outline.centre) > RADIUS
            and not (box.left <= x <= box.right and box.top <= y <= box.bottom))


@pytest.mark.parametrize("text", [recorded_text(agent_memory_page(), "chains"), STAR], ids=["chains", "star"])
def test_arrowheads_stop_short_of_the_nodes_and_their_names(text):
    svg, arrows = drawn_arrows(text)
    marker = svg.find(f"{SVG}defs/{SVG}marker")
    assert marker is not None
    # the arrowhead's tip is the path's end, and it is ARROW long and wide in the drawing's units
    assert (marker.get("refX"), marker.get("viewBox"), marker.get("markerUnits")) == (
        "10", "0 0 10 10", "userSpaceOnUse")
    assert float(marker.get("markerWidth", 0)) == float(marker.get("markerHeight", 0)) == ARROW
    graph = read_gram(text)
    outlines = {}
    for group in svg.iter(f"{SVG}g"):
        if group.get("class") == "cb-graph-node":
            circle, caption = group.find(f"{SVG}circle"), group.findall(f"{SVG}text")[-1]
            assert circle is not None
            node = group.get("data-node", "")
            outlines[node] = node_outline(graph.nodes[node], (float(circle.get("cx", 0)), float(circle.get("cy", 0))))
            box = outlines[node].caption  # the box holds the caption as drawn: centred on it, its baseline inside
            assert box.left < float(caption.get("x", 0)) < box.right
            assert box.top < float(caption.get("y", 0)) <= box.bottom
            assert box.right - box.left >= 6 * len(caption.text or "")
    assert len(arrows) == len(graph.relationships) - text.count("(n2)-[r7:KNOWS]->(n2)")
    for start, end, (x0, y0, cx, cy, x1, y1) in arrows:
        back = math.dist((cx, cy), (x1, y1))
        ux, uy = (cx - x1) / back, (cy - y1) / back  # from the tip back along the arrowhead
        base = (x1 + ux * ARROW, y1 + uy * ARROW)
        corners = [(base[0] - uy * ARROW / 2, base[1] + ux * ARROW / 2),
                   (base[0] + uy * ARROW / 2, base[1] - ux * ARROW / 2)]
        for point in [(x1, y1), base, *corners]:
            assert outside(point, outlines[end]), (start, end, point)
        assert outside((x0, y0), outlines[start]), (start, end)
        # it points at its end node: the tip is nearer to it than the base is
        assert math.dist((x1, y1), outlines[end].centre) < math.dist(base, outlines[end].centre)


# -- the index and the site -----------------------------------------------------------------------------

def test_the_index_lists_recipes_by_category_then_level():
    recipes = [Recipe("b.md", {"title": "B", "category": "Search", "level": "Advanced"}),
               Recipe("a.md", {"title": "A", "category": "Search", "level": "Beginner", "summary": "S | s"}),
               Recipe("c.md", {"title": "C", "category": "Agent memory", "level": "Intermediate",
                               "features": ["MERGE"]}),
               Recipe("d.md", {})]
    text = index_markdown(recipes)
    assert [line for line in text.splitlines() if line.startswith("## ")] == [
        "## Agent memory", "## Search", "## Other recipes"]
    assert text.index("[A](a.md)<br>S \\| s") < text.index("[B](b.md)")
    assert "| [C](c.md) | Intermediate | MERGE |" in text and "[d](d.md)" in text


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The cookbook's site as `mkdocs build --strict` builds it from a fresh clone, with mkdocs.yml as is."""
    folder = site_copy(tmp_path_factory.mktemp("clone"))
    built = mkdocs_build(folder, "--strict")
    assert built.returncode == 0, built.stderr
    return folder / "site"


def test_mkdocs_build_strict_builds_the_site(built_site):
    index = (built_site / "index.html").read_text(encoding="utf-8")
    assert "Agent memory" in index and "Long-term memory for an agent" in index
    page = (built_site / "01-agent-memory" / "index.html").read_text(encoding="utf-8")
    assert 'class="cb-card"' in page and "cypher cell=" not in page
    assert (built_site / "assets" / "cookbook" / "preview.css").is_file()


class LoadedUrls(HTMLParser):
    """What a page makes the browser fetch: every `src`, and the `href` of every `<link>` (a stylesheet, an
    icon, a preload); an `<a href>` is a link a reader may follow, not a load. `mermaid` counts elements of
    class `mermaid`, for which Material's own script would fetch mermaid from its CDN."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.mermaid = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        self.urls += [value for name, value in attrs if value and (name == "src" or (tag, name) == ("link", "href"))]
        self.mermaid += "mermaid" in (values.get("class") or "").split()


def test_the_built_site_loads_nothing_from_another_host(built_site):
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) >= 4
    scripts = []
    for page in pages:
        loaded = LoadedUrls()
        loaded.feed(page.read_text(encoding="utf-8"))
        outside = [url for url in loaded.urls if urlsplit(url).scheme or url.startswith("//")]
        assert outside == [], page
        assert loaded.mermaid == 0, page
        scripts += [url for url in loaded.urls if url.endswith("mermaid.min.js")]
    assert scripts and {url.rsplit("/", 1)[-1] for url in scripts} == {"mermaid.min.js"}
    served = built_site / "assets" / "cookbook"
    assert (served / "mermaid.min.js").read_bytes() == MERMAID.read_bytes()
    assert (served / "mermaid.LICENSE").read_text(encoding="utf-8") == MERMAID_LICENSE.read_text(encoding="utf-8")


def test_the_shipped_mermaid_is_the_pinned_release_with_its_licence():
    assert f'name:"mermaid",version:"{MERMAID_VERSION}"' in MERMAID.read_text(encoding="utf-8")
    licence = MERMAID_LICENSE.read_text(encoding="utf-8")
    assert licence.startswith("The MIT License") and "Knut Sveidqvist" in licence


def test_the_preview_assets_are_package_data():
    """An installed wheel has what the plugin serves: each asset matches a `package-data` pattern."""
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"]["runner"]
    package = ROOT / "runner"
    assets = sorted(path.relative_to(package) for path in ASSETS.iterdir())
    assert {MERMAID.relative_to(package), MERMAID_LICENSE.relative_to(package)} <= set(assets)
    assert [path for path in assets if not any(fnmatch(path.as_posix(), pattern) for pattern in patterns)] == []


def test_mkdocs_strict_fails_on_drift(tmp_path):
    folder = site_copy(tmp_path / "clone")
    tamper(folder)
    lenient = mkdocs_build(folder)
    assert lenient.returncode == 0, lenient.stderr
    assert "cell 'labels' drifted" in lenient.stderr
    strict = mkdocs_build(folder, "--strict")
    assert strict.returncode != 0
    output = strict.stdout + strict.stderr
    assert "cell 'labels' drifted" in output and "Aborted with 1 warnings in strict mode" in output


def test_a_recorded_block_apart_from_its_cell_links_back_to_it(tmp_path):
    source = ("# P\n\n```cypher cell=one\nRETURN 1 AS one\n```\n\nThe result:\n\n```table\n| one |\n|-----|\n"
              "| 1   |\n1 row\n```\n\n- a list item\n\n  ```cypher\n  RETURN 2\n  ```\n")
    page = parse_page(source, tmp_path / "p.md")
    html = preview_markdown(page, from_run(page))
    assert '<div class="cb-record" data-record="one">' in html and 'href="#cell-one"' in html
    assert html.index('id="cell-one"') < html.index("The result:") < html.index("<th>one</th>")
    assert "  ```cypher\n  RETURN 2\n  ```" in html  # a fence in a list item stays Markdown
