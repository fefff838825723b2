"""Binding expressions: one `_bind_<expression>` per expression kind (`EXPRESSION_BINDERS`), each giving
the bound expression its static type and checking what the text alone decides (operand kinds,
aggregates where they may stand, functions and their arguments)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from engine import temporal
from engine import types as t
from engine.errors import (
    CypherArgumentError,
    CypherSyntaxError,
    CypherTypeError,
    ParameterMissing,
    UnsupportedFeature,
)
from engine.semantic import bound as b
from engine.semantic import parameter_reads
from engine.semantic.bound import children as _children
from engine.semantic.bound import observed as _observed
from engine.semantic.function_macros import FUNCTION_MACROS
from engine.semantic.functions import (
    AGGREGATE_LEAST_ARGUMENTS,
    AGGREGATES,
    ARGUMENT_KINDS,
    KEYWORD_ARGUMENTS,
    SIGNATURES,
    VIRTUAL_MAKERS,
    KeywordArgument,
)
from engine.semantic.known_names import NOT_YET_FUNCTIONS, did_you_mean
from engine.semantic.parameter_fields import has_record
from engine.semantic.scope import Scope, Variable
from engine.semantic.type_predicates import parse_type
from engine.span import Span
from engine.syntax import ast
from engine.types import CypherType, Kind
from engine.values import POINT_COMPONENTS

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

@dataclass(frozen=True)
class ExpressionContext:
    """What an expression may contain where it stands."""

    aggregates: bool = False
    in_aggregate: bool = False


NO_AGGREGATES = ExpressionContext()


LOAD_CSV_CONTEXT = {"linenumber": "\x00linenumber", "file": "\x00file"}
"""The functions that read the row's LOAD CSV line, and the name of the hidden variable each reads (a name no
query can write)."""

class ExpressionBinding:
    """The expression part of the binder (`binder.Binder`)."""

    virtual_sites: list[int]
    """How many calls making virtual elements the statement holds so far (`b.VirtualSite`)."""
    record_parameters: bool
    """Whether a parameter bound holds records (`parameter_fields.narrow_parameters`)."""

    # -- expressions -------------------------------------------------------------------------------

    def bind_predicate(self, expression: ast.Expression, scope: Scope) -> b.BoundExpression:
        bound_expression = self.bind_expression(expression, scope)
        check_kinds(bound_expression, {Kind.BOOLEAN}, "a predicate")
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
        cypher_type = t.parameter_type(self.params, node.name)
        parameter_reads.bound(node.name, cypher_type)
        self.record_parameters = self.record_parameters or has_record(cypher_type)
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
        elif kind is Kind.POINT:
            result = _point_component_type(node.key)
        elif kind in (Kind.MAP, Kind.ANY, Kind.NULL) or _observed(subject):
            result = t.ANY
        else:
            raise CypherSyntaxError(f"type mismatch: expected a map, node or relationship but was {subject.type!r}",
                                    node.span, detail="InvalidArgumentType")
        return b.BProperty(subject, node.key, type=result, span=node.span)

    def _bind_subscript(self, node: ast.Subscript, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        subject = self.bind_expression(node.subject, scope, context)
        _refuse_vector_elements(subject)
        index = self.bind_expression(node.index, scope, context)
        result = (subject.type.element or t.ANY) if subject.type.kind is Kind.LIST else t.ANY
        return b.BIndex(subject, index, type=result, span=node.span)

    def _bind_slice(self, node: ast.Slice, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        subject = self.bind_expression(node.subject, scope, context)
        _refuse_vector_elements(subject)
        start = self.bind_expression(node.start, scope, context) if node.start else None
        end = self.bind_expression(node.end, scope, context) if node.end else None
        result = subject.type if subject.type.kind is Kind.LIST else t.ANY_LIST
        return b.BSlice(subject, start, end, type=result, span=node.span)

    def _bind_binary(self, node: ast.BinaryOp, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        left = self.bind_expression(node.left, scope, context)
        right = self.bind_expression(node.right, scope, context)
        if node.op in ("AND", "OR", "XOR"):
            for operand in (left, right):
                check_kinds(operand, {Kind.BOOLEAN}, node.op)
        elif node.op in ARITHMETIC_OPERAND_KINDS and not (
                node.op == "+" and any(_may_be_list(operand) for operand in (left, right))):
            for operand in (left, right):
                check_kinds(operand, ARITHMETIC_OPERAND_KINDS[node.op], node.op)
        elif node.op == "IN":
            check_kinds(right, {Kind.LIST}, "IN")
        elif node.op == "||":
            for operand in (left, right):
                check_kinds(operand, {Kind.STRING, Kind.LIST}, "||")
            mixed = {left.type.kind, right.type.kind} == {Kind.STRING, Kind.LIST}
            if mixed and not (_observed(left) or _observed(right)):
                raise CypherSyntaxError(f"type mismatch: || cannot join {left.type!r} and {right.type!r}",
                                        node.span, detail="InvalidArgumentType")
        return b.BOperator(node.op, (left, right), type=_operator_type(node.op, left.type, right.type),
                           span=node.span)

    def _bind_unary(self, node: ast.UnaryOp, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        operand = self.bind_expression(node.operand, scope, context)
        if node.op == "NOT":
            check_kinds(operand, {Kind.BOOLEAN}, "NOT")
            return b.BOperator("NOT", (operand,), type=t.BOOLEAN, span=node.span)
        if node.op == "+":
            return operand
        result = operand.type if operand.type.kind in (Kind.INTEGER, Kind.FLOAT) else t.ANY
        return b.BOperator("NEG", (operand,), type=result, span=node.span)

    def _bind_is_null(self, node: ast.IsNull, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        operand = self.bind_expression(node.operand, scope, context)
        return b.BIsNull(operand, node.negated, type=t.BOOLEAN, span=node.span)

    def _bind_is_normalized(self, node: ast.IsNormalized, scope: Scope,
                            context: ExpressionContext) -> b.BoundExpression:
        """`s IS [NOT] form NORMALIZED` is `normalize(s, form) = s`; a value the text types as anything but a
        string is null (the manual: "a non-STRING value returns null")."""
        operand = self.bind_expression(node.operand, scope, context)
        if operand.type.kind not in (Kind.STRING, Kind.ANY, Kind.NULL) and not _observed(operand):
            return b.BLiteral(None, type=t.NULL, span=node.span)
        form = ast.Variable(node.form, span=node.span)
        test: ast.Expression = ast.BinaryOp("=", ast.FunctionCall("normalize", (node.operand, form), False,
                                                                    span=node.span), node.operand, span=node.span)
        if node.negated:
            test = ast.UnaryOp("NOT", test, span=node.span)
        if operand.type.kind is not Kind.STRING:  # a string only on some rows: the others are null
            test = ast.Case(None, ((ast.IsType(node.operand, "STRING", False, span=node.span), test),), None,
                            span=node.span)
        return self.bind_expression(test, scope, context)

    def _bind_has_labels(self, node: ast.HasLabels, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        subject = self.bind_expression(node.subject, scope, context)
        return self.label_test(subject, node.labels, scope, node.span)

    def label_test(self, subject: b.BoundExpression, labels: ast.LabelExpression, scope: Scope,
                   span: Span) -> b.BoundExpression:
        """`subject:labels` as a predicate. A dynamic part read off the row is a test of its own
        (`BHasDynamicLabels`: each row names its labels), joined to the rest by AND, OR and NOT as the
        expression's `&`, `|` and `!` join them."""
        if not reads_row_labels(labels):
            return b.BHasLabels(subject, self.static_labels(labels, scope), type=t.BOOLEAN, span=span)
        if isinstance(labels, ast.DynamicLabels):
            names = self.label_names_of(labels, scope)
            assert isinstance(names, b.BoundExpression)
            return b.BHasDynamicLabels(subject, names, labels.quantifier, type=t.BOOLEAN, span=labels.span)
        if isinstance(labels, ast.LabelNot):
            return b.BOperator("NOT", (self.label_test(subject, labels.operand, scope, span),), type=t.BOOLEAN,
                               span=span)
        assert isinstance(labels, ast.LabelAnd | ast.LabelOr)
        operands = (self.label_test(subject, labels.left, scope, span),
                    self.label_test(subject, labels.right, scope, span))
        return b.BOperator("AND" if isinstance(labels, ast.LabelAnd) else "OR", operands, type=t.BOOLEAN, span=span)

    def static_labels(self, labels: ast.LabelExpression, scope: Scope) -> ast.LabelExpression:
        """`labels` with each dynamic part (`$(e)`, `$all(e)`, `$any(e)`) replaced by the labels its expression
        names, when the statement gives them (a literal or a parameter, as a string or a list of strings: a
        statement sent again with other labels compiles again, `parameter_reads`). A part read off the row
        (`reads_row_labels`) is the caller's to test (`label_test`) or to create (`row_labels`)."""
        if isinstance(labels, ast.DynamicLabels):
            names = self.label_names_of(labels, scope)
            assert not isinstance(names, b.BoundExpression), "a dynamic part read off the row"
            combine = ast.LabelAnd if labels.quantifier == "all" else ast.LabelOr
            expression: ast.LabelExpression = ast.LabelName(names[0], span=labels.span)
            for name in names[1:]:
                expression = combine(expression, ast.LabelName(name, span=labels.span), span=labels.span)
            return expression
        return ast.replace_labels(labels, lambda part: self.static_labels(part, scope))

    def row_labels(self, labels: ast.LabelExpression, scope: Scope,
                   span: Span) -> tuple[ast.LabelExpression | None, tuple[b.BoundExpression, ...]]:
        """The labels CREATE or MERGE gives an element: those the statement names (`:A:$('B')`), and the
        expressions of the dynamic parts read off the row (`$(row.type)`: each row's string or list of
        strings). Only `:`/`&` join what is created; `$any` names no label to create."""
        if not reads_row_labels(labels):
            return self.static_labels(labels, scope), ()
        if isinstance(labels, ast.DynamicLabels):
            if labels.quantifier == "any":
                raise CypherSyntaxError("$any() can only stand in a MATCH pattern or a label test, not where labels"
                                        " are created", labels.span, detail="InvalidLabelExpression")
            names = self.label_names_of(labels, scope)
            assert isinstance(names, b.BoundExpression)
            return None, (names,)
        if not isinstance(labels, ast.LabelAnd):
            raise CypherSyntaxError("label expressions with |, ! or % cannot be used to create nodes", span,
                                    detail="InvalidLabelExpression")
        left, left_dynamic = self.row_labels(labels.left, scope, span)
        right, right_dynamic = self.row_labels(labels.right, scope, span)
        both = ast.LabelAnd(left, right, span=labels.span) if left is not None and right is not None else None
        return both or left or right, left_dynamic + right_dynamic

    def label_names_of(self, labels: ast.DynamicLabels, scope: Scope) -> list[str] | b.BoundExpression:
        """The label names a dynamic label's expression gives (see `static_labels`), or the bound expression
        when they are read off the row."""
        bound = self.bind_expression(labels.expression, scope)
        items = bound.items if isinstance(bound, b.BList) else [bound]
        if not all(isinstance(item, b.BLiteral | b.BParameter) for item in items):
            if bound.type.kind not in (Kind.STRING, Kind.LIST, Kind.ANY) and not _observed(bound):
                raise CypherTypeError(f"a dynamic label must be a string or a list of strings, got {bound.type!r}",
                                      labels.span, detail="InvalidArgumentType")
            return bound
        values: list[Any] = []
        for item in items:
            value = item.value
            values.extend(value if isinstance(bound, b.BParameter | b.BLiteral) and isinstance(value, list)
                          else [value])
        if not values or not all(isinstance(value, str) for value in values):
            raise CypherTypeError("a dynamic label or type must be a string or a non-empty list of strings, got "
                                  f"{values!r}", labels.span, detail="InvalidArgumentType")
        return list(dict.fromkeys(values))

    def _bind_function(self, node: ast.FunctionCall, scope: Scope, context: ExpressionContext) -> b.BoundExpression:
        name = node.name.lower()
        if name in AGGREGATES:
            return self._bind_aggregate(node, name, scope, context)
        macro = FUNCTION_MACROS.get(name)
        if macro is not None:
            required = len(macro.parameters) if macro.required is None else macro.required
            if not required <= len(node.arguments) <= len(macro.parameters):
                expected = (str(required) if required == len(macro.parameters)
                            else f"{required} to {len(macro.parameters)}")
                raise CypherSyntaxError(f"{node.name}() takes {expected} argument(s), got {len(node.arguments)}",
                                        node.span, detail="InvalidNumberOfArguments")
            return self.bind_expression(macro.expand(node), scope, context)
        if name in LOAD_CSV_CONTEXT and not node.arguments:
            # linenumber() and file() read the row's LOAD CSV line; null where no LOAD CSV gives one (the manual)
            found = scope.lookup(LOAD_CSV_CONTEXT[name])
            if found is None:
                return b.BLiteral(None, type=t.NULL, span=node.span)
            self._reference(found)
            return b.BVariable(found, type=found.type, span=node.span)
        signature = SIGNATURES.get(name)
        if signature is None:
            if name in {known.lower() for known in NOT_YET_FUNCTIONS}:
                raise UnsupportedFeature(f"the function {node.name}() (Neo4j or APOC has it; the engine does not "
                                         "run it yet: docs/CYPHER25.md)", node.span)
            hint = did_you_mean(name, [*SIGNATURES, *FUNCTION_MACROS, *AGGREGATES])
            raise CypherSyntaxError(f"unknown function '{node.name}'{hint}", node.span, detail="UnknownFunction")
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
        keyword = KEYWORD_ARGUMENTS.get(name)
        if keyword is not None and count > keyword.position:
            node = replace(node, arguments=tuple(
                _keyword(argument, keyword, node.name) if index == keyword.position else argument
                for index, argument in enumerate(node.arguments)))
        arguments = tuple(self.bind_expression(argument, scope, context) for argument in node.arguments)
        for argument, allowed in zip(arguments, signature.accepts, strict=False):
            if allowed is not None:
                check_kinds(argument, allowed, f"{node.name}()")
        site = None
        if name in VIRTUAL_MAKERS:
            self.virtual_sites[0] += 1
            site = b.VirtualSite(self.virtual_sites[0], self.virtual_sites)
        return b.BFunction(name, arguments, site, type=signature.returns([a.type for a in arguments]),
                           span=node.span)

    def _bind_aggregate(self, node: ast.FunctionCall, name: str, scope: Scope,
                        context: ExpressionContext) -> b.BoundExpression:
        if not context.aggregates:
            raise CypherSyntaxError(f"invalid use of aggregating function {node.name}(...) in this context",
                                    node.span, detail="InvalidAggregation")
        if context.in_aggregate:
            raise CypherSyntaxError("can't use aggregate functions inside of aggregate functions", node.span,
                                    detail="NestedAggregation")
        arity, rule = AGGREGATES[name]
        if not AGGREGATE_LEAST_ARGUMENTS.get(name, arity) <= len(node.arguments) <= arity:
            raise CypherSyntaxError(f"wrong number of arguments for {node.name}()", node.span,
                                    detail="InvalidNumberOfArguments")
        inner = ExpressionContext(aggregates=True, in_aggregate=True)
        arguments = [self.bind_expression(argument, scope, inner) for argument in node.arguments]
        for argument, allowed in zip(arguments, ARGUMENT_KINDS.get(name, ()), strict=False):
            if allowed is not None:
                check_kinds(argument, allowed, f"{node.name}()")
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


