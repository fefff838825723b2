"""The serving side: the process that holds a database file answers the other processes that use it.

The first connection of a process to a file starts its Holder (`hold`); the holder stops when the last such
connection closes. It listens on the file's socket (address.py) and gives every client a thread and a
connection of its own to the file (a `Session`, opened by the factory it was given), so one client's long
read does not hold up another's. A client may ask, on a second socket, to interrupt its session's statement.

The holder removes its socket before the file is let go: the next holder, which can only start once the file
is free, never has its socket removed by the one before.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from engine.sharing import wire
from engine.sharing.address import socket_path

OPERATIONS = frozenset({"execute", "execute_script", "explain", "schema", "statement_cache_info",
                        "register_procedure", "graphs", "drop_idle_graphs"})
"""What a client may ask a session to do: the public methods of a connection, nothing else."""
STOP_WAIT = 5.0
"""Seconds `stop` waits for the sessions' threads to end (their statements are interrupted first)."""


class Session(Protocol):
    def interrupt(self) -> None: ...
    def close(self) -> None: ...


class Holder:
    """Serves the file `key` (its real path) to other processes, on sessions `open_session` opens."""

    def __init__(self, key: str, open_session: Callable[..., Session]) -> None:
        self.key = key
        self.address = socket_path(key)
        self._open_session = open_session
        self._sessions: dict[str, Session] = {}
        self._channels: set[socket.socket] = set()
        self._threads: set[threading.Thread] = set()
        self._lock = threading.Lock()
        self._stopping = False
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.address)  # a holder that was killed leaves its socket behind
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(self.address)
        os.chmod(self.address, 0o600)
        self._listener.listen(64)
        self._accepting = threading.Thread(target=self._accept, name=f"holder {self.address}", daemon=True)
        self._accepting.start()

    def _accept(self) -> None:
        while True:
            try:
                channel, _ = self._listener.accept()
            except OSError:
                return  # the listener was closed by stop()
            thread = threading.Thread(target=self._serve, args=(channel,), daemon=True)
            with self._lock:
                if self._stopping:
                    channel.close()
                    return
                self._channels.add(channel)
                self._threads.add(thread)
            thread.start()

    def _serve(self, channel: socket.socket) -> None:
        session: Any = None
        name = ""
        try:
            while True:
                operation, args, kwargs = wire.receive(channel)
                if operation == "interrupt":
                    target = self._sessions.get(args[0])
                    if target is not None:
                        target.interrupt()
                    wire.send(channel, ("ok", None))
                    return
                if operation == "hello":
                    try:
                        session, name = self._open_session(**kwargs), secrets.token_hex(16)
                    except Exception as error:  # no such graph: the client raises it
                        wire.send(channel, wire.error_reply(error))
                        return
                    self._sessions[name] = session
                    wire.send(channel, ("ok", (name, os.getpid())))
                    continue
                if session is None or operation not in OPERATIONS:
                    wire.send(channel, wire.error_reply(ValueError(f"unknown request {operation!r}")))
                    return
                try:
                    reply: tuple[Any, ...] = ("ok", getattr(session, operation)(*args, **kwargs))
                except Exception as error:  # every failure goes back to the client
                    reply = wire.error_reply(error)
                wire.send(channel, reply)
        except (EOFError, OSError, ValueError, TypeError, wire.pickle.UnpicklingError):
            return  # the client went, or sent what is not a request: its session ends
        finally:
            self._sessions.pop(name, None)
            if session is not None:
                session.close()
            channel.close()
            with self._lock:
                self._channels.discard(channel)
                self._threads.discard(threading.current_thread())

    def stop(self) -> None:
        """Stop serving: remove the socket, take no more requests, let the statements running finish (for up
        to STOP_WAIT seconds, then interrupt them: they roll back and say so), and end every session."""
        with self._lock:
            self._stopping = True
            channels, threads = list(self._channels), list(self._threads)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.address)
        self._listener.close()
        for channel in channels:
            with contextlib.suppress(OSError):
                channel.shutdown(socket.SHUT_RD)  # a reply being made is still sent
        deadline = time.monotonic() + STOP_WAIT
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        for session in list(self._sessions.values()):
            with contextlib.suppress(Exception):
                session.interrupt()
        for thread in threads:
            thread.join(STOP_WAIT)


_HOLDERS: dict[str, tuple[Holder, int]] = {}
_GUARD = threading.Lock()


def hold(key: str, open_session: Callable[..., Session]) -> Callable[[], None]:
    """Serve the file `key` to other processes while the caller's connection is open (a process's first
    connection starts the holder, its last one stops it); returns the release to call when it closes. A
    holder that cannot listen (no safe socket directory) leaves the file unshared, as before ADR-0055."""
    with _GUARD:
        holder, count = _HOLDERS.get(key, (None, 0))
        if holder is None:
            try:
                holder = Holder(key, open_session)
            except OSError:
                return lambda: None
        _HOLDERS[key] = (holder, count + 1)

    def release() -> None:
        with _GUARD:
            current, left = _HOLDERS[key]
            if left > 1:
                _HOLDERS[key] = (current, left - 1)
                return
            del _HOLDERS[key]
        current.stop()
    return release
