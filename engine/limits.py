"""What one connection may spend: time per statement, memory, partial paths per expansion step (ADR-0022).

The limits turn a runaway statement into a clear engine error instead of an exhausted machine. Memory
is DuckDB's own `memory_limit`; the walk cap is read by the generated SQL from a session variable, so
one compiled statement serves any cap; the timeout is a timer thread that interrupts the DuckDB
connection, since Python code cannot run while DuckDB is inside a query.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from itertools import chain
from typing import Any

from engine.errors import CypherArgumentError

WALK_VARIABLE = "cypher_max_walk_rows"
"""The DuckDB session variable the walk cap is read from (`getvariable`)."""

DEFAULT_MAX_WALK_ROWS = int(os.environ.get("CYPHER_MAX_WALK_ROWS", "1000000"))
"""The default cap on partial paths one step of a variable-length expansion may hold."""

GIB = 1024 ** 3

WRITE_WAIT = 30.0
"""Seconds a writing statement waits for another connection's write to the same file before it fails with
DatabaseBusy (storage/write_lock.py)."""
LIST_VARIABLE = "cypher_max_list_elements"
"""The DuckDB session variable holding the most elements a list `range()` builds may have (`list_cap`)."""

BYTES_PER_LIST_ELEMENT = 32
"""Memory budgeted per element of a list a statement builds: DuckDB allocates list vectors outside its
buffer manager, so `memory_limit` does not bound them (a 50-million-element `range()` peaked at 5.9 GB
under a 500 MB limit); a list may have memory_limit / 32 elements (16 million under 500 MB), which leaves
room for the copies list functions make."""

IMPORT_VARIABLE = "cypher_import_dir"
"""The DuckDB session variable holding the directory LOAD CSV reads `file:///` urls from (none: refused)."""

TEXT_VARIABLE = "cypher_max_text_bytes"
"""The DuckDB session variable holding the most bytes a string a statement builds with `+` or `||` may have
(`text_cap`)."""

TEXT_COPIES = 8
"""Memory budgeted per byte of a string a statement builds: DuckDB keeps strings outside its buffer manager
too, and a string doubled by `reduce(s = 'x', x IN range(1, 28) | s + s)` (256 MB) peaked at 1.8 GB under a
200 MB limit, about seven copies; a string may have memory_limit / 8 bytes (25 MB under 200 MB)."""

PARAMETER_DEPTH = 100
"""How deeply lists and maps may nest in a parameter's value. Deeper values are refused before anything
compiles (a value nested 900 deep ended in a RecursionError while it was typed); no graph data nests so."""

COMPILE_RECURSION = 8000
"""Python's recursion limit while a statement compiles: the compiler walks expression trees recursively,
and a flat chain of 1,000 `OR`s or `+`s (which a model may well write) is a tree 1,000 deep, about three
frames a level. Deeper still is an UnsupportedFeature, not a RecursionError."""


def default_memory_limit() -> str:
    """Half the machine's memory, at most 4 GiB: enough for any recipe, and a runaway statement stops
    well before the machine swaps or the OOM killer picks a process."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        total = 8 * GIB
    return f"{max(256, min(4 * GIB, total // 2) // 1024 ** 2)}MiB"


def checked_timeout(seconds: float | None) -> float | None:
    """`seconds` if it is None or a positive number; a ValueError otherwise."""
    if seconds is not None and not seconds > 0:
        raise ValueError(f"timeout must be a positive number of seconds, not {seconds!r}")
    return seconds


CONTAINERS = frozenset({dict, list, tuple})
SCALARS = frozenset({int, float, str, bool, type(None)})
"""Exact types `parameter_too_deep` tells apart without `isinstance`, which is slow against an ABC."""
EXACT = CONTAINERS | SCALARS


def parameter_too_deep(params: Mapping[str, Any] | None) -> str | None:
    """The name of the first parameter whose value nests lists and maps deeper than PARAMETER_DEPTH, or
    None. A level of the value at a time, without recursion, so a value of any depth is measured. A level
    of exact builtin types (the rows of a load batch) is looked at by `map`, `chain` and `set` at C speed: 1.2 ms
    for a 10,000-row batch of three-key maps, against 8 ms item by item (ADR-0097, ADR-0108)."""
    for name, value in (params or {}).items():
        level, depth = [value], 0
        while level:
            kinds = set(map(type, level))
            if kinds <= SCALARS:
                break
            if kinds <= EXACT:
                containers = level if kinds <= CONTAINERS else [item for item in level if type(item) in CONTAINERS]
                nested = kinds - SCALARS
            else:
                containers = [item for item in level if type(item) in CONTAINERS
                              or (type(item) not in SCALARS and isinstance(item, Mapping | list | tuple))]
                if not containers:
                    break
                nested = set()
            depth += 1
            if depth > PARAMETER_DEPTH:
                return name
            if nested == {dict}:
                level = list(chain.from_iterable(map(dict.values, containers)))
            elif nested <= {list, tuple} and nested:  # a batch's list of rows: its items, in C
                level = list(chain.from_iterable(containers))
            else:
                level = [child for item in containers for child in (item.values() if type(item) is dict or isinstance(
                    item, Mapping) else item)]
    return None


