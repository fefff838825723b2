"""Bound expressions -> DuckDB SQL, directed by static types.

`compile(expression)` returns SQL in the representation `sql_type(expression.type)` names: native SQL
where the type is known, a VARIANT (handled by the runtime macros) where it is not. Operators choose their
SQL from the operand kinds (`COMPARISON_KINDS`, `_arithmetic`), so `n.seq < 3` on an INTEGER column is a
plain `<` while the same on a VARIANT goes through `cy_cmp`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine import types as t
from engine.errors import CypherTypeError, UnsupportedFeature
from engine.quoting import sql_identifier, sql_string
from engine.semantic import bound as b
from engine.semantic.constants import constant_of
from engine.semantic.scope import Variable
from engine.semantic.type_predicates import PROPERTY_SCALARS, TypeTest, TypeUnion, parse_type
from engine.sqlgen import runtime_temporal, spatial_values, temporal_arithmetic, temporal_values
from engine.sqlgen.context import SelectContext
from engine.sqlgen.dynamic_labels import has_labels_sql, has_type_sql, label_list_sql
from engine.sqlgen.runtime import capped_concat, capped_text_concat, error_sql
from engine.sqlgen.sql import Term, cast, let, macro
from engine.storage.encoding import KIND_CODES
from engine.syntax import ast
from engine.temporal import PAYLOAD_FIELDS
from engine.types import CypherType, Kind, is_variant, sql_type

if TYPE_CHECKING:
    from engine.sqlgen.generator import QueryCompiler

NUMERIC = (Kind.INTEGER, Kind.FLOAT)
NATIVE_EQUAL_ELEMENTS = (Kind.STRING, Kind.BOOLEAN, Kind.INTEGER)
"""Kinds whose SQL `=` is Cypher's `=` on non-null values: lists of them compare natively."""


def to_variant(sql: str, cypher_type: CypherType) -> str:
    """Convert SQL in `cypher_type`'s representation to a VARIANT."""
    kind = cypher_type.kind
    if is_variant(cypher_type):
        return sql
    if kind in (Kind.BOOLEAN, Kind.INTEGER, Kind.FLOAT, Kind.STRING):
        return cast(sql, "VARIANT")
    if kind is Kind.NODE:
        return f"cy_node({sql})"
    if kind is Kind.RELATIONSHIP:
        return f"cy_rel({sql})"
    if kind is Kind.PATH:
        return f"cy_path({sql})"
    if kind in t.TEMPORAL_KINDS:
        return temporal_values.to_variant(sql, kind)
    if kind is Kind.POINT:
        return spatial_values.to_variant(sql)
    if kind is Kind.LIST:
        element = cypher_type.element or t.ANY
        if _variant_cast_is_exact(element):
            return cast(sql, "VARIANT")
        param = Term("x")
        return f"list_transform({sql}, lambda {param}: {to_variant(param, element)})::VARIANT"
    if cypher_type.is_record:
        if all(_variant_cast_is_exact(field_type) for _, field_type in cypher_type.fields or ()):
            return f"({sql})::VARIANT"
        entries = ", ".join(
            f"{sql_identifier(key)} := {to_variant(f'struct_extract({sql}, {sql_string(key)})', field_type)}"
            for key, field_type in cypher_type.fields or ())
        return f"CASE WHEN ({sql}) IS NULL THEN NULL ELSE struct_pack({entries})::VARIANT END"
    return sql


def _variant_cast_is_exact(cypher_type: CypherType) -> bool:
    """Whether `::VARIANT` alone gives the engine's encoding (no entity or path tags inside)."""
    return all(is_variant(leaf) or leaf.kind in (Kind.BOOLEAN, Kind.INTEGER, Kind.FLOAT, Kind.STRING)
               for leaf in t.leaf_types(cypher_type))


def convert(sql: str, source: CypherType, target: CypherType) -> str:
    """SQL of type `source` in the representation of `target` (a supertype of it)."""
    if sql_type(source) == sql_type(target):
        return sql
    if source.kind is Kind.NULL:
        return Term(f"NULL::{sql_type(target)}")
    if is_variant(target):
        return to_variant(sql, source)
    if target.kind is Kind.LIST and source.kind is Kind.LIST:
        inner = convert(Term("x"), source.element or t.ANY, target.element or t.ANY)
        return f"list_transform({sql}, lambda x: {inner})"
    if target.is_record and source.is_record:
        entries = ", ".join(
            f"{sql_identifier(key)} := "
            + convert(f"struct_extract({sql}, {sql_string(key)})", source.field(key) or t.NULL, field_type)
            for key, field_type in target.fields or ())
        return f"CASE WHEN ({sql}) IS NULL THEN NULL ELSE struct_pack({entries}) END"
    if target.kind is Kind.FLOAT and source.kind is Kind.INTEGER:
        return f"({sql})::DOUBLE"
    if (target.kind in t.TEMPORAL_KINDS or target.kind is Kind.POINT) and is_variant(source):
        return convert_from_variant(sql, target)
    raise UnsupportedFeature(f"converting {source!r} to {target!r}")


def mismatch_of(sql: str, cypher_type: CypherType, expected: str, target_sql: str) -> str:
    """`sql`, a value of `cypher_type`, where a value of type `expected` is needed: null stays null, anything
    else is a type error once a row brings it. The binder refuses at compile time the types the query text
    fixes; a type that reaches here came from stored data or from what the statement itself writes, and
    whether a statement compiles never depends on those (ADR-0053)."""
    message = sql_string(f"type mismatch: expected {expected} but was {cypher_type!r}")
    return (f"CASE WHEN ({sql}) IS NULL THEN NULL::{target_sql}"
            f" ELSE {error_sql('TypeError', 'InvalidArgumentType', message)} END")


def entity_id_of(sql: str, cypher_type: CypherType, entity: str) -> str:
    """The id of the node (`entity`) or relationship `sql` holds, a value of `cypher_type`: a value only known
    at run time, or of a type read off data, that is no such element is a type error on its row."""
    kind = Kind.NODE if entity == "node" else Kind.RELATIONSHIP
    if cypher_type.kind is kind:
        return sql
    if cypher_type.kind is Kind.NULL:
        return Term("NULL::BIGINT")
    if is_variant(cypher_type):
        return macro("cy_node_id" if entity == "node" else "cy_rel_id", sql)
    return mismatch_of(sql, cypher_type, kind.value.title(), "BIGINT")


