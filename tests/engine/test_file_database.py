"""A file database across processes, as the agent's story uses it: session 1 writes `agent.rl` and exits,
session 2 is a new process that recalls from it. And what a second process gets while the first still
holds the file: a clear error at once (never a wait, never a half-written graph), after which the
first process's data is intact.

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
from runner.mcp.database import DatabaseInUse, open_database
from runner.render import render_table
from runner.result import CellResult
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


def test_a_second_process_gets_a_clear_error_while_the_first_holds_the_file(tmp_path):
    database = tmp_path / "agent.rl"
    holder = hold(database)
    try:
        with pytest.raises(DatabaseInUse) as in_use:
            open_database(str(database))
        assert in_use.value.pid == holder.pid
        assert str(in_use.value).startswith(f"cannot open the database {database}: it is open in another "
                                            f"process (PID {holder.pid}), which holds it for writing")
        with pytest.raises(engine.DatabaseLocked, match="which holds it for writing"):  # engine.connect's own
            engine.connect(str(database))
    finally:
        holder.stdin.close()
        assert holder.wait(timeout=60) == 0
    with open_database(str(database)) as connection:
        rows = connection.execute("MATCH (s:Session) RETURN s.id AS id").fetchall()
    assert rows == [("session-1",)]


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
