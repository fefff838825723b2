"""Cypher text → list of tokens, each with its span.

One compiled regular expression (`TOKEN_PATTERN`) is run over the text with `finditer`: each match is the
skipped text (whitespace, comments) and then one token in a named group, and a last catch-all group makes
every position match something, so the matches tile the text. The group name chooses what becomes of the
token: a word (keyword or identifier), a literal (decoded here), a symbol (looked up in `SYMBOLS`), the end,
or an error.

Numbers are matched loosely (digits followed by any word characters) and then checked against the strict
forms, so `12ab` and `0x1g` become one BAD_NUMBER token: an InvalidNumberLiteral where the parser reads a
value, an "expected a name" where it reads a map key. Integers keep Python's unbounded int: the parser checks
the 64-bit range, since only it knows whether a `-` in front belongs to the literal.
"""

from __future__ import annotations

import re

from engine.errors import CypherSyntaxError
from engine.span import Span
from engine.syntax.tokens import KEYWORDS, SYMBOLS, Token, TokenType

IDENTIFIER, QUOTED_IDENTIFIER = TokenType.IDENTIFIER, TokenType.QUOTED_IDENTIFIER
STRING, PARAMETER, EOF = TokenType.STRING, TokenType.PARAMETER, TokenType.EOF

# Dashes that look like '-' but are not Cypher's minus (openCypher rejects them in expressions).
UNICODE_DASHES = "\u00ad\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"

_SYMBOL_ALTERNATION = "|".join(re.escape(symbol) for symbol in sorted(SYMBOLS, key=len, reverse=True))

# Each match is: skipped text (whitespace, comments), then one token in a named group. Folding the skipped
# text
# into the match halves the number of matches, which is most of the tokenizer's time.
TOKEN_PATTERN = re.compile(
    rf"""
    (?:\s+|//[^\n\r]*|/\*.*?\*/)*
    (?:
      (?P<word>[^\W\d]\w*)
    | (?P<number>(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?\w*)
    | (?P<open_comment>/\*)
    | (?P<dollar>\$(?=\s*\())
    | (?P<symbol>{_SYMBOL_ALTERNATION})
    | (?P<string>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
    | (?P<parameter>\$(?:\w+|`(?:[^`]|``)*`))
    | (?P<quoted>`(?:[^`]|``)*`)
    | (?P<end>\Z)
    | (?P<open_string>['"])
    | (?P<open_quoted>`)
    | (?P<dash>[{UNICODE_DASHES}])
    | (?P<other>.)
    )
    """,
    re.VERBOSE | re.DOTALL,
)

DECIMAL_INTEGER = re.compile(r"\d+(?:_\d+)*")
HEX_INTEGER = re.compile(r"0[xX][0-9a-fA-F]+(?:_[0-9a-fA-F]+)*")
OCTAL_INTEGER = re.compile(r"0o[0-7]+(?:_[0-7]+)*")
DECIMAL_FLOAT = re.compile(r"(?:\d+(?:_\d+)*)?(?:\.\d+(?:_\d+)*)?(?:[eE][+-]?\d+)?")

ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[uU]|.)", re.DOTALL)
ESCAPES = {
    "\\": "\\", "'": "'", '"': '"',
    "b": "\b", "B": "\b", "f": "\f", "F": "\f", "n": "\n", "N": "\n",
    "r": "\r", "R": "\r", "t": "\t", "T": "\t",
}


def tokenize(text: str) -> list[Token]:
    """The tokens of `text`, ending with one EOF token. Raises CypherSyntaxError on text that is not
    Cypher."""
    try:
        return _tokenize(text)
    except CypherSyntaxError as error:
        raise error.with_source(text) from None