class ExpressionCompiler:
    """Compiles bound expressions inside one SELECT (`context`)."""

    def __init__(self, context: SelectContext, queries: QueryCompiler) -> None:
        self.context = context
        self.queries = queries

    def compile(self, expression: b.BoundExpression) -> str:
        handler = EXPRESSION_SQL.get(type(expression))
        if handler is None:
            raise UnsupportedFeature(f"{type(expression).__name__} in SQL generation", expression.span)
        return handler(self, expression)

    def compile_as(self, expression: b.BoundExpression, target: CypherType) -> str:
        return convert(self.compile(expression), expression.type, target)

    def variant(self, expression: b.BoundExpression) -> str:
        return to_variant(self.compile(expression), expression.type)

    def boolean(self, expression: b.BoundExpression) -> str:
        """SQL BOOLEAN for a predicate; a non-boolean value is a type error at run time."""
        kind = expression.type.kind
        if kind is Kind.BOOLEAN:
            return self.compile(expression)
        if kind is Kind.NULL:
            return Term("NULL::BOOLEAN")
        if kind in (Kind.ANY,) or is_variant(expression.type):
            return macro("cy_bool", self.variant(expression))
        return self.mismatch(expression, "Boolean", "BOOLEAN")

    def string(self, expression: b.BoundExpression) -> str:
        if expression.type.kind is Kind.STRING:
            return self.compile(expression)
        if expression.type.kind is Kind.NULL:
            return Term("NULL::VARCHAR")
        if is_variant(expression.type):
            return macro("cy_string", self.compile(expression))
        return self.mismatch(expression, "String", "VARCHAR")

    def integer(self, expression: b.BoundExpression) -> str:
        if expression.type.kind is Kind.INTEGER:
            return self.compile(expression)
        if expression.type.kind is Kind.NULL:
            return Term("NULL::BIGINT")
        if is_variant(expression.type):
            return macro("cy_integer", self.compile(expression))
        return self.mismatch(expression, "Integer", "BIGINT")

    def number(self, expression: b.BoundExpression) -> str:
        if expression.type.kind in NUMERIC:
            return f"({self.compile(expression)})::DOUBLE"
        if expression.type.kind is Kind.NULL:
            return Term("NULL::DOUBLE")
        if is_variant(expression.type):
            return macro("cy_number", self.compile(expression))
        return self.mismatch(expression, "a number", "DOUBLE")

    def entity_id(self, expression: b.BoundExpression, entity: str) -> str:
        return entity_id_of(self.compile(expression), expression.type, entity)

    def list_value(self, expression: b.BoundExpression) -> tuple[str, CypherType]:
        """SQL of a native list and its element type (a VARIANT list when unknown)."""
        if expression.type.kind is Kind.LIST:
            return self.compile(expression), expression.type.element or t.ANY
        if expression.type.kind is Kind.NULL:
            return "NULL::VARIANT[]", t.ANY
        if is_variant(expression.type):
            return macro("cy_list", self.compile(expression)), t.ANY
        return self.mismatch(expression, "List", "VARIANT[]"), t.ANY

    def traversable_value(self, expression: b.BoundExpression) -> tuple[str, CypherType]:
        """`list_value` for what a list comprehension, a quantifier or reduce() walks: as Neo4j's runtime
        makes a value traversable, a single value that is no list is a list of itself (the manual's
        `any(nationality IN p.nationality WHERE ...)` over a `STRING` property); null stays null."""
        kind = expression.type.kind
        if kind is Kind.LIST or kind is Kind.NULL:
            return self.list_value(expression)
        if is_variant(expression.type):
            return macro("cy_traversable", self.compile(expression)), t.ANY
        # the binder types the walking variable ANY, as it does for any source that is no list
        return macro("cy_singleton", to_variant(self.compile(expression), expression.type)), t.ANY

    def mismatch(self, expression: b.BoundExpression, expected: str, target_sql: str) -> str:
        return mismatch_of(self.compile(expression), expression.type, expected, target_sql)

    # -- entity access ------------------------------------------------------------------------------

    def entity_column(self, entity: str, id_sql: str, column: str) -> str:
        """`column` of the node or relationship whose id is `id_sql` (NULL when the id is NULL)."""
        carried = self.context.carried.get((entity, id_sql, column))
        if carried is not None:
            return carried
        alias = self.context.entity_row(entity, id_sql)
        table = "nodes" if entity == "node" else "rels"
        if alias is not None:
            read, present = Term(f"{alias}.{column}"), f"{alias}.id IS NOT NULL"
        elif self.context.lambda_depth:
            raise UnsupportedFeature("reading node or relationship data inside a list expression "
                                     "over entities that are not variables of the query", detail=NEEDS_SUBQUERY)
        else:
            read = f"(SELECT {column} FROM {table} WHERE id = {id_sql})"
            present = f"EXISTS (SELECT 1 FROM {table} WHERE id = {id_sql})"
        if not self.context.tombstones:
            return read
        if entity == "relationship" and column == "type":
            return f"coalesce({read}, (SELECT type FROM {DELETED_TABLES[entity]} WHERE id = {id_sql}))"
        what = "node" if entity == "node" else "relationship"
        deleted = error_sql("EntityNotFound", "DeletedEntityAccess",
                            f"'the {what} was deleted earlier in this statement'")
        return f"CASE WHEN ({id_sql}) IS NOT NULL AND NOT ({present}) THEN {deleted} ELSE {read} END"

    def property_of_entity(self, entity: str, id_sql: str, key: str, static_type: CypherType = t.ANY) -> str:
        """A property read in the representation of `static_type` (the binder's type for it)."""
        column = self.context.catalog.column(entity, key)
        if column is None:
            return Term(f"NULL::{sql_type(static_type)}")
        column_type = self.context.catalog.column_type(entity, key) or t.ANY
        read = self.entity_column(entity, id_sql, column)
        if sql_type(column_type) == sql_type(static_type):
            return read
        if is_variant(static_type):
            return to_variant(read, column_type)
        raise UnsupportedFeature(f"property `{key}` changed type while the statement ran")

    def variant_element(self, value: str, entity: str, column: str, virtual: Callable[[str], str],
                        stored: Callable[[str], str] = lambda read: read) -> str:
        """`column` of the node or relationship (`entity`) a VARIANT `value` holds: a virtual one's read off the
        value itself (`virtual` of its payload, ADR-0071), a stored one's from its table (as `stored` makes it
        the same type); null for null, a type
        error for any other value. The stored read is outside `let`'s lambda, where DuckDB refuses subqueries,
        and reads no row for a virtual element; inside a list expression it is refused on its row."""
        code, id_macro = (7, "cy_try_node_id") if entity == "node" else (8, "cy_try_rel_id")
        what = "node" if entity == "node" else "relationship"
        stored_read = error_sql("UnsupportedFeature", "Unsupported", f"'reading {what} data inside a list"
                                " expression over entities that are not variables of the query'") \
            if self.context.lambda_depth else stored(self.entity_column(entity, f"{id_macro}({value})", column))

        def choose(v: str, read: str) -> str:
            failure = error_sql("TypeError", "InvalidArgumentValue", f"'expected a {what}, got ' || cy_type_name({v})")
            return (f"CASE WHEN {v} IS NULL THEN NULL WHEN cy_kind({v}) <> {code} THEN {failure}"
                    f" WHEN cy_virtual({v}) IS NOT NULL THEN {virtual(f'cy_virtual({v})')} ELSE {read} END")
        return let([value, stored_read], choose)

    def variant_labels(self, value: str) -> str:
        """The labels of the node, stored or virtual, a VARIANT holds (null for null, a type error for others)."""
        return self.variant_element(value, "node", "labels",
                                    lambda payload: f"variant_extract({payload}, 'labels')::VARCHAR[]")

    # -- handlers -----------------------------------------------------------------------------------

    def _literal(self, node: b.BLiteral) -> str:
        return self.context.parameters.bind(node.value, node.type)

    def _parameter(self, node: b.BParameter) -> str:
        # the binder typed the parameter by its value (`type_of_value`), so that is its own type
        return self.context.parameters.bind_parameter(node.name, node.given, node.type, own=True, reads=node.reads)

    def _variable(self, node: b.BVariable) -> str:
        if node.variable.constant is not None:
            return self.compile(node.variable.constant)
        sql = self.context.variable_sql(node.variable)
        if sql is None:
            raise UnsupportedFeature(f"variable `{node.variable.name}` is not available here", node.span)
        return sql

    def _property(self, node: b.BProperty) -> str:
        subject = node.subject
        kind = subject.type.kind
        if kind in (Kind.NODE, Kind.RELATIONSHIP):
            entity = "node" if kind is Kind.NODE else "relationship"
            if self.context.catalog.column(entity, node.key) is None:
                return Term(f"NULL::{sql_type(node.type)}")
            return self.property_of_entity(entity, self.compile(subject), node.key, node.type)
        if subject.type.is_record:
            field = subject.type.field(node.key)
            if field is None:
                return Term(f"NULL::{sql_type(node.type)}")
            # in the representation the expression's type asks for (a field of a record read as ANY)
            return convert(f"struct_extract({self.compile(subject)}, {sql_string(node.key)})", field, node.type)
        if kind is Kind.NULL:
            return Term("NULL::VARIANT")
        if kind in t.TEMPORAL_KINDS and node.type.kind is not Kind.ANY:
            with runtime_temporal.isolated():
                return temporal_values.component(self.compile(subject), kind, node.key)
        if kind is Kind.POINT and not is_variant(subject.type):
            return spatial_values.component(self.compile(subject), node.key)
        # a value only known at run time, or a component its observed type lacks: checked on each row
        value = self.variant(subject)
        catalog = self.context.catalog
        node_column, rel_column = catalog.column("node", node.key), catalog.column("relationship", node.key)
        node_read = rel_read = "NULL::VARIANT"
        if self.context.lambda_depth and (node_column or rel_column):
            node_read = rel_read = error_sql("UnsupportedFeature", "Unsupported",
                                             "'reading properties inside list expressions'")
        else:
            if node_column:
                node_value = to_variant(node_column, catalog.column_type("node", node.key) or t.ANY)
                node_read = f"(SELECT {node_value} FROM nodes WHERE id = cy_try_node_id({value}))"
            if rel_column:
                rel_value = to_variant(rel_column, catalog.column_type("relationship", node.key) or t.ANY)
                rel_read = f"(SELECT {rel_value} FROM rels WHERE id = cy_try_rel_id({value}))"
        key = sql_string(node.key)
        def element(v: str, stored: str) -> str:  # a virtual node's or relationship's is in its payload (ADR-0071)
            return (f"CASE WHEN cy_virtual({v}) IS NOT NULL THEN"
                    f" variant_extract(variant_extract(cy_virtual({v}), 'properties'), {key}) ELSE {stored} END")
        return let([value, node_read, rel_read], lambda v, from_node, from_rel: (
            f"CASE cy_kind({v}) WHEN 6 THEN variant_extract({v}, {key})"
            f" WHEN 0 THEN NULL WHEN 7 THEN {element(v, from_node)} WHEN 8 THEN {element(v, from_rel)}"
            f"{temporal_branches(v, node.key)}{spatial_values.variant_component_branches(v, node.key)} ELSE "
            + error_sql("TypeError", "InvalidArgumentType",
                        f"'type mismatch: expected a map, node or relationship but was ' || cy_type_name({v})")
            + " END"))

    def _index(self, node: b.BIndex) -> str:
        subject, index = node.subject, node.index
        if subject.type.kind is Kind.LIST:
            list_sql = self.compile(subject)
            position = self.integer(index)
            return (f"CASE WHEN ({position}) < 0 THEN ({list_sql})[len({list_sql}) + ({position}) + 1]"
                    f" ELSE ({list_sql})[({position}) + 1] END")
        if subject.type.kind in (Kind.NODE, Kind.RELATIONSHIP, Kind.MAP) or subject.type.is_record:
            if isinstance(index, b.BLiteral | b.BParameter) and isinstance(index.value, str):
                return self._property(b.BProperty(subject, index.value, type=node.type, span=node.span))
            if index.type.kind not in (Kind.STRING, Kind.ANY, Kind.NULL) and not b.observed(index):
                raise CypherTypeError(f"a map can only be indexed by a string, not {index.type!r}", index.span,
                                      detail="MapElementAccessByNonString")
            if subject.type.kind is Kind.MAP or subject.type.is_record:
                return f"cy_map_get({self.variant(subject)}, {self.string(index)})"
            return self.dynamic_property(subject, index)
        def indexed(value: str, position: str) -> str:
            as_list, as_int = f"TRY_CAST({value} AS VARIANT[])", f"TRY_CAST({position} AS BIGINT)"
            return (f"CASE WHEN cy_kind({value}) = 5 AND cy_kind({position}) = 2 THEN"
                    f" CASE WHEN {as_int} < 0 THEN {as_list}[len({as_list}) + {as_int} + 1]"
                    f" ELSE {as_list}[{as_int} + 1] END"
                    f" WHEN cy_kind({value}) = 6 AND cy_kind({position}) = 4 THEN"
                    f" cy_map_get({value}, TRY_CAST({position} AS VARCHAR))"
                    # a virtual node's or relationship's property (ADR-0071): `apoc.any.property(r, 'type')`
                    f" WHEN cy_kind({value}) IN (7, 8) AND cy_virtual({value}) IS NOT NULL"
                    f" AND cy_kind({position}) = 4 THEN cy_map_get("
                    f"variant_extract(cy_virtual({value}), 'properties'), TRY_CAST({position} AS VARCHAR))"
                    f" WHEN {value} IS NULL OR {position} IS NULL THEN NULL"
                    f" WHEN cy_kind({value}) = 6 THEN "
                    + error_sql("TypeError", "MapElementAccessByNonString",
                                f"'a map can only be indexed by a string, not ' || cy_type_name({position})")
                    + " ELSE "
                    + error_sql("TypeError", "InvalidArgumentType",
                                f"'cannot index ' || cy_type_name({value}) || ' with ' || cy_type_name({position})")
                    + " END")
        return let([self.variant(subject), self.variant(index)], indexed)

    def dynamic_property(self, subject: b.BoundExpression, key: b.BoundExpression) -> str:
        """`n[key]` with a key computed at run time: a choice among the entity kind's property columns."""
        entity = "node" if subject.type.kind is Kind.NODE else "relationship"
        id_sql = self.compile(subject)
        catalog = self.context.catalog
        reads = [(name, to_variant(self.entity_column(entity, id_sql, column), catalog.column_type(entity, name)
                                   or t.ANY)) for name, column in sorted(catalog.columns[entity].items())]

        def choose(key_sql: str) -> str:
            whens = "".join(f" WHEN {self.context.parameters.text(name)} THEN {read}" for name, read in reads)
            return f"CASE {key_sql}{whens} ELSE NULL::VARIANT END" if reads else "NULL::VARIANT"
        return choose(self.string(key))

    def _slice(self, node: b.BSlice) -> str:
        list_sql, element = self.list_value(node.subject)
        start = self.integer(node.start) if node.start else None
        end = self.integer(node.end) if node.end else None
        length = f"len({list_sql})"

        def normalise(bound: str) -> str:
            return f"CASE WHEN ({bound}) < 0 THEN greatest({length} + ({bound}), 0) ELSE least({bound}, {length}) END"

        low = normalise(start) if start else "0"
        high = normalise(end) if end else length
        result = f"({list_sql})[({low}) + 1:({high})]"
        nulls = " OR ".join(f"({bound}) IS NULL" for bound in (start, end) if bound)
        result = f"CASE WHEN {nulls} THEN NULL ELSE {result} END" if nulls else result
        return convert(result, t.list_of(element), node.type)

    def _is_null(self, node: b.BIsNull) -> str:
        tested = self.compile(node.operand)
        kind = node.operand.type.kind
        if kind in t.TEMPORAL_KINDS and not is_variant(node.operand.type):
            # A temporal STRUCT is null exactly when its first payload field is (no payload field of a
            # value is ever null, ADR-0014): DuckDB reads one field for that, and every field for the
            # STRUCT's own null test, 3x as long over a column (ADR-0047).
            tested = f"struct_extract({tested}, '{PAYLOAD_FIELDS[kind.value][0]}')"
        return f"(({tested}) IS {'NOT ' if node.negated else ''}NULL)"

    def _has_labels(self, node: b.BHasLabels) -> str:
        subject = node.subject
        if subject.type.kind is Kind.RELATIONSHIP:
            type_sql = self.entity_column("relationship", self.compile(subject), "type")
            return self.label_predicate(node.labels, type_sql, relationship=True)
        if subject.type.kind is Kind.NODE:
            labels_sql = self.entity_column("node", self.compile(subject), "labels")
            return self.label_predicate(node.labels, labels_sql, relationship=False)
        if subject.type.kind is Kind.NULL:
            return Term("NULL::BOOLEAN")
        labels_sql = self.variant_labels(self.variant(subject))
        return let([labels_sql], lambda labels: (
            f"CASE WHEN {labels} IS NULL THEN NULL ELSE "
            f"{self.label_predicate(node.labels, labels, relationship=False)} END"))

    def _has_dynamic_labels(self, node: b.BHasDynamicLabels) -> str:
        """`n:$(e)` with `e` read off the row: the labels (type) it names tested per row."""
        subject = node.subject
        names = label_list_sql(self.variant(node.names))
        if subject.type.kind is Kind.RELATIONSHIP:
            type_sql = self.entity_column("relationship", self.compile(subject), "type")
            return has_type_sql(type_sql, names, node.quantifier)
        if subject.type.kind is Kind.NODE:
            labels_sql = self.entity_column("node", self.compile(subject), "labels")
            return has_labels_sql(labels_sql, names, node.quantifier)
        if subject.type.kind is Kind.NULL:
            return Term("NULL::BOOLEAN")
        labels_sql = self.variant_labels(self.variant(subject))
        return let([labels_sql], lambda labels: (
            f"CASE WHEN {labels} IS NULL THEN NULL ELSE {has_labels_sql(labels, names, node.quantifier)} END"))

    def _is_type(self, node: b.BIsType) -> str:
        """`x IS [NOT] :: TYPE`: true or false, never null. A statically known kind decides at compile
        time (null aside); a VARIANT is tested by its run-time kind code, list elements one by one."""
        union = parse_type(node.type_name, node.span)
        operand = node.operand
        kind = operand.type.kind
        nullable = "true" if union.nullable else "false"
        if kind is Kind.NULL:
            result = nullable
        elif kind in STATIC_TYPE_NAMES and not is_variant(operand.type):
            matches = "true" if any(_test_accepts(test, STATIC_TYPE_NAMES[kind]) for test in union.alternatives) \
                else "false"
            result = f"CASE WHEN ({self.compile(operand)}) IS NULL THEN {nullable} ELSE {matches} END"
        else:
            result = let([self.variant(operand)], lambda value: type_test_sql(value, union, 0))
        return f"(NOT {result})" if node.negated else result

    def label_predicate(self, expression: ast.LabelExpression, target: str, *, relationship: bool) -> str:
        """SQL testing a label expression against a node's label list or a relationship's type."""
        if isinstance(expression, ast.LabelName):
            name = self.context.parameters.text(expression.name)
            return f"({target} = {name})" if relationship else f"list_contains({target}, {name})"
        if isinstance(expression, ast.LabelAnd):
            return (f"({self.label_predicate(expression.left, target, relationship=relationship)} AND "
                    f"{self.label_predicate(expression.right, target, relationship=relationship)})")
        if isinstance(expression, ast.LabelOr):
            return (f"({self.label_predicate(expression.left, target, relationship=relationship)} OR "
                    f"{self.label_predicate(expression.right, target, relationship=relationship)})")
        if isinstance(expression, ast.LabelNot):
            return f"(NOT {self.label_predicate(expression.operand, target, relationship=relationship)})"
        if isinstance(expression, ast.LabelWildcard):
            return "true" if relationship else f"(len({target}) > 0)"
        raise UnsupportedFeature(f"label expression {type(expression).__name__}", expression.span)

    def _operator(self, node: b.BOperator) -> str:
        handler = OPERATOR_SQL.get(node.op)
        if handler is None:
            raise UnsupportedFeature(f"operator {node.op}", node.span)
        return handler(self, node)

    def _function(self, node: b.BFunction) -> str:
        builder = self.queries.functions.get(node.name)
        if builder is None:
            raise UnsupportedFeature(f"function {node.name}()", node.span)
        return builder(self, node)

    def _aggregate(self, node: b.BAggregate) -> str:
        if self.context.aggregates is None or id(node) not in self.context.aggregates:
            raise UnsupportedFeature("an aggregate outside of WITH or RETURN", node.span)
        return self.context.aggregates[id(node)]

    def _case(self, node: b.BCase) -> str:
        whens = " ".join(
            f"WHEN {self.boolean(condition)} THEN {self.compile_as(value, node.type)}"
            for condition, value in node.alternatives)
        default = self.compile_as(node.default, node.type) if node.default is not None else \
            f"NULL::{sql_type(node.type)}"
        return f"CASE {whens} ELSE {default} END"

    def _list(self, node: b.BList) -> str:
        element = node.type.element or t.ANY
        if not node.items:
            return f"[]::{sql_type(element)}[]"
        return "[" + ", ".join(self.compile_as(item, element) for item in node.items) + "]"

    def _map(self, node: b.BMap) -> str:
        if not node.entries:
            return "CAST('{}' AS JSON)::VARIANT"
        if not node.type.is_record:
            pairs = ", ".join(f"{sql_string(key)}, CAST({self.variant(value)} AS JSON)" for key, value in node.entries)
            return f"CAST(json_object({pairs}) AS VARIANT)"
        entries = ", ".join(f"{sql_identifier(key)} := {self.compile(value)}" for key, value in node.entries)
        return f"struct_pack({entries})"

    def _entity_properties(self, node: b.BEntityProperties) -> str:
        subject = node.subject
        if subject.type.kind in (Kind.NODE, Kind.RELATIONSHIP):
            return (f"CASE WHEN ({self.compile(subject)}) IS NULL THEN NULL"
                    f" ELSE {map_of_entries(self.entries(subject))} END")
        if subject.type.kind is Kind.MAP or subject.type.is_record:
            return self.variant(subject)
        if subject.type.kind is not Kind.ANY:  # a type read off data (the binder refuses those the text fixes)
            return self.mismatch(subject, "a map, node or relationship", "VARIANT")
        return self._dynamic_properties(self.compile(subject))

    def _dynamic_properties(self, value: str) -> str:
        """properties() of a VARIANT: a map is itself, a node's or relationship's its properties; any other
        value is a type error on the row that brings it."""
        reads = []
        for entity, id_macro in (("node", "cy_try_node_id"), ("relationship", "cy_try_rel_id")):
            reads.append(error_sql("UnsupportedFeature", "Unsupported",
                                   "'properties() of a node or relationship inside a list expression'")
                         if self.context.lambda_depth else
                         map_of_entries(self.entity_entries(entity, f"{id_macro}({value})")))

        def choose(v: str, of_node: str, of_rel: str) -> str:
            failure = error_sql("TypeError", "InvalidArgumentType",
                                f"'properties() expects a map, node or relationship, got ' || cy_type_name({v})")
            def element(stored: str) -> str:  # a virtual node's or relationship's is in its payload (ADR-0071)
                return (f"CASE WHEN cy_virtual({v}) IS NOT NULL THEN variant_extract(cy_virtual({v}), 'properties')"
                        f" ELSE {stored} END")
            return (f"CASE cy_kind({v}) WHEN 0 THEN NULL WHEN 6 THEN {v} WHEN 7 THEN {element(of_node)}"
                    f" WHEN 8 THEN {element(of_rel)} ELSE {failure} END")
        # the entities' maps are read outside `let`'s lambda, where DuckDB refuses subqueries
        return let([value, *reads], choose)

    def entries(self, subject: b.BoundExpression) -> str:
        """The entries of a node's or relationship's properties (its non-null property columns), or of a map,
        as a list of `{key, value}` STRUCTs with VARIANT values."""
        kind = subject.type.kind
        if kind in (Kind.NODE, Kind.RELATIONSHIP):
            return self.entity_entries("node" if kind is Kind.NODE else "relationship", self.compile(subject))
        return let([self.variant(subject)], lambda value: (
            f"list_transform(variant_keys({value}), lambda k: {{'key': k, 'value': cy_map_get({value}, k)}})"))

    def entity_entries(self, entity: str, id_sql: str) -> str:
        """The non-null property columns of the node or relationship whose id is `id_sql`, as `entries` gives."""
        types = self.context.catalog.types[entity]
        entries = ", ".join(
            f"{{'key': {sql_string(key)}, 'value': "
            f"{to_variant(self.entity_column(entity, id_sql, column), types.get(key, t.ANY))}}}"
            for key, column in sorted(self.context.catalog.columns[entity].items()))
        return f"list_filter([{entries}], lambda e: e.value IS NOT NULL)" if entries else NO_ENTRIES

    def _lambda(self, variable: Variable) -> tuple[str, ExpressionCompiler]:
        name = Term(variable.column)
        inner = self.context.lambda_context()
        inner.bind_variable(variable, name, hoistable=False)
        return name, ExpressionCompiler(inner, self.queries)

    def _elements(self, variable: Variable, source: str, build: Callable[[ExpressionCompiler], tuple[str, str]],
                  element_sql_type: str) -> str:
        """A list expression as a correlated subquery over the list's elements, for bodies a lambda
        cannot hold (they read node data or run subqueries). `build(compiler)` gives (value, filter)."""
        alias = self.context.fresh("u")
        inner_context = self.context.child()
        inner_context.bind_variable(variable, Term(f"{alias}.x"))
        compiler = ExpressionCompiler(inner_context, self.queries)
        value, condition = build(compiler)
        self.queries.correlated_subqueries += 1
        return (f"CASE WHEN ({source}) IS NULL THEN NULL ELSE coalesce((SELECT list({value} ORDER BY {alias}.i)"
                f" FROM (SELECT unnest(l) AS x, generate_subscripts(l, 1) AS i FROM (SELECT {source} AS l))"
                f" AS {alias}{inner_context.join_text()} WHERE {condition}), []::{element_sql_type}[]) END")

    def _list_comprehension(self, node: b.BListComprehension) -> str:
        bound = len(self.context.parameters.values)
        try:
            return self._list_comprehension_lambda(node)
        except UnsupportedFeature as error:
            if error.detail != NEEDS_SUBQUERY or self.context.lambda_depth:
                raise
            self.context.parameters.truncate(bound)  # the lambda attempt's values are not in the SQL
        source, _ = self.traversable_value(node.source)
        target = node.type.element or t.ANY

        def build(compiler: ExpressionCompiler) -> tuple[str, str]:
            value = compiler.compile_as(node.projection, target) if node.projection is not None else \
                convert(f"{compiler.compile(b.BVariable(node.variable, type=node.variable.type, span=node.span))}",
                        node.variable.type, target)
            condition = compiler.boolean(node.where) if node.where is not None else "true"
            return value, condition
        return self._elements(node.variable, source, build, sql_type(target))

    def _list_comprehension_lambda(self, node: b.BListComprehension) -> str:
        source, _ = self.traversable_value(node.source)
        name, inner = self._lambda(node.variable)
        result = source
        if node.where is not None:
            result = f"list_filter({result}, lambda {name}: {inner.boolean(node.where)})"
        if node.projection is not None:
            target = node.type.element or t.ANY
            parameters = name
            if b.makes_virtual(node.projection):  # each element's virtual elements need its position
                index = Term(f"{name}_i")
                inner.context.element_indices = (*inner.context.element_indices, index)
                parameters = f"{name}, {index}"
            result = f"list_transform({result}, lambda {parameters}: {inner.compile_as(node.projection, target)})"
        return result

    def _quantifier(self, node: b.BQuantifier) -> str:
        source, _ = self.traversable_value(node.source)
        bound = len(self.context.parameters.values)
        try:
            name, inner = self._lambda(node.variable)
            codes = f"list_transform({source}, lambda {name}: {_truth_code(inner.boolean(node.where))})"
        except UnsupportedFeature as error:
            if error.detail != NEEDS_SUBQUERY or self.context.lambda_depth:
                raise
            self.context.parameters.truncate(bound)  # the lambda attempt's values are not in the SQL
            codes = self._elements(node.variable, source,
                                   lambda compiler: (_truth_code(compiler.boolean(node.where)), "true"), "INTEGER")
        # a quantifier over a null list is null (an empty list's is decided: any/single false, all/none true)
        null_list = f"CASE WHEN ({source}) IS NULL THEN NULL ELSE "
        if node.kind == "any":
            return f"{null_list}[false, NULL, true][coalesce(list_max({codes}), 0) + 1] END"
        if node.kind == "all":
            return f"{null_list}[false, NULL, true][coalesce(list_min({codes}), 2) + 1] END"
        if node.kind == "none":
            return f"{null_list}NOT [false, NULL, true][coalesce(list_max({codes}), 0) + 1] END"
        trues = f"len(list_filter({codes}, lambda c: c = 2))"
        nulls = f"len(list_filter({codes}, lambda c: c = 1))"
        return (f"CASE WHEN ({source}) IS NULL THEN NULL WHEN {trues} > 1 THEN false WHEN {nulls} > 0 THEN NULL"
                f" ELSE {trues} = 1 END")

    def _reduce(self, node: b.BReduce) -> str:
        bound = len(self.context.parameters.values)
        try:
            return self._reduce_lambda(node)
        except UnsupportedFeature as error:
            if error.detail != NEEDS_SUBQUERY or self.context.lambda_depth:
                raise
            self.context.parameters.truncate(bound)  # the lambda attempt's values are not in the SQL
        return self._reduce_steps(node)

    def _reduce_steps(self, node: b.BReduce) -> str:
        """reduce() as a recursive CTE over the list's positions, for bodies a lambda cannot hold (they
        read node or relationship data, e.g. `reduce(d = 0, r IN relationships(p) | d + r.distance)`)."""
        source, _ = self.traversable_value(node.source)
        alias = self.context.fresh("red")
        inner_context = self.context.child()
        inner_context.bind_variable(node.accumulator, Term(f"{alias}.acc"), hoistable=False)
        inner_context.bind_variable(node.variable, f"{alias}_l.l[{alias}.i + 1]")
        body = ExpressionCompiler(inner_context, self.queries).variant(node.expression)
        steps = (f"WITH RECURSIVE {alias}_r(i, acc) AS (SELECT 0, {self.variant(node.initial)} UNION ALL"
                 f" SELECT {alias}.i + 1, {body} FROM {alias}_r AS {alias} CROSS JOIN (SELECT {source} AS l)"
                 f" AS {alias}_l{inner_context.join_text()} WHERE {alias}.i < len({alias}_l.l))")
        return (f"CASE WHEN ({source}) IS NULL THEN NULL::VARIANT ELSE"
                f" ({steps} SELECT acc FROM {alias}_r ORDER BY i DESC LIMIT 1) END")

    def _reduce_lambda(self, node: b.BReduce) -> str:
        source, element = self.traversable_value(node.source)
        accumulator, variable = Term(node.accumulator.column), Term(node.variable.column)
        inner_context = self.context.lambda_context()
        inner_context.bind_variable(node.accumulator, accumulator, hoistable=False)
        # the elements reach the step as VARIANTs (list_reduce folds values of one type): a temporal value or a
        # point is read back as its STRUCT, which its components and operators take (`d.year` read null before)
        element_sql = convert_from_variant(variable, element) if (
            element.kind in t.TEMPORAL_KINDS or element.kind is Kind.POINT) else variable
        inner_context.bind_variable(node.variable, element_sql, hoistable=False)
        inner = ExpressionCompiler(inner_context, self.queries)
        return (f"list_reduce(list_transform({source}, lambda x: {to_variant(Term('x'), element)}),"
                f" lambda {accumulator}, {variable}: {inner.variant(node.expression)}, {self.variant(node.initial)})")

    def _subquery(self, node: b.BSubquery) -> str:
        if self.context.lambda_depth:
            raise UnsupportedFeature("subqueries inside list expressions", node.span, detail=NEEDS_SUBQUERY)
        return self.queries.subquery_sql(node, self.context)

    def _path_value(self, node: b.BPathValue) -> str:
        raise UnsupportedFeature("path values here", node.span)


