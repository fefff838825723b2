"""bench/edge_list.py's reads answer alike in the engine and in the hand SQL over a bare edge list (on a small
graph; the bench times them, this only checks the answers, which `measure` compares before timing)."""

from __future__ import annotations

from bench.edge_list import READS, measure


def test_the_engine_and_the_hand_sql_agree_on_every_read() -> None:
    rows = measure(nodes=300, relationships=1500, runs=1)
    assert [row.name for row in rows] == [read.name for read in READS]
    assert all(row.answer > 0 for row in rows)
