"""CREATE / DROP INDEX and CONSTRAINT, SHOW INDEXES / CONSTRAINTS: catalog changes with Neo4j's counters and
errors (docs/adr/0016-schema-commands-follow-neo4j.md).

- A name is unique among indexes and constraints together; one generated when none is given is
  `index_` or `constraint_` and eight hex digits (the two default lookup indexes keep Neo4j's names).
- `IF NOT EXISTS` makes a command a no-op (no counters) when an object of that name, or of that schema and
  type, exists; a conflicting object (another type on the same schema, an index of that name for a
  constraint, a constraint of that name for an index) is still an error. `IF EXISTS` makes dropping a
  missing object a no-op.
- A uniqueness or key constraint owns a range index of its own name and schema, which SHOW INDEXES lists
  (`owningConstraint`) and which goes with the constraint; it is not counted as an index added.
- A new constraint is checked against the data already there (ConstraintCreationFailed).
- SHOW lists by name; YIELD, WHERE and RETURN after it run as a query over the listed rows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.compile import bind
from engine.errors import CypherArgumentError, CypherSyntaxError, ParameterMissing, SchemaError, UnsupportedFeature
from engine.execute.constraints import (
    TYPE_NAMES,
    constraint_description,
    creation_failure,
    find_violation,
    schema_text,
)
from engine.execute.index_kinds import INDEX_KINDS
from engine.execute.results import Result, empty_counters
from engine.execute.routines import (
    FUNCTION_ALL_COLUMNS,
    FUNCTION_COLUMNS,
    PROCEDURE_ALL_COLUMNS,
    PROCEDURE_COLUMNS,
    function_rows,
    procedure_rows,
)
from engine.quoting import cypher_name, cypher_string
from engine.semantic import bound as b
from engine.semantic.type_predicates import PROPERTY_SCALARS, parse_type
from engine.storage.schema import ConstraintInfo, IndexInfo
from engine.syntax import ast

if TYPE_CHECKING:
    from engine.execute.statement_run import StatementRun

INDEX_PROVIDERS = {"range": "range-1.0", "text": "text-2.0", "point": "point-1.0", "lookup": "token-lookup-1.0"}
"""The providers of the plain index kinds; those of the feature packages' kinds are in INDEX_KINDS."""
LOOKUP_NAMES = {"node": "index_343aff4e", "relationship": "index_f7700477"}
"""The names Neo4j gives the node label and relationship type lookup indexes (those of a new database)."""
POINT_CONFIG = {
    "spatial.cartesian-3d.max": [1000000.0, 1000000.0, 1000000.0],
    "spatial.cartesian-3d.min": [-1000000.0, -1000000.0, -1000000.0],
    "spatial.cartesian.max": [1000000.0, 1000000.0],
    "spatial.cartesian.min": [-1000000.0, -1000000.0],
    "spatial.wgs-84-3d.max": [180.0, 90.0, 1000000.0],
    "spatial.wgs-84-3d.min": [-180.0, -90.0, -1000000.0],
    "spatial.wgs-84.max": [180.0, 90.0],
    "spatial.wgs-84.min": [-180.0, -90.0],
}
"""A point index's default configuration, as SHOW INDEXES YIELD options shows it."""
FULLTEXT_ANALYZER = "standard-no-stop-words"
KEY_WORDS = {"unique": "UNIQUE", "node_key": "KEY", "not_null": "NOT NULL"}

INDEX_COLUMNS = ("id", "name", "state", "populationPercent", "type", "entityType", "labelsOrTypes", "properties",
                 "indexProvider", "owningConstraint", "lastRead", "readCount")
INDEX_ALL_COLUMNS = (*INDEX_COLUMNS, "trackedSince", "options", "failureMessage", "createStatement")
CONSTRAINT_COLUMNS = ("id", "name", "type", "entityType", "labelsOrTypes", "properties", "ownedIndex",
                      "propertyType")
CONSTRAINT_ALL_COLUMNS = (*CONSTRAINT_COLUMNS, "options", "createStatement")

INDEX_FILTERS = {"all": None, "range": "range", "text": "text", "point": "point", "lookup": "lookup",
                 "fulltext": "fulltext", "vector": "vector"}
"""SHOW <word> INDEXES → the index type listed (None: all)."""


