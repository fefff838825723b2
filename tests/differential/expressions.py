"""A typed generator of Cypher expressions over the variables in scope.

`Expressions.of(kind)` returns an `Expr` of that kind: text, kind, and the features it uses (what the
triage rules match on: `fn:toString`, `op:%`, `subquery:exists`, ...). Each kind has a table of
productions; a production is chosen by weight among those whose needs (a variable of some kind, depth
left) are met, so the generator reaches every operator and function without a chain of special cases.

What it never writes: anything whose value differs between engines by design (`id()`, `elementId()`,
`rand()`, the clock), and list orders no query fixes (a pattern comprehension or `collect()` appears
inside `size()` or as a whole column, which the comparison reads as a multiset).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.differential.graphs import DATES, KEY_KINDS, LABELS, STRINGS, TYPES

SCALAR_KINDS = ("int", "float", "str", "bool")
ORDERABLE = frozenset({"int", "float", "str", "bool", "date", "num"})
"""Kinds whose values every engine orders alike (so ORDER BY over them fixes an order)."""


@dataclass(frozen=True)
class Expr:
    text: str
    kind: str
    features: frozenset[str] = frozenset()


@dataclass
class Scope:
    """The variables a clause can read: name -> kind (`node`, `rel`, `rels`, `path`, or a value kind)."""

    variables: dict[str, str] = field(default_factory=dict)

    def of(self, *kinds: str) -> list[str]:
        return [name for name, kind in self.variables.items() if kind in kinds]

    def copy(self) -> Scope:
        return Scope(dict(self.variables))


def combine(text: str, kind: str, *parts: Expr, features: tuple[str, ...] = ()) -> Expr:
    merged = frozenset(features).union(*(part.features for part in parts))
    return Expr(text, kind, merged)


Production = tuple[float, Callable[["Expressions", int], Expr | None]]


class Expressions:
    """Expressions over `scope`; `property_kinds` says which property keys hold one kind in the graph."""

    def __init__(self, rng: random.Random, scope: Scope, property_kinds: dict[str, str], *,
                 allow_subqueries: bool = True, in_where: bool = False) -> None:
        self.rng = rng
        self.scope = scope
        self.property_kinds = property_kinds
        self.allow_subqueries = allow_subqueries
        self.in_where = in_where
        self.at_predicate = False
        """Whether the expression being built is a predicate of the WHERE (its whole, or an operand of AND, OR,
        XOR, NOT, or a CASE condition), where a bare pattern may stand; a comparison's operand is not one."""
        self._fresh = 0

    # -- entry points ------------------------------------------------------------------------------

    def of(self, kind: str, depth: int = 2, *, predicate: bool = False) -> Expr:
        """An expression of `kind` (`num` is int or float, `any` is whatever comes)."""
        if kind == "num":
            kind = self.rng.choice(("int", "float"))
        if kind == "any":
            kind = self.rng.choice(("int", "float", "str", "bool", "list", "prop", "prop", "null"))
        productions = PRODUCTIONS[kind]
        for _ in range(20):
            weights = [weight if depth > 0 or index < LEAVES[kind] else 0.0
                       for index, (weight, _) in enumerate(productions)]
            (_, build), = self.rng.choices(productions, weights)
            self.at_predicate = predicate
            made = build(self, depth - 1)
            if made is not None:
                return made
        return PRODUCTIONS[kind][0][1](self, 0) or Expr("null", "null")  # a literal, where the kind has one

    def predicate(self, depth: int = 2) -> Expr:
        return self.of("bool", depth, predicate=True)

    def fresh(self, prefix: str = "x") -> str:
        self._fresh += 1
        return f"{prefix}{self._fresh}"

    # -- leaves ------------------------------------------------------------------------------------

    def property_of(self, kind: str) -> Expr | None:
        """`v.key` for a node or relationship variable and a key that holds `kind` (or any kind for `any`)."""
        elements = self.scope.of("node", "rel")
        if not elements:
            return None
        keys = [key for key, held in self.property_kinds.items() if held == kind or kind == "any"]
        if kind == "int":
            keys.append("uid")
        if not keys:
            return None
        key = self.rng.choice(keys)
        mixed = self.property_kinds.get(key) == "any"
        return Expr(f"{self.rng.choice(elements)}.{key}", "any" if mixed else kind,
                    frozenset({"mixed-property"} if mixed else ()))

    def variable_of(self, kind: str) -> Expr | None:
        names = self.scope.of(kind)
        return Expr(self.rng.choice(names), kind) if names else None


