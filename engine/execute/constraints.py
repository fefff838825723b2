"""Constraint checks: each one SQL query over the stored graph, the first violation raised as Neo4j words it.

Uniqueness (and the uniqueness half of a key) and property types are checked after every clause that
wrote, as Neo4j checks them when the value is written; existence (and the other half of a key) once, when
the statement is about to commit, as Neo4j validates it at commit: `CREATE (a:Author) SET a.name = 'x'`
passes an existence constraint on `:Author(name)`. `find_violation` is also what a new constraint runs
against the data already there, and `constraint_description` the `Constraint( ... )` text Neo4j's schema
errors quote.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import duckdb

from engine import types as t
from engine.errors import ConstraintViolation
from engine.execute.decode import Decoder
from engine.semantic.type_predicates import parse_type
from engine.span import Span
from engine.sqlgen.expressions import type_test_sql
from engine.storage.encoding import KIND_NAMES
from engine.storage.schema import ENTITY_TABLES, Catalog, ConstraintInfo, to_variant
from engine.types import is_variant

UNIQUE_KINDS = ("unique", "node_key")
EXISTENCE_KINDS = ("not_null", "node_key")
ELEMENT_WORDS = {"node": ("Node", "label"), "relationship": ("Relationship", "type")}
TYPE_NAMES = {
    ("unique", "node"): "NODE PROPERTY UNIQUENESS",
    ("unique", "relationship"): "RELATIONSHIP PROPERTY UNIQUENESS",
    ("node_key", "node"): "NODE KEY",
    ("node_key", "relationship"): "RELATIONSHIP KEY",
    ("not_null", "node"): "NODE PROPERTY EXISTENCE",
    ("not_null", "relationship"): "RELATIONSHIP PROPERTY EXISTENCE",
    ("property_type", "node"): "NODE PROPERTY TYPE",
    ("property_type", "relationship"): "RELATIONSHIP PROPERTY TYPE",
}
"""(kind, entity) → the constraint type as Neo4j's messages spell it (SHOW CONSTRAINTS joins it with `_`)."""


@dataclass(frozen=True)
class Violation:
    """The first element found breaking a constraint: `duplicate` is the earlier element with the same
    values (uniqueness), None when a property is missing (existence); `actual_type` names the type of a
    value a property type constraint does not allow."""

    constraint: ConstraintInfo
    element: int
    duplicate: int | None = None
    values: tuple[Any, ...] = ()
    actual_type: str | None = None


def unique_key(column: str, column_type: t.CypherType | None) -> str:
    """What uniqueness compares: the value itself in a typed column, a normalised key in a VARIANT one."""
    return column if column_type is not None and not is_variant(column_type) else f"cy_property_key({column})"


def _scope(constraint: ConstraintInfo) -> str:
    """The elements a constraint applies to, as a FROM/WHERE over the element's table (label or type: $1)."""
    table = ENTITY_TABLES[constraint.entity]
    test = "list_contains(labels, $1)" if constraint.entity == "node" else "type = $1"
    return f"FROM {table} WHERE {test}"


def find_violation(connection: duckdb.DuckDBPyConnection, catalog: Catalog, constraint: ConstraintInfo, *,
                   uniqueness: bool = True, existence: bool = True) -> Violation | None:
    """The first element (lowest id) breaking `constraint` in the stored graph, or None."""
    columns = [catalog.column(constraint.entity, key) for key in constraint.properties]
    if existence and constraint.kind in EXISTENCE_KINDS:
        present = " AND ".join(f"{column} IS NOT NULL" for column in columns if column is not None)
        missing = "TRUE" if None in columns else f"NOT ({present})"
        row = connection.execute(f"SELECT min(id) {_scope(constraint)} AND {missing}", [constraint.label]).fetchone()
        if row is not None and row[0] is not None:
            return Violation(constraint, int(row[0]))
    if uniqueness and constraint.kind == "property_type" and columns[0] is not None:
        column_type = catalog.column_type(constraint.entity, constraint.properties[0])
        value = to_variant(columns[0], column_type or t.ANY)
        allowed = type_test_sql(value, parse_type(constraint.property_type or "ANY"), 0)
        row = connection.execute(
            f"SELECT min(id) {_scope(constraint)} AND {columns[0]} IS NOT NULL AND NOT ({allowed})",
            [constraint.label]).fetchone()
        if row is not None and row[0] is not None:
            return Violation(constraint, int(row[0]), actual_type=_type_of(connection, constraint, value, int(row[0])))
    if uniqueness and constraint.kind in UNIQUE_KINDS and None not in columns:
        typed = [(column, catalog.column_type(constraint.entity, key))
                 for column, key in zip(columns, constraint.properties, strict=True)]
        keys = ", ".join(unique_key(column, column_type) for column, column_type in typed if column)
        present = " AND ".join(f"{column} IS NOT NULL" for column, _ in typed)
        row = connection.execute(
            f"SELECT min(id), max(id) {_scope(constraint)} AND {present} GROUP BY {keys} HAVING count(*) > 1"
            " ORDER BY max(id) LIMIT 1", [constraint.label]).fetchone()
        if row is not None:
            return Violation(constraint, int(row[1]), int(row[0]), _values(connection, catalog, constraint, row[0]))
    return None


