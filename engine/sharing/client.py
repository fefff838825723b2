"""SharedConnection: a database file another process holds, used through that process (holder.py).

It has a connection's methods and sends each call to the holder, which runs it on a session of its own.
When the holder goes (its socket closes), the connection attaches again: to the process that holds the
file next, or, when the file is free, by opening it here and becoming its holder. A call that only reads
is then sent again; a statement that may have written raises HolderLost, since whether the holder
committed it before it went is unknown.
"""

from __future__ import annotations

import contextlib
import datetime
import socket
import time
from collections.abc import Callable, Mapping
from typing import Any

from engine.errors import DatabaseLocked, HolderLost
from engine.execute.results import Window
from engine.limits import Limits, refuse_deep_parameters
from engine.sharing import wire
from engine.sharing.address import socket_path

HANDOVER_WAIT = 5.0
"""Seconds a connection tries to reach the file's holder, or to become it, before it gives up with the
DatabaseLocked error of a process that holds the file without serving it (another program, say)."""
TAKEOVER_WAIT = 30.0
"""The same after a holder this connection was attached to went: the process holding the file now is almost
surely one of its other clients taking over, which serves once it has opened the file, and on a loaded
machine that opening (the write-ahead log replayed, the runtime's macros made) can take longer than
HANDOVER_WAIT (a reliability run at load average 15 saw it)."""
FIRST_PAUSE, LONGEST_PAUSE = 0.002, 0.05


def _closed(channel: socket.socket) -> bool:
    """Whether the holder has closed `channel` (it sends nothing unasked, so anything readable is its end)."""
    try:
        return channel.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


class SharedConnection:
    """A graph database file held by another process. `holder_pid` is that process, or None once this
    connection holds the file itself."""

    def __init__(self, path: str, limits: Limits, open_local: Callable[[], Any], *, graph: str = "neo4j") -> None:
        self.path = path
        self.graph = graph
        """The graph of the file this connection is on (ADR-0068): the holder opens its session there."""
        self.limits = limits
        self.holder_pid: int | None = None
        self._open_local = open_local
        self._local: Any = None
        self._channel: socket.socket | None = None
        self._session = ""
        self._procedures: list[tuple[str, list[Mapping[str, Any]]]] = []
        self._attach()

    def _attach(self, wait: float = HANDOVER_WAIT) -> None:
        """Reach the holder, or become it; DatabaseLocked after `wait` seconds when neither can be done."""
        deadline, pause = time.monotonic() + wait, FIRST_PAUSE
        while True:
            try:
                self._dial()
                return
            except (OSError, EOFError, wire.pickle.UnpicklingError):
                pass
            try:
                self._local = self._open_local()
            except DatabaseLocked:
                if time.monotonic() > deadline:
                    raise
            else:
                self.holder_pid = None
                for signature, rows in self._procedures:
                    self._local.register_procedure(signature, rows)
                return
            time.sleep(pause)
            pause = min(pause * 2, LONGEST_PAUSE)

    def _dial(self) -> None:
        channel = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            channel.connect(socket_path(self.path))
            wire.send(channel, ("hello", (), {"graph": self.graph}))
            reply = wire.receive(channel)
            status, value = reply[0], reply[1]
            if status == "error":
                raise wire.rebuilt_error(reply)
            if status != "ok":
                raise EOFError("the holder refused the session")
            self._session, self.holder_pid = value
            for signature, rows in self._procedures:
                wire.send(channel, ("register_procedure", (signature, rows), {}))
                wire.receive(channel)
        except BaseException:
            channel.close()
            raise
        self._channel = channel

    def _call(self, operation: str, *args: Any, reads_only: bool, **kwargs: Any) -> Any:
        """Run `operation` where the file is; after a lost holder, again if it only reads."""
        while True:
            if self._local is not None:
                return getattr(self._local, operation)(*args, **kwargs)
            if self._channel is None:  # an earlier call lost the holder and could not reach or become the next
                self._attach(TAKEOVER_WAIT)  # one (its error was that call's): try again, or raise why not
                continue
            if _closed(self._channel):  # the holder went between calls: nothing of this call ran yet
                self._lost()
                continue
            try:
                wire.send(self._channel, (operation, args, kwargs))
                reply = wire.receive(self._channel)
            except (OSError, EOFError):
                self._lost()
                if reads_only:
                    continue
                raise HolderLost(self.path) from None
            if reply[0] == "error":
                raise wire.rebuilt_error(reply)
            return reply[1]

    def _lost(self) -> None:
        if self._channel is not None:
            self._channel.close()
            self._channel = None
        self._attach(TAKEOVER_WAIT)

    def execute(self, statement: str, params: Mapping[str, Any] | None = None, *, read_only: bool = False,
                timeout: float | None = None, graph: str | None = None, window: Window | None = None) -> Any:
        refuse_deep_parameters(statement, params)
        return self._call("execute", statement, params, reads_only=read_only, read_only=read_only,
                          timeout=self._timeout(timeout), graph=graph, window=window)

    def execute_script(self, text: str, params: Mapping[str, Any] | None = None, *, read_only: bool = False,
                       timeout: float | None = None, graph: str | None = None, window: Window | None = None) -> Any:
        refuse_deep_parameters(text, params)
        return self._call("execute_script", text, params, reads_only=read_only, read_only=read_only,
                          timeout=self._timeout(timeout), graph=graph, window=window)

    def explain(self, statement: str, params: Mapping[str, Any] | None = None) -> Any:
        refuse_deep_parameters(statement, params)
        return self._call("explain", statement, params, reads_only=True)

    def schema(self, graph: str | None = None) -> dict[str, Any]:
        return self._call("schema", reads_only=True, graph=graph)

    def graphs(self) -> list[dict[str, Any]]:
        return self._call("graphs", reads_only=True)

    def drop_idle_graphs(self, idle_for: datetime.timedelta, prefix: str = "") -> list[str]:
        """As `Connection.drop_idle_graphs`, through the holder."""
        return self._call("drop_idle_graphs", idle_for, prefix, reads_only=False)

    def statement_cache_info(self) -> dict[str, int]:
        return self._call("statement_cache_info", reads_only=True)

    def register_procedure(self, signature: str, rows: list[Mapping[str, Any]]) -> None:
        self._call("register_procedure", signature, rows, reads_only=True)
        self._procedures.append((signature, rows))

    def _timeout(self, timeout: float | None) -> float | None:
        """This connection's timeout goes with each statement: the holder's sessions have none of their own."""
        return self.limits.timeout if timeout is None else timeout

    def interrupt(self) -> None:
        """Stop the statement this connection runs (from another thread), as Connection.interrupt."""
        if self._local is not None:
            self._local.interrupt()
            return
        with contextlib.suppress(OSError, EOFError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as channel:
            channel.connect(socket_path(self.path))
            wire.send(channel, ("interrupt", (self._session,), {}))
            wire.receive(channel)

    def close(self) -> None:
        if self._local is not None:
            self._local.close()
            self._local = None
        if self._channel is not None:
            self._channel.close()
            self._channel = None

    def __enter__(self) -> SharedConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
