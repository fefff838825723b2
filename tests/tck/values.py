"""The TCK's value notation: parse expected cells and parameters, and print engine values the same way.

Expected results are written in the notation of the TCK's own `CypherValueParser` (tck-api): `null`, `true`,
`1`, `-.5`, `1e308`, `NaN`, `'it\\'s'`, `[1, 2]`, `{k: 'v'}`, `(:A:B {k: 1})`, `[:T {k: 1}]` and paths such as
`<(:A)-[:T]->(:B)<-[:U]-()>`. Nodes, relationships and paths parse into the `Expected…` classes below, because
a node in a table says nothing about identity: it is matched by its labels and properties only. Strings keep
the TCK's two escapes (`\\'` and `\\\\`); any other backslash stays as written, as in tck-api.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engine
from engine.values import TEMPORAL_TYPES


class ValueSyntaxError(ValueError):
    """A cell that is not in the TCK's value notation."""


@dataclass(frozen=True)
class ExpectedNode:
    labels: frozenset[str] = frozenset()
    properties: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ExpectedRelationship:
    type: str
    properties: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Hop:
    """One step of an expected path: the relationship, its direction in walking order, the node reached."""

    relationship: ExpectedRelationship
    forward: bool
    node: ExpectedNode


@dataclass(frozen=True)
class ExpectedPath:
    start: ExpectedNode
    hops: tuple[Hop, ...] = ()


GRAPH_VALUES = (ExpectedNode, ExpectedRelationship, ExpectedPath)

_FLOAT = re.compile(r"-?(?:\d+\.\d+(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)")
_INTEGER = re.compile(r"-?\d+")
_NAME = re.compile(r"`(?:[^`]|``)*`|[A-Za-z0-9_$]+")
_WORDS: dict[str, Any] = {
    "null": None, "true": True, "false": False,
    "NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf,
}
_WORD = re.compile("|".join(sorted((re.escape(word) for word in _WORDS), key=len, reverse=True)))
_STRING_ESCAPES = {"\\": "\\", "'": "'"}