# -- productions, per kind: the leaves first (`LEAVES[kind]` of them), then the compound forms -----------

def _int_literal(g: Expressions, depth: int) -> Expr:
    return Expr(str(g.rng.choice((-3, -2, -1, 0, 1, 2, 3, 7, 10, 100))), "int")


def _float_literal(g: Expressions, depth: int) -> Expr:
    return Expr(g.rng.choice(("0.0", "0.5", "-1.5", "2.25", "10.0", "1.0e-4", "3.0e7", "-0.0")), "float")


def _string_literal(g: Expressions, depth: int) -> Expr:
    return Expr("'" + g.rng.choice(STRINGS) + "'", "str")


def _bool_literal(g: Expressions, depth: int) -> Expr:
    return Expr(g.rng.choice(("true", "false")), "bool")


def _list_literal(g: Expressions, depth: int) -> Expr:
    items = [g.of("int", 0).text if g.rng.random() < 0.9 else "null" for _ in range(g.rng.randint(0, 4))]
    return Expr("[" + ", ".join(items) + "]", "list")


def _string_list_literal(g: Expressions, depth: int) -> Expr:
    items = ["'" + g.rng.choice(STRINGS) + "'" for _ in range(g.rng.randint(0, 3))]
    return Expr("[" + ", ".join(items) + "]", "strlist")


def _date_literal(g: Expressions, depth: int) -> Expr:
    return Expr(f"date('{g.rng.choice(DATES)}')", "date", frozenset({"fn:date"}))


def _null(g: Expressions, depth: int) -> Expr:
    return Expr("null", "null")


def _leaf_from(kind: str) -> Callable[[Expressions, int], Expr | None]:
    def build(g: Expressions, depth: int) -> Expr | None:
        return g.variable_of(kind) or (g.property_of(kind) if kind in KEY_KINDS.values() else None)
    return build


def _property(kind: str) -> Callable[[Expressions, int], Expr | None]:
    return lambda g, depth: g.property_of(kind)


def _binary(kind: str, op: str, left: str, right: str, feature: str | None = None) -> Callable[..., Expr]:
    def build(g: Expressions, depth: int) -> Expr:
        a, b = g.of(left, depth), g.of(right, depth)
        return combine(f"({a.text} {op} {b.text})", kind, a, b, features=(feature or f"op:{op}",))
    return build


def _divide(kind: str, op: str) -> Callable[..., Expr]:
    """`a / b` or `a % b` by a literal that is not zero (division by zero is tested apart)."""
    def build(g: Expressions, depth: int) -> Expr:
        a = g.of(kind, depth)
        divisor = g.rng.choice(("2", "-3", "7", "1.5", "-2.0", "0.25") if kind == "float" else ("2", "-3", "7", "1"))
        return combine(f"({a.text} {op} {divisor})", kind, a, features=(f"op:{op}",))
    return build


def _call(kind: str, name: str, *arguments: str) -> Callable[..., Expr]:
    def build(g: Expressions, depth: int) -> Expr:
        parts = [g.of(argument, depth) for argument in arguments]
        return combine(f"{name}({', '.join(p.text for p in parts)})", kind, *parts, features=(f"fn:{name}",))
    return build


