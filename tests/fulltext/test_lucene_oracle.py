"""Full-text scores against real Lucene: the same seeded corpus indexed and the same query strings run by
Lucene (Debian's `liblucene8-java`, driven by `LuceneOracle.java` beside this file) and by the engine
(`CREATE FULLTEXT INDEX ... ON EACH [n.title, n.body]`, `db.index.fulltext.queryNodes` /
`queryRelationships`); every hit's id, rank and score bits must be the same. The queries cover every form
the engine accepts (fuzzy, sloppy phrases, regular expressions and ranges among them), run over the default
analyzer's index, an index per other analyzer, and a relationship index.

Lucene 8 and Lucene 9 (Neo4j 5) score these query forms alike (docs/adr/0086, 0089); the one difference the
engine follows Lucene 9 in, RegExp's `\\d` classes, is left out here and tested in tests/engine. Lucene
runs while the engine does. Skips only where `java` or the Lucene jars are missing (`.ci/run` installs them).
"""

from __future__ import annotations

import glob
import random
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

import engine

HITS = 50
JARS = ("core", "queryparser", "queries", "sandbox", "analyzers-common")


def lucene_classpath() -> str | None:
    """The Lucene 8 jars Debian installs, newest version of each, or None when one is missing."""
    paths = []
    for name in JARS:
        found = sorted(glob.glob(f"/usr/share/java/lucene-{name}-8*.jar"))
        if not found:
            return None
        paths.append(found[-1])
    return ":".join(paths)


CLASSPATH = lucene_classpath()
pytestmark = pytest.mark.skipif(shutil.which("java") is None or CLASSPATH is None,
                                reason="needs java and Debian's liblucene8-java (apt-get install liblucene8-java)")

# -- the corpus -------------------------------------------------------------------------------------------

COMMON = ["graph", "node", "memory", "agent", "fact", "query", "index", "token", "parser", "lucene", "score",
          "search", "edge", "path", "label", "property", "vector", "cypher", "store", "recall"]
RARE = ["café", "naïve", "zürich", "zait", "Straße", "x86_64", "U.S.A", "don't", "1,000", "über", "ωmega",
        "日本", "kanji", "quark", "ember", "fjord", "https://neo4j.com/docs?q=1", "John.Smith@Example.com",
        "my-site.org", "www.example.co.uk.", "192.168.0.1:8080/x", "mailto:a@b.io"]
CJK = ["日本語のテキスト", "日本", "東京タワー", "ｶﾀｶﾅ ﾃｽﾄ", "テスト", "한국어 텍스트", "한국어",
       "ＡＢＣ１２３", "中文字符", "知識グラフ", "グラフ・データベース",
       "ｸﾞﾗﾌ", "々", "記憶エージェント", "日本語", "ひらがな", "の", "Ｇｒａｐｈ"]
# What ClassicTokenizer's grammar tells apart (acronyms, companies, apostrophes, e-mails, hosts, numbers,
# its 255-character limit), for every analyzer
GRAMMAR = ["U.S.A.", "I.B.M.", "u.s.a", "AT&T", "Excite@Home", "O'Reilly's", "O'Reilly", "o'reilly's2", "you're",
           "bob@example.com", "bob.smith_jr@mail.example.co.uk", "www.example.com", "example.com.", "1,000.50",
           "2024-01-02", "x86_64", "a1.b2.c3.", "192.168.0.1", "wi-fi", "R2-D2", "B-52s", "ab-cd-ef1", "THE U.S.A.'s",
           "ﾃｽﾄ日本", "ภาษาไทย", "naïve.café", "x" * 255, "y" * 256, "z" * 300 + ".com", "q.e.d", "A.B.1."]
FILLER = ["the", "a", "of", "and", "to", "in", "is", "with", "for", "on"]


