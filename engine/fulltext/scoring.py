"""A parsed full-text query as one SQL SELECT of `(id, score)` over the postings, scored as Lucene 9's
`BM25Similarity` (k1 = 1.2, b = 0.75) scores it in Neo4j 5 (ADR-0017).

Per field (property): idf = ln(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)), docCount the elements
with at least one token in the field, docFreq those whose field holds the term; avgdl = sumTotalTermFreq /
docCount; the element's length is what its one-byte norm keeps of its token count
(`SmallFloat.intToByte4`, decoded by `byte4ToInt`). A term scores weight - weight / (1 + freq · normInverse),
weight = boost · idf, normInverse = 1 / (k1 · ((1 - b) + b · dl / avgdl)), in 32-bit floats as Lucene
computes it; a phrase sums its terms' idf and counts its exact occurrences as freq; prefix and wildcard
queries score their boost (Lucene's constant-score rewrite). A boost multiplies (as a float) into the boost
of every leaf below it, as Lucene's `createWeight(searcher, scoreMode, boost)` passes it down. A boolean
query (already rewritten, engine/fulltext/rewrite.py) scores as Lucene's scorers do: its required clauses'
sum in a double rounded to a float (ConjunctionScorer), its optional clauses' likewise
(DisjunctionSumScorer, WANDScorer, BooleanScorer), and the two added as floats (ReqOptSumScorer). Every
user value is a bound parameter.
"""

from __future__ import annotations

import functools
import re
import threading

import duckdb

from engine import types as t
from engine.fulltext import analyzer
from engine.fulltext.query import BooleanQuery, BoostQuery, MatchAll, PatternQuery, PhraseQuery, Query, TermQuery
from engine.sqlgen.context import Parameters
from engine.values import float32

K1 = 1.2
B = 0.75

_F = "::FLOAT"

MACROS: list[tuple[str, str]] = [
    # byte4ToInt(intToByte4(n)): a token count as the norm byte keeps it. Up to 23 exactly; above, 24 plus
    # m = n - 24 cut to its 4 most significant bits (longToInt4 keeps 3 bits after the leading one): m
    # itself below 16, else m with its floor(log2(m)) - 3 low bits cleared. log2 of an integer below 2^48
    # never rounds up to the next power of two, so its floor is the bit length less one. One flat expression:
    # nested macros expanded each argument at every use and cost DuckDB 3 ms to bind.
    ("ft_norm_cut(m, s)", "((m >> s) << s)"),
    ("ft_norm_length(n)", "CASE WHEN n < 40 THEN n ELSE 24 + ft_norm_cut((n - 24)::BIGINT,"
                          " floor(log2(n - 24))::BIGINT - 3) END"),
    ("ft_idf(doc_count, doc_freq)",
     "ln(1::DOUBLE + (doc_count - doc_freq + 0.5::DOUBLE) / (doc_freq + 0.5::DOUBLE))::FLOAT"),
    ("ft_avgdl(total, doc_count)", "(total / doc_count::DOUBLE)::FLOAT"),
    ("ft_norm_inverse(dl, avgdl)",
     f"1{_F} / ({K1}{_F} * ((1{_F} - {B}{_F}) + {B}{_F} * dl{_F} / avgdl{_F}))"),
    ("ft_tf_score(weight, freq, norm_inverse)",
     f"weight{_F} - weight{_F} / (1{_F} + freq{_F} * norm_inverse{_F})"),
]

_analyzer_lock = threading.Lock()
_analyzer_connection: duckdb.DuckDBPyConnection | None = None


_ASCII_TOKEN = re.compile(analyzer.ASCII_TOKEN_PATTERN)


@functools.lru_cache(maxsize=4096)
def analyze(text: str) -> tuple[str, ...]:
    """The terms the index analyzer makes of query text: the same `ft_tokens` macro the index uses, run in a
    private in-memory DuckDB, so a query term and an indexed token are always cut the same way (ASCII text is
    cut here by the ASCII form of that pattern, which gives the same tokens)."""
    if text.isascii():
        words = _ASCII_TOKEN.findall(text)
        return tuple(word[i:i + analyzer.MAX_TOKEN_LENGTH].lower()
                     for word in words for i in range(0, len(word), analyzer.MAX_TOKEN_LENGTH))
    global _analyzer_connection
    with _analyzer_lock:
        if _analyzer_connection is None:
            connection = duckdb.connect(":memory:")
            for signature, body in analyzer.MACROS:
                connection.execute(f"CREATE MACRO {signature} AS {body}")
            _analyzer_connection = connection
        row = _analyzer_connection.execute("SELECT ft_tokens(?)", [text]).fetchone()
    return tuple(row[0]) if row and row[0] is not None else ()