def _negate(g: Expressions, depth: int) -> Expr:
    a = g.of(g.rng.choice(("int", "float")), depth)
    return combine(f"-({a.text})", a.kind, a, features=("op:neg",))


def _case(kind: str) -> Callable[..., Expr]:
    def build(g: Expressions, depth: int) -> Expr:
        condition, then, otherwise = g.predicate(depth), g.of(kind, depth), g.of(kind, depth)
        if g.rng.random() < 0.3:
            return combine(f"CASE WHEN {condition.text} THEN {then.text} END", kind, condition, then,
                           features=("case",))
        return combine(f"CASE WHEN {condition.text} THEN {then.text} ELSE {otherwise.text} END", kind,
                       condition, then, otherwise, features=("case",))
    return build


def _simple_case(kind: str) -> Callable[..., Expr]:
    def build(g: Expressions, depth: int) -> Expr:
        tested = g.of("int", depth)
        arms = [(g.of("int", 0), g.of(kind, depth)) for _ in range(g.rng.randint(1, 2))]
        otherwise = g.of(kind, depth)
        text = f"CASE {tested.text}" + "".join(f" WHEN {w.text} THEN {t.text}" for w, t in arms)
        return combine(text + f" ELSE {otherwise.text} END", kind, tested, otherwise, *(t for _, t in arms),
                       features=("case:simple",))
    return build


def _coalesce(kind: str) -> Callable[..., Expr]:
    def build(g: Expressions, depth: int) -> Expr:
        first = g.property_of(kind) or g.of(kind, depth)
        second = g.of(kind, 0)
        return combine(f"coalesce({first.text}, {second.text})", kind, first, second, features=("fn:coalesce",))
    return build


def _element_at(kind: str) -> Callable[..., Expr]:
    """head(), last() or `l[i]` of a list of `kind`'s values."""
    list_kind = "list" if kind == "int" else "strlist"
    def build(g: Expressions, depth: int) -> Expr:
        items = g.of(list_kind, depth)
        form = g.rng.choice(("head", "last", "index"))
        if form == "index":
            return combine(f"({items.text})[{g.rng.choice((-2, -1, 0, 1, 2, 5))}]", kind, items,
                           features=("list:index",))
        return combine(f"{form}({items.text})", kind, items, features=(f"fn:{form}",))
    return build


def _size(g: Expressions, depth: int) -> Expr:
    argument = g.of(g.rng.choice(("list", "str", "strlist")), depth)
    return combine(f"size({argument.text})", "int", argument, features=("fn:size",))


def _path_length(g: Expressions, depth: int) -> Expr | None:
    path = g.variable_of("path")
    return combine(f"length({path.text})", "int", path, features=("fn:length",)) if path else None


def _rels_size(g: Expressions, depth: int) -> Expr | None:
    rels = g.variable_of("rels")
    return combine(f"size({rels.text})", "int", rels, features=("varlength:list",)) if rels else None


def _to_integer(g: Expressions, depth: int) -> Expr:
    argument = g.of(g.rng.choice(("float", "str")), depth)
    return combine(f"toInteger({argument.text})", "int", argument, features=("fn:toInteger",))


def _reduce(g: Expressions, depth: int) -> Expr:
    items = g.of("list", depth)
    accumulator, element = g.fresh("s"), g.fresh("x")
    return combine(f"reduce({accumulator} = 0, {element} IN {items.text} | {accumulator} + coalesce({element}, 0))",
                   "int", items, features=("reduce",))


def _filtered_size(g: Expressions, depth: int) -> Expr:
    items = g.of("list", depth)
    element = g.fresh("x")
    op = g.rng.choice(("<", ">", "=", "<>"))
    return combine(f"size([{element} IN {items.text} WHERE {element} {op} {g.rng.randint(-1, 2)}])", "int", items,
                   features=("list:comprehension",))


