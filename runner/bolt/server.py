"""`cookbook serve --bolt`: the graph over the Bolt protocol, for Neo4j's drivers and the tools built on them.

One asyncio task per client connection reads its messages in order and answers each in order (a driver
pipelines them: HELLO with LOGON, RUN with PULL), following Bolt's states: after HELLO (and LOGON) the
connection is READY; RUN outside a transaction runs the statement at once, on a connection borrowed from
the shared pool for that statement alone, and keeps its rows for PULL and DISCARD to stream `n` at a time;
BEGIN holds a pool connection and opens an engine transaction on it until COMMIT, ROLLBACK, RESET, a
failure or the client's going; a FAILURE leaves the connection FAILED, where every message but RESET and
GOODBYE is IGNORED. Statements run in worker threads, the event loop only moves bytes.

Who may connect (`check_exposure`): on loopback anyone, with any credentials unless a password is set; on
any other address only with a password (basic auth, user `neo4j` unless told) and TLS from the given
certificate and key files.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hmac
import itertools
import ssl
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import engine
from runner.bolt import messages as m
from runner.bolt.errors import failure
from runner.bolt.values import from_bolt, to_bolt
from runner.serving.lifetime import watch
from runner.serving.pool import Connection, Connections, execute, open_connections

SERVER_AGENT = "Neo4j/5.26.0"
"""What HELLO's answer names the server as: clients read Neo4j's version from it (this is the Neo4j whose
Cypher the engine follows), and its `connection_id`s say `cookbook`."""
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
DEFAULT_PORT = 7687
ROUTING_TTL = 300
WORKERS = 32
"""Threads statements run in: enough that a client waiting for the in-memory graph's one connection does not
hold up the others."""
T = TypeVar("T")


class UnsafeBolt(Exception):
    """`serve --bolt` was asked to listen beyond loopback without a password or without TLS."""


def check_exposure(host: str, password: str | None, certificate: str | None, key: str | None) -> None:
    if (certificate is None) != (key is None):
        raise UnsafeBolt("TLS needs both --tls-cert and --tls-key")
    if host in LOOPBACK:
        return
    if not password:
        raise UnsafeBolt(f"serving Bolt on {host} (not loopback) needs a password: pass --password or set "
                         "COOKBOOK_PASSWORD; clients then log in with basic auth")
    if certificate is None:
        raise UnsafeBolt(f"serving Bolt on {host} (not loopback) needs TLS: pass --tls-cert FILE --tls-key FILE "
                         "(clients connect with bolt+s:// or neo4j+s://)")


@dataclass
class Options:
    """What every connection of one server shares."""

    connections: Connections
    graph: str = "neo4j"
    user: str = "neo4j"
    password: str | None = None
    workers: concurrent.futures.Executor = field(
        default_factory=lambda: concurrent.futures.ThreadPoolExecutor(WORKERS, thread_name_prefix="bolt"))
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    bookmarks: itertools.count[int] = field(default_factory=lambda: itertools.count(1))


@dataclass
class Pending:
    """A statement's rows not yet pulled, and what its summary will say."""

    columns: list[str]
    rows: list[tuple[Any, ...]]
    counters: dict[str, int]
    query_type: str
    """The summary's `type`: the engine's `Result.query_type` (`r`, `w`, `rw`, `s`), from the statement."""
    started: float
    db: str
    at: int = 0


class Failed(Exception):
    """A message failed: FAILURE with this metadata, then the FAILED state."""

    def __init__(self, metadata: dict[str, str]) -> None:
        super().__init__(metadata["message"])
        self.metadata = metadata


def refusal(code: str, message: str) -> Failed:
    return Failed({"code": code, "message": message})


def stats(counters: Mapping[str, int]) -> dict[str, Any]:
    """The counters under Neo4j's names (`nodes-created`), only those not zero, and `contains-updates`."""
    named: dict[str, Any] = {name.replace("_", "-"): int(value) for name, value in counters.items() if value}
    if any(value for name, value in counters.items() if name != "system_updates"):
        named["contains-updates"] = True
    if counters.get("system_updates"):
        named["contains-system-updates"] = True
    return named


