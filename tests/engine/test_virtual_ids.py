"""Ids of virtual nodes and relationships made from rows (ADR-0074): unique within the statement however
many calls, clauses and list elements make them, and the same from run to run over rows DuckDB scans in
parallel."""

from __future__ import annotations

import engine


def test_ids_repeat_from_run_to_run_over_many_rows() -> None:
    with engine.connect(":memory:") as db:
        db.execute("UNWIND range(1, 20000) AS i CREATE (:P {i: i})")
        query = "MATCH (p:P) WITH p, apoc.create.vNode(['V'], {i: p.i}) AS v RETURN p.i AS i, id(v) AS id"
        first = dict(db.execute(query).fetchall())
        assert dict(db.execute(query).fetchall()) == first
        assert sorted(first.values()) == list(range(-20000, 0))


def test_ids_are_unique_across_calls_clauses_and_list_elements() -> None:
    with engine.connect(":memory:") as db:
        rows = db.execute(
            "UNWIND [1, 1, 2] AS x "
            "WITH x, apoc.create.vNode(['A'], {x: x}) AS a "
            "WITH x, a, apoc.create.vNode(['B'], {x: x}) AS b, [y IN [x, x] | apoc.create.vNode(['C'], {y: y})] AS cs "
            "RETURN a, b, cs, apoc.create.vRelationship(a, 'R', {}, b) AS r").fetchall()
        nodes = [node.id for a, b, cs, _ in rows for node in (a, b, *cs)]
        assert len(set(nodes)) == len(nodes) == 12 and all(i < 0 for i in nodes)
        assert len({r.id for *_, r in rows}) == 3
        assert all((r.start, r.end) == (a.id, b.id) for a, b, _, r in rows)
