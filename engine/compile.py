"""The compiler's front half on one screen: text -> tokens -> AST -> bound statement.

SQL is generated per clause at execution time (`engine.execute.executor`), because each clause's SQL
depends on the catalog as the clauses before it left it (a property written by one clause is a column
the next one reads).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, Protocol

from engine import types as t
from engine.procedures import ProcedureRegistry
from engine.semantic import bound
from engine.semantic.binder import Binder
from engine.syntax import ast
from engine.types import CypherType

Bound = bound.BoundQuery | bound.BSchemaCommand


class ColumnTypes(Protocol):
    """All that binding reads of the catalog: the type of a property column (`Catalog.column_type`; None: no
    such column). A bound statement kept for reuse notes each answer (engine/execute/bound_cache.py)."""

    def column_type(self, entity: str, key: str) -> CypherType | None: ...


def bind(statement: ast.Statement, params: Mapping[str, Any] | None = None,
         catalog: ColumnTypes | None = None, procedures: ProcedureRegistry | None = None) -> Bound:
    """Resolve variables, types and clause rules of a parsed statement.

    Property reads are typed from the catalog's column types. If the statement itself stores values that
    would change a column's type, it is bound a second time with those columns read as they will be
    after the change (ANY once types mix), so no read is typed more narrowly than its column."""
    if catalog is None:
        return Binder(params, procedures=procedures).bind_statement(statement)
    binder = Binder(params, catalog.column_type, procedures)
    result = binder.bind_statement(statement)
    changed: dict[tuple[str, str | None], CypherType] = {}
    # A widened read can widen what the statement writes elsewhere (`SET n.x = n.a * n.x, n.a = 'b'`): bind
    # again until no write widens a column beyond the type the last round read it as. Each round only widens
    # a column (none -> its first type -> ANY), so the rounds end.
    while True:
        widened = _changed_column_types(binder.writes, catalog, changed)
        if not widened:
            return result
        changed = {**changed, **widened}
        binder = Binder(params, functools.partial(_read_type, catalog, changed), procedures)
        result = binder.bind_statement(statement)


def _read_type(catalog: ColumnTypes, changed: Mapping[tuple[str, str | None], CypherType], entity: str,
               key: str) -> CypherType | None:
    """A property column's type as the statement's own writes leave it (`changed`), else as stored."""
    if (entity, key) in changed:
        return changed[(entity, key)]
    if (entity, None) in changed:
        return t.ANY
    return catalog.column_type(entity, key)


def _changed_column_types(writes: list[tuple[tuple[str, ...], str | None, CypherType]], catalog: ColumnTypes,
                          changed: Mapping[tuple[str, str | None], CypherType]
                          ) -> dict[tuple[str, str | None], CypherType]:
    """The columns whose type the writes widen beyond what the binding read them as (`_read_type`): a key
    written with values of a type its column does not hold, and (key None) every key of an entity kind
    written with keys only known at run time."""
    written: dict[tuple[str, str | None], list[CypherType]] = {}
    for entities, key, value_type in writes:
        for entity in entities:
            written.setdefault((entity, key), []).append(value_type)
    widened: dict[tuple[str, str | None], CypherType] = {}
    for (entity, key), value_types in written.items():
        if key is None:
            if (entity, None) not in changed:
                widened[(entity, None)] = t.ANY
            continue
        current = _read_type(catalog, changed, entity, key)
        after = t.widened_column_type(current, value_types)
        if after != current:
            widened[(entity, key)] = after if current is None else t.ANY
    return widened
