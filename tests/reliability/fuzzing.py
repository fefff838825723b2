"""Fuzzing the front ends with hypothesis: the Cypher tokenizer, parser and binder, and the page parser.

Each may answer any input with our own error (CypherError with a position; PageError/PageWarning
with a line inside the page), never with another exception and never by hanging. The strategies and
checks live here, shared by the short tests (`test_fuzz.py`) and the long form (`long.py`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from engine.compile import bind
from engine.errors import CypherError
from engine.plugins import compiler as _plugins  # noqa: F401 - the feature packages, as a connection has them
from engine.procedures import ProcedureRegistry
from engine.storage.schema import Catalog
from engine.syntax.parser import parse_script
from engine.syntax.tokens import KEYWORDS, SYMBOLS
from runner.page import parse_page
from runner.page.markdown import split_lines
from tests.reliability.corpus import HOSTILE, page_statements, page_texts

SLOW_SECONDS = 5.0
"""A case that spends more CPU time than this counts as a hang (CPU time, not wall time: on a shared
machine a case can wait seconds for a core, and a loop that never ends burns CPU)."""
WALL_SECONDS = 60.0
"""A case that takes longer than this on the wall clock counts as a hang too."""

SNIPPETS = [
    *KEYWORDS, *SYMBOLS, "(", ")", "[", "]", "{", "}", ",", ".", ":", ";", "'", '"', "`", "$", "-", ">", "<",
    "n", "m", "r", "p", "x", "`a b`", "$p", "$`q r`", "1", "0", "-1", "1.5", "1e999", "0x1F", "0o17",
    "9223372036854775808", "'s'", '"t"', "'\\u0041'", "'\\", "/*", "*/", "//", "\n", " ", "\t", "*", "*1..",
    "..2", "-->", "<--", "--", "-[", "]->", "<-[", "]-", "(n)", "(n:L)", "[r:T]", "{k: 1}", "n.k", "count(*)",
    "exists {", "COUNT {", "CALL {", "} IN TRANSACTIONS", "IS :: INTEGER", "SHORTEST 1", "+", "{1,3}",
]
"""Tokens and fragments the generated statements are made of."""


@dataclass
class Tally:
    """What a run saw: cases, accepted inputs, errors by kind, the slowest case."""

    cases: int = 0
    accepted: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    slowest: float = 0.0
    slowest_text: str = ""

    def record(self, seconds: float, error: str | None, text: str = "") -> None:
        self.cases += 1
        if seconds > self.slowest:
            self.slowest, self.slowest_text = seconds, text[:300]
        if error is None:
            self.accepted += 1
        else:
            self.errors[error] = self.errors.get(error, 0) + 1


def check_cypher(text: str, tally: Tally | None = None) -> None:
    """Tokenize, parse and bind `text` as a script. Only a CypherError with a position inside the text
    may come out; any other exception propagates, and a slow case fails."""
    started, cpu = time.perf_counter(), time.process_time()
    kind = None
    try:
        for statement, _ in parse_script(text):
            bind(statement, {}, Catalog(), ProcedureRegistry())
    except CypherError as error:
        kind = error.kind
        assert error.span is not None, f"{type(error).__name__} without a position: {error.message}"
        lines = text.count("\n") + text.count("\r") + 1
        assert 1 <= error.span.line <= lines and error.span.column >= 1, (error.span, error.message)
    seconds = _check_time(started, cpu, text)
    if tally is not None:
        tally.record(seconds, kind, text)


def check_page(text: str, tally: Tally | None = None) -> None:
    """Parse `text` as a page: it must come back as a Page, every problem a PageError or PageWarning on
    a line of the page."""
    started, cpu = time.perf_counter(), time.process_time()
    page = parse_page(text, "fuzz.md")
    lines = len(split_lines(text)) + 1
    for problem in [*page.errors, *page.warnings]:
        assert 1 <= problem.line <= lines, (problem.line, lines, problem.message)
        assert problem.message
    for cell in page.cells:
        assert 1 <= cell.line <= lines
    seconds = _check_time(started, cpu, text)
    if tally is not None:
        tally.record(seconds, "PageError" if page.errors else None, text)


def _check_time(started: float, cpu: float, text: str) -> float:
    """The case's CPU seconds, failing the case when it looks like a hang."""
    seconds = time.process_time() - cpu
    wall = time.perf_counter() - started
    assert seconds < SLOW_SECONDS and wall < WALL_SECONDS, f"{seconds:.1f} s CPU, {wall:.1f} s on {text[:200]!r}"
    return seconds


def token_streams() -> st.SearchStrategy[str]:
    """Statements made of Cypher's own tokens and fragments, glued with or without spaces."""
    piece = st.one_of(st.sampled_from(SNIPPETS), st.sampled_from(HOSTILE).map(repr),
                      st.text(max_size=4), st.integers().map(str))
    return st.tuples(st.lists(piece, max_size=40), st.sampled_from([" ", "", "\n"])).map(
        lambda parts: parts[1].join(parts[0]))


def mutated(corpus: list[str] | tuple[str, ...]) -> st.SearchStrategy[str]:
    """A corpus text with a few edits: spans deleted, duplicated or moved, fragments inserted, cut short."""
    return st.tuples(st.sampled_from(list(corpus)), st.lists(_edit(), min_size=1, max_size=4)).map(_apply)


