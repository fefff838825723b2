"""SQL text helpers every part of SQL generation uses: binding a heavy value once (`let`) and calling a runtime
macro with its heavy arguments bound (`macro`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

_LET_NAMES = itertools.count()


def _heavy(sql: str) -> bool:
    """Whether SQL is costly to repeat: macros and CASEs expand textually wherever they are named."""
    return "cy_" in sql or "CASE" in sql or "SELECT" in sql


def let(values: Sequence[str], body: Callable[..., str]) -> str:
    """`body(*names)` with each heavy value evaluated once. DuckDB macros substitute their arguments
    textually, so a macro naming its argument eight times over a nested macro call grows exponentially;
    a one-element list and a lambda bind the value to a name first."""
    heavy = [index for index, value in enumerate(values) if _heavy(value)]
    if not heavy:
        return body(*values)
    name = f"let{next(_LET_NAMES)}"
    names = list(values)
    for index in heavy:
        names[index] = f"{name}.f{index}"
    fields = ", ".join(f"f{index} := {values[index]}" for index in heavy)
    return f"list_transform([struct_pack({fields})], lambda {name}: {body(*names)})[1]"


def macro(name: str, *arguments: str) -> str:
    """A runtime macro call whose heavy arguments are evaluated once (see `let`)."""
    return let(arguments, lambda *names: f"{name}({', '.join(names)})")


def select_list(columns: list[str]) -> str:
    """Columns followed by a comma, or nothing: for SELECT lists that go on with more items."""
    return "".join(f"{column}, " for column in columns)
