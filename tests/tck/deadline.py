"""A time limit per scenario, so one runaway query cannot stall the whole TCK.

Two mechanisms, because a query can hang in two places:
- in Python (compiling, planning): SIGALRM raises `ScenarioTimeout` in the main thread;
- inside DuckDB, where Python signal handlers wait until the C++ call returns: a timer thread interrupts
  the connection. It uses the engine's `Connection.interrupt()` when there is one, else, as a stopgap,
  the DuckDB connection the engine keeps in `_duck` (DuckDB's `interrupt()` is meant to be called from
  another thread).
`ScenarioTimeout` is a BaseException so that engine code catching `Exception` cannot swallow it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any


class ScenarioTimeout(BaseException):
    """The scenario ran past its time limit."""


@dataclass
class Clock:
    seconds: float
    expired: bool = False


def interrupt(db: Any) -> None:
    """Stop whatever query is running on `db`, if the connection offers a way."""
    stop = getattr(db, "interrupt", None) or getattr(getattr(db, "_duck", None), "interrupt", None)
    if stop is not None:
        stop()


@contextmanager
def deadline(seconds: float, on_expiry: Callable[[], None]) -> Iterator[Clock]:
    """Within the block: after `seconds`, call `on_expiry` from a timer thread and raise `ScenarioTimeout`
    in the main thread. `seconds <= 0` means no limit."""
    clock = Clock(seconds)
    if seconds <= 0:
        yield clock
        return

    def expire() -> None:
        clock.expired = True
        with suppress(Exception):  # the connection may be closing: a failed interrupt leaves the alarm
            on_expiry()

    def alarm(signum: int, frame: Any) -> None:
        clock.expired = True
        raise ScenarioTimeout

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    use_alarm = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    previous = signal.signal(signal.SIGALRM, alarm) if use_alarm else None
    timer.start()
    if use_alarm:
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield clock
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        timer.cancel()
