"""The part of the graph a result shows: the keys of its nodes and the relationships it traversed.

An agent cites nodes, and a verifier checks that each one it cites was seen in a tool's result (Threadline's
design: "every tool returns rows, node keys, traversed edges and its Cypher"). Rows alone leave that to the
model's reading of nested JSON; this module gathers them once, from the engine's values.

A node's key is its `key` property when it has a string one (the stable keys a graph such as page 03's gives
every entity), else `n` and its internal id, as gram writes it. A tool may also name columns that hold keys
as plain values (`RETURN n.key AS key`): their strings count too. Relationships come from relationship
values and from paths, each once, with their ends as keys when the result holds those nodes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import engine


@dataclass
class Seen:
    """The nodes and relationships found in a result, by internal id."""

    nodes: dict[int, engine.Node] = field(default_factory=dict)
    relationships: dict[int, engine.Relationship] = field(default_factory=dict)
    keys: set[str] = field(default_factory=set)


def node_key(node: engine.Node) -> str:
    key = node.properties.get("key")
    return key if isinstance(key, str) else f"n{node.id}"


def gather(columns: Sequence[str], rows: Iterable[Sequence[Any]], key_columns: Sequence[str] = ()) -> Seen:
    """Every node and relationship in the rows, at any depth, and the strings of `key_columns`."""
    seen = Seen()
    wanted = [index for index, column in enumerate(columns) if column in key_columns]
    for row in rows:
        for value in row:
            _walk(value, seen)
        for index in wanted:
            seen.keys.update(_strings(row[index]))
    seen.keys.update(node_key(node) for node in seen.nodes.values())
    return seen


def keys_of(seen: Seen) -> list[str]:
    """The keys, sorted, so the same result always lists them in the same order."""
    return sorted(seen.keys)


def relationships_of(seen: Seen) -> list[dict[str, Any]]:
    """`{id, type, start, end}` for each relationship, by id; an end is its node's key, or `n` and its id
    when the result does not hold that node."""
    def end(node_id: int) -> str:
        node = seen.nodes.get(node_id)
        return node_key(node) if node is not None else f"n{node_id}"

    return [{"id": rel.id, "type": rel.type, "start": end(rel.start), "end": end(rel.end)}
            for _, rel in sorted(seen.relationships.items())]


def _walk(value: Any, seen: Seen) -> None:
    if isinstance(value, engine.Node):
        seen.nodes.setdefault(value.id, value)
    elif isinstance(value, engine.Relationship):
        seen.relationships.setdefault(value.id, value)
    elif isinstance(value, engine.Path):
        for item in (*value.nodes, *value.relationships):
            _walk(item, seen)
    elif isinstance(value, list | tuple):
        for item in value:
            _walk(item, seen)
    elif isinstance(value, dict):
        for item in value.values():
            _walk(item, seen)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)