def _tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    append = tokens.append
    make_token = tuple.__new__
    count = text.count
    line, line_start = 1, 0
    for match in TOKEN_PATTERN.finditer(text):
        kind = match.lastgroup
        start, end = match.span(kind)
        skipped = match.start()
        if skipped != start and count("\n", skipped, start):  # newlines in the whitespace or comments before
            line += count("\n", skipped, start)
            line_start = text.rindex("\n", skipped, start) + 1
        column = start - line_start + 1
        chunk = text[start:end]
        if kind == "word":
            keyword = KEYWORDS.get(chunk.upper())
            append(make_token(Token, (keyword or IDENTIFIER, chunk, chunk, line, column, start, end)))
        elif kind == "dollar":  # `$(` of a dynamic label, type or key (Cypher 25)
            append(make_token(Token, (TokenType.DOLLAR, chunk, chunk, line, column, start, end)))
        elif kind == "symbol":
            append(make_token(Token, (SYMBOLS[chunk], chunk, chunk, line, column, start, end)))
        elif kind == "number":
            append(_number(chunk, Span(line, column, start, end)))
        elif kind == "string" or kind == "quoted":
            if kind == "string":
                value = _unescape(chunk, Span(line, column, start, end))
                append(make_token(Token, (STRING, chunk, value, line, column, start, end)))
            else:
                name = chunk[1:-1].replace("``", "`")
                append(make_token(Token, (QUOTED_IDENTIFIER, chunk, name, line, column, start, end)))
            if "\n" in chunk:  # a multi-line literal: the next token's line
                line += chunk.count("\n")
                line_start = start + chunk.rindex("\n") + 1
        elif kind == "parameter":
            name = chunk[1:]
            if name.startswith("`"):
                name = name[1:-1].replace("``", "`")
            append(make_token(Token, (PARAMETER, chunk, name, line, column, start, end)))
        elif kind == "end":
            if tokens:  # "found end of input" points just after the last token, not at trailing blank lines
                start = end = tokens[-1].end
                line_start = text.rfind("\n", 0, start) + 1
                line, column = count("\n", 0, start) + 1, start - line_start + 1
            append(make_token(Token, (EOF, "", None, line, column, start, end)))
            return tokens
        else:
            _raise_for(kind, chunk, Span(line, column, start, end))
    raise AssertionError("the token pattern always ends with an `end` match")  # pragma: no cover


# Digits beyond any 64-bit integer: the value is only used to report IntegerOverflow, and Python refuses to
# convert strings of more than 4300 digits.
OVERFLOWING = 2**64


def _number(chunk: str, span: Span) -> Token:
    if len(chunk) > 30 and (DECIMAL_INTEGER.fullmatch(chunk) or HEX_INTEGER.fullmatch(chunk)
                            or OCTAL_INTEGER.fullmatch(chunk)):
        return Token(TokenType.INTEGER, chunk, OVERFLOWING, *span)
    if DECIMAL_INTEGER.fullmatch(chunk):
        return Token(TokenType.INTEGER, chunk, int(chunk.replace("_", "")), *span)
    if HEX_INTEGER.fullmatch(chunk):
        return Token(TokenType.INTEGER, chunk, int(chunk[2:].replace("_", ""), 16), *span)
    if OCTAL_INTEGER.fullmatch(chunk):
        return Token(TokenType.INTEGER, chunk, int(chunk[2:].replace("_", ""), 8), *span)
    if DECIMAL_FLOAT.fullmatch(chunk):
        value = float(chunk.replace("_", ""))
        if value == float("inf"):
            raise CypherSyntaxError(f"floating point number is too large: {chunk}", span,
                                    detail="FloatingPointOverflow")
        return Token(TokenType.FLOAT, chunk, value, *span)
    return Token(TokenType.BAD_NUMBER, chunk, None, *span)


def _unescape(chunk: str, span: Span) -> str:
    body = chunk[1:-1]
    if "\\" not in body:
        return body

    def replace(match: re.Match[str]) -> str:
        escape = match.group(1)
        if len(escape) > 1:
            return chr(int(escape[1:], 16))
        if escape in ESCAPES:
            return ESCAPES[escape]
        offset = span.start + 1 + match.start()
        where = Span(span.line, span.column + 1 + match.start(), offset, offset + 1 + len(escape))
        if escape in "uU":
            digits = 4 if escape == "u" else 8
            raise CypherSyntaxError(
                f"invalid unicode escape: expected \\{escape} and {digits} hexadecimal digits",
                where, detail="InvalidUnicodeLiteral")
        raise CypherSyntaxError(
            f"invalid escape sequence '\\{escape}' in string: expected one of \\\\ \\' \\\" \\b \\f \\n "
            "\\r \\t \\uXXXX \\UXXXXXXXX", where, detail="UnexpectedSyntax")

    value = ESCAPE.sub(replace, body)
    if any("\ud800" <= char <= "\udfff" for char in value):  # \uD83D\uDE00 written as a surrogate pair
        value = value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return value


def _raise_for(kind: str | None, chunk: str, span: Span) -> None:
    if kind == "open_comment":
        raise CypherSyntaxError("unterminated comment: expected '*/'", span, detail="UnexpectedSyntax")
    if kind == "open_string":
        raise CypherSyntaxError(f"unterminated string: expected a closing {chunk}", span,
                                detail="UnexpectedSyntax")
    if kind == "open_quoted":
        raise CypherSyntaxError("unterminated quoted name: expected a closing `", span,
                                detail="UnexpectedSyntax")
    if kind == "dash":
        raise CypherSyntaxError(
            f"invalid character {chunk!r} (U+{ord(chunk):04X}): use '-'", span,
            detail="InvalidUnicodeCharacter")
    raise CypherSyntaxError(f"unexpected character {chunk!r}", span, detail="UnexpectedSyntax")
