"""Seeded write statements: SET, REMOVE, DELETE, DETACH DELETE, CREATE, MERGE and FOREACH over a graph.

A write is compared by the graph it leaves (every node and relationship by content, as a multiset),
its update counters, and the rows it returns. Each runs on a fresh copy of the generated graph.
"""

from __future__ import annotations

import random

from tests.differential.expressions import Scope
from tests.differential.graphs import LABELS, TYPES, Graph
from tests.differential.queries import Case, QueryGenerator

WRITE_KEYS = ("a", "b", "c", "g", "uid")
"""Keys writes set: existing ones (of their kind or another) and a new one, `g`."""


class WriteGenerator(QueryGenerator):
    """Write statements; the reading parts come from `QueryGenerator`."""

    def __init__(self, rng: random.Random, graph: Graph) -> None:
        super().__init__(rng, graph)

    def write(self) -> Case:
        features: set[str] = {"write"}
        form = self.rng.choice(FORMS)
        text = form(self, features)
        if self.rng.random() < 0.3 and "RETURN" not in text:
            text += " RETURN count(*) AS c0"
        return Case(text, "write", frozenset(features))

    def matched_node(self, scope: Scope, features: set[str]) -> tuple[str, str]:
        """MATCH (n[:L]) [WHERE ...] binding one node variable; returns the clause and the variable."""
        name = self.name("n")
        label = f":{self.rng.choice(LABELS)}" if self.rng.random() < 0.6 else ""
        scope.variables[name] = "node"
        text = f"MATCH ({name}{label})"
        if self.rng.random() < 0.6:
            where = self.expressions(scope, in_where=True).predicate(1)
            features.update(where.features)
            text += f" WHERE {where.text}"
        return text, name

    def value(self, scope: Scope, features: set[str]) -> str:
        expression = self.expressions(scope).of(self.rng.choice(("int", "str", "float", "bool", "list", "null")), 1)
        features.update(expression.features)
        return expression.text


def _set_property(g: WriteGenerator, features: set[str]) -> str:
    scope = Scope()
    match, name = g.matched_node(scope, features)
    items = [f"{name}.{g.rng.choice(WRITE_KEYS)} = {g.value(scope, features)}" for _ in range(g.rng.choice((1, 1, 2)))]
    features.add("set:property")
    return f"{match} SET {', '.join(items)}"


def _set_map(g: WriteGenerator, features: set[str]) -> str:
    scope = Scope()
    match, name = g.matched_node(scope, features)
    entries = ", ".join(f"{key}: {g.value(scope, features)}" for key in g.rng.sample(WRITE_KEYS, g.rng.randint(0, 3)))
    op = g.rng.choice(("=", "+="))
    features.add("set:map-replace" if op == "=" else "set:map-merge")
    return f"{match} SET {name} {op} {{{entries}}}"


def _set_label(g: WriteGenerator, features: set[str]) -> str:
    scope = Scope()
    match, name = g.matched_node(scope, features)
    labels = "".join(":" + label for label in g.rng.sample(LABELS, g.rng.randint(1, 2)))
    if g.rng.random() < 0.5:
        features.add("remove:label")
        return f"{match} REMOVE {name}{labels}"
    features.add("set:label")
    return f"{match} SET {name}{labels}"


def _remove_property(g: WriteGenerator, features: set[str]) -> str:
    scope = Scope()
    match, name = g.matched_node(scope, features)
    features.add("remove:property")
    return f"{match} REMOVE {name}.{g.rng.choice(('a', 'b', 'c', 'd', 'e', 'zz'))}"


def _set_relationship(g: WriteGenerator, features: set[str]) -> str:
    scope = Scope()
    rel = g.name("r")
    scope.variables[rel] = "rel"
    type_text = f":{g.rng.choice(TYPES)}" if g.rng.random() < 0.5 else ""
    features.add("set:relationship")
    return f"MATCH ()-[{rel}{type_text}]->() SET {rel}.{g.rng.choice(WRITE_KEYS)} = {g.value(scope, features)}"


def _delete_relationship(g: WriteGenerator, features: set[str]) -> str:
    scope = Scope()
    rel = g.name("r")
    scope.variables[rel] = "rel"
    type_text = f":{g.rng.choice(TYPES)}" if g.rng.random() < 0.6 else ""
    text = f"MATCH ()-[{rel}{type_text}]-()"
    if g.rng.random() < 0.5:
        where = g.expressions(scope, in_where=True).predicate(1)
        features.update(where.features)
        text += f" WHERE {where.text}"
    features.add("delete:relationship")
    return f"{text} DELETE {rel}"


