"""A page and its cells' statuses → the Markdown a site generator renders: the page's prose as it is,
every fenced block it owns replaced by an HTML block.

Python-Markdown (MkDocs) does not read ```` ```cypher cell=recall params=question ```` as a code block,
nor fences inside `<details>`, so nothing is left to it: each top-level fence becomes HTML here, one
renderer per kind (FENCE_RENDERERS), and Python-Markdown passes HTML blocks through untouched.

- a cell: its name, its parameters (a link to the data block), its status badge, the highlighted
  Cypher, and its recorded block right after it (with the diff when it drifted). A setup cell is
  folded behind "Show the setup step".
- a data block folds behind its name and size (unless an author's `<details>` already folds it).
- `table` blocks become HTML tables, `gram` blocks a drawing with the text beside it, `error` blocks
  (the error a cell marked `error` raises) the error's first line over its message, `trace` blocks
  one table per step; `mermaid` blocks are left for mermaid's script (`assets/preview.js`).
- any other fence is highlighted code.
- the front matter becomes a card under the page's first heading.
- with the page's portability matrix (`portability`), each cell says under it what each other database
  gave (`FalkorDB: same · ArcadeDB: differs`), each verdict's note on hover and behind "why"; the card
  names the matrix and says what in it is stale.

Fences indented in a list item or quoted in a block quote stay Markdown, with their info string cut to
its language word so Python-Markdown reads them as code.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from typing import Any

from markdown_it import MarkdownIt

from runner.mcp.recording import STEP_HEADER, split_seen
from runner.page.front_matter import find_front_matter
from runner.page.info_string import parse_info_string
from runner.page.markdown import find_fences, split_lines
from runner.page.model import Cell, DataBlock, Fence, Page, RecordedBlock, Trace
from runner.preview.graph import gram_html
from runner.preview.portability import CellPortability, PagePortability, Verdict
from runner.preview.status import DRIFTED, ERRORED, NOT_RECORDED, NOT_RUN, RECORDED, CellStatus, PageStatus
from runner.preview.tables import block_html, read_table, table_html

ATX_H1 = re.compile(r"^ {0,3}#(?:[ \t]+|$)")
CARD_FIELDS = {
    "level": "Level",
    "category": "Category",
    "features": "Features",
    "dataset": "Dataset",
    "source": "Source",
    "license": "Licence",
    "browser": "In the browser",
}
"""Front matter field → its name on the page's card, in the card's order (title and summary are the
page's heading and the index's text)."""
NOTES = {NOT_RUN: "Not run", RECORDED: "Recorded"}
"""Statuses whose reason is said under the cell, in a note that starts with these words."""
INLINE = MarkdownIt("zero").enable("backticks")


@dataclass
class Preview:
    """What one rendering needs: the page, the statuses, and the fences of the page by opening line."""

    page: Page
    status: PageStatus
    lines: list[str]
    cells: dict[int, Cell] = field(default_factory=dict)
    records: dict[int, Cell] = field(default_factory=dict)
    data: dict[int, DataBlock] = field(default_factory=dict)
    folded: set[int] = field(default_factory=set)
    """Opening lines of fences inside an author's `<details>`: already folded."""
    portability: PagePortability | None = None

    def status_of(self, cell: Cell) -> CellStatus:
        found = self.status.cells.get(cell.name)
        return found or CellStatus(cell.name, NOT_RUN, "the page's run stopped before it")

    def users_of(self, data: str) -> list[Cell]:
        return [cell for cell in self.page.cells
                if cell.params == data or (isinstance(cell, Trace) and cell.calls == data)]


