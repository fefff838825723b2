"""CREATE / DROP INDEX and CONSTRAINT, SHOW INDEXES / CONSTRAINTS: catalog changes with Neo4j's counters.

`IF NOT EXISTS` and `IF EXISTS` make an equivalent existing object (or a missing one) a no-op that counts
nothing. A new uniqueness constraint is checked against the data already there.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.errors import ConstraintViolation, CypherSemanticError, UnsupportedFeature
from engine.execute.results import Result, empty_counters
from engine.semantic import bound as b
from engine.storage.schema import ConstraintInfo, IndexInfo
from engine.syntax import ast

if TYPE_CHECKING:
    from engine.execute.executor import StatementRun


def _generated_name(prefix: str, *parts: object) -> str:
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:8]
    return f"{prefix}_{digest}"


def _counted(**changes: int) -> Result:
    counters = empty_counters()
    counters.update(changes)
    return Result([], [], counters)


def create_constraint(run: StatementRun, statement: ast.CreateConstraint) -> Result:
    catalog = run.store.catalog
    name = statement.name or _generated_name("constraint", statement.kind, statement.label, statement.properties)
    equivalent = [c for c in catalog.constraints.values()
                  if (c.kind, c.entity, c.label, c.properties) == (
                      statement.kind, statement.entity, statement.label, statement.properties)]
    if equivalent or name in catalog.constraints:
        if statement.if_not_exists:
            return _counted()
        raise CypherSemanticError(f"an equivalent constraint or one named `{name}` already exists",
                                  statement.span, detail="ConstraintAlreadyExists")
    if statement.kind not in ("unique", "node_key", "not_null"):
        raise UnsupportedFeature(f"{statement.kind} constraints", statement.span)
    constraint = ConstraintInfo(name, statement.kind, statement.entity, statement.label, statement.properties,
                                statement.property_type)
    run.store.add_constraint(constraint)
    _check_existing(run, constraint, statement)
    changes = {"constraints_added": 1}
    return _counted(**changes)


def _check_existing(run: StatementRun, constraint: ConstraintInfo, statement: ast.CreateConstraint) -> None:
    columns = [run.store.catalog.column(constraint.entity, key) for key in constraint.properties]
    if constraint.entity != "node" or any(column is None for column in columns):
        return
    from engine.execute.executor import unique_key
    keys = ", ".join(unique_key(column, run.store.catalog.column_type(constraint.entity, key))
                     for column, key in zip(columns, constraint.properties, strict=True))
    present = " AND ".join(f"{column} IS NOT NULL" for column in columns)
    row = run.connection.execute(
        f"SELECT 1 FROM nodes WHERE list_contains(labels, $1) AND {present} GROUP BY {keys}"
        " HAVING count(*) > 1 LIMIT 1", [constraint.label]).fetchone()
    if row is not None:
        raise ConstraintViolation("the existing data violates the new constraint", statement.span,
                                  detail="ConstraintCreationFailed")


def drop_constraint(run: StatementRun, statement: ast.DropConstraint) -> Result:
    catalog = run.store.catalog
    name = statement.name
    if name is None:
        matches = [c.name for c in catalog.constraints.values()
                   if (c.label, c.properties) == (statement.label, statement.properties)]
        name = matches[0] if matches else None
    if name is None or name not in catalog.constraints:
        if statement.if_exists:
            return _counted()
        raise CypherSemanticError(f"no constraint named `{statement.name}`", statement.span,
                                  detail="ConstraintNotFound")
    run.store.drop_constraint(name)
    return _counted(constraints_removed=1)


def create_index(run: StatementRun, statement: ast.CreateIndex) -> Result:
    catalog = run.store.catalog
    name = statement.name or _generated_name("index", statement.kind, statement.labels, statement.properties)
    equivalent = [i for i in catalog.indexes.values()
                  if (i.kind, i.entity, i.labels, i.properties) == (
                      statement.kind, statement.entity, statement.labels, statement.properties)]
    if equivalent or name in catalog.indexes:
        if statement.if_not_exists:
            return _counted()
        raise CypherSemanticError(f"an equivalent index or one named `{name}` already exists", statement.span,
                                  detail="IndexAlreadyExists")
    if statement.kind not in ("range", "text", "point", "lookup"):
        raise UnsupportedFeature(f"{statement.kind} indexes", statement.span)
    run.store.add_index(IndexInfo(name, statement.kind, statement.entity, statement.labels, statement.properties))
    return _counted(indexes_added=1)


def drop_index(run: StatementRun, statement: ast.DropIndex) -> Result:
    catalog = run.store.catalog
    name = statement.name
    if name is None:
        matches = [i.name for i in catalog.indexes.values()
                   if i.labels == (statement.label,) and i.properties == statement.properties]
        name = matches[0] if matches else None
    if name is None or name not in catalog.indexes:
        if statement.if_exists:
            return _counted()
        raise CypherSemanticError(f"no index named `{statement.name}`", statement.span, detail="IndexNotFound")
    run.store.drop_index(name)
    return _counted(indexes_removed=1)


def show_indexes(run: StatementRun, statement: ast.ShowIndexes) -> Result:
    rows = [(index.name, index.kind.upper(), index.entity.upper(), list(index.labels), list(index.properties))
            for index in sorted(run.store.catalog.indexes.values(), key=lambda i: i.name)]
    return Result(["name", "type", "entityType", "labelsOrTypes", "properties"], rows)


def show_constraints(run: StatementRun, statement: ast.ShowConstraints) -> Result:
    kinds = {"unique": "UNIQUENESS", "node_key": "NODE_KEY", "not_null": "NODE_PROPERTY_EXISTENCE"}
    rows = [(c.name, kinds.get(c.kind, c.kind.upper()), c.entity.upper(), [c.label], list(c.properties))
            for c in sorted(run.store.catalog.constraints.values(), key=lambda c: c.name)]
    return Result(["name", "type", "entityType", "labelsOrTypes", "properties"], rows)


SCHEMA_COMMANDS: dict[type, Callable[[Any, Any], Result]] = {
    ast.CreateConstraint: create_constraint,
    ast.DropConstraint: drop_constraint,
    ast.CreateIndex: create_index,
    ast.DropIndex: drop_index,
    ast.ShowIndexes: show_indexes,
    ast.ShowConstraints: show_constraints,
}


def run_schema_command(run: StatementRun, command: b.BSchemaCommand) -> Result:
    handler = SCHEMA_COMMANDS.get(type(command.statement))
    if handler is None:
        raise UnsupportedFeature(type(command.statement).__name__, command.statement.span)
    return handler(run, command.statement)
