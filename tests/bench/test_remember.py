"""bench/remember.py runs the seed's remember statements alike in the engine and in the hand SQL (on a small
agent-memory graph; the bench times them, this only checks that `measure` finds the same report rows and the
same graph on both sides, which it compares before reporting)."""

from __future__ import annotations

from bench.remember import measure
from bench.workloads import REMEMBER


def test_the_engine_and_the_hand_sql_remember_alike() -> None:
    result = measure(sessions=2, messages=200)
    assert len(result.cpu["ours"]) == len(result.cpu["hand"]) == 2
    assert len(result.statements) == len(REMEMBER)
    assert all(count > 0 for count in result.statements)
