"""A worker process: hosts some systems, builds the datasets itself, and times what the driver asks for.

Timing happens here, around the call alone (no pipe, no pickling). Results are normalised to plain,
comparable values before they go back, so the driver can check that every system gave the same answer.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import decimal
import os
import threading
import time
import traceback
from typing import Any

from bench import datasets
from bench.systems import BATCH, STEPS, SYSTEMS, System, step_rows
from bench.workloads import READS_BY_NAME, remember_statements


def build(kind: str, size: int, knows: int = 0) -> datasets.Dataset:
    if kind == "agent":
        return datasets.agent_memory(size)
    return datasets.social(size, knows)


def normalise(value: Any) -> Any:
    """One comparable form across drivers: datetimes as ISO-8601 UTC strings, maps as sorted pairs, lists as
    tuples, floats rounded, Kuzu's label names and the like left as they are."""
    if value is None or isinstance(value, bool | int | str):
        if isinstance(value, str) and len(value) >= 16 and value[4] == "-" and value[10] in "T " and value[13] == ":":
            return _iso(value)
        return value
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else round(float(value), 6)
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 6)
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.UTC).replace(tzinfo=None)
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")
    if hasattr(value, "year") and hasattr(value, "hour") and hasattr(value, "second"):
        return (f"{value.year:04d}-{value.month:02d}-{value.day:02d}"
                f"T{value.hour:02d}:{value.minute:02d}:{value.second:02d}Z")
    if isinstance(value, dict):
        return tuple(sorted((str(k), normalise(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(normalise(v) for v in value)
    if hasattr(value, "items"):
        return tuple(sorted((str(k), normalise(v)) for k, v in value.items()))
    return repr(value)


def _iso(text: str) -> str:
    try:
        moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return text
    return normalise(moment)


def canonical(rows: list[tuple], unordered: tuple[int, ...] = (), sort_rows: bool = False) -> list[tuple]:
    out = []
    for row in rows:
        values = [normalise(v) for v in row]
        for index in unordered:
            if index < len(values) and isinstance(values[index], tuple):
                values[index] = tuple(sorted(values[index], key=repr))
        out.append(tuple(values))
    return sorted(out, key=repr) if sort_rows else out


class Watchdog:
    """Interrupts a system's running statement after `seconds` where the system can be interrupted."""

    def __init__(self, system: System, seconds: float) -> None:
        self.fired = False
        self.timer = threading.Timer(seconds, self._fire, [system])

    def _fire(self, system: System) -> None:
        self.fired = True
        interrupt = getattr(system, "interrupt", None)
        if interrupt is not None:
            with contextlib.suppress(Exception):
                interrupt()

    def __enter__(self) -> Watchdog:
        self.timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.timer.cancel()


def _interruptible(system: System) -> None:
    """Attach an `interrupt()` to systems whose driver has one."""
    name = system.name
    if name in ("ours", "handsql"):
        system.interrupt = lambda: system.db._duck.interrupt()
    elif name == "kuzu":
        system.interrupt = lambda: system.conn.interrupt()
    elif name == "graphqlite":
        system.interrupt = lambda: system.db.sqlite_connection.interrupt()


class Worker:
    def __init__(self, names: list[str]) -> None:
        self.systems = {name: SYSTEMS[name]() for name in names}
        self.dataset: datasets.Dataset | None = None
        self.cache: dict[tuple, datasets.Dataset] = {}

    def handle(self, command: str, *args: Any) -> Any:
        return getattr(self, "do_" + command)(*args)

    def do_versions(self) -> dict[str, str]:
        return {name: system.versions() for name, system in self.systems.items()}

    def do_dataset(self, kind: str, size: int, knows: int) -> dict[str, Any]:
        key = (kind, size, knows)
        if key not in self.cache:
            self.cache.clear()
            self.cache[key] = build(kind, size, knows)
        self.dataset = self.cache[key]
        return {"name": self.dataset.name, "params": self.dataset.params}

    def do_open(self, name: str) -> None:
        assert self.dataset is not None
        system = self.systems[name]
        system.open(self.dataset.kind)
        _interruptible(system)

    def do_close(self, name: str) -> None:
        self.systems[name].close()

    def do_load(self, name: str, budget: float) -> dict[str, Any]:
        """Every load step in batches of BATCH rows; stops at the budget and says how far it got."""
        assert self.dataset is not None
        system = self.systems[name]
        steps: dict[str, float] = {}
        total_rows = sum(len(step_rows(self.dataset, s)) for s in STEPS[self.dataset.kind])
        done = 0
        start = time.perf_counter()
        for step in STEPS[self.dataset.kind]:
            rows = step_rows(self.dataset, step)
            step_start = time.perf_counter()
            for first in range(0, len(rows), BATCH):
                left = max(1.0, budget - (time.perf_counter() - start))
                with Watchdog(system, left) as watchdog:
                    try:
                        system.load(step, rows[first:first + BATCH])
                    except Exception as error:
                        if not watchdog.fired:
                            return {"status": "error", "note": f"{step}: {_short(error)}", "seconds": None}
                if not watchdog.fired:
                    done += len(rows[first:first + BATCH])
                if watchdog.fired or time.perf_counter() - start > budget:
                    elapsed = time.perf_counter() - start
                    return {"status": "timeout", "seconds": None, "done": done, "total": total_rows,
                            "note": f"over the {budget:.0f} s budget: {done:,} of {total_rows:,} rows in"
                                    f" {elapsed:.0f} s ({done / elapsed:,.0f} rows/s)"}
            steps[step] = time.perf_counter() - step_start
        seconds = time.perf_counter() - start
        nodes, rels = system.counts()
        return {"status": "ok", "seconds": seconds, "steps": steps, "rows": total_rows, "nodes": nodes, "rels": rels}

    def do_read(self, name: str, workload: str, timeout: float) -> dict[str, Any]:
        assert self.dataset is not None
        system = self.systems[name]
        spec = READS_BY_NAME[workload]
        params = {k: self.dataset.params[k] for k in spec.params}
        system.timeout = timeout
        with Watchdog(system, timeout) as watchdog:
            start = time.perf_counter()
            try:
                if name == "handsql":
                    rows = system.read(workload, params)
                else:
                    rows = system.query(spec.statement(name), params)
            except Exception as error:
                if watchdog.fired or "timed out" in str(error).lower() or "timeout" in str(error).lower():
                    return {"status": "timeout", "note": f"over {timeout:.0f} s"}
                return _failure(error)
            finally:
                system.timeout = None
            seconds = time.perf_counter() - start
        return {"status": "ok", "seconds": seconds,
                "rows": canonical(rows, spec.unordered, spec.sort_rows), "count": len(rows)}

    def do_remember(self, name: str, index: int) -> dict[str, Any]:
        """The seed's remember statements for one more session, on top of the loaded graph."""
        assert self.dataset is not None
        system = self.systems[name]
        session = self.dataset.extra["remember"][index]
        start = time.perf_counter()
        try:
            if name == "handsql":
                rows = system.remember(session)
            else:
                rows = []
                for statement in remember_statements(name):
                    rows = system.write(statement, session)
        except Exception as error:
            return _failure(error)
        seconds = time.perf_counter() - start
        return {"status": "ok", "seconds": seconds, "rows": canonical(rows)}

    def do_compile(self, reps: int) -> dict[str, Any]:
        from bench.compile_time import measure
        return measure(reps)

    def do_counts(self, name: str) -> tuple[int, int]:
        return self.systems[name].counts()


def _short(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text[:300]}"


def _failure(error: BaseException) -> dict[str, Any]:
    name = type(error).__name__
    unsupported = name in ("UnsupportedFeature",) or "not supported" in str(error).lower() \
        or "unsupported" in str(error).lower()
    return {"status": "unsupported" if unsupported else "error", "note": _short(error),
            "trace": traceback.format_exc(limit=3)}


def quiet(log_path: str | None) -> None:
    """Send the worker's own output (ArcadeDB's JVM logs, FalkorDB's server) to a log file, so that it does
    not break the driver's progress display."""
    if not log_path:
        return
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)


def main(connection: Any, names: list[str], log_path: str | None = None) -> None:
    """The worker loop: (command, args) in, ("ok", result) or ("fail", text) out."""
    quiet(log_path)
    worker = Worker(names)
    while True:
        try:
            message = connection.recv()
        except EOFError:
            return
        command, args = message
        if command == "exit":
            for system in worker.systems.values():
                with contextlib.suppress(Exception):
                    system.close()
            connection.send(("ok", None))
            return
        try:
            connection.send(("ok", worker.handle(command, *args)))
        except Exception as error:
            connection.send(("fail", _short(error) + "\n" + traceback.format_exc(limit=5)))

