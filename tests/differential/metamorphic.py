"""Metamorphic checks: relations between queries that must hold whatever the right answer is.

They need no oracle, so they run in CI on ours alone. A generated base query over a generated graph is
run once; each relation derives other queries from it whose answers follow from the base's rows:

- ternary logic partitioning (TLP): the rows of `WHERE p`, `WHERE NOT (p)` and `WHERE (p) IS NULL`
  together are the base's rows, as three statements and as one UNION ALL; for aggregates, `count`,
  `sum`, `min` and `max` of the whole are made from those of the three parts;
- a redundant `WITH *`, DISTINCT, an ORDER BY or an index change nothing but what they should;
- a path pattern written from its other end matches the same rows;
- `count(*)` and `size(collect(1))` are the number of rows.

Every derived statement is one metamorphic query (`Tally.queries`). A base query that raises is skipped
(counted); a derived one that raises while the base did not is a violation, as is an internal error.
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

Rows = list[tuple]


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
    bases: int = 0
    queries: int = 0
    """Derived statements run and checked: the metamorphic queries."""
    skipped: int = 0
    per_relation: Counter[str] = field(default_factory=Counter)
    violations: list[Violation] = field(default_factory=list)


class InternalError(Exception):
    pass


class Runner:
    """Runs statements on one connection holding one graph."""

    def __init__(self, graph: Graph) -> None:
        self.db = engine.connect(":memory:", timeout=20)
        self.db.execute(graph.create_statement())
        self.uid_of = {node.id: node.properties.get("uid") for (node,) in self.db.execute("MATCH (n) RETURN n")}

    def rows(self, text: str) -> Rows | str:
        """The canonical rows, or the error's kind (an internal error raises: it is always a violation)."""
        try:
            result = self.db.execute(text)
        except engine.CypherError as error:
            if error.detail == "Internal":
                raise InternalError(f"{text}\n  -> {error}") from error
            return f"{error.kind}: {error.detail}"
        return [tuple(from_ours(value, self.uid_of) for value in row) for row in result.rows]

    def close(self) -> None:
        self.db.close()


@dataclass
class Base:
    """A base query: reading clauses a WHERE may follow, the scope they bind, a RETURN body, and (when the
    clauses are one MATCH of one path) that path, which can be written from its other end."""

    match: str
    scope: Scope
    items: str
    columns: int
    path: str | None
    rows: Rows

    @property
    def text(self) -> str:
        return f"{self.match} RETURN {self.items}"


def base_query(gen: QueryGenerator) -> tuple[str, Scope, str, int, str | None]:
    scope = Scope()
    features: set[str] = set()
    patterns = [gen.pattern(scope, features) for _ in range(gen.rng.choice((1, 1, 2)))]
    match = "MATCH " + ", ".join(patterns)
    path = patterns[0] if len(patterns) == 1 and "=" not in patterns[0] else None
    if gen.rng.random() < 0.2:
        # WITH * lets a WHERE follow: an OPTIONAL MATCH's own WHERE would filter differently
        match += " " + gen.match(scope, features, optional=True) + " WITH *"
        path = None
    generator = gen.expressions(scope)
    items = []
    for index in range(gen.rng.choice((1, 1, 2, 3))):
        elements = scope.of("node", "rel")
        if elements and gen.rng.random() < 0.3:
            items.append(f"{gen.rng.choice(elements)} AS c{index}")
        else:
            kind = gen.rng.choice(("int", "str", "float", "bool", "list", "any"))
            items.append(f"{generator.of(kind, 1).text} AS c{index}")
    return match, scope, ", ".join(items), len(items), path


Outcome = tuple[list[str], str | None]
"""The derived queries a relation ran, and what was violated (None if the relation held)."""
Relation = Callable[[random.Random, QueryGenerator, Runner, Base], Outcome | None]
"""None: the relation does not apply to this base, or its derived queries all raise alike."""


def _bag(rows: Rows) -> Counter[str]:
    return Counter(map(repr, rows))


