"""The Lucene query syntax users type into `db.index.fulltext.queryNodes`, parsed as Lucene 9's classic
`QueryParser` does, into the query tree Neo4j's `MultiFieldQueryParser` builds over the index's properties.

Syntax: terms, `"phrases"` with an optional `~slop`, `prefix*` and `wild?ca*rds`, fuzzy `term~n`,
`/regular expressions/`, ranges `[a TO b]` / `{a TO b}`, `field:` before any of them or a group, `^boost`,
`( ... )`, the operators `AND`/`&&`, `OR`/`||`, `NOT`/`!`, `+` and `-`, backslash escapes, `*:*`. The default
operator is OR. Clauses combine by Lucene's `addClause`: `a AND b` makes both required, `NOT`/`-` prohibits,
`+` requires; a query of prohibited clauses only matches nothing.

Terms and phrases are analyzed by the index's analyzer; wildcard, fuzzy, regexp and range terms are only
normalized by it (lower case), as Lucene's parser does. An unfielded query becomes a disjunction over the
index's properties, one per field, as MultiFieldQueryParser builds it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from engine.errors import ProcedureError
from engine.fulltext.regexp import lucene_regexp
from engine.values import float32

Occur = Literal["must", "should", "must_not"]


@dataclass(frozen=True)
class TermQuery:
    field: str
    term: str


@dataclass(frozen=True)
class PhraseQuery:
    """Terms at relative positions (gaps where the analyzer dropped stop words); `slop` > 0 is Lucene's
    sloppy phrase (engine/fulltext/scoring.py)."""

    field: str
    terms: tuple[str, ...]
    positions: tuple[int, ...]
    slop: int = 0


@dataclass(frozen=True)
class FuzzyQuery:
    """`term~n`: the index's terms within `max_edits` Damerau-Levenshtein (optimal string alignment) edits,
    scored as Lucene's top-terms blended rewrite scores them (ADR-0089)."""

    field: str
    term: str
    max_edits: int


@dataclass(frozen=True)
class RangeQuery:
    """`[a TO b]`, `{a TO b}` (`*` or None: open): terms between the bounds, compared as UTF-8 bytes;
    constant-scoring like PatternQuery."""

    field: str
    lower: str | None
    upper: str | None
    include_lower: bool
    include_upper: bool


@dataclass(frozen=True)
class PatternQuery:
    """A prefix (`kind` prefix, `pattern` the prefix), wildcard (`pattern` a SQL LIKE pattern) or regular
    expression (`pattern` an RE2 expression matching whole terms, engine/fulltext/regexp.py) query:
    constant-scoring, as Lucene rewrites multi-term queries, each match scores its boost."""

    field: str
    kind: Literal["prefix", "wildcard", "regexp"]
    pattern: str


@dataclass(frozen=True)
class MatchAll:
    pass


@dataclass(frozen=True)
class BooleanQuery:
    """Matches what its `must` clauses all match, and (with none) at least one `should` clause; never what a
    `must_not` clause matches. How it sums its clauses' scores is Lucene's (engine/fulltext/scoring.py)."""

    clauses: tuple[tuple[Occur, Query], ...]


@dataclass(frozen=True)
class BoostQuery:
    """Lucene's BoostQuery (`q^2`): a wrapper, not a change to its query's leaves, because Lucene's rewrites
    treat a boosted group as one clause (it is neither flattened nor merged with an unboosted twin)."""

    query: Query
    boost: float


Query = TermQuery | PhraseQuery | FuzzyQuery | PatternQuery | RangeQuery | MatchAll | BooleanQuery | BoostQuery


class QueryAnalyzer(Protocol):
    """What the parser needs of the index's analyzer (engine/fulltext/analyzers.py)."""

    def analyze(self, text: str) -> Sequence[tuple[str, int]]:
        """The terms of `text` with their positions (gaps where stop words were dropped)."""

    def normalize(self, text: str) -> str:
        """`text` as Lucene's `Analyzer.normalize` makes a wildcard, fuzzy, regexp or range term (no
        tokenizing, no stemming: lower case, for most analyzers)."""


class QueryParseError(ProcedureError):
    """A full-text query string Lucene's parser rejects."""


# -- lexing -----------------------------------------------------------------------------------------------

_SPECIAL = set(' \t\n\r\u3000+-!():^[]"{}~*?\\/')
_TERM_INNER_OK = {"-", "+", "*", "?"}


