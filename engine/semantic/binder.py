"""AST -> bound tree: resolve variables, infer static types, check the clause and aggregation rules.

One `bind_<clause>` per clause and one `_bind_<expression>` per expression kind, chosen through the
`CLAUSE_BINDERS` / `EXPRESSION_BINDERS` tables. Errors name the TCK's detail codes where the TCK has one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine import temporal
from engine import types as t
from engine.errors import (
    CypherArgumentError,
    CypherSyntaxError,
    CypherTypeError,
    ParameterMissing,
    ProcedureError,
    UnsupportedFeature,
)
from engine.procedures import ProcedureRegistry, check_arguments
from engine.semantic import bound as b
from engine.semantic import extensions, parameter_reads
from engine.semantic.bound import children as _children
from engine.semantic.bound import observed as _observed
from engine.semantic.constants import constant_of
from engine.semantic.functions import AGGREGATES, ARGUMENT_KINDS, SIGNATURES
from engine.semantic.scope import ColumnNamer, Scope, Variable
from engine.semantic.type_predicates import parse_type
from engine.semantic.unknown import UNKNOWN
from engine.span import Span
from engine.syntax import ast
from engine.types import CypherType, Kind

TEMPORAL_KINDS = frozenset({Kind.DATE, Kind.LOCAL_TIME, Kind.ZONED_TIME, Kind.LOCAL_DATETIME,
                            Kind.ZONED_DATETIME, Kind.DURATION})
NUMBER_KINDS = frozenset({Kind.INTEGER, Kind.FLOAT})
# Operand kinds each arithmetic operator accepts; a literal of another kind fails at compile time.
ARITHMETIC_OPERAND_KINDS: dict[str, frozenset[Kind]] = {
    "+": NUMBER_KINDS | TEMPORAL_KINDS | {Kind.STRING, Kind.LIST},
    "-": NUMBER_KINDS | TEMPORAL_KINDS,
    "*": NUMBER_KINDS | {Kind.DURATION},
    "/": NUMBER_KINDS | {Kind.DURATION},
    "%": NUMBER_KINDS,
    "^": NUMBER_KINDS,
}

UPDATING_CLAUSES = (ast.Create, ast.Merge, ast.SetClause, ast.Remove, ast.Delete, ast.Foreach)


@dataclass(frozen=True)
class ExpressionContext:
    """What an expression may contain where it stands."""

    aggregates: bool = False
    in_aggregate: bool = False


NO_AGGREGATES = ExpressionContext()


PropertyTypes = Callable[[str, str], CypherType | None]


class Binder:
    """Binds one statement. `property_types(entity, key)` gives the type of a property column (None: no
    such column); reads of node and relationship properties take that type. `writes` records what the
    statement stores, so the caller can bind again when a write would change a column's type."""

    def __init__(self, params: Mapping[str, Any] | None = None,
                 property_types: PropertyTypes | None = None,
                 procedures: ProcedureRegistry | None = None) -> None:
        self.procedures = procedures or ProcedureRegistry()
        self._standalone = False
        self._pattern_relationships: set[str] = set()
        self._match_mode: str | None = None
        self.params: Mapping[str, Any] = params if params is not None else {}
        """The parameters' values, as given (EXPLAIN gives a mapping that has every name)."""
        self.namer = ColumnNamer()
        self._references: list[set[int]] = []
        self._pass_through: set[int] = set()
        self._in_union = False
        self._transactional_writes = False
        self._enclosing_calls: list[bool] = []
        """One entry per subquery being bound, innermost last: True for a CALL ... IN TRANSACTIONS."""
        self.updating = False
        self.property_types: PropertyTypes = property_types or (lambda entity, key: t.ANY)
        self.writes: list[tuple[tuple[str, ...], str | None, CypherType]] = []

    # -- statements --------------------------------------------------------------------------------

    def bind_statement(self, statement: ast.Statement) -> b.BoundQuery | b.BSchemaCommand:
        if isinstance(statement, ast.Query):
            stands_for = extensions.rewritten(statement, self.params)
            if stands_for is None:
                return self.bind_query(statement, Scope(), top_level=True)
            statement = stands_for
        return b.BSchemaCommand(statement, params=dict(self.params))

    def bind_query(self, query: ast.Query, scope: Scope, *, top_level: bool = False,
                   subquery: str | None = None, part_scopes: list[Scope] | None = None) -> b.BoundQuery:
        """`part_scopes`, when given, is the scope each UNION part starts in (an old-style CALL subquery's
        parts each import their own variables); otherwise every part starts in `scope`."""
        scopes = part_scopes or [scope] * len(query.parts)
        in_union, self._in_union = self._in_union, len(query.parts) > 1
        if subquery == "count" and len(query.parts) > 1 and not all(query.union_all):
            subquery = "count_union"  # Neo4j: a COUNT over a distinct UNION may not omit its RETURN
        parts = [self.bind_single_query(part, part_scope.copy(), top_level=top_level, subquery=subquery)
                 for part, part_scope in zip(query.parts, scopes, strict=True)]
        self._in_union = in_union
        columns = parts[0].columns
        for part in parts[1:]:
            if part.columns != columns:
                raise CypherSyntaxError("all sub queries in a UNION must have the same return column names",
                                          query.span, detail="DifferentColumnsInUnion")
        if len(set(query.union_all)) > 1:
            raise CypherSyntaxError("cannot mix UNION and UNION ALL", query.span,
                                    detail="InvalidClauseComposition")
        last_clause = query.parts[-1].clauses[-1] if query.parts[-1].clauses else None
        ordered = isinstance(last_clause, ast.Return) and bool(last_clause.projection.order_by) and len(parts) == 1
        updating = self.updating or (top_level and self._transactional_writes)
        return b.BoundQuery(parts, list(query.union_all), columns, updating, ordered, _union_output(parts))

    def bind_single_query(self, query: ast.SingleQuery, scope: Scope, *, top_level: bool,
                          subquery: str | None) -> b.BoundSingleQuery:
        clauses: list[b.BoundClause] = []
        self._check_clause_order(query, top_level=top_level, subquery=subquery)
        self._standalone = top_level and len(query.clauses) == 1
        output: list[Variable] = []
        columns: list[str] = []
        for clause in _expand_searches(query.clauses):
            binder = CLAUSE_BINDERS.get(type(clause))
            if binder is None:
                raise UnsupportedFeature(f"{type(clause).__name__} clauses are not supported", clause.span)
            bound_clause, scope = binder(self, clause, scope)
            if scope.pinned:
                self._check_shadowing(bound_clause, scope, clause)
            clauses.append(bound_clause)
            if isinstance(bound_clause, b.BProjection) and bound_clause.is_return:
                output = [item.variable for item in bound_clause.items]
                columns = bound_clause.columns
            elif isinstance(bound_clause, b.BCallProcedure) and bound_clause.standalone:
                output = [variable for _, variable in bound_clause.yields]
                columns = [variable.name for variable in output]
        return b.BoundSingleQuery(clauses, columns, output)

    def _check_shadowing(self, bound_clause: b.BoundClause, scope: Scope, clause: ast.Clause) -> None:
        """A subquery may not declare a variable named like a pinned outer one (Neo4j's 42N07), except by
        passing that variable itself through a projection (`WITH a`, `RETURN a`)."""
        for name, variable in scope.variables.items():
            pinned = scope.pinned.get(name)
            if pinned is None or variable is pinned or id(variable) in self._pass_through:
                continue
            if isinstance(bound_clause, b.BProjection):
                for item in bound_clause.items:
                    source = item.expression
                    if item.variable is variable and isinstance(source, b.BVariable) and (
                            source.variable is pinned or id(source.variable) in self._pass_through):
                        self._pass_through.add(id(variable))
                if id(variable) in self._pass_through:
                    continue
            raise CypherSyntaxError(SHADOWING.format(name=name), _declaration_span(clause, name),
                                    detail="VariableShadowing")

    def _check_clause_order(self, query: ast.SingleQuery, *, top_level: bool, subquery: str | None) -> None:
        clauses = query.clauses
        if not clauses:
            raise CypherSyntaxError("empty query", query.span)
        for index, clause in enumerate(clauses):
            if isinstance(clause, ast.Return) and index != len(clauses) - 1:
                raise CypherSyntaxError("RETURN can only be used at the end of the query", clauses[index + 1].span,
                                        detail="InvalidClauseComposition")
        last = clauses[-1]
        ends_ok = isinstance(last, (ast.Return, ast.Finish, ast.CallSubquery, ast.CallProcedure, *UPDATING_CLAUSES))
        if subquery in ("exists", "count"):
            ends_ok = True
        if not ends_ok:
            raise CypherSyntaxError("query cannot conclude with " + type(last).__name__.upper()
                                    + " (must be RETURN or an update clause)", last.span,
                                    detail="InvalidClauseComposition")

    # -- clauses -----------------------------------------------------------------------------------

    def bind_match(self, clause: ast.Match, scope: Scope) -> tuple[b.BoundClause, Scope]:
        self._pattern_relationships = set()
        _check_quantifier_mixing(clause)
        new_scope = scope.copy()
        outer_mode, self._match_mode = self._match_mode, clause.mode
        try:
            paths = [self.bind_pattern_part(part, new_scope, mode="match") for part in clause.pattern.parts]
        finally:
            self._match_mode = outer_mode
        _check_match_modes(clause)
        where = self.bind_predicate(clause.where, new_scope) if clause.where else None
        return b.BMatch(paths, where, clause.optional, clause.mode == "repeatable_elements",
                        span=clause.span), new_scope

    def bind_unwind(self, clause: ast.Unwind, scope: Scope) -> tuple[b.BoundClause, Scope]:
        expression = self.bind_expression(clause.expression, scope)
        if clause.variable.name in scope:
            raise CypherSyntaxError(f"variable `{clause.variable.name}` already declared", clause.variable.span,
                                      detail="VariableAlreadyBound")
        variable = self.new_variable(clause.variable.name, _unwound_type(expression.type))
        variable.observed = _observed(expression)
        if isinstance(expression, b.BParameter | b.BLiteral) and expression.type.kind is Kind.LIST:
            variable.unwound = expression
        new_scope = scope.copy()
        new_scope.add(variable)
        return b.BUnwind(expression, variable, span=clause.span), new_scope

    def bind_with(self, clause: ast.With, scope: Scope) -> tuple[b.BoundClause, Scope]:
        return self.bind_projection(clause.projection, scope, clause.where, is_return=False, span=clause.span)

    def bind_return(self, clause: ast.Return, scope: Scope) -> tuple[b.BoundClause, Scope]:
        return self.bind_projection(clause.projection, scope, None, is_return=True, span=clause.span)

    def bind_projection(self, projection: ast.Projection, scope: Scope, where: ast.Expression | None, *,
                        is_return: bool, span: Span) -> tuple[b.BoundClause, Scope]:
        context = ExpressionContext(aggregates=True)
        items: list[b.BProjectionItem] = []
        columns: list[str] = []
        sources: list[ast.Expression | None] = []
        if projection.star:
            named = sorted(scope.named(), key=lambda v: v.name) if is_return else scope.named()
            if not named and not projection.items and is_return:
                raise CypherSyntaxError("RETURN * is not allowed when there are no variables in scope", span,
                                        detail="NoVariablesInScope")
            for variable in named:
                projected = self.new_variable(variable.name, variable.type)
                projected.observed = variable.observed
                projected.constant = None if is_return else variable.constant
                items.append(b.BProjectionItem(b.BVariable(variable, type=variable.type, span=span), projected))
                columns.append(variable.name)
                sources.append(ast.Variable(variable.name, span=span))
        pending = []
        for item in projection.items:
            if item.alias is None and not is_return and not isinstance(item.expression, ast.Variable):
                raise CypherSyntaxError("expression in WITH must be aliased (use AS)", item.span,
                                        detail="NoExpressionAlias")
            name = item.alias if item.alias is not None else item.text
            if name in columns:
                raise CypherSyntaxError(f"multiple result columns with the same name `{name}`", item.span,
                                        detail="ColumnNameConflict")
            columns.append(name)
            pending.append((item, name))
        # Grouping items first: an aggregating item may use them (but only the simple ones, see below).
        bound_items: dict[int, b.BProjectionItem] = {}
        for index, (item, name) in enumerate(pending):
            if not _ast_has_aggregate(item.expression):
                expression = self.bind_expression(item.expression, scope, context)
                variable = self.new_variable(name, expression.type)
                variable.observed = _observed(expression)
                # not a RETURN's: a CALL subquery's RETURN hands its variables out, and OPTIONAL CALL nulls them
                variable.constant = None if is_return else constant_of(expression)
                bound_items[index] = b.BProjectionItem(expression, variable)
        grouping_keys = self._grouping_keys(items + [bound_items[i] for i in sorted(bound_items)],
                                            sources + [pending[i][0].expression for i in sorted(bound_items)])
        for index, (item, name) in enumerate(pending):
            if index not in bound_items:
                expression = self._bind_aggregating(item.expression, scope, grouping_keys, context)
                variable = self.new_variable(name, expression.type)
                variable.observed = _observed(expression)
                bound_items[index] = b.BProjectionItem(expression, variable)
        for index, (item, _) in enumerate(pending):
            items.append(bound_items[index])
            sources.append(item.expression)
        aggregating = bool(b.aggregates_in([item.expression for item in items]))
        new_scope = scope.projected()
        for item in items:
            new_scope.add(item.variable)
        order_by = self._bind_order_by(projection, scope, new_scope, items, sources, aggregating)
        skip = self._bind_row_count(projection.skip, "SKIP") if projection.skip else None
        limit = self._bind_row_count(projection.limit, "LIMIT") if projection.limit else None
        where_scope = new_scope
        if where is not None and not aggregating and not projection.distinct:
            where_scope = scope.copy()
            for item in items:
                where_scope.add(item.variable)
        if where is not None:
            by_dump = {ast.dump(source): item.variable for source, item in zip(sources, items, strict=True)
                       if source is not None}
            where = _replace_projected(where, by_dump)
        bound_where = self.bind_predicate(where, where_scope) if where is not None else None
        result = b.BProjection(items, projection.distinct, aggregating, order_by, skip, limit, bound_where,
                               is_return, columns, span=span)
        return result, new_scope

    def _grouping_keys(self, items: list[b.BProjectionItem],
                       sources: list[ast.Expression | None]) -> dict[str, Variable]:
        """Grouping items an aggregating expression may reuse, by source text: variables and property
        lookups on them only. Neo4j refuses reusing a more complex expression, even a projected one."""
        keys: dict[str, Variable] = {}
        for item, source in zip(items, sources, strict=True):
            if source is not None and _is_simple_key(source):
                keys[ast.dump(source)] = item.variable
        return keys

    def _bind_aggregating(self, expression: ast.Expression, scope: Scope, keys: dict[str, Variable],
                          context: ExpressionContext, allowed: set[int] | None = None) -> b.BoundExpression:
        """Bind an expression holding an aggregate: outside its aggregates it may only use grouping keys,
        which become references to the grouping items' values."""
        hidden = scope.copy()
        names: dict[str, str] = {}
        for index, (dump, variable) in enumerate(keys.items()):
            names[dump] = f"\x00group{index}"
            hidden.add(Variable(names[dump], variable.type, variable.column, observed=variable.observed))
        rewritten = _replace_grouping_keys(expression, names)
        bound_expression = self.bind_expression(rewritten, hidden, context)
        for variable, used_span in _variables_outside_aggregates(bound_expression):
            if not variable.name.startswith("\x00group") and id(variable) not in (allowed or set()):
                raise CypherSyntaxError(
                    f"variable `{variable.name}` is used in an aggregating expression but is not a grouping key",
                    used_span, detail="AmbiguousAggregationExpression")
        return _substitute_group_variables(bound_expression, keys, names)

    def _bind_order_by(self, projection: ast.Projection, old_scope: Scope, new_scope: Scope,
                       items: list[b.BProjectionItem], sources: list[ast.Expression | None],
                       aggregating: bool) -> list[b.BSortItem]:
        if not projection.order_by:
            return []
        by_dump = {ast.dump(source): item.variable for source, item in zip(sources, items, strict=True)
                   if source is not None}
        self._reusable_dumps = {ast.dump(source) for source in sources if source is not None and (
            _is_simple_key(source) or _is_aggregate_call(source))}
        sort_scope = new_scope.copy()
        if not aggregating and not projection.distinct:
            sort_scope = old_scope.copy()
            for item in items:
                sort_scope.add(item.variable)
        result = []
        for sort_item in projection.order_by:
            expression = self._bind_sort_expression(sort_item.expression, sort_scope, by_dump, aggregating,
                                                    projection.distinct, old_scope, items)
            result.append(b.BSortItem(expression, sort_item.descending))
        return result

    def _bind_sort_expression(self, expression: ast.Expression, scope: Scope, by_dump: dict[str, Variable],
                              aggregating: bool, distinct: bool, old_scope: Scope,
                              items: list[b.BProjectionItem]) -> b.BoundExpression:
        matched = by_dump.get(ast.dump(expression))
        if matched is not None:
            return b.BVariable(matched, type=matched.type, span=expression.span)
        if aggregating and _ast_has_aggregate(expression):
            # Inside an expression with an aggregate only simple keys and whole aggregates may be reused.
            reusable = {dump: variable for dump, variable in by_dump.items() if dump in self._reusable_dumps}
            rewritten = _replace_projected(expression, reusable)
        else:
            rewritten = _replace_projected(expression, by_dump)
        try:
            if aggregating and _ast_has_aggregate(expression):
                return self._bind_aggregated_sort(rewritten, old_scope, items)
            return self.bind_expression(rewritten, scope)
        except CypherSyntaxError as error:
            if (aggregating or distinct) and error.detail == "UndefinedVariable":
                raise CypherSyntaxError(
                    "in a WITH/RETURN with DISTINCT or an aggregation, it is not possible to access variables "
                    "declared before the WITH/RETURN", error.span, detail="UndefinedVariable") from error
            raise

    def _bind_aggregated_sort(self, expression: ast.Expression, old_scope: Scope,
                              items: list[b.BProjectionItem]) -> b.BoundExpression:
        """An ORDER BY item holding an aggregate, after an aggregating projection: its aggregates must be
        projected ones (already replaced by their items), and any other variable it reads is ambiguous
        when a projected expression uses it (Neo4j will not reuse it) and unknown otherwise."""
        if _ast_has_aggregate(expression):
            raise CypherSyntaxError("ORDER BY after an aggregation can only use aggregates that are projected",
                                    expression.span, detail="UndefinedVariable")
        combined = old_scope.copy()
        for item in items:
            combined.add(item.variable)
        bound_expression = self.bind_expression(expression, combined)
        projected_names = {name for item in items for name in _names_read(item.expression)}
        for variable, used_span in _variables_outside_aggregates(bound_expression):
            if any(variable is item.variable for item in items):
                continue
            if variable.name in projected_names:
                raise CypherSyntaxError(
                    f"variable `{variable.name}` is used in an aggregating expression but is not a grouping key",
                    used_span, detail="AmbiguousAggregationExpression")
            raise CypherSyntaxError(f"variable `{variable.name}` is not projected, so ORDER BY cannot read it",
                                    used_span, detail="UndefinedVariable")
        return bound_expression

    def _bind_row_count(self, expression: ast.Expression, what: str) -> b.BoundExpression:
        """SKIP and LIMIT take a constant non-negative integer. A bad literal is a compile-time error; a bad
        parameter value an ArgumentError when the statement runs, as in Neo4j."""
        try:
            bound_expression = self.bind_expression(expression, Scope())
        except CypherSyntaxError as error:
            if error.detail != "UndefinedVariable":
                raise
            raise CypherSyntaxError(f"{what} must be a constant expression: it cannot read variables",
                                    expression.span, detail="NonConstantExpression") from None
        if not isinstance(bound_expression, b.BLiteral | b.BParameter):
            return bound_expression
        value = bound_expression.value
        if value is UNKNOWN:  # EXPLAIN without the parameter: checked when the statement runs
            return bound_expression
        error = CypherArgumentError if isinstance(bound_expression, b.BParameter) else CypherSyntaxError
        if isinstance(value, bool) or not isinstance(value, int):
            raise error(f"{what} must be a non-negative integer, got {value!r}", expression.span,
                        detail="InvalidArgumentType")
        if value < 0:
            raise error(f"{what} must be a non-negative integer, got {value}", expression.span,
                        detail="NegativeIntegerArgument")
        return bound_expression

    def bind_create(self, clause: ast.Create, scope: Scope) -> tuple[b.BoundClause, Scope]:
        self.updating = True
        for part in clause.pattern.parts:
            first = part.element.elements[0] if part.element.elements else None
            if (len(part.element.elements) == 1 and isinstance(first, ast.NodePattern)
                    and first.variable is not None and first.variable.name in scope):
                raise CypherSyntaxError(f"variable `{first.variable.name}` already declared: CREATE would "
                                        "create nothing new", first.span, detail="VariableAlreadyBound")
        new_scope = scope.copy()
        paths = [self.bind_pattern_part(part, new_scope, mode="create") for part in clause.pattern.parts]
        return b.BCreate(paths, span=clause.span), new_scope

    def bind_merge(self, clause: ast.Merge, scope: Scope) -> tuple[b.BoundClause, Scope]:
        self.updating = True
        elements = clause.part.element.elements
        if (len(elements) == 1 and isinstance(elements[0], ast.NodePattern) and elements[0].variable is not None
                and elements[0].variable.name in scope):
            raise CypherSyntaxError(f"variable `{elements[0].variable.name}` already declared: MERGE would "
                                    "match or create nothing new", elements[0].span, detail="VariableAlreadyBound")
        new_scope = scope.copy()
        path = self.bind_pattern_part(clause.part, new_scope, mode="merge")
        on_create: list[b.BoundSetItem] = []
        on_match: list[b.BoundSetItem] = []
        for action in clause.actions:
            target = on_create if action.on == "create" else on_match
            target.extend(self.bind_set_item(item, new_scope) for item in action.items)
        return b.BMerge(path, on_create, on_match, span=clause.span), new_scope

    def bind_set(self, clause: ast.SetClause, scope: Scope) -> tuple[b.BoundClause, Scope]:
        self.updating = True
        return b.BSet([self.bind_set_item(item, scope) for item in clause.items], span=clause.span), scope

    def bind_set_item(self, item: ast.SetItem, scope: Scope) -> b.BoundSetItem:
        if isinstance(item, ast.SetProperty):
            target = self.bind_expression(item.target.subject, scope)
            value = self.bind_expression(item.value, scope)
            self.writes.append((_entities_of(target.type), item.target.key, value.type))
            return b.BoundSetItem("property", target, item.target.key, value, (), item.span)
        if isinstance(item, ast.SetDynamicProperty):
            target = self.bind_expression(item.target.subject, scope)
            key = self.bind_expression(item.target.index, scope)
            value = self.bind_expression(item.value, scope)
            self.writes.append((_entities_of(target.type), None, value.type))
            return b.BoundSetItem("property", target, key, value, (), item.span)
        if isinstance(item, ast.SetAllProperties | ast.MergeProperties):
            target = self.bind_expression(item.variable, scope)
            value = self.bind_expression(item.value, scope)
            self._record_map_write(_entities_of(target.type), value)
            kind = "all" if isinstance(item, ast.SetAllProperties) else "merge"
            return b.BoundSetItem(kind, target, None, value, (), item.span)
        if isinstance(item, ast.SetLabels):
            target = self.bind_expression(item.variable, scope)
            if target.type.kind not in (Kind.NODE, Kind.ANY, Kind.NULL) and not _observed(target):
                raise CypherTypeError("labels can only be set on nodes", item.span, detail="InvalidArgumentType")
            return b.BoundSetItem("labels", target, None, None, item.labels, item.span)
        raise UnsupportedFeature(f"{type(item).__name__} in SET", item.span)

    def bind_remove(self, clause: ast.Remove, scope: Scope) -> tuple[b.BoundClause, Scope]:
        self.updating = True
        items = []
        for item in clause.items:
            if isinstance(item, ast.RemoveLabels):
                target = self.bind_expression(item.variable, scope)
                items.append(b.BoundSetItem("remove_labels", target, None, None, item.labels, item.span))
            elif isinstance(item.target, ast.PropertyLookup):
                target = self.bind_expression(item.target.subject, scope)
                items.append(b.BoundSetItem("remove_property", target, item.target.key, None, (), item.span))
            else:
                target = self.bind_expression(item.target.subject, scope)
                key = self.bind_expression(item.target.index, scope)
                items.append(b.BoundSetItem("remove_property", target, key, None, (), item.span))
        return b.BSet(items, span=clause.span), scope

    def bind_delete(self, clause: ast.Delete, scope: Scope) -> tuple[b.BoundClause, Scope]:
        self.updating = True
        expressions = []
        for expression in clause.expressions:
            bound_expression = self.bind_expression(expression, scope)
            if bound_expression.type.kind not in (Kind.NODE, Kind.RELATIONSHIP, Kind.PATH, Kind.ANY, Kind.NULL,
                                                  Kind.LIST) and not _observed(bound_expression):
                raise CypherSyntaxError("DELETE expects a node, relationship or path", expression.span,
                                        detail="InvalidArgumentType" if isinstance(expression, ast.Literal)
                                        or bound_expression.type.kind in NUMBER_KINDS else "InvalidDelete")
            expressions.append(bound_expression)
        return b.BDelete(expressions, clause.detach, span=clause.span), scope

    def bind_call_subquery(self, clause: ast.CallSubquery, scope: Scope) -> tuple[b.BoundClause, Scope]:
        """`CALL (a, b) { ... }` / `CALL (*)` pin the imported variables for the whole subquery; the old form
        `CALL { WITH a ... }` imports by its leading WITH, per UNION part (ADR-0016)."""
        transactions = self._bind_transactions(clause, scope) if clause.in_transactions else None
        part_scopes = None
        if clause.import_all:
            inner_scope = Scope({}, scope.visible())
        elif clause.importing is not None:
            pinned: dict[str, Variable] = {}
            for variable in clause.importing:
                found = scope.lookup(variable.name)
                if found is None:
                    raise CypherSyntaxError(f"variable `{variable.name}` not defined", variable.span,
                                              detail="UndefinedVariable")
                pinned[variable.name] = found
            inner_scope = Scope({}, pinned)
        else:
            inner_scope = Scope()
            part_scopes = [self._leading_with_imports(part, scope) for part in clause.query.parts]
        _check_call_return_aliases(clause.query)
        self._references.append(set())
        self._enclosing_calls.append(clause.in_transactions)
        updating, self.updating = self.updating, False
        query = self.bind_query(clause.query, inner_scope, subquery="call", part_scopes=part_scopes)
        if clause.in_transactions:
            # Writes inside CALL ... IN TRANSACTIONS do not count as the "write clause" a later one may not
            # follow; the statement still writes.
            self._transactional_writes = self._transactional_writes or self.updating
            self.updating = updating
        else:
            self.updating = updating or self.updating
        self._enclosing_calls.pop()
        referenced = self._references.pop()
        if self._references:
            self._references[-1].update(referenced)
        imports = tuple(v for v in scope if id(v) in referenced)
        new_scope = scope.copy()
        returns = query.output
        for variable in returns:
            if variable.name in scope:
                # Neo4j: "Variable `x` already declared in outer scope" (42N07), as the TCK's VariableAlreadyBound.
                raise CypherSyntaxError(f"Variable `{variable.name}` already declared in outer scope",
                                        _return_item_span(clause.query, variable.name) or clause.span,
                                        detail="VariableAlreadyBound")
            new_scope.add(variable)
        if transactions is not None and transactions.report is not None:
            new_scope.add(transactions.report)
        return b.BCallSubquery(query, imports, clause.optional, returns, transactions, span=clause.span), new_scope

    def _bind_transactions(self, clause: ast.CallSubquery, scope: Scope) -> b.BTransactions:
        """The rules of the manual's "CALL subqueries in transactions": where the clause may stand, a static
        positive batch size, REPORT STATUS only with ON ERROR CONTINUE or BREAK."""
        if self._enclosing_calls:
            message = ("Nested CALL { ... } IN TRANSACTIONS is not supported" if self._enclosing_calls[-1]
                       else "CALL { ... } IN TRANSACTIONS nested in a regular CALL is not supported")
            raise CypherSyntaxError(message, clause.span, detail="InvalidClauseComposition")
        if self._in_union:
            raise CypherSyntaxError("CALL { ... } IN TRANSACTIONS in a UNION is not supported", clause.span,
                                    detail="InvalidClauseComposition")
        if self.updating:
            raise CypherSyntaxError("CALL { ... } IN TRANSACTIONS after a write clause is not supported",
                                    clause.span, detail="InvalidClauseComposition")
        batch_size = None
        if clause.batch_size is not None:
            batch_size = self._bind_batch_size(clause.batch_size)
        on_error = clause.on_error or "fail"
        report = None
        if clause.report_status is not None:
            if on_error == "fail":
                raise CypherSyntaxError("REPORT STATUS can only be used when specifying ON ERROR CONTINUE or "
                                        "ON ERROR BREAK", clause.report_status.span, detail="InvalidClauseComposition")
            name = clause.report_status.name
            if name in scope:
                raise CypherSyntaxError(f"variable `{name}` already declared", clause.report_status.span,
                                        detail="VariableAlreadyBound")
            report = self.new_variable(name, t.record([("started", t.BOOLEAN), ("committed", t.BOOLEAN),
                                                       ("transactionId", t.STRING), ("errorMessage", t.STRING)]))
        return b.BTransactions(batch_size, on_error, report)

    def _bind_batch_size(self, expression: ast.Expression) -> b.BoundExpression:
        """OF n ROWS: an expression without variables that gives a positive integer (checked when the
        statement runs if it is a parameter)."""
        try:
            bound_expression = self.bind_expression(expression, Scope())
        except CypherSyntaxError as error:
            if error.detail != "UndefinedVariable":
                raise
            raise CypherSyntaxError("It is not allowed to refer to variables in OF ... ROWS", expression.span,
                                    detail="NonConstantExpression") from None
        if isinstance(bound_expression, b.BLiteral):
            value = bound_expression.value
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise CypherSyntaxError(f"Invalid input. '{value}' is not a valid value. Must be a positive integer.",
                                        expression.span, detail="InvalidArgumentValue")
        return bound_expression

    def _leading_with_imports(self, part: ast.SingleQuery, scope: Scope) -> Scope:
        """Old-style `CALL { WITH a, b ... }`: the variables of a leading importing WITH (plain variables,
        no DISTINCT, WHERE, ORDER BY, SKIP or LIMIT; or `WITH *`) are imported into this part. A leading WITH
        that reads outer variables any other way is an error (Neo4j's "Importing WITH should consist only of
        simple references to outside variables")."""
        inner = Scope()
        first = part.clauses[0] if part.clauses else None
        if not isinstance(first, ast.With):
            return inner
        projection = first.projection
        pass_through = all(isinstance(item.expression, ast.Variable) and item.alias in (None, item.expression.name)
                           for item in projection.items)
        clean = not (projection.distinct or first.where is not None or projection.order_by
                     or projection.skip is not None or projection.limit is not None)
        if pass_through and clean:
            if projection.star:
                return scope.copy()
            for item in projection.items:
                assert isinstance(item.expression, ast.Variable)
                found = scope.lookup(item.expression.name)
                if found is not None:
                    inner.add(found)
            return inner
        reads_outer = projection.star or any(
            name in scope for item in projection.items for name in _ast_variable_names(item.expression))
        if not reads_outer:
            return inner
        problems = [
            (not pass_through, "Aliasing or expressions are not supported"),
            (projection.distinct, "DISTINCT is not allowed"),
            (first.where is not None, "WHERE is not allowed"),
            (bool(projection.order_by), "ORDER BY is not allowed"),
            (projection.skip is not None, "SKIP is not allowed"),
            (projection.limit is not None, "LIMIT is not allowed"),
        ]
        reason = next(text for present, text in problems if present)
        raise CypherSyntaxError(f"Importing WITH should consist only of simple references to outside variables. "
                                f"{reason}.", first.span, detail="InvalidImportingWith")

    def bind_call_procedure(self, clause: ast.CallProcedure, scope: Scope) -> tuple[b.BoundClause, Scope]:
        parameter_reads.calls_procedure()
        procedure = self.procedures.lookup(clause.name)
        if procedure is None:
            raise ProcedureError(f"there is no procedure called `{clause.name}`", clause.span,
                                 detail="ProcedureNotFound")
        standalone = self._standalone
        if clause.arguments is None:
            if not standalone:
                raise CypherSyntaxError(f"procedure call {clause.name} inside a query must give its arguments",
                                        clause.span, detail="InvalidArgumentPassingMode")
            arguments = tuple(self._bind_parameter(ast.Parameter(field.name, span=clause.span), scope,
                                                   NO_AGGREGATES) for field in procedure.inputs)
        else:
            arguments = tuple(self.bind_expression(argument, scope) for argument in clause.arguments)
        check_arguments(procedure, [argument.type for argument in arguments], clause.span)
        new_scope = scope.copy()
        yields: list[tuple[str, Variable]] = []
        if clause.yield_items is None or clause.yield_star:
            if not standalone and procedure.outputs:
                raise CypherSyntaxError(f"procedure call {clause.name} inside a query must YIELD its results",
                                        clause.span, detail="UndefinedVariable")
            chosen = [(field.name, field.name) for field in procedure.outputs]
        else:
            chosen = []
            for item in clause.yield_items:
                if procedure.output(item.field) is None:
                    raise CypherSyntaxError(f"procedure {clause.name} has no output `{item.field}`", item.span,
                                            detail="UndefinedVariable")
                chosen.append((item.field, item.alias.name if item.alias is not None else item.field))
        for field_name, name in chosen:
            if name in new_scope:
                raise CypherSyntaxError(f"variable `{name}` already declared", clause.span,
                                        detail="VariableAlreadyBound")
            output = procedure.output(field_name)
            assert output is not None
            variable = self.new_variable(name, output.type)
            new_scope.add(variable)
            yields.append((field_name, variable))
        where = self.bind_predicate(clause.where, new_scope) if clause.where is not None else None
        return b.BCallProcedure(procedure, arguments, yields, where, standalone, span=clause.span), new_scope

    def bind_foreach(self, clause: ast.Foreach, scope: Scope) -> tuple[b.BoundClause, Scope]:
        """FOREACH (x IN list | updates): the updates see x and the outer variables; the clause leaves the
        rows and the scope as they were."""
        self.updating = True
        source = self.bind_expression(clause.source, scope)
        _check_kinds(source, {Kind.LIST}, "FOREACH")
        if clause.variable.name in scope:
            raise CypherSyntaxError(f"variable `{clause.variable.name}` already declared", clause.variable.span,
                                    detail="VariableAlreadyBound")
        # a value that is not a list (only a type read off data gets here) is one element, as for UNWIND
        variable = self.new_variable(clause.variable.name, _unwound_type(source.type))
        variable.observed = _observed(source)
        inner = scope.copy()
        inner.add(variable)
        bound_clauses = []
        for inner_clause in clause.clauses:
            if not isinstance(inner_clause, UPDATING_CLAUSES):
                raise CypherSyntaxError("FOREACH may only hold updating clauses (CREATE, MERGE, SET, REMOVE, "
                                        "DELETE, FOREACH)", inner_clause.span, detail="InvalidClauseComposition")
            bound_clause, inner = CLAUSE_BINDERS[type(inner_clause)](self, inner_clause, inner)
            bound_clauses.append(bound_clause)
        return b.BForeach(variable, source, bound_clauses, span=clause.span), scope

    def bind_finish(self, clause: ast.Finish, scope: Scope) -> tuple[b.BoundClause, Scope]:
        raise UnsupportedFeature("FINISH", clause.span)

    # -- patterns ----------------------------------------------------------------------------------

    def bind_pattern_part(self, part: ast.PatternPart, scope: Scope, *, mode: str) -> b.BoundPath:
        repeatable = mode == "match" and self._match_mode == "repeatable_elements"
        selector = self._bind_selector(part)
        written_mode = part.selector.mode if part.selector is not None else None
        if written_mode in ("trail", "acyclic") and repeatable:
            raise CypherSyntaxError(f"REPEATABLE ELEMENTS with {written_mode.upper()} path mode is not supported",
                                    part.span, detail="UnsupportedPathModeCombination")
        elements, path_where = self._path_elements(part, scope)
        if mode == "match":
            _check_not_empty(part)
        if part.function is not None:
            self._check_shortest_function(part, elements)
        nodes: list[b.BoundNode] = []
        links: list[b.BoundRelationship | b.BoundGroup] = []
        for element in elements:
            if isinstance(element, ast.NodePattern):
                nodes.append(self._bind_node(element, scope, mode))
            elif isinstance(element, ast.QuantifiedPath):
                links.append(self._bind_group(element, scope, repeatable))
            else:
                if written_mode is not None and element.length is not None:
                    raise CypherSyntaxError(f"explicit path modes cannot be used with a variable-length relationship"
                                            f" ({written_mode.upper()} on -[*]-): use a quantified relationship",
                                            element.span, detail="PathModeOnVariableLength")
                if repeatable and element.length is not None and element.length.max is None:
                    raise CypherSyntaxError(UNBOUNDED_REPEATABLE, element.span, detail="UnboundedRepeatableElements")
                links.append(self._bind_relationship(element, scope, mode))
        path_variable = None
        declared = part.variable
        whole = part.element.elements[0] if len(part.element.elements) == 1 else None
        if isinstance(whole, ast.QuantifiedPath) and whole.quantifier is None and whole.variable is not None:
            if declared is not None:
                raise CypherSyntaxError("a path pattern can declare one path variable", whole.variable.span,
                                        detail="VariableAlreadyBound")
            declared = whole.variable
        if declared is not None:
            if declared.name in scope:
                raise CypherSyntaxError(f"variable `{declared.name}` already declared", declared.span,
                                          detail="VariableAlreadyBound")
            path_variable = self.new_variable(declared.name, t.PATH)
            scope.add(path_variable)
        where = self.bind_predicate(path_where, scope) if path_where is not None else None
        path_mode = "acyclic" if written_mode == "acyclic" else "walk" if repeatable else "trail"
        return b.BoundPath(nodes, links, path_variable, None, part.span, selector, path_mode, where)

    def _bind_selector(self, part: ast.PatternPart) -> b.BoundSelector | None:
        """`ANY k`, `SHORTEST k`, `ALL SHORTEST`, `SHORTEST k GROUPS` and the legacy functions as one ranking:
        keep k paths ('any', 'shortest') or k length groups ('groups') per pair of end nodes."""
        if part.function is not None:
            return b.BoundSelector("shortest" if part.function == "shortestPath" else "groups", 1, part.function)
        selector = part.selector
        if selector is None or selector.kind == "all":
            return None
        kind, count = {
            "any": ("any", selector.count if selector.count is not None else 1),
            "any_shortest": ("shortest", 1),
            "all_shortest": ("groups", 1),
            "shortest_k": ("shortest", selector.count),
            "shortest_groups": ("groups", selector.count),
        }[selector.kind]
        if isinstance(count, ast.Parameter):  # `SHORTEST $k`: a non-negative integer, as for SKIP / LIMIT
            count = self._bind_parameter(count, Scope(), NO_AGGREGATES).value
            if isinstance(count, bool) or not isinstance(count, int):
                raise CypherArgumentError(f"the number of paths or groups must be a non-negative integer, got "
                                          f"{count!r}", selector.span, detail="InvalidArgumentType")
            if count < 0:
                raise CypherArgumentError(f"the number of paths or groups must be a non-negative integer, got "
                                          f"{count}", selector.span, detail="NegativeIntegerArgument")
        return b.BoundSelector(kind, int(count or 0))

    def _path_elements(self, part: ast.PatternPart,
                       scope: Scope) -> tuple[list[ast.SyntaxNode], ast.Expression | None]:
        """The pattern as node (link node)*: a parenthesised whole pattern is unwrapped (its WHERE returned),
        a quantified relationship becomes the group it abbreviates, and an anonymous node stands between
        adjacent groups and at an end that is a group."""
        elements = list(part.element.elements)
        where = None
        if len(elements) == 1 and isinstance(elements[0], ast.QuantifiedPath) and elements[0].quantifier is None:
            where = elements[0].where
            elements = list(elements[0].pattern.elements)
        for element in elements:
            if isinstance(element, ast.QuantifiedPath) and element.variable is not None:
                raise UnsupportedFeature("a path variable declared inside a parenthesised path pattern that "
                                         "is not the whole pattern", element.variable.span)
        result: list[ast.SyntaxNode] = []
        for element in elements:
            if isinstance(element, ast.QuantifiedPath) and element.quantifier is None:
                raise UnsupportedFeature("a parenthesised path pattern inside a longer path pattern", element.span)
            if isinstance(element, ast.RelationshipPattern) and element.quantifier is not None and not (
                    element.variable is not None and element.variable.name in scope):
                element = _quantified_relationship_group(element)
            if not isinstance(element, ast.NodePattern) and (not result or not isinstance(result[-1], ast.NodePattern)):
                result.append(ast.NodePattern(None, None, None, None, span=element.span))
            result.append(element)
        if result and not isinstance(result[-1], ast.NodePattern):
            result.append(ast.NodePattern(None, None, None, None, span=result[-1].span))
        return result, where

    def _check_shortest_function(self, part: ast.PatternPart, elements: list[ast.SyntaxNode]) -> None:
        name = part.function
        links = [e for e in elements if not isinstance(e, ast.NodePattern)]
        if any(isinstance(e, ast.QuantifiedPath) for e in links) or any(
                isinstance(e, ast.RelationshipPattern) and e.quantifier is not None for e in part.element.elements):
            raise CypherSyntaxError(f"{name}(...) needs a variable-length relationship (-[*]-), not a quantified "
                                    "path pattern", part.span, detail="InvalidShortestPathPattern")
        if len(links) != 1:
            raise CypherSyntaxError(f"{name}(...) requires a pattern containing a single relationship", part.span,
                                    detail="InvalidShortestPathPattern")
        length = links[0].length
        if length is not None and length.min is not None and length.min > 1:
            raise CypherSyntaxError(f"{name}(...) does not support a minimal length different from 0 or 1",
                                    links[0].span, detail="InvalidShortestPathPattern")

    def _bind_group(self, group: ast.QuantifiedPath, scope: Scope, repeatable: bool) -> b.BoundGroup:
        """A quantified path pattern: its inner variables are singletons inside it (its predicates read one
        iteration) and lists outside (group variables)."""
        quantifier = group.quantifier
        assert quantifier is not None
        low, high = quantifier.min or 0, quantifier.max
        if high is not None and low > high:
            raise CypherSyntaxError(f"a quantifier's lower bound ({low}) cannot be greater than its upper bound "
                                    f"({high})", quantifier.span, detail="InvalidQuantifier")
        if high == 0:
            raise CypherSyntaxError("a quantifier for a path pattern must not be limited by 0", quantifier.span,
                                    detail="InvalidQuantifier")
        if repeatable and high is None:
            raise CypherSyntaxError(UNBOUNDED_REPEATABLE, quantifier.span, detail="UnboundedRepeatableElements")
        inner = list(group.pattern.elements)
        for element in inner:
            if isinstance(element, ast.QuantifiedPath) or (isinstance(element, ast.RelationshipPattern) and (
                    element.quantifier is not None or element.length is not None)):
                raise CypherSyntaxError("quantified path patterns cannot be nested: a quantified path pattern "
                                        "cannot contain another quantified or variable-length pattern",
                                        element.span, detail="NestedQuantifiedPath")
        if not any(isinstance(element, ast.RelationshipPattern) for element in inner):
            raise CypherSyntaxError("a quantified path pattern must contain at least one relationship",
                                    group.span, detail="InvalidQuantifiedPath")
        inner_scope = scope.copy()
        declared: dict[str, Variable] = {}
        nodes: list[b.BoundNode] = []
        relationships: list[b.BoundRelationship] = []
        for element in inner:
            variable = getattr(element, "variable", None)
            if variable is not None and variable.name not in declared and variable.name in scope:
                raise CypherSyntaxError(f"variable `{variable.name}` already declared: a variable inside a "
                                        "quantified path pattern is a new group variable", variable.span,
                                        detail="VariableAlreadyBound")
            if isinstance(element, ast.NodePattern):
                bound_node = self._bind_node(element, inner_scope, "match")
                nodes.append(bound_node)
                bound_variable = bound_node.variable
            else:
                bound_relationship = self._bind_relationship(element, inner_scope, "match")
                relationships.append(bound_relationship)
                bound_variable = bound_relationship.variable
            if variable is not None:
                declared[variable.name] = bound_variable
        where = self.bind_predicate(group.where, inner_scope) if group.where is not None else None
        group_variables = []
        for name, singleton in declared.items():
            outer = self.new_variable(name, t.list_of(singleton.type))
            scope.add(outer)
            group_variables.append((singleton, outer))
        return b.BoundGroup(nodes, relationships, where, low, high, group_variables, group.span)

    def _bind_node(self, node: ast.NodePattern, scope: Scope, mode: str) -> b.BoundNode:
        if node.where is not None and mode != "match":
            raise CypherSyntaxError(f"a {mode.upper()} pattern cannot have a WHERE inside a node pattern",
                                    node.where.span, detail="InvalidPatternPredicate")
        properties = self._bind_pattern_properties(node.properties, scope, "node", mode)
        if node.variable is None:
            anonymous = b.BoundNode(self.new_variable("", t.NODE, anonymous=True), True, node.labels, properties,
                                    node.span)
            anonymous.where = self.bind_predicate(node.where, scope) if node.where is not None else None
            return anonymous
        existing = scope.lookup(node.variable.name)
        if existing is not None:
            if existing.type.kind not in (Kind.NODE, Kind.ANY, Kind.NULL) and not existing.observed:
                raise CypherSyntaxError(f"type mismatch: `{node.variable.name}` was {existing.type!r}, "
                                        "used as a node", node.variable.span, detail="VariableTypeConflict")
            if mode in ("create", "merge") and (node.labels is not None or node.properties is not None):
                raise CypherSyntaxError(f"can't create node `{node.variable.name}` with labels or properties "
                                        "here: the variable is already declared", node.span,
                                        detail="VariableAlreadyBound")
            self._reference(existing)
            bound_node = b.BoundNode(existing, False, node.labels, properties, node.span)
        else:
            variable = self.new_variable(node.variable.name, t.NODE)
            scope.add(variable)
            bound_node = b.BoundNode(variable, True, node.labels, properties, node.span)
        if node.where is not None:
            bound_node.where = self.bind_predicate(node.where, scope)
        return bound_node

    def _bind_relationship(self, relationship: ast.RelationshipPattern, scope: Scope,
                           mode: str) -> b.BoundRelationship:
        if relationship.where is not None and (mode != "match" or relationship.length is not None):
            what = "a variable-length relationship" if relationship.length is not None else f"a {mode.upper()} pattern"
            raise CypherSyntaxError(f"{what} cannot have a WHERE inside the relationship pattern",
                                    relationship.where.span, detail="InvalidPatternPredicate")
        length = self._relationship_length(relationship)
        properties = self._bind_pattern_properties(relationship.properties, scope, "relationship", mode)
        if mode in ("create", "merge") and relationship.variable is not None and relationship.variable.name in scope:
            raise CypherSyntaxError(f"can't create relationship `{relationship.variable.name}`: the variable is "
                                    "already declared", relationship.span, detail="VariableAlreadyBound")
        if mode in ("create", "merge"):
            if length is not None:
                raise CypherSyntaxError("variable length relationships cannot be created", relationship.span,
                                        detail="CreatingVarLength")
            if not isinstance(relationship.types, ast.LabelName):
                raise CypherSyntaxError("a relationship to create needs exactly one type", relationship.span,
                                        detail="NoSingleRelationshipType")
            if relationship.direction == "both" and mode == "create":
                raise CypherSyntaxError("only directed relationships can be created", relationship.span,
                                        detail="RequiresDirectedRelationship")
        element_type = t.list_of(t.RELATIONSHIP) if length is not None else t.RELATIONSHIP
        if relationship.variable is not None and mode == "match" and self._match_mode != "repeatable_elements":
            seen = self._pattern_relationships
            if relationship.variable.name in seen:
                raise CypherSyntaxError(f"relationship `{relationship.variable.name}` appears twice in one pattern;"
                                        " a pattern never matches a relationship twice", relationship.span,
                                        detail="RelationshipUniquenessViolation")
            seen.add(relationship.variable.name)
        if relationship.variable is None:
            variable = self.new_variable("", element_type, anonymous=True)
            bound = b.BoundRelationship(variable, True, relationship.types, properties, relationship.direction,
                                        length, relationship.span)
        else:
            existing = scope.lookup(relationship.variable.name)
            if existing is not None:
                if mode in ("create", "merge"):
                    raise CypherSyntaxError(f"can't create relationship `{relationship.variable.name}`: the "
                                            "variable is already declared", relationship.span,
                                            detail="VariableAlreadyBound")
                # a single relationship of a type read off data is checked on each row (`_bound_id`)
                if existing.type.kind not in (Kind.RELATIONSHIP, Kind.ANY, Kind.NULL) and not (
                        existing.observed if length is None else existing.type.kind is Kind.LIST):
                    raise CypherSyntaxError(f"type mismatch: `{relationship.variable.name}` was {existing.type!r}, "
                                            "used as a relationship", relationship.variable.span,
                                            detail="VariableTypeConflict")
                self._reference(existing)
                bound = b.BoundRelationship(existing, False, relationship.types, properties,
                                            relationship.direction, length, relationship.span)
            else:
                variable = self.new_variable(relationship.variable.name, element_type)
                scope.add(variable)
                bound = b.BoundRelationship(variable, True, relationship.types, properties, relationship.direction,
                                            length, relationship.span)
        if relationship.where is not None:
            bound.where = self.bind_predicate(relationship.where, scope)
        return bound

    @staticmethod
    def _relationship_length(relationship: ast.RelationshipPattern) -> tuple[int, int | None] | None:
        bounds = relationship.length or relationship.quantifier
        if bounds is None:
            return None
        low = 1 if bounds.min is None and relationship.length is not None else (bounds.min or 0)
        return (low, bounds.max)

    def _bind_pattern_properties(self, properties: ast.MapLiteral | ast.Parameter | None, scope: Scope,
                                 entity: str = "node", mode: str = "match") -> b.BoundExpression | None:
        if properties is None:
            return None
        bound_properties = self.bind_expression(properties, scope)
        if mode in ("create", "merge"):
            self._record_map_write((entity,), bound_properties)
        if bound_properties.type.kind not in (Kind.MAP, Kind.ANY, Kind.NULL):
            raise CypherTypeError("a pattern's properties must be a map", properties.span,
                                  detail="InvalidParameterUse")
        return bound_properties

    # -- expressions -------------------------------------------------------------------------------

    def bind_predicate(self, expression: ast.Expression, scope: Scope) -> b.BoundExpression:
        bound_expression = self.bind_expression(expression, scope)
        _check_kinds(bound_expression, {Kind.BOOLEAN}, "a predicate")
        return bound_expression

    def bind_expression(self, expression: ast.Expression, scope: Scope,
                        context: ExpressionContext = NO_AGGREGATES) -> b.BoundExpression:
        binder = EXPRESSION_BINDERS.get(type(expression))
        if binder is None:
            raise UnsupportedFeature(f"{type(expression).__name__} expressions", expression.span)
        return binder(self, expression, scope, context)

    def _bind_literal(self, node: ast.Literal, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        return b.BLiteral(node.value, type=t.type_of_value(node.value), span=node.span)

    def _bind_parameter(self, node: ast.Parameter, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        if node.name not in self.params:
            raise ParameterMissing(f"expected a value for parameter ${node.name}", node.span,
                                   detail="MissingParameter")
        value = self.params[node.name]
        cypher_type = t.type_of_value(value)
        parameter_reads.bound(node.name, cypher_type)
        return b.BParameter(node.name, value, type=cypher_type, span=node.span)

    def _bind_variable(self, node: ast.Variable, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        variable = scope.lookup(node.name)
        if variable is None:
            raise CypherSyntaxError(f"variable `{node.name}` not defined", node.span, detail="UndefinedVariable")
        self._reference(variable)
        return b.BVariable(variable, type=variable.type, span=node.span)

    def _bind_property(self, node: ast.PropertyLookup, scope: Scope,
                       context: ExpressionContext) -> b.BoundExpression:
        subject = self.bind_expression(node.subject, scope, context)
        kind = subject.type.kind
        if subject.type.is_record:
            field_type = subject.type.field(node.key)
            result = field_type if field_type is not None else t.NULL
        elif kind in (Kind.NODE, Kind.RELATIONSHIP):
            entity = "node" if kind is Kind.NODE else "relationship"
            result = self.property_types(entity, node.key) or t.NULL
        elif kind in TEMPORAL_KINDS:
            result = _temporal_component_type(subject, node)
        elif kind in (Kind.MAP, Kind.ANY, Kind.NULL) or _observed(subject):
            result = t.ANY
        else:
            raise CypherSyntaxError(f"type mismatch: expected a map, node or relationship but was {subject.type!r}",
                                    node.span, detail="InvalidArgumentType")
        return b.BProperty(subject, node.key, type=result, span=node.span)

    def _bind_subscript(self, node: ast.Subscript, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        subject = self.bind_expression(node.subject, scope, context)
        index = self.bind_expression(node.index, scope, context)
        result = (subject.type.element or t.ANY) if subject.type.kind is Kind.LIST else t.ANY
        return b.BIndex(subject, index, type=result, span=node.span)

    def _bind_slice(self, node: ast.Slice, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        subject = self.bind_expression(node.subject, scope, context)
        start = self.bind_expression(node.start, scope, context) if node.start else None
        end = self.bind_expression(node.end, scope, context) if node.end else None
        result = subject.type if subject.type.kind is Kind.LIST else t.ANY_LIST
        return b.BSlice(subject, start, end, type=result, span=node.span)

    def _bind_binary(self, node: ast.BinaryOp, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        left = self.bind_expression(node.left, scope, context)
        right = self.bind_expression(node.right, scope, context)
        if node.op in ("AND", "OR", "XOR"):
            for operand in (left, right):
                _check_kinds(operand, {Kind.BOOLEAN}, node.op)
        elif node.op in ARITHMETIC_OPERAND_KINDS and not (
                node.op == "+" and any(_may_be_list(operand) for operand in (left, right))):
            for operand in (left, right):
                _check_kinds(operand, ARITHMETIC_OPERAND_KINDS[node.op], node.op)
        elif node.op == "IN":
            _check_kinds(right, {Kind.LIST}, "IN")
        elif node.op == "||":
            for operand in (left, right):
                _check_kinds(operand, {Kind.STRING, Kind.LIST}, "||")
            mixed = {left.type.kind, right.type.kind} == {Kind.STRING, Kind.LIST}
            if mixed and not (_observed(left) or _observed(right)):
                raise CypherSyntaxError(f"type mismatch: || cannot join {left.type!r} and {right.type!r}",
                                        node.span, detail="InvalidArgumentType")
        return b.BOperator(node.op, (left, right), type=_operator_type(node.op, left.type, right.type),
                           span=node.span)

    def _bind_unary(self, node: ast.UnaryOp, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        operand = self.bind_expression(node.operand, scope, context)
        if node.op == "NOT":
            _check_kinds(operand, {Kind.BOOLEAN}, "NOT")
            return b.BOperator("NOT", (operand,), type=t.BOOLEAN, span=node.span)
        if node.op == "+":
            return operand
        result = operand.type if operand.type.kind in (Kind.INTEGER, Kind.FLOAT) else t.ANY
        return b.BOperator("NEG", (operand,), type=result, span=node.span)

    def _bind_is_null(self, node: ast.IsNull, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        operand = self.bind_expression(node.operand, scope, context)
        return b.BIsNull(operand, node.negated, type=t.BOOLEAN, span=node.span)

    def _bind_has_labels(self, node: ast.HasLabels, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        subject = self.bind_expression(node.subject, scope, context)
        return b.BHasLabels(subject, node.labels, type=t.BOOLEAN, span=node.span)

    def _bind_function(self, node: ast.FunctionCall, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        name = node.name.lower()
        if name in AGGREGATES:
            return self._bind_aggregate(node, name, scope, context)
        signature = SIGNATURES.get(name)
        if signature is None:
            raise CypherSyntaxError(f"unknown function '{node.name}'", node.span, detail="UnknownFunction")
        if node.distinct:
            raise CypherSyntaxError(f"DISTINCT is only allowed in aggregating functions, not {node.name}",
                                    node.span, detail="InvalidArgumentPassingMode")
        count = len(node.arguments)
        if count < signature.min_args or (signature.max_args is not None and count > signature.max_args):
            raise CypherSyntaxError(f"wrong number of arguments for {node.name}()", node.span,
                                    detail="InvalidNumberOfArguments")
        if name == "normalize" and count == 2:  # the normal form is a keyword, not an expression
            form = node.arguments[1]
            if not (isinstance(form, ast.Variable) and form.name.upper() in ("NFC", "NFD", "NFKC", "NFKD")):
                raise CypherSyntaxError("normalize() expects a normal form, NFC, NFD, NFKC or NFKD, as its second "
                                        "argument", form.span, detail="InvalidArgumentType")
            node = replace(node, arguments=(node.arguments[0], ast.Literal(form.name.upper(), span=form.span)))
        arguments = tuple(self.bind_expression(argument, scope, context) for argument in node.arguments)
        for argument, allowed in zip(arguments, signature.accepts, strict=False):
            if allowed is not None:
                _check_kinds(argument, allowed, f"{node.name}()")
        return b.BFunction(name, arguments, type=signature.returns([a.type for a in arguments]), span=node.span)

    def _bind_aggregate(self, node: ast.FunctionCall, name: str, scope: Scope,
                        context: ExpressionContext) -> b.BoundExpression:
        if not context.aggregates:
            raise CypherSyntaxError(f"invalid use of aggregating function {node.name}(...) in this context",
                                    node.span, detail="InvalidAggregation")
        if context.in_aggregate:
            raise CypherSyntaxError("can't use aggregate functions inside of aggregate functions", node.span,
                                    detail="NestedAggregation")
        arity, rule = AGGREGATES[name]
        if len(node.arguments) != arity:
            raise CypherSyntaxError(f"wrong number of arguments for {node.name}()", node.span,
                                    detail="InvalidNumberOfArguments")
        inner = ExpressionContext(aggregates=True, in_aggregate=True)
        arguments = [self.bind_expression(argument, scope, inner) for argument in node.arguments]
        for argument, allowed in zip(arguments, ARGUMENT_KINDS.get(name, ()), strict=False):
            if allowed is not None:
                _check_kinds(argument, allowed, f"{node.name}()")
        if name in ("percentilecont", "percentiledisc") and isinstance(arguments[1], b.BLiteral | b.BParameter):
            percentile = arguments[1].value
            if isinstance(percentile, int | float) and not isinstance(percentile, bool) and not 0 <= percentile <= 1:
                raise CypherArgumentError(f"{node.name}() needs a percentile between 0.0 and 1.0, got {percentile}",
                                          node.span, detail="NumberOutOfRange")
        if any(_calls(argument, "rand") for argument in arguments):
            raise CypherSyntaxError(f"{node.name}() over rand() would aggregate values that change on every "
                                    "evaluation", node.span, detail="NonConstantExpression")
        return b.BAggregate(name, arguments[0], node.distinct, tuple(arguments[1:]),
                            type=rule([a.type for a in arguments]), span=node.span)

    def _bind_count_star(self, node: ast.CountStar, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        if not context.aggregates:
            raise CypherSyntaxError("invalid use of count(*) in this context", node.span,
                                    detail="InvalidAggregation")
        if context.in_aggregate:
            raise CypherSyntaxError("can't use aggregate functions inside of aggregate functions", node.span,
                                    detail="NestedAggregation")
        return b.BAggregate("count", None, False, type=t.INTEGER, span=node.span)

    def _bind_case(self, node: ast.Case, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        subject = self.bind_expression(node.subject, scope, context) if node.subject is not None else None
        alternatives = []
        for condition, value in node.alternatives:
            bound_condition = self.bind_expression(condition, scope, context)
            if subject is not None:
                bound_condition = b.BOperator("=", (subject, bound_condition), type=t.BOOLEAN,
                                              span=condition.span)
            alternatives.append((bound_condition, self.bind_expression(value, scope, context)))
        default = self.bind_expression(node.default, scope, context) if node.default is not None else None
        result = t.unify_all([value.type for _, value in alternatives] + ([default.type] if default else []))
        return b.BCase(tuple(alternatives), default, type=result, span=node.span)

    def _bind_list(self, node: ast.ListLiteral, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        items = tuple(self.bind_expression(item, scope, context) for item in node.items)
        element = t.unify_all([item.type for item in items])
        return b.BList(items, type=t.list_of(element if element.kind is not Kind.NULL else t.ANY),
                       span=node.span)

    def _bind_map(self, node: ast.MapLiteral, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        entries = []
        for key, value in node.entries:
            if key.startswith("\x01"):
                raise UnsupportedFeature("map keys starting with U+0001", node.span)
            entries.append((key, self.bind_expression(value, scope, context)))
        return b.BMap(tuple(entries), type=t.record([(k, v.type) for k, v in entries]), span=node.span)

    def _bind_list_comprehension(self, node: ast.ListComprehension, scope: Scope,
                                 context: ExpressionContext) -> b.BoundExpression:
        source = self.bind_expression(node.source, scope, context)
        variable, inner = self._iteration_scope(node.variable, source, scope)
        where = self.bind_expression(node.where, inner) if node.where else None
        projection = self.bind_expression(node.projection, inner) if node.projection else None
        element = projection.type if projection is not None else variable.type
        return b.BListComprehension(variable, source, where, projection, type=t.list_of(element), span=node.span)

    def _iteration_scope(self, name: ast.Variable, source: b.BoundExpression,
                         scope: Scope) -> tuple[Variable, Scope]:
        element = source.type.element if source.type.kind is Kind.LIST else t.ANY
        variable = self.new_variable(name.name, element or t.ANY)
        inner = scope.copy()
        inner.add(variable)
        return variable, inner

    def _bind_quantifier(self, node: ast.QuantifierExpression, scope: Scope,
                         context: ExpressionContext) -> b.BoundExpression:
        source = self.bind_expression(node.source, scope, context)
        variable, inner = self._iteration_scope(node.variable, source, scope)
        if node.where is None:
            raise CypherSyntaxError(f"{node.kind}(...) requires a WHERE predicate", node.span,
                                    detail="InvalidArgumentType")
        where = self.bind_expression(node.where, inner, context)
        return b.BQuantifier(node.kind, variable, source, where, type=t.BOOLEAN, span=node.span)

    def _bind_reduce(self, node: ast.Reduce, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        initial = self.bind_expression(node.initial, scope, context)
        source = self.bind_expression(node.source, scope, context)
        variable, inner = self._iteration_scope(node.variable, source, scope)
        accumulator = self.new_variable(node.accumulator.name, t.ANY)
        inner.add(accumulator)
        # As in a list comprehension, the step runs once per element: no aggregates (InvalidAggregation).
        expression = self.bind_expression(node.expression, inner)
        return b.BReduce(accumulator, initial, variable, source, expression, type=t.ANY, span=node.span)

    def _bind_subquery(self, node: ast.ExistsSubquery | ast.CountSubquery | ast.CollectSubquery, scope: Scope,
                       context: ExpressionContext) -> b.BoundExpression:
        kind = {ast.ExistsSubquery: "exists", ast.CountSubquery: "count", ast.CollectSubquery: "collect"}[type(node)]
        query = node.query
        if query is None:
            assert not isinstance(node, ast.CollectSubquery)
            match = ast.Match(False, node.pattern, node.where, span=node.span)
            query = ast.Query((ast.SingleQuery((match,), span=node.span),), (), span=node.span)
        self._references.append(set())
        self._enclosing_calls.append(False)
        updating, self.updating = self.updating, False
        # The whole outer scope stays visible in every clause of the subquery (ADR-0016).
        bound_query = self.bind_query(query, Scope({}, scope.visible()), subquery=kind)
        writes, self.updating = self.updating, updating
        self._enclosing_calls.pop()
        referenced = self._references.pop()
        if self._references:
            self._references[-1].update(referenced)
        imports = tuple(v for v in scope if id(v) in referenced)
        if writes:
            article = "An" if kind == "exists" else "A"
            raise CypherSyntaxError(f"{article} {kind.title()} Expression cannot contain any updates", node.span,
                                    detail="InvalidClauseComposition")
        if kind == "collect":
            # Neo4j rejects `RETURN *` here whatever it expands to (`returnVariables.includeExisting`).
            star = any(isinstance(part.clauses[-1], ast.Return) and part.clauses[-1].projection.star
                       for part in query.parts)
            if star or len(bound_query.columns) != 1:
                raise CypherSyntaxError("A Collect Expression must end with a single return column.", node.span,
                                        detail="InvalidNumberOfColumns")
            result = t.list_of(bound_query.output[0].type)
        else:
            result = t.BOOLEAN if kind == "exists" else t.INTEGER
        return b.BSubquery(kind, bound_query, imports, type=result, span=node.span)

    def _bind_pattern_expression(self, node: ast.PatternExpression, scope: Scope,
                                 context: ExpressionContext) -> b.BoundExpression:
        for element in node.pattern.elements:
            variable = getattr(element, "variable", None)
            if variable is not None and variable.name not in scope:
                raise CypherSyntaxError(f"PatternExpressions are not allowed to introduce new variables: "
                                        f"'{variable.name}'", variable.span, detail="UndefinedVariable")
        part = ast.PatternPart(None, node.pattern, None, None, span=node.span)
        exists = ast.ExistsSubquery(None, ast.Pattern((part,), span=node.span), None, span=node.span)
        return self._bind_subquery(exists, scope, context)

    def _bind_map_projection(self, node: ast.MapProjection, scope: Scope,
                             context: ExpressionContext) -> b.BoundExpression:
        subject = self._bind_variable(node.variable, scope, context)
        # Neo4j checks the projected variable as a map (nodes and relationships included) at compile time.
        if not (subject.type.is_record or _observed(subject)
                or subject.type.kind in (Kind.MAP, Kind.NODE, Kind.RELATIONSHIP, Kind.ANY, Kind.NULL)):
            raise CypherSyntaxError(f"type mismatch: expected a map, node or relationship but was {subject.type!r}",
                                    node.variable.span, detail="InvalidArgumentType")
        entries: list[tuple[str, b.BoundExpression]] = []
        base: b.BoundExpression | None = None
        for item in node.items:
            if isinstance(item, ast.PropertySelector):
                value = self._bind_property(ast.PropertyLookup(node.variable, item.key, span=item.span), scope,
                                            context)
                entries.append((item.key, value))
            elif isinstance(item, ast.LiteralEntry):
                entries.append((item.key, self.bind_expression(item.expression, scope, context)))
            elif isinstance(item, ast.VariableSelector):
                entries.append((item.variable.name, self._bind_variable(item.variable, scope, context)))
            else:
                base = b.BEntityProperties(subject, type=t.MAP, span=item.span)
        literal = b.BMap(tuple(entries), type=t.record([(k, v.type) for k, v in entries]), span=node.span)
        projection: b.BoundExpression = literal if base is None else \
            b.BFunction("map_merge", (base, literal), type=t.MAP, span=node.span)
        # "If mapVariable is null, the projection evaluates to null" (Cypher manual, Map expressions).
        is_null = b.BIsNull(subject, False, type=t.BOOLEAN, span=node.span)
        return b.BCase(((is_null, b.BLiteral(None, type=t.NULL, span=node.span)),), projection,
                       type=projection.type, span=node.span)

    def _bind_is_type(self, node: ast.IsType, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        parse_type(node.type_name, node.span)  # an unknown type or mixed nullability fails at compile time
        operand = self.bind_expression(node.operand, scope, context)
        return b.BIsType(operand, node.type_name, node.negated, type=t.BOOLEAN, span=node.span)

    def _bind_pattern_comprehension(self, node: ast.PatternComprehension, scope: Scope,
                                    context: ExpressionContext) -> b.BoundExpression:
        part = ast.PatternPart(node.variable, node.pattern, None, None, span=node.span)
        match = ast.Match(False, ast.Pattern((part,), span=node.span), node.where, span=node.span)
        item = ast.ProjectionItem(node.projection, "value", "value", span=node.span)
        ret = ast.Return(ast.Projection((item,), False, False, (), None, None, span=node.span), span=node.span)
        query = ast.Query((ast.SingleQuery((match, ret), span=node.span),), (), span=node.span)
        return self._bind_subquery(ast.CollectSubquery(query, span=node.span), scope, context)

    # -- helpers -----------------------------------------------------------------------------------

    def _record_map_write(self, entities: tuple[str, ...], value: b.BoundExpression) -> None:
        """Note the property writes a map makes: one per key when the keys are known, else any key."""
        if isinstance(value, b.BMap):
            self.writes.extend((entities, key, entry.type) for key, entry in value.entries)
        elif value.type.is_record:
            self.writes.extend((entities, key, field_type) for key, field_type in value.type.fields or ())
        elif not b.never_a_map(value):
            self.writes.append((entities, None, t.ANY))

    def new_variable(self, name: str, cypher_type: CypherType, *, anonymous: bool = False) -> Variable:
        return Variable(name, cypher_type, self.namer.next(), anonymous)

    def _reference(self, variable: Variable) -> None:
        for references in self._references:
            references.add(id(variable))


def _check_call_return_aliases(query: ast.Query) -> None:
    """A CALL subquery's RETURN must name what it returns: `RETURN a`, `RETURN a.x AS y`, not `RETURN a.x`."""
    for part in query.parts:
        last = part.clauses[-1] if part.clauses else None
        if isinstance(last, ast.Return):
            for item in last.projection.items:
                if item.alias is None and not isinstance(item.expression, ast.Variable):
                    raise CypherSyntaxError("Expression in CALL { RETURN ... } must be aliased (use AS)", item.span,
                                            detail="NoExpressionAlias")


def _return_item_span(query: ast.Query, name: str) -> Span | None:
    for part in query.parts:
        last = part.clauses[-1] if part.clauses else None
        if isinstance(last, ast.Return):
            for item in last.projection.items:
                if (item.alias or item.text) == name:
                    return item.span
    return None


def _ast_variable_names(node: ast.SyntaxNode) -> set[str]:
    return {current.name for current in ast.walk(node) if isinstance(current, ast.Variable)}


SHADOWING = ("The variable `{name}` is shadowing a variable with the same name from the outer scope and needs to be "
             "renamed")


def _declaration_span(node: ast.SyntaxNode, name: str) -> Span:
    """Where `node` (a clause) names `name`: the projection item aliased to it, else the first variable of
    that name in it, else the clause."""
    for current in ast.walk(node):
        if isinstance(current, ast.ProjectionItem) and (current.alias or current.text) == name:
            return current.span
        if isinstance(current, ast.Variable) and current.name == name:
            return current.span
    return node.span


UNBOUNDED_REPEATABLE = ("The quantified path pattern may yield an infinite number of rows under match mode "
                        "'REPEATABLE ELEMENTS'. Add an upper bound to the quantified path pattern.")
SELECTIVE = frozenset({"any", "any_shortest", "all_shortest", "shortest_k", "shortest_groups"})


def _quantified_relationship_group(relationship: ast.RelationshipPattern) -> ast.QuantifiedPath:
    """`-[r:T WHERE p]->{m,n}` is the quantified path pattern `(()-[r:T WHERE p]->()){m,n}`."""
    span = relationship.span
    inner = replace(relationship, quantifier=None)
    pattern = ast.PathPattern((ast.NodePattern(None, None, None, None, span=span), inner,
                               ast.NodePattern(None, None, None, None, span=span)), span=span)
    return ast.QuantifiedPath(pattern, None, relationship.quantifier, span=span)


def _check_not_empty(part: ast.PatternPart) -> None:
    """A path pattern must always match at least one node: one made only of quantified path patterns that may
    all repeat zero times, such as `((n)-[r]->(m)){0,10}`, is an error (Cypher manual, Path patterns, Rules)."""
    elements = part.element.elements
    if len(elements) == 1 and isinstance(elements[0], ast.QuantifiedPath) and elements[0].quantifier is None:
        elements = elements[0].pattern.elements
    if any(not isinstance(element, ast.QuantifiedPath) or element.quantifier is None for element in elements):
        return
    if all((element.quantifier.min or 0) == 0 for element in elements):
        raise CypherSyntaxError("a path pattern must match at least one node: with every quantified path pattern "
                                "repeated zero times this one would be empty", part.span,
                                detail="InvalidQuantifiedPath")


def _check_quantifier_mixing(clause: ast.Match) -> None:
    """Variable-length relationships (`-[*]-`) and quantified path patterns or relationships cannot be mixed in
    one graph pattern (Neo4j raises the same error)."""
    legacy = quantified = None
    for part in clause.pattern.parts:
        elements = list(part.element.elements)
        while elements:
            element = elements.pop()
            if isinstance(element, ast.QuantifiedPath):
                if element.quantifier is None:
                    elements.extend(element.pattern.elements)
                else:
                    quantified = quantified or element
            elif isinstance(element, ast.RelationshipPattern):
                if element.quantifier is not None:
                    quantified = quantified or element
                elif element.length is not None:
                    legacy = legacy or element
    if legacy is not None and quantified is not None:
        raise CypherSyntaxError("Mixing variable-length relationships ('-[*]-') with quantified relationships "
                                "('()-->*()') or quantified path patterns ('(()-->())*') is not allowed",
                                legacy.span, detail="InvalidVariableLengthRelationship")


def _check_match_modes(clause: ast.Match) -> None:
    """Graph-pattern rules of selectors and path modes (Cypher manual, Match modes and path modes)."""
    parts = clause.pattern.parts
    selective = [part for part in parts if part.selector is not None and part.selector.kind in SELECTIVE]
    legacy = [part for part in parts if part.function is not None]
    if legacy and len(parts) > 1 and not selective and (
            len(legacy) > 1 or clause.optional or clause.mode == "repeatable_elements" or any(
                len(part.element.elements) != 1 or not isinstance(part.element.elements[0], ast.NodePattern)
                for part in parts if part.function is None)):
        # `MATCH (a {..}), (b {..}), p = shortestPath((a)-[*]-(b))` (the functions are not selective path
        # selectors) runs as the node patterns, then the shortest path per row: other mixes are not run
        raise UnsupportedFeature(f"{legacy[0].function}() with path patterns other than single nodes in one "
                                 "MATCH", legacy[0].span)
    if selective and len(parts) > 1 and clause.mode != "repeatable_elements":
        raise CypherSyntaxError("Multiple path patterns cannot be used in the same clause in combination with a "
                                "selective path selector: use one MATCH clause per path pattern, or the "
                                "REPEATABLE ELEMENTS match mode", selective[0].span, detail="SelectivePathPattern")
    if selective and len(parts) > 1:
        raise UnsupportedFeature("several path patterns with a selective path selector in one MATCH",
                                 selective[0].span)
    modes = {part.selector.mode for part in parts if part.selector is not None and part.selector.mode}
    if len(modes) > 1:
        first, second = sorted(mode.upper() for mode in modes)[:2]
        raise CypherSyntaxError(f"Mixing {first} and {second} in the same graph pattern is not supported. Split the "
                                "pattern into separate MATCH clauses instead.", clause.pattern.span,
                                detail="MixedPathModes")


def _calls(expression: b.BoundExpression, function: str) -> bool:
    if isinstance(expression, b.BFunction) and expression.name == function:
        return True
    return any(_calls(child, function) for child in _children(expression))


def _union_output(parts: list[b.BoundSingleQuery]) -> list[Variable]:
    """The result columns of a query: a single part's own, or the first part's names and columns typed to hold
    every part's values (types.unify: different kinds meet in ANY, so each value keeps its own type)."""
    first = parts[0].output
    if len(parts) == 1:
        return list(first)
    output = []
    for index, variable in enumerate(first):
        unified = t.unify_all([part.output[index].type for part in parts])
        observed = any(part.output[index].observed for part in parts)
        output.append(variable if unified == variable.type and observed == variable.observed else
                      Variable(variable.name, unified, variable.column, observed=observed))
    return output


def _unwound_type(source: CypherType) -> CypherType:
    """The type of the elements UNWIND (or FOREACH) takes from a value of type `source`: a list's elements, a
    value that is not a list itself (one element; null none)."""
    if source.kind is Kind.LIST:
        return source.element or t.ANY
    return t.ANY if source.kind in (Kind.NULL, Kind.ANY) else source


def _may_be_list(expression: b.BoundExpression) -> bool:
    """Whether the value may be a list as far as the query text says: then `+` appends or prepends the other
    operand, whatever its type (`x + false` is `[..., false]` when x is a list)."""
    return expression.type.kind in (Kind.LIST, Kind.ANY, Kind.NULL) or _observed(expression)


def _check_kinds(expression: b.BoundExpression, allowed: frozenset[Kind] | set[Kind], what: str) -> None:
    """Refuse at compile time an argument whose kind the query text fixes and `allowed` excludes."""
    kind = expression.type.kind
    if kind in allowed or kind in (Kind.ANY, Kind.NULL) or _observed(expression):
        return
    names = " or ".join(sorted(k.value.title() for k in allowed))
    raise CypherSyntaxError(f"type mismatch: {what} expected {names} but was {expression.type!r}", expression.span,
                            detail="InvalidArgumentType")


def _entities_of(cypher_type: CypherType) -> tuple[str, ...]:
    if cypher_type.kind is Kind.NODE:
        return ("node",)
    if cypher_type.kind is Kind.RELATIONSHIP:
        return ("relationship",)
    return ("node", "relationship")


def _operator_type(op: str, left: CypherType, right: CypherType) -> CypherType:
    if op in ("AND", "OR", "XOR", "=", "<>", "<", ">", "<=", ">=", "STARTS WITH", "ENDS WITH", "CONTAINS", "IN",
              "=~"):
        return t.BOOLEAN
    kinds = (left.kind, right.kind)
    if Kind.NULL in kinds and op in ("+", "-", "*", "/", "%", "^", "||"):
        return t.NULL
    if op == "||":
        if kinds == (Kind.STRING, Kind.STRING):
            return t.STRING
        if kinds == (Kind.LIST, Kind.LIST):
            return t.list_of(t.unify(left.element or t.ANY, right.element or t.ANY))
        return t.ANY
    if op in ("+", "-", "*", "/", "%"):
        if TEMPORAL_KINDS & set(kinds) and Kind.LIST not in kinds:  # a value + a list is a list
            return _temporal_operator_type(op, left, right)
        if kinds == (Kind.INTEGER, Kind.INTEGER):
            return t.INTEGER
        if set(kinds) <= {Kind.INTEGER, Kind.FLOAT}:
            return t.FLOAT
        if op == "+" and kinds == (Kind.STRING, Kind.STRING):
            return t.STRING
        if op == "+" and left.kind is Kind.LIST and right.kind is Kind.LIST:
            return t.list_of(t.unify(left.element or t.ANY, right.element or t.ANY))
        return t.ANY
    if op == "^":
        return t.FLOAT if set(kinds) <= {Kind.INTEGER, Kind.FLOAT} else t.ANY
    return t.ANY


def _temporal_operator_type(op: str, left: CypherType, right: CypherType) -> CypherType:
    """Instant ± duration is the instant's type, duration ± duration and duration ×/÷ number a duration
    (ADR-0014); with an operand of unknown type, ANY (it may be a list to append to)."""
    lk, rk = left.kind, right.kind
    if op in ("+", "-") and rk is Kind.DURATION and lk in TEMPORAL_KINDS:
        return left
    if op == "+" and lk is Kind.DURATION and rk in TEMPORAL_KINDS:
        return right
    if op in ("*", "/") and lk is Kind.DURATION and rk in NUMBER_KINDS:
        return t.DURATION
    if op == "*" and rk is Kind.DURATION and lk in NUMBER_KINDS:
        return t.DURATION
    return t.ANY


def _temporal_component_type(subject: b.BoundExpression, node: ast.PropertyLookup) -> CypherType:
    """`d.year`, `dt.timezone`, `dur.seconds`: INTEGER or STRING; a component the type lacks is an error, at
    compile time where the query text fixes the type, else (ANY) on the rows that bring a value."""
    component = temporal.component_kind(subject.type.kind.value, node.key)
    if component is None:
        if _observed(subject):
            return t.ANY
        raise CypherSyntaxError(f"type mismatch: {subject.type!r} has no component `{node.key}`", node.span,
                                detail="InvalidArgumentType")
    return t.STRING if component == "STRING" else t.INTEGER


# -- tree queries ----------------------------------------------------------------------------------------

def _variables_outside_aggregates(expression: b.BoundExpression,
                                  local: frozenset[int] = frozenset()) -> list[tuple[Variable, Span]]:
    """Free variables read outside aggregates (iteration variables of comprehensions are not free)."""
    if isinstance(expression, b.BAggregate):
        return []
    if isinstance(expression, b.BVariable):
        return [] if id(expression.variable) in local else [(expression.variable, expression.span)]
    if isinstance(expression, b.BSubquery):
        return [(v, expression.span) for v in expression.imports if id(v) not in local]
    if isinstance(expression, b.BListComprehension | b.BQuantifier):
        local = local | {id(expression.variable)}
    elif isinstance(expression, b.BReduce):
        local = local | {id(expression.variable), id(expression.accumulator)}
    result: list[tuple[Variable, Span]] = []
    for child in _children(expression):
        result.extend(_variables_outside_aggregates(child, local))
    return result


def _ast_has_aggregate(expression: ast.SyntaxNode) -> bool:
    """Whether an expression calls an aggregating function outside any subquery."""
    if isinstance(expression, ast.CountStar):
        return True
    if isinstance(expression, ast.FunctionCall) and expression.name.lower() in AGGREGATES:
        return True
    if isinstance(expression, ast.ExistsSubquery | ast.CountSubquery | ast.CollectSubquery | ast.PatternComprehension):
        return False
    return any(_ast_has_aggregate(child) for child in ast.children(expression))


def _names_read(expression: b.BoundExpression) -> set[str]:
    if isinstance(expression, b.BVariable):
        return {expression.variable.name}
    names: set[str] = set()
    for child in _children(expression):
        names |= _names_read(child)
    return names


def _is_aggregate_call(expression: ast.Expression) -> bool:
    return isinstance(expression, ast.CountStar) or (
        isinstance(expression, ast.FunctionCall) and expression.name.lower() in AGGREGATES)


def _is_simple_key(expression: ast.Expression) -> bool:
    while isinstance(expression, ast.PropertyLookup):
        expression = expression.subject
    return isinstance(expression, ast.Variable)


def _replace_grouping_keys(expression: ast.Expression, names: dict[str, str]) -> ast.Expression:
    """Grouping-key sub-expressions outside aggregates -> hidden variables naming the keys."""
    if not names:
        return expression
    name = names.get(ast.dump(expression))
    if name is not None:
        return ast.Variable(name, span=expression.span)
    if isinstance(expression, ast.CountStar) or (
            isinstance(expression, ast.FunctionCall) and expression.name.lower() in AGGREGATES):
        return expression
    return ast.replace_expressions(expression, lambda child: _replace_grouping_keys(child, names))


def _substitute_group_variables(expression: b.BoundExpression, keys: dict[str, Variable],
                                names: dict[str, str]) -> b.BoundExpression:
    """Point the hidden key variables at the grouping items' own variables."""
    by_name = {names[dump]: variable for dump, variable in keys.items()}
    if isinstance(expression, b.BVariable) and expression.variable.name in by_name:
        target = by_name[expression.variable.name]
        return b.BVariable(target, type=target.type, span=expression.span)
    for field_name, value in vars(expression).items():
        if isinstance(value, b.BoundExpression) and not isinstance(value, b.BAggregate):
            setattr(expression, field_name, _substitute_group_variables(value, keys, names))
        elif isinstance(value, tuple) and value:
            if all(isinstance(v, b.BoundExpression) for v in value):
                setattr(expression, field_name, tuple(
                    v if isinstance(v, b.BAggregate) else _substitute_group_variables(v, keys, names)
                    for v in value))
            elif all(isinstance(v, tuple) for v in value):
                setattr(expression, field_name, tuple(
                    tuple(_substitute_group_variables(x, keys, names) if isinstance(x, b.BoundExpression)
                          and not isinstance(x, b.BAggregate) else x for x in pair) for pair in value))
    return expression


def _replace_projected(expression: ast.Expression, by_dump: dict[str, Variable]) -> ast.Expression:
    """Replace sub-expressions of an ORDER BY item that are projected items by the item's variable name."""
    if not by_dump:
        return expression
    matched = by_dump.get(ast.dump(expression))
    if matched is not None:
        return ast.Variable(matched.name, span=expression.span)
    return ast.replace_expressions(expression, lambda child: _replace_projected(child, by_dump))


ClauseBinder = Callable[[Binder, Any, Scope], tuple[b.BoundClause, Scope]]
CLAUSE_BINDERS: dict[type, ClauseBinder] = {
    ast.Match: Binder.bind_match,
    ast.Unwind: Binder.bind_unwind,
    ast.With: Binder.bind_with,
    ast.Return: Binder.bind_return,
    ast.Create: Binder.bind_create,
    ast.Merge: Binder.bind_merge,
    ast.SetClause: Binder.bind_set,
    ast.Remove: Binder.bind_remove,
    ast.Delete: Binder.bind_delete,
    ast.CallSubquery: Binder.bind_call_subquery,
    ast.CallProcedure: Binder.bind_call_procedure,
    ast.Foreach: Binder.bind_foreach,
    ast.Finish: Binder.bind_finish,
}

ExpressionBinder = Callable[[Binder, Any, Scope, ExpressionContext], b.BoundExpression]
EXPRESSION_BINDERS: dict[type, ExpressionBinder] = {
    ast.Literal: Binder._bind_literal,
    ast.Parameter: Binder._bind_parameter,
    ast.Variable: Binder._bind_variable,
    ast.PropertyLookup: Binder._bind_property,
    ast.Subscript: Binder._bind_subscript,
    ast.Slice: Binder._bind_slice,
    ast.BinaryOp: Binder._bind_binary,
    ast.UnaryOp: Binder._bind_unary,
    ast.IsNull: Binder._bind_is_null,
    ast.IsType: Binder._bind_is_type,
    ast.HasLabels: Binder._bind_has_labels,
    ast.FunctionCall: Binder._bind_function,
    ast.CountStar: Binder._bind_count_star,
    ast.Case: Binder._bind_case,
    ast.ListLiteral: Binder._bind_list,
    ast.MapLiteral: Binder._bind_map,
    ast.ListComprehension: Binder._bind_list_comprehension,
    ast.QuantifierExpression: Binder._bind_quantifier,
    ast.Reduce: Binder._bind_reduce,
    ast.ExistsSubquery: Binder._bind_subquery,
    ast.CountSubquery: Binder._bind_subquery,
    ast.CollectSubquery: Binder._bind_subquery,
    ast.PatternExpression: Binder._bind_pattern_expression,
    ast.PatternComprehension: Binder._bind_pattern_comprehension,
    ast.MapProjection: Binder._bind_map_projection,
}


SEARCH_PROCEDURES = {"node": ("db.index.fulltext.queryNodes", "node"),
                     "relationship": ("db.index.fulltext.queryRelationships", "relationship")}


def _expand_searches(clauses: tuple[ast.Clause, ...]) -> list[ast.Clause]:
    """`MATCH pattern SEARCH v IN (FULLTEXT INDEX i FOR q LIMIT k) SCORE AS s WHERE w` runs the index search,
    keeps its k best, and only then matches the pattern and filters by WHERE (Neo4j's order of operations):
    it is the full-text procedure call yielding `v` and `s`, then the MATCH with `v` bound."""
    expanded: list[ast.Clause] = []
    for clause in clauses:
        if not isinstance(clause, ast.Match) or clause.search is None:
            expanded.append(clause)
            continue
        search = clause.search
        span = search.span
        if clause.optional:
            raise UnsupportedFeature("SEARCH in an OPTIONAL MATCH", span)
        if search.where is not None:
            raise UnsupportedFeature("a WHERE inside the SEARCH source (filters go in the MATCH's WHERE)",
                                     search.where.span)
        entity = _search_entity(clause.pattern, search.variable.name, span)
        if search.kind in extensions.SEARCH_CALLS:  # vector: db.index.vector.queryNodes (engine/vector/search.py)
            expanded += [extensions.SEARCH_CALLS[search.kind](search, entity), replace(clause, search=None)]
            continue
        procedure, output = SEARCH_PROCEDURES[entity]
        options = ast.MapLiteral((("limit", search.limit),), span=search.limit.span)
        yields = [ast.YieldItem(output, search.variable, span=search.variable.span)]
        if search.score is not None:
            yields.append(ast.YieldItem("score", search.score, span=search.score.span))
        expanded.append(ast.CallProcedure(procedure, (ast.Literal(search.index, span=span), search.query, options),
                                          tuple(yields), False, None, span=span))
        expanded.append(replace(clause, search=None))
    return expanded


def _search_entity(pattern: ast.Pattern, name: str, span: Span) -> str:
    """Whether the SEARCH variable is the node of a one-node pattern or the relationship of a one-hop one
    (Neo4j's 42I72 / 42I70 restrictions)."""
    elements = pattern.parts[0].element.elements if len(pattern.parts) == 1 else ()
    part = pattern.parts[0]
    simple = part.selector is None and part.function is None and all(
        not isinstance(e, ast.QuantifiedPath) and not (isinstance(e, ast.RelationshipPattern) and (
            e.length is not None or e.quantifier is not None)) for e in elements)
    if not simple or len(elements) not in (1, 3):
        raise CypherSyntaxError("In order to have a search clause, a MATCH statement can only have a single node "
                                "or relationship pattern and no selectors.", span, detail="InvalidSearchPattern")
    named = [e for e in elements if e.variable is not None and e.variable.name == name]
    others = [e for e in elements if e.variable is not None and e.variable.name != name]
    if not named:
        raise CypherSyntaxError(f"the SEARCH variable `{name}` must be declared by the MATCH pattern", span,
                                detail="InvalidSearchPattern")
    if others:
        raise CypherSyntaxError("In order to have a search clause, a MATCH statement can only have one bound "
                                "variable.", span, detail="InvalidSearchPattern")
    return "node" if isinstance(named[0], ast.NodePattern) else "relationship"