def refuse_deep_parameters(text: str, params: Mapping[str, Any] | None) -> None:
    """Raise ParameterTooDeep (a CypherArgumentError) for a parameter nested past PARAMETER_DEPTH."""
    name = parameter_too_deep(params)
    if name is not None:
        raise parameter_nested_too_deeply(name).with_source(text)


def parameter_nested_too_deeply(name: str) -> CypherArgumentError:
    return CypherArgumentError(f"parameter ${name} nests lists and maps deeper than {PARAMETER_DEPTH} levels",
                               detail="ParameterTooDeep")


def list_cap(memory_limit: str) -> int:
    """The most elements one list a statement builds may hold under `memory_limit` (a DuckDB size)."""
    return max(1_000_000, size_bytes(memory_limit) // BYTES_PER_LIST_ELEMENT)


def text_cap(memory_limit: str) -> int:
    """The most bytes one string a statement builds by concatenation may hold under `memory_limit`."""
    return max(16 * 1024 ** 2, size_bytes(memory_limit) // TEXT_COPIES)


UNITS = {"": 1, "B": 1, "KB": 1000, "MB": 1000 ** 2, "GB": 1000 ** 3, "TB": 1000 ** 4,
         "KIB": 1024, "MIB": 1024 ** 2, "GIB": GIB, "TIB": 1024 ** 4}


def size_bytes(text: str) -> int:
    """A DuckDB size ('500MB', '2GiB', '1.5 GB') in bytes; an unreadable one counts as 4 GiB."""
    match = re.fullmatch(r"\s*([0-9.]+)\s*([A-Za-z]*)\s*", text)
    if match is None or match[2].upper() not in UNITS:
        return 4 * GIB
    return int(float(match[1]) * UNITS[match[2].upper()])


@contextlib.contextmanager
def deep_compile() -> Iterator[None]:
    """Run with Python's recursion limit at least COMPILE_RECURSION."""
    before = sys.getrecursionlimit()
    if before < COMPILE_RECURSION:
        sys.setrecursionlimit(COMPILE_RECURSION)
    try:
        yield
    finally:
        if before < COMPILE_RECURSION:
            sys.setrecursionlimit(before)


@dataclass(frozen=True)
class Limits:
    """A connection's limits. `timeout` is seconds per statement (None: no limit); `memory_limit` is a
    DuckDB size ('2GB', '512MB'); `max_walk_rows` caps the partial paths of one expansion step;
    `write_wait` is how long a write waits for another connection's to finish (storage/write_lock.py)."""

    timeout: float | None = None
    memory_limit: str | None = None
    max_walk_rows: int = DEFAULT_MAX_WALK_ROWS
    write_wait: float = WRITE_WAIT

    def __post_init__(self) -> None:
        checked_timeout(self.timeout)
        checked_timeout(self.write_wait)
        if self.max_walk_rows < 1:
            raise ValueError(f"max_walk_rows must be at least 1, not {self.max_walk_rows!r}")

    @property
    def memory(self) -> str:
        return self.memory_limit or default_memory_limit()


class StatementTimer:
    """Interrupts a running statement once `seconds` have passed. `expired` says whether it fired.

    The lock makes the interrupt and the end of the statement exclusive: an interrupt can only land
    while the statement it was armed for is still running, never on the next one.
    """

    def __init__(self, seconds: float | None, interrupt: Callable[[], None]) -> None:
        self.seconds = seconds
        self._interrupt = interrupt
        self._lock = threading.Lock()
        self._running = False
        self.expired = False
        self._timer: threading.Timer | None = None

    def __enter__(self) -> StatementTimer:
        if self.seconds is not None:
            self._running = True
            self._timer = threading.Timer(self.seconds, self._fire)
            self._timer.daemon = True
            self._timer.start()
        return self

    def _fire(self) -> None:
        with self._lock:
            if self._running:
                self.expired = True
                self._interrupt()

    def stop(self) -> None:
        """The statement is over (before its COMMIT or ROLLBACK): no interrupt may land after this."""
        with self._lock:
            self._running = False
        if self._timer is not None:
            self._timer.cancel()

    def __exit__(self, *exc: object) -> None:
        self.stop()
