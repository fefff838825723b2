"""Full-text indexes: DDL, maintenance under writes, the Lucene query syntax, and BM25 scores checked against
an implementation of Lucene 9's BM25Similarity written here, independently of the engine's SQL."""

from __future__ import annotations

import math
import random
import re
import struct

import duckdb
import pytest

import engine
from engine.errors import CypherError, ProcedureError, SchemaError, UnsupportedFeature
from engine.fulltext.analyzers import ANALYZERS, DEFAULT, standard_terms
from engine.fulltext.query import BooleanQuery, BoostQuery, PatternQuery, PhraseQuery, TermQuery, parse_query
from engine.fulltext.rewrite import rewrite

analyze = ANALYZERS[DEFAULT]

# -- an independent Lucene BM25 ---------------------------------------------------------------------------


def f32(value: float) -> float:
    """Round to a Java float."""
    return struct.unpack("f", struct.pack("f", value))[0]


def long_to_int4(value: int) -> int:
    bits = value.bit_length()
    if bits < 4:
        return value
    shift = bits - 4
    return ((value >> shift) & 0x07) | ((shift + 1) << 3)


def int4_to_long(value: int) -> int:
    bits = value & 0x07
    shift = (value >> 3) - 1
    return bits if shift == -1 else (bits | 0x08) << shift


FREE = 255 - long_to_int4(2**31 - 1)


def int_to_byte4(value: int) -> int:
    return value if value < FREE else FREE + long_to_int4(value - FREE)


def byte4_to_int(byte: int) -> int:
    return byte if byte < FREE else FREE + int4_to_long(byte - FREE)


def test_small_float_matches_lucene_tables() -> None:
    assert FREE == 24
    assert [byte4_to_int(int_to_byte4(n)) for n in (0, 1, 23, 24, 39, 40, 41, 100, 1000)] == \
        [0, 1, 23, 24, 39, 40, 40, 96, 984]
    assert byte4_to_int(255) == 24 + int4_to_long(231)


def tokens(text: str) -> list[str]:
    return [word.lower() for word in re.findall(r"[A-Za-z0-9]+", text)]


class Lucene:
    """Per-field statistics and scores of a corpus, as Lucene 9's BM25Similarity (k1 1.2, b 0.75)."""

    def __init__(self, docs: dict[int, dict[str, str]], fields: list[str]) -> None:
        self.fields = fields
        self.terms = {i: {f: tokens(d[f]) for f in fields if d.get(f) is not None} for i, d in docs.items()}
        self.doc_count = {f: sum(1 for t in self.terms.values() if t.get(f)) for f in fields}
        self.total = {f: sum(len(t.get(f, [])) for t in self.terms.values()) for f in fields}

    def term_scores(self, field: str, term: str, boost: float = 1.0) -> dict[int, float]:
        n = self.doc_count[field]
        freqs = {i: t[field].count(term) for i, t in self.terms.items() if t.get(field) and term in t[field]}
        if not freqs:
            return {}
        df = len(freqs)
        idf = f32(math.log(1 + (n - df + 0.5) / (df + 0.5)))
        avgdl = f32(self.total[field] / n)
        weight = f32(f32(boost) * idf)
        scores = {}
        for i, freq in freqs.items():
            dl = float(byte4_to_int(int_to_byte4(len(self.terms[i][field]))))
            norm = f32(f32(1.2) * f32(f32(1 - f32(0.75)) + f32(f32(f32(0.75) * dl) / avgdl)))
            norm_inverse = f32(1 / norm)
            scores[i] = f32(weight - f32(weight / f32(1 + f32(freq * norm_inverse))))
        return scores

    @staticmethod
    def should(*clauses: dict[int, float]) -> dict[int, float]:
        """A BooleanQuery of SHOULD clauses: the sum in a double, rounded to a float."""
        sums: dict[int, float] = {}
        for clause in clauses:
            for i, score in clause.items():
                sums[i] = sums.get(i, 0.0) + score
        return {i: f32(score) for i, score in sums.items()}

    def any_field(self, term: str) -> dict[int, float]:
        return self.should(*(self.term_scores(f, term) for f in self.fields))


WORDS = [f"{a}{b}" for a in ("al", "be", "co", "de", "ex", "fo", "gu", "hi") for b in ("ta", "ri", "mon", "sel", "vu",
                                                                                        "kor", "pin", "zed")]


