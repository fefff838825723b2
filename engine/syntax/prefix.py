"""Neo4j's query prefixes: `CYPHER [version] [option=value ...]` (the language version and planner or runtime
options), then `EXPLAIN` or `PROFILE`.

A prefix is blanked out rather than cut, so every position in the statement stays where it was in the text
the user sent, and errors point at the right column. The engine has one language (Neo4j 5 / Cypher 25
semantics, docs/CYPHER25.md) and one planner: `CYPHER 5`, `CYPHER 25` and options such as `runtime=slotted`
change nothing and are accepted.
"""

from __future__ import annotations

import re

PLAN_PREFIXES = ("EXPLAIN", "PROFILE")
LEADING = re.compile(r"(?:\s|//[^\n]*(?:\n|$)|/\*.*?\*/)*(?P<word>[A-Za-z]+)\b", re.DOTALL)
"""Blanks and comments, then the first word."""


QUERY_OPTIONS = re.compile(
    r"(?:\s|//[^\n]*(?:\n|$)|/\*.*?\*/)*(?P<options>CYPHER(?:\s+\d+)?(?:\s+[A-Za-z_][\w.]*\s*=\s*[\w.]+)*)\b",
    re.DOTALL | re.IGNORECASE)
"""Blanks and comments, then `CYPHER`, a version and `name=value` options."""


def without_query_options(text: str) -> str:
    """`text` with a leading `CYPHER ...` prefix blanked (or `text` itself)."""
    match = QUERY_OPTIONS.match(text)
    if match is None:
        return text
    start, end = match.span("options")
    return text[:start] + " " * (end - start) + text[end:]


def plan_prefix(text: str) -> tuple[str | None, str]:
    """(`EXPLAIN` or `PROFILE`, the statement with the word blanked), or (None, `text`)."""
    match = LEADING.match(text)
    if match is None or match["word"].upper() not in PLAN_PREFIXES:
        return None, text
    start, end = match.span("word")
    return match["word"].upper(), text[:start] + " " * (end - start) + text[end:]