def preview_markdown(page: Page, status: PageStatus, portability: PagePortability | None = None) -> str:
    """The page as Markdown with HTML blocks (see the module docstring)."""
    lines = split_lines(page.source.removeprefix("\ufeff"))
    found = find_front_matter(lines)
    scan = [""] * (found[1] + 1) + lines[found[1] + 1:] if found else lines
    fences = find_fences(scan)
    preview = Preview(page, status, lines, portability=portability)
    for cell in page.cells:
        preview.cells[cell.line] = cell
        if cell.recorded is not None and not isinstance(cell, Trace):
            preview.records[cell.recorded.line] = cell
    preview.data = {block.line: block for block in page.data.values()}
    preview.folded = _inside_details(scan, fences)

    out: list[str] = []
    skip_to = found[1] + 1 if found else 0
    card_at = _first_heading(scan, fences)
    by_line = {fence.line: fence for fence in fences}
    if card_at is None:
        out.extend(["", card_html(preview), ""])
    index = skip_to
    while index < len(lines):
        number = index + 1
        fence = by_line.get(number)
        if fence is None:
            out.append(lines[index])
            if card_at == number:
                out.extend(["", card_html(preview), ""])
            index += 1
            continue
        if fence.prefix:
            out.append(_normalised_opening(lines[index], fence))
            index += 1
            continue
        html, last = _fence_html(preview, fence, by_line)
        out.extend(["", html, ""])
        index = last
    return "\n".join(out) + "\n"


def _fence_html(preview: Preview, fence: Fence, by_line: dict[int, Fence]) -> tuple[str, int]:
    """The HTML for the fence opening on `fence.line`, and the 0-based index of the line after what it
    replaced (a cell takes its recorded block along when only blank lines stand between them)."""
    cell = preview.cells.get(fence.line)
    if cell is not None and not isinstance(cell, Trace):
        record = cell.recorded
        if record is not None and _adjacent(preview.lines, fence, record.fence):
            return cell_html(preview, cell, with_record=True), record.fence.end_line
        return cell_html(preview, cell, with_record=False), fence.end_line
    if cell is not None:
        return trace_html(preview, cell), fence.end_line
    owner = preview.records.get(fence.line)
    if owner is not None and owner.recorded is not None:
        return record_html(preview, owner, owner.recorded), fence.end_line
    data = preview.data.get(fence.line)
    if data is not None:
        return data_html(preview, data), fence.end_line
    language = parse_info_string(fence.info).language
    render = FENCE_RENDERERS.get(language, code_html)
    return render(fence.content, language), fence.end_line


def _adjacent(lines: list[str], cell: Fence, record: Fence) -> bool:
    return cell.closed and all(not line.strip() for line in lines[cell.end_line:record.line - 1])


def _normalised_opening(line: str, fence: Fence) -> str:
    language = parse_info_string(fence.info).language
    return line.replace(fence.info, language, 1) if fence.info else line


def _inside_details(lines: list[str], fences: list[Fence]) -> set[int]:
    """The opening lines of fences that stand inside an HTML `<details>` element of the author's."""
    inside, depth, position = set(), 0, 0
    for fence in fences:
        for line in lines[position:fence.line - 1]:
            depth += len(re.findall(r"<details\b", line, re.IGNORECASE))
            depth -= len(re.findall(r"</details\s*>", line, re.IGNORECASE))
        if depth > 0:
            inside.add(fence.line)
        position = fence.end_line
    return inside


def _first_heading(lines: list[str], fences: list[Fence]) -> int | None:
    in_fence = {number for fence in fences for number in range(fence.line, fence.end_line + 1)}
    return next((number for number, line in enumerate(lines, start=1)
                 if number not in in_fence and ATX_H1.match(line)), None)


# -- cells ----------------------------------------------------------------------------------------------

def status_badge(status: CellStatus) -> str:
    title = f' title="{escape(_first_line(status.detail).replace("`", ""))}"' if status.detail else ""
    return f'<span class="cb-status cb-status--{status.css}"{title}>{escape(status.state)}</span>'


