"""The text of a `table` block (or of a trace step) → an HTML table with the same cell texts.

Cells keep their literal text as recorded (`"Fact"`, `null`, `[]`), so the table shows exactly what the
page records; a class per kind of literal lets the stylesheet tone strings and nulls. The footer line
(`2 rows · nodes created: 7`) becomes the table's caption line below it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape

from runner.check.compare import split_row

RULE = re.compile(r"^\|(?:[-:]+\|)+$")
WIDE = 40
SHORT = 24
"""Characters up to which a value is kept on one line."""
"""Characters past which a cell's value is long: its column is given room rather than wrapped narrow."""


@dataclass
class TextTable:
    """A table as a block writes it: column names, rows of cell texts, and the footer line."""

    columns: list[str] = field(default_factory=list)
    rows: list[tuple[str, ...]] = field(default_factory=list)
    footer: str = ""


class NotATable(ValueError):
    """The text is not laid out as `| a |`, `|---|`, rows, footer."""


def read_table(text: str) -> TextTable:
    """Header, rule, rows, then one footer line; a block with no rows is the footer alone."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    if not lines:
        raise NotATable("the block is empty")
    *body, footer = lines
    if not body:
        return TextTable(footer=footer)
    if len(body) < 2 or not RULE.match(body[1]):
        raise NotATable("a table needs a header line and a rule line")
    widths = [len(part) for part in body[1][1:-1].split("|")]
    columns = list(split_row(body[0], widths))
    rows = [split_row(line, widths) for line in body[2:]]
    if any(len(row) != len(columns) for row in rows):
        raise NotATable("a row has more or fewer cells than there are columns")
    return TextTable(columns, rows, footer)


def literal_class(text: str) -> str:
    """The CSS class of a cell's literal: strings, null, numbers, booleans, lists and maps, graph values."""
    if text.startswith('"'):
        return "cb-v-string"
    if text == "null":
        return "cb-v-null"
    if text in ("true", "false"):
        return "cb-v-boolean"
    if text[:1] in "[{":
        return "cb-v-collection"
    if text[:1] == "(":
        return "cb-v-graph"
    return "cb-v-number"


def cell_class(text: str) -> str:
    """The literal's class, and its length's: `cb-wide` for a long value, which gets a column wide enough
    to read, `cb-short` for one kept on one line."""
    size = " cb-wide" if len(text) > WIDE else " cb-short" if len(text) <= SHORT else ""
    return literal_class(text) + size


def table_html(table: TextTable) -> str:
    """The table, wrapped so a wide one scrolls on its own, then its footer."""
    parts = []
    if table.columns:
        head = "".join(f"<th>{escape(name)}</th>" for name in table.columns)
        body = "".join(
            "<tr>" + "".join(f'<td class="{cell_class(text)}">{escape(text)}</td>' for text in row) + "</tr>"
            for row in table.rows)
        parts.append(f'<div class="cb-table-scroll"><table class="cb-table"><thead><tr>{head}</tr></thead>'
                     f"<tbody>{body}</tbody></table></div>")
    parts.append(f'<p class="cb-footer">{escape(table.footer)}</p>')
    return "".join(parts)


def block_html(text: str) -> str:
    """A `table` block as HTML; a block that is not laid out as a table is shown as its text."""
    try:
        return table_html(read_table(text))
    except ValueError:  # NotATable, or a row split_row cannot read
        return f'<pre class="cb-text">{escape(text)}</pre>'
