"""`cookbook serve --http` beyond loopback: it refuses to start without a bearer token and allowed hosts,
and then answers only requests with the token and an allowed Host (issue 32, item 9)."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.reliability.load import free_port, start_server

ROOT = Path(__file__).resolve().parents[2]
SERVE = [sys.executable, "-m", "runner", "serve"]
INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}})


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "COOKBOOK_TOKEN"}
    return env | extra


def test_serving_beyond_loopback_without_a_token_is_refused():
    done = subprocess.run([*SERVE, "--db", ":memory:", "--http", "--host", "0.0.0.0", "--port", str(free_port())],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, env=environment())
    assert done.returncode == 2
    assert "needs a bearer token" in done.stderr and "--token" in done.stderr


def test_serving_beyond_loopback_without_allowed_hosts_is_refused():
    done = subprocess.run([*SERVE, "--db", ":memory:", "--http", "--host", "0.0.0.0", "--port", str(free_port())],
                          cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env=environment(COOKBOOK_TOKEN="s3cret"))
    assert done.returncode == 2
    assert "--allowed-host" in done.stderr


def post(port: int, headers: dict[str, str]) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("POST", "/mcp", skip_host=True)
        for name, value in {"Content-Type": "application/json",
                            "Accept": "application/json, text/event-stream", **headers}.items():
            connection.putheader(name, value)
        connection.putheader("Content-Length", str(len(INITIALIZE)))
        connection.endheaders(INITIALIZE.encode())
        return connection.getresponse().status
    finally:
        connection.close()


def test_beyond_loopback_only_requests_with_the_token_and_an_allowed_host_are_answered(tmp_path):
    port = free_port()
    server = start_server(tmp_path / "g.rl", port, "--host", "0.0.0.0", "--allowed-host", "graph.example.test",
                          env=environment(COOKBOOK_TOKEN="s3cret"))
    try:
        allowed = {"Host": f"graph.example.test:{port}"}
        assert post(port, allowed) == 401  # no token
        assert post(port, allowed | {"Authorization": "Bearer wrong"}) == 401
        good = allowed | {"Authorization": "Bearer s3cret"}
        assert post(port, good | {"Host": f"evil.example:{port}"}) in (400, 421)
        assert post(port, good | {"Origin": "http://evil.example"}) in (400, 403)
        assert post(port, good) == 200
    finally:
        server.terminate()
        server.wait(timeout=30)