def provider(kind: str) -> str | None:
    """The index provider of an index kind, plain or registered; None for a kind there is none of."""
    registered = INDEX_KINDS.get(kind)
    return registered.provider if registered is not None else INDEX_PROVIDERS.get(kind)


def _constraint_filters() -> dict[str, tuple[str | None, str | None]]:
    """SHOW <words> CONSTRAINTS (words joined by `_`, as the parser gives them) → (kind, entity) listed."""
    filters: dict[str, tuple[str | None, str | None]] = {"all": (None, None)}
    entities = {"node": ("node",), "relationship": ("rel", "relationship")}
    for kind, nouns in (("unique", ("unique", "uniqueness")), ("not_null", ("exist", "existence"))):
        for noun in nouns:
            for prefix in ("", "property_"):
                filters[prefix + noun] = (kind, None)
                for entity, words in entities.items():
                    for word in words:
                        filters[f"{word}_{prefix}{noun}"] = (kind, entity)
    filters["key"] = ("node_key", None)
    filters["node_key"] = ("node_key", "node")
    filters["rel_key"] = filters["relationship_key"] = ("node_key", "relationship")
    filters["property_type"] = ("property_type", None)
    filters["node_property_type"] = ("property_type", "node")
    filters["rel_property_type"] = filters["relationship_property_type"] = ("property_type", "relationship")
    return filters


CONSTRAINT_FILTERS = _constraint_filters()


def counted(**changes: int) -> Result:
    counters = empty_counters()
    counters.update(changes)
    return Result([], [], counters)


def schema_name(command: b.BSchemaCommand, name: str | ast.Parameter | None) -> str | None:
    """A schema object's name as written, or the value of the `$parameter` written for it."""
    if not isinstance(name, ast.Parameter):
        return name
    if name.name not in command.params:
        raise ParameterMissing(f"expected a value for the parameter ${name.name}", name.span,
                               detail="MissingParameter")
    value = command.params[name.name]
    if not isinstance(value, str):
        raise CypherSyntaxError(f"the name given in ${name.name} must be a string", name.span,
                                detail="InvalidArgumentType")
    return value


def generated_name(prefix: str, *parts: object) -> str:
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:8]
    return f"{prefix}_{digest}"


def _backing_index(run: StatementRun, constraint: str) -> IndexInfo | None:
    return next((index for index in run.store.catalog.indexes.values() if index.owned_by == constraint), None)


def index_may_be_created(catalog: Any, statement: ast.CreateIndex, name: str,
                         schema: tuple[str, str, tuple[str, ...], tuple[str, ...]]) -> bool:
    """Whether an index `name` on `schema` (kind, entity, labels, properties) is new: False when IF NOT EXISTS
    finds one, Neo4j's error for any other clash. IF NOT EXISTS skips only an index of that name, or of that
    type and schema (a constraint's backing index too); a constraint of that name is still a conflict, as in
    Neo4j's DoNothingIfExistsForIndex."""
    same = next((i for i in catalog.indexes.values() if (i.kind, i.entity, i.labels, i.properties) == schema), None)
    if (same is not None or name in catalog.indexes) and statement.if_not_exists:
        return False
    if name in catalog.constraints:
        raise SchemaError(f"There already exists a constraint called '{name}'.", statement.span,
                          detail="ConstraintWithNameAlreadyExists")
    if same is not None and same.name == name:
        raise SchemaError(f"An equivalent index already exists, '{_index_description(same)}'.", statement.span,
                          detail="EquivalentSchemaRuleAlreadyExists")
    if name in catalog.indexes:
        raise SchemaError(f"There already exists an index called '{name}'.", statement.span,
                          detail="IndexWithNameAlreadyExists")
    if same is not None and same.owned_by is not None:
        raise SchemaError(f"There is a uniqueness constraint on {_index_schema(*schema)}, so an index is already "
                          "created that matches this.", statement.span, detail="ConstraintAlreadyExists")
    if same is not None:
        raise SchemaError(f"There already exists an index {_index_schema(*schema)}.", statement.span,
                          detail="IndexAlreadyExists")
    return True