def _calls(expression: b.BoundExpression, function: str) -> bool:
    if isinstance(expression, b.BFunction) and expression.name == function:
        return True
    return any(_calls(child, function) for child in _children(expression))

def _may_be_list(expression: b.BoundExpression) -> bool:
    """Whether the value may be a list as far as the query text says: then `+` appends or prepends the other
    operand, whatever its type (`x + false` is `[..., false]` when x is a list)."""
    return expression.type.kind in (Kind.LIST, Kind.ANY, Kind.NULL) or _observed(expression)


def _refuse_vector_elements(subject: b.BoundExpression) -> None:
    """`v[0]`, `v[0..2]` of a VECTOR the query text fixes: "it is not possible to access or slice individual
    elements" of a vector (Cypher manual, Values and types, Vectors); one known only at run time is a TypeError
    there."""
    if subject.type.kind is Kind.VECTOR:
        raise CypherSyntaxError("the coordinates of a VECTOR cannot be accessed or sliced (toFloatList() and "
                                "toIntegerList() give them as a list)", subject.span, detail="InvalidArgumentType")


def _keyword(argument: ast.Expression, keyword: KeywordArgument, function: str) -> ast.Expression:
    """A keyword argument as the string literal of its canonical name; anything but one of its words is a
    syntax error, a string naming one too (the keyword is not a value)."""
    word = argument.name.upper() if isinstance(argument, ast.Variable) else None
    if word not in keyword.names:
        choices = ", ".join(sorted(set(keyword.names.values())))
        raise CypherSyntaxError(f"{function}() expects {keyword.what} ({choices}) as argument {keyword.position + 1}",
                                argument.span, detail="InvalidArgumentType")
    return ast.Literal(keyword.names[word], span=argument.span)


