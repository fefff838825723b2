"""`cookbook serve` ends within a second of SIGTERM, SIGINT or its stdio client closing stdin, even while a
runaway statement runs, and the file it held opens at once with nothing of that statement (issue 32,
item 2). Its statements have a default timeout."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[2]
RUNAWAY = "MATCH (a), (b), (c), (d) RETURN count(*) AS c"


def message(method: str, params: dict, ident: int | None = None) -> str:
    body = {"jsonrpc": "2.0", "method": method, "params": params}
    if ident is not None:
        body["id"] = ident
    return json.dumps(body) + "\n"


def start_with_runaway(path: Path, *extra: str) -> subprocess.Popen:
    with engine.connect(str(path)) as db:
        db.execute("UNWIND range(1, 3000) AS i CREATE (:N {i: i})")
    server = subprocess.Popen([sys.executable, "-m", "runner", "serve", "--db", str(path), *extra], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(message("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                              "clientInfo": {"name": "t", "version": "1"}}, 1))
    server.stdin.flush()
    assert json.loads(server.stdout.readline())["id"] == 1
    server.stdin.write(message("notifications/initialized", {}))
    server.stdin.write(message("tools/call", {"name": "write_cypher", "arguments": {
        "statement": f"CREATE (:Doomed) WITH 1 AS x {RUNAWAY}"}}, 2))
    server.stdin.flush()
    time.sleep(1.5)  # the statement is running
    assert server.poll() is None
    return server


@pytest.mark.parametrize("stop", ["SIGTERM", "SIGINT", "close stdin"])
def test_serve_ends_while_a_statement_runs(tmp_path, stop):
    """The runaway statement never ends by itself (no timeout), so a server that ends at all stopped it rather
    than waiting for it: no clock bound, which a loaded machine would break."""
    path = tmp_path / "g.rl"
    server = start_with_runaway(path, "--timeout", "0")
    if stop == "close stdin":
        assert server.stdin is not None
        server.stdin.close()
    else:
        server.send_signal(getattr(signal, stop))
    server.wait(timeout=30)  # raises if the server is still running then
    with engine.connect(str(path)) as db:  # the lock is free, and the statement left nothing
        assert db.execute("MATCH (n:Doomed) RETURN count(*) AS c").fetchall() == [(0,)]


def test_serve_has_a_default_statement_timeout():
    done = subprocess.run([sys.executable, "-m", "runner", "serve", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert "default: 30.0; 0: no limit" in " ".join(done.stdout.split())
