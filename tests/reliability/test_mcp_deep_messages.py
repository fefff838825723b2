"""Every request to `cookbook serve` gets an answer, however deeply its arguments nest (issue 32, item 3):
the SDK's JSON parsing dropped a stdio message nested 200 levels without a word; now it is an Invalid
Request error with the request's id, and the server answers the next request."""

from __future__ import annotations

import json
import select
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from tests.reliability.load import free_port, start_server
from tests.reliability.test_serve_lifetime import ROOT, message

INITIALIZE = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}


def deep_call(ident: int, depth: int) -> str:
    """A read_cypher call whose parameter nests `depth` lists, written out (json.dumps recurses)."""
    value = "[" * depth + "1" + "]" * depth
    return ('{"jsonrpc": "2.0", "id": ' + str(ident) + ', "method": "tools/call", "params": {"name": "read_cypher",'
            ' "arguments": {"statement": "RETURN $p AS p", "parameters": {"p": ' + value + '}}}}\n')


def answer(server: subprocess.Popen, within: float = 30) -> dict:
    ready, _, _ = select.select([server.stdout], [], [], within)
    assert ready, "no answer"
    return json.loads(server.stdout.readline())


@pytest.mark.parametrize("depth", [200, 5000, 100000])
def test_a_message_nested_too_deeply_over_stdio_gets_an_error_with_its_id(depth):
    server = subprocess.Popen([sys.executable, "-m", "runner", "serve", "--db", ":memory:"], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        server.stdin.write(message("initialize", INITIALIZE, 1))
        server.stdin.flush()
        assert answer(server)["id"] == 1
        server.stdin.write(message("notifications/initialized", {}))
        server.stdin.write(deep_call(7, depth))
        server.stdin.flush()
        refused = answer(server)
        assert refused["id"] == 7
        assert refused["error"]["code"] == -32600
        assert "levels deep" in refused["error"]["message"]
        server.stdin.write(message("tools/call", {"name": "read_cypher", "arguments": {"statement": "RETURN 1 AS one"}},
                                   8))
        server.stdin.flush()
        assert answer(server)["result"]["structuredContent"]["rows"] == [{"one": 1}]
    finally:
        server.kill()
        server.wait(timeout=30)


def test_a_parameter_within_the_bound_still_gets_the_engines_own_error():
    server = subprocess.Popen([sys.executable, "-m", "runner", "serve", "--db", ":memory:"], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        server.stdin.write(message("initialize", INITIALIZE, 1))
        server.stdin.flush()
        answer(server)
        server.stdin.write(message("notifications/initialized", {}))
        server.stdin.write(deep_call(2, 110))
        server.stdin.flush()
        result = answer(server)["result"]
        assert result["isError"] and "deeper than 100 levels" in result["content"][0]["text"]
    finally:
        server.kill()
        server.wait(timeout=30)


def test_a_message_nested_too_deeply_over_http_gets_an_answer(tmp_path):
    port = free_port()
    server = start_server(tmp_path / "g.rl", port)
    url = f"http://127.0.0.1:{port}/mcp"
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    try:
        request = urllib.request.Request(url, json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                                                          "params": INITIALIZE}).encode(), headers, method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            headers["mcp-session-id"] = response.headers["mcp-session-id"]
        request = urllib.request.Request(url, deep_call(5, 5000).encode(), headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                body = response.read().decode()
        except urllib.error.HTTPError as error:
            body = error.read().decode()
        text = next((line[5:] for line in body.splitlines() if line.startswith("data:")), body)
        assert "error" in json.loads(text)
    finally:
        server.terminate()
        server.wait(timeout=30)