def check_kinds(expression: b.BoundExpression, allowed: frozenset[Kind] | set[Kind], what: str) -> None:
    """Refuse at compile time an argument whose kind the query text fixes and `allowed` excludes."""
    kind = expression.type.kind
    if kind in allowed or kind in (Kind.ANY, Kind.NULL) or _observed(expression):
        return
    names = " or ".join(sorted(k.value.title() for k in allowed))
    raise CypherSyntaxError(f"type mismatch: {what} expected {names} but was {expression.type!r}", expression.span,
                            detail="InvalidArgumentType")

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


def _point_component_type(key: str) -> CypherType:
    """`p.x`, `p.crs`, `p.srid`: FLOAT, STRING or INTEGER (names matched ignoring case); a name points lack is
    an error on the rows that bring a point, as in Neo4j (ADR-0065), so its type is ANY."""
    name = POINT_COMPONENTS.get(key.lower())
    return CypherType(Kind(name)) if name is not None else t.ANY


ExpressionBinder = Callable[[ExpressionBinding, Any, Scope, ExpressionContext], b.BoundExpression]

EXPRESSION_BINDERS: dict[type, ExpressionBinder] = {
    ast.Literal: ExpressionBinding._bind_literal,
    ast.Parameter: ExpressionBinding._bind_parameter,
    ast.Variable: ExpressionBinding._bind_variable,
    ast.PropertyLookup: ExpressionBinding._bind_property,
    ast.Subscript: ExpressionBinding._bind_subscript,
    ast.Slice: ExpressionBinding._bind_slice,
    ast.BinaryOp: ExpressionBinding._bind_binary,
    ast.UnaryOp: ExpressionBinding._bind_unary,
    ast.IsNull: ExpressionBinding._bind_is_null,
    ast.IsType: ExpressionBinding._bind_is_type,
    ast.IsNormalized: ExpressionBinding._bind_is_normalized,
    ast.HasLabels: ExpressionBinding._bind_has_labels,
    ast.FunctionCall: ExpressionBinding._bind_function,
    ast.CountStar: ExpressionBinding._bind_count_star,
    ast.Case: ExpressionBinding._bind_case,
    ast.ListLiteral: ExpressionBinding._bind_list,
    ast.MapLiteral: ExpressionBinding._bind_map,
    ast.ListComprehension: ExpressionBinding._bind_list_comprehension,
    ast.QuantifierExpression: ExpressionBinding._bind_quantifier,
    ast.Reduce: ExpressionBinding._bind_reduce,
    ast.ExistsSubquery: ExpressionBinding._bind_subquery,
    ast.CountSubquery: ExpressionBinding._bind_subquery,
    ast.CollectSubquery: ExpressionBinding._bind_subquery,
    ast.PatternExpression: ExpressionBinding._bind_pattern_expression,
    ast.PatternComprehension: ExpressionBinding._bind_pattern_comprehension,
    ast.MapProjection: ExpressionBinding._bind_map_projection,
}


def reads_row_labels(labels: ast.LabelExpression) -> bool:
    """Whether a dynamic part of `labels` reads its names off the row: an expression other than a literal, a
    parameter or a list of those (`$(row.type)`), known only when the statement runs."""
    if isinstance(labels, ast.DynamicLabels):
        expression = labels.expression
        items = expression.items if isinstance(expression, ast.ListLiteral) else (expression,)
        return not all(isinstance(item, ast.Literal | ast.Parameter) for item in items)
    found = False

    def visit(part: ast.LabelExpression) -> ast.LabelExpression:
        nonlocal found
        found = found or reads_row_labels(part)
        return part

    ast.replace_labels(labels, visit)
    return found
