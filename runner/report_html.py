"""`--html FILE`: a standalone HTML report of a run: each page rendered with mistune, every cell followed
by its status, and the diff or the error where there is one."""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

import mistune

from runner.page.front_matter import find_front_matter
from runner.page.markdown import split_lines
from runner.run import CellOutcome, PageOutcome

STYLE = """
body { font: 15px/1.5 system-ui, sans-serif; max-width: 62rem; margin: 2rem auto; padding: 0 1rem; }
pre { background: #f6f8fa; padding: .6rem .8rem; overflow-x: auto; font-size: 13px; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: .2rem .5rem; }
section.page { border-top: 3px solid #ddd; margin-top: 2.5rem; }
.cell-status { border-left: 5px solid #999; padding: .3rem .8rem; margin: .5rem 0 1.5rem; }
.cell-status.passed { border-color: #2da44e; }
.cell-status.failed, .cell-status.error { border-color: #cf222e; }
.cell-status.skipped, .cell-status.unrecorded { border-color: #bf8700; }
.badge { font-weight: 600; text-transform: uppercase; font-size: 12px; }
.passed .badge { color: #1a7f37; } .failed .badge, .error .badge { color: #cf222e; }
.summary td.failed, .summary td.error { color: #cf222e; } .summary td.passed { color: #1a7f37; }
"""


def write_html_report(outcomes: Sequence[PageOutcome], path: str | Path) -> None:
    Path(path).write_text(html_report(outcomes), encoding="utf-8")


def html_report(outcomes: Sequence[PageOutcome]) -> str:
    markdown = mistune.create_markdown(escape=False, plugins=["table", "strikethrough"])
    rows = "".join(
        f'<tr><td><a href="#page-{index}">{html.escape(str(outcome.page.path))}</a></td>'
        f'<td class="{outcome.status}">{outcome.status}</td>'
        f"<td>{html.escape(_counts_text(outcome))}</td></tr>"
        for index, outcome in enumerate(outcomes))
    sections = "".join(_page_section(index, outcome, markdown) for index, outcome in enumerate(outcomes))
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>cookbook run report</title>\n"
        f"<style>{STYLE}</style>\n</head>\n<body>\n<h1>cookbook run report</h1>\n"
        f'<table class="summary"><tr><th>page</th><th>status</th><th>cells</th></tr>{rows}</table>\n'
        f"{sections}</body>\n</html>\n")


def _counts_text(outcome: PageOutcome) -> str:
    if outcome.errors:
        return f"{len(outcome.errors)} page error(s)"
    return ", ".join(f"{count} {status}" for status, count in outcome.counts().items() if count)


def _page_section(index: int, outcome: PageOutcome, markdown: mistune.Markdown) -> str:
    lines = split_lines(outcome.page.source.removeprefix("\ufeff"))
    found = find_front_matter(lines)
    if found:
        lines = [""] * (found[1] + 1) + lines[found[1] + 1:]
    inserts: list[tuple[int, str]] = []
    for cell_outcome in outcome.cells:
        cell = cell_outcome.cell
        after = cell.recorded.fence.end_line if cell.recorded else cell.fence.end_line
        inserts.append((after, _status_html(cell_outcome)))
    for after, snippet in sorted(inserts, key=lambda item: item[0], reverse=True):
        lines[after:after] = ["", snippet, ""]
    errors = "".join(f'<pre class="page-error">{html.escape(str(error))}</pre>\n' for error in outcome.errors)
    body = markdown("\n".join(lines))
    return (f'<section class="page" id="page-{index}">\n'
            f"<p><code>{html.escape(str(outcome.page.path))}</code>: "
            f'<span class="{outcome.status}">{outcome.status}</span></p>\n{errors}{body}</section>\n')


def _status_html(outcome: CellOutcome) -> str:
    """One line of raw HTML (a blank line would end the HTML block), newlines written as `&#10;`."""
    name = html.escape(outcome.cell.name)
    detail = ""
    if outcome.failure:
        text = html.escape(outcome.failure.rstrip("\n")).replace("\n", "&#10;")
        detail = f"<pre>{text}</pre>"
    return (f'<div class="cell-status {outcome.status}" id="cell-{name}">'
            f'<span class="badge">{outcome.status}</span> cell <code>{name}</code>{detail}</div>')