def corpus(size: int = 2400, seed: int = 41) -> list[tuple[int, str | None, str | None]]:
    """Documents (id, title, body) of Zipf-distributed words: short titles, bodies from 1 to 150 words
    (past 40 the one-byte norm rounds lengths), some without a title or a body, some mixed case."""
    rng = random.Random(seed)
    words = COMMON + RARE + FILLER
    weights = [1 / (rank + 1) for rank in range(len(COMMON))] + [0.02] * len(RARE) + [0.3] * len(FILLER)

    def text(low: int, high: int) -> str:
        chosen = rng.choices(words, weights, k=rng.randint(low, high))
        chosen = [w.upper() if rng.random() < 0.05 else w.capitalize() if rng.random() < 0.1 else w
                  for w in chosen]
        return " ".join(w + ("," if rng.random() < 0.08 else "") for w in chosen) + "."

    docs = []
    for i in range(size):
        title = text(1, 6) if rng.random() < 0.85 else None
        body = text(1, 150) if rng.random() < 0.95 or title is None else None
        if i % 9 == 0:  # CJK text (Han, Hiragana, Katakana, Hangul, full and half widths) for every analyzer
            cjk = " ".join(rng.choices(CJK, k=rng.randint(1, 4)))
            title = cjk if title is None else f"{title} {cjk}"
        if i % 7 == 0:
            grammar = " ".join(rng.choices(GRAMMAR, k=rng.randint(1, 3)))
            body = grammar if body is None else f"{grammar} {body}"
        docs.append((i, title, body))
    return docs


# -- the queries ------------------------------------------------------------------------------------------

FIXED = [
    # single terms, fielded, case and non-ASCII
    "graph", "recall", "zait", "café", "CAFÉ", "Straße", "x86_64", "U.S.A", "don't", "1,000", "日本", "ωmega",
    "title:graph", "body:memory", "title:quark", "body:\"fjord\"", "nothinghere",
    # runs of words (one text, each word's field group its own optional clause)
    "graph node", "memory agent fact", "lucene token parser", "café naïve zürich", "graph graph",
    "the graph of memory", "score search edge path label",
    # phrases
    '"graph node"', '"memory agent"', 'title:"graph node"', 'body:"agent fact"', '"node graph node"',
    # prefix and wildcards
    "gra*", "title:mem*", "no?e", "q?er*", "body:s*e",
    # required, prohibited, AND / OR / NOT
    "+graph node", "+café naïve zürich", "+graph +node", "graph -node", "+memory -agent fact",
    "graph AND node", "graph OR node", "graph NOT node", "graph && node || fact", "!graph node",
    "(graph OR node) AND memory", "(graph node) AND (memory fact)", "(graph AND node) OR memory",
    "memory AND (agent OR fact) AND NOT edge", "+(graph node) +(memory agent)", "+(graph node) memory",
    "graph (node (memory (agent fact)))", "((graph))", "(graph node) (memory agent)", "+graph (node memory)",
    "title:(graph node) body:memory", "title:(+graph -node)", "(+graph +node) fact",
    # boosts
    "graph^2", "graph^2 node", "title:graph^3 body:graph", "(graph node)^2", "(graph node)^2 memory",
    '"graph node"^1.5 memory', "gra*^3 node", "+graph^0.5 node^2", "(graph^2 node)^3", "graph^1.7 node^0.3 fact",
    # duplicates
    "zait^2 zait", "graph graph node", "+graph +graph", "(graph node) (graph node)", "graph^2 graph^3",
    "graph OR graph", "title:graph title:graph body:graph",
    # everything
    "*:*", "*:* -graph", "+*:* graph", "*:*^2 memory",
    # fuzzy terms: edits, the old similarity fraction, boosts either side, fields, in booleans
    "graph~", "graph~1", "graph~0", "grahp~1", "qurey~", "lable~2", "zait~", "cafe~", "zurich~1", "ωmeg~",
    "x86_46~", "edg~", "pth~", "agnet~0.8", "memroy~0.5", "recal~0.7", "graph~2.0", "title:node~",
    "body:toekn~1", "graph~^2", "graph^2~", "graph~1^0.5 node", "+graph~ node", "graph~ node~ memory",
    "+(qurey~ parser) -edge", "graph~ AND node", "(graph~)^3 fact", "zz~", "ab~2", "nothinghere~", "graph~1.5",
    "graph~-1", "gra*~",
    # sloppy phrases
    '"graph node"~1', '"graph node"~2', '"node graph"~2', '"graph memory agent"~4', '"memory graph"~10',
    'title:"graph node"~3', '"graph node"~2^2 memory', '"graph node"~0', '"graph node"~1.7', '"agent fact"~3 +node',
    '"the graph"~2', '"edge path label"~5',
    # regular expressions
    "/gr.ph/", "/gr[a-z]+/", "/(graph|node)/", "/n.d?e/", "title:/qu.*/", "/[^a-z].*/", "/.*a.*b.*/",
    "/z.{2}t/", "/caf./", "/Gr.PH/", "/gr(a/", "/graph/^2 node", "+/mem.*/ agent",
    # ranges
    "[a TO c]", "{agent TO edge}", "[agent TO edge}", "title:[m TO p]", "[* TO b]", "[x TO *]", "[graph graph]",
    "{graph TO graph}", '["a" TO "c"]', "[a TO c]^2 graph", "+[n TO q] memory", "[A TO C]", "[c TO a]",
    # escapes, and what Lucene's parser refuses
    "x86\\_64", "don\\'t", "title\\:graph", "*raph", "graph AND", "(graph", "title:",
]


