"""The Lucene query syntax users type into `db.index.fulltext.queryNodes`, parsed as Lucene 9's classic
`QueryParser` does, into the query tree Neo4j's `MultiFieldQueryParser` builds over the index's properties.

Syntax: terms, `"phrases"`, `prefix*` and `wild?ca*rds`, `field:` before any of them or a group, `^boost`,
`( ... )`, the operators `AND`/`&&`, `OR`/`||`, `NOT`/`!`, `+` and `-`, backslash escapes, `*:*`. The default
operator is OR. Clauses combine by Lucene's `addClause`: `a AND b` makes both required, `NOT`/`-` prohibits,
`+` requires; a query of prohibited clauses only matches nothing. Fuzzy terms (`a~`), phrase slop
(`"a b"~2`), ranges (`[a TO b]`) and regular expressions (`/re/`) raise UnsupportedFeature.

Terms and phrases are analyzed by the index's analyzer (`analyze`); an unfielded one becomes a disjunction
over the index's properties, one per field, as MultiFieldQueryParser builds it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from engine.errors import ProcedureError, UnsupportedFeature
from engine.values import float32

Occur = Literal["must", "should", "must_not"]


@dataclass(frozen=True)
class TermQuery:
    field: str
    term: str


@dataclass(frozen=True)
class PhraseQuery:
    field: str
    terms: tuple[str, ...]


@dataclass(frozen=True)
class PatternQuery:
    """A prefix (`kind` prefix, `pattern` the prefix) or wildcard (`pattern` a SQL LIKE pattern) query:
    constant-scoring, as Lucene rewrites multi-term queries, each match scores its boost."""

    field: str
    kind: Literal["prefix", "wildcard"]
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


Query = TermQuery | PhraseQuery | PatternQuery | MatchAll | BooleanQuery | BoostQuery


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
            raise UnsupportedFeature("range queries ([a TO b]) in full-text queries")
        if char == "/":
            raise UnsupportedFeature("regular expression queries (/re/) in full-text queries")
        if char == "~":
            raise UnsupportedFeature("fuzzy queries and phrase slop (~) in full-text queries")
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
    analyze: Callable[[str], Sequence[str]]
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
        return _plain(tokens[0]) and _plain(tokens[1]) and tokens[2].kind not in ("COLON", "CARET", "AND", "OR")

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
        if token.kind == "TERM":
            self.take()
            return _boosted(self.term(field_name, token), self.boost())
        if token.kind == "PHRASE":
            self.take()
            return _boosted(self.phrase(field_name, token.text), self.boost())
        raise self.unexpected(token)

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
        terms = self.analyze(token.text)
        if not terms:
            return None
        per_token = [_disjunction([TermQuery(f, term) for f in self._fields(field_name)]) for term in terms]
        if len(per_token) == 1:
            return per_token[0]
        return BooleanQuery(tuple(("should", q) for q in per_token))

    def phrase(self, field_name: str | None, text: str) -> Query | None:
        terms = self.analyze(text)
        if not terms:
            return None
        fields = self._fields(field_name)
        if len(terms) == 1:
            return _disjunction([TermQuery(f, terms[0]) for f in fields])
        return _disjunction([PhraseQuery(f, tuple(terms)) for f in fields])

    def pattern(self, field_name: str | None, token: _Token) -> Query:
        if token.escaped[:1] in ("*", "?"):
            raise self.fail("'*' or '?' not allowed as first character in WildcardQuery")
        pieces = re.findall(r"\\.|.", token.escaped, flags=re.S)
        literal = ["\\" + piece[1] if piece.startswith("\\") else piece for piece in pieces]
        if literal[-1] == "*" and all(p not in ("*", "?") for p in literal[:-1]):
            prefix = "".join(p[1:] if p.startswith("\\") else p for p in literal[:-1]).lower()
            return _disjunction([PatternQuery(f, "prefix", prefix) for f in self._fields(field_name)])
        like = []
        for piece in literal:
            if piece == "*":
                like.append("%")
            elif piece == "?":
                like.append("_")
            else:
                char = piece[1:] if piece.startswith("\\") else piece
                like.append("\\" + char if char in "%_\\" else char.lower())
        return _disjunction([PatternQuery(f, "wildcard", "".join(like)) for f in self._fields(field_name)])


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


def parse_query(text: str, fields: Sequence[str], analyze: Callable[[str], Sequence[str]],
                procedure: str = "db.index.fulltext.queryNodes") -> Query | None:
    """The query tree of `text` over the index properties `fields` (None: nothing can match)."""
    return _Parser(text, fields, analyze, procedure).parse()
