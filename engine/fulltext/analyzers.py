"""The analyzers a full-text index may name (`OPTIONS {indexConfig: {`fulltext.analyzer`: ...}}`), with the
names, descriptions and stop words `db.index.fulltext.listAvailableAnalyzers()` shows, as Neo4j 5 lists them.

An analyzer is a tokenizer and an optional filter, both SQL (engine/fulltext/analyzer.py). It is used twice:
set-based in SQL when the index is written (engine/fulltext/maintain.py), and when a query string is
parsed (`analyze`, `normalize`), through the same SQL run in a private in-memory DuckDB, so a query term
and an indexed term are always cut the same way. Only the default analyzer's ASCII texts are cut in Python,
by the ASCII form of its pattern, which gives the same tokens.
"""

from __future__ import annotations

import functools
import json
import re
import threading
from dataclasses import dataclass

import duckdb

from engine.fulltext import analyzer, cjk, classic, porter, url_email
from engine.storage.schema import IndexInfo

DEFAULT = "standard-no-stop-words"
STANDARD = "standard"  # the tokenizer of StandardAnalyzer (analyzer.TOKEN_PATTERN)

MACROS = porter.MACROS + analyzer.MACROS + cjk.MACROS + classic.MACROS + url_email.MACROS
"""Every analyzer's SQL macros, in the order they must be created."""

_lock = threading.Lock()
_connection: duckdb.DuckDBPyConnection | None = None
_ASCII_TOKEN = re.compile(analyzer.ASCII_TOKEN_PATTERN)


def _run(sql: str, value: object) -> list[str | None]:
    """`sql` (one `?`) in the private connection that holds the analyzer macros."""
    global _connection
    with _lock:
        if _connection is None:
            connection = duckdb.connect(":memory:")
            for signature, body in MACROS:
                connection.execute(f"CREATE MACRO {signature} AS {body}")
            _connection = connection
        row = _connection.execute(sql, [value]).fetchone()
    return list(row[0]) if row and row[0] is not None else []


@functools.lru_cache(maxsize=4096)
def standard_terms(text: str) -> tuple[str, ...]:
    """The default analyzer's terms of `text`: StandardTokenizer, then LowerCaseFilter."""
    if text.isascii():
        words = _ASCII_TOKEN.findall(text)
        return tuple(word[i:i + analyzer.MAX_TOKEN_LENGTH].lower()
                     for word in words for i in range(0, len(word), analyzer.MAX_TOKEN_LENGTH))
    return tuple(term for term in _run("SELECT ft_tokens(?)", text) if term is not None)


@dataclass(frozen=True)
class Analyzer:
    name: str
    description: str
    tokenizer: str  # STANDARD or a key of analyzer.TOKENIZERS
    filter: str | None = None  # a key of analyzer.FILTERS
    stopwords: tuple[str, ...] = ()
    lower_case: bool = True  # whether normalize lower-cases (Analyzer.normalize's LowerCaseFilter)
    width: bool = False  # whether normalize folds widths first (CJKWidthFilter), in SQL as the index does

    def analyze(self, text: str) -> list[tuple[str, int]]:
        """The terms of `text` with their positions (a stop word dropped leaves a gap)."""
        return [(term, position) for position, term in enumerate(_terms(self, text)) if term is not None]

    def prepare(self, texts: list[str]) -> None:
        """Cut `texts` in one SQL statement ahead of `analyze`: the tokenizers' patterns are compiled once per
        statement (about 0.1 s for url_or_email's, 0.03 s for classic's), so a query string's texts are
        analyzed together. The default tokenizer's texts are cut in Python and need nothing."""
        missing = [text for text in dict.fromkeys(texts) if (self, text) not in _prepared]
        if self.tokenizer == STANDARD or len(missing) < 2:
            return
        tokens = f"ft_tokens_{self.tokenizer}(t)"
        terms = f"ft_filter_{self.filter}({tokens})" if self.filter else tokens
        found = _run(f"SELECT list(x ORDER BY n) FROM (SELECT n, {terms} AS x"
                     " FROM unnest(?::VARCHAR[]) WITH ORDINALITY AS u(t, n))", missing)
        if len(_prepared) > 4096:
            _prepared.clear()
        _prepared.update({(self, text): tuple(found_terms) for text, found_terms in zip(missing, found, strict=True)})

    def normalize(self, text: str) -> str:
        """Lucene's `Analyzer.normalize` for wildcard, fuzzy, regexp and range terms: no tokenizing."""
        if self.width:
            return next(iter(_run("SELECT [lower(ft_width(?))]", text)), None) or ""
        return text.lower() if self.lower_case else text