def _index_schema(kind: str, entity: str, labels: tuple[str, ...], properties: tuple[str, ...]) -> str:
    """An index's schema as messages write it; a lookup index's is `(n)` or `()-[r]-()`, a full-text index's
    `(:A:B {p, q})` or `()-[:R:S {p}]-()`."""
    if kind == "lookup":
        return "(n)" if entity == "node" else "()-[r]-()"
    if kind == "fulltext":
        inner = ":" + ":".join(labels) + " {" + ", ".join(properties) + "}"
        return f"({inner})" if entity == "node" else f"()-[{inner}]-()"
    return schema_text(entity, labels[0] if labels else None, properties)


def _index_description(index: IndexInfo) -> str:
    schema = _index_schema(index.kind, index.entity, index.labels, index.properties)
    return (f"Index( id={index.id}, name='{index.name}', type='{index.kind.upper()}', schema={schema}, "
            f"indexProvider='{provider(index.kind)}' )")


# -- constraints ------------------------------------------------------------------------------------------

def _property_type(statement: ast.CreateConstraint) -> str:
    """The type of a property type constraint, normalised as SHOW CONSTRAINTS shows it (`STRING`,
    `STRING | LIST<STRING NOT NULL>`): its alternatives are the property scalars and lists of one of them
    without nulls, in the order of the Cypher manual's "Allowed types" list."""
    text = statement.property_type or ""
    order = {name: index for index, name in enumerate(PROPERTY_SCALARS)}
    names: dict[str, int] = {}
    for test in parse_type(text, statement.span).alternatives:
        element = test.element.alternatives if test.element is not None else ()
        if test.base == "VECTOR":
            raise UnsupportedFeature(f"property type constraints on VECTOR types (`{text}`)", statement.span)
        if test.base in order and test.nullable:
            names[test.base] = order[test.base]
        elif (test.base == "LIST" and test.nullable and len(element) == 1 and element[0].base in order
              and not element[0].nullable):
            names[f"LIST<{element[0].base} NOT NULL>"] = len(order) + order[element[0].base]
        else:
            raise CypherSyntaxError(f"Failed to create {statement.entity} property type constraint: Invalid property "
                                    f"type `{text}`.", statement.span, detail="InvalidPropertyType")
    return " | ".join(sorted(names, key=names.__getitem__))


def create_constraint(run: StatementRun, command: b.BSchemaCommand) -> Result:
    statement = command.statement
    assert isinstance(statement, ast.CreateConstraint)
    catalog = run.store.catalog
    if statement.kind in ("not_null", "property_type") and len(statement.properties) > 1:
        predicate = "IS NOT NULL" if statement.kind == "not_null" else f"IS :: {statement.property_type}"
        raise CypherSyntaxError(f"Constraint type '{predicate}' does not allow multiple properties", statement.span,
                                detail="InvalidConstraint")
    property_type = _property_type(statement) if statement.kind == "property_type" else None
    if len(set(statement.properties)) < len(statement.properties):
        raise SchemaError(f"the property list {', '.join(statement.properties)} repeats a property",
                          statement.span, detail="RepeatedPropertyInCompositeSchema")
    schema = (statement.entity, statement.label, statement.properties)
    name = schema_name(command, statement.name) or generated_name("constraint", statement.kind, *schema)
    same_schema = [c for c in catalog.constraints.values() if (c.entity, c.label, c.properties) == schema]
    same_type = next((c for c in same_schema if c.kind == statement.kind and c.property_type == property_type), None)
    exists = same_type is not None or name in catalog.constraints
    if exists and statement.if_not_exists:
        return counted()
    conflict = next((c for c in same_schema if c.kind == statement.kind and c.property_type != property_type), None)
    if conflict is not None:  # one property, two types: "Property type constraints ... with different types"
        raise SchemaError(f"Conflicting constraint already exists: {constraint_description(conflict)}",
                          statement.span, detail="ConstraintAlreadyExists")
    if same_type is not None:
        owned = _backing_index(run, same_type.name)
        description = constraint_description(same_type, owned.id if owned else None)
        if same_type.name == name:
            raise SchemaError(f"An equivalent constraint already exists, '{description}'.", statement.span,
                              detail="EquivalentSchemaRuleAlreadyExists")
        raise SchemaError(f"Constraint already exists: {description}", statement.span,
                          detail="ConstraintAlreadyExists")
    if name in catalog.constraints:
        raise SchemaError(f"There already exists a constraint called '{name}'.", statement.span,
                          detail="ConstraintWithNameAlreadyExists")
    if name in catalog.indexes:
        raise SchemaError(f"There already exists an index called '{name}'.", statement.span,
                          detail="IndexWithNameAlreadyExists")
    indexed = statement.kind in ("unique", "node_key")
    if indexed:
        clash = next((c for c in same_schema if c.kind in ("unique", "node_key")), None)
        if clash is not None:
            owned = _backing_index(run, clash.name)
            description = constraint_description(clash, owned.id if owned else None)
            raise SchemaError(f"Constraint already exists: {description}", statement.span,
                              detail="ConstraintAlreadyExists")
        index = next((i for i in catalog.indexes.values() if i.kind == "range" and (
            i.entity, i.labels, i.properties) == (statement.entity, (statement.label,), statement.properties)), None)
        if index is not None:
            raise SchemaError(f"There already exists an index {schema_text(*schema)}.\nA constraint cannot be "
                              "created until the index has been dropped.", statement.span,
                              detail="IndexAlreadyExists")
    index_id = run.store.allocate_schema_id() if indexed else None
    constraint = ConstraintInfo(name, statement.kind, statement.entity, statement.label, statement.properties,
                                property_type, id=run.store.allocate_schema_id())
    violation = find_violation(run.connection, catalog, constraint)
    if violation is not None:
        raise SchemaError(creation_failure(violation), statement.span, detail="ConstraintCreationFailed")
    if index_id is not None:
        run.store.add_index(IndexInfo(name, "range", statement.entity, (statement.label,), statement.properties,
                                      owned_by=name, id=index_id))
    run.store.add_constraint(constraint)
    return counted(constraints_added=1)