def corpus(size: int = 1200, seed: int = 17) -> dict[int, dict[str, str]]:
    rng = random.Random(seed)
    weights = [1 / (rank + 1) for rank in range(len(WORDS))]

    def text(low: int, high: int) -> str:
        words = rng.choices(WORDS, weights, k=rng.randint(low, high))
        words = [w.capitalize() if rng.random() < 0.1 else w for w in words]
        return " ".join(w + ("," if rng.random() < 0.1 else "") for w in words) + "."

    docs = {}
    for i in range(size):
        docs[i] = {"title": text(1, 8) if rng.random() < 0.8 else None, "body": text(3, 160)}
    return docs


@pytest.fixture(scope="module")
def indexed() -> tuple[engine.Connection, Lucene]:
    docs = corpus()
    db = engine.connect(":memory:")
    db.execute("UNWIND $docs AS d CREATE (:Doc {i: d.i, title: d.title, body: d.body})",
               {"docs": [{"i": i, **d} for i, d in docs.items()]})
    db.execute("CREATE FULLTEXT INDEX docs FOR (n:Doc) ON EACH [n.title, n.body]")
    return db, Lucene(docs, ["title", "body"])


def query_nodes(db: engine.Connection, index: str, query: str, options: dict | None = None) -> list[tuple]:
    call = "CALL db.index.fulltext.queryNodes($index, $query" + (", $options" if options is not None else "") + ")"
    return db.execute(f"{call} YIELD node, score RETURN node.i AS i, score",
                      {"index": index, "query": query, "options": options}).fetchall()


def assert_ranked(got: list[tuple], expected: dict[int, float]) -> None:
    assert {i for i, _ in got} == set(expected)
    for i, score in got:
        assert score == pytest.approx(expected[i], rel=1e-6)
    assert [i for i, _ in got] == sorted(expected, key=lambda i: (-expected[i], i))


@pytest.mark.parametrize("word", [WORDS[0], WORDS[5], WORDS[30], WORDS[63]])
def test_single_term_scores_match_lucene(indexed: tuple[engine.Connection, Lucene], word: str) -> None:
    db, lucene = indexed
    expected = lucene.any_field(word)
    assert expected
    assert_ranked(query_nodes(db, "docs", word), expected)


def test_multi_term_scores_match_lucene(indexed: tuple[engine.Connection, Lucene]) -> None:
    db, lucene = indexed
    words = [WORDS[2], WORDS[17], WORDS[44]]
    expected = lucene.should(*(lucene.any_field(w) for w in words))
    assert_ranked(query_nodes(db, "docs", " ".join(w.upper() for w in words)), expected)


def test_fielded_and_boosted_scores_match_lucene(indexed: tuple[engine.Connection, Lucene]) -> None:
    db, lucene = indexed
    expected = lucene.should(lucene.term_scores("title", WORDS[3]), lucene.term_scores("body", WORDS[9], 2.5))
    assert_ranked(query_nodes(db, "docs", f"title:{WORDS[3]} body:{WORDS[9]}^2.5"), expected)


def test_required_term_and_limit(indexed: tuple[engine.Connection, Lucene]) -> None:
    db, lucene = indexed
    first, second = lucene.any_field(WORDS[1]), lucene.any_field(WORDS[20])
    both = {i: s for i, s in lucene.should(first, second).items() if i in first and i in second}
    assert_ranked(query_nodes(db, "docs", f"{WORDS[1]} AND {WORDS[20]}"), both)
    best = sorted(both, key=lambda i: (-both[i], i))
    got = query_nodes(db, "docs", f"+{WORDS[1]} +{WORDS[20]}", {"limit": 5, "skip": 2})
    assert [i for i, _ in got] == best[2:7]


# -- the index kept current -------------------------------------------------------------------------------


@pytest.fixture()
def db() -> engine.Connection:
    connection = engine.connect(":memory:")
    connection.execute("CREATE (:Doc {i: 1, title: 'Graph databases', body: 'nodes and relationships'}),"
                       " (:Doc {i: 2, title: 'Cooking', body: 'bread and butter'}),"
                       " (:Note {i: 3, title: 'graph theory'})")
    connection.execute("CREATE FULLTEXT INDEX docs FOR (n:Doc|Memo) ON EACH [n.title, n.body]")
    return connection


def hits(db: engine.Connection, query: str, index: str = "docs") -> list[int]:
    return [i for i, _ in query_nodes(db, index, query)]