def _pattern_count(g: Expressions, depth: int) -> Expr | None:
    """COUNT { pattern } or size() of a pattern comprehension, from a node in scope."""
    nodes = g.scope.of("node")
    if not nodes or not g.allow_subqueries:
        return None
    start = g.rng.choice(nodes)
    pattern = small_pattern(g.rng, start)
    if g.rng.random() < 0.5:
        return Expr(f"COUNT {{ {pattern} }}", "int", frozenset({"subquery:count"}))
    return Expr(f"size([{pattern} | 1])", "int", frozenset({"pattern-comprehension"}))


def _date_part(g: Expressions, depth: int) -> Expr:
    date = g.of("date", depth)
    part = g.rng.choice(("year", "month", "day", "quarter", "week", "dayOfWeek", "ordinalDay"))
    return combine(f"({date.text}).{part}", "int", date, features=("temporal:component",))


def _float_of_int(g: Expressions, depth: int) -> Expr:
    argument = g.of("int", depth)
    return combine(f"toFloat({argument.text})", "float", argument, features=("fn:toFloat",))


def _math(name: str) -> Callable[..., Expr]:
    def build(g: Expressions, depth: int) -> Expr:
        argument = g.of("num", depth)
        if name == "sqrt":
            argument = combine(f"abs({argument.text})", argument.kind, argument)
        return combine(f"{name}({argument.text})", "float", argument, features=(f"fn:{name}",))
    return build


def _power(g: Expressions, depth: int) -> Expr:
    base, exponent = g.of("int", depth), Expr(str(g.rng.choice((0, 1, 2, 3))), "int")
    return combine(f"({base.text} ^ {exponent.text})", "float", base, features=("op:^",))


def _mixed_arithmetic(op: str) -> Callable[..., Expr]:
    def build(g: Expressions, depth: int) -> Expr:
        a, b = g.of("int", depth), g.of("float", depth)
        if g.rng.random() < 0.5:
            a, b = b, a
        return combine(f"({a.text} {op} {b.text})", "float", a, b, features=(f"op:{op}", "mixed-number"))
    return build


def _concat(g: Expressions, depth: int) -> Expr:
    a = g.of("str", depth)
    b = g.of(g.rng.choice(("str", "str", "int", "float", "bool")), depth)
    if g.rng.random() < 0.3:
        a, b = b, a
    features = ("op:+str",) if a.kind == b.kind == "str" else ("op:+str", f"concat:{a.kind}+{b.kind}")
    return combine(f"({a.text} + {b.text})", "str", a, b, features=features)


def _to_string(g: Expressions, depth: int) -> Expr:
    argument = g.of(g.rng.choice(("int", "float", "bool", "str", "date")), depth)
    return combine(f"toString({argument.text})", "str", argument,
                   features=("fn:toString", f"toString:{argument.kind}"))


def _substring(g: Expressions, depth: int) -> Expr:
    text = g.of("str", depth)
    start = str(g.rng.randint(0, 3))
    if g.rng.random() < 0.5:
        return combine(f"substring({text.text}, {start})", "str", text, features=("fn:substring",))
    return combine(f"substring({text.text}, {start}, {g.rng.randint(0, 3)})", "str", text, features=("fn:substring",))


def _prefix(name: str) -> Callable[..., Expr]:
    def build(g: Expressions, depth: int) -> Expr:
        text = g.of("str", depth)
        return combine(f"{name}({text.text}, {g.rng.randint(0, 4)})", "str", text, features=(f"fn:{name}",))
    return build


def _replace(g: Expressions, depth: int) -> Expr:
    text = g.of("str", depth)
    search, replacement = (g.rng.choice(("'a'", "'b'", "''", "'ab'", "' '")) for _ in range(2))
    return combine(f"replace({text.text}, {search}, {replacement})", "str", text, features=("fn:replace",))


def _string_function(name: str) -> Callable[..., Expr]:
    def build(g: Expressions, depth: int) -> Expr:
        text = g.of("str", depth)
        return combine(f"{name}({text.text})", "str", text, features=(f"fn:{name}",))
    return build


