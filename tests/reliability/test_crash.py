"""Crash safety, short form: a few SIGKILLed writers on one file (long form: `python -m
tests.reliability.long --crash-trials N`). See `crash.py` for the plan and the check."""

from __future__ import annotations

from tests.reliability.crash import run_trials


def test_killed_writers_leave_whole_statements(tmp_path):
    results = run_trials(tmp_path, trials=3, seed=7, max_delay=0.5, min_acks=2)
    assert len(results) == 3
    assert sum(result.committed for result in results) > 0, "the writers committed nothing before the kills"