def _edit() -> st.SearchStrategy[tuple[str, float, float, str]]:
    insert = st.one_of(st.sampled_from(SNIPPETS), st.sampled_from(PAGE_LINES), st.text(max_size=6))
    return st.tuples(st.sampled_from(["delete", "insert", "duplicate", "swap", "truncate", "replace"]),
                     st.floats(0, 1), st.floats(0, 1), insert)


def _apply(case: tuple[str, list[tuple[str, float, float, str]]]) -> str:
    text, edits = case
    for operation, first, second, fragment in edits:
        a, b = sorted((int(first * len(text)), int(second * len(text))))
        b = min(b, a + 40)
        if operation == "delete":
            text = text[:a] + text[b:]
        elif operation == "insert":
            text = text[:a] + fragment + text[a:]
        elif operation == "duplicate":
            text = text[:b] + text[a:b] + text[b:]
        elif operation == "swap":
            text = text[b:] + text[a:b] + text[:a]
        elif operation == "truncate":
            text = text[:a]
        else:
            text = text[:a] + fragment + text[b:]
    return text


PAGE_LINES = [
    "```", "~~~", "````", "---", "...", "```cypher cell=x", "```cypher cell=x error", "```cypher {cell=y setup}",
    "```cypher cell=", "```json data=d", "```json data=d\n{\"a\": [1, {\"b\": null}]}\n```", "```table", "```gram",
    "```error", "```trace calls=d from=x", "```cypher cell=\"q", "<details>", "</details>", "> ```cypher cell=z",
    "  ```", "\t```", "title: x", "title: [", "level: Nope", "features: [a, a]", "{", "}", "[", "]", '"', "'",
    "\\", "| a | b |", "|---|", "1 row", "\r\n", "\r", "\ufeff", "\x00", "- item", "# heading",
]
"""Lines that matter to the page parser: fences, front matter delimiters and fields, HTML, JSON."""


def mutated_pages(texts: list[str]) -> st.SearchStrategy[str]:
    """A page with lines deleted, duplicated or inserted (fences, front matter, JSON), and character edits."""
    line_edit = st.tuples(st.sampled_from(["delete", "duplicate", "insert"]), st.floats(0, 1),
                          st.sampled_from(PAGE_LINES))
    return st.tuples(st.sampled_from(texts), st.lists(line_edit, max_size=6), st.lists(_edit(), max_size=3)).map(
        _apply_page_edits)


def _apply_page_edits(case: tuple[str, list[tuple[str, float, str]], list]) -> str:
    text, line_edits, char_edits = case
    lines = text.split("\n")
    for operation, where, line in line_edits:
        index = int(where * len(lines))
        if operation == "delete" and lines:
            del lines[min(index, len(lines) - 1)]
        elif operation == "duplicate" and lines:
            lines.insert(index, lines[min(index, len(lines) - 1)])
        else:
            lines.insert(index, line)
    return _apply(("\n".join(lines), char_edits)) if char_edits else "\n".join(lines)


def small_pages() -> list[str]:
    """Pages to mutate: the fixtures whole, and every longer page cut into sections of about 40 lines
    (mutations of a 600-line page mostly re-test what its first sections already showed)."""
    sections = []
    for text in page_texts():
        lines = text.split("\n")
        if len(lines) <= 60:
            sections.append(text)
            continue
        front = []
        if lines[0] == "---":
            end = lines.index("---", 1) if "---" in lines[1:] else 0
            front = lines[:end + 1]
        for start in range(0, len(lines), 40):
            sections.append("\n".join(front + lines[start:start + 40]))
    return sections


def statement_corpus() -> list[str]:
    from tests.reliability.corpus import TCK_INDEX, tck_statements

    statements = list(page_statements())
    if TCK_INDEX.exists():
        statements.extend(tck_statements())
    return statements


EXECUTION_GRAPH = ("UNWIND range(1, 5) AS i CREATE (:A {num: i, name: toString(i)})-[:T {w: i}]->(:B {num: i})"
                   "-[:REL {name: 'r'}]->(:C:D {num: i * 2, list: [i, i + 1]})")


class ExecutionCheck:
    """Mutated statements run on a small graph (with a timeout and a walk cap): only engine errors with a
    position may come out, none an internal one, and the connection answers the next statement. The graph
    is rebuilt every `fresh_every` cases, so writes of earlier cases do not pile up."""

    def __init__(self, fresh_every: int = 200) -> None:
        self.fresh_every = fresh_every
        self.cases = 0
        self.db: Any = None

    def _connection(self) -> Any:
        import engine

        if self.db is None or self.cases % self.fresh_every == 0:
            if self.db is not None:
                self.db.close()
            self.db = engine.connect(":memory:", timeout=2, max_walk_rows=10_000, memory_limit="1GB")
            self.db.execute(EXECUTION_GRAPH)
        return self.db

    def __call__(self, text: str, tally: Tally | None = None) -> None:
        db = self._connection()
        self.cases += 1
        started, cpu = time.perf_counter(), time.process_time()
        kind = None
        try:
            db.execute_script(text, {})
        except CypherError as error:
            kind = error.kind
            assert error.detail != "Internal", f"internal error: {error.message} on {text[:300]!r}"
            assert error.span is not None, f"{type(error).__name__} without a position: {error.message}"
        wall = time.perf_counter() - started
        assert wall < WALL_SECONDS, f"{wall:.1f} s on {text[:200]!r}"
        assert db.execute("RETURN 1 AS one").fetchall() == [(1,)]
        if tally is not None:
            tally.record(time.process_time() - cpu, kind, text)

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None