def test_index_follows_create_set_remove_labels_and_delete(db: engine.Connection) -> None:
    assert hits(db, "graph") == [1]
    db.execute("CREATE (:Doc {i: 4, body: 'a graph of graphs, graph'})")
    assert hits(db, "graph") == [4, 1]
    db.execute("MATCH (n:Doc {i: 2}) SET n.title = 'graph cooking'")
    assert set(hits(db, "graph")) == {1, 2, 4}
    assert hits(db, "cooking") == [2]
    db.execute("MATCH (n:Doc {i: 1}) REMOVE n.title")
    assert set(hits(db, "graph")) == {2, 4}
    db.execute("MATCH (n:Note) SET n:Memo")
    assert set(hits(db, "graph")) == {2, 3, 4}
    db.execute("MATCH (n:Doc {i: 4}) REMOVE n:Doc")
    assert set(hits(db, "graph")) == {2, 3}
    db.execute("MATCH (n:Doc {i: 2}) SET n = {i: 2, body: 'toast'}")
    assert hits(db, "graph") == [3] and hits(db, "toast") == [2]
    db.execute("MATCH (n:Memo) SET n += {body: 'graph graph'}")
    assert hits(db, "graph") == [3]
    db.execute("MATCH (n:Memo) DETACH DELETE n")
    assert hits(db, "graph") == []


def test_only_writes_an_index_covers_refresh_it(db: engine.Connection) -> None:
    """A statement creating elements of no indexed label, or setting no indexed property, runs no upkeep of
    the index (ADR-0096); one creating an indexed element after an unindexed one indexes it."""
    for statement in ("CREATE (:Note {i: 5, title: 'graph'})", "MATCH (n:Doc {i: 1}) SET n.i = 11",
                      "MATCH (n:Doc {i: 2}) CREATE (n)-[:SEES]->(:Note)"):
        assert not [sql for sql, _ in db.explain(statement)[1] if "ft_" in sql], statement
    db.execute("CREATE (:Note {i: 6, title: 'graph'}) WITH 1 AS one CREATE (:Memo {i: 7, title: 'graph'})")
    assert set(hits(db, "graph")) == {1, 7}


def test_scores_follow_statistics_after_writes(db: engine.Connection) -> None:
    (_, before), = query_nodes(db, "docs", "nodes")
    db.execute("CREATE (:Doc {i: 5, body: 'nothing here'}), (:Doc {i: 6, body: 'other words'})")
    (_, after), = query_nodes(db, "docs", "nodes")
    assert after > before  # the term got rarer: a higher idf


def test_writes_in_the_same_statement_are_visible(db: engine.Connection) -> None:
    rows = db.execute("CREATE (:Doc {i: 7, title: 'zebra'}) WITH 1 AS one "
                      "CALL db.index.fulltext.queryNodes('docs', 'zebra') YIELD node RETURN node.i AS i").fetchall()
    assert rows == [(7,)]


def test_a_subquery_sees_created_and_updated_elements(db: engine.Connection) -> None:
    rows = db.execute("CREATE (:Doc {i: 7, title: 'zebra'}) WITH 1 AS one MATCH (n:Doc {i: 1})"
                      " SET n.title = 'zebra too' WITH count(*) AS c"
                      " RETURN COUNT { CALL db.index.fulltext.queryNodes('docs', 'zebra') YIELD node } AS hits"
                      ).fetchall()
    assert rows == [(2,)]


def test_writes_after_a_query_in_the_statement_are_indexed(db: engine.Connection) -> None:
    rows = db.execute("CREATE (:Doc {i: 8, title: 'yak'}) WITH 1 AS one"
                      " CALL db.index.fulltext.queryNodes('docs', 'yak') YIELD node WITH count(node) AS first"
                      " MATCH (n:Doc {i: 2}) SET n.body = 'yak milk' CREATE (:Doc {i: 9, body: 'yak'})"
                      " RETURN first").fetchall()
    assert rows == [(1,)]
    assert set(hits(db, "yak")) == {2, 8, 9} and hits(db, "bread") == []


def test_a_failed_statement_leaves_the_index_as_it_was(db: engine.Connection) -> None:
    with pytest.raises(CypherError):
        db.execute("MATCH (n:Doc {i: 1}) SET n.title = 'zebra' WITH n RETURN 1 / 0")
    assert hits(db, "zebra") == [] and hits(db, "graph") == [1]


def test_relationship_index(db: engine.Connection) -> None:
    db.execute("MATCH (a:Doc {i: 1}), (b:Doc {i: 2}) CREATE (a)-[:CITES {note: 'see the bread recipe'}]->(b),"
               " (b)-[:LIKES {note: 'bread'}]->(a)")
    db.execute("CREATE FULLTEXT INDEX notes FOR ()-[r:CITES|LIKES]-() ON EACH [r.note]")
    rows = db.execute("CALL db.index.fulltext.queryRelationships('notes', 'bread') YIELD relationship, score "
                      "RETURN type(relationship) AS t, score").fetchall()
    assert [t for t, _ in rows] == ["LIKES", "CITES"]
    db.execute("MATCH ()-[r:LIKES]->() DELETE r")
    rows = db.execute("CALL db.index.fulltext.queryRelationships('notes', 'bread') YIELD relationship "
                      "RETURN type(relationship) AS t").fetchall()
    assert rows == [("CITES",)]
    with pytest.raises(ProcedureError, match="cannot be queried"):
        db.execute("CALL db.index.fulltext.queryNodes('notes', 'bread') YIELD node RETURN node")


