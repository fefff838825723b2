"""Seeded read queries in the style of GDsmith: MATCH / OPTIONAL MATCH over 1-3 hop patterns in every
direction and variable length, WHERE over the full operator set, WITH with aggregates and DISTINCT,
UNWIND, ORDER BY / SKIP / LIMIT, CALL subqueries and UNION.

Each query is a `Case`: its text, the features it uses (for triage), and what the comparison may rely
on: `order` (the columns the rows are sorted by, when ORDER BY fixes their sequence) and `multisets`
(columns holding lists whose order no query fixes: `collect()`, `keys()`, `labels()`). SKIP and LIMIT
only follow an ORDER BY over every column of orderable kinds, so the rows they keep are determined.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tests.differential.expressions import ORDERABLE, Expressions, Scope
from tests.differential.graphs import LABELS, TYPES, Graph


@dataclass(frozen=True)
class Case:
    text: str
    kind: str = "read"
    features: frozenset[str] = frozenset()
    order: tuple[int, ...] = ()
    """Column positions, in ORDER BY order, whose values' sequence the engines must agree on."""
    multisets: frozenset[int] = frozenset()
    """Column positions whose lists are compared as multisets."""


@dataclass
class Projection:
    """The items of a WITH or RETURN: text, alias, kind, whether it aggregates, whether it is a multiset."""

    items: list[tuple[str, str, str, bool, bool]] = field(default_factory=list)
    features: set[str] = field(default_factory=set)
    distinct: bool = False

    @property
    def aggregating(self) -> bool:
        return any(item[3] for item in self.items)

    def text(self) -> str:
        body = ", ".join(text if text == alias else f"{text} AS {alias}" for text, alias, *_ in self.items)
        return ("DISTINCT " if self.distinct else "") + body


