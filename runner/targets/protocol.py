"""What every target is: a database other than the embedded engine that runs a page's statements one at a
time on a fresh, empty graph of its own, and answers in the engine's value types.

A target module converts what its client returns into `engine.Node`, `Relationship`, `Path`, the temporal
and spatial types, lists, maps and scalars, so that the runner's renderers print it as they print the
engine's results. Element ids are the target's own numbers (or numbers given to its ids in the order they
were first seen): `runner.targets.ids` renames them to the recording's before anything is compared.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol


@dataclass
class TargetResult:
    """One statement's answer: its columns, its rows in engine values, and its update counters in the
    engine's names (None when the target reports none)."""

    columns: list[str]
    rows: list[tuple[Any, ...]]
    counters: dict[str, int] | None = field(default_factory=dict)


class TargetError(Exception):
    """The target refused or failed a statement; the message is the target's own."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


class CannotOpenTarget(Exception):
    """A target URI that names no target, a client package that is not installed, a server that cannot be
    reached: a usage error, said before any page runs."""


class Target(Protocol):
    """A fresh, empty graph on another database, for one page. `close` leaves nothing behind: the graph,
    and anything started for it (a local server, a temporary directory), are gone."""

    uri: str
    reports_counters: bool
    """False for a target whose client gives no update counters (ArcadeDB embedded): its counters are not
    compared, and the report says so."""

    def run(self, statement: str, params: Mapping[str, Any]) -> TargetResult:
        """Run one statement as one transaction. Raises TargetError with the target's message."""
        ...

    def close(self) -> None:
        ...


def require(module: str, package: str, extra: str) -> ModuleType:
    """Import a target's client module, or say which package (and which extra of cookbook) installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise CannotOpenTarget(
            f"this target needs the {package!r} package, which is not installed: pip install "
            f"'cookbook[{extra}]' (or pip install {package})") from error


def first_line(error: BaseException) -> str:
    """An error's first line: clients wrap the server's message in their own, with stack traces below."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
