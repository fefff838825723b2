"""A time limit per scenario, so one runaway query cannot stall the whole TCK.

The limit is CPU time of this process (DuckDB's threads included), not wall time: a worker sharing the
machine with another test run must not time out on a scenario that is merely waiting for a core. A
watcher thread polls the clock, and once the scenario is over its budget stops it in two ways, because
a query can be stuck in two places:
- inside DuckDB, where Python code cannot run until the C++ call returns: the watcher interrupts the
  connection. It uses the engine's `Connection.interrupt()` when there is one, else, as a stopgap, the
  DuckDB connection the engine keeps in `_duck` (DuckDB's `interrupt()` is meant for another thread);
- in Python (compiling, planning): the watcher sends SIGALRM to the main thread, whose handler raises
  `ScenarioTimeout`. The handler is installed once and stays: a signal still in flight when a scenario
  ends then finds a disarmed handler, never the default action that would end the process.
`ScenarioTimeout` is a BaseException so that engine code catching `Exception` cannot swallow it. A wall
clock limit of `WALL_FACTOR` times the budget catches a scenario that waits without using any CPU.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

POLL_SECONDS = 0.1
WALL_FACTOR = 6


class ScenarioTimeout(BaseException):
    """The scenario ran past its time limit."""


@dataclass
class Clock:
    seconds: float
    expired: bool = False


_armed: list[Clock] = []  # the clock whose expiry the SIGALRM handler turns into ScenarioTimeout


def _alarm(signum: int, frame: Any) -> None:
    if _armed and _armed[-1].expired:
        raise ScenarioTimeout


def interrupt(db: Any) -> None:
    """Stop whatever query is running on `db`, if the connection offers a way."""
    stop = getattr(db, "interrupt", None) or getattr(getattr(db, "_duck", None), "interrupt", None)
    if stop is not None:
        stop()


def _can_alarm() -> bool:
    return threading.current_thread() is threading.main_thread() and hasattr(signal, "pthread_kill")


@contextmanager
def deadline(seconds: float, on_expiry: Callable[[], None]) -> Iterator[Clock]:
    """Within the block: once `seconds` of CPU time are spent, call `on_expiry` from the watcher thread and
    raise `ScenarioTimeout` in the main thread. `seconds <= 0` means no limit."""
    clock = Clock(seconds)
    if seconds <= 0:
        yield clock
        return
    alarm = _can_alarm()
    if alarm and signal.getsignal(signal.SIGALRM) is not _alarm:
        signal.signal(signal.SIGALRM, _alarm)
    done = threading.Event()
    main = threading.main_thread().ident

    def watch() -> None:
        cpu, wall = time.process_time(), time.monotonic()
        while not done.wait(POLL_SECONDS):
            if time.process_time() - cpu > seconds or time.monotonic() - wall > seconds * WALL_FACTOR:
                clock.expired = True
                with suppress(Exception):  # the connection may be closing: the alarm still comes
                    on_expiry()
                if alarm and main is not None and not done.is_set():
                    signal.pthread_kill(main, signal.SIGALRM)
                return

    _armed.append(clock)
    watcher = threading.Thread(target=watch, name="tck-deadline", daemon=True)
    watcher.start()
    try:
        yield clock
    finally:
        done.set()
        watcher.join()
        _armed.remove(clock)
