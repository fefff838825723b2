"""A file database across processes, as the agent's story uses it: session 1 writes `agent.rl` and exits,
session 2 is a new process that recalls from it. And a second process while the first still holds the
file: it works through the first (ADR-0055), or, when the holder is a program that does not serve the
file, gets a clear error naming it.

The sessions run in real subprocesses with nothing but `engine`; their statements are the cookbook
page's cells, and the recall's rows are checked against that cell's recorded table.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

import engine
from runner.render import render_table
from runner.result import CellResult
from runner.serving.database import DatabaseInUse, open_database
from tests.runner.helpers import ROOT, agent_memory_page, recorded_text

RUN_CELLS = """
import json, sys
import engine
from runner.render import render_table
from runner.result import CellResult

job = json.load(sys.stdin)
with engine.connect(job["database"]) as db:
    for text, params in job["cells"]:
        results = db.execute_script(text, params)
print(render_table(CellResult.from_results(results)), end="")
"""
"""A session: open the file, run the given cells, print the last one's result as a table, exit."""

HOLD = """
import sys, engine
db = engine.connect(sys.argv[1])
db.execute("CREATE (:Session {id: 'session-1'})")
print("holding", flush=True)
sys.stdin.read()
"""
"""Open the file, write, and keep it open until stdin closes (or the process is killed)."""


def session(database, *cells: str) -> str:
    page = agent_memory_page()
    job = {"database": str(database),
           "cells": [(page.cell(name).text, page.params_for(page.cell(name))) for name in cells]}
    done = subprocess.run([sys.executable, "-c", RUN_CELLS], input=json.dumps(job), capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_session_2_recalls_what_session_1_wrote_in_another_process(tmp_path):
    database = tmp_path / "agent.rl"
    page = agent_memory_page()
    assert session(database, "schema", "session-1") == recorded_text(page, "session-1")
    assert database.is_file()
    assert session(database, "recall") == recorded_text(page, "recall")
    assert session(database, "labels") == recorded_text(page, "labels")


def hold(database) -> subprocess.Popen:
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(database)], cwd=ROOT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert holder.stdout.readline() == "holding\n"
    return holder


def test_a_second_process_uses_the_file_through_the_process_that_holds_it(tmp_path):
    """ADR-0055: the holder serves the file; a second process reads and writes through it, and when the
    holder exits, the second one opens the file itself and has every write of both."""
    database = tmp_path / "agent.rl"
    holder = hold(database)
    try:
        connection = open_database(str(database))
        assert connection.holder_pid == holder.pid
        assert connection.execute("MATCH (s:Session) RETURN s.id AS id").fetchall() == [("session-1",)]
        assert connection.execute("CREATE (:Session {id: 'session-2', turn: 2})").counters["nodes_created"] == 1
        with pytest.raises(engine.CypherSyntaxError, match=r"line 1, column 8"):
            connection.execute("MATCH (")
        with pytest.raises(engine.CypherSyntaxError) as raised:  # a position the message names comes along
            connection.execute("MATCH (n RETURN n")
        assert [(span.line, span.column) for span in raised.value.related] == [(1, 7)]
    finally:
        holder.stdin.close()
        assert holder.wait(timeout=60) == 0
    rows = connection.execute("MATCH (s:Session) RETURN s.id AS id, s.turn AS turn ORDER BY id").fetchall()
    assert rows == [("session-1", None), ("session-2", 2)]
    assert connection.holder_pid is None  # it holds the file now
    connection.close()


RAW_HOLD = """
import sys, duckdb
db = duckdb.connect(sys.argv[1])
print("holding", flush=True)
sys.stdin.read()
"""
"""A program that holds the file and does not serve it (DuckDB itself)."""


def test_a_file_held_by_a_process_that_does_not_serve_it_is_a_clear_error(tmp_path):
    database = tmp_path / "agent.rl"
    engine.connect(str(database)).close()
    holder = subprocess.Popen([sys.executable, "-c", RAW_HOLD, str(database)], cwd=ROOT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert holder.stdout.readline() == "holding\n"
    try:
        with pytest.raises(DatabaseInUse) as in_use:
            open_database(str(database))
        assert in_use.value.pid == holder.pid
        assert str(in_use.value).startswith(f"cannot open the database {database}: it is open in another "
                                            f"process (PID {holder.pid}), which holds it for writing")
    finally:
        holder.stdin.close()
        assert holder.wait(timeout=60) == 0
    with open_database(str(database)) as connection:
        assert connection.execute("MATCH (n) RETURN count(n) AS n").fetchall() == [(0,)]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_killed_writer_leaves_a_file_the_next_process_opens_whole(tmp_path):
    database = tmp_path / "agent.rl"
    holder = hold(database)
    os.kill(holder.pid, signal.SIGKILL)  # no close, no checkpoint: only the write-ahead log has the write
    holder.wait(timeout=60)
    holder.stdout.close()
    holder.stdin.close()
    with open_database(str(database)) as connection:
        result = connection.execute("MATCH (s:Session) RETURN s.id AS id")
        assert render_table(CellResult.from_results([result])) == (
            '| id          |\n|-------------|\n| "session-1" |\n1 row\n')
