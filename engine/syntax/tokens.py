"""Token kinds and the tables that map text to them.

Words: the openCypher reserved words (plus CALL, YIELD, FOREACH, USING and the quantifier words) get a token
type of their own through `KEYWORDS`. Every other word, including Neo4j's contextual words (SHORTEST, TRAIL,
INDEX, OPTIONS, TYPED, ...), stays an IDENTIFIER and the parser matches it by its upper-cased text where the
grammar allows it. Any word, reserved or not, may name a property key, label, relationship type, map key or
function.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.span import Span


class TokenKind:
    """One kind of token, e.g. `TokenType.MATCH`: a singleton compared by identity, with a `name` and a
    `value` (its text for symbols and keywords, a description otherwise)."""

    __slots__ = ("name", "value")

    def __init__(self, value: str) -> None:
        self.name = value
        self.value = value

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"TokenType.{self.name}"


class TokenType:
    """The token kinds, as class attributes. Not an Enum: reading an attribute of an Enum class costs three
    times as much as of a plain class, and the parser reads one for nearly every token it looks at."""

    # Literals, names, parameters
    IDENTIFIER = TokenKind("identifier")
    QUOTED_IDENTIFIER = TokenKind("quoted identifier")
    STRING = TokenKind("string")
    INTEGER = TokenKind("integer")
    FLOAT = TokenKind("float")
    # Digits run into letters (`12ab`, `0x1g`): an error only where a value is read.
    BAD_NUMBER = TokenKind("invalid number")
    PARAMETER = TokenKind("parameter")
    EOF = TokenKind("end of input")

    # Symbols
    LPAREN = TokenKind("(")
    RPAREN = TokenKind(")")
    LBRACKET = TokenKind("[")
    RBRACKET = TokenKind("]")
    LBRACE = TokenKind("{")
    RBRACE = TokenKind("}")
    COMMA = TokenKind(",")
    DOT = TokenKind(".")
    DOTDOT = TokenKind("..")
    COLON = TokenKind(":")
    COLONCOLON = TokenKind("::")
    SEMICOLON = TokenKind(";")
    PIPE = TokenKind("|")
    DPIPE = TokenKind("||")
    AMP = TokenKind("&")
    BANG = TokenKind("!")
    PERCENT = TokenKind("%")
    DOLLAR = TokenKind("$")
    STAR = TokenKind("*")
    PLUS = TokenKind("+")
    PLUS_EQ = TokenKind("+=")
    MINUS = TokenKind("-")
    SLASH = TokenKind("/")
    CARET = TokenKind("^")
    EQ = TokenKind("=")
    NEQ = TokenKind("<>")
    LT = TokenKind("<")
    GT = TokenKind(">")
    LTE = TokenKind("<=")
    GTE = TokenKind(">=")
    REGEX_MATCH = TokenKind("=~")

    # Keywords
    ALL = TokenKind("ALL")
    AND = TokenKind("AND")
    ANY = TokenKind("ANY")
    AS = TokenKind("AS")
    ASC = TokenKind("ASC")
    ASCENDING = TokenKind("ASCENDING")
    BY = TokenKind("BY")
    CALL = TokenKind("CALL")
    CASE = TokenKind("CASE")
    CONSTRAINT = TokenKind("CONSTRAINT")
    CONTAINS = TokenKind("CONTAINS")
    COUNT = TokenKind("COUNT")
    CREATE = TokenKind("CREATE")
    DELETE = TokenKind("DELETE")
    DESC = TokenKind("DESC")
    DESCENDING = TokenKind("DESCENDING")
    DETACH = TokenKind("DETACH")
    DISTINCT = TokenKind("DISTINCT")
    DROP = TokenKind("DROP")
    ELSE = TokenKind("ELSE")
    END = TokenKind("END")
    ENDS = TokenKind("ENDS")
    EXISTS = TokenKind("EXISTS")
    FALSE = TokenKind("FALSE")
    FOR = TokenKind("FOR")
    FOREACH = TokenKind("FOREACH")
    IN = TokenKind("IN")
    IS = TokenKind("IS")
    LIMIT = TokenKind("LIMIT")
    MATCH = TokenKind("MATCH")
    MERGE = TokenKind("MERGE")
    NONE = TokenKind("NONE")
    NOT = TokenKind("NOT")
    NULL = TokenKind("NULL")
    ON = TokenKind("ON")
    OPTIONAL = TokenKind("OPTIONAL")
    OR = TokenKind("OR")
    ORDER = TokenKind("ORDER")
    REMOVE = TokenKind("REMOVE")
    RETURN = TokenKind("RETURN")
    SET = TokenKind("SET")
    SINGLE = TokenKind("SINGLE")
    SKIP = TokenKind("SKIP")
    STARTS = TokenKind("STARTS")
    THEN = TokenKind("THEN")
    TRUE = TokenKind("TRUE")
    UNION = TokenKind("UNION")
    UNWIND = TokenKind("UNWIND")
    USING = TokenKind("USING")
    WHEN = TokenKind("WHEN")
    WHERE = TokenKind("WHERE")
    WITH = TokenKind("WITH")
    XOR = TokenKind("XOR")
    YIELD = TokenKind("YIELD")


TOKEN_KINDS: tuple[TokenKind, ...] = tuple(
    kind for kind in vars(TokenType).values() if isinstance(kind, TokenKind))

KEYWORDS: dict[str, TokenKind] = {
    kind.value: kind for kind in TOKEN_KINDS if kind.value.isalpha() and kind.value.isupper()
}

# Symbols, longest first within a shared prefix (the tokenizer's regex is built from this order).
SYMBOLS: dict[str, TokenKind] = {
    "..": TokenType.DOTDOT,
    "::": TokenType.COLONCOLON,
    "||": TokenType.DPIPE,
    "+=": TokenType.PLUS_EQ,
    "<>": TokenType.NEQ,
    "<=": TokenType.LTE,
    ">=": TokenType.GTE,
    "=~": TokenType.REGEX_MATCH,
    "(": TokenType.LPAREN,
    ")": TokenType.RPAREN,
    "[": TokenType.LBRACKET,
    "]": TokenType.RBRACKET,
    "{": TokenType.LBRACE,
    "}": TokenType.RBRACE,
    ",": TokenType.COMMA,
    ".": TokenType.DOT,
    ":": TokenType.COLON,
    ";": TokenType.SEMICOLON,
    "|": TokenType.PIPE,
    "&": TokenType.AMP,
    "!": TokenType.BANG,
    "%": TokenType.PERCENT,
    "*": TokenType.STAR,
    "+": TokenType.PLUS,
    "-": TokenType.MINUS,
    "/": TokenType.SLASH,
    "^": TokenType.CARET,
    "=": TokenType.EQ,
    "<": TokenType.LT,
    ">": TokenType.GT,
}

# Keywords that may also name a variable (openCypher's SymbolicName admits COUNT, ANY, NONE, SINGLE).
VARIABLE_KEYWORDS = frozenset({TokenType.COUNT, TokenType.ANY, TokenType.NONE, TokenType.SINGLE})

# Token types that can be read as a name (label, key, function or procedure name part, alias...).
WORD_TYPES = frozenset({TokenType.IDENTIFIER, TokenType.QUOTED_IDENTIFIER, *KEYWORDS.values()})


class Token(NamedTuple):
    """One token: its kind, its text as written, its decoded `value` (a name with backticks removed, a
    keyword's text as written, a string's unescaped text, a number's int or float, a parameter's name)
    and where it is.

    The position is kept as plain ints and `span` builds the `Span` when asked: the tokenizer makes one
    tuple per token instead of two, and the parser asks only for the tokens that start a node.
    """

    type: TokenKind
    text: str
    value: object
    line: int
    column: int
    start: int
    end: int

    @property
    def span(self) -> Span:
        return Span(self.line, self.column, self.start, self.end)

    @property
    def is_word(self) -> bool:
        return self.type in WORD_TYPES

    @property
    def upper(self) -> str:
        """The upper-cased text of an unquoted word ('' for anything else): how contextual words are
        matched."""
        return self.text.upper() if self.type is TokenType.IDENTIFIER or self.type.value in KEYWORDS else ""

    def describe(self) -> str:
        """How error messages name this token: `RETURN`, `')'`, `identifier 'x'`, `end of input`."""
        kind = self.type
        if kind is TokenType.EOF:
            return "end of input"
        if kind.value in KEYWORDS:
            return kind.value
        if kind in (TokenType.IDENTIFIER, TokenType.QUOTED_IDENTIFIER):
            quoted = kind is TokenType.QUOTED_IDENTIFIER
            return f"identifier {self.text}" if quoted else f"identifier '{self.text}'"
        if kind is TokenType.STRING:
            return f"string {self.text}" if len(self.text) <= 30 else f"string {self.text[:27]}..."
        if kind in (TokenType.INTEGER, TokenType.FLOAT, TokenType.BAD_NUMBER):
            return f"number {self.text}"
        if kind is TokenType.PARAMETER:
            return f"parameter {self.text}"
        return f"'{self.text}'"