def generated(rng: random.Random, count: int) -> list[str]:
    """Random combinations of the forms above over the corpus's words."""
    words = [w.lower() for w in COMMON] + ["café", "zait", "quark", "ember"]
    fields = ["", "", "", "title:", "body:"]

    def leaf() -> str:
        kind = rng.random()
        if kind < 0.6:
            term = rng.choice(fields) + rng.choice(words)
        elif kind < 0.75:
            term = f'{rng.choice(fields)}"{rng.choice(words)} {rng.choice(words)}"'
        elif kind < 0.85:
            term = rng.choice(fields) + rng.choice(words)[:3] + "*"
        else:
            term = "(" + " ".join(rng.choice(words) for _ in range(rng.randint(2, 3))) + ")"
        if rng.random() < 0.15:
            term += f"^{rng.choice(['2', '0.5', '3', '1.5'])}"
        return term

    queries = []
    for _ in range(count):
        parts = []
        for position in range(rng.randint(2, 5)):
            prefix = rng.choice(["", "", "", "+", "-"]) if position else rng.choice(["", "", "+"])
            joiner = rng.choice([" ", " ", " AND ", " OR "]) if position else ""
            parts.append(joiner + prefix + leaf())
        queries.append("".join(parts).strip())
    return queries


DEFAULT = "standard-no-stop-words"
RELATIONSHIPS = "relationships"  # the default analyzer, over a relationship index

# Each analyzer's queries: its terms (case, stop words, stems, punctuation), phrases across stop words,
# and the forms only normalized (wildcards, fuzzy, regexp, range), which some analyzers leave in mixed case.
BY_ANALYZER = [
    "graph", "Graph", "GRAPH", "the", "the graph", "graphs", "memories", "querying", "properties", "don't",
    '"graph of memory"', '"the graph"', '"graph the node"~2', '"memory graph"~3', "Gra*", "gr?ph", "qurey~",
    "Grahp~1", "/gr.ph/", "[a TO c]", "+graph -the memory^2", "graph. memory,", "title:(Graph Node)",
    "zürich", "x86_64", "U.S.A", "café", "1,000", "title:graph*", "title:/graph .*/",
]
ANALYZERS = ["standard", "english", "simple", "stop", "whitespace", "unicode_whitespace", "keyword", "cjk", "classic",
             "url_or_email"]