@dataclass
class _Token:
    kind: str  # TERM, PHRASE, AND, OR, NOT, PLUS, MINUS, LPAREN, RPAREN, COLON, CARET, EOF
    text: str
    position: int
    wildcard: bool = False
    escaped: str = ""  # the term with escapes kept as `\x`, to tell literal `*` from wildcards
    bounds: tuple[str | None, str | None, bool, bool] = (None, None, True, True)  # a RANGE token's


def _lex(text: str, fail: Callable[[str], Exception]) -> list[_Token]:
    tokens: list[_Token] = []
    i = 0
    n = len(text)
    while i < n:
        char = text[i]
        if char in " \t\n\r\u3000":
            i += 1
            continue
        if text.startswith("&&", i):
            tokens.append(_Token("AND", "&&", i))
            i += 2
            continue
        if text.startswith("||", i):
            tokens.append(_Token("OR", "||", i))
            i += 2
            continue
        single = {"+": "PLUS", "-": "MINUS", "!": "NOT", "(": "LPAREN", ")": "RPAREN", ":": "COLON", "^": "CARET"}
        if char in single:
            tokens.append(_Token(single[char], char, i))
            i += 1
            continue
        if char == '"':
            end = i + 1
            chars = []
            while end < n and text[end] != '"':
                if text[end] == "\\" and end + 1 < n:
                    end += 1
                chars.append(text[end])
                end += 1
            if end >= n:
                raise fail(f"Lexical error at line 1, column {n + 1}.  Encountered: <EOF> after : "
                           f"\"{text[i:]}\"")
            tokens.append(_Token("PHRASE", "".join(chars), i))
            i = end + 1
            continue
        if char in "[{":
            range_token, i = _lex_range(text, i, fail)
            tokens.append(range_token)
            continue
        if char == "/":
            end = i + 1
            while end < n and text[end] != "/":
                end += 2 if text[end] == "\\" and text.startswith("/", end + 1) else 1
            if end >= n:
                raise fail(f"Lexical error at line 1, column {n + 1}.  Encountered: <EOF> after : \"{text[i:]}\"")
            tokens.append(_Token("REGEXP", text[i + 1:end], i))
            i = end + 1
            continue
        if char == "~":
            end = i + 1
            while end < n and (text[end] not in _SPECIAL or text[end] in "+-" or text[end] == "\\"):
                end += 2 if text[end] == "\\" else 1
            tokens.append(_Token("FUZZY", text[i:end], i))
            i = end
            continue
        if char in "]}":
            raise fail(f"Encountered \" \"{char}\" \"{char} \"\" at line 1, column {i + 1}.")
        start = i
        plain: list[str] = []
        escaped: list[str] = []
        wildcard = False
        while i < n:
            char = text[i]
            if char == "\\":
                if i + 1 >= n:
                    raise fail("Term can not end with escape character.")
                plain.append(text[i + 1])
                escaped.append(text[i:i + 2])
                i += 2
                continue
            if char in _SPECIAL and not (char in _TERM_INNER_OK and i > start):
                if char in "*?" and i == start:
                    pass  # a leading wildcard: taken as part of the term, refused below
                else:
                    break
            if char in "*?":
                wildcard = True
            plain.append(char)
            escaped.append(char)
            i += 1
        word = "".join(plain)
        if word in ("AND", "OR", "NOT") and not wildcard and "".join(escaped) == word:
            tokens.append(_Token(word, word, start))
        else:
            tokens.append(_Token("TERM", word, start, wildcard, "".join(escaped)))
    tokens.append(_Token("EOF", "", n))
    return tokens


def _lex_range(text: str, start: int, fail: Callable[[str], Exception]) -> tuple[_Token, int]:
    """`[a TO b]` / `{a TO b}` (either end inclusive or not) as one RANGE token, its bounds
    in `bounds` (None: `*`, open), as Lucene's `Range` lexical state reads them."""
    n = len(text)
    i = start + 1
    parts: list[tuple[str, str]] = []  # (kind, image): GOOP, QUOTED, TO, END
    while i < n:
        char = text[i]
        if char in " \t\n\r\u3000":
            i += 1
            continue
        if char in "]}":
            parts.append(("END", char))
            i += 1
            break
        if char == '"':
            end = i + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            if end >= n:
                raise fail(f"Lexical error at line 1, column {n + 1}.  Encountered: <EOF> after : \"{text[i:]}\"")
            parts.append(("QUOTED", text[i + 1:end]))
            i = end + 1
            continue
        end = i
        while end < n and text[end] not in " \t\n\r\u3000]}":
            end += 1
        image = text[i:end]
        parts.append(("TO" if image == "TO" else "GOOP", image))
        i = end
    kinds = [kind for kind, _ in parts]
    if len(kinds) != 4 or kinds[1] != "TO" or kinds[3] != "END" or "END" in kinds[:3]:
        raise fail(f"Encountered \" <RANGE> \" at line 1, column {start + 1}.")
    parts = [parts[0], parts[2], parts[3]]

    def bound(kind: str, image: str) -> str | None:
        if kind != "QUOTED" and image == "*":
            return None
        return re.sub(r"\\(.)", r"\1", image, flags=re.S)

    token = _Token("RANGE", text[start:i], start)
    token.bounds = (bound(*parts[0]), bound(*parts[1]), text[start] == "[", parts[2][1] == "]")
    return token, i


