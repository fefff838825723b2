"""Binding patterns: node, relationship and quantified group patterns, path selectors and match modes, for
MATCH, CREATE, MERGE and the pattern expressions."""

from __future__ import annotations

from dataclasses import replace

from engine import types as t
from engine.errors import (
    CypherArgumentError,
    CypherSyntaxError,
    CypherTypeError,
    UnsupportedFeature,
)
from engine.semantic import bound as b
from engine.semantic.bind_expressions import NO_AGGREGATES, reads_row_labels
from engine.semantic.scope import Scope, Variable
from engine.syntax import ast
from engine.types import Kind

UNBOUNDED_REPEATABLE = ("The quantified path pattern may yield an infinite number of rows under match mode "
                        "'REPEATABLE ELEMENTS'. Add an upper bound to the quantified path pattern.")

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


class PatternBinding:
    """The pattern part of the binder (`binder.Binder`)."""

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
        if selector is None:
            for link in links:
                where = _and(where, self._each_relationship_matches(link))
        path_mode = "acyclic" if written_mode == "acyclic" else "walk" if repeatable else "trail"
        return b.BoundPath(nodes, links, path_variable, None, part.span, selector, path_mode, where)

    def _each_relationship_matches(self, link: b.BoundRelationship | b.BoundGroup) -> b.BoundExpression | None:
        """The entries of a variable-length relationship's property map that read variables (`-[:R*1..2
        {w: a.w}]->`), taken out of the map as `all(r IN rels WHERE r.w = a.w)`: the walk's step is compiled
        apart from the rows, so it cannot read their variables, and every relationship of the list having the
        value is what the map means (a zero-length match has none to check). None when there are none."""
        if not (isinstance(link, b.BoundRelationship) and link.length is not None
                and isinstance(link.properties, b.BMap)):
            return None
        reading = [(key, value) for key, value in link.properties.entries
                   if any(isinstance(node, b.BVariable) for node in b.walk(value))]
        if not reading:
            return None
        kept = tuple(entry for entry in link.properties.entries if entry not in reading)
        link.properties = b.BMap(kept, type=t.record([(key, value.type) for key, value in kept]),
                                 span=link.properties.span) if kept else None
        each = self.new_variable("", t.RELATIONSHIP, anonymous=True)
        condition = None
        for key, value in reading:
            read = b.BProperty(b.BVariable(each, type=t.RELATIONSHIP, span=value.span), key, type=t.ANY,
                               span=value.span)
            condition = _and(condition, b.BOperator("=", (read, value), type=t.BOOLEAN, span=value.span))
        assert condition is not None
        rels = b.BVariable(link.variable, type=link.variable.type, span=link.span)
        return b.BQuantifier("all", each, rels, condition, type=t.BOOLEAN, span=link.span)

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
        bound = self._bind_node_pattern(node, scope, mode)
        if node.labels is not None and reads_row_labels(node.labels):
            self._row_label_conditions(bound, node.labels, scope, mode)
        return bound

    def _row_label_conditions(self, element: b.BoundNode | b.BoundRelationship, labels: ast.LabelExpression,
                              scope: Scope, mode: str) -> None:
        """Labels (a type) read off the row: CREATE and MERGE give them to what they create (`dynamic`); MATCH
        and MERGE test them in the element's `where`, beside the labels the statement names."""
        subject = b.BVariable(element.variable, type=element.variable.type, span=element.span)
        if mode in ("create", "merge"):
            static, element.dynamic = self.row_labels(labels, scope, element.span)
            if isinstance(element, b.BoundNode):
                element.labels = static
            else:
                element.types = static
            if mode == "create":
                return
            tests: list[b.BoundExpression] = [b.BHasDynamicLabels(subject, names, "all", type=t.BOOLEAN,
                                                                  span=element.span) for names in element.dynamic]
        else:
            tests = [self.label_test(subject, labels, scope, element.span)]
        if element.where is not None:
            tests.insert(0, element.where)
        condition = tests[0]
        for test in tests[1:]:
            condition = b.BOperator("AND", (condition, test), type=t.BOOLEAN, span=element.span)
        element.where = condition

    def _bind_node_pattern(self, node: ast.NodePattern, scope: Scope, mode: str) -> b.BoundNode:
        if node.labels is not None:
            node = replace(node, labels=None if reads_row_labels(node.labels) else
                           self.static_labels(node.labels, scope))
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
        types = relationship.types
        if types is None or not reads_row_labels(types):
            return self._bind_relationship_pattern(relationship, scope, mode)
        if relationship.length is not None:
            raise UnsupportedFeature("a relationship type read off the row on a variable-length relationship",
                                     types.span)
        bound = self._bind_relationship_pattern(replace(relationship, types=None), scope, mode, typed=True)
        self._row_label_conditions(bound, types, scope, mode)
        if mode in ("create", "merge") and (bound.types is not None or len(bound.dynamic) != 1):
            raise CypherSyntaxError("a relationship to create needs exactly one type", relationship.span,
                                    detail="NoSingleRelationshipType")
        return bound

    def _bind_relationship_pattern(self, relationship: ast.RelationshipPattern, scope: Scope, mode: str, *,
                                   typed: bool = False) -> b.BoundRelationship:
        """A relationship pattern; `typed`: its type is read off the row (`_bind_relationship` binds it)."""
        if relationship.types is not None:
            relationship = replace(relationship, types=self.static_labels(relationship.types, scope))
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
            if not typed and not isinstance(relationship.types, ast.LabelName):
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


def _and(left: b.BoundExpression | None, right: b.BoundExpression | None) -> b.BoundExpression | None:
    """`left AND right`, either of which may be absent."""
    if left is None or right is None:
        return left or right
    return b.BOperator("AND", (left, right), type=t.BOOLEAN, span=right.span)
