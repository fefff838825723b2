"""The compiler's front half on one screen: text -> tokens -> AST -> bound statement.

SQL is generated per clause at execution time (`engine.execute.executor`), because each clause's SQL
depends on the catalog as the clauses before it left it (a property written by one clause is a column
the next one reads).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.procedures import ProcedureRegistry
from engine.semantic import bound
from engine.semantic import types as t
from engine.semantic.binder import Binder
from engine.semantic.types import CypherType
from engine.storage.schema import Catalog
from engine.syntax import ast
from engine.syntax.parser import parse

Bound = bound.BoundQuery | bound.BSchemaCommand


def bind(statement: ast.Statement, params: Mapping[str, Any] | None = None,
         catalog: Catalog | None = None, procedures: ProcedureRegistry | None = None) -> Bound:
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
    # again until the widened columns are the same twice. Each round only widens, towards ANY, so it ends.
    while True:
        widened = {**changed, **_changed_column_types(binder.writes, catalog)}
        if widened == changed:
            return result
        changed = widened

        def property_types(entity: str, key: str, changed: dict = widened) -> CypherType | None:
            if (entity, key) in changed:
                return changed[(entity, key)]
            if (entity, None) in changed:
                return t.ANY
            return catalog.column_type(entity, key)

        binder = Binder(params, property_types, procedures)
        result = binder.bind_statement(statement)


def _changed_column_types(writes: list[tuple[tuple[str, ...], str | None, CypherType]],
                          catalog: Catalog) -> dict[tuple[str, str | None], CypherType]:
    written: dict[tuple[str, str | None], list[CypherType]] = {}
    for entities, key, value_type in writes:
        for entity in entities:
            written.setdefault((entity, key), []).append(value_type)
    changed: dict[tuple[str, str | None], CypherType] = {}
    for (entity, key), value_types in written.items():
        if key is None:
            changed[(entity, None)] = t.ANY
            continue
        current = catalog.column_type(entity, key)
        after = t.widened_column_type(current, value_types)
        if after != current:
            changed[(entity, key)] = after if current is None else t.ANY
    return changed


def compile_statement(text: str, params: Mapping[str, Any] | None = None, catalog: Catalog | None = None) -> Bound:
    """Parse and bind one statement."""
    return bind(parse(text), params, catalog)