# Kinds whose static type fixes the Cypher type of every non-null value, by type-predicate name.
STATIC_TYPE_NAMES: dict[Kind, str] = {
    Kind.BOOLEAN: "BOOLEAN", Kind.INTEGER: "INTEGER", Kind.FLOAT: "FLOAT", Kind.STRING: "STRING",
    Kind.NODE: "NODE", Kind.RELATIONSHIP: "RELATIONSHIP", Kind.PATH: "PATH", Kind.DATE: "DATE",
    Kind.LOCAL_TIME: "LOCAL TIME", Kind.ZONED_TIME: "ZONED TIME", Kind.LOCAL_DATETIME: "LOCAL DATETIME",
    Kind.ZONED_DATETIME: "ZONED DATETIME", Kind.DURATION: "DURATION",
    Kind.POINT: "POINT",
}


def _test_accepts(test: TypeTest, name: str) -> bool:
    """Whether a non-null scalar of type `name` matches one alternative of a type predicate."""
    return test.base == name or test.base == "ANY" or (test.base == "PROPERTY VALUE" and name in PROPERTY_SCALARS)


def type_test_sql(value: str, union: TypeUnion, depth: int) -> str:
    """SQL (true or false) testing the VARIANT `value` against a type predicate's union."""
    kind = f"cy_kind({value})"
    nullable = "true" if union.nullable else "false"
    branches = []
    scalars = sorted({KIND_CODES[test.base] for test in union.alternatives
                      if test.base in KIND_CODES and test.base not in ("LIST", "NULL")
                      and test.coordinate is None and test.dimension is None})
    if scalars:
        branches.append(f"{kind} IN ({', '.join(map(str, scalars))})")
    for test in union.alternatives:
        if test.base == "ANY":
            branches.append("true")
        elif test.base == "LIST":
            element = f"e{depth}"
            inner = type_test_sql(element, test.element or TypeUnion(()), depth + 1)
            branches.append(f"({kind} = 5 AND coalesce(list_bool_and(list_transform(TRY_CAST({value} AS VARIANT[]),"
                            f" lambda {element}: {inner})), true))")
        elif test.base == "VECTOR" and (test.coordinate is not None or test.dimension is not None):
            parts = [f"{kind} = {KIND_CODES['VECTOR']}"]
            if test.coordinate is not None:
                parts.append(f"cy_vector_type({value}) = {sql_string(test.coordinate)}")
            if test.dimension is not None:
                parts.append(f"cy_vector_dimension({value}) = {test.dimension}")
            branches.append(" AND ".join(parts))
        elif test.base == "PROPERTY VALUE":
            codes = ", ".join(str(KIND_CODES[name]) for name in PROPERTY_SCALARS)
            branches.append(f"{kind} = {KIND_CODES['VECTOR']}")
            element = f"e{depth}"
            kinds = f"list_transform(TRY_CAST({value} AS VARIANT[]), lambda {element}: coalesce(cy_kind({element}), 0))"
            branches.append(
                f"{kind} IN ({codes}) OR ({kind} = 5 AND list_transform([{kinds}], lambda k{depth}:"
                f" len(k{depth}) = 0 OR (NOT list_contains(k{depth}, 0) AND list_bool_and(list_transform(k{depth},"
                f" lambda c: c IN ({codes}))) AND (len(list_distinct(k{depth})) = 1 OR list_bool_and("
                f"list_transform(k{depth}, lambda c: c IN (2, 3))))))[1])")
    matches = " OR ".join(f"({branch})" for branch in branches) or "false"
    return f"CASE WHEN {value} IS NULL OR {kind} = 0 THEN {nullable} ELSE ({matches}) END"


