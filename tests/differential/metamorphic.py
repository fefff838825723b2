"""Metamorphic checks: relations between queries that must hold whatever the right answer is.

They need no oracle, so they run in CI on ours alone. Each check takes a generated base query over a
generated graph and derives others whose answers it knows from the base's:

- ternary logic partitioning (TLP): the rows of `WHERE p`, `WHERE NOT p` and `WHERE p IS NULL` together
  are the rows without the WHERE, as separate statements and as one UNION ALL; for aggregates,
  `count(*)`, `sum()`, `min()` and `max()` of the whole are made from those of the three parts;
- a redundant `WITH *` changes nothing, nor does DISTINCT over distinct rows, nor an ORDER BY to the
  multiset of rows, nor an index on a property the query reads;
- a pattern written in the other direction matches the same rows;
- `count(*)` equals `size(collect(...))`.

A base query that raises an error is skipped (counted); a derived query that raises while the base
did not is a violation, as is an internal error anywhere.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import engine
from tests.differential.expressions import Scope
from tests.differential.graphs import LABELS, Graph, generate_graph
from tests.differential.queries import QueryGenerator
from tests.differential.values import from_ours


@dataclass
class Violation:
    relation: str
    graph: str
    queries: list[str]
    detail: str

    def __str__(self) -> str:
        return (f"{self.relation}: {self.detail}\n  graph: {self.graph}\n"
                + "\n".join(f"  query: {query}" for query in self.queries))


@dataclass
class Tally:
    checks: int = 0
    statements: int = 0
    skipped: int = 0
    per_relation: Counter[str] = field(default_factory=Counter)
    violations: list[Violation] = field(default_factory=list)


class Runner:
    """Runs statements on one connection holding one graph, counting them."""

    def __init__(self, graph: Graph, tally: Tally) -> None:
        self.graph = graph
        self.tally = tally
        self.db = engine.connect(":memory:", timeout=20)
        self.db.execute(graph.create_statement())
        self.uid_of = {node.id: node.properties.get("uid") for (node,) in self.db.execute("MATCH (n) RETURN n")}

    def rows(self, text: str) -> list[tuple] | str:
        """The canonical rows, or the error's text (an internal error raises: it is always a violation)."""
        self.tally.statements += 1
        try:
            result = self.db.execute(text)
        except engine.CypherError as error:
            if error.detail == "Internal":
                raise InternalError(f"{text}\n  -> {error}") from error
            return f"{error.kind}: {error.detail}"
        return [tuple(from_ours(value, self.uid_of) for value in row) for row in result.rows]

    def close(self) -> None:
        self.db.close()


class InternalError(Exception):
    pass


Check = Callable[[random.Random, QueryGenerator, Runner], "tuple[list[str], str | None] | None"]
"""A relation: given generators and a runner, the queries it ran and a violation's detail (None if it
held); None instead of the tuple when the base query raised (skipped)."""


def _bag(rows: list[tuple]) -> Counter[str]:
    return Counter(map(repr, rows))


def _base(gen: QueryGenerator) -> tuple[str, Scope, str]:
    """Reading clauses ending so that a WHERE may follow (a MATCH, or `WITH *` after an OPTIONAL MATCH, whose
    own WHERE would filter differently), the scope, and a RETURN body."""
    scope = Scope()
    features: set[str] = set()
    patterns = [gen.pattern(scope, features) for _ in range(gen.rng.choice((1, 1, 2)))]
    text = "MATCH " + ", ".join(patterns)
    if gen.rng.random() < 0.2:
        text += " " + gen.match(scope, features, optional=True) + " WITH *"
    items = _return_items(gen, scope)
    return text, scope, items


def _return_items(gen: QueryGenerator, scope: Scope) -> str:
    generator = gen.expressions(scope)
    items = []
    for index in range(gen.rng.choice((1, 1, 2, 3))):
        names = scope.of("node", "rel")
        if names and gen.rng.random() < 0.3:
            items.append(f"{gen.rng.choice(names)} AS c{index}")
        else:
            kind = gen.rng.choice(("int", "str", "float", "bool", "list", "any"))
            items.append(f"{generator.of(kind, 1).text} AS c{index}")
    return ", ".join(items)


def _predicate(gen: QueryGenerator, scope: Scope) -> str:
    return gen.expressions(scope, in_where=True).predicate(gen.rng.choice((1, 1, 2))).text


