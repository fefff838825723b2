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


def test_a_file_a_program_holds_without_serving_it_is_database_locked_with_its_pid(tmp_path):
    """The engine's own processes share a file (ADR-0055); DuckDB itself holding it does not."""
    path = tmp_path / "held.rl"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('ready', flush=True);"
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


FULL_DISK = """
import os, resource, signal, sys
import engine
path = sys.argv[1]
db = engine.connect(path)
db.execute("CREATE (:A {x: 1})")
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past the limit a write fails (EFBIG), as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (os.path.getsize(path) + 4096, resource.RLIM_INFINITY))
try:
    db.execute("UNWIND range(1, 20000) AS i CREATE (:B {newkey: 'x' + toString(i) + 'yyyyyyyyyyyyyyyyyyyyyyyy'})")
    print("no error")
except engine.StorageError as error:
    print("StorageError", error.message)
resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
print(db.execute("MATCH (n) RETURN count(*) AS c").fetchall())
print(db.execute("MATCH (n:B) RETURN count(n.newkey) AS c").fetchall())
print(sorted(db.schema()["node_properties"].items()))
print(db.execute("CREATE (:C {newkey: 1}) WITH 1 AS one MATCH (c:C) RETURN c.newkey AS k").fetchall())
"""


def test_a_commit_that_cannot_write_the_file_is_a_storage_error_and_leaves_the_catalog_right(tmp_path):
    done = subprocess.run([sys.executable, "-c", FULL_DISK, str(tmp_path / "full.rl")], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("StorageError the database file could not be written (")
    assert "File too large" in lines[0] and "rolled back" in lines[0]
    # nothing of the statement remains, its new key included, and the next statement writes and reads
    assert lines[1:] == ["[(1,)]", "[(0,)]", "[('A', ['x'])]", "[(1,)]"]


def test_two_connections_to_one_file_in_one_process_see_each_others_keys(tmp_path):
    path = str(tmp_path / "two.rl")
    with engine.connect(path) as first, engine.connect(path) as second:
        first.execute("CREATE (:N {extra: 1})")
        assert second.execute("MATCH (n:N) RETURN n.extra AS x").fetchall() == [(1,)]
        assert second.execute("MATCH (n) WHERE n.extra IS NULL RETURN count(*) AS c").fetchall() == [(0,)]
        second.execute("CREATE (:M {other: 2})")  # failed: "column p0 already exists"
        assert sorted(first.execute("MATCH (n) RETURN n.other AS o, n.extra AS e").fetchall(), key=str) == [
            (2, None), (None, 1)]
        assert first.schema()["node_properties"] == {"M": ["other"], "N": ["extra"]}
        # a read compiled and kept before the other connection's write is compiled again
        assert first.execute("MATCH (n:N) RETURN count(n.later) AS c").fetchall() == [(0,)]
        second.execute("MATCH (n:N) SET n.later = 5")
        assert first.execute("MATCH (n:N) RETURN count(n.later) AS c").fetchall() == [(1,)]
