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

from engine import types as t
from engine.errors import UnsupportedFeature
from engine.fulltext.query import (
    BooleanQuery,
    BoostQuery,
    FuzzyQuery,
    MatchAll,
    PatternQuery,
    PhraseQuery,
    Query,
    RangeQuery,
    TermQuery,
)
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
    # The optimal-string-alignment distance (Damerau-Levenshtein where no substring is edited twice), the
    # distance Lucene's Levenshtein automata with transpositions accept; one row of the table per reduce step.
    ("ft_osa(a, b)",
     "list_reduce(range(1, length(a) + 1), lambda st, i: {p2: st.p1, p1: list_reduce(range(1, length(b) + 1),"
     " lambda row, j: list_append(row, least(st.p1[j + 1] + 1, row[j] + 1,"
     " st.p1[j] + CASE WHEN a[i] = b[j] THEN 0 ELSE 1 END,"
     " CASE WHEN i > 1 AND j > 1 AND a[i] = b[j - 1] AND a[i - 1] = b[j] THEN st.p2[j - 1] + 1"
     " ELSE 999 END)::BIGINT), [i]::BIGINT[])},"
     " {p2: []::BIGINT[], p1: range(0, length(b) + 1)}).p1[length(b) + 1]"),
    # The edit distance FuzzyQuery gives `term` from the query term `q`, or `k` + 1 when above `k`: DuckDB's
    # Levenshtein and (unrestricted) Damerau-Levenshtein bound the optimal string alignment from both sides,
    # so the table is only filled where they differ.
    ("ft_fuzzy_edits(term, q, k)",
     "CASE WHEN term = q THEN 0 WHEN damerau_levenshtein(term, q) > k THEN k + 1"
     " WHEN damerau_levenshtein(term, q) = levenshtein(term, q) THEN levenshtein(term, q)"
     " ELSE least(ft_osa(term, q), k + 1) END"),
    # FuzzyTermsEnum's boost for a term `edits` away: 1 - edits / min(code points of either term), a float.
    ("ft_fuzzy_boost(edits, term_length, q_length)",
     f"CASE WHEN edits = 0 THEN 1{_F} ELSE 1{_F} - edits{_F} / least(term_length, q_length){_F} END"),
    # A sloppy phrase's frequency, SloppyPhraseMatcher's walk (terms without repeats): `p` holds each term's
    # positions less its offset in the phrase, `o` the offsets. The lead term (least position, then offset,
    # then order) advances while it stays at or before the next term's position; once it passes it, the
    # window `ml` (end - lead position, the least seen while advancing) is a match when within the slop,
    # adding 1 / (1 + ml) as a float, and the least term leads. A lead with no position left ends the walk
    # (`pp` 0). One reduce step per position; `st.q` is the terms' current (position, offset, order) sorted.
    ("ft_sloppy_order(p, o, idx)",
     "list_sort(list_transform(range(1, len(p) + 1), lambda k: [p[k][idx[k]], o[k], k]))"),
    ("ft_sloppy_weight(ml, slop)",
     f"CASE WHEN ml <= slop THEN 1{_F} / (1{_F} + ml{_F}) ELSE 0{_F} END"),
    ("ft_sloppy_start(p, o, q, en)",
     "{idx: list_transform(p, lambda x: 1::BIGINT), pp: q[1][3], ml: en - q[1][1], nxt: q[2][1], en: en,"
     " freq: 0::FLOAT}"),
    ("ft_sloppy_freq(p, o, slop)",
     "list_reduce(range(list_sum(list_transform(p, lambda x: len(x)))::BIGINT), lambda st, step:"
     " CASE WHEN st.pp = 0 THEN st"
     " WHEN st.idx[st.pp] >= len(p[st.pp]) THEN {idx: st.idx, pp: 0, ml: st.ml, nxt: st.nxt, en: st.en,"
     " freq: (st.freq + ft_sloppy_weight(st.ml, slop))::FLOAT}"
     " ELSE list_transform([p[st.pp][st.idx[st.pp] + 1]], lambda np: list_transform(["
     " list_transform(range(1, len(p) + 1), lambda k: st.idx[k] + CASE WHEN k = st.pp THEN 1 ELSE 0 END)],"
     " lambda ni: CASE WHEN np > st.nxt THEN list_transform([ft_sloppy_order(p, o, ni)], lambda q:"
     " {idx: ni, pp: q[1][3], ml: greatest(st.en, np) - q[1][1], nxt: q[2][1], en: greatest(st.en, np),"
     " freq: (st.freq + ft_sloppy_weight(st.ml, slop))::FLOAT})[1]"
     " ELSE {idx: ni, pp: st.pp, ml: least(st.ml, greatest(st.en, np) - np), nxt: st.nxt,"
     " en: greatest(st.en, np), freq: st.freq} END)[1])[1] END,"
     " ft_sloppy_start(p, o, ft_sloppy_order(p, o, list_transform(p, lambda x: 1::BIGINT)),"
     " list_max(list_transform(p, lambda x: x[1])))).freq"),
]

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
        if isinstance(query, PatternQuery | RangeQuery):
            return self._constant_score(query, boost)
        if isinstance(query, FuzzyQuery):
            return (f"(SELECT id, sum(score::DOUBLE)::FLOAT AS score FROM {self._fuzzy_terms(query, boost)}"
                    f" GROUP BY id)")
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
        joins = "".join(f" JOIN ft_postings AS p{k} ON p{k}.idx = {self.index} AND p{k}.field = {field}"
                        f" AND p{k}.term = {term} AND p{k}.id = p0.id" for k, term in enumerate(terms[1:], start=1))
        if query.slop == 0:
            checks = " AND ".join(f"list_contains(p{k}.positions, (p0.pos + {position})::INTEGER)"
                                  for k, position in enumerate(query.positions[1:], start=1))
            matches = (f"(SELECT p0.id, any_value(p0.norm) AS norm, count(*) AS freq FROM (SELECT id, norm,"
                       f" unnest(positions) AS pos FROM ft_postings WHERE idx = {self.index} AND field = {field}"
                       f" AND term = {terms[0]}) AS p0{joins} WHERE {checks} GROUP BY p0.id)")
        else:
            if len(set(query.terms)) < len(query.terms):
                raise UnsupportedFeature("a sloppy phrase (\"...\"~n) that repeats a term in a full-text query")
            slop = self.parameters.bind(query.slop, t.INTEGER)
            shifted = ", ".join(f"list_transform(p{k}.positions, lambda x: x::BIGINT - {position})"
                                for k, position in enumerate(query.positions))
            offsets = ", ".join(str(position) for position in query.positions)
            # the positions are a column of their own: the macro names its arguments at every use
            lists = (f"(SELECT p0.id, p0.norm, [{shifted}] AS pl FROM ft_postings AS p0{joins}"
                     f" WHERE p0.idx = {self.index} AND p0.field = {field} AND p0.term = {terms[0]})")
            matches = (f"(SELECT id, norm, freq FROM (SELECT id, norm, ft_sloppy_freq(pl, [{offsets}]::BIGINT[],"
                       f" {slop}) AS freq FROM {lists}) WHERE freq > 0)")
        # A phrase's idf is the sum of its terms' float idfs, in a double, rounded to a float.
        idf = " + ".join(f"ft_idf(k.n, {self._doc_freq(field, term)})::DOUBLE" for term in terms)
        constants = self._constants(field, f"({idf})::FLOAT", boost)
        return (f"(SELECT m.id, ft_tf_score(k.weight, m.freq, ft_norm_inverse(m.norm, k.avgdl)) AS score"
                f" FROM {matches} AS m CROSS JOIN {constants} AS k)")

    def _fuzzy_terms(self, query: FuzzyQuery, boost: float) -> str:
        """One row (id, score) per element and matching term of a fuzzy query: MultiTermQuery's
        TopTermsBlendedFreqScoringRewrite. The field's terms within `max_edits` (the length difference
        bounds the distance, so only terms that close in length are measured), the best 50 by boost then
        term (UTF-8 order), each a term query boosted by max(0, its boost) whose docFreq is the greatest
        docFreq among them (BlendedTermQuery), so all share one idf."""
        field = self.parameters.text(query.field)
        term = self.parameters.text(query.term)
        edits = self.parameters.bind(query.max_edits, t.INTEGER)
        length = self.parameters.bind(len(query.term), t.INTEGER)
        dictionary = (f"(SELECT term, count(*) AS df FROM ft_postings WHERE idx = {self.index} AND field = {field}"
                      f" AND abs(length(term) - {length}) <= {edits} GROUP BY term)")
        measured = (f"(SELECT term, df, ft_fuzzy_edits(term, {term}, {edits}) AS edits FROM {dictionary})")
        top = (f"(SELECT term, greatest(ft_fuzzy_boost(edits, length(term), {length}), 0{_F}) AS boost,"
               f" max(df) OVER () AS df FROM {measured} WHERE edits <= {edits}"
               f" ORDER BY ft_fuzzy_boost(edits, length(term), {length}) DESC, term LIMIT 50)")
        weight = f"({self._boost(boost)} * f.boost) * ft_idf(k.n, f.df)"
        return (f"(SELECT p.id, ft_tf_score({weight}, p.tf, ft_norm_inverse(p.norm, k.avgdl)) AS score"
                f" FROM {top} AS f JOIN ft_postings AS p ON p.idx = {self.index} AND p.field = {field}"
                f" AND p.term = f.term CROSS JOIN {self._field_constants(field)} AS k)")

    def _constant_score(self, query: PatternQuery | RangeQuery, boost: float) -> str:
        """Prefix, wildcard, regexp and range queries: Lucene's constant-score rewrite, each element whose
        field holds a matching term scores the boost."""
        field = self.parameters.text(query.field)
        if isinstance(query, RangeQuery):
            tests = [f"term {'>=' if query.include_lower else '>'} {self.parameters.text(query.lower)}"
                     if query.lower is not None else "true",
                     f"term {'<=' if query.include_upper else '<'} {self.parameters.text(query.upper)}"
                     if query.upper is not None else "true"]
            test = " AND ".join(tests)
        else:
            pattern = self.parameters.text(query.pattern)
            test = {"prefix": f"starts_with(term, {pattern})", "wildcard": f"term LIKE {pattern} ESCAPE '\\'",
                    "regexp": f"regexp_full_match(term, {pattern})"}[query.kind]
        return (f"(SELECT DISTINCT id, {self._boost(boost)} AS score FROM ft_postings"
                f" WHERE idx = {self.index} AND field = {field} AND {test})")

    def _boolean(self, query: BooleanQuery, boost: float) -> str:
        if all(occur == "must_not" for occur, _ in query.clauses):
            return _NOTHING  # only prohibited clauses: Lucene matches nothing
        _refuse_mergeable_fuzzy(query)
        # An unboosted optional fuzzy clause is a pure-OR group once rewritten, so BooleanQuery.rewrite
        # flattens its terms into this query's optional clauses: each term's rows join the optional sum.
        scoring = [(occur, self._fuzzy_terms(q, boost) if occur == "should" and isinstance(q, FuzzyQuery)
                    else self.compile(q, boost)) for occur, q in query.clauses if occur != "must_not"]
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
        # with clauses of one kind only, that is their sum (the other is null): one aggregate, not three
        score = (f"coalesce(({required}::DOUBLE + {optional}::DOUBLE)::FLOAT, {required}, {optional})"
                 if 0 < musts < len(scoring) else "sum(score::DOUBLE)::FLOAT")
        return (f"(SELECT id, {score} AS score FROM ({parts}) WHERE true{where} GROUP BY id HAVING {having})")


