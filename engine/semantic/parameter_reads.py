"""What one statement's compile learned from its parameters: their types, and which values it looked at.

Compiled SQL binds every parameter's value, so it serves any values of the same types, except where the
compiler looked at a value to choose the SQL (a LIMIT it checked, the strings of a `datetime($at)` it
converted once). The binder notes each parameter's type, and `BParameter.value` notes each look; the
statement cache (engine/execute/statement_cache.py) reuses a compiled statement only for parameters of
the same types whose looked-at values are the same. A statement that calls a procedure is not reused:
a procedure's rows are fixed when it compiles.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from engine.types import CypherType


@dataclass
class ParameterReads:
    types: dict[str, CypherType] = field(default_factory=dict)
    """Every parameter the statement binds, with the type it was bound at."""
    inspected: set[str] = field(default_factory=set)
    """The parameters whose values the compiler read."""
    calls_procedure: bool = False


_CURRENT: ContextVar[ParameterReads | None] = ContextVar("parameter_reads", default=None)


@contextmanager
def recording() -> Iterator[ParameterReads]:
    """Note what the bind and compile run inside the block read of their parameters."""
    reads = ParameterReads()
    token = _CURRENT.set(reads)
    try:
        yield reads
    finally:
        _CURRENT.reset(token)


def bound(name: str, cypher_type: CypherType) -> None:
    reads = _CURRENT.get()
    if reads is not None:
        reads.types[name] = cypher_type


def inspected(name: str) -> None:
    reads = _CURRENT.get()
    if reads is not None:
        reads.inspected.add(name)


def calls_procedure() -> None:
    reads = _CURRENT.get()
    if reads is not None:
        reads.calls_procedure = True


def add(reads: ParameterReads) -> None:
    """Note what another recording noted (a bind recorded on its own, or kept and reused: bound_cache.py)."""
    current = _CURRENT.get()
    if current is not None:
        current.types.update(reads.types)
        current.inspected.update(reads.inspected)
        current.calls_procedure = current.calls_procedure or reads.calls_procedure