def drop_constraint(run: StatementRun, command: b.BSchemaCommand) -> Result:
    statement = command.statement
    assert isinstance(statement, ast.DropConstraint)
    catalog = run.store.catalog
    name = schema_name(command, statement.name)
    if name is None:  # the old `DROP CONSTRAINT ON (n:L) ASSERT ...` names its constraint by schema and type
        name = next((c.name for c in catalog.constraints.values() if (c.kind, c.entity, c.label, c.properties) == (
            statement.kind, statement.entity, statement.label, statement.properties)), None)
        if name is None:
            schema = schema_text(statement.entity or "node", statement.label, statement.properties)
            raise SchemaError(f"Unable to drop constraint on {schema}: No such constraint", statement.span,
                              detail="ConstraintDropFailed")
    if name not in catalog.constraints:
        if statement.if_exists:
            return counted()
        raise SchemaError(f"Unable to drop constraint `{name}`: No such constraint {name}.", statement.span,
                          detail="ConstraintDropFailed")
    owned = _backing_index(run, name)
    if owned is not None:
        run.store.drop_index(owned.name)
    run.store.drop_constraint(name)
    return counted(constraints_removed=1)


# -- indexes ----------------------------------------------------------------------------------------------

def create_index(run: StatementRun, command: b.BSchemaCommand) -> Result:
    statement = command.statement
    assert isinstance(statement, ast.CreateIndex)
    kind = INDEX_KINDS.get(statement.kind)
    if kind is not None and kind.create is not None:  # its own OPTIONS and catalog entry (vector/indexes.py)
        return kind.create(run, command)
    catalog = run.store.catalog
    if provider(statement.kind) is None:
        raise UnsupportedFeature(f"{statement.kind} indexes", statement.span)
    options = None
    if statement.kind == "fulltext":
        options = fulltext_options(command, statement.options)
    elif statement.options is not None:
        raise UnsupportedFeature("OPTIONS on CREATE INDEX (the default provider and configuration are used "
                                 "without it)", statement.options.span)
    _check_index_shape(statement)
    labels = statement.labels if statement.kind != "lookup" else ()
    schema = (statement.kind, statement.entity, labels, statement.properties)
    default = LOOKUP_NAMES[statement.entity] if statement.kind == "lookup" else generated_name("index", *schema)
    name = schema_name(command, statement.name) or default
    if not index_may_be_created(catalog, statement, name, schema):
        return counted()
    index = IndexInfo(name, statement.kind, statement.entity, labels, statement.properties, options,
                      id=run.store.allocate_schema_id())
    run.store.add_index(index)
    if kind is not None and kind.refresh is not None:  # filled now, kept current by the change log
        kind.refresh(run, index, None)
        run.changes.begin()
    return counted(indexes_added=1)