def test_list_of_strings_is_indexed(db: engine.Connection) -> None:
    db.execute("CREATE (:Doc {i: 8, title: ['first words', 'zebra crossing']})")
    assert hits(db, '"zebra crossing"') == [8]



@pytest.mark.parametrize("analyzer", ["standard-no-stop-words", "english"])
def test_a_write_of_ascii_and_other_texts_indexes_as_building_the_index(analyzer: str) -> None:
    """ASCII texts are cut by a shortcut; a write with one other text among them cuts them all with the full
    pattern. Either way the postings, positions and norms are those of the index built over the same data."""
    create = ("UNWIND range(0, size($texts) - 1) AS i CREATE (:Doc {i: i, body: $texts[i]})",
              {"texts": ["the plain graph words", "a café graph", "naïve graph graph", "日本 graph", "", "the"]})
    index = ("CREATE FULLTEXT INDEX docs FOR (n:Doc) ON EACH [n.body]"
             f" OPTIONS {{indexConfig: {{`fulltext.analyzer`: '{analyzer}'}}}}")
    built, kept = engine.connect(":memory:"), engine.connect(":memory:")
    built.execute(*create)
    built.execute(index)
    kept.execute(index)
    kept.execute("CREATE (:Doc {i: 9, body: 'plain words'})")  # ASCII only: the shortcut
    kept.execute("MATCH (n:Doc {i: 9}) DETACH DELETE n")
    kept.execute(*create)
    for query in ("graph", "café", "naïve", "日本", "plain", '"café graph"', '"plain words"~1'):
        found = query_nodes(kept, "docs", query)
        assert found and found == query_nodes(built, "docs", query), query


# -- the query syntax ---------------------------------------------------------------------------------------


def test_parser_builds_lucene_queries() -> None:
    fields = ["title", "body"]
    assert parse_query("Foo", fields, analyze) == BooleanQuery(
        (("should", TermQuery("title", "foo")), ("should", TermQuery("body", "foo"))))
    assert parse_query("title:foo^2", fields, analyze) == BoostQuery(TermQuery("title", "foo"), 2.0)
    assert parse_query('body:"a b"', fields, analyze) == PhraseQuery("body", ("a", "b"), (0, 1))
    assert parse_query("body:fo*", fields, analyze) == PatternQuery("body", "prefix", "fo")
    assert parse_query("body:f?o*", fields, analyze) == PatternQuery("body", "wildcard", "f_o%")
    a, b, c = (TermQuery("t", x) for x in "abc")
    assert parse_query("a AND b OR c", ["t"], analyze) == BooleanQuery((("must", a), ("must", b), ("should", c)))
    assert parse_query("a -b +c", ["t"], analyze) == BooleanQuery((("should", a), ("must_not", b), ("must", c)))
    assert parse_query("a NOT (b || c)", ["t"], analyze) == BooleanQuery(
        (("should", a), ("must_not", BooleanQuery((("should", b), ("should", c)))))
    )
    assert parse_query("a && !b", ["t"], analyze) == BooleanQuery((("must", a), ("must_not", b)))
    # Lucene's parser does not split on whitespace: `a b` is one text, one clause over two fields
    either = [BooleanQuery((("should", TermQuery("t", x)), ("should", TermQuery("u", x)))) for x in "abc"]
    assert parse_query("a b -c", ["t", "u"], analyze) == BooleanQuery(
        (("should", BooleanQuery((("should", either[0]), ("should", either[1])))), ("must_not", either[2])))


def test_rewrite_flattens_and_merges_as_lucene() -> None:
    """Lucene's BooleanQuery.rewrite: optional pure-OR groups join their parent, repeated clauses become one
    with the summed boost, a boosted group stays whole (the oracle test checks the scores this gives)."""
    a, b, c = (TermQuery("t", x) for x in "abc")

    def parsed(text: str) -> object:
        return rewrite(parse_query(text, ["t"], analyze))

    assert parsed("a b c") == BooleanQuery((("should", a), ("should", b), ("should", c)))
    assert parsed("(a (b c))") == BooleanQuery((("should", a), ("should", b), ("should", c)))
    assert parsed("+a (b c)") == BooleanQuery((("must", a), ("should", b), ("should", c)))
    assert parsed("(a b)^2 c") == BooleanQuery(
        (("should", BoostQuery(BooleanQuery((("should", a), ("should", b))), 2.0)), ("should", c)))
    assert parsed("a^2 a") == BoostQuery(a, 3.0)
    assert parsed("+a +a b") == BooleanQuery((("must", BoostQuery(a, 2.0)), ("should", b)))
    assert parsed("((a)^2)^3") == BoostQuery(a, 6.0)
    assert parsed("+a +(-b)") is None
    assert parsed("(a^1) -b") == BooleanQuery((("should", a), ("must_not", b)))


