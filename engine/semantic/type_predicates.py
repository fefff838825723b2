"""The types of `x IS :: TYPE` (Cypher 25 type predicate expressions), read from the parser's normalised text.

The parser gives the type as upper-case words, `<`, `>` and `|` (`INTEGER`, `LIST<STRING NOT NULL>`,
`INTEGER | FLOAT`, `TIME WITH TIME ZONE`, `INTEGER LIST NOT NULL`). `parse_type` turns that into a
`TypeUnion` of `TypeTest`s; synonyms (`INT`, `VARCHAR`, `EDGE`, `TIMESTAMP WITHOUT TIME ZONE`, `ARRAY<T>`,
`T LIST`, `ANY<A | B>`, ...) map to the canonical names of the Cypher manual's "Types and their synonyms".

Semantics (Cypher manual, "Type predicate expressions"): every type includes null unless it is written
`NOT NULL`; `NULL` holds only null and `NOTHING` holds nothing (not even null); `ANY` holds everything; a
list matches `LIST<T>` when every element matches `T` (so the empty list matches every list type); the inner
types of a closed union must all be nullable or all `NOT NULL`. `PROPERTY VALUE` is the union of the types a
property can store: the scalar property types, vectors, and homogeneous lists of scalars without nulls.

`VECTOR<TYPE>(DIMENSION)` (Values and types, Vectors, Supertypes) tests a vector's coordinate type and
dimension; `VECTOR<TYPE>` and `VECTOR(DIMENSION)` leave one of them open and `VECTOR` both. The coordinate
type may be written by any of its aliases (`INT8` for `INTEGER8`), and inside the brackets with `NOT NULL`,
which changes nothing: a coordinate is never null.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from engine.errors import CypherSyntaxError
from engine.span import Span

# Canonical names: the scalar kinds (as in `storage.encoding.KIND_CODES`) and the special types.
SYNONYMS: dict[str, str] = {
    "BOOL": "BOOLEAN", "BOOLEAN": "BOOLEAN",
    "VARCHAR": "STRING", "STRING": "STRING",
    "INT": "INTEGER", "INTEGER": "INTEGER", "SIGNED INTEGER": "INTEGER", "INTEGER64": "INTEGER",
    "FLOAT": "FLOAT", "FLOAT64": "FLOAT",
    "DATE": "DATE",
    "LOCAL TIME": "LOCAL TIME", "TIME WITHOUT TIME ZONE": "LOCAL TIME", "TIME WITHOUT TIMEZONE": "LOCAL TIME",
    "ZONED TIME": "ZONED TIME", "TIME WITH TIME ZONE": "ZONED TIME", "TIME WITH TIMEZONE": "ZONED TIME",
    "LOCAL DATETIME": "LOCAL DATETIME", "TIMESTAMP WITHOUT TIME ZONE": "LOCAL DATETIME",
    "TIMESTAMP WITHOUT TIMEZONE": "LOCAL DATETIME",
    "ZONED DATETIME": "ZONED DATETIME", "TIMESTAMP WITH TIME ZONE": "ZONED DATETIME",
    "TIMESTAMP WITH TIMEZONE": "ZONED DATETIME",
    "DURATION": "DURATION", "POINT": "POINT",
    "NODE": "NODE", "ANY NODE": "NODE", "VERTEX": "NODE", "ANY VERTEX": "NODE",
    "RELATIONSHIP": "RELATIONSHIP", "ANY RELATIONSHIP": "RELATIONSHIP", "EDGE": "RELATIONSHIP",
    "ANY EDGE": "RELATIONSHIP",
    "MAP": "MAP", "ANY MAP": "MAP",
    "PATH": "PATH",
    "PROPERTY VALUE": "PROPERTY VALUE", "ANY PROPERTY VALUE": "PROPERTY VALUE",
    "ANY": "ANY", "ANY VALUE": "ANY",
    "NOTHING": "NOTHING", "NULL": "NULL",
}

# Scalar types a property can hold; PROPERTY VALUE is these, vectors, and homogeneous lists of the scalars.
PROPERTY_SCALARS = ("BOOLEAN", "STRING", "INTEGER", "FLOAT", "DATE", "LOCAL TIME", "ZONED TIME", "LOCAL DATETIME",
                    "ZONED DATETIME", "DURATION", "POINT")

COORDINATE_TYPES: dict[str, str] = {
    "INTEGER8": "INTEGER8", "INT8": "INTEGER8", "INTEGER16": "INTEGER16", "INT16": "INTEGER16",
    "INTEGER32": "INTEGER32", "INT32": "INTEGER32", "INTEGER": "INTEGER", "INT": "INTEGER", "INT64": "INTEGER",
    "INTEGER64": "INTEGER", "SIGNED INTEGER": "INTEGER", "FLOAT32": "FLOAT32", "FLOAT": "FLOAT", "FLOAT64": "FLOAT",
}
"""A vector coordinate type's names (Cypher manual, Values and types, Vectors, Supported coordinate types) →
its default name, the one values and `valueType()` are written with."""
MAX_VECTOR_DIMENSION = 4096


@dataclass(frozen=True)
class TypeTest:
    """One alternative: `base` is a canonical name or 'LIST' (with `element`)."""

    base: str
    nullable: bool
    element: TypeUnion | None = None
    coordinate: str | None = None
    """Of a VECTOR type, its coordinate type's default name, or None for any."""
    dimension: int | None = None
    """Of a VECTOR type, its dimension, or None for any."""


