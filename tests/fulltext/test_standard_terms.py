"""The analyzers on StandardTokenizer's word breaks (the default `standard-no-stop-words`, `url_or_email`,
`cjk`) against real Lucene (`LuceneOracle.java --terms`), string by string, where UAX#29's rules join
characters that are no letters: every string of up to three characters over the zero-width joiner and
non-joiner, the presentation selectors, the keycap mark, a skin tone, a regional indicator, a combining mark,
soft hyphen, word joiner, tag characters, emoji (one a modifier base, one a letter by Word_Break), `#`,
digits, letters of several scripts, a Hebrew quote and separators; and every code point of the blocks that
hold emoji in the contexts the emoji rule looks at (joined, with a skin tone, a keycap, tags, beside letters). Terms and
position increments must be the same (docs/adr/0101).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tests.fulltext.test_classic_terms import engine_terms, lucene_terms
from tests.fulltext.test_lucene_oracle import pytestmark  # noqa: F401 (skips without Lucene)

ALPHABET = ["\u200d", "\u200c", "\ufe0f", "\ufe0e", "\u20e3", "\U0001F3FB", "\U0001F1FA", "\u0301", "\u00ad",
            "\u2060", "\U000E0067", "\U000E007F", "😀", "👍", "©", "Ⓜ", "#", "1", "a", "ア", "ｱ", "א", "\"", "日",
            "あ", "ก", "한", " ", ".", "'", "_"]
ANALYZERS = {"standard-no-stop-words": "ft_tokens(t)", "url_or_email": "ft_filter_stop(ft_tokens_url_or_email(t))",
             "cjk": "ft_filter_cjk(ft_tokens_cjk(t))"}


def short_strings() -> list[str]:
    return ["".join(p) for k in range(1, 4) for p in itertools.product(ALPHABET, repeat=k)]


def pictographs_in_context() -> list[str]:
    """Each code point of the blocks that hold the emoji, in the emoji rule's contexts."""
    points = [0xA9, 0xAE, *range(0x2000, 0x2C00), *range(0x3000, 0x3040), *range(0x1F000, 0x1FB00)]
    zwj, tone = "\u200d", "\U0001F3FD"
    return [f"{c} {zwj}{c}{zwj} {c}{tone} a{c}b {c}\ufe0f{zwj}{c} {c}\ufe0e{zwj}{c} #{c} {c}{zwj}👦{tone}{zwj}{c}\u20e3"
            f" {tone}{c}{zwj}{zwj}{tone}.{c}\U000E0067\U000E007F{c}"
            for c in map(chr, points) if c not in "\u2028\u2029"]


@pytest.mark.parametrize("name", ANALYZERS)
@pytest.mark.parametrize("texts", [short_strings, pictographs_in_context], ids=["short-strings", "pictographs"])
def test_terms_are_lucenes(tmp_path: Path, name: str, texts) -> None:
    chosen = texts()
    expected, got = lucene_terms(tmp_path, chosen, name), engine_terms(chosen, ANALYZERS[name])
    wrong = [(text, want, have) for text, want, have in zip(chosen, expected, got, strict=True) if want != have]
    assert len(chosen) > 3000 and wrong[:5] == []
