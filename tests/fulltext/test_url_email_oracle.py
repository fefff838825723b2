"""The `url_or_email` analyzer's terms against real Lucene: random texts made of URL, e-mail and word pieces
(schemes, ports, paths, queries, fragments, IPv4 and IPv6 hosts, bare and hyphenated domains, quoted and
dotted addresses, `mailto:`, trailing punctuation, upper case, letters and emoji of other scripts) cut by
Lucene's UAX29URLEmailAnalyzer (Debian's `liblucene8-java`, driven by `UrlEmailTokens.java` beside this
file) and by the analyzer's SQL, the one the index and the query parser run.

The pieces use only TLDs that Lucene 8.7's list and Lucene 9's (the engine's, Neo4j 5's) both hold, and words
that are a TLD in neither. They leave out what docs/fulltext.md lists as different: a bracketed host right
after another host with no space between, and `[::]` right before a hyphenated host.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import duckdb
import pytest

from engine.fulltext import analyzers
from tests.fulltext.test_lucene_oracle import CLASSPATH

pytestmark = pytest.mark.skipif(shutil.which("java") is None or CLASSPATH is None,
                                reason="needs java and Debian's liblucene8-java (apt-get install liblucene8-java)")

TLDS = ["com", "org", "net", "co", "uk", "au", "de", "io", "info", "community", "travel", "xn--p1ai", "cat", "ca",
        "cab", "car", "cars", "boo", "book", "ski", "skin", "pro", "prod", "museum", "COM", "Org", "email", "mobi"]
WORDS = ["foo", "xx", "qq", "abcx", "foox", "my-site", "a1", "1b", "x-y", "zork", "a", "b9", "9z", "www", "x",
         "mailto", "http", "example", "Example.COM", "first.last", "Straße", "日本語", "Café", "O'Reilly", "don't",
         "x86_64", "v1.2.3", "a-b-c", "x.y.z", "sub.domain", "ex-ample.org", "mail.google.com", "ü", "ア", "ﾃ", "日"]
PIECES = [*".-/:?#@!\" ,;'_[]%~&=+*()<>\n\t",
    "\u00ad", "\u202f", "·", "😀", "👍🏽", "\u200d", "\ufe0e", "\U0001F3FB", "\u0301", "‿", "…", "»", "—", "\u3000",
    "\u00a0", "1", "80", "8080", "255",
    "192", "0", "::", "mailto:", "http://", "https://", "ftp://", "file://", "HTTP://", "..", "1.2.3.4", "[::1] ",
    "[2001:db8::1] ", "%20", "%41", "%zz", "#\u20e3", '"a b"', '"x\\"y"', "x@y.com", "a.b+c@d.co.uk", "user:pw@",
    "?q=1&r=2", "#frag", ":443", "/p/a/t/h", "/index.html", "ipv6:", "192.168.0.1", "10.0.0.256", "127.0.0.1:8080",
    "::ffff:1.2.3.4", "ftp://ftp.x.org/pub;type=a", "file:///etc/passwd", "~user", "1,000", "3.14", "@[1.2.3.4]"]


def texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)

    def piece() -> str:
        r = rng.random()
        chosen = rng.choice(TLDS) if r < 0.3 else rng.choice(WORDS) if r < 0.6 else rng.choice(PIECES)
        return chosen.upper() if rng.random() < 0.05 else chosen

    return ["".join(piece() for _ in range(rng.randint(1, 14))) for _ in range(count)] + [
        "Mail John.Smith@Example.COM, or see https://neo4j.com/docs/cypher?x=1#top.",
        "see foo.com. and my-site.org, then [::1]:8080/x and ftp://u:p@ftp.x.org/a;type=i",
        'quoted "john doe"@example.org and mailto:a@b.co.uk and foo.com"x"@y.com and a-b.com😀',
        "hosts a1.b2.com, www.example.com.au, EXAMPLE.community and x@[127.0.0.1]",
        "mailto:a.com:80/x@y.com mailto:a.com/x;y@z.com mailto:a.com/x@y.com/more a.com/x@[1.2.3.4] a.com?b@c.de,x",

    ]


def lucene_terms(tmp: Path, inputs: list[str]) -> list[list[str]]:
    source = Path(__file__).with_name("UrlEmailTokens.java")
    (tmp / "texts.txt").write_text("".join(t.replace("\n", "\\n") + "\n" for t in inputs), encoding="utf-8")
    run = subprocess.run(["java", "-cp", CLASSPATH, str(source), str(tmp / "texts.txt")], capture_output=True,
                         text=True, encoding="utf-8", check=True)
    return [line.split("\u0001") if line else [] for line in run.stdout.split("\n")[:len(inputs)]]


def engine_terms(inputs: list[str]) -> list[list[str]]:
    """The analyzer's SQL over all texts at once, as an index write runs it (stop words dropped)."""
    db = duckdb.connect()
    for signature, body in analyzers.MACROS:
        db.execute(f"CREATE MACRO {signature} AS {body}")
    db.execute("CREATE TABLE t(i INTEGER, s VARCHAR)")
    db.executemany("INSERT INTO t VALUES (?, ?)", list(enumerate(inputs)))
    rows = db.execute("SELECT i, list_filter(ft_filter_stop(ft_tokens_url_or_email(s)), lambda x: x IS NOT NULL)"
                      " FROM t ORDER BY i").fetchall()
    return [terms for _, terms in rows]


def test_terms_are_lucenes(tmp_path: Path) -> None:
    inputs = [text for text in texts(4000, 41)
              if "\\n" not in text and "[::]" not in text and "] [" not in text]
    expected = lucene_terms(tmp_path, inputs)
    got = engine_terms(inputs)
    assert sum(len(terms) for terms in expected) > 10000
    assert sum(any("@" in term or "/" in term for term in terms) for terms in expected) > 500
    different = [(text, want, have) for text, want, have in zip(inputs, expected, got, strict=True) if want != have]
    assert different[:5] == []


def test_query_terms_are_the_index_terms() -> None:
    analyzer = analyzers.ANALYZERS["url"]
    # a fragment holds `.`, so the sentence's full stop is the URL's
    assert analyzer.analyze("Mail John.Smith@Example.COM, see https://Neo4j.com/a?b=1#c. The end") == [
        ("mail", 0), ("john.smith@example.com", 1), ("see", 2), ("https://neo4j.com/a?b=1#c.", 3), ("end", 5)]
    assert [term for term, _ in analyzers.ANALYZERS["email"].analyze("my-site.org-x foo.com. mailto:a@b.io")] == [
        "my", "site.org", "x", "foo.com.", "mailto", "a@b.io"]  # the root `.` mid-text is kept


def test_texts_prepared_together_have_the_terms_cut_one_by_one() -> None:
    """A query string's texts are cut in one statement (`Analyzer.prepare`), each still to its own terms."""
    texts = ["see foo.com", "mail a@b.io now", "the U.S.A.'s", "O'Reilly's", "x@y.com graph", "foo.com"]
    for name in ("url", "classic", "english"):
        analyzer = analyzers.ANALYZERS[name]
        alone = [analyzer.analyze(text) for text in texts]
        analyzers._terms.cache_clear()
        analyzer.prepare(texts)
        assert [analyzer.analyze(text) for text in texts] == alone
    assert analyzers.ANALYZERS["url"].analyze(texts[1]) == [("mail", 0), ("a@b.io", 1), ("now", 2)]
