"""`EXPLAIN` and `PROFILE` before a statement (Neo4j's query prefixes): which one, and the statement without it.

The word is blanked out rather than cut, so every position in the statement stays where it was in the text
the user sent, and errors point at the right column.
"""

from __future__ import annotations

import re

PLAN_PREFIXES = ("EXPLAIN", "PROFILE")
LEADING = re.compile(r"(?:\s|//[^\n]*(?:\n|$)|/\*.*?\*/)*(?P<word>[A-Za-z]+)\b", re.DOTALL)
"""Blanks and comments, then the first word."""


def plan_prefix(text: str) -> tuple[str | None, str]:
    """(`EXPLAIN` or `PROFILE`, the statement with the word blanked), or (None, `text`)."""
    match = LEADING.match(text)
    if match is None or match["word"].upper() not in PLAN_PREFIXES:
        return None, text
    start, end = match.span("word")
    return match["word"].upper(), text[:start] + " " * (end - start) + text[end:]