NO_ENTRIES = "[]::STRUCT(key VARCHAR, value VARIANT)[]"


def map_of_entries(entries: str) -> str:
    """A VARIANT map of a list of `{key, value}` entries; an entry whose value is null stays, with null."""
    return f"CAST(CAST(map_from_entries({entries}) AS JSON) AS VARIANT)"


NEEDS_SUBQUERY = "NeedsSubquery"
# Per statement, what DELETE removed, so that later reads can tell deleted elements apart.
DELETED_TABLES = {"node": "_cypher_deleted_nodes", "relationship": "_cypher_deleted_rels"}


def _truth_code(predicate: str) -> str:
    """2 for true, 0 for false, 1 for null: three-valued logic as numbers lists can min and max."""
    return f"coalesce(({predicate})::INTEGER * 2, 1)"


# -- operators ---------------------------------------------------------------------------------------


def _equality(compiler: ExpressionCompiler, left: b.BoundExpression, right: b.BoundExpression) -> str:
    if Kind.NULL in (left.type.kind, right.type.kind):
        return "NULL::BOOLEAN"  # decided before compiling, so no bound value goes unused
    return equality_sql((compiler.compile(left), left.type), (compiler.compile(right), right.type))


def equality_sql(left: tuple[str, CypherType], right: tuple[str, CypherType]) -> str:
    """Cypher `=` on two SQL values of known static types: native SQL when the kinds allow it."""
    (a, a_type), (b_, b_type) = left, right
    lk, rk = a_type.kind, b_type.kind
    if Kind.NULL in (lk, rk):
        return Term("NULL::BOOLEAN")
    if lk in NUMERIC and rk in NUMERIC:
        if lk is Kind.INTEGER and rk is Kind.INTEGER:
            return f"({a} = {b_})"
        a_double, b_double = f"({a})::DOUBLE", f"({b_})::DOUBLE"
        return f"({a_double} = {b_double} AND NOT isnan({a_double}))"
    if lk == rk and (lk in (Kind.STRING, Kind.BOOLEAN, Kind.NODE, Kind.RELATIONSHIP, Kind.POINT)
                     or lk in t.TEMPORAL_KINDS):
        return f"({a} = {b_})"
    if lk is Kind.LIST and rk is Kind.LIST and a_type.element == b_type.element and a_type.element is not None \
            and a_type.element.kind in NATIVE_EQUAL_ELEMENTS and a_type.null_free and b_type.null_free:
        # with no null element, SQL's `=` of the lists is Cypher's (a null list gives null)
        return f"({a} = {b_})"
    if lk is Kind.LIST and rk is Kind.LIST and a_type.element == b_type.element and a_type.element is not None \
            and a_type.element.kind in NATIVE_EQUAL_ELEMENTS:
        # element by element in three-valued logic, natively: `labels(a) = labels(b)` through cy_eq's
        # VARIANTs took 2.5 s over 20,000 pairs, this 60 ms
        codes = f"list_transform(list_zip({a}, {b_}), lambda p: {_truth_code('p[1] = p[2]')})"
        return (f"CASE WHEN ({a}) IS NULL OR ({b_}) IS NULL THEN NULL WHEN len({a}) <> len({b_}) THEN false"
                f" ELSE [false, NULL, true][coalesce(list_min({codes}), 2) + 1] END")
    known = {Kind.BOOLEAN, Kind.INTEGER, Kind.FLOAT, Kind.STRING, Kind.NODE, Kind.RELATIONSHIP, Kind.PATH,
             Kind.LIST, Kind.MAP, Kind.POINT, *t.TEMPORAL_KINDS}
    if lk in known and rk in known and lk != rk and not ({lk, rk} <= set(NUMERIC)):
        return f"CASE WHEN ({a}) IS NULL OR ({b_}) IS NULL THEN NULL ELSE false END"
    return macro(variant_equality(a_type, b_type), to_variant(a, a_type), to_variant(b_, b_type))


