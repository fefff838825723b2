"""A bounded load test of `cookbook serve --http` on loopback: concurrent MCP clients mixing reads and
writes for a while, then a count of every write each client was told succeeded.

Each write creates one node keyed by (client, seq); a write is acknowledged when its tool result says
`nodes_created: 1`. After the run the server is stopped, the file reopened by this process, and the
stored keys compared with the acknowledged ones: none may be lost, none may appear unacknowledged.
Latency is per tool call, as the client sees it (JSON-RPC over HTTP included).
"""

from __future__ import annotations

import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parents[2]
READS = [
    "MATCH (w:W) RETURN count(w) AS n",
    "MATCH (w:W {client: $client}) RETURN max(w.seq) AS last",
    "MATCH (w:W) WHERE w.seq % 10 = 0 RETURN w.client AS client, count(*) AS n ORDER BY client",
    "MATCH (a:W)-[:NEXT]->(b:W) RETURN count(*) AS links",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(database: Path, port: int, *options: str,
                 env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """`cookbook serve --http` on `port` with `options`, once it accepts connections."""
    server = subprocess.Popen([sys.executable, "-m", "runner", "serve", "--db", str(database), "--http",
                               "--port", str(port), *options], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            if server.poll() is not None:
                raise RuntimeError(server.stderr.read() if server.stderr else "the server exited") from None
            if time.monotonic() > deadline:
                raise RuntimeError("the HTTP server did not start") from None
            time.sleep(0.2)


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {"calls": len(values), "p50_ms": at(0.50), "p95_ms": at(0.95), "p99_ms": at(0.99),
            "max_ms": round(ordered[-1] * 1000, 1), "mean_ms": round(statistics.fmean(values) * 1000, 1)}


async def _client(url: str, number: int, seconds: float, stats: dict[str, Any], seed: int) -> None:
    from mcp import Client

    rng = random.Random(seed * 1000 + number)
    seq = 0
    async with Client(url) as client:
        await client.call_tool("get_schema", {})  # connected and initialized: the clock starts now
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            if rng.random() < 0.4:
                arguments = {"statement": "CREATE (w:W {client: $client, seq: $seq}) WITH w "
                                          "MATCH (p:W {client: $client, seq: $seq - 1}) CREATE (p)-[:NEXT]->(w)",
                             "parameters": {"client": number, "seq": seq}}
                started = time.monotonic()
                result = await client.call_tool("write_cypher", arguments)
                stats["write"].append(time.monotonic() - started)
                if result.is_error or result.structured_content["counters"]["nodes_created"] != 1:
                    stats["errors"].append(str(result.content[0].text if result.content else result))
                else:
                    stats["acknowledged"].add((number, seq))
                seq += 1
            else:
                statement = rng.choice(READS)
                parameters = {"client": number} if "$client" in statement else {}
                started = time.monotonic()
                result = await client.call_tool("read_cypher", {"statement": statement, "parameters": parameters})
                stats["read"].append(time.monotonic() - started)
                if result.is_error:
                    stats["errors"].append(str(result.content[0].text if result.content else result))
                elif "last" in statement:
                    last = result.structured_content["rows"][0]["last"]
                    mine = [s for c, s in stats["acknowledged"] if c == number]
                    if mine and (last is None or last < max(mine)):
                        stats["errors"].append(f"client {number} read seq {last} after its write {max(mine)}")


def load_test(seconds: float = 30, clients: int = 8, seed: int = 0) -> dict[str, Any]:
    """Run the load test; returns its figures (raises nothing for a lost write: the figures say it)."""
    import engine

    stats: dict[str, Any] = {"read": [], "write": [], "errors": [], "acknowledged": set()}
    with tempfile.TemporaryDirectory() as directory:
        database = Path(directory) / "load.rl"
        port = free_port()
        server = start_server(database, port)
        url = f"http://127.0.0.1:{port}/mcp"
        started = time.monotonic()
        try:
            async def run() -> None:
                async with anyio.create_task_group() as group:
                    for number in range(clients):
                        group.start_soon(_client, url, number, seconds, stats, seed)

            anyio.run(run)
        finally:
            elapsed = time.monotonic() - started
            server.terminate()
            server.wait(timeout=60)
        with engine.connect(str(database)) as db:
            stored = {(client, seq) for client, seq in db.execute(
                "MATCH (w:W) RETURN w.client, w.seq").fetchall()}
            (links,), = db.execute("MATCH (:W)-[r:NEXT]->(:W) RETURN count(r)").fetchall()
    acknowledged = stats["acknowledged"]
    calls = len(stats["read"]) + len(stats["write"])
    return {
        "clients": clients, "load seconds": seconds, "wall seconds (server start and stop included)":
        round(elapsed, 1), "tool calls": calls, "calls per second": round(calls / seconds, 1),
        "read_cypher": percentiles(stats["read"]), "write_cypher": percentiles(stats["write"]),
        "errors": len(stats["errors"]), "first errors": stats["errors"][:3],
        "writes acknowledged": len(acknowledged), "writes stored": len(stored),
        "lost writes": len(acknowledged - stored), "unacknowledged writes stored": len(stored - acknowledged),
        "NEXT links stored": links,
    }