def _check_index_shape(statement: ast.CreateIndex) -> None:
    """What the syntax allows each index type: one label or type, one property but for range indexes, and a
    lookup index's `labels(n)` on nodes, `type(r)` on relationships, with no label or type."""
    if statement.kind == "fulltext":
        if not statement.labels or not statement.properties:
            raise CypherSyntaxError("a fulltext index needs at least one label or relationship type and one property",
                                    statement.span, detail="InvalidIndex")
        if len(set(statement.properties)) < len(statement.properties):
            raise SchemaError(f"the property list {', '.join(statement.properties)} repeats a property",
                              statement.span, detail="RepeatedPropertyInCompositeSchema")
        return
    if statement.kind == "lookup":
        function = (statement.function or "").lower()
        expected = "labels" if statement.entity == "node" else "type"
        if statement.labels or function != expected:
            raise CypherSyntaxError(f"a {statement.entity} lookup index is created FOR "
                                    + ("(n) ON EACH labels(n)" if statement.entity == "node"
                                       else "()-[r]-() ON EACH type(r)"), statement.span, detail="InvalidIndex")
        return
    if len(statement.labels) != 1:
        raise CypherSyntaxError(f"a {statement.kind} index takes exactly one label or relationship type",
                                statement.span, detail="InvalidIndex")
    if statement.kind != "range" and len(statement.properties) != 1:
        raise CypherSyntaxError(f"Only single property {statement.kind} indexes are supported", statement.span,
                                detail="InvalidIndex")
    if len(set(statement.properties)) < len(statement.properties):
        raise SchemaError(f"the property list {', '.join(statement.properties)} repeats a property",
                          statement.span, detail="RepeatedPropertyInCompositeSchema")


def drop_index(run: StatementRun, command: b.BSchemaCommand) -> Result:
    statement = command.statement
    assert isinstance(statement, ast.DropIndex)
    catalog = run.store.catalog
    name = schema_name(command, statement.name)
    if name is None:  # the old `DROP INDEX ON :L(p)`
        name = next((i.name for i in catalog.indexes.values() if i.kind == "range" and i.owned_by is None
                     and i.labels == (statement.label,) and i.properties == statement.properties), None)
        if name is None:
            raise SchemaError(f"Unable to drop index on {schema_text('node', statement.label, statement.properties)}"
                              ": No such index", statement.span, detail="IndexDropFailed")
    index = catalog.indexes.get(name)
    if index is None:
        if statement.if_exists:
            return counted()
        raise SchemaError(f"Unable to drop index called `{name}`. There is no such index.", statement.span,
                          detail="IndexDropFailed")
    if index.owned_by is not None:
        raise SchemaError(f"Index belongs to constraint '{index.owned_by}'. Unable to drop '{name}'.",
                          statement.span, detail="IndexDropFailed")
    run.store.drop_index(name)
    kind = INDEX_KINDS.get(index.kind)
    if kind is not None and kind.drop is not None:
        kind.drop(run, index)
    return counted(indexes_removed=1)


def fulltext_options(command: b.BSchemaCommand, options: ast.Expression | None) -> str:
    """A full-text index's OPTIONS as the JSON text the catalog keeps: `indexConfig` with
    `fulltext.analyzer` (one of the analyzers the full-text package registers, default
    `standard-no-stop-words`) and
    `fulltext.eventually_consistent` (accepted; the index is always current), `indexProvider` fulltext-1.0."""
    config: dict[str, Any] = {"fulltext.analyzer": FULLTEXT_ANALYZER, "fulltext.eventually_consistent": False}
    if options is None:
        return json.dumps(config)
    value = _option_value(command, options)
    if not isinstance(value, dict) or set(value) - {"indexConfig", "indexProvider"}:
        raise CypherArgumentError("a fulltext index's OPTIONS is a map of indexConfig and indexProvider",
                                  options.span, detail="InvalidArgumentValue")
    if value.get("indexProvider", "fulltext-1.0") != "fulltext-1.0":
        raise CypherArgumentError(f"Could not create fulltext index with specified index provider "
                                  f"'{value['indexProvider']}'.", options.span, detail="InvalidArgumentValue")
    given = value.get("indexConfig") or {}
    if not isinstance(given, dict) or set(given) - set(config):
        raise CypherArgumentError("a fulltext index's indexConfig takes `fulltext.analyzer` and "
                                  "`fulltext.eventually_consistent`", options.span, detail="InvalidArgumentValue")
    kind = INDEX_KINDS.get("fulltext")
    known = kind.analyzers if kind is not None else (FULLTEXT_ANALYZER,)
    if given.get("fulltext.analyzer", FULLTEXT_ANALYZER) not in known:
        raise UnsupportedFeature(f"the fulltext analyzer {given['fulltext.analyzer']!r} (implemented: "
                                 f"{', '.join(sorted(known))})", options.span)
    if not isinstance(given.get("fulltext.eventually_consistent", False), bool):
        raise CypherArgumentError("fulltext.eventually_consistent must be a boolean", options.span,
                                  detail="InvalidArgumentValue")
    config.update(given)
    return json.dumps(config)