def variant_equality(a_type: CypherType, b_type: CypherType) -> str:
    """The macro for `=` of two VARIANTs of these static types: `cy_eq_scalar` when one can be no list or map
    (it skips `cy_eq`'s walk into them, which DuckDB takes ten times longer to bind)."""
    containers = (Kind.ANY, Kind.LIST, Kind.MAP)
    return "cy_eq" if a_type.kind in containers and b_type.kind in containers else "cy_eq_scalar"


def _compare(compiler: ExpressionCompiler, op: str, left: b.BoundExpression, right: b.BoundExpression) -> str:
    lk, rk = left.type.kind, right.type.kind
    if Kind.NULL in (lk, rk):
        return Term("NULL::BOOLEAN")
    if lk in NUMERIC and rk in NUMERIC:
        if lk is Kind.INTEGER and rk is Kind.INTEGER:
            return f"({compiler.compile(left)} {op} {compiler.compile(right)})"
        a, b_ = compiler.number(left), compiler.number(right)
        return f"({a} {op} {b_} AND NOT isnan({a}) AND NOT isnan({b_}))"
    if lk == rk and lk in (Kind.STRING, Kind.BOOLEAN):
        return f"({compiler.compile(left)} {op} {compiler.compile(right)})"
    if lk == rk and lk in t.TEMPORAL_KINDS:
        constant = constant_of(left) is not None or constant_of(right) is not None
        return temporal_values.comparison(op, compiler.compile(left), compiler.compile(right), lk,
                                   against_constant=constant)
    return f"({macro('cy_cmp', compiler.variant(left), compiler.variant(right))} {op} 0)"


