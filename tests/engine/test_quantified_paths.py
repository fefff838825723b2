"""Quantified path patterns: the cases the conformance page `tests/conformance/quantified-paths.md` found the
engine getting wrong. Neo4j rejects a quantifier limited by 0, a path pattern that may be empty, a bound larger
than Long.MAX_VALUE and `-[*]-` mixed with quantified patterns in one graph pattern; a node pattern after a group
may read the group's variables as lists."""

from __future__ import annotations

import pytest

import engine

CHAIN = "CREATE (:S {n: 1})-[:N {d: 0.5}]->(:S {n: 2})-[:N {d: 0.5}]->(:S {n: 3})-[:N {d: 2.0}]->(:S {n: 4})"


@pytest.mark.parametrize(("query", "detail"), [
    ("MATCH (s:S) ((a)-[:N]->(b)){0} RETURN count(*) AS c", "InvalidQuantifier"),
    ("MATCH (s:S) ((a)-[:N]->(b)){,0} RETURN count(*) AS c", "InvalidQuantifier"),
    ("MATCH (s:S)-[:N]->{0}(t) RETURN count(*) AS c", "InvalidQuantifier"),
    ("MATCH ((a)-[:N]->(b)){0,10} RETURN count(*) AS c", "InvalidQuantifiedPath"),
    ("MATCH ((a)-[:N]->(b))* RETURN count(*) AS c", "InvalidQuantifiedPath"),
    ("MATCH ((a)-[:N]->(b)){0,}((c)-[:N]->(d)){0,} RETURN count(*) AS c", "InvalidQuantifiedPath"),
    ("MATCH (a)-[:N]->{9223372036854775808}(b) RETURN count(*) AS c", "IntegerOverflow"),
    ("MATCH (a)-[:N]->{1,9223372036854775808}(b) RETURN count(*) AS c", "IntegerOverflow"),
    ("MATCH (x)-[:N*]->(y) ((a)-[:N]->(b))+ RETURN count(*) AS c", "InvalidVariableLengthRelationship"),
    ("MATCH (x)-[:N*]->(y), (a)-[:N]->+(b) RETURN count(*) AS c", "InvalidVariableLengthRelationship"),
])
def test_invalid_quantified_patterns(query: str, detail: str) -> None:
    with engine.connect(":memory:") as db, pytest.raises(engine.CypherError) as raised:
        db.execute(query)
    assert (raised.value.kind, raised.value.detail) == ("SyntaxError", detail)


@pytest.mark.parametrize(("query", "count"), [
    ("MATCH ((a)-[:N]->(b)){0,}((c)-[:N]->(d)){1,} RETURN count(*) AS c", 10),
    ("MATCH (x:S) ((a)-[:N]->(b)){0,} RETURN count(*) AS c", 10),
    ("MATCH (x)-[:N*]->(y) MATCH (a)-[:N]->{1}(b) RETURN count(*) AS c", 18),
    ("MATCH (a)-[:N]->{1,9223372036854775807}(b) RETURN count(*) AS c", 6),
])
def test_valid_quantified_patterns_still_run(query: str, count: int) -> None:
    with engine.connect(":memory:") as db:
        db.execute(CHAIN)
        assert db.execute(query).fetchall() == [(count,)]


def test_a_node_after_a_group_reads_the_group_variables() -> None:
    with engine.connect(":memory:") as db:
        db.execute(CHAIN)
        rows = db.execute("MATCH (a:S)-[r:N]->+(b:S WHERE all(x IN r WHERE x.d < 1.0)) "
                          "RETURN a.n AS a, b.n AS b ORDER BY a, b").fetchall()
        assert rows == [(1, 2), (1, 3), (2, 3)]
