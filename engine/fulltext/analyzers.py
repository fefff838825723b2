"""The analyzers a full-text index may name (`OPTIONS {indexConfig: {`fulltext.analyzer`: ...}}`), with the
names, descriptions and stop words `db.index.fulltext.listAvailableAnalyzers()` shows, as Neo4j lists them.

An analyzer is used twice: in SQL when the index is written (engine/fulltext/maintain.py), and in Python when
a query string is parsed (`analyze`, `normalize`). Both cut text the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.fulltext.scoring import analyze as standard_tokens

DEFAULT = "standard-no-stop-words"


@dataclass(frozen=True)
class Analyzer:
    name: str
    description: str
    stopwords: tuple[str, ...]
    tokens: Callable[[str], Sequence[str]]

    def analyze(self, text: str) -> list[tuple[str, int]]:
        """The terms of `text` with their positions (a stop word dropped leaves a gap)."""
        return [(term, position) for position, term in enumerate(self.tokens(text))]

    def normalize(self, text: str) -> str:
        """Lucene's `Analyzer.normalize`: the lower-casing of the analyzer's filters, without tokenizing."""
        return text.lower()


ANALYZERS: dict[str, Analyzer] = {
    DEFAULT: Analyzer(DEFAULT, "The default analyzer. Same as the 'standard' analyzer, but with no stopwords.",
                      (), standard_tokens),
}
