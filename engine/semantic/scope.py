"""Variables and the scopes that hold them between clauses."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.types import CypherType


@dataclass(eq=False)
class Variable:
    """A named (or anonymous) variable. `column` is its column in binding tables, unique per statement, so no
    user-written name ever becomes SQL text."""

    name: str
    type: CypherType
    column: str
    anonymous: bool = False
    observed: bool = False
    """True when the type was read off stored data (a property column), not implied by the query text:
    such a type speeds up SQL but does not license compile-time type errors."""
    unwound: Any = None
    """The literal or parameter (a bound expression) whose list an UNWIND takes it from: its values are
    known as the query compiles, and code generation may pick a cheaper SQL form that is right for exactly
    these values (reading a parameter's `value` notes that it did). A WITH that passes the variable on keeps it
    (its rows are a subset)."""
    constant: Any = None
    """The bound expression it equals on every row, when a WITH projected it from literals and parameters
    alone (`WITH e, datetime($asOf) AS t`): later clauses compile that expression where they read it, so
    DuckDB sees a constant it can fold and push into scans, not a column of the row (constants.constant_of)."""

    def __repr__(self) -> str:
        return f"{self.name}:{self.type!r}"


@dataclass
class ColumnNamer:
    """Hands out binding-table column names `v0`, `v1`, ... for one statement."""

    counter: itertools.count = field(default_factory=itertools.count)

    def next(self) -> str:
        return f"v{next(self.counter)}"


@dataclass
class Scope:
    """The variables visible at a point of a query, in the order they were introduced.

    `pinned` are outer variables a subquery sees in every one of its clauses, even after a WITH that does
    not project them: the whole outer scope of COUNT / COLLECT / EXISTS, and the variables a CALL's scope
    clause `CALL (a, b)` or `CALL (*)` imports. A variable of the scope's own shadows a pinned one of the
    same name only where the binder allowed it (a pass-through `WITH a`)."""

    variables: dict[str, Variable] = field(default_factory=dict)
    pinned: dict[str, Variable] = field(default_factory=dict)

    def lookup(self, name: str) -> Variable | None:
        found = self.variables.get(name)
        return found if found is not None else self.pinned.get(name)

    def add(self, variable: Variable) -> None:
        self.variables[variable.name] = variable

    def copy(self) -> Scope:
        return Scope(dict(self.variables), self.pinned)

    def projected(self) -> Scope:
        """The scope a WITH starts: empty but for the pinned variables."""
        return Scope({}, self.pinned)

    def visible(self) -> dict[str, Variable]:
        """Every variable a name can reach here, by name: the pinned ones unless shadowed."""
        return {**self.pinned, **self.variables}

    def __iter__(self) -> Iterator[Variable]:
        return iter(self.visible().values())

    def __contains__(self, name: str) -> bool:
        return name in self.variables or name in self.pinned

    def named(self) -> list[Variable]:
        return [v for v in self.visible().values() if not v.anonymous]