# URLs and e-mail addresses as the url_or_email analyzer keeps them (TLDs Lucene 8 and 9 both know)
URL_QUERIES = ["my-site.org", "john.smith@example.com", '"https://neo4j.com/docs?q=1"', "www.example.co.uk.",
               "example", "site", "neo4j.com", "mailto", "a@b.io", '"192.168.0.1:8080/x"', "my-site.org graph",
               "John.Smith@Example.com~1", "my-site*", "+my-site.org -graph"]
CJK_QUERIES = ["日本語", "日本", "テキスト", "ﾃｷｽﾄ", "한국어", "텍스트", "ＡＢＣ１２３", "abc123",
               '"日本語のテキスト"', "テキ*", "ﾃｷ*", "日本~1", "グラフ", "ｸﾞﾗﾌ", "知識 グラフ", "title:東京",
               "+日本 -テスト", "ひらがな", "の", "Ｇｒａｐｈ", "title:(中文 字符)", "[日 TO 本]", "/日.*/"]

CLASSIC_QUERIES = ["U.S.A.", "usa", "u.s.a", "I.B.M.", "ibm", "AT&T", "at&t", "excite@home", "O'Reilly's",
                   "o'reilly", "reilly", "bob@example.com", "example.com", "www.example.com", "1,000.50", "2024-01-02",
                   "x86_64", "a1.b2.c3", "192.168.0.1", "wi-fi", "wi", "r2-d2", "b-52s", '"THE U.S.A.\'s"', "x" * 255,
                   "y" * 256, "ภาษาไทย", "you're", "O'Reil*", "excite@hom~1", "title:(usa ibm)", "+at&t -ibm"]

QUERIES: list[tuple[str, str]] = (
    [(DEFAULT, q) for q in FIXED + generated(random.Random(7), 120)]
    + [(name, q) for name in ANALYZERS for q in BY_ANALYZER]
    + [(name, q) for name in ("cjk", DEFAULT, "standard") for q in CJK_QUERIES]
    + [(name, q) for name in ("classic", DEFAULT, "english") for q in CLASSIC_QUERIES]
    + [(name, q) for name in ("url_or_email", DEFAULT) for q in URL_QUERIES]
    + [(RELATIONSHIPS, q) for q in ["graph", "graph node", '"graph node"~2', "+memory -agent fact", "gra*",
                                    "graph~", "title:(graph node) body:memory", "[a TO c]", "/gr.ph/", "*:*"]]
)

# -- running both -----------------------------------------------------------------------------------------

Hit = tuple[int, int, int]  # rank, id, score bits


def float_bits(value: float) -> int:
    return struct.unpack(">i", struct.pack(">f", value))[0]


