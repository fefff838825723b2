"""The runtime macros' cache file (ADR-0031): built once, attached after that, and never needed for correctness."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.execute import runtime_catalog

# Equality across integer and float, in a list: the runtime macro cy_eq decides it.
NEEDS_MACROS = "RETURN [1, 'a'] = [1.0, 'a'] AS same, toString(datetime('2026-03-02T09:00Z')) AS at"
ANSWER = [(True, "2026-03-02T09:00:00Z")]


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


def test_the_first_connection_builds_the_file_and_later_ones_attach_it(cache_home: Path, tmp_path: Path):
    with engine.connect(str(tmp_path / "graph.duckdb")) as db:
        assert db.execute(NEEDS_MACROS).rows == ANSWER
    built = runtime_catalog.catalog_path()
    assert built.parent == cache_home / "cookbook" and built.exists()
    stamp = built.stat().st_mtime_ns
    with engine.connect(str(tmp_path / "graph.duckdb")) as db:
        assert db.execute(NEEDS_MACROS).rows == ANSWER
    assert built.stat().st_mtime_ns == stamp
    assert [p.name for p in built.parent.iterdir()] == [built.name]  # no partial file left behind


def test_the_macros_stay_out_of_the_users_file(cache_home: Path, tmp_path: Path):
    import duckdb

    with engine.connect(str(tmp_path / "graph.duckdb")) as db:
        db.execute("CREATE (:A {x: 1})")
    with duckdb.connect(str(tmp_path / "graph.duckdb")) as plain:
        names = plain.execute("SELECT function_name FROM duckdb_functions() WHERE starts_with(function_name, 'cy_')"
                              ).fetchall()
    assert names == []


def test_a_corrupt_file_is_built_again(cache_home: Path, tmp_path: Path):
    path = runtime_catalog.catalog_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a database" * 100)
    with engine.connect(str(tmp_path / "graph.duckdb")) as db:
        assert db.execute(NEEDS_MACROS).rows == ANSWER
    assert path.read_bytes()[:14] != b"not a database"


def test_a_cache_that_cannot_be_written_leaves_the_macros_made_in_memory(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    with engine.connect(str(tmp_path / "graph.duckdb")) as db:
        assert db.execute(NEEDS_MACROS).rows == ANSWER


def test_the_in_memory_host_attaches_the_file_too(cache_home: Path):
    code = ("import engine; from engine import host, limits; db = engine.connect();"
            f" print(db.execute({NEEDS_MACROS!r}).rows, host.host(limits.default_memory_limit()).macros)")
    for _ in range(2):  # the first process builds the file, the second attaches it
        env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
        output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
        assert output.stdout.strip() == f"{ANSWER!r} {runtime_catalog.SCHEMA}"
    assert runtime_catalog.catalog_path().exists()
