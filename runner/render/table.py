"""CellResult → the text of a ```` ```table ```` block (spec §3).

    | seq | entities |
    |-----|----------|
    | 1   | 3        |
    1 row · nodes created: 7, relationships created: 16

Widths are counted in characters (not bytes, not terminal cells). With no rows the block is the footer
alone: `(no rows)` or `(no rows) · constraints added: 2`.
"""

from __future__ import annotations

from collections.abc import Sequence

from runner.render.values import Seen, format_value
from runner.result import COUNTER_LABELS, CellResult


def render_table(result: CellResult) -> str:
    """The block's content, each line ending in a newline."""
    cells = [[format_value(value, Seen()) for value in row] for row in result.rows]
    return table_text(result.columns, cells, result.nonzero_counters())


def table_text(columns: Sequence[str], rows: Sequence[Sequence[str]], counters: dict[str, int]) -> str:
    """Lay out cell texts that are already value literals."""
    lines = []
    if rows:
        widths = [max(len(text) for text in column) for column in zip(columns, *rows, strict=True)]
        lines.append(_row_line(columns, widths))
        lines.append("|" + "|".join("-" * (width + 2) for width in widths) + "|")
        lines.extend(_row_line(row, widths) for row in rows)
    lines.append(footer(len(rows), counters))
    return "".join(line + "\n" for line in lines)


def _row_line(texts: Sequence[str], widths: Sequence[int]) -> str:
    return "|" + "|".join(f" {text.ljust(width)} " for text, width in zip(texts, widths, strict=True)) + "|"


def row_count_text(count: int) -> str:
    return "(no rows)" if count == 0 else "1 row" if count == 1 else f"{count} rows"


def counters_text(counters: dict[str, int]) -> str:
    """`nodes created: 7, relationships created: 16`: the non-zero counters, in footer order."""
    return ", ".join(f"{COUNTER_LABELS.get(key, key.replace('_', ' '))}: {count}"
                     for key, count in counters.items() if count)


def footer(count: int, counters: dict[str, int]) -> str:
    text = counters_text(counters)
    return row_count_text(count) + (f" · {text}" if text else "")