def start_lucene(tmp: Path, docs: list[tuple[int, str | None, str | None]]) -> subprocess.Popen[str]:
    """The oracle's run, started so that it runs while the engine runs the same queries."""
    source = Path(__file__).with_name("LuceneOracle.java")
    (tmp / "docs.tsv").write_text("".join(f"{i}\t{t if t is not None else chr(92) + 'N'}\t"
                                          f"{b if b is not None else chr(92) + 'N'}\n" for i, t, b in docs),
                                  encoding="utf-8")
    (tmp / "queries.txt").write_text("".join(f"{DEFAULT if target == RELATIONSHIPS else target}\t{q}\n"
                                             for target, q in QUERIES), encoding="utf-8")
    return subprocess.Popen(["java", "-cp", CLASSPATH, str(source), str(tmp / "docs.tsv"), str(tmp / "queries.txt"),
                             str(HITS)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")


def lucene_hits(run: subprocess.Popen[str]) -> dict[int, list[Hit] | str]:
    out, err = run.communicate()
    assert run.returncode == 0, err
    results: dict[int, list[Hit] | str] = {number: [] for number in range(len(QUERIES))}
    for line in out.splitlines():
        number, rank, *rest = line.split("\t")
        if rank == "ERROR":
            results[int(number)] = rest[0]
        else:
            hits = results[int(number)]
            assert isinstance(hits, list)
            hits.append((int(rank), int(rest[0]), int(rest[1])))
    return results


def engine_hits(docs: list[tuple[int, str | None, str | None]]) -> dict[int, list[Hit] | str]:
    """The same documents as nodes (one label per analyzer, each label's index with that analyzer) and as
    relationships, queried through Neo4j's procedures."""
    db = engine.connect(":memory:")
    labels = "".join(f":A{number}" for number in range(len(ANALYZERS)))
    db.execute(f"UNWIND $docs AS d CREATE (n:Doc{labels} {{id: d.id}}) SET n.title = d.title, n.body = d.body"
               f" CREATE (n)-[r:LINK {{id: d.id}}]->(n) SET r.title = d.title, r.body = d.body",
               {"docs": [{"id": i, "title": t, "body": b} for i, t, b in docs]})
    indexes = {DEFAULT: "docs", RELATIONSHIPS: "links"}
    db.execute("CREATE FULLTEXT INDEX docs FOR (n:Doc) ON EACH [n.title, n.body]")
    db.execute("CREATE FULLTEXT INDEX links FOR ()-[r:LINK]-() ON EACH [r.title, r.body]")
    for number, name in enumerate(ANALYZERS):
        indexes[name] = f"docs_{number}"
        db.execute(f"CREATE FULLTEXT INDEX docs_{number} FOR (n:A{number}) ON EACH [n.title, n.body]"
                   " OPTIONS {indexConfig: {`fulltext.analyzer`: $analyzer}}", {"analyzer": name})
    results: dict[int, list[Hit] | str] = {}
    for number, (target, query) in enumerate(QUERIES):
        procedure, element = (("queryRelationships", "relationship") if target == RELATIONSHIPS
                              else ("queryNodes", "node"))
        try:
            rows = db.execute(f"CALL db.index.fulltext.{procedure}($index, $q, {{limit: $limit}})"
                              f" YIELD {element}, score RETURN {element}.id AS id, score",
                              {"index": indexes[target], "q": query, "limit": HITS}).fetchall()
        except engine.CypherError as error:
            results[number] = type(error).__name__
            continue
        results[number] = [(rank, i, float_bits(score)) for rank, (i, score) in enumerate(rows)]
    return results


def differences(expected: dict[int, list[Hit] | str], got: dict[int, list[Hit] | str]) -> list[str]:
    """One line per query whose hits differ, naming the first hit that does."""
    found = []
    for number, (target, query) in enumerate(QUERIES):
        want, have = expected[number], got[number]
        if isinstance(want, str) or isinstance(have, str):
            if isinstance(want, str) != isinstance(have, str):
                found.append(f"{target} {query!r}: Lucene {want if isinstance(want, str) else 'runs'},"
                             f" engine {have if isinstance(have, str) else 'runs'}")
            continue
        if want != have:
            wrong = sum(1 for w, h in zip(want, have, strict=False) if w != h) + abs(len(want) - len(have))
            first = next((w, h) for w, h in zip([*want, None], [*have, None], strict=False) if w != h)
            found.append(f"{target} {query!r}: {wrong} of {len(want)} hits differ,"
                         f" first Lucene {first[0]} engine {first[1]}")
    return found


def test_scores_are_lucenes_bit_for_bit(tmp_path: Path) -> None:
    docs = corpus()
    lucene = start_lucene(tmp_path, docs)
    got = engine_hits(docs)
    expected = lucene_hits(lucene)
    assert len(QUERIES) >= 150 and len(docs) >= 2000
    assert sum(len(hits) for hits in expected.values() if isinstance(hits, list)) > 3000
    assert differences(expected, got) == []
