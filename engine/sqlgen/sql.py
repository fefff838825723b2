"""SQL text helpers every part of SQL generation uses: a term (`Term`), binding any other value once (`let`)
and calling a runtime macro with its other arguments bound (`macro`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

_LET_NAMES = itertools.count()


class Term(str):
    """SQL repeated where it is named rather than bound once (`let`): one term, cheap and the same however often
    it is named (a column or a field of one, a lambda's or a macro's parameter, a literal, a bound parameter),
    or an `error()` call, which must raise only in the branch that names it. The code that writes such SQL
    makes it a Term, so this is known from how SQL was made, never read off its text; SQL built from a Term
    (an f-string, a concatenation) is a plain `str`."""


def term_field(value: str, name: str, *, parenthesized: bool = True) -> str:
    """Field `name` of STRUCT `value`: a Term when `value` is one."""
    sql = f"({value}).{name}" if parenthesized else f"{value}.{name}"
    return Term(sql) if isinstance(value, Term) else sql


def cast(value: str, sql_type: str) -> str:
    """`value` as `sql_type`: a cast of a Term is a Term."""
    sql = f"({value})::{sql_type}"
    return Term(sql) if isinstance(value, Term) else sql


def let(values: Sequence[str], body: Callable[..., str]) -> str:
    """`body(*names)` with each value that is not a `Term` evaluated once. DuckDB macros substitute their
    arguments textually, so a macro naming its argument eight times over a nested macro call grows
    exponentially; a one-element list and a lambda bind the value to a name first."""
    heavy = [index for index, value in enumerate(values) if not isinstance(value, Term)]
    if not heavy:
        return body(*values)
    name = f"let{next(_LET_NAMES)}"
    names = list(values)
    for index in heavy:
        names[index] = Term(f"{name}.f{index}")
    fields = ", ".join(f"f{index} := {values[index]}" for index in heavy)
    return f"list_transform([struct_pack({fields})], lambda {name}: {body(*names)})[1]"


def macro(name: str, *arguments: str) -> str:
    """A runtime macro call whose arguments are evaluated once, Terms aside (see `let`)."""
    return let(arguments, lambda *names: f"{name}({', '.join(names)})")


def select_list(columns: list[str]) -> str:
    """Columns followed by a comma, or nothing: for SELECT lists that go on with more items."""
    return "".join(f"{column}, " for column in columns)