def cell_html(preview: Preview, cell: Cell, *, with_record: bool) -> str:
    status = preview.status_of(cell)
    params = ""
    if cell.params:
        params = (f'<span class="cb-cell-params">params <a href="#data-{escape(cell.params)}">'
                  f"<code>{escape(cell.params)}</code></a></span>")
    kind = "setup step" if cell.setup else "cell"
    head = (f'<div class="cb-cell-head"><span class="cb-cell-kind">{kind}</span> '
            f'<a class="cb-cell-name" href="#cell-{escape(cell.name)}">{escape(cell.name)}</a>'
            f"{params}{status_badge(status)}</div>")
    body = [head, code_html(cell.text, "cypher")]
    if with_record and cell.recorded is not None:
        body.append(result_html(cell.recorded.kind, cell.recorded.text))
    body.extend(_status_html(status, drift=with_record or cell.recorded is None))
    body.append(portability_html(preview, cell))
    html = (f'<div class="cb-cell cb-cell--{status.css}" id="cell-{escape(cell.name)}" '
            f'data-cell="{escape(cell.name)}" data-status="{status.css}">{"".join(body)}</div>')
    if cell.setup:
        return (f'<details class="cb-setup" data-cell="{escape(cell.name)}"><summary>'
                f'<span class="cb-setup-show">Show the setup step</span> <code>{escape(cell.name)}</code>'
                f"{status_badge(status)}</summary>\n{html}\n</details>")
    return html


def record_html(preview: Preview, cell: Cell, record: RecordedBlock) -> str:
    """A recorded block that stands apart from its cell (prose between them): its result, with a link
    back to the cell, and the cell's drift below it."""
    status = preview.status_of(cell)
    head = (f'<div class="cb-record-head">result of <a href="#cell-{escape(cell.name)}">'
            f"<code>{escape(cell.name)}</code></a>{status_badge(status)}</div>")
    body = [head, result_html(record.kind, record.text), *_status_html(status, rest=False)]
    return f'<div class="cb-record" data-record="{escape(cell.name)}">{"".join(body)}</div>'


def result_html(kind: str, text: str) -> str:
    return f'<div class="cb-result cb-result--{escape(kind)}">{RESULT_RENDERERS[kind](text)}</div>'


def _status_html(status: CellStatus, *, drift: bool = True, rest: bool = True) -> list[str]:
    """What the badge stands for, below the result: the diff of a drifted cell (`drift`), and (`rest`)
    the error, the reason a cell did not run, or the result of a cell the page does not record."""
    if status.state == DRIFTED:
        if not drift:
            return []
        return ['<details class="cb-drift" open>'
                '<summary>Drifted: the recording (−) against the last run (+)</summary>'
                f"{diff_html(status.detail)}</details>"]
    if not rest:
        return []
    if status.state == ERRORED:
        return [f'<pre class="cb-error">{escape(status.detail)}</pre>']
    if status.state == NOT_RECORDED and status.result is not None:
        kind = status.result_kind or "table"
        return ['<p class="cb-note">Not recorded in the page; the last run gave this '
                f"(<code>cookbook run --update</code> writes it in).</p>{result_html(kind, status.result)}"]
    if status.state in NOTES and status.detail:
        return [f'<p class="cb-note">{NOTES[status.state]}: {inline_html(status.detail)}</p>']
    return []


def inline_html(text: str) -> str:
    """A note of the runner's as HTML: escaped, its `code spans` as <code> (nothing else is Markdown)."""
    return INLINE.renderInline(text)


def diff_html(text: str) -> str:
    """The runner's failure text, its diff lines coloured."""
    lines = []
    for line in text.rstrip("\n").split("\n"):
        if line.startswith(("+++", "---")):
            css = "cb-diff-file"
        elif line.startswith("@@"):
            css = "cb-diff-hunk"
        elif line.startswith("+"):
            css = "cb-diff-add"
        elif line.startswith("-"):
            css = "cb-diff-del"
        else:
            css = "cb-diff-text"
        lines.append(f'<span class="{css}">{escape(line)}</span>')
    return f'<pre class="cb-diff">{"".join(lines)}</pre>'  # each line a block: no newline between them