def test_query_operators(db: engine.Connection) -> None:
    assert set(hits(db, "graph OR bread")) == {1, 2}
    assert hits(db, "graph AND bread") == []
    assert hits(db, "and -bread") == [1]
    assert hits(db, "NOT bread") == []
    assert hits(db, "title:cooking") == [2] and hits(db, "body:cooking") == []
    assert hits(db, "relation*") == [1] and hits(db, "b?tt*") == [2]
    assert hits(db, '"bread and butter"') == [2] and hits(db, '"butter and bread"') == []
    assert hits(db, "(graph OR cooking) AND databases") == [1]
    assert hits(db, "*:*") == [1, 2]
    boosted = dict(query_nodes(db, "docs", "graph^3 bread"))
    assert boosted[1] > boosted[2]


@pytest.mark.parametrize("query", ["AND", "foo AND", "(foo", "foo)", "title:", '"open', "*foo", "foo^x"])
def test_query_parse_errors(db: engine.Connection, query: str) -> None:
    with pytest.raises(ProcedureError, match="Cannot parse"):
        hits(db, query)


@pytest.mark.parametrize("query", ['"a b a"~2', "/fo&o/", "/~fo/", "/f<1-5>/", "/f@/", "/f#/", "graph~ graph",
                                   "grahp~1 graph~1", "+title:graph~ +title:grapj", "title:graph~ title:graphs^2"])
def test_unsupported_query_syntax(db: engine.Connection, query: str) -> None:
    """What the engine refuses of Lucene's syntax: sloppy phrases that repeat a term (SloppyPhraseMatcher's
    repeat groups), RegExp's optional operators, and fuzzy terms whose expansion may share a term with a
    sibling clause (Lucene merges those, as the index's terms decide)."""
    with pytest.raises(UnsupportedFeature):
        hits(db, query)


def test_unknown_index(db: engine.Connection) -> None:
    with pytest.raises(ProcedureError, match="There is no such fulltext schema index: nope"):
        hits(db, "graph", index="nope")


# -- DDL ----------------------------------------------------------------------------------------------------


def test_create_show_drop(db: engine.Connection) -> None:
    rows = db.execute("SHOW FULLTEXT INDEXES YIELD name, type, entityType, labelsOrTypes, properties, "
                      "indexProvider").fetchall()
    assert rows == [("docs", "FULLTEXT", "NODE", ["Doc", "Memo"], ["title", "body"], "fulltext-1.0")]
    result = db.execute("CREATE FULLTEXT INDEX docs IF NOT EXISTS FOR (n:Other) ON EACH [n.x]")
    assert result.counters["indexes_added"] == 0
    with pytest.raises(SchemaError, match="There already exists an index called 'docs'"):
        db.execute("CREATE FULLTEXT INDEX docs FOR (n:Other) ON EACH [n.x]")
    result = db.execute("CREATE FULLTEXT INDEX rels FOR ()-[r:R]-() ON EACH [r.x] "
                        "OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words'}}")
    assert result.counters["indexes_added"] == 1
    assert db.execute("DROP INDEX docs").counters["indexes_removed"] == 1
    assert db.execute("DROP INDEX docs IF EXISTS").counters["indexes_removed"] == 0
    with pytest.raises(ProcedureError, match="no such fulltext schema index"):
        hits(db, "graph")
    with pytest.raises(UnsupportedFeature, match="analyzer"):
        db.execute("CREATE FULLTEXT INDEX en FOR (n:Doc) ON EACH [n.body] "
                   "OPTIONS {indexConfig: {`fulltext.analyzer`: 'german'}}")


def test_index_survives_reopening_a_file(tmp_path) -> None:
    path = str(tmp_path / "graph.duckdb")
    with engine.connect(path) as db:
        db.execute("CREATE (:Doc {title: 'persistent words'})")
        db.execute("CREATE FULLTEXT INDEX docs FOR (n:Doc) ON EACH [n.title]")
    with engine.connect(path) as db:
        db.execute("CREATE (:Doc {title: 'more words'})")
        assert len(db.execute("CALL db.index.fulltext.queryNodes('docs', 'words') YIELD node "
                              "RETURN node").fetchall()) == 2