def _predicate(gen: QueryGenerator, scope: Scope) -> str:
    return gen.expressions(scope, in_where=True).predicate(gen.rng.choice((1, 1, 2))).text


def _partitions(match: str, p: str, body: str) -> list[str]:
    return [f"{match} WHERE {p} RETURN {body}", f"{match} WHERE NOT ({p}) RETURN {body}",
            f"{match} WHERE ({p}) IS NULL RETURN {body}"]


def _all_raise_alike(results: list[Rows | str]) -> bool:
    """A predicate that raises on some row raises in every partition alike: nothing to compare."""
    return all(isinstance(result, str) for result in results) and len(set(map(str, results))) == 1


def tlp_where(rng: random.Random, gen: QueryGenerator, run: Runner, base: Base) -> Outcome | None:
    queries = _partitions(base.match, _predicate(gen, base.scope), base.items)
    results = [run.rows(query) for query in queries]
    if _all_raise_alike(results):
        return None
    raised = [result for result in results if isinstance(result, str)]
    if raised:
        return queries, f"a partition raised {raised[0]}, the others did not"
    union = sum((_bag(result) for result in results), Counter())  # type: ignore[arg-type]
    if union != _bag(base.rows):
        return queries, f"the partitions hold {sum(union.values())} rows, the whole {len(base.rows)}"
    return queries, None


def tlp_union(rng: random.Random, gen: QueryGenerator, run: Runner, base: Base) -> Outcome | None:
    union = " UNION ALL ".join(_partitions(base.match, _predicate(gen, base.scope), base.items))
    return _same_rows(run, base, union)


def tlp_aggregate(rng: random.Random, gen: QueryGenerator, run: Runner, base: Base) -> Outcome | None:
    function = rng.choice(("count(*)", "count", "sum", "min", "max"))
    argument = gen.expressions(base.scope).of("int", 1).text
    aggregate = "count(*)" if function == "count(*)" else f"{function}({argument})"
    whole_query = f"{base.match} RETURN {aggregate} AS c0"
    queries = [whole_query, *_partitions(base.match, _predicate(gen, base.scope), f"{aggregate} AS c0")]
    results = [run.rows(query) for query in queries]
    if isinstance(results[0], str) or _all_raise_alike(results[1:]):
        return None
    raised = [result for result in results[1:] if isinstance(result, str)]
    if raised:
        return queries, f"a partition raised {raised[0]}, the others did not"
    combined = _combine(function, [result[0][0] for result in results[1:]])  # type: ignore[index]
    if combined != results[0][0][0]:  # type: ignore[index]
        return queries, f"the parts combine to {combined!r}, the whole is {results[0][0][0]!r}"  # type: ignore[index]
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
    return min(present, key=lambda v: v[1]) if function == "min" else max(present, key=lambda v: v[1])


def with_star(rng: random.Random, gen: QueryGenerator, run: Runner, base: Base) -> Outcome | None:
    return _same_rows(run, base, f"{base.match} WITH * RETURN {base.items}")


def distinct(rng: random.Random, gen: QueryGenerator, run: Runner, base: Base) -> Outcome | None:
    query = f"{base.match} RETURN DISTINCT {base.items}"
    rows = run.rows(query)
    if isinstance(rows, str):
        return [query], f"DISTINCT raised {rows}"
    if _bag(rows) != Counter(dict.fromkeys(_bag(base.rows), 1)):
        return [query], f"DISTINCT gave {len(rows)} rows for {len(set(map(repr, base.rows)))} distinct ones"
    return [query], None


def ordered(rng: random.Random, gen: QueryGenerator, run: Runner, base: Base) -> Outcome | None:
    keys = ", ".join(f"c{index}" + rng.choice(("", " DESC")) for index in range(base.columns))
    return _same_rows(run, base, f"{base.match} RETURN {base.items} ORDER BY {keys}")


def counted(rng: random.Random, gen: QueryGenerator, run: Runner, base: Base) -> Outcome | None:
    function = rng.choice(("count(*)", "size(collect(1))"))
    query = f"{base.match} RETURN {function} AS c0"
    rows = run.rows(query)
    if rows != [(("int", len(base.rows)),)]:
        return [query], f"{function} gave {rows!r} for {len(base.rows)} rows"
    return [query], None