def _option_value(command: b.BSchemaCommand, expression: ast.Expression) -> Any:
    """The value of an OPTIONS expression: literals, lists, maps and parameters."""
    if isinstance(expression, ast.Literal):
        return expression.value
    if isinstance(expression, ast.Parameter):
        if expression.name not in command.params:
            raise ParameterMissing(f"expected a value for the parameter ${expression.name}", expression.span,
                                   detail="MissingParameter")
        return command.params[expression.name]
    if isinstance(expression, ast.ListLiteral):
        return [_option_value(command, item) for item in expression.items]
    if isinstance(expression, ast.MapLiteral):
        return {key: _option_value(command, value) for key, value in expression.entries}
    raise UnsupportedFeature("an OPTIONS value that is not a literal or a parameter", expression.span)


def _cypher_literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return cypher_string(value)
    return repr(value)


def _fulltext_config(index: IndexInfo) -> dict[str, Any]:
    config: dict[str, Any] = json.loads(index.options) if index.options else {}
    return dict(sorted(config.items()))


# -- SHOW -------------------------------------------------------------------------------------------------

def _index_statement(index: IndexInfo, constraints: dict[str, ConstraintInfo]) -> str:
    if index.owned_by is not None and index.owned_by in constraints:
        return _constraint_statement(constraints[index.owned_by])
    if index.kind == "lookup":
        target = "(n) ON EACH labels(n)" if index.entity == "node" else "()-[r]-() ON EACH type(r)"
        return f"CREATE LOOKUP INDEX {cypher_name(index.name)} FOR {target}"
    if index.kind == "fulltext":
        variable = "n" if index.entity == "node" else "r"
        labels = "|".join(cypher_name(label) for label in index.labels)
        target = f"({variable}:{labels})" if index.entity == "node" else f"()-[{variable}:{labels}]-()"
        keys = ", ".join(f"{variable}.{cypher_name(key)}" for key in index.properties)
        config = ", ".join(f"`{key}`: {_cypher_literal(value)}" for key, value in _fulltext_config(index).items())
        return (f"CREATE FULLTEXT INDEX {cypher_name(index.name)} FOR {target} ON EACH [{keys}]"
                f" OPTIONS {{indexConfig: {{{config}}}, indexProvider: 'fulltext-1.0'}}")
    registered = INDEX_KINDS.get(index.kind)
    if registered is not None and registered.create_statement is not None:
        return registered.create_statement(index)
    variable = "n" if index.entity == "node" else "r"
    label = cypher_name(index.labels[0])
    target = f"({variable}:{label})" if index.entity == "node" else f"()-[{variable}:{label}]-()"
    keys = ", ".join(f"{variable}.{cypher_name(key)}" for key in index.properties)
    text = f"CREATE {index.kind.upper()} INDEX {cypher_name(index.name)} FOR {target} ON ({keys})"
    if index.kind == "point":
        config = ",".join(f"{cypher_name(key)}: [{', '.join(map(str, value))}]" for key, value in POINT_CONFIG.items())
        text += f" OPTIONS {{indexConfig: {{{config}}}}}"
    return text