class ScoreCompiler:
    """Compiles a query tree for one index into SQL with bound values."""

    def __init__(self, index_id: int, parameters: Parameters) -> None:
        self.parameters = parameters
        self.index_id = index_id
        self._index: str | None = None

    @property
    def index(self) -> str:
        """The bound index id, bound on first use (a query that matches nothing binds nothing)."""
        if self._index is None:
            self._index = self.parameters.bind(self.index_id, t.INTEGER)
        return self._index

    def compile(self, query: Query | None, boost: float = 1.0) -> str:
        """A SELECT of (id BIGINT, score FLOAT), one row per matching element; `boost` the product of the
        boosts above `query`."""
        if query is None:
            return _NOTHING
        if isinstance(query, BoostQuery):
            return self.compile(query.query, float32(query.boost * boost))
        if isinstance(query, TermQuery):
            return self._term(query, boost)
        if isinstance(query, PhraseQuery):
            return self._phrase(query, boost)
        if isinstance(query, PatternQuery):
            return self._pattern(query, boost)
        if isinstance(query, MatchAll):
            return (f"(SELECT DISTINCT id, {self._boost(boost)} AS score FROM ft_fields"
                    f" WHERE idx = {self.index})")
        return self._boolean(query, boost)

    def _boost(self, boost: float) -> str:
        return f"{self.parameters.bind(float(boost), t.FLOAT)}::FLOAT"

    def _field_stats(self, field: str) -> str:
        return (f"(SELECT count(*) AS n, coalesce(sum(length), 0) AS total FROM ft_fields"
                f" WHERE idx = {self.index} AND field = {field} AND length > 0)")

    def _doc_freq(self, field: str, term: str) -> str:
        return f"(SELECT count(*) FROM ft_postings WHERE idx = {self.index} AND field = {field} AND term = {term})"

    def _field_constants(self, field: str) -> str:
        """One row of the field's docCount `n` and avgdl, computed once rather than in every posting's score."""
        return f"(SELECT s.n, ft_avgdl(s.total, s.n) AS avgdl FROM {self._field_stats(field)} AS s)"

    def _constants(self, field: str, idf: str, boost: float) -> str:
        """One row of a leaf's per-query constants: its weight (boost · idf, `idf` reading `k.n`) and the
        field's avgdl."""
        return f"(SELECT {self._boost(boost)} * ({idf}) AS weight, k.avgdl FROM {self._field_constants(field)} AS k)"

    def _term(self, query: TermQuery, boost: float) -> str:
        """The term's postings, read once: their count is its docFreq (a second scan of the postings for it
        cost as much as the first, ~4 ms a term at 750k postings), and each holds its field's norm."""
        field = self.parameters.text(query.field)
        term = self.parameters.text(query.term)
        postings = (f"(SELECT id, tf, norm, count(*) OVER () AS doc_freq FROM ft_postings"
                    f" WHERE idx = {self.index} AND field = {field} AND term = {term})")
        weight = f"{self._boost(boost)} * (ft_idf(k.n, p.doc_freq))"
        return (f"(SELECT p.id, ft_tf_score({weight}, p.tf, ft_norm_inverse(p.norm, k.avgdl)) AS score"
                f" FROM {postings} AS p CROSS JOIN {self._field_constants(field)} AS k)")

    def _phrase(self, query: PhraseQuery, boost: float) -> str:
        field = self.parameters.text(query.field)
        terms = [self.parameters.text(term) for term in query.terms]
        joins = []
        checks = []
        for offset, term in enumerate(terms[1:], start=1):
            joins.append(f" JOIN ft_postings AS p{offset} ON p{offset}.idx = {self.index} AND p{offset}.field = {field}"
                         f" AND p{offset}.term = {term} AND p{offset}.id = p0.id")
            checks.append(f"list_contains(p{offset}.positions, (p0.pos + {offset})::INTEGER)")
        matches = (f"(SELECT p0.id, any_value(p0.norm) AS norm, count(*) AS freq FROM (SELECT id, norm,"
                   f" unnest(positions) AS pos FROM ft_postings WHERE idx = {self.index} AND field = {field}"
                   f" AND term = {terms[0]}) AS p0{''.join(joins)} WHERE {' AND '.join(checks)} GROUP BY p0.id)")
        # A phrase's idf is the sum of its terms' float idfs, in a double, rounded to a float.
        idf = " + ".join(f"ft_idf(k.n, {self._doc_freq(field, term)})::DOUBLE" for term in terms)
        constants = self._constants(field, f"({idf})::FLOAT", boost)
        return (f"(SELECT m.id, ft_tf_score(k.weight, m.freq, ft_norm_inverse(m.norm, k.avgdl)) AS score"
                f" FROM {matches} AS m CROSS JOIN {constants} AS k)")

    def _pattern(self, query: PatternQuery, boost: float) -> str:
        field = self.parameters.text(query.field)
        pattern = self.parameters.text(query.pattern)
        test = f"starts_with(term, {pattern})" if query.kind == "prefix" else f"term LIKE {pattern} ESCAPE '\\'"
        return (f"(SELECT DISTINCT id, {self._boost(boost)} AS score FROM ft_postings"
                f" WHERE idx = {self.index} AND field = {field} AND {test})")

    def _boolean(self, query: BooleanQuery, boost: float) -> str:
        if all(occur == "must_not" for occur, _ in query.clauses):
            return _NOTHING  # only prohibited clauses: Lucene matches nothing
        scoring = [(occur, self.compile(q, boost)) for occur, q in query.clauses if occur != "must_not"]
        excluded = [self.compile(q, boost) for occur, q in query.clauses if occur == "must_not"]
        # Each part tags its rows must (1) or should (0): the required sum and the optional sum are each a
        # double rounded to a float, and an element both match scores their float sum.
        parts = " UNION ALL ".join(f"SELECT id, score, {int(occur == 'must')} AS must, {number} AS c FROM {sql}"
                                   for number, (occur, sql) in enumerate(scoring))
        musts = sum(1 for occur, _ in scoring if occur == "must")
        having = f"count(*) FILTER (WHERE must = 1) = {musts}" if musts else "count(*) > 0"
        where = "".join(f" AND id NOT IN (SELECT id FROM {sql})" for sql in excluded)
        required = "(sum(score::DOUBLE) FILTER (WHERE must = 1))::FLOAT"
        optional = "(sum(score::DOUBLE) FILTER (WHERE must = 0))::FLOAT"
        return (f"(SELECT id, coalesce(({required}::DOUBLE + {optional}::DOUBLE)::FLOAT, {required}, {optional})"
                f" AS score FROM ({parts}) WHERE true{where} GROUP BY id HAVING {having})")


_NOTHING = "(SELECT NULL::BIGINT AS id, NULL::FLOAT AS score WHERE false)"