def test_a_file_from_before_postings_held_norms_scores_the_same(tmp_path) -> None:
    """Postings carry their field's norm (ADR-0049); a file written before has them filled in when it opens,
    and scores as it did."""
    path = str(tmp_path / "graph.duckdb")
    docs = [{"i": i, "title": " ".join(WORDS[j % 9] for j in range(i + 1))} for i in range(12)]
    with engine.connect(path) as db:
        db.execute("UNWIND $docs AS d CREATE (:Doc {i: d.i, title: d.title})", {"docs": docs})
        db.execute("CREATE FULLTEXT INDEX docs FOR (n:Doc) ON EACH [n.title]")
        before = query_nodes(db, "docs", f"{WORDS[1]} {WORDS[4]}")
    with duckdb.connect(path) as raw:  # the table as it was made before
        raw.execute("ALTER TABLE ft_postings DROP COLUMN norm")
    with engine.connect(path) as db:
        assert query_nodes(db, "docs", f"{WORDS[1]} {WORDS[4]}") == before
        assert query_nodes(db, "docs", f'"{WORDS[1]} {WORDS[2]}"')
    assert len(before) == 11


# -- Cypher 25 SEARCH -----------------------------------------------------------------------------------------


@pytest.fixture()
def ranked() -> engine.Connection:
    """Eleven elements whose score for `graph` falls with `i` (longer titles); `i` 0 is not a :Doc."""
    connection = engine.connect(":memory:")
    connection.execute("UNWIND range(1, 10) AS i "
                       "CREATE (:Doc {i: i, title: 'graph' + reduce(s = '', x IN range(1, i) | s + ' pad')})")
    connection.execute("CREATE (:Other {i: 0, title: 'graph'})")
    connection.execute("CREATE FULLTEXT INDEX docs FOR (n:Doc|Other) ON EACH [n.title]")
    return connection


def test_search_takes_the_limit_before_the_pattern_and_where(ranked: engine.Connection) -> None:
    rows = ranked.execute("MATCH (n:Doc) SEARCH n IN (FULLTEXT INDEX docs FOR $q LIMIT 4) SCORE AS score "
                          "WHERE n.i > 1 RETURN n.i AS i, score", {"q": "graph"}).fetchall()
    expected = dict(query_nodes(ranked, "docs", "graph"))
    assert [i for i, _ in rows] == [2, 3]  # the 4 best are 0, 1, 2, 3; 0 is no :Doc, 1 fails WHERE
    assert all(score == expected[i] for i, score in rows)
    rows = ranked.execute("MATCH (n) SEARCH n IN (FULLTEXT INDEX docs FOR 'graph' LIMIT 2) RETURN n.i AS i").fetchall()
    assert rows == [(0,), (1,)]


def test_search_restrictions(ranked: engine.Connection) -> None:
    with pytest.raises(CypherError, match="only have one bound variable"):
        ranked.execute("MATCH (n)-->(m) SEARCH n IN (FULLTEXT INDEX docs FOR 'graph' LIMIT 2) RETURN n")
    with pytest.raises(UnsupportedFeature, match="OPTIONAL MATCH"):
        ranked.execute("OPTIONAL MATCH (n) SEARCH n IN (FULLTEXT INDEX docs FOR 'graph' LIMIT 2) RETURN n")
    with pytest.raises(ProcedureError, match="no such vector schema index: docs"):  # docs is a full-text index
        ranked.execute("MATCH (n) SEARCH n IN (VECTOR INDEX docs FOR [1, 2] LIMIT 2) RETURN n")


def test_arguments_that_vary_per_row(db: engine.Connection) -> None:
    rows = db.execute("UNWIND ['graph', 'bread', 'nothing', null] AS q "
                      "CALL db.index.fulltext.queryNodes('docs', q) YIELD node RETURN q, node.i AS i").fetchall()
    assert rows == [("graph", 1), ("bread", 2)]
    rows = db.execute("MATCH (m:Doc {i: 2}) MATCH (n:Doc) SEARCH n IN (FULLTEXT INDEX docs FOR m.title LIMIT 5) "
                      "RETURN n.i AS i").fetchall()
    assert rows == [(2,)]
    rows = db.execute("UNWIND [['graph', 'bread'], ['butter']] AS terms CALL (terms) { UNWIND terms AS t "
                      "MATCH (n) SEARCH n IN (FULLTEXT INDEX docs FOR t LIMIT 10) RETURN count(n) AS hits } "
                      "RETURN terms, hits").fetchall()
    assert rows == [(["graph", "bread"], 2), (["butter"], 1)]
    with pytest.raises(CypherError, match="must be a STRING"):
        db.execute("UNWIND ['graph', 1] AS q CALL db.index.fulltext.queryNodes('docs', q) YIELD node RETURN node")
    with pytest.raises(UnsupportedFeature, match="options must be a literal or a parameter"):
        db.execute("UNWIND [1] AS k CALL db.index.fulltext.queryNodes('docs', 'graph', {limit: k}) YIELD node "
                   "RETURN node")