def _type_of(connection: duckdb.DuckDBPyConnection, constraint: ConstraintInfo, value: str, element: int) -> str:
    """The Cypher type of one element's constrained property (for the message): `INTEGER`,
    `LIST<STRING NOT NULL>`."""
    table = ENTITY_TABLES[constraint.entity]
    kind, inner = connection.execute(
        f"SELECT cy_kind({value}), list_distinct(list_transform(TRY_CAST({value} AS VARIANT[]),"
        f" lambda e: cy_type_name(e))) FROM {table} WHERE id = $1", [element]).fetchone()
    if KIND_NAMES.get(kind) != "LIST":
        return KIND_NAMES.get(kind, "ANY")
    return f"LIST<{inner[0]} NOT NULL>" if inner and len(inner) == 1 else "LIST<ANY>"


def _values(connection: duckdb.DuckDBPyConnection, catalog: Catalog, constraint: ConstraintInfo,
            element: int) -> tuple[Any, ...]:
    """The constrained properties of one element, as Cypher values (for the message)."""
    columns = [catalog.column(constraint.entity, key) or "NULL" for key in constraint.properties]
    types = [catalog.column_type(constraint.entity, key) or t.ANY for key in constraint.properties]
    table = ENTITY_TABLES[constraint.entity]
    raw = connection.execute(f"SELECT {', '.join(columns)} FROM {table} WHERE id = $1", [element]).fetchall()
    return Decoder(connection, catalog).decode_rows(raw, types)[0] if raw else ()


@dataclass(frozen=True)
class Write:
    """One write, as far as constraints care: the kind of element, the labels (relationship types) it gave
    them (None: not known), the property keys it set or removed (None: any), and whether it created them."""

    entity: str
    labels: frozenset[str] | None
    keys: frozenset[str] | None
    created: bool = False
    distinct: frozenset[str] = frozenset()
    """Keys whose values the created elements were found, by a MERGE that matched on them alone, to share with
    no element of their one label, nor with each other (`MergeWriter._merged_on`)."""

    def may_break(self, constraint: ConstraintInfo, *, existence: bool) -> bool:
        """Whether this write can make `constraint` fail: a new element of its label breaks an existence
        constraint whatever keys it has; uniqueness and property types only look at elements holding
        the keys, so a new element without them cannot break those, nor can uniqueness of `distinct` keys."""
        if self.entity != constraint.entity or (self.labels is not None and constraint.label not in self.labels):
            return False
        if existence and self.created:
            return True
        if (not existence and constraint.kind in UNIQUE_KINDS and self.labels == {constraint.label}
                and self.distinct == frozenset(constraint.properties)):
            return False
        return self.keys is None or not self.keys.isdisjoint(constraint.properties)


@dataclass
class StatementWrites:
    """What one statement has written, for constraint checks: since the last check, and in all."""

    since_check: set[Write] = field(default_factory=set)
    statement: set[Write] = field(default_factory=set)

    def add(self, write: Write) -> None:
        self.since_check.add(write)
        self.statement.add(write)