def trace_html(preview: Preview, trace: Cell) -> str:
    assert isinstance(trace, Trace)
    status = preview.status_of(trace)
    head = (f'<div class="cb-cell-head"><span class="cb-cell-kind">trace</span> '
            f'<a class="cb-cell-name" href="#cell-{escape(trace.name)}">{escape(trace.name)}</a>'
            f'<span class="cb-cell-params">calls <a href="#data-{escape(trace.calls)}"><code>'
            f'{escape(trace.calls)}</code></a> from <a href="#cell-{escape(trace.start)}"><code>'
            f"{escape(trace.start)}</code></a></span>{status_badge(status)}</div>")
    body = [head, f'<div class="cb-result cb-result--trace">{steps_html(trace.text)}</div>',
            *_status_html(status), portability_html(preview, trace)]
    return (f'<div class="cb-cell cb-trace cb-cell--{status.css}" id="cell-{escape(trace.name)}" '
            f'data-cell="{escape(trace.name)}" data-status="{status.css}">{"".join(body)}</div>')


def steps_html(text: str) -> str:
    """A trace's recording, one titled result a step."""
    sections: list[tuple[str, list[str]]] = []
    for line in text.split("\n"):
        header = STEP_HEADER.match(line.strip())
        if header:
            sections.append((line.strip().removeprefix("// "), []))
        elif sections:
            sections[-1][1].append(line)
    if not sections:
        return f'<pre class="cb-text">{escape(text)}</pre>'
    parts = []
    for title, body in sections:
        content = "\n".join(body).strip("\n")
        if content.lstrip().startswith("error: "):
            shown = f'<pre class="cb-error">{escape(content)}</pre>'
        else:
            try:
                table, seen = split_seen([line.strip() for line in content.split("\n") if line.strip()])
                shown = table_html(read_table("\n".join(table))) + "".join(
                    f'<p class="cb-step-seen"><span class="cb-cell-kind">{escape(name)}</span> '
                    f"<code>{escape(text)}</code></p>" for name, text in seen.items())
            except ValueError:
                shown = f'<pre class="cb-text">{escape(content)}</pre>'
        parts.append(f'<div class="cb-step"><div class="cb-step-head">{escape(title)}</div>{shown}</div>')
    return "".join(parts)


def portability_html(preview: Preview, cell: Cell) -> str:
    """What the other databases of the page's matrix gave for the cell: a badge each, its note on hover,
    the notes behind "why"; or why the matrix has nothing (current) to say. No matrix: nothing."""
    if preview.portability is None or preview.portability.errors:
        return ""
    found = preview.portability.cells.get(cell.name, CellPortability())
    stale = f'<span class="cb-port-stale">{inline_html(found.stale)}</span>' if found.stale else ""
    badges = " · ".join(map(_verdict_badge, found.verdicts))
    notes = "".join(f"<dt>{escape(verdict.name)} (<code>{escape(verdict.uri)}</code>): {escape(verdict.verdict)}"
                    f"</dt><dd>{inline_html(verdict.note)}</dd>" for verdict in found.verdicts if verdict.note)
    why = (f'<details class="cb-port-notes"><summary>why</summary><dl>{notes}</dl></details>' if notes else "")
    css = "cb-portability cb-portability--stale" if found.stale else "cb-portability"
    return (f'<div class="{css}" data-cell="{escape(cell.name)}"><span class="cb-cell-kind">other databases</span> '
            f"{badges}{stale}{why}</div>")


def _verdict_badge(verdict: Verdict) -> str:
    title = f' title="{escape(verdict.note.replace("`", ""))}"' if verdict.note else ""
    return (f'<span class="cb-port cb-port--{verdict.css}" data-target="{escape(verdict.uri)}"{title}>'
            f"{escape(verdict.name)}: {escape(verdict.verdict)}</span>")


def portability_card_html(portability: PagePortability | None) -> str:
    """The card's line on the matrix: where it is and on which databases, and what in it is stale."""
    if portability is None or portability.errors:
        return ""
    line = (f'<p class="cb-card-portability">Other databases: {escape(portability.names)} '
            f'<span class="cb-card-origin">(from {escape(portability.shown)})</span></p>')
    if portability.stale:
        stale = "; ".join(portability.stale)
        line += (f'<p class="cb-card-portability cb-portability--stale">The portability matrix is stale: '
                 f"{inline_html(stale)}. <code>{escape(portability.command)}</code> makes it again.</p>")
    return line


# -- other blocks ---------------------------------------------------------------------------------------

