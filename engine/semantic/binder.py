"""AST -> bound tree: resolve variables, infer static types, check the clause and aggregation rules.

One `bind_<clause>` per clause, chosen through `CLAUSE_BINDERS`; patterns are bound by
bind_patterns.py, expressions by bind_expressions.py (`EXPRESSION_BINDERS`). Errors name the TCK's
detail codes where the TCK has one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from engine import types as t
from engine.errors import (
    CypherArgumentError,
    CypherSyntaxError,
    CypherTypeError,
    ProcedureError,
    UnsupportedFeature,
)
from engine.procedures import ProcedureRegistry, check_arguments
from engine.semantic import bound as b
from engine.semantic import extensions, parameter_reads
from engine.semantic.bind_expressions import (
    LOAD_CSV_CONTEXT,
    NO_AGGREGATES,
    NUMBER_KINDS,
    ExpressionBinding,
    ExpressionContext,
    check_kinds,
)
from engine.semantic.bind_patterns import PatternBinding
from engine.semantic.bound import children as _children
from engine.semantic.bound import observed as _observed
from engine.semantic.constants import constant_of
from engine.semantic.functions import AGGREGATES
from engine.semantic.known_names import NOT_YET_PROCEDURES, did_you_mean
from engine.semantic.parameter_fields import narrow_parameters
from engine.semantic.procedure_macros import PROCEDURE_MACROS
from engine.semantic.scope import ColumnNamer, Scope, Variable
from engine.semantic.unknown import UNKNOWN
from engine.span import Span
from engine.syntax import ast
from engine.syntax.script import ends_in_order_by
from engine.types import CypherType, Kind

UPDATING_CLAUSES = (ast.Create, ast.Merge, ast.SetClause, ast.Remove, ast.Delete, ast.Foreach)


PropertyTypes = Callable[[str, str], CypherType | None]


class Binder(PatternBinding, ExpressionBinding):
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
        self.virtual_sites = [0]
        self.record_parameters = False
        """Whether a parameter bound holds records, whose fields the statement may read only some of."""

    # -- statements --------------------------------------------------------------------------------

    def bind_statement(self, statement: ast.Statement) -> b.BoundQuery | b.BSchemaCommand:
        if isinstance(statement, ast.Query):
            stands_for = extensions.rewritten(statement, self.params)
            if stands_for is None:
                query = self.bind_query(statement, Scope(), top_level=True)
                if self.record_parameters:
                    narrow_parameters(query)
                return query
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
        ordered = ends_in_order_by(query)
        updating = self.updating or (top_level and self._transactional_writes)
        if len(parts) > 1 and not any(query.union_all):
            parts = [_distinct_return(part) for part in parts]
        return b.BoundQuery(parts, list(query.union_all), columns, updating, ordered, _union_output(parts))

    def bind_single_query(self, query: ast.SingleQuery, scope: Scope, *, top_level: bool,
                          subquery: str | None) -> b.BoundSingleQuery:
        clauses: list[b.BoundClause] = []
        self._check_clause_order(query, top_level=top_level, subquery=subquery)
        self._standalone = top_level and len(query.clauses) == 1
        output: list[Variable] = []
        columns: list[str] = []
        for clause in _expand_procedure_macros(_expand_searches(query.clauses), self._standalone, self.params):
            if isinstance(clause, ast.Finish):  # the query's end, with no result (Cypher 25)
                continue
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
            if isinstance(clause, ast.Return | ast.Finish) and index != len(clauses) - 1:
                name = "RETURN" if isinstance(clause, ast.Return) else "FINISH"
                raise CypherSyntaxError(f"{name} can only be used at the end of the query", clauses[index + 1].span,
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

    def bind_load_csv(self, clause: ast.LoadCsv, scope: Scope) -> tuple[b.BoundClause, Scope]:
        url = self.bind_expression(clause.url, scope)
        if not isinstance(url, b.BLiteral | b.BParameter):
            raise UnsupportedFeature("LOAD CSV from a url read off the row (a literal or a parameter names the file)",
                                     clause.url.span)
        if url.type.kind not in (Kind.STRING, Kind.ANY):
            raise CypherTypeError(f"LOAD CSV needs a url string, got {url.type!r}", clause.url.span,
                                  detail="InvalidArgumentType")
        if clause.variable.name in scope:
            raise CypherSyntaxError(f"variable `{clause.variable.name}` already declared", clause.variable.span,
                                    detail="VariableAlreadyBound")
        variable = self.new_variable(clause.variable.name, t.MAP if clause.headers else t.list_of(t.STRING))
        line_number = self.new_variable(LOAD_CSV_CONTEXT["linenumber"], t.INTEGER, anonymous=True)
        file = self.new_variable(LOAD_CSV_CONTEXT["file"], t.STRING, anonymous=True)
        new_scope = scope.copy()
        for added in (variable, line_number, file):
            new_scope.add(added)
        return b.BLoadCsv(url, variable, clause.headers, clause.terminator or ",", line_number, file,
                          span=clause.span), new_scope

    def bind_with(self, clause: ast.With, scope: Scope) -> tuple[b.BoundClause, Scope]:
        return self.bind_projection(clause.projection, scope, clause.where, is_return=False, span=clause.span)

    def bind_let(self, clause: ast.Let, scope: Scope) -> tuple[b.BoundClause, Scope]:
        """`LET x = e` is `WITH *, e AS x` (Cypher 25), refused where it would aggregate."""
        for item in clause.items:
            if _ast_has_aggregate(item.expression):
                raise CypherSyntaxError("LET cannot aggregate (use WITH)", item.expression.span,
                                        detail="InvalidAggregation")
        projection = ast.Projection(clause.items, True, False, (), None, None, span=clause.span)
        return self.bind_projection(projection, scope, None, is_return=False, span=clause.span)

    def bind_filter(self, clause: ast.Filter, scope: Scope) -> tuple[b.BoundClause, Scope]:
        """`FILTER condition` is `WITH * WHERE condition` (Cypher 25)."""
        projection = ast.Projection((), True, False, (), None, None, span=clause.span)
        return self.bind_projection(projection, scope, clause.condition, is_return=False, span=clause.span)

    def bind_page(self, clause: ast.Page, scope: Scope) -> tuple[b.BoundClause, Scope]:
        """ORDER BY / SKIP / OFFSET / LIMIT on their own are `WITH * ORDER BY ... SKIP ... LIMIT ...`."""
        return self.bind_projection(clause.projection, scope, None, is_return=False, span=clause.span)

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
                self._reference(variable)  # an outer variable `*` carries is one a subquery imports
                projected = self.new_variable(variable.name, variable.type)
                projected.observed = variable.observed
                projected.constant = None if is_return else variable.constant
                projected.unwound = None if is_return else variable.unwound
                items.append(b.BProjectionItem(b.BVariable(variable, type=variable.type, span=span), projected))
                columns.append(variable.name)
                sources.append(ast.Variable(variable.name, span=span))
        pending = []
        for item in projection.items:
            if item.alias is None and not is_return and not isinstance(item.expression, ast.Variable):
                raise CypherSyntaxError("expression in WITH must be aliased (use AS)", item.span,
                                        detail="NoExpressionAlias")
            name = item.column
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
                if isinstance(expression, b.BVariable) and not is_return:  # rows filtered, never new values
                    variable.unwound = expression.variable.unwound
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
            result.append(b.BSortItem(expression, sort_item.descending, sort_item.nulls_first))
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
            key = _constant_key(self.bind_expression(item.target.index, scope))
            value = self.bind_expression(item.value, scope)
            self.writes.append((_entities_of(target.type), key if isinstance(key, str) else None, value.type))
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
            names, dynamic = self._label_list(item.labels, scope)
            return b.BoundSetItem("labels", target, None, dynamic, names, item.span)
        raise UnsupportedFeature(f"{type(item).__name__} in SET", item.span)

    def _label_list(self, labels: tuple[str | ast.DynamicLabels, ...],
                    scope: Scope) -> tuple[tuple[str, ...], b.BoundExpression | None]:
        """The labels SET or REMOVE names: those the statement gives (a dynamic part `$(e)` of a literal or a
        parameter too, `static_labels`), and the expression of a dynamic part read off the row (a string or a
        list of strings per row; at most one)."""
        names: list[str] = []
        dynamic: b.BoundExpression | None = None
        for label in labels:
            if isinstance(label, str):
                names.append(label)
                continue
            if label.quantifier == "any":
                raise CypherSyntaxError("$any() can only stand in a pattern or a label test, not in SET or REMOVE",
                                        label.span, detail="InvalidLabelExpression")
            found = self.label_names_of(label, scope)
            if not isinstance(found, b.BoundExpression):
                names.extend(found)
            elif dynamic is not None:
                raise UnsupportedFeature("two dynamic label expressions read off the row in one SET or REMOVE "
                                         "item", label.span)
            else:
                dynamic = found
        return tuple(dict.fromkeys(names)), dynamic

    def bind_remove(self, clause: ast.Remove, scope: Scope) -> tuple[b.BoundClause, Scope]:
        self.updating = True
        items = []
        for item in clause.items:
            if isinstance(item, ast.RemoveLabels):
                target = self.bind_expression(item.variable, scope)
                names, dynamic = self._label_list(item.labels, scope)
                items.append(b.BoundSetItem("remove_labels", target, None, dynamic, names, item.span))
            elif isinstance(item.target, ast.PropertyLookup):
                target = self.bind_expression(item.target.subject, scope)
                items.append(b.BoundSetItem("remove_property", target, item.target.key, None, (), item.span))
            else:
                target = self.bind_expression(item.target.subject, scope)
                key = _constant_key(self.bind_expression(item.target.index, scope))
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
            # apoc.periodic.commit's repeated runs are a write procedure's, whatever its statement does
            self._transactional_writes = (self._transactional_writes or self.updating
                                          or clause.repeat_until is not None)
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
        if transactions is not None and clause.repeat_until is not None:
            transactions.repeat = next(v for v in returns if v.name == clause.repeat_until)
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
            if clause.name.lower() in NOT_YET_PROCEDURES:
                raise UnsupportedFeature(f"the procedure {clause.name} (Neo4j or APOC has it; the engine does not "
                                         "run it yet: docs/CYPHER25.md)", clause.span)
            hint = did_you_mean(clause.name, [*self.procedures.names(),
                                               *(macro.name for macro in PROCEDURE_MACROS.values())])
            raise ProcedureError(f"there is no procedure called `{clause.name}`{hint}", clause.span,
                                 detail="ProcedureNotFound")
        self.updating = self.updating or procedure.writes
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
        check_kinds(source, {Kind.LIST}, "FOREACH")
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


def _constant_key(key: b.BoundExpression) -> str | b.BoundExpression:
    """The property key of `n[key]` in SET or REMOVE when the statement gives it (a literal or a parameter: a
    statement sent again with another key compiles again, `parameter_reads`), as `n.key` is; else the
    expression. A key that is not a string is a type error, as in Neo4j."""
    if not isinstance(key, b.BLiteral | b.BParameter) or key.value is UNKNOWN:
        return key
    value = key.value
    if not isinstance(value, str):
        raise CypherTypeError(f"a property key must be a String, got {t.type_name(t.type_of_value(value))}", key.span,
                              detail="InvalidArgumentType")
    return value


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
                if item.column == name:
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
        if isinstance(current, ast.ProjectionItem) and current.column == name:
            return current.span
        if isinstance(current, ast.Variable) and current.name == name:
            return current.span
    return node.span

SELECTIVE = frozenset({"any", "any_shortest", "all_shortest", "shortest_k", "shortest_groups"})

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

def _distinct_return(part: b.BoundSingleQuery) -> b.BoundSingleQuery:
    """A part of a UNION without ALL whose RETURN drops its own duplicates first: the UNION keeps one row of
    each kind anyway, the first, which is each part's first of its kind, so the rows and their order are the
    same; a part returning many equal rows then hands the UNION few. Not where an ORDER BY, SKIP or LIMIT of
    the part reads its rows before they would be made distinct."""
    last = part.clauses[-1]
    if (not isinstance(last, b.BProjection) or not last.is_return or last.distinct or last.order_by
            or last.skip is not None or last.limit is not None):
        return part
    return replace(part, clauses=[*part.clauses[:-1], replace(last, distinct=True)])


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

def _entities_of(cypher_type: CypherType) -> tuple[str, ...]:
    if cypher_type.kind is Kind.NODE:
        return ("node",)
    if cypher_type.kind is Kind.RELATIONSHIP:
        return ("relationship",)
    return ("node", "relationship")

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
    ast.LoadCsv: Binder.bind_load_csv,
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
    ast.Let: Binder.bind_let,
    ast.Filter: Binder.bind_filter,
    ast.Page: Binder.bind_page,
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

def _expand_procedure_macros(clauses: list[ast.Clause], standalone: bool,
                             params: Mapping[str, Any]) -> list[ast.Clause]:
    """Each call of a procedure macro (`procedure_macros.PROCEDURE_MACROS`) as the clauses it stands for."""
    expanded: list[ast.Clause] = []
    for clause in clauses:
        macro = PROCEDURE_MACROS.get(clause.name.lower()) if isinstance(clause, ast.CallProcedure) else None
        if macro is None:
            expanded.append(clause)
            continue
        assert isinstance(clause, ast.CallProcedure)
        if not macro.outputs and (clause.yield_items is not None or clause.yield_star):
            raise CypherSyntaxError(f"procedure {macro.name} yields nothing: it cannot have YIELD", clause.span,
                                    detail="UndefinedVariable")
        if macro.leading and expanded:
            raise UnsupportedFeature(f"{macro.name} after other clauses (the engine runs it as a query of its "
                                     "own: call it first)", clause.span)
        expanded += macro.expand(macro.complete(clause), standalone, params)
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
