"""Graph patterns -> joins over the node and relationship tables.

A new node is a join of `nodes`; a relationship hop a join of `rels` (both directions through a UNION
when undirected); a variable-length hop a recursive walk that carries the relationships it used so none
repeats (trail semantics). Relationship variables of one MATCH are pairwise distinct.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import UnsupportedFeature
from engine.semantic import bound as b
from engine.semantic import types as t
from engine.sqlgen.expressions import ExpressionCompiler, equality_sql

REL_BOTH_DIRECTIONS = ("(SELECT *, src AS _a, dst AS _b FROM rels UNION ALL "
                       "SELECT *, dst AS _a, src AS _b FROM rels WHERE src <> dst)")


@dataclass
class PatternSql:
    """The FROM items, join conditions and output of a pattern, to be placed in one SELECT."""

    from_items: list[str] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)
    order_keys: list[str] = field(default_factory=list)
    """Row order among one input row's matches, as Neo4j expands: node scans by id, and a node's
    relationships newest first (ADR-0007)."""
    outputs: list[tuple[str, str]] = field(default_factory=list)


class PatternCompiler:
    def __init__(self, compiler: ExpressionCompiler, seed_source: str | None) -> None:
        """`seed_source` is a FROM-able relation holding the rows the pattern extends (for walk seeds)."""
        self.compiler = compiler
        self.context = compiler.context
        self.seed_source = seed_source
        self.sql = PatternSql()
        self._fixed_rels: list[str] = []
        self._list_rels: list[str] = []
        self._walk_nodes: dict[int, str] = {}

    def compile(self, paths: list[b.BoundPath]) -> PatternSql:
        for path in paths:
            self._path(path)
        self._uniqueness()
        return self.sql

    # -- elements ---------------------------------------------------------------------------------

    def _node(self, node: b.BoundNode, *, scanned: bool = False) -> str:
        """A node pattern; `scanned` when it starts a path (its id orders rows), not reached by a hop."""
        existing = self.context.variable_sql(node.variable)
        if existing is not None:
            id_sql = existing
        else:
            alias = self.context.fresh("n")
            self.sql.from_items.append(f"nodes AS {alias}")
            id_sql = f"{alias}.id"
            self.context.bind_variable(node.variable, id_sql)
            self.context.register_entity_alias("node", id_sql, alias)
            if scanned:
                self.sql.order_keys.append(id_sql)
            if not node.variable.anonymous:
                self.sql.outputs.append((node.variable.column, id_sql))
        self._node_conditions(node, id_sql, fresh=existing is None)
        return id_sql

    def _node_conditions(self, node: b.BoundNode, id_sql: str, *, fresh: bool) -> None:
        if node.labels is not None:
            labels = self.compiler.entity_column("node", id_sql, "labels")
            self.sql.conditions.append(self.compiler.label_predicate(node.labels, labels, relationship=False))
        if node.properties is not None:
            self.sql.conditions.extend(self._property_conditions("node", id_sql, node.properties))
        if not fresh:
            self.sql.conditions.append(f"({id_sql}) IS NOT NULL")

    def _property_conditions(self, entity: str, id_sql: str, properties: b.BoundExpression) -> list[str]:
        """`{k: v}` in a pattern: each property must equal its value (null never matches)."""
        if isinstance(properties, b.BMap):
            entries = list(properties.entries)
        elif properties.type.is_record:
            entries = [(key, b.BProperty(properties, key, type=value_type, span=properties.span))
                       for key, value_type in properties.type.fields or ()]
        else:
            raise UnsupportedFeature("a pattern's property map whose keys are only known at run time",
                                     properties.span)
        conditions = []
        for key, value in entries:
            column = self.context.catalog.column(entity, key)
            if column is None:
                conditions.append("false")
                continue
            column_type = self.context.catalog.column_type(entity, key) or t.ANY
            stored = self.compiler.entity_column(entity, id_sql, column)
            equal = equality_sql((stored, column_type), (self.compiler.compile(value), value.type))
            # Every pattern condition is a conjunct of a WHERE, where null filters a row as false does; a
            # bare `=` lets DuckDB plan a hash join where `coalesce(=, false)` forced a nested loop.
            conditions.append(f"({equal})")
        return conditions

    def _relationship(self, relationship: b.BoundRelationship, left: str, right_node: b.BoundNode) -> str:
        if relationship.length is not None:
            return self._walk(relationship, left, right_node)
        existing = self.context.variable_sql(relationship.variable)
        right = self._node(right_node)
        if existing is not None:
            self._fixed_rels.append(existing)  # a bound relationship in the pattern counts for uniqueness
            src = self.compiler.entity_column("relationship", existing, "src")
            dst = self.compiler.entity_column("relationship", existing, "dst")
            self.sql.conditions.append(self._endpoint_condition(relationship.direction, src, dst, left, right))
            self._relationship_filters(relationship, existing)
            return existing
        alias = self.context.fresh("r")
        if relationship.direction == "both":
            self.sql.from_items.append(f"{REL_BOTH_DIRECTIONS} AS {alias}")
            self.sql.conditions.append(f"{alias}._a = {left} AND {alias}._b = {right}")
        else:
            self.sql.from_items.append(f"rels AS {alias}")
            src, dst = (left, right) if relationship.direction == "right" else (right, left)
            self.sql.conditions.append(f"{alias}.src = {src} AND {alias}.dst = {dst}")
        id_sql = f"{alias}.id"
        self.context.bind_variable(relationship.variable, id_sql)
        self.context.register_entity_alias("relationship", id_sql, alias)
        self.sql.order_keys.append(f"{id_sql} DESC")
        if not relationship.variable.anonymous:
            self.sql.outputs.append((relationship.variable.column, id_sql))
        self._relationship_filters(relationship, id_sql)
        self._fixed_rels.append(id_sql)
        return id_sql

    @staticmethod
    def _endpoint_condition(direction: str, src: str, dst: str, left: str, right: str) -> str:
        if direction == "right":
            return f"({src} = {left} AND {dst} = {right})"
        if direction == "left":
            return f"({src} = {right} AND {dst} = {left})"
        return f"(({src} = {left} AND {dst} = {right}) OR ({src} = {right} AND {dst} = {left}))"

    def _relationship_filters(self, relationship: b.BoundRelationship, id_sql: str) -> None:
        if relationship.types is not None:
            type_sql = self.compiler.entity_column("relationship", id_sql, "type")
            self.sql.conditions.append(
                self.compiler.label_predicate(relationship.types, type_sql, relationship=True))
        if relationship.properties is not None:
            self.sql.conditions.extend(
                self._property_conditions("relationship", id_sql, relationship.properties))

    def _chain(self, relationship: b.BoundRelationship, rels_sql: str, left: str, right_node: b.BoundNode) -> str:
        """A variable-length hop whose relationships are already bound (a list): it matches when they
        form a chain from `left` to the right node in the hop's direction, within its length bounds."""
        if relationship.direction == "both":
            raise UnsupportedFeature("an undirected variable-length hop over a bound relationship list",
                                     relationship.span)
        low, high = relationship.length or (1, None)
        start, end = ("src", "dst") if relationship.direction == "right" else ("dst", "src")
        alias = self.context.fresh("w")
        self.sql.from_items.append(
            f"LATERAL (SELECT list(r.{start} ORDER BY u.i) AS starts, list(r.{end} ORDER BY u.i) AS ends,"
            f" count(*) AS hops, count(r.id) AS found FROM (SELECT unnest(l) AS id, generate_subscripts(l, 1) AS i"
            f" FROM (SELECT {rels_sql} AS l)) AS u LEFT JOIN rels AS r ON r.id = u.id) AS {alias}")
        right = self._node(right_node)
        linked = (f"list_bool_and(list_transform(list_zip(list_slice({alias}.ends, 1, {alias}.hops - 1),"
                  f" list_slice({alias}.starts, 2, {alias}.hops)), lambda p: p[1] = p[2]))")
        conditions = [f"{alias}.found = {alias}.hops", f"len({rels_sql}) >= {int(low)}",
                      f"CASE WHEN {alias}.hops = 0 THEN {left} = {right} ELSE {alias}.starts[1] = {left}"
                      f" AND {alias}.ends[{alias}.hops] = {right} AND coalesce({linked}, true) END"]
        if high is not None:
            conditions.append(f"len({rels_sql}) <= {int(high)}")
        self.sql.conditions.extend(conditions)
        self._list_rels.append(rels_sql)
        self._walk_nodes[id(relationship)] = f"list_concat([{left}], {alias}.ends)"
        return rels_sql

    def _walk(self, relationship: b.BoundRelationship, left: str, right_node: b.BoundNode) -> str:
        """A variable-length hop: a recursive walk from every seed node, joined on its two ends."""
        existing = self.context.variable_sql(relationship.variable)
        if existing is not None:
            return self._chain(relationship, existing, left, right_node)
        low, high = relationship.length or (1, None)
        source = "rels" if relationship.direction != "both" else REL_BOTH_DIRECTIONS
        if relationship.direction == "right":
            start_col, end_col = "src", "dst"
        elif relationship.direction == "left":
            start_col, end_col = "dst", "src"
        else:
            start_col, end_col = "_a", "_b"
        step_filter = self._walk_step_filter(relationship)
        seeds = self._walk_seeds(left)
        depth = f" AND len(w.rels) < {int(high)}" if high is not None else ""
        walk = (
            f"(WITH RECURSIVE walk(start, finish, rels, nodes) AS ("
            f"SELECT s.id, s.id, []::BIGINT[], [s.id] FROM {seeds} AS s"
            f" UNION ALL SELECT w.start, r.{end_col}, list_append(w.rels, r.id), list_append(w.nodes, r.{end_col})"
            f" FROM walk AS w JOIN {source} AS r ON r.{start_col} = w.finish"
            f" WHERE NOT list_contains(w.rels, r.id){depth}{step_filter})"
            f" SELECT * FROM walk WHERE len(rels) >= {int(low)})")
        alias = self.context.fresh("w")
        self.sql.from_items.append(f"{walk} AS {alias}")
        right = self._node(right_node)
        self.sql.conditions.append(f"{alias}.start = {left} AND {alias}.finish = {right}")
        rels_sql = f"{alias}.rels"
        self.context.bind_variable(relationship.variable, rels_sql, hoistable=False)
        self.sql.order_keys.append(f"{rels_sql} DESC")
        if not relationship.variable.anonymous:
            self.sql.outputs.append((relationship.variable.column, rels_sql))
        self._list_rels.append(rels_sql)
        self._walk_nodes[id(relationship)] = f"{alias}.nodes"
        return rels_sql

    def _walk_step_filter(self, relationship: b.BoundRelationship) -> str:
        parts = []
        if relationship.types is not None:
            parts.append(self.compiler.label_predicate(relationship.types, "r.type", relationship=True))
        if relationship.properties is not None:
            if not isinstance(relationship.properties, b.BMap):
                raise UnsupportedFeature("a parameter map on a variable-length relationship",
                                         relationship.span)
            for key, value in relationship.properties.entries:
                column = self.context.catalog.column("relationship", key)
                if column is None:
                    parts.append("false")
                    continue
                if self.compiler.context.variables and _references_variables(value):
                    raise UnsupportedFeature("variable-length relationship properties that read variables",
                                             relationship.span)
                column_type = self.context.catalog.column_type("relationship", key) or t.ANY
                equal = equality_sql((f"r.{column}", column_type), (self.compiler.compile(value), value.type))
                parts.append(f"coalesce({equal}, false)")
        return "".join(f" AND {part}" for part in parts)

    def _walk_seeds(self, left: str) -> str:
        """Where walks start: the bound start nodes of the input rows when known, else every node."""
        if self.seed_source is not None and left.startswith("b."):
            return f"(SELECT DISTINCT {left.replace('b.', 'q.', 1)} AS id FROM {self.seed_source} AS q)"
        return "(SELECT id FROM nodes)"

    # -- paths ------------------------------------------------------------------------------------

    def _path(self, path: b.BoundPath) -> None:
        node_ids = [self._node(path.nodes[0], scanned=True)]
        rel_items: list[tuple[str, bool]] = []
        node_lists: list[str] = [f"[{node_ids[0]}]"]
        for index, relationship in enumerate(path.relationships):
            rel_sql = self._relationship(relationship, node_ids[-1], path.nodes[index + 1])
            node_ids.append(self.context.variable_sql(path.nodes[index + 1].variable) or "")
            if relationship.length is not None:
                rel_items.append((rel_sql, True))
                node_lists.append(f"({self._walk_nodes[id(relationship)]})[2:]")
            else:
                rel_items.append((rel_sql, False))
                node_lists.append(f"[{node_ids[-1]}]")
        if path.variable is not None:
            rels = [sql if is_list else f"[{sql}]" for sql, is_list in rel_items]
            nodes_sql = _concat_lists(node_lists)
            rels_sql = _concat_lists(rels) if rels else "[]::BIGINT[]"
            value = f"struct_pack(nodes := {nodes_sql}, rels := {rels_sql})"
            self.context.bind_variable(path.variable, value, hoistable=False)
            self.sql.outputs.append((path.variable.column, value))

    def _uniqueness(self) -> None:
        fixed, lists = self._fixed_rels, self._list_rels
        for i, first in enumerate(fixed):
            for second in fixed[i + 1:]:
                self.sql.conditions.append(f"{first} <> {second}")
            for rel_list in lists:
                self.sql.conditions.append(f"NOT list_contains({rel_list}, {first})")
        for i, first in enumerate(lists):
            for second in lists[i + 1:]:
                self.sql.conditions.append(f"NOT list_has_any({first}, {second})")


def _concat_lists(lists: list[str]) -> str:
    result = lists[0]
    for item in lists[1:]:
        result = f"list_concat({result}, {item})"
    return result


def _references_variables(expression: b.BoundExpression) -> bool:
    if isinstance(expression, b.BVariable):
        return True
    return any(_references_variables(v) for v in vars(expression).values() if isinstance(v, b.BoundExpression))

