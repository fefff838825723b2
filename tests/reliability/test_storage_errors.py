"""Opening a database file that cannot be opened raises an engine error naming the path, the reason and
what to do, never DuckDB's own exception (issue 32, item 8)."""

from __future__ import annotations

import subprocess
import sys

import duckdb
import pytest

import engine


def test_a_file_that_is_not_a_database_is_database_corrupt(tmp_path):
    path = tmp_path / "junk.rl"
    path.write_bytes(b"not a database at all" * 100)
    with pytest.raises(engine.DatabaseCorrupt) as raised:
        engine.connect(str(path))
    assert not isinstance(raised.value, duckdb.Error)
    assert str(path) in str(raised.value) and "restore it from a copy" in str(raised.value)


def test_a_cut_database_file_is_database_corrupt(tmp_path):
    whole = tmp_path / "whole.rl"
    with engine.connect(str(whole)) as db:
        db.execute("CREATE (:A {x: 1})")
    cut = tmp_path / "cut.rl"
    cut.write_bytes(whole.read_bytes()[:5000])
    with pytest.raises(engine.DatabaseCorrupt):
        engine.connect(str(cut))


def test_a_missing_directory_is_database_unreadable(tmp_path):
    with pytest.raises(engine.DatabaseUnreadable, match="no such file or directory") as raised:
        engine.connect(str(tmp_path / "missing" / "db.rl"))
    assert isinstance(raised.value, engine.CypherError)


def test_a_directory_is_database_unreadable(tmp_path):
    with pytest.raises(engine.DatabaseUnreadable, match="is a directory"):
        engine.connect(str(tmp_path))


def test_a_file_another_process_holds_is_database_locked_with_its_pid(tmp_path):
    path = tmp_path / "held.rl"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import engine, sys, time; c = engine.connect(sys.argv[1]); print('ready', flush=True);"
         " time.sleep(60)", str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        with pytest.raises(engine.DatabaseLocked) as raised:
            engine.connect(str(path))
        assert raised.value.pid == holder.pid
        assert f"PID {holder.pid}" in str(raised.value) and "try again" in str(raised.value)
    finally:
        holder.kill()
        holder.wait()
