"""Binding a SQL value to a name once, for the APOC functions whose SQL names an argument many times."""

from __future__ import annotations

import itertools
from collections.abc import Callable

_NAMES = itertools.count()


def bind(value: str, body: Callable[[str], str]) -> str:
    """`body(name)` with `value` evaluated once and named (`sqlgen.sql.let` binds only what it deems heavy;
    a value named in many places, or read inside lambdas, is cheaper bound whatever it is)."""
    name = f"bound{next(_NAMES)}"
    return f"list_transform([{value}], lambda {name}: {body(name)})[1]"
