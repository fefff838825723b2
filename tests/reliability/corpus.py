"""Corpora the reliability tests draw on: TCK statements, page texts, hostile strings.

The TCK is read from `../shared/tck` (beside the repository, as the TCK harness reads it); tests that
need it skip, saying so, when it is absent.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TCK = ROOT.parent / "shared" / "tck"
TCK_INDEX = TCK / "index.jsonl"
TCK_MISSING = f"the openCypher TCK is not at {TCK} (its index.jsonl is needed as the corpus)"

WRITING_CLAUSE = re.compile(r"\b(CREATE|MERGE|SET|DELETE|REMOVE|FOREACH|DROP|ALTER)\b", re.IGNORECASE)
STRINGS_AND_COMMENTS = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|`(?:``|[^`])*`|//[^\n]*|/\*.*?\*/",
                                  re.DOTALL)


@cache
def tck_statements() -> tuple[str, ...]:
    """Every query a TCK scenario runs (setup queries included), each once, in index order."""
    seen: dict[str, None] = {}
    with TCK_INDEX.open(encoding="utf-8") as index:
        for line in index:
            for step in json.loads(line)["steps"]:
                if step["tck"].get("type") in ("execute_query", "init_query", "execute_control_query") \
                        and step.get("docstring"):
                    seen.setdefault(step["docstring"], None)
    return tuple(seen)


def writes(statement: str) -> bool:
    """Whether a statement has an updating clause or schema command, judged from its text alone (string
    literals, quoted names and comments removed), independently of the engine's own check."""
    return WRITING_CLAUSE.search(STRINGS_AND_COMMENTS.sub(" ", statement)) is not None


def tck_writing_statements() -> tuple[str, ...]:
    return tuple(statement for statement in tck_statements() if writes(statement))


def page_texts() -> list[str]:
    """The Markdown of every page we have: the cookbook, the conformance pages, the fixtures, the seeds."""
    paths = [*ROOT.glob("cookbook/*.md"), *ROOT.glob("tests/**/conformance/*.md"),
             *ROOT.glob("tests/runner/fixtures/pages/*.md"), *(ROOT.parent / "shared" / "seeds").glob("*.md")]
    return [path.read_text(encoding="utf-8") for path in sorted(paths)]


def page_statements() -> list[str]:
    """The Cypher of every cell of every page, one statement text per cell."""
    from runner.page import parse_page

    statements = []
    for text in page_texts():
        statements.extend(cell.text for cell in parse_page(text).cells if cell.text.strip())
    return statements


HOSTILE = [
    "it's", 'say "hi"', "back`tick", "``", "semi;colon", "'; MATCH (n) DETACH DELETE n; //",
    "') ; DROP TABLE nodes; --", "-- comment", "/* block */", "// line", "*/", "nul\x00byte", "\x00",
    "back\\slash", "\\'", "new\nline", "tab\tand\rreturn", "$param", "{curly}", "%s %d", "?", "$1",
    "Zürich", "日本語", "emoji 🦆", "rtl \u202e txt", "e\u0301", "\ufeffbom", "\u2028sep", "",
    "a" * 300, "p0", "id", "labels", "__ord", "CYPHER|TypeError|x|boom",
]
"""Strings that break naive quoting: quotes, backticks, SQL and Cypher comment markers, semicolons,
NUL, backslashes, placeholders, non-ASCII, names of the engine's own columns and error marker."""


def cypher_string(text: str) -> str:
    """`text` as a Cypher string literal: quotes and backslashes escaped, control characters as \\u."""
    escaped = []
    for char in text:
        if char in "'\\":
            escaped.append("\\" + char)
        elif ord(char) < 32 or char in "\u2028\u2029":
            escaped.append(f"\\u{ord(char):04x}")
        else:
            escaped.append(char)
    return "'" + "".join(escaped) + "'"


def cypher_name(text: str) -> str:
    """`text` as a backtick-quoted Cypher name (backticks doubled)."""
    return "`" + text.replace("`", "``") + "`"