# -- parsing ----------------------------------------------------------------------------------------------

_MOD_NONE, _MOD_REQ, _MOD_NOT = 0, 1, 2
_CONJ_NONE, _CONJ_AND, _CONJ_OR = 0, 1, 2


@dataclass
class _Clause:
    occur: Occur
    query: Query


@dataclass
class _Parser:
    text: str
    fields: Sequence[str]
    analyzer: QueryAnalyzer
    procedure: str
    tokens: list[_Token] = field(default_factory=list)
    index: int = 0

    def fail(self, reason: str) -> QueryParseError:
        return QueryParseError(
            f"Failed to invoke procedure `{self.procedure}`: Caused by: "
            f"org.apache.lucene.queryparser.classic.ParseException: Cannot parse '{self.text}': {reason}",
            detail="ProcedureCallFailed")

    def peek(self) -> _Token:
        return self.tokens[self.index]

    def take(self) -> _Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def unexpected(self, token: _Token) -> QueryParseError:
        shown = "<EOF>" if token.kind == "EOF" else f'"{token.text}"'
        return self.fail(f"Encountered \" {shown} \" at line 1, column {token.position + 1}.")

    def parse(self) -> Query | None:
        self.tokens = _lex(self.text, self.fail)
        if self.peek().kind == "EOF":
            raise self.fail("Encountered \"<EOF>\" at line 1, column 0.")
        query = self.query(None)
        if self.peek().kind != "EOF":
            raise self.unexpected(self.peek())
        return query

    def query(self, field_name: str | None) -> Query | None:
        clauses: list[_Clause] = []
        first: Query | None = None
        if self.at_multi_term():
            first = self.multi_term(field_name, clauses)
        else:
            modifiers = self.modifiers()
            query = self.clause(field_name)
            _add_clause(clauses, _CONJ_NONE, modifiers, query)
            if modifiers == _MOD_NONE:
                first = query
        while self.peek().kind not in ("EOF", "RPAREN"):
            if self.at_multi_term():
                self.multi_term(field_name, clauses)
                continue
            conjunction = self.conjunction()
            modifiers = self.modifiers()
            query = self.clause(field_name)
            _add_clause(clauses, conjunction, modifiers, query)
        if len(clauses) == 1 and first is not None:
            return first
        if not clauses:
            return None
        return BooleanQuery(tuple((c.occur, c.query) for c in clauses))

    def at_multi_term(self, offset: int = 0) -> bool:
        """Lucene's MultiTerm lookahead (its parser does not split on whitespace): two plain terms in a row,
        the second not followed by `:`, `^`, AND or OR."""
        tokens = [self.tokens[min(self.index + offset + k, len(self.tokens) - 1)] for k in range(3)]
        return _plain(tokens[0]) and _plain(tokens[1]) and tokens[2].kind not in ("COLON", "CARET", "AND", "OR",
                                                                                  "FUZZY")

    def multi_term(self, field_name: str | None, clauses: list[_Clause]) -> Query | None:
        """Consecutive plain terms analyzed as one text. Their query's clauses join `clauses` one by one when
        they are all term queries (one field), else the query is one SHOULD clause (addMultiTermClauses)."""
        words = [self.take().text]
        while self.at_multi_term(-1):
            words.append(self.take().text)
        query = self.term(field_name, _Token("TERM", " ".join(words), 0))
        if isinstance(query, BooleanQuery) and all(isinstance(q, TermQuery) for _, q in query.clauses):
            clauses.extend(_Clause(occur, q) for occur, q in query.clauses)
        elif query is not None:
            clauses.append(_Clause("should", query))
        return query

    def conjunction(self) -> int:
        kind = self.peek().kind
        if kind == "AND":
            self.take()
            return _CONJ_AND
        if kind == "OR":
            self.take()
            return _CONJ_OR
        return _CONJ_NONE

    def modifiers(self) -> int:
        kind = self.peek().kind
        if kind == "PLUS":
            self.take()
            return _MOD_REQ
        if kind in ("MINUS", "NOT"):
            self.take()
            return _MOD_NOT
        return _MOD_NONE

    def clause(self, field_name: str | None) -> Query | None:
        token = self.peek()
        if token.kind == "TERM" and self.tokens[self.index + 1].kind == "COLON":
            if token.text == "*" and self.tokens[self.index + 2].kind == "TERM" \
                    and self.tokens[self.index + 2].text == "*":
                self.index += 3
                return _boosted(MatchAll(), self.boost())
            self.index += 2
            field_name = token.escaped.replace("\\", "") if token.escaped else token.text
            token = self.peek()
        if token.kind == "LPAREN":
            self.take()
            inner = self.query(field_name)
            if self.take().kind != "RPAREN":
                raise self.unexpected(self.tokens[self.index - 1])
            return _boosted(inner, self.boost())
        if token.kind in ("TERM", "PHRASE"):
            self.take()
            boost, slop = self.boost_and_slop()
            if token.kind == "PHRASE":
                return _boosted(self.phrase(field_name, token.text, _phrase_slop(slop)), boost)
            if slop is not None and not token.wildcard:
                return _boosted(self.fuzzy(field_name, token, slop), boost)
            return _boosted(self.term(field_name, token), boost)
        if token.kind == "REGEXP":
            self.take()
            return _boosted(self.regexp(field_name, token.text), self.boost())
        if token.kind == "RANGE":
            self.take()
            return _boosted(self.range(field_name, token.bounds), self.boost())
        raise self.unexpected(token)

    def boost_and_slop(self) -> tuple[float, str | None]:
        """A term's or phrase's `^boost` and `~slop`, in either order (Lucene's grammar takes both)."""
        boost_first = self.peek().kind == "CARET"
        boost = self.boost()
        slop = None
        if self.peek().kind == "FUZZY":
            slop = self.take().text[1:]
            if not boost_first:
                boost = self.boost()
        return boost, slop

    def boost(self) -> float:
        """The `^boost` after a clause, a Java float as Lucene's parser reads it (1 when absent)."""
        if self.peek().kind != "CARET":
            return 1.0
        self.take()
        token = self.take()
        try:
            value = float32(float(token.text)) if token.kind == "TERM" and not token.wildcard else None
        except ValueError:
            value = None
        if value is None:
            raise self.unexpected(token)
        return value

    # -- building (MultiFieldQueryParser over the index's fields) --

    def _fields(self, field_name: str | None) -> list[str]:
        return [field_name] if field_name is not None else list(self.fields)

    def term(self, field_name: str | None, token: _Token) -> Query | None:
        if token.wildcard:
            return self.pattern(field_name, token)
        terms = [term for term, _ in self.analyzer.analyze(token.text)]
        if not terms:
            return None
        per_token = [_disjunction([TermQuery(f, term) for f in self._fields(field_name)]) for term in terms]
        if len(per_token) == 1:
            return per_token[0]
        return BooleanQuery(tuple(("should", q) for q in per_token))

    def phrase(self, field_name: str | None, text: str, slop: int) -> Query | None:
        tokens = self.analyzer.analyze(text)
        if not tokens:
            return None
        fields = self._fields(field_name)
        if len(tokens) == 1:
            return _disjunction([TermQuery(f, tokens[0][0]) for f in fields])
        terms = tuple(term for term, _ in tokens)
        positions = tuple(position - tokens[0][1] for _, position in tokens)
        return _disjunction([PhraseQuery(f, terms, positions, slop) for f in fields])

    def fuzzy(self, field_name: str | None, token: _Token, slop: str) -> Query:
        """`term~`, `term~1`, `term~0.8`: QueryParserBase.handleBareFuzzy and newFuzzyQuery (the similarity a
        Java float, default 2; 1 or more is a number of edits, below 1 the old fraction of the term's length;
        at most 2 edits); the term is normalized, not analyzed."""
        similarity = _java_float(slop)
        similarity = float32(2.0) if similarity is None else similarity
        if similarity < 0:
            raise self.fail("Minimum similarity for a FuzzyQuery has to be between 0.0f and 1.0f !")
        if similarity >= 1 and similarity != int(similarity):
            raise self.fail("Fractional edit distances are not allowed!")
        term = self.analyzer.normalize(token.text)
        if similarity >= 1:
            edits = int(min(similarity, 2.0))
        elif similarity == 0:
            edits = 0
        else:
            edits = min(int((1.0 - similarity) * len(term)), 2)
        return _disjunction([FuzzyQuery(f, term, edits) for f in self._fields(field_name)])

    def regexp(self, field_name: str | None, source: str) -> Query:
        try:
            pattern = lucene_regexp(self.analyzer.normalize(source))
        except ValueError as error:
            raise QueryParseError(f"Failed to invoke procedure `{self.procedure}`: Caused by: "
                                  f"java.lang.IllegalArgumentException: {error}",
                                  detail="ProcedureCallFailed") from None
        return _disjunction([PatternQuery(f, "regexp", pattern) for f in self._fields(field_name)])

    def range(self, field_name: str | None, bounds: tuple[str | None, str | None, bool, bool]) -> Query:
        lower, upper, include_lower, include_upper = bounds
        lower = None if lower is None else self.analyzer.normalize(lower)
        upper = None if upper is None else self.analyzer.normalize(upper)
        return _disjunction([RangeQuery(f, lower, upper, include_lower, include_upper)
                             for f in self._fields(field_name)])

    def pattern(self, field_name: str | None, token: _Token) -> Query:
        if token.escaped[:1] in ("*", "?"):
            raise self.fail("'*' or '?' not allowed as first character in WildcardQuery")
        pieces = re.findall(r"\\.|.", token.escaped, flags=re.S)
        literal = ["\\" + piece[1] if piece.startswith("\\") else piece for piece in pieces]
        if literal[-1] == "*" and all(p not in ("*", "?") for p in literal[:-1]):
            prefix = self.analyzer.normalize("".join(p[1:] if p.startswith("\\") else p for p in literal[:-1]))
            return _disjunction([PatternQuery(f, "prefix", prefix) for f in self._fields(field_name)])
        like = []
        for piece in literal:
            if piece == "*":
                like.append("%")
            elif piece == "?":
                like.append("_")
            else:
                char = self.analyzer.normalize(piece[1:] if piece.startswith("\\") else piece)
                like.append("\\" + char if char in "%_\\" else char)
        return _disjunction([PatternQuery(f, "wildcard", "".join(like)) for f in self._fields(field_name)])


