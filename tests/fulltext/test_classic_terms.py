"""The `classic` analyzer's terms against real Lucene's ClassicAnalyzer (`LuceneOracle.java --terms`), string
by string: every string of up to four characters over one character of each class ClassicTokenizer's
scanner tells apart (and `s`, which ClassicFilter reads), and every code point of the Basic Multilingual
Plane and a few beyond in the contexts its rules look at. Terms and position increments must be the same.
The longer exhaustive run behind ADR-0099 (all 5.2 million strings of up to six characters) is this test
with a larger `LENGTH`.
"""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path

import duckdb
import pytest

from engine.fulltext.analyzers import MACROS
from tests.fulltext.test_lucene_oracle import CLASSPATH, pytestmark  # noqa: F401 (skips without Lucene)

LENGTH = 4
# a letter, an upper-case letter, `s`, a digit, a Thai sign, the separators, a space, a CJ character
ALPHABET = ["b", "S", "s", "1", "\u0e31", "'", ".", "&", "@", "-", "_", "/", " ", "日"]


def short_strings() -> list[str]:
    return ["".join(p) for k in range(1, LENGTH + 1) for p in itertools.product(ALPHABET, repeat=k)]


def code_points_in_context() -> list[str]:
    points = [*range(0x20, 0xD800), *range(0xE000, 0x10000), 0x1D400, 0x20000, 0x1F600, 0x10FFFD]
    return [f"{c} b{c}1 1{c}b-{c}{c} {c}.{c}.x {c}'{c}s {c}@{c}.{c}1 Q{c}&{c}"
            for c in map(chr, points) if c not in "\n\r\x85\u2028\u2029"]


def lucene_terms(tmp: Path, texts: list[str], analyzer: str = "classic") -> list[list[tuple[int, str]]]:
    """Each text's terms as Lucene's analyzer (its Neo4j name) makes them, with position increments."""
    (tmp / "texts.txt").write_text("".join(f"{t}\n" for t in texts), encoding="utf-8")
    source = Path(__file__).with_name("LuceneOracle.java")
    run = subprocess.run(["java", "-cp", CLASSPATH, str(source), "--terms", analyzer, str(tmp / "texts.txt")],
                         capture_output=True, check=True)
    lines = run.stdout.decode("utf-8").split("\n")[:len(texts)]
    return [[(int(i), term) for i, term in (t.split("\x02", 1) for t in line.split("\x01"))] if line else []
            for line in lines]


def engine_terms(texts: list[str],
                 terms_sql: str = "ft_filter_stop(ft_tokens_classic(t))") -> list[list[tuple[int, str]]]:
    """The analyzer's SQL (`terms_sql` over `t`) over all texts at once, as an index is written: a NULL (a stop
    word, a token over 255 characters) is a position without a term."""
    connection = duckdb.connect(":memory:")
    for signature, body in MACROS:
        connection.execute(f"CREATE MACRO {signature} AS {body}")
    rows = connection.execute(f"SELECT {terms_sql}"
                              " FROM unnest($texts) WITH ORDINALITY AS u(t, n) ORDER BY n", {"texts": texts}).fetchall()
    found = []
    for (terms,) in rows:
        increments, gap = [], 1
        for term in terms:
            if term is None:
                gap += 1
            else:
                increments.append((gap, term))
                gap = 1
        found.append(increments)
    return found


@pytest.mark.parametrize("texts", [short_strings, code_points_in_context], ids=["short-strings", "code-points"])
def test_classic_terms_are_lucenes(tmp_path: Path, texts) -> None:
    chosen = texts()
    expected, got = lucene_terms(tmp_path, chosen), engine_terms(chosen)
    wrong = [(text, want, have) for text, want, have in zip(chosen, expected, got, strict=True) if want != have]
    assert len(chosen) > 30000 and wrong[:5] == []