class _Reader:
    """Recursive descent over one cell; whitespace is allowed between tokens, as in tck-api."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, expected: str) -> ValueSyntaxError:
        shown = self.text[self.pos:self.pos + 20] or "end of cell"
        return ValueSyntaxError(
            f"expected {expected} at column {self.pos + 1} of {self.text!r}, found {shown!r}")

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos:self.pos + 1]

    def take(self, token: str) -> bool:
        self.skip_space()
        if self.text.startswith(token, self.pos):
            self.pos += len(token)
            return True
        return False

    def expect(self, token: str) -> None:
        if not self.take(token):
            raise self.fail(repr(token))

    def match(self, pattern: re.Pattern[str]) -> str | None:
        self.skip_space()
        found = pattern.match(self.text, self.pos)
        if found is None:
            return None
        self.pos = found.end()
        return found.group()

    def name(self) -> str:
        name = self.match(_NAME)
        if name is None:
            raise self.fail("a name")
        return name[1:-1].replace("``", "`") if name.startswith("`") else name

    def whole(self) -> Any:
        value = self.value()
        self.skip_space()
        if self.pos != len(self.text):
            raise self.fail("end of cell")
        return value

    def value(self) -> Any:
        start = self.peek()
        reader = _STARTS.get(start)
        if reader is not None:
            return reader(self)
        return self.scalar()

    def scalar(self) -> Any:
        for pattern, convert in ((_FLOAT, float), (_INTEGER, int)):
            text = self.match(pattern)
            if text is not None:
                return convert(text)
        word = self.match(_WORD)
        if word is None:
            raise self.fail("a value")
        return _WORDS[word]

    def string(self) -> str:
        self.expect("'")
        chars: list[str] = []
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char == "'":
                self.pos += 1
                return "".join(chars)
            following = self.text[self.pos + 1:self.pos + 2]
            if char == "\\" and following in _STRING_ESCAPES:
                chars.append(_STRING_ESCAPES[following])
                self.pos += 2
                continue
            chars.append(char)
            self.pos += 1
        raise self.fail("a closing quote")

    def map(self) -> dict[str, Any]:
        self.expect("{")
        entries: dict[str, Any] = {}
        if self.take("}"):
            return entries
        while True:
            key = self.name()
            self.expect(":")
            entries[key] = self.value()
            if self.take("}"):
                return entries
            self.expect(",")

    def list_or_relationship(self) -> Any:
        self.expect("[")
        if self.peek() == ":":
            return self.relationship_body()
        items: list[Any] = []
        if self.take("]"):
            return items
        while True:
            items.append(self.value())
            if self.take("]"):
                return items
            self.expect(",")

    def relationship_body(self) -> ExpectedRelationship:
        self.expect(":")
        rel_type = self.name()
        properties = self.map() if self.peek() == "{" else {}
        self.expect("]")
        return ExpectedRelationship(rel_type, properties)

    def relationship(self) -> ExpectedRelationship:
        self.expect("[")
        return self.relationship_body()

    def node(self) -> ExpectedNode:
        self.expect("(")
        labels: set[str] = set()
        while self.take(":"):
            labels.add(self.name())
        properties = self.map() if self.peek() == "{" else {}
        self.expect(")")
        return ExpectedNode(frozenset(labels), properties)

    def path(self) -> ExpectedPath:
        self.expect("<")
        start = self.node()
        hops: list[Hop] = []
        while not self.take(">"):
            if self.take("<-"):
                relationship = self.relationship()
                self.expect("-")
                hops.append(Hop(relationship, False, self.node()))
            elif self.take("-"):
                relationship = self.relationship()
                self.expect("->")
                hops.append(Hop(relationship, True, self.node()))
            else:
                raise self.fail("'-[', '<-[' or '>' in a path")
        return ExpectedPath(start, tuple(hops))


_STARTS: dict[str, Callable[[_Reader], Any]] = {
    "'": _Reader.string,
    "{": _Reader.map,
    "[": _Reader.list_or_relationship,
    "(": _Reader.node,
    "<": _Reader.path,
}


def parse_value(text: str) -> Any:
    """One expected-result cell → a Python value, or an `Expected…` object for graph elements and paths."""
    return _Reader(text.strip()).whole()


def parse_parameter(text: str) -> Any:
    """One `parameters are:` or procedure-table cell → a plain Python value (no graph elements)."""
    value = parse_value(text)
    if _contains_graph_value(value):
        raise ValueSyntaxError(f"a parameter cannot be a node, relationship or path: {text!r}")
    return value


def _contains_graph_value(value: Any) -> bool:
    if isinstance(value, GRAPH_VALUES):
        return True
    if isinstance(value, list):
        return any(_contains_graph_value(item) for item in value)
    if isinstance(value, dict):
        return any(_contains_graph_value(item) for item in value.values())
    return False


# Printing: engine values and expected values in the TCK's notation, for failure messages.

def _float_text(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(value)


def _string_text(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _map_text(properties: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{key}: {format_value(item)}" for key, item in properties.items()) + "}"


def _element_text(open_: str, labels: list[str], properties: dict[str, Any], close: str) -> str:
    parts = ["".join(f":{label}" for label in labels), _map_text(properties) if properties else ""]
    return open_ + " ".join(part for part in parts if part) + close


def _node_text(node: engine.Node) -> str:
    return _element_text("(", list(node.labels), node.properties, ")")


def _relationship_text(relationship: engine.Relationship) -> str:
    return _element_text("[", [relationship.type], relationship.properties, "]")


def _path_text(path: engine.Path) -> str:
    text = _node_text(path.nodes[0])
    for here, relationship, there in zip(path.nodes[:-1], path.relationships, path.nodes[1:], strict=True):
        forward = relationship.start == here.id
        link = _relationship_text(relationship)
        text += (f"-{link}->" if forward else f"<-{link}-") + _node_text(there)
    return f"<{text}>"


def _expected_path_text(path: ExpectedPath) -> str:
    text = format_value(path.start)
    for hop in path.hops:
        link = format_value(hop.relationship)
        text += (f"-{link}->" if hop.forward else f"<-{link}-") + format_value(hop.node)
    return f"<{text}>"


FORMATTERS: dict[type, Callable[[Any], str]] = {
    type(None): lambda _: "null",
    bool: lambda value: "true" if value else "false",
    int: str,
    float: _float_text,
    str: _string_text,
    list: lambda items: "[" + ", ".join(format_value(item) for item in items) + "]",
    tuple: lambda items: "[" + ", ".join(format_value(item) for item in items) + "]",
    dict: _map_text,
    engine.Node: _node_text,
    engine.Relationship: _relationship_text,
    engine.Path: _path_text,
    ExpectedNode: lambda node: _element_text("(", sorted(node.labels), node.properties, ")"),
    ExpectedRelationship: lambda rel: _element_text("[", [rel.type], rel.properties, "]"),
    ExpectedPath: _expected_path_text,
    **{temporal: lambda value: _string_text(str(value)) for temporal in TEMPORAL_TYPES},
}


def format_value(value: Any) -> str:
    """A value in TCK notation; temporal values print as the quoted strings the TCK compares them with."""
    formatter = FORMATTERS.get(type(value))
    return formatter(value) if formatter else f"<{type(value).__name__} {value!r}>"
