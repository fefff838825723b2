"""Several processes on one database file while its holder is killed again and again (issue 32, ADR-0055).

Four workers use one file: two `cookbook serve` over stdio, one over HTTP, one script with `engine.connect`.
Each writes (a MERGE of an id of its own, so sending it again is harmless) and reads (`count` of what was
written, which must be at least every write acknowledged before the read was sent). Every `kill_every`
seconds the process that holds DuckDB's lock on the file (read from /proc/locks) is killed with SIGKILL
and started again; a call it had in flight is sent again to its successor. A call a surviving worker gets
back as a TransientError (DatabaseBusy, HolderLost) is sent again and counted as a busy retry. At the end
the file must hold every acknowledged write.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.reliability.load import free_port

ROOT = Path(__file__).resolve().parents[2]
WRITE = "MERGE (w:W {id: $id}) SET w.by = $by"
READ = "MATCH (w:W) RETURN count(*) AS c"
SCRIPT = """
import sys, engine
db = engine.connect(sys.argv[1], timeout=30)
print("ready", flush=True)
for line in sys.stdin:
    kind, _, ident = line.strip().partition(" ")
    try:
        if kind == "w":
            db.execute(sys.argv[2], {"id": ident, "by": "script"})
            print("ok", flush=True)
        else:
            print("ok", db.execute(sys.argv[3], read_only=True).fetchall()[0][0], flush=True)
    except engine.CypherError as error:
        print(error.kind, str(error).replace(chr(10), " "), flush=True)
"""
INITIALIZE = {"protocolVersion": "2025-06-18", "capabilities": {},
              "clientInfo": {"name": "shared", "version": "1"}}


class Gone(Exception):
    """The worker's process is gone (it was killed)."""


class Worker:
    """One process on the file; `call` sends a write of `ident` (or a read when None) and returns
    ("ok", count or None) or (error kind, text); raises Gone when the process went."""

    name = "worker"
    process: subprocess.Popen[str]

    def __init__(self, database: Path) -> None:
        self.database = database
        self.start()

    def start(self) -> None:
        raise NotImplementedError

    def call(self, ident: str | None) -> tuple[str, Any]:
        raise NotImplementedError

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)