def _comparison(g: Expressions, depth: int) -> Expr:
    """Two values of one kind compared, now and then two of different kinds (null in Cypher)."""
    op = g.rng.choice(("=", "<>", "<", "<=", ">", ">="))
    kind = g.rng.choice(("int", "float", "num", "str", "bool", "list", "date", "any"))
    left = g.of(kind, depth)
    right_kind = kind if g.rng.random() < 0.85 else g.rng.choice(("int", "str", "list", "null"))
    right = g.of(right_kind if right_kind != "num" else "num", depth)
    features = [f"op:{op}", f"compare:{left.kind}"]
    if left.kind != right.kind and not {left.kind, right.kind} <= {"int", "float"}:
        features.append("compare:cross-kind")
    if "list" in (left.kind, right.kind) and op not in ("=", "<>"):
        features.append("compare:list-order")
    return combine(f"({left.text} {op} {right.text})", "bool", left, right, features=tuple(features))


def _logical(op: str) -> Callable[..., Expr]:
    def build(g: Expressions, depth: int) -> Expr:
        a, b = g.predicate(depth), g.predicate(depth)
        return combine(f"({a.text} {op} {b.text})", "bool", a, b, features=(f"op:{op}",))
    return build


def _not(g: Expressions, depth: int) -> Expr:
    a = g.predicate(depth)
    return combine(f"(NOT {a.text})", "bool", a, features=("op:NOT",))


def _is_null(g: Expressions, depth: int) -> Expr:
    a = g.of(g.rng.choice(("any", "int", "str", "list")), depth)
    negated = g.rng.random() < 0.5
    return combine(f"({a.text} IS {'NOT ' if negated else ''}NULL)", "bool", a, features=("op:IS NULL",))


def _string_predicate(g: Expressions, depth: int) -> Expr:
    op = g.rng.choice(("STARTS WITH", "ENDS WITH", "CONTAINS"))
    a, b = g.of("str", depth), g.of("str", 0)
    return combine(f"({a.text} {op} {b.text})", "bool", a, b, features=(f"op:{op}",))


def _in_list(g: Expressions, depth: int) -> Expr:
    kind = g.rng.choice(("int", "str", "any"))
    value = g.of(kind, depth)
    items = g.of("strlist" if kind == "str" else "list", depth)
    return combine(f"({value.text} IN {items.text})", "bool", value, items, features=("op:IN",))


def _has_label(g: Expressions, depth: int) -> Expr | None:
    nodes = g.scope.of("node")
    if not nodes:
        return None
    labels = g.rng.sample(LABELS, g.rng.randint(1, 2))
    separator = g.rng.choice((":", "|")) if len(labels) > 1 else ":"
    text = f"{g.rng.choice(nodes)}:" + separator.join(labels) if separator == "|" else \
        g.rng.choice(nodes) + "".join(":" + label for label in labels)
    features = {"label-test", "label-expression:or"} if separator == "|" else {"label-test"}
    return Expr(f"({text})", "bool", frozenset(features))


def _has_type(g: Expressions, depth: int) -> Expr | None:
    rels = g.scope.of("rel")
    if not rels:
        return None
    return Expr(f"(type({g.rng.choice(rels)}) = '{g.rng.choice(TYPES)}')", "bool", frozenset({"fn:type"}))


def _pattern_predicate(g: Expressions, depth: int) -> Expr | None:
    """EXISTS { pattern } anywhere; a bare pattern predicate only in a WHERE (where Neo4j 5 admits it)."""
    nodes = g.scope.of("node")
    if not nodes or not g.allow_subqueries:
        return None
    pattern = small_pattern(g.rng, g.rng.choice(nodes))
    if g.in_where and g.at_predicate and g.rng.random() < 0.5:
        return Expr(pattern, "bool", frozenset({"pattern-predicate"}))
    return Expr(f"EXISTS {{ {pattern} }}", "bool", frozenset({"subquery:exists"}))


