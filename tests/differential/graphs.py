"""Seeded small property graphs, written as one CREATE statement every engine runs.

A graph has multi-label and unlabelled nodes, self-loops, parallel relationships, and properties of
every kind a property can hold (integers, floats, strings, booleans, lists, dates) or none. Every node
and relationship carries a unique integer `uid`, so results can be compared across engines that number
their elements differently. A key keeps one kind of value in most graphs; in some graphs its values mix
kinds, which is what exercises the engine's VARIANT columns and cross-type comparisons. The query
generator reads `Graph.kinds` to know which keys it may treat as one kind.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

LABELS = ("A", "B", "C")
TYPES = ("R", "S", "T")
KEY_KINDS = {"a": "int", "b": "str", "c": "float", "d": "bool", "e": "list", "f": "date"}
"""Property keys and the kind of value each holds in a graph where the key does not mix kinds."""
STRINGS = ("", "a", "b", "ab", "ba", "abc", "A", "Ab", "x y", "é", "straße", "ǅ", "10", "-1", "a%", "_b")
DATES = ("2024-01-01", "2024-02-29", "2023-12-31", "1999-07-04", "2024-01-15")


@dataclass(frozen=True)
class Element:
    uid: int
    properties: dict[str, Any]


@dataclass(frozen=True)
class Node(Element):
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class Relationship(Element):
    type: str = "R"
    start: int = 0
    end: int = 0


@dataclass
class Graph:
    nodes: list[Node]
    relationships: list[Relationship]
    kinds: dict[str, str] = field(default_factory=dict)
    """Per property key, the one kind its values have, or `any` where they mix."""

    def create_statement(self) -> str:
        """The whole graph as one CREATE (an empty graph as a statement that creates nothing)."""
        parts = [f"(n{node.uid}{''.join(':' + label for label in node.labels)} {literal_map(node.properties)})"
                 for node in self.nodes]
        parts += [f"(n{rel.start})-[:{rel.type} {literal_map(rel.properties)}]->(n{rel.end})"
                  for rel in self.relationships]
        return "CREATE " + ", ".join(parts) if parts else "RETURN 1 AS nothing"


def literal(value: Any) -> str:
    """Cypher text of a value the generator made (strings hold no quote or backslash)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, DateText):
        return f"date('{value}')"
    if isinstance(value, str):
        return "'" + value + "'"
    if isinstance(value, list):
        return "[" + ", ".join(literal(item) for item in value) + "]"
    raise TypeError(f"no literal for {value!r}")


def literal_map(properties: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{key}: {literal(value)}" for key, value in properties.items()) + "}"


class DateText(str):
    """A date property, kept as its ISO text so the generator can write `date('...')`."""


def value_of_kind(rng: random.Random, kind: str) -> Any:
    """A random value of one kind: small numbers, so that equal values and ties are common."""
    if kind == "int":
        return rng.choice((-2, -1, 0, 1, 2, 3, 5, 10, 42))
    if kind == "float":
        return rng.choice((-1.5, -0.5, 0.0, 0.5, 1.0, 2.5, 3.25, 10.0, 1e-4, 1e7))
    if kind == "str":
        return rng.choice(STRINGS)
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "list":
        return [rng.choice((-1, 0, 1, 2, 3)) for _ in range(rng.randint(0, 3))]
    if kind == "date":
        return DateText(rng.choice(DATES))
    raise ValueError(kind)


def generate_graph(rng: random.Random, *, max_nodes: int = 9, max_relationships: int = 14) -> Graph:
    """A random graph; about one in four mixes the kinds of one or two of its property keys."""
    kinds = dict(KEY_KINDS)
    if rng.random() < 0.25:
        for key in rng.sample(sorted(kinds), rng.randint(1, 2)):
            kinds[key] = "any"
    density = {key: rng.choice((0.3, 0.6, 0.9)) for key in kinds}

    def properties(uid: int, keys: tuple[str, ...]) -> dict[str, Any]:
        values: dict[str, Any] = {"uid": uid}
        for key in keys:
            if rng.random() < density[key]:
                kind = kinds[key] if kinds[key] != "any" else rng.choice(("int", "str", "float", "bool", "list"))
                values[key] = value_of_kind(rng, kind)
        return values

    node_count = rng.randint(0, max_nodes)
    nodes = []
    for uid in range(1, node_count + 1):
        labels = tuple(label for label in LABELS if rng.random() < 0.4)
        nodes.append(Node(uid, properties(uid, ("a", "b", "c", "d", "e", "f")), labels))
    relationships = []
    if nodes:
        for offset in range(rng.randint(0, max_relationships)):
            start = rng.choice(nodes).uid
            end = start if rng.random() < 0.1 else rng.choice(nodes).uid
            relationships.append(Relationship(100 + offset, properties(100 + offset, ("a", "b", "c")),
                                              rng.choice(TYPES), start, end))
    return Graph(nodes, relationships, kinds)
