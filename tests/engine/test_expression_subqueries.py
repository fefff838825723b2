"""EXISTS / COUNT / COLLECT subqueries: the cases the conformance page
`tests/conformance/expression-subqueries.md` found the engine getting wrong. A COUNT over a distinct UNION
may not omit its RETURN, and a COLLECT may not end with `RETURN *` (Neo4j's semantic checks for
CountExpression and CollectExpression)."""

from __future__ import annotations

import pytest

import engine

GRAPH = "CREATE (p:Person)-[:HAS_DOG]->(:Dog), (p)-[:HAS_DOG]->(:Dog), (p)-[:HAS_CAT]->(:Cat)"


def run(query: str) -> list[tuple]:
    with engine.connect(":memory:") as db:
        db.execute(GRAPH)
        return db.execute(query).fetchall()


def error(query: str) -> tuple[str, str | None]:
    with pytest.raises(engine.CypherError) as raised:
        run(query)
    return raised.value.kind, raised.value.detail


def test_count_over_a_distinct_union_needs_its_return() -> None:
    query = "MATCH (p:Person) RETURN COUNT { MATCH (p)-[:HAS_DOG]->() UNION MATCH (p)-[:HAS_CAT]->() } AS n"
    assert error(query) == ("SyntaxError", "InvalidClauseComposition")


@pytest.mark.parametrize(("union", "expected"), [
    ("UNION ALL MATCH (p)-[:HAS_CAT]->()", 3),
    ("RETURN 'pet' AS k UNION MATCH (p)-[:HAS_CAT]->() RETURN 'pet' AS k", 1),
])
def test_count_over_union_all_or_with_return_still_runs(union: str, expected: int) -> None:
    assert run(f"MATCH (p:Person) RETURN COUNT {{ MATCH (p)-[:HAS_DOG]->() {union} }} AS n") == [(expected,)]


def test_exists_over_a_distinct_union_may_omit_its_return() -> None:
    query = "MATCH (p:Person) RETURN EXISTS { MATCH (p)-[:HAS_DOG]->() UNION MATCH (p)-[:HAS_CAT]->() } AS e"
    assert run(query) == [(True,)]


@pytest.mark.parametrize("query", [
    "RETURN COLLECT { MATCH (c:Cat) RETURN * } AS x",
    "MATCH (p:Person) RETURN COLLECT { MATCH (p)-[:HAS_CAT]->(c) RETURN * } AS x",
])
def test_collect_may_not_return_star(query: str) -> None:
    assert error(query) == ("SyntaxError", "InvalidNumberOfColumns")


# -- run once for all outer rows (ADR-0038) ---------------------------------------------------------------

PETS = """CREATE (a:Person {name: 'Andy'}), (t:Person {name: 'Tim'}), (p:Person {name: 'Pete'}),
(a)-[:HAS]->(:Pet {name: 'Rex', age: 3}), (a)-[:HAS]->(:Pet {name: 'Bo', age: 5}),
(p)-[:HAS]->(f:Pet {name: 'Fido', age: 5}), (p)-[:HAS]->(:Pet {name: 'Ozzy', age: 1}),
(f)-[:HAS]->(:Toy {name: 'Ball'}), (f)-[:HAS]->(:Toy {name: 'Bone'}), (t)-[:KNOWS]->(a), (t)-[:KNOWS]->(p),
(p)-[:KNOWS]->(a)"""

# The outer rows repeat Andy as `n` and Tim as `x`, and hold a null where no one is known.
OUTER = "MATCH (x:Person) OPTIONAL MATCH (x)-[:KNOWS]->(n) WITH x, n"

SUBQUERIES = [
    "COLLECT { MATCH (n)-[:HAS]->(d) RETURN d.name ORDER BY d.name }",
    "COLLECT { MATCH (n)-[:HAS]->(d) WITH d ORDER BY d.age DESC, d.name RETURN d.name }",
    "COLLECT { MATCH (n)-[:HAS]->(d) RETURN DISTINCT d.age ORDER BY d.age }",
    "COLLECT { MATCH (n)-[:HAS]->(d) WITH d WHERE d.age > 2 RETURN d.name + ' of ' + x.name ORDER BY d.name }",
    "COLLECT { MATCH (n)-[:HAS]->(d) RETURN {pet: d.name,"
    " toys: COLLECT { MATCH (d)-[:HAS]->(toy) RETURN toy.name ORDER BY toy.name }} ORDER BY d.name }",
    "COLLECT { UNWIND [1, 2] AS i MATCH (n)-[:HAS]->(d) WHERE d.age > i RETURN d.name ORDER BY i, d.name }",
    "COUNT { (n)-[:HAS]->() }",
    "COUNT { MATCH (n)-[:HAS]->(d) OPTIONAL MATCH (d)-[:HAS]->(toy) RETURN toy }",
    "EXISTS { (n)-[:HAS]->(:Pet {age: 5}) }",
    "EXISTS { MATCH (n)-[:HAS]->(d) WHERE size(d.name) < size(x.name) }",
]


def correlated(subquery: str) -> str:
    """The same subquery, kept per outer row by a LIMIT that cuts nothing."""
    if subquery.startswith("COLLECT"):
        return subquery[:-2] + " LIMIT 100 }"
    body = subquery[subquery.index("{") + 1:-1].strip()
    match = body if body.startswith("MATCH") else f"MATCH {body}"
    returns = "" if " RETURN " in match else " RETURN 1 AS one"
    return f"{subquery[:subquery.index('{')]}{{ {match}{returns} LIMIT 100 }}"


