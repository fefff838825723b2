"""The failure text every adapter shows for a drifted cell: a unified diff headed by FILE:LINE.

    cookbook/01-agent-memory.md:224: cell 'labels' drifted from its recording
      rows differ (in order: the last statement ends in ORDER BY)
    --- cookbook/01-agent-memory.md:224 (recorded)
    +++ cell 'labels' (actual)
    @@ -227,2 +227,2 @@
    ...

Hunk line numbers are the page's, so `-227` is line 227 of the Markdown file.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def unified_diff(recorded: str, actual: str, *, path: str | Path, line: int, cell: str) -> str:
    """The diff of a recorded block's content (whose fence opens on page line `line`) against the
    actual rendering, with hunk headers in page lines."""
    offset = line  # content line k (1-based) is page line `line + k`
    lines = difflib.unified_diff(recorded.splitlines(), actual.splitlines(),
                                 fromfile=f"{path}:{line} (recorded)", tofile=f"cell {cell!r} (actual)",
                                 lineterm="", n=2)
    return "\n".join(_shift_hunk(text, offset) for text in lines) + "\n"


def _shift_hunk(text: str, offset: int) -> str:
    match = HUNK.match(text)
    if not match:
        return text
    old, old_len, new, new_len = match.groups()
    return (f"@@ -{int(old) + offset}{old_len or ''} +{int(new) + offset}{new_len or ''} @@"
            + text[match.end():])


def failure_text(recorded: str, actual: str, *, path: str | Path, line: int, cell: str,
                 reasons: list[str]) -> str:
    """The headline, the reasons, and the diff: what the CLI prints and the pytest plugin will show."""
    head = f"{path}:{line}: cell {cell!r} drifted from its recording\n"
    because = "".join(f"  {reason}\n" for reason in reasons)
    return head + because + unified_diff(recorded, actual, path=path, line=line, cell=cell)