def test_ascii_shortcut_cuts_text_as_the_full_analyzer() -> None:
    """ASCII text skips the full tokenizer pattern (in SQL and for query text); both must give its tokens."""
    import string

    import duckdb

    from engine.fulltext.analyzer import MACROS

    connection = duckdb.connect(":memory:")
    for signature, body in MACROS:
        connection.execute(f"CREATE MACRO {signature} AS {body}")
    rng = random.Random(3)
    alphabet = string.printable + "aa11__..''::,,"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20))) for _ in range(3000)]
    texts += ["a" * 300, "e.g.", "1,000.5", "don't", "_a_", "x.1", "a:b"]
    rows = connection.execute("SELECT t, ft_tokens(t), ft_ascii_tokens([t]) FROM unnest(?) AS u(t)",
                              [texts]).fetchall()
    for text, full, ascii_tokens in rows:
        assert ascii_tokens == full and list(standard_terms(text)) == full, text


# -- forms the Lucene 8 oracle cannot check ----------------------------------------------------------------


def test_regexp_classes_are_lucene_9s(db: engine.Connection) -> None:
    """Lucene 9's RegExp has `\\d`, `\\s`, `\\w` (Lucene 8.7 reads `\\d` as `d`); `^` and `$` are ordinary
    characters, and the expression matches whole terms."""
    db.execute("CREATE (:Doc {i: 5, body: 'x86 x86_64 r2d2'})")
    assert hits(db, "/x\\d+/") == [5]
    assert hits(db, "/x\\d\\d_\\d+/") == [5]
    assert hits(db, "/r\\w+/") == [1, 5]  # relationships, r2d2
    assert hits(db, "/x8/") == []  # whole terms only
    assert hits(db, "/[^xr]\\d.*/") == []
    assert hits(db, "/[^x]\\d.*/") == [5]


def test_query_analyzer_option_and_unknown_analyzers(db: engine.Connection) -> None:
    rows = db.execute("CALL db.index.fulltext.queryNodes('docs', 'Relationship', {analyzer: 'english'})"
                      " YIELD node RETURN node.i").fetchall()
    assert rows == []  # `relationship` stems to `relationship`, the index holds `relationships`
    rows = db.execute("CALL db.index.fulltext.queryNodes('docs', 'Databases', {analyzer: 'whitespace'})"
                      " YIELD node RETURN node.i").fetchall()
    assert rows == []  # whitespace keeps the case; the index's terms are lower case
    with pytest.raises(UnsupportedFeature, match="german"):
        db.execute("CALL db.index.fulltext.queryNodes('docs', 'graph', {analyzer: 'german'}) YIELD node RETURN node")


def test_english_index_stems_and_drops_stop_words() -> None:
    db = engine.connect(":memory:")
    db.execute("CREATE (:Doc {i: 1, body: \"The agent's memories of running graphs\"}), (:Doc {i: 2, body: 'a run'})")
    db.execute("CREATE FULLTEXT INDEX en FOR (n:Doc) ON EACH [n.body]"
               " OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}")
    assert hits(db, "memory", "en") == [1]
    assert hits(db, "runs", "en") == [2, 1]
    assert hits(db, "agent", "en") == [1]
    assert hits(db, "the", "en") == []
    assert hits(db, '"memory running"~1', "en") == [1]  # `of` dropped, its position kept: 1 apart
    assert hits(db, '"memory running"', "en") == []