def _java_float(text: str) -> float | None:
    """Java's Float.parseFloat of a fuzzy slop's digits (None when it is no number)."""
    try:
        return float32(float(text.rstrip("fFdD")))
    except ValueError:
        return None


def _phrase_slop(slop: str | None) -> int:
    """A phrase's `~n`: `(int) Float.parseFloat(n)`, 0 when absent or no number."""
    value = None if slop is None else _java_float(slop)
    if value is None or value != value:
        return 0
    return max(min(int(value), 2**31 - 1), -2**31)


def _plain(token: _Token) -> bool:
    return token.kind == "TERM" and not token.wildcard


def _add_clause(clauses: list[_Clause], conjunction: int, modifiers: int, query: Query | None) -> None:
    """Lucene's QueryParserBase.addClause with the default operator OR."""
    if clauses and conjunction == _CONJ_AND and clauses[-1].occur != "must_not":
        clauses[-1].occur = "must"
    if query is None:
        return
    prohibited = modifiers == _MOD_NOT
    required = modifiers == _MOD_REQ or (conjunction == _CONJ_AND and not prohibited)
    clauses.append(_Clause("must_not" if prohibited else "must" if required else "should", query))


def _disjunction(queries: list[Query]) -> Query:
    return queries[0] if len(queries) == 1 else BooleanQuery(tuple(("should", q) for q in queries))