def _quantifier(g: Expressions, depth: int) -> Expr:
    name = g.rng.choice(("any", "all", "none", "single"))
    items = g.of("list", depth)
    element = g.fresh("x")
    op = g.rng.choice(("<", ">", "=", "<>"))
    return combine(f"{name}({element} IN {items.text} WHERE {element} {op} {g.rng.randint(-1, 2)})", "bool", items,
                   features=(f"quantifier:{name}",))


def _regex(g: Expressions, depth: int) -> Expr:
    text = g.of("str", depth)
    pattern = g.rng.choice(("'a.*'", "'.*b'", "'[ab]+'", "'A.'", "''", "'.*'"))
    return combine(f"({text.text} =~ {pattern})", "bool", text, features=("op:=~",))


def _range(g: Expressions, depth: int) -> Expr:
    start, end = g.rng.randint(-2, 3), g.rng.randint(-2, 5)
    if g.rng.random() < 0.3:
        return Expr(f"range({start}, {end}, {g.rng.choice((1, 2, -1, 3))})", "list", frozenset({"fn:range"}))
    return Expr(f"range({start}, {end})", "list", frozenset({"fn:range"}))


def _list_concat(g: Expressions, depth: int) -> Expr:
    a, b = g.of("list", depth), g.of(g.rng.choice(("list", "int")), depth)
    if g.rng.random() < 0.3:
        a, b = b, a
    return combine(f"({a.text} + {b.text})", "list", a, b, features=("op:+list",))


def _tail(g: Expressions, depth: int) -> Expr:
    items = g.of("list", depth)
    return combine(f"tail({items.text})", "list", items, features=("fn:tail",))


def _list_slice(g: Expressions, depth: int) -> Expr:
    items = g.of("list", depth)
    low, high = g.rng.choice(("", "0", "1", "-1", "-2")), g.rng.choice(("", "1", "2", "-1", "5"))
    return combine(f"({items.text})[{low}..{high}]", "list", items, features=("list:slice",))


def _list_map(g: Expressions, depth: int) -> Expr:
    items = g.of("list", depth)
    element = g.fresh("x")
    inner = Expressions(g.rng, Scope({**g.scope.variables, element: "int"}), g.property_kinds,
                        allow_subqueries=False)
    inner._fresh = g._fresh + 100
    mapped = inner.of("int", max(depth - 1, 0))
    where = f" WHERE {element} IS NOT NULL" if g.rng.random() < 0.5 else ""
    return combine(f"[{element} IN {items.text}{where} | {mapped.text}]", "list", items, mapped,
                   features=("list:comprehension",))


def _list_reverse(g: Expressions, depth: int) -> Expr:
    items = g.of("list", depth)
    return combine(f"reverse({items.text})", "list", items, features=("fn:reverse",))


def _split(g: Expressions, depth: int) -> Expr:
    text = g.of("str", depth)
    return combine(f"split({text.text}, {g.rng.choice(('a', 'b', ' ', ''))!r})", "strlist", text,
                   features=("fn:split",))


def _map_literal(g: Expressions, depth: int) -> Expr:
    entries = [(key, g.of(g.rng.choice(("int", "str", "list", "bool", "null")), max(depth - 1, 0)))
               for key in g.rng.sample(("k", "v", "w", "z"), g.rng.randint(0, 3))]
    return combine("{" + ", ".join(f"{key}: {value.text}" for key, value in entries) + "}", "map",
                   *(value for _, value in entries), features=("map:literal",))


def _properties(g: Expressions, depth: int) -> Expr | None:
    elements = g.scope.of("node", "rel")
    if not elements:
        return None
    return Expr(f"properties({g.rng.choice(elements)})", "map", frozenset({"fn:properties"}))