def _delete_node(g: WriteGenerator, features: set[str]) -> str:
    scope = Scope()
    match, name = g.matched_node(scope, features)
    if g.rng.random() < 0.75:
        features.add("delete:detach")
        return f"{match} DETACH DELETE {name}"
    features.add("delete:node")
    return f"{match} DELETE {name}"


def _create(g: WriteGenerator, features: set[str]) -> str:
    scope = Scope()
    labels = "".join(":" + label for label in g.rng.sample(LABELS, g.rng.randint(0, 2)))
    entries = ", ".join(f"{key}: {g.value(scope, features)}" for key in g.rng.sample(WRITE_KEYS, g.rng.randint(0, 2)))
    features.add("create")
    if g.rng.random() < 0.5:
        match, name = g.matched_node(scope, features)
        return f"{match} CREATE ({name})-[:{g.rng.choice(TYPES)} {{{entries}}}]->(:{g.rng.choice(LABELS)})"
    return f"CREATE (x{labels} {{{entries}}})"


def _merge(g: WriteGenerator, features: set[str]) -> str:
    scope = Scope()
    key = g.rng.choice(("a", "b", "uid"))
    kind = {"a": g.graph.kinds.get("a", "int"), "b": g.graph.kinds.get("b", "str"), "uid": "int"}[key]
    value = g.expressions(scope).of(kind if kind != "any" else "int", 0).text
    label = g.rng.choice(LABELS)
    features.add("merge")
    text = f"MERGE (m:{label} {{{key}: {value}}})"
    if g.rng.random() < 0.5:
        text += f" ON CREATE SET m.g = {g.rng.randint(0, 9)}"
    if g.rng.random() < 0.5:
        text += " ON MATCH SET m.g = coalesce(m.g, 0) + 1"
    return text


def _merge_relationship(g: WriteGenerator, features: set[str]) -> str:
    scope = Scope()
    first, second = g.name("n"), g.name("n")
    scope.variables.update({first: "node", second: "node"})
    label = f":{g.rng.choice(LABELS)}" if g.rng.random() < 0.5 else ""
    direction = g.rng.choice(("->", "-"))
    features.add("merge:relationship")
    if direction == "-":
        features.add("merge:undirected")
    return (f"MATCH ({first}{label}), ({second}) WHERE {first}.uid < {second}.uid AND {second}.uid <= "
            f"{first}.uid + {g.rng.randint(1, 3)} MERGE ({first})-[m:{g.rng.choice(TYPES)}]{direction}({second})"
            f" ON CREATE SET m.g = 1")


def _unwind_create(g: WriteGenerator, features: set[str]) -> str:
    scope = Scope()
    items = g.expressions(scope).of("list", 1)
    features.update(items.features)
    features.add("unwind")
    variable = g.name("u")
    if g.rng.random() < 0.5:
        features.add("merge")
        return f"UNWIND {items.text} AS {variable} MERGE (m:{g.rng.choice(LABELS)} {{a: {variable}}})"
    features.add("create")
    return f"UNWIND {items.text} AS {variable} CREATE (:{g.rng.choice(LABELS)} {{a: {variable}}})"


def _foreach(g: WriteGenerator, features: set[str]) -> str:
    scope = Scope()
    match, name = g.matched_node(scope, features)
    items = g.expressions(scope).of("list", 1)
    features.update(items.features)
    variable = g.name("x")
    features.add("foreach")
    body = g.rng.choice((f"SET {name}.g = {variable}", f"CREATE ({name})-[:T {{a: {variable}}}]->()"))
    return f"{match} FOREACH ({variable} IN {items.text} | {body})"


def _set_then_return(g: WriteGenerator, features: set[str]) -> str:
    scope = Scope()
    match, name = g.matched_node(scope, features)
    features.add("set:property")
    value = g.value(scope, features)
    return f"{match} SET {name}.g = {value} RETURN {name}.g AS c0, {name}.uid AS c1"


FORMS = (_set_property, _set_property, _set_map, _set_label, _remove_property, _set_relationship,
         _delete_relationship, _delete_node, _create, _merge, _merge_relationship, _unwind_create, _foreach,
         _set_then_return)