def _boosted(query: Query | None, boost: float) -> Query | None:
    """`query^boost`; a boost of 1 is no wrapper (Lucene's rewrite drops it)."""
    if query is None or boost == 1.0:
        return query
    return BoostQuery(query, boost)


def parse_query(text: str, fields: Sequence[str], analyzer: QueryAnalyzer,
                procedure: str = "db.index.fulltext.queryNodes") -> Query | None:
    """The query tree of `text` over the index properties `fields` (None: nothing can match)."""
    return _Parser(text, fields, analyzer, procedure).parse()


class _Recorder:
    """A QueryAnalyzer that only notes the texts the parser analyzes (which the lexer alone decides)."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def analyze(self, text: str) -> Sequence[tuple[str, int]]:
        self.texts.append(text)
        return [(text, 0)]

    def normalize(self, text: str) -> str:
        return text


def analyzed_texts(text: str, fields: Sequence[str], procedure: str = "db.index.fulltext.queryNodes") -> list[str]:
    """The texts `parse_query` will analyze, so that an analyzer can cut them all at once (none when the query
    does not parse; the real parse then fails the same way)."""
    recorder = _Recorder()
    try:
        _Parser(text, fields, recorder, procedure).parse()
    except QueryParseError:
        return []
    return recorder.texts
