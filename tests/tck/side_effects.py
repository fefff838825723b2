"""Side effects as the TCK defines them: a diff of the graph before and after the query, not the counters.

tck-api (`SideEffectOps`) measures a state as sets of node ids, relationship ids, distinct label names in the
graph, and a multiset of property facts (element id, key, value); the side effects are the set differences:
- `+labels` counts label *names* newly present anywhere in the graph (adding `:A` to a second node is 0);
- `+properties`/`-properties` count facts, so changing a value is one `-` and one `+`, and setting a property
  to the value it already has is nothing.
Here a fact also carries the element's kind, so a node and a relationship with the same id stay apart.
A snapshot is two queries through the engine itself: every node and every relationship, as values.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import engine
from engine.values import TEMPORAL_TYPES

SIDE_EFFECT_KEYS = ("+nodes", "-nodes", "+relationships", "-relationships",
                    "+labels", "-labels", "+properties", "-properties")
NODES_QUERY = "MATCH (n) RETURN n"
RELATIONSHIPS_QUERY = "MATCH ()-[r]->() RETURN r"


class Executes(Protocol):
    def execute(self, statement: str, params: dict[str, Any] | None = None) -> Any: ...


@dataclass(frozen=True)
class GraphState:
    nodes: dict[int, engine.Node]
    relationships: dict[int, engine.Relationship]


def snapshot(db: Executes) -> GraphState:
    """Every node and relationship in the graph, keyed by id."""
    nodes = [row[0] for row in db.execute(NODES_QUERY).fetchall()]
    relationships = [row[0] for row in db.execute(RELATIONSHIPS_QUERY).fetchall()]
    return state_of(nodes, relationships)


def state_of(nodes: Iterable[engine.Node], relationships: Iterable[engine.Relationship]) -> GraphState:
    return GraphState({node.id: node for node in nodes}, {rel.id: rel for rel in relationships})


def _fact_list(items: Iterable[Any]) -> tuple[Hashable, ...]:
    return ("list", *(fact_value(item) for item in items))


FACT_VALUES: dict[type, Callable[[Any], Hashable]] = {
    type(None): lambda _: ("null",),
    bool: lambda value: ("boolean", value),
    int: lambda value: ("integer", value),
    float: lambda value: ("float", repr(value)),  # repr: NaN equals itself, -0.0 stays apart from 0.0
    str: lambda value: ("string", value),
    list: _fact_list,
    tuple: _fact_list,
    dict: lambda value: ("map", *sorted((key, fact_value(item)) for key, item in value.items())),
    **{temporal: (lambda value: (type(value).__name__, str(value))) for temporal in TEMPORAL_TYPES},
}


def fact_value(value: Any) -> Hashable:
    """A property value as a hashable, typed fact: 1, 1.0 and True are three different values."""
    convert = FACT_VALUES.get(type(value))
    if convert is None:
        raise TypeError(f"cannot use a {type(value).__name__} as a property value: {value!r}")
    return convert(value)


def _labels(state: GraphState) -> set[str]:
    return {label for node in state.nodes.values() for label in node.labels}


def _properties(state: GraphState) -> Counter[Hashable]:
    facts: Counter[Hashable] = Counter()
    for kind, elements in (("node", state.nodes), ("relationship", state.relationships)):
        for element_id, element in elements.items():
            facts.update((kind, element_id, key, fact_value(value))
                         for key, value in element.properties.items())
    return facts


def diff(before: GraphState, after: GraphState) -> dict[str, int]:
    """The side effects between two states, every key present."""
    before_props, after_props = _properties(before), _properties(after)
    return {
        "+nodes": len(after.nodes.keys() - before.nodes.keys()),
        "-nodes": len(before.nodes.keys() - after.nodes.keys()),
        "+relationships": len(after.relationships.keys() - before.relationships.keys()),
        "-relationships": len(before.relationships.keys() - after.relationships.keys()),
        "+labels": len(_labels(after) - _labels(before)),
        "-labels": len(_labels(before) - _labels(after)),
        "+properties": (after_props - before_props).total(),
        "-properties": (before_props - after_props).total(),
    }


def expected_side_effects(table: Sequence[Sequence[str]]) -> dict[str, int]:
    """`| +nodes | 1 |` rows → every key, absent ones 0."""
    expected = dict.fromkeys(SIDE_EFFECT_KEYS, 0)
    for row in table:
        if len(row) != 2 or row[0] not in expected:
            raise ValueError(f"not a side-effect row: {list(row)} (keys: {', '.join(SIDE_EFFECT_KEYS)})")
        expected[row[0]] = int(row[1])
    return expected


def compare_side_effects(actual: dict[str, int], expected: dict[str, int]) -> str | None:
    """None when equal, else the keys that differ."""
    wrong = [f"{key}: expected {expected[key]}, got {actual[key]}"
             for key in SIDE_EFFECT_KEYS if actual[key] != expected[key]]
    return "side effects differ: " + "; ".join(wrong) if wrong else None