def tlp_where(rng: random.Random, gen: QueryGenerator, run: Runner) -> tuple[list[str], str | None] | None:
    match, scope, items = _base(gen)
    p = _predicate(gen, scope)
    base = f"{match} RETURN {items}"
    parts = [f"{match} WHERE {p} RETURN {items}", f"{match} WHERE NOT ({p}) RETURN {items}",
             f"{match} WHERE ({p}) IS NULL RETURN {items}"]
    whole = run.rows(base)
    if isinstance(whole, str):
        return None
    results = [run.rows(part) for part in parts]
    queries = [base, *parts]
    raised = [result for result in results if isinstance(result, str)]
    if len(raised) == len(results) and len(set(raised)) == 1:
        return None  # the predicate raises on some row, in every partition alike
    if raised:
        return queries, f"a partition raised {raised[0]}, the others did not"
    union = sum((_bag(result) for result in results), Counter())  # type: ignore[arg-type]
    if union != _bag(whole):
        return queries, f"the partitions hold {sum(union.values())} rows, the whole {len(whole)}"
    return queries, None


def tlp_union(rng: random.Random, gen: QueryGenerator, run: Runner) -> tuple[list[str], str | None] | None:
    match, scope, items = _base(gen)
    p = _predicate(gen, scope)
    base = f"{match} RETURN {items}"
    union = " UNION ALL ".join([f"{match} WHERE {p} RETURN {items}", f"{match} WHERE NOT ({p}) RETURN {items}",
                                f"{match} WHERE ({p}) IS NULL RETURN {items}"])
    whole = run.rows(base)
    if isinstance(whole, str):
        return None
    parts = run.rows(union)
    if isinstance(parts, str):
        return [base, union], f"the UNION ALL raised {parts}"
    return [base, union], None if _bag(parts) == _bag(whole) else \
        f"the UNION ALL of the partitions has {len(parts)} rows, the whole {len(whole)}"


def tlp_aggregate(rng: random.Random, gen: QueryGenerator, run: Runner) -> tuple[list[str], str | None] | None:
    match, scope, _ = _base(gen)
    p = _predicate(gen, scope)
    argument = gen.expressions(scope).of("int", 1).text
    function = rng.choice(("count(*)", "count", "sum", "min", "max"))
    aggregate = "count(*)" if function == "count(*)" else f"{function}({argument})"
    base = f"{match} RETURN {aggregate} AS c0"
    parts = [f"{match} WHERE {p} RETURN {aggregate} AS c0", f"{match} WHERE NOT ({p}) RETURN {aggregate} AS c0",
             f"{match} WHERE ({p}) IS NULL RETURN {aggregate} AS c0"]
    whole = run.rows(base)
    if isinstance(whole, str):
        return None
    results = [run.rows(part) for part in parts]
    queries = [base, *parts]
    raised = [result for result in results if isinstance(result, str)]
    if len(raised) == len(results) and len(set(raised)) == 1:
        return None
    if raised:
        return queries, f"a partition raised {raised[0]}, the others did not"
    values = [result[0][0] for result in results]  # type: ignore[index]
    combined = _combine(function, values)
    if combined != whole[0][0]:
        return queries, f"the parts combine to {combined!r}, the whole is {whole[0][0]!r}"
    return queries, None


def _combine(function: str, values: list) -> object:
    """An aggregate of the whole from those of the parts (canonical values: ("int", n), ("null",), ...)."""
    present = [value for value in values if value != ("null",)]
    if function in ("count(*)", "count"):
        return ("int", sum(value[1] for value in values))
    if function == "sum":
        kinds = {value[0] for value in present}
        total = sum(value[1] for value in present)
        return ("int", total) if kinds <= {"int"} else ("float", float(f"{float(total):.12g}"))
    if not present:
        return ("null",)
    chosen = min(present, key=lambda v: v[1]) if function == "min" else max(present, key=lambda v: v[1])
    return chosen


def with_star(rng: random.Random, gen: QueryGenerator, run: Runner) -> tuple[list[str], str | None] | None:
    match, _, items = _base(gen)
    base, derived = f"{match} RETURN {items}", f"{match} WITH * RETURN {items}"
    return _same_bag(run, base, derived)


def distinct(rng: random.Random, gen: QueryGenerator, run: Runner) -> tuple[list[str], str | None] | None:
    match, _, items = _base(gen)
    base, derived = f"{match} RETURN {items}", f"{match} RETURN DISTINCT {items}"
    whole = run.rows(base)
    if isinstance(whole, str):
        return None
    rows = run.rows(derived)
    if isinstance(rows, str):
        return [base, derived], f"DISTINCT raised {rows}"
    return [base, derived], None if _bag(rows) == Counter(dict.fromkeys(_bag(whole), 1)) else \
        f"DISTINCT gave {len(rows)} rows for {len(set(map(repr, whole)))} distinct ones"