_NOTHING = "(SELECT NULL::BIGINT AS id, NULL::FLOAT AS score WHERE false)"


def _refuse_mergeable_fuzzy(query: BooleanQuery) -> None:
    """Lucene's rewrite merges equal clauses of one occur, and a fuzzy term's expansion takes part in that:
    its terms join the parent's optional clauses, where one equal to a sibling term (or to another
    expansion's) merges into one clause with the summed boost and the docFreq of whichever the rewrite's
    hash map met first. Which terms expand is the index's, unknown to the compiled SQL, so a fuzzy clause
    that could share a term with a sibling of the same field and occur is refused rather than scored apart:
    a term within the fuzzy's edits, or another fuzzy term close enough that a term could be within both."""
    for occur in ("should", "must"):
        leaves = []
        for clause_occur, clause in query.clauses:
            while isinstance(clause, BoostQuery):
                clause = clause.query
            if clause_occur == occur and isinstance(clause, TermQuery | FuzzyQuery):
                leaves.append(clause)
        fuzzy = [leaf for leaf in leaves if isinstance(leaf, FuzzyQuery)]
        for first in fuzzy:
            for other in leaves:
                if other is first or other.field != first.field:
                    continue
                reach = first.max_edits + (other.max_edits if isinstance(other, FuzzyQuery) else 0)
                if damerau_levenshtein(first.term, other.term) <= reach:
                    raise UnsupportedFeature(
                        f"the fuzzy term {first.term}~{first.max_edits} beside {other.term!r} in one full-text "
                        "query (Lucene merges the terms they share, as the index decides)")


def damerau_levenshtein(a: str, b: str) -> int:
    """The unrestricted Damerau-Levenshtein distance (Lowrance-Wagner), a lower bound of the optimal string
    alignment distance fuzzy terms use that, unlike it, obeys the triangle inequality."""
    infinity = len(a) + len(b)
    last_row: dict[str, int] = {}
    table = [[infinity] * (len(b) + 2)] + [[infinity] + [0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        table[i + 1][1] = i
    for j in range(len(b) + 1):
        table[1][j + 1] = j
    for i in range(1, len(a) + 1):
        last_match_column = 0
        for j in range(1, len(b) + 1):
            k = last_row.get(b[j - 1], 0)
            m = last_match_column
            cost = 0 if a[i - 1] == b[j - 1] else 1
            if cost == 0:
                last_match_column = j
            table[i + 1][j + 1] = min(table[i][j] + cost, table[i + 1][j] + 1, table[i][j + 1] + 1,
                                      table[k][m] + (i - k - 1) + 1 + (j - m - 1))
        last_row[a[i - 1]] = i
    return table[len(a) + 1][len(b) + 1]
