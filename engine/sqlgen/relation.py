"""The relation a clause's SELECT reads and produces: a table or a parenthesised SELECT, its variables, the
entity columns it carries for them, and how its rows are ordered."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.semantic.scope import Variable

SEED_ROW = "(SELECT 1::BIGINT AS __ord)"
"""A statement's first clause reads this one row, which binds nothing."""


@dataclass(frozen=True)
class Carried:
    """A column of a node or relationship variable's table row that a fused SELECT carries along, so a later
    clause reads the property without joining the table again (`QueryCompiler.reads`)."""

    variable: Variable
    entity: str
    column: str

    @property
    def name(self) -> str:
        return f"{self.variable.column}__{self.column}"


@dataclass(frozen=True)
class NodeScan:
    """A relation whose rows are the rows of the `nodes` table, read as `alias`, that satisfy `condition` (SQL
    over that row's columns and the relation's parameters), one row each, `variable` holding its node: a
    SELECT of one node pattern from the seed row, with no join (generator.py). A writer of that node may
    then UPDATE the table by the condition itself rather than join the SELECT (set_items.py, ADR-0104)."""

    variable: Variable
    alias: str
    condition: str


@dataclass
class Relation:
    """A FROM-able relation (a table name or a parenthesised SELECT) and the variables it holds, with the
    entity columns it carries for them (only within one fused SELECT: a table's may be stale)."""

    sql: str
    variables: list[Variable]
    carried: list[Carried] = field(default_factory=list)
    order: str = "__ord"
    """The ORDER BY list that gives the rows' order. Only a RETURN whose plan step is `final` (the
    statement's last, or a COLLECT subquery's) sets another, its sort keys then `__ord`: numbering its rows
    would cost DuckDB a second sort that only the consumer reads."""
    constant_order: bool = False
    """Whether every row's `__ord` is the same constant (a statement's or a subquery's seed rows): a clause
    over them orders its rows by its own keys alone, with no constant leading its composite (`row_order`)."""
    table: bool = False
    """Whether `sql` names stored rows (a temporary table, a WITH's name) rather than being a SELECT."""
    rows: int | None = None
    """How many rows it holds, when that is known without counting (a MERGE's side known empty)."""
    one_row: bool = False
    """Whether it holds at most one row (an aggregation with no grouping key, ADR-0098): the result's SELECT
    then sorts nothing."""
    values: tuple[Any, ...] = ()
    """The values its SQL binds to `$1, $2, ...`, where it is a SELECT with parameters of its own: an SQL
    statement reading it binds these first (a SET reading the read clauses' SELECT, set_in_place.py)."""
    unique: frozenset[int] = frozenset()
    """Variables (by id) that hold another element on each row: a write to one of them meets each target once."""
    scan: NodeScan | None = None
    """What its rows are as a scan of `nodes`, where they are exactly that (set by the SELECT's compiler only,
    kept only where `sql` is that SELECT)."""

    def carried_columns(self, alias: str, variables: list[Variable] | None = None) -> list[str]:
        """The carried columns of `variables` (all by default), read through `alias`."""
        keep = None if variables is None else {id(v) for v in variables}
        return [f"{alias}.{c.name}" for c in self.carried if keep is None or id(c.variable) in keep]

    def carried_for(self, variables: list[Variable]) -> list[Carried]:
        keep = {id(v) for v in variables}
        return [c for c in self.carried if id(c.variable) in keep]