def _map_projection(g: Expressions, depth: int) -> Expr | None:
    nodes = g.scope.of("node", "rel")
    if not nodes:
        return None
    keys = g.rng.sample(("a", "b", "c", "uid", "zz"), g.rng.randint(1, 3))
    extra = f", extra: {g.of('int', 0).text}" if g.rng.random() < 0.3 else ""
    star = ".*, " if g.rng.random() < 0.2 else ""
    return Expr(f"{g.rng.choice(nodes)} {{{star}{', '.join('.' + key for key in keys)}{extra}}}", "map",
                frozenset({"map:projection"} | ({"map:projection-all"} if star else set())))


def _date_plus(g: Expressions, depth: int) -> Expr:
    date = g.of("date", depth)
    duration = g.rng.choice(("P1D", "P1M", "P1Y", "P2W", "-P3D"))
    op = g.rng.choice(("+", "-"))
    return combine(f"({date.text} {op} duration('{duration}'))", "date", date, features=("temporal:arithmetic",))


def _path_uids(g: Expressions, depth: int) -> Expr | None:
    """`[x IN nodes(p) | x.uid]` or the relationships' uids: a path's elements in walking order."""
    path = g.variable_of("path")
    if path is None:
        return None
    function = g.rng.choice(("nodes", "relationships"))
    element = g.fresh("e")
    return Expr(f"[{element} IN {function}({path.text}) | {element}.uid]", "list",
                frozenset({f"fn:{function}", "list:comprehension"}))


def _collect_subquery(g: Expressions, depth: int) -> Expr | None:
    """size(COLLECT { MATCH pattern RETURN 1 }): the subquery's rows counted through a list."""
    nodes = g.scope.of("node")
    if not nodes or not g.allow_subqueries:
        return None
    pattern = small_pattern(g.rng, g.rng.choice(nodes))
    return Expr(f"size(COLLECT {{ MATCH {pattern} RETURN 1 }})", "int", frozenset({"subquery:collect"}))


def _positive_math(name: str) -> Callable[..., Expr]:
    """exp(), log(), log10() of a positive number (of others they give NaN or infinity, tested apart)."""
    def build(g: Expressions, depth: int) -> Expr:
        argument = g.of("num", depth)
        return combine(f"{name}(abs({argument.text}) + 1)", "float", argument, features=(f"fn:{name}",))
    return build


def _to_boolean(g: Expressions, depth: int) -> Expr:
    text = Expr(g.rng.choice(("'true'", "'false'", "'TRUE'", "' true '", "'yes'", "''")), "str")
    if g.rng.random() < 0.4:
        text = g.of("str", depth)
    return combine(f"toBoolean({text.text})", "bool", text, features=("fn:toBoolean",))


def _entity_of(kind: str) -> Callable[..., Expr | None]:
    def build(g: Expressions, depth: int) -> Expr | None:
        return g.variable_of(kind)
    return build


def _endpoint(g: Expressions, depth: int) -> Expr | None:
    rels = g.scope.of("rel")
    if not rels:
        return None
    return Expr(f"{g.rng.choice(('startNode', 'endNode'))}({g.rng.choice(rels)})", "node", frozenset({"fn:endpoint"}))


def _mixed_property(g: Expressions, depth: int) -> Expr | None:
    return g.property_of("any")