def check_constraints(connection: duckdb.DuckDBPyConnection, catalog: Catalog, span: Span | None, *,
                      uniqueness: bool = True, existence: bool = True,
                      writes: StatementWrites | None = None) -> None:
    """Raise ConstraintValidationFailed for the first constraint the stored graph breaks. With `writes`, only
    the constraints the statement's writes may break are checked, the others still holding: uniqueness
    and property types against the writes since the last check (which this one takes), existence against
    every write of the statement."""
    recent = writes.since_check if writes is not None else set()
    if writes is not None:
        writes.since_check = set()
    for constraint in sorted(catalog.constraints.values(), key=lambda item: item.id):
        check_unique, check_existence = uniqueness, existence
        if writes is not None:
            check_unique = uniqueness and any(w.may_break(constraint, existence=False) for w in recent)
            check_existence = existence and constraint.kind in EXISTENCE_KINDS and any(
                w.may_break(constraint, existence=True) for w in writes.statement)
            if not (check_unique or check_existence):
                continue
        violation = find_violation(connection, catalog, constraint, uniqueness=check_unique,
                                   existence=check_existence)
        if violation is not None:
            detail = "PropertyExistenceViolation" if violation.duplicate is None else "PropertyUniquenessViolation"
            if violation.actual_type is not None:
                detail = "PropertyTypeViolation"
            raise ConstraintViolation(violation_message(violation), span, detail=detail)


def violation_message(violation: Violation) -> str:
    """Neo4j's words: `Node(0) already exists with label `Book` and property `isbn` = '1449356265'`,
    `Node(0) with label `Author` must have the property `name``, `... must have the properties (`a`, `b`)`."""
    constraint = violation.constraint
    element, token = ELEMENT_WORDS[constraint.entity]
    keys = constraint.properties
    if violation.actual_type is not None:
        return (f"{element}({violation.element}) with {token} `{constraint.label}` required the property `{keys[0]}` "
                f"to be of type `{constraint.property_type}`, but was of type `{violation.actual_type}`.")
    if violation.duplicate is None:
        if len(keys) == 1:
            needs = f"the property `{keys[0]}`"
        else:
            needs = "the properties (" + ", ".join(f"`{key}`" for key in keys) + ")"
        return f"{element}({violation.element}) with {token} `{constraint.label}` must have {needs}"
    pairs = ", ".join(f"`{key}` = {literal(value)}" for key, value in zip(keys, violation.values, strict=False))
    noun = "property" if len(keys) == 1 else "properties"
    return f"{element}({violation.duplicate}) already exists with {token} `{constraint.label}` and {noun} {pairs}"


def creation_failure(violation: Violation) -> str:
    """Why a new constraint cannot be created over the data there (ConstraintCreationFailed)."""
    constraint = violation.constraint
    element, token = ELEMENT_WORDS[constraint.entity]
    head = f"Unable to create {constraint_description(constraint, with_id=False)}:\n"
    if violation.duplicate is None:
        message = violation_message(violation).rstrip(".")
        return head + message + ". Note that only the first found violation is shown."
    keys = constraint.properties
    pairs = ", ".join(f"`{key}` = {literal(value)}" for key, value in zip(keys, violation.values, strict=False))
    noun = "property" if len(keys) == 1 else "properties"
    return (head + f"Both {element}({violation.duplicate}) and {element}({violation.element}) have the {token} "
            f"`{constraint.label}` and {noun} {pairs}")


def schema_text(entity: str, label: str | None, properties: tuple[str, ...]) -> str:
    """`(:Book {isbn})`, `()-[:SEQUEL_OF {order}]-()`: a schema as Neo4j's messages write it."""
    keys = " {" + ", ".join(properties) + "}" if properties else ""
    token = f":{label}" if label else ""
    return f"({token}{keys})" if entity == "node" else f"()-[{token}{keys}]-()"


def constraint_description(constraint: ConstraintInfo, owned_index: int | None = None, *,
                           with_id: bool = True) -> str:
    """`Constraint( id=3, name='book_isbn', type='NODE PROPERTY UNIQUENESS', schema=(:Book {isbn}),
    ownedIndex=2 )`."""
    parts = [f"id={constraint.id}"] if with_id else []
    parts += [f"name='{constraint.name}'", f"type='{TYPE_NAMES[(constraint.kind, constraint.entity)]}'",
              f"schema={schema_text(constraint.entity, constraint.label, constraint.properties)}"]
    if owned_index is not None:
        parts.append(f"ownedIndex={owned_index}")
    if constraint.property_type is not None:
        parts.append(f"propertyType={constraint.property_type}")
    return "Constraint( " + ", ".join(parts) + " )"


def literal(value: Any) -> str:
    """A value as Neo4j's constraint messages quote it: strings in single quotes."""
    if isinstance(value, str):
        return "'" + value + "'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(literal(item) for item in value) + "]"
    return str(value)