def data_html(preview: Preview, data: DataBlock) -> str:
    users = preview.users_of(data.name)
    used = ""
    if users:
        links = ", ".join(f'<a href="#cell-{escape(cell.name)}"><code>{escape(cell.name)}</code></a>'
                          for cell in users)
        used = f'<span class="cb-data-users">used by {links}</span>'
    code = code_html(data.fence.content, "json")
    title = (f'<span class="cb-cell-kind">data</span> <code>{escape(data.name)}</code> '
             f'<span class="cb-data-size">{size_text(len(data.fence.content.encode()))}</span>{used}')
    if data.line in preview.folded:  # an author's <details> folds it already
        return (f'<div class="cb-data" id="data-{escape(data.name)}"><div class="cb-data-head">{title}</div>'
                f"{code}</div>")
    return (f'<details class="cb-data" id="data-{escape(data.name)}"><summary>{title}</summary>'
            f"{code}</details>")


def size_text(size: int) -> str:
    return f"{size} bytes" if size < 1024 else f"{round(size / 1024)} KB"


def code_html(text: str, language: str = "") -> str:
    """Highlighted code as Python-Markdown's highlighting writes it, so the theme styles it the same."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_by_name(language) if language else get_lexer_by_name("text")
    except ClassNotFound:
        lexer = get_lexer_by_name("text")
    css = f"language-{language}" if language else ""
    html = highlight(text, lexer, HtmlFormatter(cssclass=f"highlight {css}".strip(), wrapcode=True))
    return html.rstrip("\n")


def mermaid_html(text: str, language: str = "mermaid") -> str:
    """Left for mermaid's script in the browser; until it runs (or without it) the source shows."""
    return f'<pre class="cb-mermaid">{escape(text)}</pre>'


def card_html(preview: Preview) -> str:
    """The front matter as a card, with the cells' statuses summed up and where they come from."""
    matter: dict[str, Any] = preview.page.front_matter
    fields = []
    for key, name in CARD_FIELDS.items():
        value = matter.get(key)
        if value in (None, "", []):
            continue
        if isinstance(value, list):
            shown = "".join(f'<span class="cb-chip">{escape(str(item))}</span>' for item in value)
        else:
            shown = escape(str(value))
        fields.append(f'<div class="cb-card-field cb-card-{key}"><dt>{name}</dt><dd>{shown}</dd></div>')
    counts = preview.status.counts()
    total = sum(counts.values())
    summary = " · ".join(
        f'<span class="cb-count cb-count--{state.replace(" ", "-")}">{count} {escape(state)}</span>'
        for state, count in counts.items())
    cells = f"{total} cell{'' if total == 1 else 's'}: {summary}" if total else "no cells"
    status = (f'<p class="cb-card-status">{cells} <span class="cb-card-origin">(statuses from '
              f"{escape(preview.status.source)})</span></p>")
    problems = [*preview.status.errors, *(preview.portability.errors if preview.portability else [])]
    alert = ""
    if problems:
        alert = ('<div class="admonition failure"><p class="admonition-title">This page has problems</p>'
                 f'<pre class="cb-error">{escape(chr(10).join(problems))}</pre></div>')
    dl = f'<dl class="cb-card-fields">{"".join(fields)}</dl>' if fields else ""
    return f'<div class="cb-card">{dl}{status}{portability_card_html(preview.portability)}{alert}</div>'


def _first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0]


def error_html(text: str) -> str:
    """An `error` block: its first line (`Kind: Detail`) set apart from the message under it."""
    lines = text.strip("\n").split("\n")
    message = "\n".join(lines[1:]).strip("\n")
    body = f'<div class="cb-error-message">{escape(message)}</div>' if message else ""
    return f'<pre class="cb-error cb-error--expected"><strong>{escape(lines[0])}</strong>{body}</pre>'


RESULT_RENDERERS: dict[str, Callable[[str], str]] = {"table": block_html, "gram": gram_html, "error": error_html}
"""Recorded block kind → its HTML."""

FENCE_RENDERERS: dict[str, Callable[[str, str], str]] = {"mermaid": mermaid_html}
"""Info-string language → the HTML of a fence that is not a cell, data or recorded block (any other
language: `code_html`)."""
