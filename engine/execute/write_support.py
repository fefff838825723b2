"""What the writer's parts share: a write's result, new ids, the base of the writer, stored values."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine import types as t
from engine.errors import CypherSyntaxError
from engine.semantic import bound as b
from engine.sqlgen.context import Parameters
from engine.sqlgen.expressions import ExpressionCompiler, to_variant
from engine.sqlgen.generator import QueryCompiler
from engine.sqlgen.relation import NodeScan, Relation
from engine.sqlgen.runtime import error_sql
from engine.storage.schema import Catalog
from engine.syntax import ast
from engine.types import CypherType, Kind, is_variant, widened_column_type

if TYPE_CHECKING:
    from engine.execute.statement_run import StatementRun



@dataclass
class WriteResult:
    relation: Relation
    counters: Counter[str] = field(default_factory=Counter)


def label_names(expression: ast.LabelExpression | None, span: Any) -> list[str]:
    """The labels a node pattern to be created names: `:A:B` or `:A&B`, never `|` or `!`."""
    if expression is None:
        return []
    if isinstance(expression, ast.LabelName):
        return [expression.name]
    if isinstance(expression, ast.LabelAnd):  # `:A:A` gives the node A once, as in Neo4j
        return list(dict.fromkeys(label_names(expression.left, span) + label_names(expression.right, span)))
    raise CypherSyntaxError("label expressions with |, ! or % cannot be used to create nodes", span,
                            detail="InvalidLabelExpression")


@dataclass(frozen=True)
class NewId:
    """The id of an element a CREATE makes on each input row: the block of ids the statement allocated
    (`base`), `per_row` of them for each row in `__rank` order, this element the `index`-th of its row's."""

    base: int
    per_row: int
    index: int

    def sql(self, rank: str | int = "__rank", parameters: Parameters | None = None) -> str:
        """The id on the row whose rank (1, 2, ...) the SQL `rank` reads, or of the row of rank `rank`; with
        `parameters`, the block's first id is bound there, so that the SQL text is the same on every run of
        the statement (its parse kept, parsed_sql.py)."""
        if isinstance(rank, int):
            return str(self.base + (rank - 1) * self.per_row + self.index)
        base = str(self.base) if parameters is None else parameters.bind(self.base, t.INTEGER)
        return f"({base} + ({rank} - 1) * {self.per_row} + {self.index})"

    def bound(self, parameters: Parameters, rank: int = 1) -> str:
        """The id on the row of rank `rank`, bound as a value: the SQL text is then the same on every run
        of the statement, so DuckDB's parse of it is kept (parsed_sql.py)."""
        return parameters.bind(self.base + (rank - 1) * self.per_row + self.index, t.INTEGER)


class WriterBase:
    """What every part of the writer shares: the statement's run, its store, a compiler over a relation's
    rows, and those rows as a table."""

    def __init__(self, run: StatementRun) -> None:
        self.run = run
        self.rows_read_after = True
        """Whether a clause reads the rows of the clause being written (False: the statement's last clause)."""
        self.unmatched = False
        """Whether the MERGE being written can match nothing (its plan step's `unmatched`)."""

    @property
    def store(self) -> Any:
        return self.run.store

    def compiler(self, relation: Relation, parameters: Parameters | None = None,
                 ) -> tuple[QueryCompiler, ExpressionCompiler, str, Parameters]:
        """Compilers of expressions over `relation`'s rows, binding values in `parameters` (a new list when
        not given, holding first the values `relation` binds; several compilers share one for SQL statements
        they write together)."""
        parameters = parameters if parameters is not None else Parameters(list(relation.values))
        queries = self._queries(parameters)
        alias = queries.alias()
        context = queries.context_for(relation, alias)
        return queries, ExpressionCompiler(context, queries), alias, parameters

    def scan_compiler(self, relation: Relation, scan: NodeScan) -> tuple[ExpressionCompiler, Parameters]:
        """A compiler of expressions over the row of `relation`'s scan itself (`Relation.scan`), binding values
        after those `relation` binds."""
        parameters = Parameters(list(relation.values))
        queries = self._queries(parameters)
        return ExpressionCompiler(queries.scan_context(scan), queries), parameters

    def _queries(self, parameters: Parameters) -> QueryCompiler:
        queries = QueryCompiler(self.store.catalog, parameters)
        queries.aliases = self.run.aliases
        queries.tombstones = self.run.deleted_any
        return queries


    def stored_rows(self, relation: Relation) -> Relation:
        """`relation` as a table, which a clause reading its rows several times needs (copied only if it is
        a SELECT)."""
        return relation if is_stored(self.run, relation) else self.run.materialize(relation.sql, relation.variables,
                                                                                   relation.values)