class QueryGenerator:
    """Read queries over one graph's labels, types and property kinds."""

    def __init__(self, rng: random.Random, graph: Graph) -> None:
        self.rng = rng
        self.graph = graph
        self._names = 0

    def name(self, prefix: str) -> str:
        self._names += 1
        return f"{prefix}{self._names}"

    def expressions(self, scope: Scope, *, in_where: bool = False) -> Expressions:
        generator = Expressions(self.rng, scope, self.graph.kinds, in_where=in_where)
        generator._fresh = self._names * 10
        self._names += 1
        return generator

    # -- patterns ---------------------------------------------------------------------------------

    def node_pattern(self, scope: Scope, features: set[str], *, reuse: bool = True) -> str:
        existing = scope.of("node")
        if reuse and existing and self.rng.random() < 0.3:
            return f"({self.rng.choice(existing)})"
        name = self.name("n") if self.rng.random() < 0.8 else ""
        labels = "".join(":" + label for label in self.rng.sample(LABELS, self.rng.choice((0, 0, 1, 1, 2))))
        properties = ""
        if self.rng.random() < 0.15:
            properties = f" {{uid: {self.rng.randint(1, 9)}}}"
            features.add("pattern:property")
        elif self.rng.random() < 0.1:
            key, kind = self.rng.choice([(k, v) for k, v in self.graph.kinds.items() if v in ("int", "str", "bool")]
                                        or [("a", "int")])
            value = self.expressions(Scope()).of(kind, 0).text
            properties = f" {{{key}: {value}}}"
            features.add("pattern:property")
        if name:
            scope.variables[name] = "node"
        return f"({name}{labels}{properties})"

    def relationship_pattern(self, scope: Scope, features: set[str]) -> str:
        name = self.name("r") if self.rng.random() < 0.6 else ""
        types = self.rng.sample(TYPES, self.rng.choice((0, 1, 1, 2)))
        type_text = (":" + "|".join(types)) if types else ""
        length = ""
        if self.rng.random() < 0.2:
            length = self.rng.choice(("*1..2", "*0..2", "*2", "*..3", "*1..3", "*0..1", "*3"))
            features.add("varlength")
            if length.startswith("*0"):
                features.add("varlength:zero")
        properties = ""
        if self.rng.random() < 0.08:
            properties = f" {{uid: {self.rng.randint(100, 110)}}}"
            features.add("pattern:property")
        if name:
            scope.variables[name] = "rels" if length else "rel"
        left, right = self.rng.choice((("-", "->"), ("<-", "-"), ("-", "-"), ("-", "->")))
        if right == "-" and left == "-":
            features.add("undirected")
        inner = f"{name}{type_text}{length}{properties}"
        return f"{left}[{inner}]{right}" if inner else f"{left}{right}" if self.rng.random() < 0.5 else \
            f"{left}[]{right}"

    def pattern(self, scope: Scope, features: set[str]) -> str:
        hops = self.rng.choice((0, 1, 1, 1, 2, 2, 3))
        text = self.node_pattern(scope, features)
        for _ in range(hops):
            text += self.relationship_pattern(scope, features) + self.node_pattern(scope, features)
        if hops and self.rng.random() < 0.15:
            path = self.name("p")
            scope.variables[path] = "path"
            features.add("named-path")
            text = f"{path} = {text}"
        return text

    def match(self, scope: Scope, features: set[str], *, optional: bool = False) -> str:
        patterns = [self.pattern(scope, features) for _ in range(self.rng.choice((1, 1, 1, 2)))]
        text = ("OPTIONAL MATCH " if optional else "MATCH ") + ", ".join(patterns)
        if optional:
            features.add("optional-match")
        if self.rng.random() < 0.6:
            where = self.expressions(scope, in_where=True).predicate(self.rng.choice((1, 2, 2, 3)))
            features.update(where.features)
            text += f" WHERE {where.text}"
        return text

    # -- projections ------------------------------------------------------------------------------

    def projection(self, scope: Scope, *, aggregate: bool, allow_entities: bool = True) -> Projection:
        projection = Projection()
        generator = self.expressions(scope)
        count = self.rng.choice((1, 1, 2, 2, 3))
        for index in range(count):
            alias = f"c{index}"
            choice = self.rng.random()
            entities = scope.of("node", "rel", "path", "rels")
            if allow_entities and entities and choice < 0.15:
                name = self.rng.choice(entities)
                projection.items.append((name, alias, scope.variables[name], False, False))
                continue
            if choice < 0.22 and scope.of("node", "rel"):
                element = self.rng.choice(scope.of("node", "rel"))
                function = "labels" if scope.variables[element] == "node" and self.rng.random() < 0.5 else "keys"
                projection.items.append((f"{function}({element})", alias, "strlist", False, True))
                projection.features.add(f"fn:{function}")
                continue
            kind = self.rng.choice(("int", "int", "float", "str", "str", "bool", "list", "any", "map", "date"))
            expression = generator.of(kind, self.rng.choice((0, 1, 1, 2)))
            projection.items.append((expression.text, alias, expression.kind, False, False))
            projection.features.update(expression.features)
        if aggregate:
            self.add_aggregates(projection, generator)
        elif self.rng.random() < 0.15:
            projection.distinct = True
            projection.features.add("distinct")
        return projection

    def add_aggregates(self, projection: Projection, generator: Expressions) -> None:
        """Replace some items by aggregates (at least one), keeping the others as grouping keys."""
        for _ in range(self.rng.choice((1, 1, 2))):
            alias = f"c{len(projection.items)}"
            function = self.rng.choice(("count(*)", "count", "count-distinct", "sum", "sum", "avg", "min", "max",
                                        "collect", "collect", "collect-distinct", "stDev", "stDevP", "size-collect",
                                        "percentileDisc", "percentileCont"))
            argument_kind = {"sum": "num", "avg": "num", "stDev": "num", "stDevP": "num", "percentileDisc": "num",
                             "percentileCont": "num"}.get(function, "any")
            argument = generator.of(argument_kind if argument_kind != "any" else
                                    self.rng.choice(("int", "str", "float", "any", "bool")), 1)
            text, kind, multiset = {
                "count(*)": ("count(*)", "int", False),
                "count": (f"count({argument.text})", "int", False),
                "count-distinct": (f"count(DISTINCT {argument.text})", "int", False),
                "sum": (f"sum({argument.text})", argument.kind, False),
                "avg": (f"avg({argument.text})", "float", False),
                "min": (f"min({argument.text})", argument.kind, False),
                "max": (f"max({argument.text})", argument.kind, False),
                "collect": (f"collect({argument.text})", "list", True),
                "collect-distinct": (f"collect(DISTINCT {argument.text})", "list", True),
                "stDev": (f"stDev({argument.text})", "float", False),
                "stDevP": (f"stDevP({argument.text})", "float", False),
                "percentileDisc": (f"percentileDisc({argument.text}, {self.rng.choice((0.0, 0.5, 0.9, 1.0))})",
                                   argument.kind, False),
                "percentileCont": (f"percentileCont({argument.text}, {self.rng.choice((0.0, 0.25, 0.5, 1.0))})",
                                   "float", False),
                "size-collect": (f"size(collect({argument.text}))", "int", False),
            }[function]
            projection.items.append((text, alias, kind, True, multiset))
            projection.features.update(argument.features)
            projection.features.add(f"aggregate:{function}")

    def order_by(self, projection: Projection, features: set[str]) -> tuple[str, tuple[int, ...], bool]:
        """ORDER BY over the orderable columns; whether SKIP/LIMIT may follow (every column orderable)."""
        orderable = [index for index, item in enumerate(projection.items)
                     if item[2] in ORDERABLE or item[2] == "any"]
        if not orderable or self.rng.random() < 0.55:
            return "", (), False
        self.rng.shuffle(orderable)
        keys = orderable if self.rng.random() < 0.7 else orderable[: self.rng.randint(1, len(orderable))]
        if any(projection.items[index][2] == "any" for index in keys):
            features.add("order:cross-kind")
        text = " ORDER BY " + ", ".join(projection.items[index][1] + self.rng.choice(("", "", " DESC", " ASC"))
                                        for index in keys)
        total = len(keys) == len(projection.items) and not any(item[4] for item in projection.items)
        tail = ""
        if total and self.rng.random() < 0.6:
            if self.rng.random() < 0.5:
                tail += f" SKIP {self.rng.randint(0, 3)}"
            tail += f" LIMIT {self.rng.randint(0, 4)}"
            features.add("skip-limit")
        features.add("order-by")
        return text + tail, tuple(keys), bool(tail)

    # -- whole queries ----------------------------------------------------------------------------

    def read(self) -> Case:
        features: set[str] = set()
        if self.rng.random() < 0.12:
            first = self.single(features)
            second = self.single(features, columns=len(first[1]))
            union = self.rng.choice(("UNION", "UNION ALL"))
            features.add("union" if union == "UNION" else "union-all")
            multisets = frozenset(first[2]) | frozenset(second[2])
            return Case(f"{first[0]} {union} {second[0]}", "read", frozenset(features), (), multisets)
        text, _, multisets, order = self.single(features, ordered=True)
        return Case(text, "read", frozenset(features), order, frozenset(multisets))

    def single(self, features: set[str], *, columns: int | None = None,
               ordered: bool = False) -> tuple[str, list[str], set[int], tuple[int, ...]]:
        """One query part; with `columns`, its RETURN has exactly that many (for a UNION's second part)."""
        scope = Scope()
        clauses = []
        start = self.rng.random()
        if start < 0.08:
            variable = self.name("u")
            items = self.expressions(scope).of(self.rng.choice(("list", "strlist")), 2)
            features.update(items.features)
            clauses.append(f"UNWIND {items.text} AS {variable}")
            scope.variables[variable] = "int" if items.kind == "list" else "str"
            features.add("unwind")
        elif start > 0.03:
            clauses.append(self.match(scope, features))
        for _ in range(self.rng.choice((0, 0, 1, 1, 2))):
            step = self.rng.random()
            if step < 0.35:
                clauses.append(self.match(scope, features, optional=self.rng.random() < 0.6))
            elif step < 0.7:
                clauses.append(self.with_clause(scope, features))
            elif step < 0.85:
                variable = self.name("u")
                items = self.expressions(scope).of(self.rng.choice(("list", "list", "strlist")), 2)
                features.update(items.features)
                clauses.append(f"UNWIND {items.text} AS {variable}")
                scope.variables[variable] = "int" if items.kind == "list" else "str"
                features.add("unwind")
            elif scope.of("node"):
                clauses.append(self.call_subquery(scope, features))
        projection = self.projection(scope, aggregate=self.rng.random() < 0.35)
        if columns is not None:
            while len(projection.items) > columns:
                projection.items.pop()
            generator = self.expressions(scope)
            while len(projection.items) < columns:
                expression = generator.of(self.rng.choice(("int", "str")), 1)
                projection.items.append((expression.text, f"c{len(projection.items)}", expression.kind, False, False))
                projection.features.update(expression.features)
        features.update(projection.features)
        order_text, order, _ = self.order_by(projection, features) if ordered else ("", (), False)
        clauses.append("RETURN " + projection.text() + order_text)
        multisets = {index for index, item in enumerate(projection.items) if item[4]}
        return " ".join(clauses), [item[1] for item in projection.items], multisets, order

    def with_clause(self, scope: Scope, features: set[str]) -> str:
        """WITH passing some variables on, computing others, maybe aggregating, maybe filtering."""
        projection = Projection()
        generator = self.expressions(scope)
        kept = [name for name in scope.variables if self.rng.random() < 0.6]
        if self.rng.random() < 0.1:
            features.add("with-star")
            text = "WITH *"
            if self.rng.random() < 0.5:
                where = self.expressions(scope, in_where=True).predicate(2)
                features.update(where.features)
                text += f" WHERE {where.text}"
            return text
        for name in kept:
            projection.items.append((name, name, scope.variables[name], False, False))
        for _ in range(self.rng.choice((0, 1, 1, 2))):
            kind = self.rng.choice(("int", "str", "float", "list", "bool", "any"))
            expression = generator.of(kind, 1)
            projection.items.append((expression.text, self.name("w"), expression.kind, False, False))
            projection.features.update(expression.features)
        aggregate = self.rng.random() < 0.3
        if aggregate:
            before = len(projection.items)
            self.add_aggregates(projection, generator)
            for index in range(before, len(projection.items)):
                text, _, kind, is_aggregate, multiset = projection.items[index]
                projection.items[index] = (text, self.name("w"), kind, is_aggregate, multiset)
        elif projection.items and self.rng.random() < 0.2:
            projection.distinct = True
            projection.features.add("distinct")
        if not projection.items:
            projection.items.append(("1", self.name("w"), "int", False, False))
        features.update(projection.features)
        new_scope = {alias: ("list" if multiset else kind) for _, alias, kind, _, multiset in projection.items}
        # a collected list's order is not fixed: later clauses may only read it whole or by size
        text = "WITH " + projection.text()
        all_orderable = all(item[2] in ORDERABLE for item in projection.items) and not any(
            item[4] for item in projection.items)
        if all_orderable and self.rng.random() < 0.3:
            keys = ", ".join(alias + self.rng.choice(("", " DESC")) for _, alias, *_ in projection.items)
            text += f" ORDER BY {keys}"
            if self.rng.random() < 0.7:
                text += f" LIMIT {self.rng.randint(0, 5)}"
                features.add("with-limit")
        scope.variables.clear()
        scope.variables.update({alias: kind for alias, kind in new_scope.items()
                                if not any(item[1] == alias and item[4] for item in projection.items)})
        if self.rng.random() < 0.4:
            where = self.expressions(scope, in_where=True).predicate(2)
            features.update(where.features)
            text += f" WHERE {where.text}"
        return text

    def call_subquery(self, scope: Scope, features: set[str]) -> str:
        """CALL { WITH n MATCH (n)-...-(m) RETURN agg AS k } importing one node."""
        node = self.rng.choice(scope.of("node"))
        inner = Scope({node: "node"})
        match = self.match(inner, features, optional=self.rng.random() < 0.2)
        alias = self.name("k")
        generator = self.expressions(inner)
        if self.rng.random() < 0.6:
            value = generator.of(self.rng.choice(("int", "str")), 1)
            body = f"RETURN count({value.text}) AS {alias}"
            scope.variables[alias] = "int"
        else:
            value = generator.of(self.rng.choice(("int", "str")), 1)
            body = f"RETURN {value.text} AS {alias}"
            scope.variables[alias] = value.kind
        features.update(value.features)
        features.add("subquery:call")
        return f"CALL {{ WITH {node} {match} {body} }}"

