"""Row order keys and the one value that sorts by several of them (ADR-0029)."""

from __future__ import annotations

from dataclasses import dataclass

UNORDERED = "0::BIGINT"
"""The `__ord` of rows whose order nothing reads."""

LIST_END = "9223372036854775807"
"""A sentinel above every id, appended to a negated id list so that ascending order over it is descending
order over the list (a list before its own prefixes)."""


@dataclass(frozen=True)
class OrderKey:
    """One key of a row order: SQL over ids or `__ord` values (never null), descending or not, a list of
    relationship ids (a walk's relationships, a joined hop's list) or a single value."""

    sql: str
    descending: bool = False
    list_valued: bool = False

    @property
    def order_by(self) -> str:
        """The key as an ORDER BY item."""
        return f"{self.sql} DESC" if self.descending else self.sql

    @property
    def ascending_value(self) -> str:
        """A value whose ascending order is this key's order: a descending id negated, a descending list
        of ids negated item by item and ended by `LIST_END`."""
        if not self.descending:
            return self.sql
        if self.list_valued:
            return f"list_append(list_transform({self.sql}, lambda x: -x), {LIST_END})"
        return f"-({self.sql})"


def composite_order(keys: list[OrderKey]) -> str:
    """A value whose SQL order is the order of `keys`: a row of their ascending values. Unlike row_number()
    it needs no sort, so a pipeline of clauses sorts once, where its order is read (ADR-0029)."""
    parts = [key.ascending_value for key in keys]
    return parts[0] if len(parts) == 1 else f"row({', '.join(parts)})"


def ascending_order(*columns: str) -> str:
    """`composite_order` of ascending single-valued keys (a row's `__ord` and its place among its matches)."""
    return composite_order([OrderKey(column) for column in columns])