PRODUCTIONS: dict[str, list[Production]] = {
    "int": [(3, _int_literal), (4, _leaf_from("int")), (2, _property("int")),
            (2, _binary("int", "+", "int", "int")), (1, _binary("int", "-", "int", "int")),
            (1, _binary("int", "*", "int", "int")), (1, _divide("int", "/")), (1, _divide("int", "%")),
            (1, _call("int", "abs", "int")), (1, _call("int", "sign", "num")), (1, _negate),
            (2, _size), (1, _path_length), (1, _rels_size), (1, _to_integer), (1, _reduce), (1, _filtered_size),
            (1, _case("int")), (0.5, _simple_case("int")), (1, _coalesce("int")), (1, _element_at("int")),
            (1, _pattern_count), (0.5, _date_part), (0.5, _collect_subquery)],
    "float": [(3, _float_literal), (3, _leaf_from("float")), (1, _property("float")),
              (2, _binary("float", "+", "float", "float")), (1, _binary("float", "*", "float", "float")),
              (1, _binary("float", "-", "float", "float")), (1, _divide("float", "/")), (1, _divide("float", "%")),
              (2, _mixed_arithmetic("+")), (1, _mixed_arithmetic("*")), (1, _mixed_arithmetic("/")),
              (1, _float_of_int), (1, _math("sqrt")), (1, _math("round")), (1, _math("floor")), (1, _math("ceil")),
              (1, _call("float", "abs", "float")), (1, _power), (1, _case("float")), (1, _coalesce("float")),
              (0.5, _positive_math("exp")), (0.5, _positive_math("log")), (0.5, _positive_math("log10"))],
    "str": [(3, _string_literal), (3, _leaf_from("str")), (1, _property("str")), (3, _concat), (2, _to_string),
            (1, _substring), (1, _prefix("left")), (1, _prefix("right")), (1, _replace),
            (1, _string_function("toUpper")), (1, _string_function("toLower")), (1, _string_function("trim")),
            (0.5, _string_function("ltrim")), (0.5, _string_function("rtrim")), (1, _string_function("reverse")),
            (1, _case("str")), (1, _coalesce("str")), (1, _element_at("str"))],
    "bool": [(2, _bool_literal), (2, _leaf_from("bool")), (1, _property("bool")), (6, _comparison),
             (2, _logical("AND")), (2, _logical("OR")), (1, _logical("XOR")), (1.5, _not), (2, _is_null),
             (1.5, _string_predicate), (1.5, _in_list), (1.5, _has_label), (1, _has_type), (1.5, _pattern_predicate),
             (1, _quantifier), (0.5, _regex), (0.5, _case("bool")), (0.5, _to_boolean)],
    "list": [(3, _list_literal), (2, _leaf_from("list")), (1, _property("list")), (2, _range), (1, _list_concat),
             (1, _tail), (1, _list_slice), (1.5, _list_map), (1, _list_reverse), (0.5, _case("list")),
             (0.5, _coalesce("list")), (1, _path_uids)],
    "strlist": [(2, _string_list_literal), (1, _leaf_from("strlist")), (1, _split)],
    "map": [(2, _map_literal), (1, _leaf_from("map")), (1, _properties), (1, _map_projection)],
    "date": [(2, _date_literal), (2, _leaf_from("date")), (1, _property("date")), (1, _date_plus)],
    "prop": [(1, _mixed_property), (1, _property("int"))],
    "null": [(1, _null)],
    "node": [(1, _entity_of("node")), (1, _endpoint)],
    "rel": [(1, _entity_of("rel"))],
    "path": [(1, _entity_of("path"))],
}
LEAVES = {"int": 3, "float": 3, "str": 3, "bool": 3, "list": 3, "strlist": 3, "map": 3, "date": 3, "prop": 2,
          "null": 1, "node": 2, "rel": 1, "path": 1}
"""How many productions at the head of each table are leaves (what depth 0 chooses among)."""


def small_pattern(rng: random.Random, start: str) -> str:
    """A one- or two-hop pattern from the node variable `start`, its other nodes anonymous."""
    def hop() -> str:
        rel = f"[:{rng.choice(TYPES)}]" if rng.random() < 0.6 else ""
        node = f"(:{rng.choice(LABELS)})" if rng.random() < 0.4 else "()"
        left, right = rng.choice((("-", "->"), ("<-", "-"), ("-", "-")))
        return f"{left}{rel}{right}{node}"
    return f"({start})" + "".join(hop() for _ in range(rng.choice((1, 1, 2))))