class ScriptWorker(Worker):
    name = "engine.connect script"

    def start(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", SCRIPT, str(self.database), WRITE, READ], cwd=ROOT,
                                        text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        assert self.process.stdout is not None and self.process.stdout.readline() == "ready\n"

    def call(self, ident: str | None) -> tuple[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(f"w {ident}\n" if ident is not None else "r\n")
            self.process.stdin.flush()
        except OSError:
            raise Gone from None
        line = self.process.stdout.readline()
        if not line:
            raise Gone
        kind, _, rest = line.strip().partition(" ")
        return (kind, int(rest)) if kind == "ok" and rest else (kind, rest or None)


def tool_outcome(result: dict[str, Any]) -> tuple[str, Any]:
    if result.get("isError"):
        text = result["content"][0]["text"]
        return text.partition(":")[0], text
    rows = result["structuredContent"].get("rows") or [{}]
    return "ok", rows[0].get("c")


def arguments(ident: str | None, by: str) -> dict[str, Any]:
    if ident is None:
        return {"name": "read_cypher", "arguments": {"statement": READ}}
    return {"name": "write_cypher", "arguments": {"statement": WRITE, "parameters": {"id": ident, "by": by}}}


class StdioWorker(Worker):
    name = "cookbook serve (stdio)"

    def start(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "runner", "serve", "--db", str(self.database)],
                                        cwd=ROOT, text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.sequence = 1
        self._send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": INITIALIZE})
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized", "params": {}}, answer=False)

    def _send(self, message: dict[str, Any], *, answer: bool = True) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
        except OSError:
            raise Gone from None
        if not answer:
            return {}
        line = self.process.stdout.readline()
        if not line:
            raise Gone
        return json.loads(line)

    def call(self, ident: str | None) -> tuple[str, Any]:
        self.sequence += 1
        reply = self._send({"jsonrpc": "2.0", "id": self.sequence, "method": "tools/call",
                            "params": arguments(ident, "stdio")})
        return tool_outcome(reply["result"])


class HttpWorker(Worker):
    name = "cookbook serve (HTTP)"

    def start(self) -> None:
        from tests.reliability.load import start_server

        self.port = free_port()
        self.process = start_server(self.database, self.port)
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        self.sequence = 1
        with self._post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": INITIALIZE}) as response:
            self.headers["mcp-session-id"] = response.headers["mcp-session-id"]
        self._post({"jsonrpc": "2.0", "method": "notifications/initialized", "params": {}}).close()

    def _post(self, message: dict[str, Any]) -> Any:
        request = urllib.request.Request(self.url, json.dumps(message).encode(), self.headers, method="POST")
        return urllib.request.urlopen(request, timeout=120)

    def call(self, ident: str | None) -> tuple[str, Any]:
        self.sequence += 1
        try:
            with self._post({"jsonrpc": "2.0", "id": self.sequence, "method": "tools/call",
                             "params": arguments(ident, "http")}) as response:
                text = response.read().decode()
        except (urllib.error.URLError, ConnectionError, http.client.HTTPException):
            raise Gone from None
        body = next((line[5:] for line in text.splitlines() if line.startswith("data:")), text)
        return tool_outcome(json.loads(body)["result"])


def holder_pid(database: Path) -> int | None:
    """The process holding a POSIX lock on `database` (DuckDB's), from /proc/locks."""
    status = database.stat()
    inode = f"{os.major(status.st_dev):02x}:{os.minor(status.st_dev):02x}:{status.st_ino}"
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if len(fields) > 5 and fields[5] == inode:
            return int(fields[4])
    return None


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.acknowledged: set[str] = set()
        self.writes = self.reads = self.busy = self.restarts = 0
        self.errors: list[str] = []
        self.stale_reads: list[str] = []
        self.takeovers: list[float] = []
        self.killed_at: float | None = None


def drive(worker: Worker, tally: Tally, until: float, seed: int) -> None:
    rng = random.Random(seed)
    counter = 0
    while time.monotonic() < until:
        ident = None
        if rng.random() < 0.6:
            counter += 1
            ident = f"{seed}-{counter}"
        with tally.lock:
            known = len(tally.acknowledged)
        while True:
            try:
                kind, value = worker.call(ident)
            except Gone:
                worker.stop()
                worker.start()
                with tally.lock:
                    tally.restarts += 1
                continue
            if kind == "TransientError":
                with tally.lock:
                    tally.busy += 1
                continue
            break
        with tally.lock:
            if kind != "ok":
                tally.errors.append(f"{worker.name}: {kind}: {value}")
            elif ident is not None:
                tally.acknowledged.add(ident)
                tally.writes += 1
            else:
                tally.reads += 1
                if value < known:
                    tally.stale_reads.append(f"{worker.name} counted {value} after {known} acknowledged")
            if tally.killed_at is not None:
                tally.takeovers.append(time.monotonic() - tally.killed_at)
                tally.killed_at = None


def run(directory: Path, seconds: float = 60, kill_every: float = 10, seed: int = 0) -> dict[str, Any]:
    """Run the four workers for `seconds`, killing the holder every `kill_every` seconds; the figures."""
    import engine

    database = directory / "shared.rl"
    engine.connect(str(database)).close()
    tally = Tally()
    workers: list[Worker] = [StdioWorker(database), StdioWorker(database), HttpWorker(database),
                             ScriptWorker(database)]
    started = time.monotonic()
    until = started + seconds
    threads = [threading.Thread(target=drive, args=(worker, tally, until, seed * 10 + number), daemon=True)
               for number, worker in enumerate(workers)]
    for thread in threads:
        thread.start()
    kills = 0
    try:
        while (wait := min(kill_every, until - time.monotonic())) > 0:
            time.sleep(wait)
            pid = holder_pid(database)
            if pid is not None and time.monotonic() < until:
                with tally.lock:
                    tally.killed_at = time.monotonic()
                os.kill(pid, signal.SIGKILL)
                kills += 1
        for thread in threads:
            thread.join(120)
    finally:
        for worker in workers:
            worker.stop()
    with engine.connect(str(database)) as db:
        stored = {ident for (ident,) in db.execute("MATCH (w:W) RETURN w.id").fetchall()}
    lost = tally.acknowledged - stored
    return {"processes": len(workers), "seconds": round(time.monotonic() - started, 1), "holder kills": kills,
            "worker restarts (killed holder)": tally.restarts, "acknowledged writes": tally.writes,
            "reads": tally.reads, "busy retries (TransientError)": tally.busy, "errors": len(tally.errors),
            "error samples": tally.errors[:5], "stale reads": len(tally.stale_reads),
            "lost acknowledged writes": len(lost),
            "longest call finishing after a kill (s)": round(max(tally.takeovers, default=0.0), 3)}
