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