_prepared: dict[tuple[Analyzer, str], tuple[str | None, ...]] = {}
"""Terms `Analyzer.prepare` cut ahead of `_terms`."""


@functools.lru_cache(maxsize=4096)
def _terms(analyzer_: Analyzer, text: str) -> tuple[str | None, ...]:
    if (analyzer_, text) in _prepared:
        return _prepared[analyzer_, text]
    if analyzer_.tokenizer == STANDARD:
        terms: list[str | None] = list(standard_terms(text))
        if analyzer_.filter is not None and terms:
            terms = _run(f"SELECT ft_filter_{analyzer_.filter}(?::VARCHAR[])", terms)
        return tuple(terms)
    tokens = f"ft_tokens_{analyzer_.tokenizer}(?)"
    return tuple(_run(f"SELECT {f'ft_filter_{analyzer_.filter}({tokens})' if analyzer_.filter else tokens}", text))


_STOP = analyzer.ENGLISH_STOP_WORDS

ANALYZERS: dict[str, Analyzer] = {a.name: a for a in (
    Analyzer(DEFAULT, "The default analyzer. Same as the 'standard' analyzer, but with no stopwords.", STANDARD),
    Analyzer("standard", "The standard analyzer. Tokenizes on non-letter and filters out English stop words and "
             "punctuation. Does no stemming, but takes care to keep likely product names, URLs and email "
             "addresses as single terms.", STANDARD, "stop", _STOP),
    Analyzer("english", "English analyzer with stemming and stop word filtering.", STANDARD, "english", _STOP),
    Analyzer("simple", "A simple analyzer that tokenizes at non-letter boundaries. No stemming or filtering. Works "
             "okay for most European languages, but is terrible for languages where words are not separated by "
             "spaces, such as many Asian languages.", "letter"),
    Analyzer("stop", "Stop analyzer tokenizes at non-letter characters, and filters out English stop words. This "
             "differs from the 'classic' and 'standard' analyzers in that it makes no effort to recognize special "
             "terms, like likely product names, URLs or email addresses.", "letter", "stop", _STOP),
    Analyzer("whitespace", 'Breaks text into terms by characters that are considered "Java whitespace".',
             "whitespace", lower_case=False),
    Analyzer("unicode_whitespace", "Breaks text into terms by characters that have the unicode WHITESPACE property.",
             "unicode_whitespace", lower_case=False),
    Analyzer("keyword", 'Keyword analyzer "tokenizes" the text as a single term. Useful for zip-codes, ids, etc. '
             "Situations where complete and exact matches are desired.", "keyword", lower_case=False),
    Analyzer("cjk", "CJK - Chinese/Japanese/Korean - analyzer. Terms are normalised and case-folded. Produces "
             "bi-grams, and filters out stop words.", "cjk", "cjk", cjk.STOP_WORDS, width=True),
    Analyzer("classic", "Classic Lucene analyzer. Similar to 'standard', but with worse unicode support.", "classic",
             "stop", _STOP),
    # Neo4j registers UAX29URLEmailAnalyzer under three names, with one description (engine/fulltext/url_email.py)
    *(Analyzer(name, "Tokenizes into sequences of alpha-numeric, numeric, URL, email, southeast asian terms, and "
               "into terms of individual ideographic and hiragana characters. English stop words are filtered out.",
               "url_or_email", "stop", _STOP) for name in ("url_or_email", "url", "email")),
)}
"""The analyzers implemented; Neo4j's others (the language analyzers but english, standard-folding) are
refused where an index or query names them."""


def for_index(index: IndexInfo) -> Analyzer:
    """The analyzer an index was created with (its OPTIONS, as the catalog keeps them)."""
    config = json.loads(index.options) if index.options else {}
    return ANALYZERS[str(config.get("fulltext.analyzer", DEFAULT))]