def _operator_equals(compiler: ExpressionCompiler, node: b.BOperator) -> str:
    return _equality(compiler, *node.operands)


def _operator_not_equals(compiler: ExpressionCompiler, node: b.BOperator) -> str:
    return f"(NOT {_equality(compiler, *node.operands)})"


def _comparison(op: str) -> Callable[[ExpressionCompiler, b.BOperator], str]:
    return lambda compiler, node: _compare(compiler, op, *node.operands)


def _logical(op: str) -> Callable[[ExpressionCompiler, b.BOperator], str]:
    return lambda compiler, node: (
        f"({compiler.boolean(node.operands[0])} {op} {compiler.boolean(node.operands[1])})")


def _xor(compiler: ExpressionCompiler, node: b.BOperator) -> str:
    return f"({compiler.boolean(node.operands[0])} <> {compiler.boolean(node.operands[1])})"


def _not(compiler: ExpressionCompiler, node: b.BOperator) -> str:
    return f"(NOT {compiler.boolean(node.operands[0])})"


ARITHMETIC_MACROS = {"+": "cy_add", "-": "cy_sub", "*": "cy_mul", "/": "cy_div", "%": "cy_mod", "^": "cy_pow"}


def _arithmetic(op: str) -> Callable[[ExpressionCompiler, b.BOperator], str]:
    def build(compiler: ExpressionCompiler, node: b.BOperator) -> str:
        left, right = node.operands
        lk, rk = left.type.kind, right.type.kind
        if Kind.NULL in (lk, rk):
            return Term(f"NULL::{sql_type(node.type)}")
        if lk in NUMERIC and rk in NUMERIC and op != "^":
            if lk is Kind.INTEGER and rk is Kind.INTEGER:
                a, b_ = compiler.compile(left), compiler.compile(right)
                if op in ("/", "%"):
                    sql_op = "//" if op == "/" else "%"
                    return (f"CASE WHEN ({b_}) = 0 THEN "
                            + error_sql("ArithmeticError", "DivisionByZero", "'/ by zero'")
                            + f" ELSE ({a}) {sql_op} ({b_}) END")
                return f"(({a}) {op} ({b_}))"
            a, b_ = compiler.number(left), compiler.number(right)
            if op == "/":
                return f"cy_float_div({a}, {b_})"
            if op == "%":
                return f"(({a}) % ({b_}))"  # Java's remainder, the dividend's sign (DuckDB's fmod floors)
            return f"(({a}) {op} ({b_}))"
        if op == "^" and lk in NUMERIC and rk in NUMERIC:
            return f"pow({compiler.number(left)}, {compiler.number(right)})"
        if op == "+" and lk is Kind.STRING and rk is Kind.STRING:
            return _text_concat(compiler, node)
        if op == "+" and lk is Kind.LIST and rk is Kind.LIST and node.type.kind is Kind.LIST:
            return _list_concat(compiler, node)
        temporal_sql = temporal_arithmetic.arithmetic(compiler, op, left, right, node.type)
        if temporal_sql is not None:
            return temporal_sql
        result = macro(ARITHMETIC_MACROS[op], compiler.variant(left), compiler.variant(right))
        return result if is_variant(node.type) else convert_from_variant(result, node.type)
    return build


