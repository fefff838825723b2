"""The tokenizer: token kinds, decoded values, spans, and the errors it raises itself."""

from __future__ import annotations

import pytest

from engine.errors import CypherSyntaxError
from engine.span import Span
from engine.syntax.tokenizer import tokenize
from engine.syntax.tokens import KEYWORDS, SYMBOLS, TokenType

TT = TokenType


def kinds(text: str) -> list[tuple[str, object]]:
    return [(token.type.name, token.value) for token in tokenize(text)[:-1]]


def test_ends_with_one_eof_token() -> None:
    tokens = tokenize("RETURN 1")
    assert tokens[-1].type is TT.EOF
    assert tokens[-1].span == Span(1, 9, 8, 8)
    assert [token.type for token in tokenize("   ")] == [TT.EOF]


@pytest.mark.parametrize(("text", "expected"), [
    ("match MATCH Match", [("MATCH", "match"), ("MATCH", "MATCH"), ("MATCH", "Match")]),
    ("foo `b``ar` `match`", [("IDENTIFIER", "foo"), ("QUOTED_IDENTIFIER", "b`ar"),
                             ("QUOTED_IDENTIFIER", "match")]),
    ("ñandú 名前 _x a1", [("IDENTIFIER", "ñandú"), ("IDENTIFIER", "名前"), ("IDENTIFIER", "_x"),
                         ("IDENTIFIER", "a1")]),
    ("$name $0 $`odd name`", [("PARAMETER", "name"), ("PARAMETER", "0"), ("PARAMETER", "odd name")]),
    ("SHORTEST trail Index", [("IDENTIFIER", "SHORTEST"), ("IDENTIFIER", "trail"), ("IDENTIFIER", "Index")]),
], ids=["keywords are case-insensitive", "quoted names", "unicode letters", "parameters",
        "contextual words stay identifiers"])
def test_words(text: str, expected: list[tuple[str, object]]) -> None:
    assert kinds(text) == expected


@pytest.mark.parametrize(("text", "kind", "value"), [
    ("0", "INTEGER", 0),
    ("42", "INTEGER", 42),
    ("1_000", "INTEGER", 1000),
    ("0x1F", "INTEGER", 31),
    ("0Xff", "INTEGER", 255),
    ("0o17", "INTEGER", 15),
    ("9223372036854775808", "INTEGER", 2**63),  # the parser judges the range, knowing the sign
    ("1.5", "FLOAT", 1.5),
    (".5", "FLOAT", 0.5),
    ("1e10", "FLOAT", 1e10),
    ("1.5E-3", "FLOAT", 1.5e-3),
    ("12ab", "BAD_NUMBER", None),
    ("0x", "BAD_NUMBER", None),
    ("0x1g", "BAD_NUMBER", None),
    ("0o8", "BAD_NUMBER", None),
])
def test_numbers(text: str, kind: str, value: object) -> None:
    assert kinds(text) == [(kind, value)]


def test_ranges_are_not_floats() -> None:
    assert kinds("*1..3") == [("STAR", "*"), ("INTEGER", 1), ("DOTDOT", ".."), ("INTEGER", 3)]
    assert kinds("x[..2]") == [("IDENTIFIER", "x"), ("LBRACKET", "["), ("DOTDOT", ".."), ("INTEGER", 2),
                               ("RBRACKET", "]")]


@pytest.mark.parametrize(("text", "value"), [
    ("''", ""),
    ('""', ""),
    (r"'it\'s'", "it's"),
    (r'"say \"hi\""', 'say "hi"'),
    (r"'a\\b'", "a\\b"),
    (r"'\b\f\n\r\t'", "\b\f\n\r\t"),
    (r"'\B\F\N\R\T'", "\b\f\n\r\t"),
    (r"'\u00e9'", "é"),
    (r"'\U0001F600'", "😀"),
    (r"'\uD83D\uDE00'", "😀"),
    ("'two\nlines'", "two\nlines"),
    ("'🧐🍌❖⋙⚐'", "🧐🍌❖⋙⚐"),
    ("'-- // not a comment'", "-- // not a comment"),
])
def test_strings(text: str, value: str) -> None:
    assert kinds(text) == [("STRING", value)]


def test_symbols_take_the_longest_match() -> None:
    text = "<> <= >= =~ += .. :: || <-- -->"
    assert [token.text for token in tokenize(text)[:-1]] == \
        ["<>", "<=", ">=", "=~", "+=", "..", "::", "||", "<", "-", "-", "-", "-", ">"]


def test_tables_cover_each_other() -> None:
    assert all(kind.value == text for text, kind in KEYWORDS.items())
    assert all(kind.value == text for text, kind in SYMBOLS.items())


def test_comments_are_skipped() -> None:
    text = "MATCH // to the end of the line ; RETURN\n(n) /* block\n comment */ RETURN n"
    assert [token.text for token in tokenize(text)[:-1]] == ["MATCH", "(", "n", ")", "RETURN", "n"]


def test_spans_count_lines_and_columns() -> None:
    text = "MATCH (n)\n  WHERE n.x = 'a\nb'\n/* c\n*/ RETURN n"
    spans = {token.text: token.span for token in tokenize(text)}
    assert spans["MATCH"] == Span(1, 1, 0, 5)
    assert spans["WHERE"] == Span(2, 3, 12, 17)
    assert spans["'a\nb'"] == Span(2, 15, 24, 29)
    assert spans["RETURN"] == Span(5, 4, 38, 44)
    for token in tokenize(text)[:-1]:
        assert text[token.span.start:token.span.end] == token.text


@pytest.mark.parametrize(("text", "position", "detail", "message"), [
    ("RETURN '\\uH'", (1, 9), "InvalidUnicodeLiteral", "invalid unicode escape"),
    ("RETURN 'a\\qb'", (1, 10), "UnexpectedSyntax", "invalid escape sequence '\\q'"),
    ("RETURN 'abc", (1, 8), "UnexpectedSyntax", "unterminated string"),
    ("RETURN `abc", (1, 8), "UnexpectedSyntax", "unterminated quoted name"),
    ("RETURN 1 /* x", (1, 10), "UnexpectedSyntax", "unterminated comment"),
    ("RETURN 42 — 41", (1, 11), "InvalidUnicodeCharacter", "invalid character '—'"),
    ("RETURN\n  9223372#5", (2, 10), "UnexpectedSyntax", "unexpected character '#'"),
    ("RETURN 1.34E999", (1, 8), "FloatingPointOverflow", "floating point number is too large"),
])
def test_errors(text: str, position: tuple[int, int], detail: str, message: str) -> None:
    with pytest.raises(CypherSyntaxError) as raised:
        tokenize(text)
    error = raised.value
    assert (error.span.line, error.span.column) == position
    assert error.detail == detail
    assert error.message.startswith(message)
    assert error.source == text  # str(error) shows the line with a caret
    assert "^" in str(error)