def is_stored(run: StatementRun, relation: Relation) -> bool:
    """Whether `relation` is a table this statement stored, or a projection of one (not a SELECT that would
    run again per read)."""
    return run.stored(relation)


def may_hold_element(value_type: CypherType) -> bool:
    """Whether a value of this type may be or contain a node, relationship or path (a list of strings or a
    map of known keys holding none, the rows of `UNWIND $rows`, cannot)."""
    if value_type.kind is Kind.LIST:
        return may_hold_element(value_type.element or t.ANY)
    if value_type.is_record:
        return any(may_hold_element(field) for _, field in value_type.fields or ())
    return value_type.kind in (Kind.NODE, Kind.RELATIONSHIP, Kind.PATH, Kind.ANY, Kind.MAP)

def stored_value(sql: str, value_type: CypherType, column_type: CypherType, *, check: bool = True) -> str:
    """SQL of a value as a column of `column_type` stores it, refusing what properties may not hold
    (maps, graph elements, lists with nulls or mixed types). `check=False` converts only."""
    if is_variant(column_type):
        variant = to_variant(sql, value_type)
        return f"cy_property({variant})" if check else variant
    if check and column_type.kind is Kind.LIST:
        return (f"CASE WHEN list_count({sql}) < len({sql}) THEN "
                + error_sql("TypeError", "InvalidPropertyType",
                            "'lists stored as properties may only hold non-null values'")
                + f" ELSE {sql} END")
    return sql


def column_takes(catalog: Catalog, entity: str, key: str, value_type: CypherType) -> bool:
    """Whether `entity`'s property column `key` is there with a type that a value of `value_type` keeps:
    setting it runs no ALTER TABLE first (`GraphStore.ensure_property_column`)."""
    current = catalog.column_type(entity, key)
    return current is not None and (widened_column_type(current, [value_type]) or t.ANY) == current


def known_present(value: b.BoundExpression) -> bool:
    """Whether a property value is known, before the statement runs, not to be null."""
    if isinstance(value, b.BLiteral | b.BParameter):
        return value.value is not None
    return False


def column_list(alias: str, columns: list[str]) -> str:
    return "".join(f"{alias}.{column}, " for column in columns)


VOLATILE_SQL = re.compile(r"\b(?:now|random|uuid|gen_random_uuid|current_timestamp|get_current_timestamp|"
                          r"get_current_time|current_date|current_time|today|setseed)\b")
"""DuckDB's functions whose value changes from one run to the next: the clock (Cypher's `datetime()`,
`timestamp()`, ... read `now()`), `rand()`, `randomUUID()` and the APOC functions made of them; matched in
lowered SQL text."""
VOLATILE_FRAGMENTS = ("now", "random", "uuid", "current_", "today", "setseed")
"""A part of each of those names: SQL holding none of them calls none."""


def volatile(sql: str) -> bool:
    """Whether a SELECT may give other rows when run again on the same data (it reads the clock or draws at
    random). The check reads the SQL the engine wrote, so whatever function compiled to these is caught. The
    text is lowered and looked for the names' fragments first: the search itself is the slower part."""
    lowered = sql.lower()
    return any(fragment in lowered for fragment in VOLATILE_FRAGMENTS) and VOLATILE_SQL.search(lowered) is not None