def test_classic_analyzer_takes_the_longest_rule_and_filters_by_its_type() -> None:
    """ClassicAnalyzer's terms (checked against Lucene in tests/fulltext): the scanner's longest match, dots
    out of acronyms, `'s` off apostrophe words, the trailing dot off a dotted host, a token may end inside a
    run (`O'Reilly9`); stop words and tokens past 255 characters dropped, their positions kept."""
    classic = ANALYZERS["classic"]
    text = ("The U.S.A. I.B.M. AT&T O'Reilly's O'Reilly9 x86_64 bob@example.com www.example.com a1.b2. 2024-01-02"
            " 1,000.50 日本")
    assert classic.analyze(text) == [
        ("usa", 1), ("ibm", 2), ("at&t", 3), ("o'reilly", 4), ("o'reilly", 5), ("9", 6), ("x86_64", 7),
        ("bob@example.com", 8), ("www.example.com", 9), ("a1.b2", 10), ("2024-01-02", 11), ("1,000.50", 12),
        ("日", 13), ("本", 14)]
    assert classic.analyze("a " + "x" * 256 + " b") == [("b", 2)]
    assert classic.normalize("U.S.A*") == "u.s.a*"
    db = engine.connect(":memory:")
    db.execute("UNWIND $t AS t CREATE (:Doc {body: t})",
               {"t": ["Made in the U.S.A.", "usa today", "mail bob@example.com"]})
    db.execute("CREATE FULLTEXT INDEX c FOR (n:Doc) ON EACH [n.body]"
               " OPTIONS {indexConfig: {`fulltext.analyzer`: 'classic'}}")
    for query, expected in (("U.S.A.", 2), ("bob@example.com", 1), ("example", 0), ("made", 1)):
        found = db.execute("CALL db.index.fulltext.queryNodes('c', $q) YIELD node RETURN count(*)", {"q": query})
        assert found.fetchall() == [(expected,)], query


def test_cjk_analyzer_bigrams_touching_cjk_tokens_and_folds_widths() -> None:
    """CJKAnalyzer's terms (checked against Lucene in tests/fulltext): bigrams across Han, kana and Hangul
    that touch, a lone character as itself, full width to ASCII, half-width katakana composed."""
    cjk = ANALYZERS["cjk"]
    assert [t for t, _ in cjk.analyze("日本語のテキスト")] == ["日本", "本語", "語の", "のテ", "テキ", "キス", "スト"]
    assert cjk.analyze("日 本 the ＡＢＣ１２３ ｶﾞｷﾞ") == [("日", 0), ("本", 1), ("abc123", 3), ("ガギ", 4)]
    assert cjk.normalize("ﾃｷ*Ａ") == "テキ*a"
    db = engine.connect(":memory:")
    db.execute("UNWIND $t AS t CREATE (:Doc {body: t})", {"t": ["日本語のテキスト", "東京タワー", "ﾃｷｽﾄ"]})
    db.execute("CREATE FULLTEXT INDEX j FOR (n:Doc) ON EACH [n.body]"
               " OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}}")
    found = db.execute("CALL db.index.fulltext.queryNodes('j', $q) YIELD node RETURN node.body ORDER BY node.body",
                       {"q": "テキスト"}).fetchall()
    assert found == [("日本語のテキスト",), ("ﾃｷｽﾄ",)]
    for prefix in ("ﾀﾜ*", "タワ*"):  # folded, not bigrammed: the term タワ* is a prefix of the bigram タワ
        assert db.execute("CALL db.index.fulltext.queryNodes('j', $q) YIELD node RETURN node.body",
                          {"q": prefix}).fetchall() == [("東京タワー",)]


def test_url_or_email_index_keeps_urls_and_addresses_whole() -> None:
    db = engine.connect(":memory:")
    db.execute("CREATE (:Doc {i: 1, body: 'Mail John.Smith@Example.com or see https://neo4j.com/docs?x=1 now'}),"
               " (:Doc {i: 2, body: 'my-site.org is the site; my-site.org-x is not'}),"
               " (:Doc {i: 3, body: 'neo4j docs'})")
    db.execute("CREATE FULLTEXT INDEX mail FOR (n:Doc) ON EACH [n.body]"
               " OPTIONS {indexConfig: {`fulltext.analyzer`: 'email'}}")
    assert hits(db, "john.smith@example.com", "mail") == [1]
    assert hits(db, "john", "mail") == []  # the address is one term
    assert hits(db, '"https://neo4j.com/docs?x=1"', "mail") == [1]
    assert hits(db, "neo4j", "mail") == [3]
    assert hits(db, "my-site.org", "mail") == [2]
    assert hits(db, "site.org", "mail") == [2]  # `my-site.org-x`: a host followed by `-` is not one
    assert hits(db, "the", "mail") == []  # English stop words
    rows = db.execute("CALL db.index.fulltext.listAvailableAnalyzers() YIELD analyzer, description, stopwords"
                      " WHERE analyzer IN ['url_or_email', 'url', 'email']"
                      " RETURN analyzer, description STARTS WITH 'Tokenizes into sequences of alpha-numeric, numeric,"
                      " URL, email', size(stopwords) ORDER BY analyzer").fetchall()
    assert rows == [("email", True, 33), ("url", True, 33), ("url_or_email", True, 33)]