def _constraint_statement(constraint: ConstraintInfo) -> str:
    variable = "n" if constraint.entity == "node" else "r"
    label = cypher_name(constraint.label)
    target = f"({variable}:{label})" if constraint.entity == "node" else f"()-[{variable}:{label}]-()"
    keys = ", ".join(f"{variable}.{cypher_name(key)}" for key in constraint.properties)
    if constraint.kind == "property_type":
        predicate = f":: {constraint.property_type}"
        return f"CREATE CONSTRAINT {cypher_name(constraint.name)} FOR {target} REQUIRE ({keys}) IS {predicate}"
    predicate = KEY_WORDS[constraint.kind]
    if constraint.kind == "node_key":
        predicate = ("NODE " if constraint.entity == "node" else "RELATIONSHIP ") + predicate
    return f"CREATE CONSTRAINT {cypher_name(constraint.name)} FOR {target} REQUIRE ({keys}) IS {predicate}"


def index_rows(run: StatementRun, kind: str | None) -> list[dict[str, Any]]:
    """Every index (of `kind`, or all), by name, with all of SHOW INDEXES YIELD *'s columns."""
    catalog = run.store.catalog
    rows = []
    for index in sorted(catalog.indexes.values(), key=lambda item: item.name):
        if kind is not None and index.kind != kind:
            continue
        lookup = index.kind == "lookup"
        config: dict[str, Any] = dict(POINT_CONFIG) if index.kind == "point" else (
            _fulltext_config(index) if index.kind == "fulltext" else {})
        registered = INDEX_KINDS.get(index.kind)
        if registered is not None and registered.config is not None:
            config = registered.config(index)
        rows.append({
            "id": index.id, "name": index.name, "state": "ONLINE", "populationPercent": 100.0,
            "type": index.kind.upper(), "entityType": index.entity.upper(),
            "labelsOrTypes": None if lookup else list(index.labels),
            "properties": None if lookup else list(index.properties),
            "indexProvider": provider(index.kind), "owningConstraint": index.owned_by,
            "lastRead": None, "readCount": None, "trackedSince": None,
            "options": {"indexConfig": config, "indexProvider": provider(index.kind)},
            "failureMessage": "", "createStatement": _index_statement(index, catalog.constraints),
        })
    return rows


def constraint_rows(run: StatementRun, kind: str | None, entity: str | None) -> list[dict[str, Any]]:
    """Every constraint (of `kind` and `entity`, or all), by name, with all of SHOW CONSTRAINTS YIELD *'s
    columns."""
    rows = []
    for constraint in sorted(run.store.catalog.constraints.values(), key=lambda item: item.name):
        if (kind is not None and constraint.kind != kind) or (entity is not None and constraint.entity != entity):
            continue
        owned = _backing_index(run, constraint.name)
        rows.append({
            "id": constraint.id, "name": constraint.name,
            "type": TYPE_NAMES[(constraint.kind, constraint.entity)].replace(" ", "_"),
            "entityType": constraint.entity.upper(), "labelsOrTypes": [constraint.label],
            "properties": list(constraint.properties), "ownedIndex": owned.name if owned else None,
            "propertyType": constraint.property_type,
            "options": {"indexConfig": {}, "indexProvider": "range-1.0"} if owned else None,
            "createStatement": _constraint_statement(constraint),
        })
    return rows


def show_indexes(run: StatementRun, command: b.BSchemaCommand) -> Result:
    statement = command.statement
    assert isinstance(statement, ast.ShowIndexes)
    if statement.kind not in INDEX_FILTERS:
        raise CypherSyntaxError(f"SHOW {statement.kind.replace('_', ' ').upper()} INDEXES: expected ALL, FULLTEXT, "
                                "LOOKUP, POINT, RANGE, TEXT or VECTOR", statement.span, detail="InvalidShowCommand")
    rows = index_rows(run, INDEX_FILTERS[statement.kind])
    return _listing(run, command, statement, rows, INDEX_COLUMNS, INDEX_ALL_COLUMNS)


def show_constraints(run: StatementRun, command: b.BSchemaCommand) -> Result:
    statement = command.statement
    assert isinstance(statement, ast.ShowConstraints)
    if statement.kind not in CONSTRAINT_FILTERS:
        raise CypherSyntaxError(f"SHOW {statement.kind.replace('_', ' ').upper()} CONSTRAINTS: not a constraint type "
                                "filter", statement.span, detail="InvalidShowCommand")
    kind, entity = CONSTRAINT_FILTERS[statement.kind]
    rows = constraint_rows(run, kind, entity)
    return _listing(run, command, statement, rows, CONSTRAINT_COLUMNS, CONSTRAINT_ALL_COLUMNS)