def indexed(rng: random.Random, gen: QueryGenerator, run: Runner, base: Base) -> Outcome | None:
    label, key = rng.choice(LABELS), rng.choice(("a", "b", "c", "uid"))
    name = f"i_{label}_{key}"
    run.rows(f"CREATE INDEX {name} IF NOT EXISTS FOR (n:{label}) ON (n.{key})")
    try:
        return _same_rows(run, base, base.text)
    finally:
        run.rows(f"DROP INDEX {name} IF EXISTS")


ARROW = re.compile(r"(<-\[[^\]]*\]-|-\[[^\]]*\]->|-\[[^\]]*\]-|<--|-->|--)")


def reverse_pattern(pattern: str) -> str:
    """The same path pattern written from its other end: nodes in reverse order, every arrow turned."""
    turned = []
    for piece in reversed(ARROW.split(pattern)):
        if piece.startswith("<-"):
            turned.append("-->" if piece == "<--" else "-" + piece[2:] + ">")
        elif piece.endswith("->"):
            turned.append("<--" if piece == "-->" else "<-" + piece[1:-2] + "-")
        else:
            turned.append(piece)
    return "".join(turned)


def reversed_direction(rng: random.Random, gen: QueryGenerator, run: Runner, base: Base) -> Outcome | None:
    if base.path is None:
        return None
    return _same_rows(run, base, f"MATCH {reverse_pattern(base.path)} RETURN {base.items}")


def _same_rows(run: Runner, base: Base, query: str) -> Outcome:
    rows = run.rows(query)
    if isinstance(rows, str):
        return [query], f"it raised {rows}"
    if _bag(rows) != _bag(base.rows):
        return [query], f"{len(rows)} rows against the base's {len(base.rows)}"
    return [query], None


RELATIONS: dict[str, Relation] = {
    "tlp-where": tlp_where, "tlp-union": tlp_union, "tlp-aggregate": tlp_aggregate, "with-star": with_star,
    "distinct": distinct, "order-by": ordered, "count": counted, "index": indexed, "direction": reversed_direction,
}
RELATIONS_PER_BASE = 4


def run_checks(seed: str, queries: int, *, bases_per_graph: int = 12) -> Tally:
    """Metamorphic queries until at least `queries` have run, over graphs generated from `seed`; each base
    query is checked by `RELATIONS_PER_BASE` relations chosen at random."""
    tally = Tally()
    graph_index = 0
    while tally.queries < queries:
        rng = random.Random(f"metamorphic:{seed}:{graph_index}")
        graph = generate_graph(rng)
        gen = QueryGenerator(rng, graph)
        runner = Runner(graph)
        try:
            for _ in range(bases_per_graph):
                if tally.queries >= queries:
                    break
                _check_base(rng, gen, runner, graph, tally)
        finally:
            runner.close()
        graph_index += 1
    return tally


def _check_base(rng: random.Random, gen: QueryGenerator, runner: Runner, graph: Graph, tally: Tally) -> None:
    match, scope, items, columns, path = base_query(gen)
    tally.bases += 1
    try:
        rows = runner.rows(f"{match} RETURN {items}")
    except InternalError as error:
        tally.violations.append(Violation("base", graph.create_statement(), [], f"internal error: {error}"))
        return
    if isinstance(rows, str):
        tally.skipped += 1
        return
    base = Base(match, scope, items, columns, path, rows)
    for name in rng.sample(sorted(RELATIONS), RELATIONS_PER_BASE):
        try:
            outcome = RELATIONS[name](rng, gen, runner, base)
        except InternalError as error:
            tally.violations.append(Violation(name, graph.create_statement(), [base.text], f"internal error: {error}"))
            continue
        if outcome is None:
            continue
        derived, detail = outcome
        tally.queries += len(derived)
        tally.per_relation[name] += 1
        if detail is not None:
            tally.violations.append(Violation(name, graph.create_statement(), [base.text, *derived], detail))
