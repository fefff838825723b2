"""How `cookbook serve` ends: within a second of SIGINT or SIGTERM, or of its stdio client closing stdin,
even while a statement runs (issue 32, item 2).

A statement runs inside DuckDB, where Python signal handlers do not run and the SDK cannot notice that
stdin closed, so the server held its file for as long as the statement took. A watcher thread waits for
those events instead: the signals are blocked in every other thread and taken with `sigwait`, and stdin's
hang-up is seen with `poll`, which reads nothing the SDK should read. The watcher interrupts the running
statement (DuckDB rolls it back), gives it a moment, and ends the process. Nothing uncommitted can
survive that: only committed transactions reach the file's write-ahead log.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import threading
import time
from typing import Protocol

STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
GRACE_SECONDS = 0.3
"""How long the interrupted statement has to roll back before the process ends."""


class Interruptible(Protocol):
    def interrupt(self) -> None: ...


class Watch:
    """The watchers of one server; `connection` is the one whose statement a stop interrupts."""

    def __init__(self) -> None:
        self.connection: Interruptible | None = None

    def stop(self) -> None:
        if self.connection is not None:
            self.connection.interrupt()
            time.sleep(GRACE_SECONDS)
        sys.stderr.flush()
        os._exit(0)


def watch(*, stdio: bool) -> Watch:
    """Start the watchers. Call it before the database opens: DuckDB's threads, like every thread started
    after this, inherit the blocked signals (a signal a DuckDB thread took would wait for the statement)."""
    watcher = Watch()
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    threading.Thread(target=_on_signal, args=(watcher,), name="serve-signals", daemon=True).start()
    if stdio:
        # a descriptor of our own: the SDK moves stdin elsewhere and puts /dev/null in its place
        threading.Thread(target=_on_hang_up, args=(watcher, os.dup(sys.stdin.fileno())), name="serve-stdin",
                         daemon=True).start()
    return watcher


def _on_signal(watcher: Watch) -> None:
    signal.sigwait(STOP_SIGNALS)
    watcher.stop()


def _on_hang_up(watcher: Watch, descriptor: int) -> None:
    poller = select.poll()
    poller.register(descriptor, 0)  # no events asked: POLLHUP and POLLERR are always reported
    while True:
        for _, event in poller.poll():
            if event & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                watcher.stop()
