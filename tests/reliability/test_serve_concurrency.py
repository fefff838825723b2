"""One runaway statement does not stall `cookbook serve` for the other calls, and a cancelled request's
statement stops (issue 32, item 2): reads are answered while it runs, and `notifications/cancelled`
interrupts it, so the write lock it held is free again at once. Writes that cannot get the lock in time
fail with DatabaseBusy, having done nothing."""

from __future__ import annotations

import json
import select
import threading
import time

import pytest

import engine
from tests.reliability.test_serve_lifetime import RUNAWAY, message, start_with_runaway


def reply(server, ident: int, within: float) -> tuple[dict, float]:
    """The response to request `ident` (skipping others), and how long it took to come."""
    started = time.monotonic()
    while time.monotonic() - started < within:
        ready, _, _ = select.select([server.stdout], [], [], within)
        if not ready:
            break
        answer = json.loads(server.stdout.readline())
        if answer.get("id") == ident:
            return answer, time.monotonic() - started
    raise AssertionError(f"no answer to request {ident} within {within} s")


def call(server, ident: int, tool: str, statement: str) -> None:
    server.stdin.write(message("tools/call", {"name": tool, "arguments": {"statement": statement}}, ident))
    server.stdin.flush()


def test_reads_are_answered_while_a_runaway_statement_runs_and_cancelling_it_frees_the_graph(tmp_path):
    server = start_with_runaway(tmp_path / "g.rl", "--timeout", "0")  # request 2: a runaway write
    try:
        call(server, 3, "read_cypher", "MATCH (n:N) RETURN count(*) AS c")
        # the runaway never ends by itself (no timeout): any answer came while it ran
        answer, _ = reply(server, 3, 10)
        assert answer["result"]["structuredContent"]["rows"] == [{"c": 3000}]
        server.stdin.write(message("notifications/cancelled", {"requestId": 2, "reason": "test"}))
        call(server, 4, "write_cypher", "CREATE (:After)")  # waits for the runaway's write lock until it stops
        # it got the lock (a write that waits too long is DatabaseBusy): the cancel stopped the runaway
        answer, _ = reply(server, 4, 10)
        assert answer["result"]["structuredContent"]["counters"]["nodes_created"] == 1
        call(server, 5, "read_cypher", "MATCH (n:Doomed) RETURN count(*) AS c")
        assert reply(server, 5, 10)[0]["result"]["structuredContent"]["rows"] == [{"c": 0}]
    finally:
        server.kill()
        server.wait(timeout=30)


def test_a_write_that_waits_too_long_for_another_is_busy_and_does_nothing(tmp_path):
    path = str(tmp_path / "g.rl")
    with engine.connect(path) as setup:
        setup.execute("UNWIND range(1, 3000) AS i CREATE (:N {i: i})")
    long_writer = engine.connect(path)
    waiter = engine.connect(path, write_wait=0.5)
    outcome: list[type] = []

    def write_for_ever() -> None:
        try:
            long_writer.execute(f"CREATE (:Doomed) WITH 1 AS x {RUNAWAY}")
        except engine.CypherError as error:
            outcome.append(type(error))

    running = threading.Thread(target=write_for_ever)
    running.start()
    time.sleep(1.0)
    started = time.monotonic()
    with pytest.raises(engine.DatabaseBusy, match="nothing of it was done"):
        waiter.execute("CREATE (:Waiting)")
    assert time.monotonic() - started > 0.4  # it waited for the lock; it came back at all, so it gave up waiting
    assert waiter.execute("MATCH (n:N) RETURN count(*) AS c").fetchall() == [(3000,)]  # reads take no lock
    long_writer.interrupt()
    running.join(30)
    assert outcome == [engine.StatementInterrupted]
    assert waiter.execute("MATCH (n:Waiting|Doomed) RETURN count(*) AS c").fetchall() == [(0,)]
    waiter.close()
    long_writer.close()