def convert_from_variant(sql: str, target: CypherType) -> str:
    if is_variant(target):
        return sql
    if target.kind in t.TEMPORAL_KINDS:
        return temporal_values.from_variant(sql, target.kind)
    if target.kind is Kind.POINT:
        return spatial_values.from_variant(sql)
    return f"({sql})::{sql_type(target)}"


def temporal_branches(value: str, key: str) -> str:
    """CASE branches over `cy_kind(value)` reading component `key` of a temporal value (ADR-0014)."""
    return temporal_values.variant_component_branches(value, key)


def _negate(compiler: ExpressionCompiler, node: b.BOperator) -> str:
    operand = node.operands[0]
    if operand.type.kind in NUMERIC:
        return f"(-({compiler.compile(operand)}))"
    return macro("cy_neg", compiler.variant(operand))


def _string_predicate(function: str) -> Callable[[ExpressionCompiler, b.BOperator], str]:
    def build(compiler: ExpressionCompiler, node: b.BOperator) -> str:
        left, right = node.operands
        if left.type.kind is Kind.STRING and right.type.kind is Kind.STRING:
            return f"{function}({compiler.compile(left)}, {compiler.compile(right)})"
        return let([compiler.variant(left), compiler.variant(right)], lambda a, b_: (
            f"CASE WHEN cy_kind({a}) = 4 AND cy_kind({b_}) = 4 THEN"
            f" {function}(TRY_CAST({a} AS VARCHAR), TRY_CAST({b_} AS VARCHAR)) END"))
    return build