@dataclass(frozen=True)
class TypeUnion:
    alternatives: tuple[TypeTest, ...]

    @property
    def nullable(self) -> bool:
        """Whether null matches: NULL is null only, NOTHING never, the others as written."""
        return any(test.nullable for test in self.alternatives)


_TOKEN = re.compile(r"[<>|()]|[A-Z0-9_]+")


class _TypeReader:
    def __init__(self, text: str, span: Span | None) -> None:
        self.tokens = _TOKEN.findall(text)
        self.position = 0
        self.text = text
        self.span = span

    def fail(self, message: str, detail: str = "InvalidType") -> CypherSyntaxError:
        return CypherSyntaxError(message, self.span, detail=detail)

    def peek(self, offset: int = 0) -> str | None:
        index = self.position + offset
        return self.tokens[index] if index < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise self.fail(f"incomplete type `{self.text}`")
        self.position += 1
        return token

    def union(self) -> TypeUnion:
        alternatives = list(self.part())
        while self.peek() == "|":
            self.take()
            alternatives.extend(self.part())
        nullabilities = {test.nullable for test in alternatives if test.base not in ("NULL", "NOTHING")}
        if len(nullabilities) > 1:
            raise self.fail("all inner types of a closed dynamic union must be nullable, or all NOT NULL: "
                            f"`{self.text}`", detail="InvalidTypeNullability")
        return TypeUnion(tuple(alternatives))

    def part(self) -> list[TypeTest]:
        """One inner type with its nullability and postfix `LIST`s; `ANY<A | B>` gives several."""
        word = self.take()
        tests: list[TypeTest]
        if word in ("LIST", "ARRAY") and self.peek() == "<":
            tests = [TypeTest("LIST", True, self.bracketed())]
        elif word == "VECTOR":
            tests = [self.vector()]
        elif word == "ANY" and (self.peek() == "<" or (self.peek() == "VALUE" and self.peek(1) == "<")):
            if self.peek() == "VALUE":
                self.take()
            tests = list(self.bracketed().alternatives)
        else:
            words = [word]
            while self.peek() not in (None, "<", ">", "|", "NOT", "LIST", "ARRAY"):
                words.append(self.take())
            name = " ".join(words)
            if name not in SYNONYMS:
                raise self.fail(f"unknown type `{name}`")
            tests = [TypeTest(SYNONYMS[name], SYNONYMS[name] not in ("NOTHING",))]
        tests = self.nullability(tests)
        while self.peek() in ("LIST", "ARRAY"):
            self.take()
            tests = self.nullability([TypeTest("LIST", True, TypeUnion(tuple(tests)))])
        return tests

    def vector(self) -> TypeTest:
        """After `VECTOR`: an optional `<coordinate type [NOT NULL]>` and an optional `(dimension)`."""
        coordinate = dimension = None
        if self.peek() == "<":
            self.take()
            words = []
            while self.peek() not in (None, ">", "NOT"):
                words.append(self.take())
            name = " ".join(words)
            if name not in COORDINATE_TYPES:
                raise self.fail(f"unknown vector coordinate type `{name}` (one of INTEGER8, INTEGER16, INTEGER32, "
                                f"INTEGER, FLOAT32 or FLOAT and their aliases)")
            coordinate = COORDINATE_TYPES[name]
            if self.peek() == "NOT":
                self.take()
                if self.take() != "NULL":
                    raise self.fail(f"expected NOT NULL in `{self.text}`")
            if self.take() != ">":
                raise self.fail(f"expected '>' in `{self.text}`")
        if self.peek() == "(":
            self.take()
            text = self.take()
            if not text.isdigit() or not 1 <= int(text) <= MAX_VECTOR_DIMENSION or self.take() != ")":
                raise self.fail(f"a VECTOR type's dimension is an integer from 1 to {MAX_VECTOR_DIMENSION}: "
                                f"`{self.text}`")
            dimension = int(text)
        return TypeTest("VECTOR", True, coordinate=coordinate, dimension=dimension)

    def bracketed(self) -> TypeUnion:
        if self.take() != "<":
            raise self.fail(f"expected '<' in `{self.text}`")
        inner = self.union()
        if self.take() != ">":
            raise self.fail(f"expected '>' in `{self.text}`")
        return inner

    def nullability(self, tests: list[TypeTest]) -> list[TypeTest]:
        if self.peek() != "NOT":
            return tests
        self.take()
        if self.take() != "NULL":
            raise self.fail(f"expected NOT NULL in `{self.text}`")
        result = []
        for test in tests:
            if test.base == "NULL":  # `NULL NOT NULL` holds no value at all
                result.append(TypeTest("NOTHING", False))
            else:
                result.append(TypeTest(test.base, False, test.element, test.coordinate, test.dimension))
        return result


@lru_cache(maxsize=256)
def _parse(text: str) -> TypeUnion:
    reader = _TypeReader(text, None)
    result = reader.union()
    if reader.peek() is not None:
        raise reader.fail(f"unexpected `{reader.peek()}` in type `{text}`")
    return result


def parse_type(text: str, span: Span | None = None) -> TypeUnion:
    """The type of an `IS ::` predicate; a CypherSyntaxError at `span` for text that names no type."""
    try:
        return _parse(text)
    except CypherSyntaxError as error:
        raise CypherSyntaxError(error.message, span, detail=error.detail) from None
