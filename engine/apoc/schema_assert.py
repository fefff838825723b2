"""APOC Core's `apoc.schema.assert(indexes, constraints, dropExisting = true)`: make the catalog hold the given
indexes and uniqueness constraints, dropping the others when asked, and list what it kept, created and dropped
(APOC's `Schemas.assertIndexes` / `assertConstraints`).

Every change goes through the engine's own schema commands (`execute/schema_commands.py`), with their checks
and errors, inside the statement's transaction: a failure rolls the whole call back. The rows come in APOC's
order: the indexes that were there (as created; lookup indexes, a constraint's own index and indexes on several
labels are left alone, as APOC leaves them), then the ones created, then the constraints likewise. A key given
as a string is a range index or a uniqueness constraint on that property; a list of keys a composite index or
a node key constraint. APOC walks the maps in a Java HashMap's order; here a map's labels are taken in the
order of their names.
"""

from __future__ import annotations

from typing import Any

from engine.apoc.schema import relation
from engine.errors import ProcedureError
from engine.execute.schema_commands import create_constraint, create_index, drop_constraint, drop_index
from engine.procedures import Procedure, ProcedureField, ProcedurePreparation
from engine.semantic import bound as b
from engine.span import Span
from engine.storage.schema import Catalog
from engine.syntax import ast
from engine.vector.constants import bound_constant

NAME = "apoc.schema.assert"
OUTPUTS = (("label", "ANY"), ("key", "STRING"), ("keys", "LIST OF STRING"), ("unique", "BOOLEAN"),
           ("action", "STRING"))
Row = tuple[Any, str | None, list[str], bool, str]
Wanted = dict[str, list[str | list[str]]]


def _failed(message: str, span: Span) -> ProcedureError:
    return ProcedureError(f"Failed to invoke procedure `{NAME}`: {message}", span, detail="ProcedureCallFailed")


def _wanted(value: Any, role: str, span: Span) -> Wanted:
    """A map of labels to keys: each key a property name, or a list of them (null: no entries)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _failed(f"`{role}` must be a map of labels to lists of keys", span)
    wanted: Wanted = {}
    for label, keys in sorted(value.items()):
        if not isinstance(keys, list) or not all(
                isinstance(key, str) or (isinstance(key, list) and key and all(isinstance(k, str) for k in key))
                for key in keys):
            raise _failed(f"the keys of `{label}` in `{role}` must be a list of property names or lists of them",
                          span)
        wanted[label] = list(keys)
    return wanted


def _row(label: Any, keys: list[str], unique: bool, action: str) -> Row:
    """APOC's AssertSchemaResult: `key` is the property when there is one."""
    return label, keys[0] if len(keys) == 1 else None, keys, unique, action


def _claimed(wanted: Wanted, label: Any, keys: list[str]) -> bool:
    """Whether the maps ask for an object on `label` and `keys` (each entry matches one object once)."""
    entries = wanted.get(label) if isinstance(label, str) else None
    if not entries:
        return False
    for entry in entries:
        if entry == keys or (len(keys) == 1 and entry == keys[0]):
            entries.remove(entry)
            return True
    return False


def _assert_indexes(run: Any, wanted: Wanted, drop: bool, span: Span) -> list[Row]:
    catalog: Catalog = run.store.catalog
    rows: list[Row] = []
    for index in sorted(catalog.indexes.values(), key=lambda index: index.id):
        if index.kind == "lookup" or index.owned_by is not None or len(index.labels) != 1:
            continue
        keys = list(index.properties)
        if _claimed(wanted, index.labels[0], keys) or not drop:
            rows.append(_row(index.labels[0], keys, False, "KEPT"))
            continue
        drop_index(run, b.BSchemaCommand(ast.DropIndex(index.name, False, span=span)))
        rows.append(_row(index.labels[0], keys, False, "DROPPED"))
    variable = ast.Variable("n", span=span)
    for label, entries in wanted.items():
        for entry in entries:
            keys = [entry] if isinstance(entry, str) else entry
            create_index(run, b.BSchemaCommand(ast.CreateIndex(None, "range", "node", variable, (label,), tuple(keys),
                                                              False, None, span=span)))
            rows.append(_row(label, keys, False, "CREATED"))
    return rows


def _assert_constraints(run: Any, wanted: Wanted, drop: bool, span: Span) -> list[Row]:
    catalog: Catalog = run.store.catalog
    rows: list[Row] = []
    for constraint in sorted(catalog.constraints.values(), key=lambda constraint: constraint.id):
        keys = list(constraint.properties)
        unique = constraint.kind in ("unique", "node_key")
        if _claimed(wanted, constraint.label, keys) or not drop:
            rows.append(_row(constraint.label, keys, unique, "KEPT"))
            continue
        drop_constraint(run, b.BSchemaCommand(ast.DropConstraint(constraint.name, False, span=span)))
        rows.append(_row(constraint.label, keys, unique, "DROPPED"))
    variable = ast.Variable("n", span=span)
    for label, entries in wanted.items():
        for entry in entries:
            keys = [entry] if isinstance(entry, str) else entry
            kind = "unique" if isinstance(entry, str) else "node_key"
            create_constraint(run, b.BSchemaCommand(ast.CreateConstraint(None, kind, "node", variable, label,
                                                                        tuple(keys), False, None, span=span)))
            rows.append(_row(label, keys, True, "CREATED"))
    return rows


def _schema_assert(preparation: ProcedurePreparation) -> str:
    """The indexes, then the constraints, each asserted against the catalog as it is at that point."""
    span = preparation.span
    arguments = [bound_constant(argument, f"an argument of {NAME}") for argument in preparation.arguments]
    indexes, constraints = _wanted(arguments[0], "indexes", span), _wanted(arguments[1], "constraints", span)
    drop = arguments[2] if len(arguments) > 2 else True
    if not isinstance(drop, bool):
        raise _failed("`dropExisting` must be a boolean", span)
    run = preparation.run
    rows = _assert_indexes(run, indexes, drop, span) + _assert_constraints(run, constraints, drop, span)
    return relation(preparation, OUTPUTS, rows)


PROCEDURES = (
    Procedure(NAME, (ProcedureField("indexes", "MAP"), ProcedureField("constraints", "MAP"),
                     ProcedureField("dropExisting", "BOOLEAN")),
              tuple(ProcedureField(name, kind) for name, kind in OUTPUTS), prepare=_schema_assert,
              required_inputs=2, mode="SCHEMA", writes=True),
)