def show_routines(run: StatementRun, command: b.BSchemaCommand) -> Result:
    statement = command.statement
    assert isinstance(statement, ast.ShowRoutines)
    if statement.kind not in ("all", "built_in"):
        raise UnsupportedFeature(f"SHOW {statement.kind.replace('_', ' ').upper()} {statement.what.upper()}"
                                 " (the engine has built-in ones only)", statement.span)
    if statement.what == "procedures":
        return _listing(run, command, statement, procedure_rows(), PROCEDURE_COLUMNS, PROCEDURE_ALL_COLUMNS)
    return _listing(run, command, statement, function_rows(), FUNCTION_COLUMNS, FUNCTION_ALL_COLUMNS)


def _listing(run: StatementRun, command: b.BSchemaCommand, statement: ast.ShowIndexes | ast.ShowConstraints |
             ast.ShowRoutines,
             rows: list[dict[str, Any]], default: tuple[str, ...], every: tuple[str, ...]) -> Result:
    """The rows of a SHOW command: its default columns, or what YIELD, WHERE and RETURN make of them (run as
    `UNWIND $rows AS row WITH row.c AS c, ... WHERE ... RETURN ...` over the listed rows)."""
    if statement.returns is not None and statement.yield_items is None and not statement.yield_star:
        raise CypherSyntaxError("RETURN after SHOW needs a YIELD before it", statement.returns.span,
                                detail="InvalidShowCommand")
    if statement.yield_star:
        fields = [(column, column) for column in every]
    elif statement.yield_items is not None:
        fields = [(item.field, item.alias.name if item.alias else item.field) for item in statement.yield_items]
        unknown = [item for item in statement.yield_items if item.field not in every]
        if unknown:
            raise CypherSyntaxError(f"Trying to YIELD non-existing column: `{unknown[0].field}`", unknown[0].span,
                                    detail="UndefinedVariable")
    else:
        fields = [(column, column) for column in default]
    if statement.where is None and statement.returns is None:
        names = [alias for _, alias in fields]
        return Result(names, [tuple(row[field] for field, _ in fields) for row in rows], empty_counters(), True)
    return _run_listing_query(run, command, statement, rows, fields)


def _run_listing_query(run: StatementRun, command: b.BSchemaCommand,
                       statement: ast.ShowIndexes | ast.ShowConstraints | ast.ShowRoutines, rows: list[dict[str, Any]],
                       fields: list[tuple[str, str]]) -> Result:
    span = statement.span
    parameter = "__show_rows"
    row = ast.Variable("__show_row", span=span)
    items = tuple(ast.ProjectionItem(ast.PropertyLookup(row, field, span=span), alias, alias, span=span)
                  for field, alias in fields)
    clauses: list[ast.Clause] = [
        ast.Unwind(ast.Parameter(parameter, span=span), row, span=span),
        ast.With(ast.Projection(items, False, False, (), None, None, span=span), statement.where, span=span),
    ]
    if statement.returns is not None:
        clauses.append(statement.returns)
    else:
        columns = tuple(ast.ProjectionItem(ast.Variable(alias, span=span), None, alias, span=span)
                        for _, alias in fields)
        clauses.append(ast.Return(ast.Projection(columns, False, False, (), None, None, span=span), span=span))
    query = ast.Query((ast.SingleQuery(tuple(clauses), span=span),), (), span=span)
    bound = bind(query, {**command.params, parameter: rows}, run.store.catalog)
    assert isinstance(bound, b.BoundQuery)
    assert run.run_query is not None
    result = run.run_query(run, bound)
    if statement.returns is None:
        result.ordered = True  # SHOW lists by name, and WHERE keeps that order
    return result


SCHEMA_COMMANDS: dict[type, Callable[[Any, b.BSchemaCommand], Result]] = {
    ast.CreateConstraint: create_constraint,
    ast.DropConstraint: drop_constraint,
    ast.CreateIndex: create_index,
    ast.DropIndex: drop_index,
    ast.ShowIndexes: show_indexes,
    ast.ShowConstraints: show_constraints,
    ast.ShowRoutines: show_routines,
}


def run_schema_command(run: StatementRun, command: b.BSchemaCommand) -> Result:
    handler = SCHEMA_COMMANDS.get(type(command.statement))
    if handler is None:
        raise UnsupportedFeature(type(command.statement).__name__, command.statement.span)
    return handler(run, command)