@pytest.mark.parametrize("subquery", SUBQUERIES)
def test_a_subquery_run_for_all_rows_answers_as_one_run_per_row(subquery: str) -> None:
    with engine.connect(":memory:") as db:
        db.execute(PETS)
        query = f"{OUTER} RETURN x.name AS x, n.name AS n, {{}} AS value ORDER BY x, n"
        shared = query.format(subquery)
        _, trace = db.explain(shared)
        assert "MATERIALIZED" in trace[-1][0]  # it did run once for all rows
        _, trace = db.explain(query.format(correlated(subquery)))
        assert "MATERIALIZED" not in trace[-1][0]
        rows = db.execute(shared).fetchall()
        assert rows == db.execute(query.format(correlated(subquery))).fetchall()
        assert [row[:2] for row in rows] == [("Andy", None), ("Pete", "Andy"), ("Tim", "Andy"), ("Tim", "Pete")]


def test_subqueries_importing_the_same_variables_share_one_distinct_of_them() -> None:
    """Every subquery above in one RETURN: those importing `n` run over one CTE of its distinct values, the
    one importing `n` and `x` over another, the nested one (importing `d`) over a third; each answers as
    when run per row."""
    with engine.connect(":memory:") as db:
        db.execute(PETS)
        query = f"{OUTER} RETURN x.name AS x, n.name AS n, " + ", ".join(
            f"{{}} AS v{i}" for i in range(len(SUBQUERIES))) + " ORDER BY x, n"
        shared = query.format(*SUBQUERIES)
        _, trace = db.explain(shared)
        assert trace[-1][0].count(" AS (SELECT DISTINCT ") == 3
        assert db.execute(shared).fetchall() == db.execute(query.format(*map(correlated, SUBQUERIES))).fetchall()


@pytest.mark.parametrize("subquery", [
    "COLLECT { MATCH (n)-[:HAS]->(d) RETURN count(*) }",  # [0] for a row with no pets, not []
    "COLLECT { MATCH (n)-[:HAS]->(d) RETURN rand() < 2 }",
])
def test_subqueries_that_combine_rows_or_call_rand_stay_per_row(subquery: str) -> None:
    with engine.connect(":memory:") as db:
        db.execute(PETS)
        query = f"{OUTER} RETURN x.name AS x, n.name AS n, {subquery} AS value ORDER BY x, n"
        _, trace = db.explain(query)
        assert "MATERIALIZED" not in trace[-1][0]
        # Andy knows no one; Pete knows Andy, Tim knows both, who have two pets each
        assert [row[2] for row in db.execute(query).fetchall()] == (
            [[0], [2], [2], [2]] if "count" in subquery else [[], [True, True], [True, True], [True, True]])


@pytest.mark.parametrize(("subquery", "expected"), [
    # which pet a LIMIT or SKIP keeps decides the count: the subquery's own ORDER BY, else its MATCH's order
    ("COUNT { MATCH (n)-[:HAS]->(d) WITH d ORDER BY d.age DESC LIMIT 1 MATCH (d)-[:HAS]->(toy) RETURN toy }",
     [0, 0, 0, 2]),
    ("COUNT { MATCH (n)-[:HAS]->(d) WITH d LIMIT 1 MATCH (d)-[:HAS]->(toy) RETURN toy }", [0, 0, 0, 0]),
    ("COUNT { MATCH (n)-[:HAS]->(d) WITH d SKIP 1 MATCH (d)-[:HAS]->(toy) RETURN toy }", [0, 0, 0, 2]),
    ("EXISTS { MATCH (n)-[:HAS]->(d) WITH d ORDER BY d.age LIMIT 1 MATCH (d)-[:HAS]->() }",
     [False, False, False, False]),
    ("COUNT { MATCH (n)-[:HAS]->(d) WITH d, COLLECT { MATCH (d)-[:HAS]->(t) RETURN t.name ORDER BY t.name DESC }"
     " AS names WHERE names[0] = 'Bone' RETURN d }", [0, 0, 0, 1]),
])
def test_count_and_exists_keep_the_order_their_own_clauses_read(subquery: str, expected: list) -> None:
    """A COUNT's or EXISTS's rows are never read in order (their plan builds no order for it), but a clause
    inside that picks rows by order, or a COLLECT inside, still sees it: per row and run once for all rows."""
    with engine.connect(":memory:") as db:
        db.execute(PETS)
        query = f"{OUTER} RETURN x.name AS x, n.name AS n, {{}} AS value ORDER BY x, n"
        assert [row[2] for row in db.execute(query.format(subquery)).fetchall()] == expected
        assert [row[2] for row in db.execute(query.format(correlated(subquery))).fetchall()] == expected


def test_a_count_of_unwound_rows_counts_repeated_elements() -> None:
    with engine.connect(":memory:") as db:
        db.execute(PETS)
        query = (f"{OUTER} RETURN x.name AS x, n.name AS n,"
                 " COUNT { UNWIND [1, 1, 2] AS i MATCH (n)-[:HAS]->(d) WHERE d.age > i RETURN d } AS value"
                 " ORDER BY x, n")
        assert [row[2] for row in db.execute(query).fetchall()] == [0, 6, 6, 3]