def ordered(rng: random.Random, gen: QueryGenerator, run: Runner) -> tuple[list[str], str | None] | None:
    match, _, items = _base(gen)
    keys = ", ".join(f"c{index}" + rng.choice(("", " DESC")) for index in range(items.count(" AS c")))
    return _same_bag(run, f"{match} RETURN {items}", f"{match} RETURN {items} ORDER BY {keys}")


def count_is_size_of_collect(rng: random.Random, gen: QueryGenerator, run: Runner
                             ) -> tuple[list[str], str | None] | None:
    match, _, _ = _base(gen)
    return _same_bag(run, f"{match} RETURN count(*) AS c0", f"{match} RETURN size(collect(1)) AS c0")


def indexed(rng: random.Random, gen: QueryGenerator, run: Runner) -> tuple[list[str], str | None] | None:
    match, scope, items = _base(gen)
    p = _predicate(gen, scope)
    base = f"{match} WHERE {p} RETURN {items}"
    whole = run.rows(base)
    if isinstance(whole, str):
        return None
    label, key = rng.choice(LABELS), rng.choice(("a", "b", "c", "uid"))
    name = f"i_{label}_{key}"
    run.rows(f"CREATE INDEX {name} IF NOT EXISTS FOR (n:{label}) ON (n.{key})")
    try:
        rows = run.rows(base)
    finally:
        run.rows(f"DROP INDEX {name} IF EXISTS")
    if isinstance(rows, str):
        return [base], f"with an index on :{label}({key}) it raised {rows}"
    return [base], None if _bag(rows) == _bag(whole) else f"an index on :{label}({key}) changed the rows"


ARROW = re.compile(r"(<-\[[^\]]*\]-|-\[[^\]]*\]->|-\[[^\]]*\]-|<--|-->|--)")


def reverse_pattern(pattern: str) -> str:
    """The same path pattern written from its other end: nodes in reverse order, every arrow turned."""
    pieces = ARROW.split(pattern)
    turned = []
    for piece in reversed(pieces):
        if piece.startswith("<-"):
            turned.append("-" + piece[2:] + ">" if piece != "<--" else "-->")
        elif piece.endswith("->"):
            turned.append("<-" + piece[1:-2] + "-" if piece != "-->" else "<--")
        else:
            turned.append(piece)
    return "".join(turned)


def reversed_direction(rng: random.Random, gen: QueryGenerator, run: Runner) -> tuple[list[str], str | None] | None:
    scope = Scope()
    features: set[str] = set()
    pattern = gen.pattern(scope, features)
    if "=" in pattern:  # a named path's value depends on its direction
        pattern = pattern.split("=", 1)[1].strip()
        scope.variables = {name: kind for name, kind in scope.variables.items() if kind != "path"}
    items = _return_items(gen, scope)
    return _same_bag(run, f"MATCH {pattern} RETURN {items}", f"MATCH {reverse_pattern(pattern)} RETURN {items}")


def _same_bag(run: Runner, base: str, derived: str) -> tuple[list[str], str | None] | None:
    whole = run.rows(base)
    if isinstance(whole, str):
        return None
    rows = run.rows(derived)
    if isinstance(rows, str):
        return [base, derived], f"the derived query raised {rows}"
    if _bag(rows) != _bag(whole):
        return [base, derived], f"{len(rows)} rows against {len(whole)}"
    return [base, derived], None


RELATIONS: dict[str, Check] = {
    "tlp-where": tlp_where, "tlp-union": tlp_union, "tlp-aggregate": tlp_aggregate, "with-star": with_star,
    "distinct": distinct, "order-by": ordered, "count-collect": count_is_size_of_collect, "index": indexed,
    "direction": reversed_direction,
}


def run_checks(seed: str, checks: int, *, checks_per_graph: int = 25) -> Tally:
    """`checks` metamorphic checks, each relation in turn, over graphs generated from `seed`."""
    tally = Tally()
    names = list(RELATIONS)
    graph_index = 0
    while tally.checks < checks:
        rng = random.Random(f"metamorphic:{seed}:{graph_index}")
        graph = generate_graph(rng)
        gen = QueryGenerator(rng, graph)
        runner = Runner(graph, tally)
        try:
            for _ in range(min(checks_per_graph, checks - tally.checks)):
                name = names[tally.checks % len(names)]
                tally.checks += 1
                tally.per_relation[name] += 1
                try:
                    outcome = RELATIONS[name](rng, gen, runner)
                except InternalError as error:
                    tally.violations.append(Violation(name, graph.create_statement(), [], f"internal error: {error}"))
                    continue
                if outcome is None:
                    tally.skipped += 1
                    continue
                queries, detail = outcome
                if detail is not None:
                    tally.violations.append(Violation(name, graph.create_statement(), queries, detail))
        finally:
            runner.close()
        graph_index += 1
    return tally
