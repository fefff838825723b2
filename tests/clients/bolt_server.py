"""`cookbook serve --bolt` started as a user starts it, for the tests of the clients that connect to it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(database: Path, *options: str) -> tuple[subprocess.Popen[str], str]:
    """`cookbook serve --db DATABASE --bolt OPTIONS`, once it listens, and the address it names."""
    port = str(free_port())
    server = subprocess.Popen([sys.executable, "-m", "runner", "serve", "--db", str(database), "--bolt",
                               "--port", port, *options], cwd=ROOT, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert server.stderr is not None
    line = server.stderr.readline()
    assert "Bolt at" in line, line + server.stderr.read()
    return server, line.split("Bolt at ")[1].strip()


def stop(server: subprocess.Popen[str]) -> None:
    server.terminate()
    server.wait(timeout=10)