def _in(compiler: ExpressionCompiler, node: b.BOperator) -> str:
    value, container = node.operands
    list_sql, element = compiler.list_value(container)
    native = value.type.kind == element.kind and value.type.kind in (Kind.INTEGER, Kind.STRING, Kind.BOOLEAN)
    if native:
        x = compiler.compile(value)
        return (f"CASE WHEN ({list_sql}) IS NULL THEN NULL WHEN len({list_sql}) = 0 THEN false"
                f" WHEN ({x}) IS NULL THEN NULL WHEN list_contains({list_sql}, {x}) THEN true"
                f" WHEN list_count({list_sql}) < len({list_sql}) THEN NULL ELSE false END")
    def membership(x: str, items: str) -> str:
        elements = f"list_transform({items}, lambda e: {to_variant('e', element)})"
        codes = (f"list_transform({elements}, lambda e:"
                 f" coalesce({variant_equality(value.type, element)}({x}, e)::INTEGER * 2, 1))")
        return (f"CASE WHEN ({items}) IS NULL THEN NULL ELSE "
                f"[false, NULL, true][coalesce(list_max({codes}), 0) + 1] END")
    return let([compiler.variant(value), list_sql], membership)


def _regex(compiler: ExpressionCompiler, node: b.BOperator) -> str:
    left, right = node.operands
    return f"regexp_full_match({compiler.string(left)}, {compiler.string(right)})"


def _list_concat(compiler: ExpressionCompiler, node: b.BOperator) -> str:
    """`a + b` or `a || b` of two lists: null if either is (DuckDB's list_concat takes a null list as empty)."""
    left, right = node.operands
    return let([compiler.compile_as(left, node.type), compiler.compile_as(right, node.type)], lambda a, b_: (
        f"CASE WHEN ({a}) IS NULL OR ({b_}) IS NULL THEN NULL ELSE {capped_concat(a, b_)} END"))


def _text_concat(compiler: ExpressionCompiler, node: b.BOperator) -> str:
    """`a + b` or `a || b` of two strings, within the connection's string cap (a null side makes it null). A
    chain `a + b + c` is checked once over all its operands, each evaluated once."""
    texts = [compiler.compile(operand) for operand in _text_chain(node)]
    return let(texts, lambda *names: f"({capped_text_concat(*names)})")


def _text_chain(node: b.BoundExpression) -> list[b.BoundExpression]:
    """The string operands of a chain of `+` and `||` between strings, left to right."""
    if (isinstance(node, b.BOperator) and node.op in ("+", "||") and len(node.operands) == 2
            and all(operand.type.kind is Kind.STRING for operand in node.operands)):
        return [operand for side in node.operands for operand in _text_chain(side)]
    return [node]


def _concat(compiler: ExpressionCompiler, node: b.BOperator) -> str:
    """`a || b`: strings or lists joined (GQL's concatenation); null if either side is null."""
    left, right = node.operands
    if Kind.NULL in (left.type.kind, right.type.kind):
        return Term(f"NULL::{sql_type(node.type)}")
    if left.type.kind is Kind.STRING and right.type.kind is Kind.STRING:
        return _text_concat(compiler, node)
    if node.type.kind is Kind.LIST:
        return _list_concat(compiler, node)
    def joined(a: str, b_: str) -> str:
        failure = error_sql("TypeError", "InvalidArgumentType",
                            f"'|| expects two strings or two lists, got ' || cy_type_name({a}) || ' and '"
                            f" || cy_type_name({b_})")
        return (f"CASE WHEN {a} IS NULL OR {b_} IS NULL OR cy_kind({a}) = 0 OR cy_kind({b_}) = 0 THEN NULL::VARIANT"
                f" WHEN cy_kind({a}) = 4 AND cy_kind({b_}) = 4 THEN"
                f" ({capped_text_concat(f'TRY_CAST({a} AS VARCHAR)', f'TRY_CAST({b_} AS VARCHAR)')})::VARIANT"
                f" WHEN cy_kind({a}) = 5 AND cy_kind({b_}) = 5 THEN"
                f" ({capped_concat(f'TRY_CAST({a} AS VARIANT[])', f'TRY_CAST({b_} AS VARIANT[])')})::VARIANT"
                f" ELSE {failure} END")
    result = let([compiler.variant(left), compiler.variant(right)], joined)
    return result if is_variant(node.type) else convert_from_variant(result, node.type)


OPERATOR_SQL: dict[str, Callable[[ExpressionCompiler, b.BOperator], str]] = {
    "=": _operator_equals,
    "<>": _operator_not_equals,
    "<": _comparison("<"),
    ">": _comparison(">"),
    "<=": _comparison("<="),
    ">=": _comparison(">="),
    "AND": _logical("AND"),
    "OR": _logical("OR"),
    "XOR": _xor,
    "NOT": _not,
    "NEG": _negate,
    "+": _arithmetic("+"),
    "-": _arithmetic("-"),
    "*": _arithmetic("*"),
    "/": _arithmetic("/"),
    "%": _arithmetic("%"),
    "^": _arithmetic("^"),
    "STARTS WITH": _string_predicate("starts_with"),
    "ENDS WITH": _string_predicate("ends_with"),
    "CONTAINS": _string_predicate("contains"),
    "IN": _in,
    "=~": _regex,
    "||": _concat,
}

EXPRESSION_SQL: dict[type, Callable[[ExpressionCompiler, b.BoundExpression], str]] = {
    b.BLiteral: ExpressionCompiler._literal,
    b.BParameter: ExpressionCompiler._parameter,
    b.BVariable: ExpressionCompiler._variable,
    b.BProperty: ExpressionCompiler._property,
    b.BIndex: ExpressionCompiler._index,
    b.BSlice: ExpressionCompiler._slice,
    b.BOperator: ExpressionCompiler._operator,
    b.BIsNull: ExpressionCompiler._is_null,
    b.BHasLabels: ExpressionCompiler._has_labels,
    b.BHasDynamicLabels: ExpressionCompiler._has_dynamic_labels,
    b.BIsType: ExpressionCompiler._is_type,
    b.BFunction: ExpressionCompiler._function,
    b.BAggregate: ExpressionCompiler._aggregate,
    b.BCase: ExpressionCompiler._case,
    b.BList: ExpressionCompiler._list,
    b.BMap: ExpressionCompiler._map,
    b.BEntityProperties: ExpressionCompiler._entity_properties,
    b.BListComprehension: ExpressionCompiler._list_comprehension,
    b.BQuantifier: ExpressionCompiler._quantifier,
    b.BReduce: ExpressionCompiler._reduce,
    b.BSubquery: ExpressionCompiler._subquery,
    b.BPathValue: ExpressionCompiler._path_value,
}