class BoltConnection:
    """One client's connection: its state, its open results, and its transaction."""

    def __init__(self, options: Options, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.options = options
        self.reader, self.writer = reader, writer
        self.id = f"bolt-{next(options.ids)}"
        self.version = (5, 0)
        self.state = "negotiation"
        self.authenticated = False
        self.results: dict[int, Pending] = {}
        self.last_qid = -1
        self.qids = itertools.count()
        self.transaction: Connection | None = None
        self.tx: dict[str, Any] = {}
        """The open transaction's `mode`, `db` and `timeout`."""
        self.handlers: dict[int, Callable[[tuple[Any, ...]], Any]] = {
            m.HELLO: self.hello, m.LOGON: self.logon, m.LOGOFF: self.logoff, m.TELEMETRY: self.telemetry,
            m.ROUTE: self.route, m.RUN: self.run, m.PULL: self.pull, m.DISCARD: self.discard, m.BEGIN: self.begin,
            m.COMMIT: self.commit, m.ROLLBACK: self.rollback}

    # -- the connection's life -------------------------------------------------------------------------

    async def serve(self) -> None:
        try:
            if await self.handshake():
                await self.messages()
        except (ConnectionError, asyncio.IncompleteReadError, m.ProtocolError, ValueError):
            pass
        finally:
            await self.end_transaction(commit=False)
            with contextlib.suppress(Exception):
                self.writer.close()

    async def handshake(self) -> bool:
        if await self.reader.readexactly(4) != m.MAGIC:
            return False
        version = m.choose_version(await self.reader.readexactly(16))
        self.writer.write(b"\x00\x00\x00\x00" if version is None else bytes((0, 0, version[1], version[0])))
        await self.writer.drain()
        if version is None:
            return False
        self.version = version
        return True

    async def messages(self) -> None:
        while (message := await m.read_message(self.reader)) is not None:
            if message.tag == m.GOODBYE:
                return
            if message.tag == m.RESET:
                await self.reset()
            elif self.state == "failed":
                self.send(m.IGNORED)
            elif message.tag not in self.handlers:
                raise m.ProtocolError(f"unknown message {message.name}")
            else:
                try:
                    metadata = await self.handlers[message.tag](message.fields)
                    self.send(m.SUCCESS, metadata or {})
                except Failed as failed:
                    self.state = "failed"
                    self.send(m.FAILURE, failed.metadata)
                    if failed.metadata["code"] == "Neo.ClientError.Security.Unauthorized":
                        await self.writer.drain()
                        return
            await self.writer.drain()

    def send(self, tag: int, *fields: Any) -> None:
        self.writer.write(m.frame(tag, *fields))

    async def in_worker(self, call: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.options.workers, call)

    def expect(self, *states: str, message: str) -> None:
        if self.state not in states:
            raise refusal("Neo.ClientError.Request.Invalid", f"{message} cannot be sent in the {self.state} state")

    # -- HELLO, LOGON, LOGOFF, TELEMETRY, ROUTE -------------------------------------------------------------

    async def hello(self, fields: tuple[Any, ...]) -> dict[str, Any]:
        self.expect("negotiation", message="HELLO")
        if self.version == (5, 0):  # the credentials come in HELLO itself
            self.login(fields[0] if fields else {})
        else:
            self.state = "authentication"
        return {"server": SERVER_AGENT, "connection_id": self.id, "hints": {}}

    async def logon(self, fields: tuple[Any, ...]) -> dict[str, Any]:
        self.expect("authentication", message="LOGON")
        self.login(fields[0] if fields else {})
        return {}

    def login(self, auth: Mapping[str, Any]) -> None:
        password = self.options.password
        if password is not None and not (
                auth.get("scheme") == "basic" and auth.get("principal") == self.options.user
                and hmac.compare_digest(str(auth.get("credentials", "")).encode(), password.encode())):
            raise refusal("Neo.ClientError.Security.Unauthorized",
                          "The client is unauthorized due to authentication failure.")
        self.authenticated = True
        self.state = "ready"

    async def logoff(self, fields: tuple[Any, ...]) -> dict[str, Any]:
        self.expect("ready", message="LOGOFF")
        self.authenticated = False
        self.state = "authentication"
        return {}

    async def telemetry(self, fields: tuple[Any, ...]) -> dict[str, Any]:
        return {}

    async def route(self, fields: tuple[Any, ...]) -> dict[str, Any]:
        """One server is the whole cluster: it reads, writes and routes, at the address the client used."""
        self.expect("ready", message="ROUTE")
        context = fields[0] if fields and isinstance(fields[0], dict) else {}
        extra = fields[2] if len(fields) > 2 else None
        db = extra.get("db") if isinstance(extra, dict) else extra
        host, port = self.writer.get_extra_info("sockname")[:2]
        address = context.get("address") or f"{host}:{port}"
        servers = [{"addresses": [address], "role": role} for role in ("WRITE", "READ", "ROUTE")]
        return {"rt": {"ttl": ROUTING_TTL, "db": db or self.options.graph, "servers": servers}}

    # -- RUN, PULL, DISCARD ---------------------------------------------------------------------------------

    async def run(self, fields: tuple[Any, ...]) -> dict[str, Any]:
        self.expect("ready", "streaming", "tx_ready", "tx_streaming", message="RUN")
        if self.state == "streaming":  # a result left open outside a transaction is dropped, as Neo4j does
            self.results.clear()
        query, parameters, extra = [*fields, {}, {}][:3]
        inside = self.transaction is not None
        settings = self.tx if inside else self.settings(extra or {})
        started = time.perf_counter()
        try:
            params = from_bolt(parameters or {})
        except ValueError as error:
            raise Failed(failure(error)) from error
        result = await self.statement(str(query), params, settings)
        pending = Pending(list(result.columns), list(result.rows), dict(result.counters), result.query_type, started,
                          settings["db"])
        qid = next(self.qids) if inside else 0
        self.results[qid] = pending
        self.last_qid = qid
        self.state = "tx_streaming" if inside else "streaming"
        metadata: dict[str, Any] = {"fields": pending.columns, "t_first": int((time.perf_counter() - started) * 1000)}
        if inside:
            metadata["qid"] = qid
        return metadata

    def settings(self, extra: Mapping[str, Any]) -> dict[str, Any]:
        """A RUN's or BEGIN's `mode` (`r`: reads only), `db` (the named graph) and `tx_timeout` (ms)."""
        timeout = extra.get("tx_timeout")
        return {"read_only": extra.get("mode") == "r", "db": extra.get("db") or self.options.graph,
                "timeout": timeout / 1000 if isinstance(timeout, int) and timeout > 0 else None}

    async def statement(self, query: str, params: dict[str, Any], settings: Mapping[str, Any]) -> engine.Result:
        """Run one statement: on the open transaction's connection, or on one borrowed for it alone."""
        def run(connection: Connection) -> engine.Result:
            return execute(connection, query, params, read_only=settings["read_only"], graph=settings["db"],
                           timeout=settings["timeout"])

        def borrowed() -> engine.Result:
            with self.options.connections.borrow() as connection:
                return run(connection)

        held = self.transaction
        try:
            return await self.in_worker(borrowed if held is None else lambda: run(held))
        except Exception as error:
            if held is not None and not held.in_transaction:  # the failure rolled it back
                await self.end_transaction(commit=False)
            raise Failed(failure(error, query)) from error

    async def pull(self, fields: tuple[Any, ...]) -> dict[str, Any]:
        return self.stream(fields, send_records=True)

    async def discard(self, fields: tuple[Any, ...]) -> dict[str, Any]:
        return self.stream(fields, send_records=False)

    def stream(self, fields: tuple[Any, ...], *, send_records: bool) -> dict[str, Any]:
        """Up to `n` records (-1: all) of the result `qid` (-1: the last), then its summary or `has_more`."""
        self.expect("streaming", "tx_streaming", message="PULL" if send_records else "DISCARD")
        extra = fields[0] if fields and isinstance(fields[0], dict) else {}
        n, qid = extra.get("n", -1), extra.get("qid", -1)
        pending = self.results.get(self.last_qid if qid == -1 else qid)
        if pending is None:
            raise refusal("Neo.ClientError.Request.Invalid", f"no open result with qid {qid}")
        end = len(pending.rows) if n == -1 else min(len(pending.rows), pending.at + n)
        if send_records:
            for row in pending.rows[pending.at:end]:
                self.send(m.RECORD, [to_bolt(value) for value in row])
        pending.at = end
        if pending.at < len(pending.rows):
            return {"has_more": True}
        del self.results[next(key for key, value in self.results.items() if value is pending)]
        summary: dict[str, Any] = {"type": pending.query_type,
                                   "t_last": int((time.perf_counter() - pending.started) * 1000), "db": pending.db}
        if any(pending.counters.values()):
            summary["stats"] = stats(pending.counters)
        if self.transaction is None:
            summary["bookmark"] = self.bookmark()
            self.state = "ready"
        elif not self.results:
            self.state = "tx_ready"
        return summary

    def bookmark(self) -> str:
        """A bookmark for what the client has seen: the server accepts any it is sent (each statement sees
        every committed one already)."""
        return f"cookbook:{next(self.options.bookmarks)}"

    # -- BEGIN, COMMIT, ROLLBACK, RESET --------------------------------------------------------------------

    async def begin(self, fields: tuple[Any, ...]) -> dict[str, Any]:
        self.expect("ready", message="BEGIN")
        settings = self.settings(fields[0] if fields and isinstance(fields[0], dict) else {})
        connections = self.options.connections

        def opened() -> Connection:
            connection = connections.acquire()
            try:
                if not hasattr(connection, "begin"):
                    raise engine.UnsupportedFeature("an explicit transaction on a database file another process "
                                                    "holds: send each statement in a transaction of its own")
                connection.begin()
            except BaseException:
                connections.release(connection)
                raise
            return connection

        try:
            self.transaction = await self.in_worker(opened)
        except Exception as error:
            raise Failed(failure(error)) from error
        self.tx = settings
        self.results.clear()
        self.state = "tx_ready"
        return {}

    async def commit(self, fields: tuple[Any, ...]) -> dict[str, Any]:
        self.expect("tx_ready", message="COMMIT")
        try:
            await self.end_transaction(commit=True)
        except Exception as error:
            raise Failed(failure(error)) from error
        return {"bookmark": self.bookmark()}

    async def rollback(self, fields: tuple[Any, ...]) -> dict[str, Any]:
        self.expect("tx_ready", "tx_streaming", message="ROLLBACK")
        await self.end_transaction(commit=False)
        return {}

    async def end_transaction(self, *, commit: bool) -> None:
        """Commit or roll back the open transaction, if any, and give its connection back to the pool."""
        held, self.transaction = self.transaction, None
        self.results.clear()
        if held is None:
            return
        self.state = "ready"

        def end() -> None:
            try:
                held.commit() if commit else held.rollback()
            finally:
                self.options.connections.release(held)

        await self.in_worker(end)

    async def reset(self) -> None:
        with contextlib.suppress(Exception):
            await self.end_transaction(commit=False)
        self.results.clear()
        self.state = "ready" if self.authenticated else ("authentication" if self.state != "negotiation"
                                                         else "negotiation")
        self.send(m.SUCCESS, {})


async def serve_connections(options: Options, host: str, port: int, tls: ssl.SSLContext | None,
                            started: Callable[[int], None] | None = None) -> None:
    """Accept clients until cancelled; `started` is told the port listened on (0 asks for a free one)."""
    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await BoltConnection(options, reader, writer).serve()

    server = await asyncio.start_server(client, host, port, ssl=tls)
    if started is not None:
        started(server.sockets[0].getsockname()[1])
    async with server:
        await server.serve_forever()


def tls_context(certificate: str | None, key: str | None) -> ssl.SSLContext | None:
    if certificate is None or key is None:
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certificate, key)
    return context


def serve(database: str, *, host: str = "127.0.0.1", port: int = DEFAULT_PORT, timeout: float | None = None,
          memory_limit: str | None = None, graph: str = "neo4j", import_dir: str | None = None,
          user: str = "neo4j", password: str | None = None, certificate: str | None = None,
          key: str | None = None, started: Callable[[int], None] | None = None) -> None:
    """Serve the graph in `database` over Bolt until SIGINT or SIGTERM (runner/serving/lifetime.py), on the
    connections the MCP server would use (runner/serving)."""
    check_exposure(host, password, certificate, key)
    tls = tls_context(certificate, key)
    watcher = watch(stdio=False)
    connections = watcher.connection = open_connections(database, timeout=timeout, memory_limit=memory_limit,
                                                        graph=graph, import_dir=import_dir)
    options = Options(connections, graph=graph, user=user, password=password)
    try:
        asyncio.run(serve_connections(options, host, port, tls, started))
    finally:
        connections.close_all()
