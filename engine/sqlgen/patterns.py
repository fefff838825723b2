"""Graph patterns -> joins over the node and relationship tables.

A new node is a join of `nodes`; a relationship hop a join of `rels` (both directions through a UNION
when undirected); a variable-length hop a recursive walk that carries the relationships it used so none
repeats (trail semantics). A quantified path pattern is a recursive walk too, whose step is the group's own
sub-pattern joined once per iteration, carrying one list per group variable (ADR-0016). Relationship
variables of one MATCH are pairwise distinct, unless the MATCH is REPEATABLE ELEMENTS. A path selector
(SHORTEST k, ANY k, ...) ranks each pattern's matches by length per input row and pair of end nodes
(`PatternSql.qualify`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import UnsupportedFeature
from engine.limits import DEFAULT_MAX_WALK_ROWS, WALK_VARIABLE
from engine.semantic import bound as b
from engine.semantic import types as t
from engine.sqlgen.context import SelectContext
from engine.sqlgen.expressions import ExpressionCompiler, equality_sql
from engine.sqlgen.runtime import error_sql

REL_BOTH_DIRECTIONS = ("(SELECT *, src AS _a, dst AS _b FROM rels UNION ALL "
                       "SELECT *, dst AS _a, src AS _b FROM rels WHERE src <> dst)")

WALK_CAP = f"coalesce(getvariable('{WALK_VARIABLE}'), {DEFAULT_MAX_WALK_ROWS})"
"""The most partial paths one step of a variable-length expansion may hold: beyond it the statement fails
with WalkLimitExceeded instead of exhausting memory. Read from the connection's session variable
(`engine.connect(max_walk_rows=)`, default CYPHER_MAX_WALK_ROWS or 1,000,000; ADR-0022)."""


def walk_guard(frontier: str) -> str:
    """A condition that is true, or raises WalkLimitExceeded once `frontier` rows exceed the cap."""
    too_many = error_sql("UnsupportedFeature", "WalkLimitExceeded",
                         f"'a variable-length pattern reached more than ' || {WALK_CAP} || ' partial paths in one "
                         "step (the connection''s max_walk_rows); give it an upper bound or a more selective "
                         "pattern'")
    return f"CASE WHEN {frontier} > {WALK_CAP} THEN {too_many} ELSE true END"



@dataclass
class Selection:
    """A selective path selector over one path: `kind` 'any' / 'shortest' keep `k` paths, 'groups' keeps
    the paths of the `k` shortest lengths, per partition of (input row, first node, last node)."""

    kind: str
    k: int
    start: str
    end: str
    length: str


@dataclass
class PatternSql:
    """The FROM items, join conditions and output of a pattern, to be placed in one SELECT."""

    from_items: list[str] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)
    order_keys: list[str] = field(default_factory=list)
    """Row order among one input row's matches, as Neo4j expands: node scans by id, and a node's
    relationships newest first (ADR-0007)."""
    outputs: list[tuple[str, str]] = field(default_factory=list)
    selection: Selection | None = None

    def qualify(self, row_key: str) -> str:
        """` QUALIFY ...` keeping the selected paths, partitioned by `row_key` (the input row) too."""
        selection = self.selection
        if selection is None:
            return ""
        partition = f"{row_key}, {selection.start}, {selection.end}"
        if selection.kind == "groups":
            return f" QUALIFY dense_rank() OVER (PARTITION BY {partition} ORDER BY {selection.length}) <= {selection.k}"
        order = ", ".join([selection.length, *self.order_keys])
        return f" QUALIFY row_number() OVER (PARTITION BY {partition} ORDER BY {order}) <= {selection.k}"


class PatternCompiler:
    def __init__(self, compiler: ExpressionCompiler) -> None:
        self.compiler = compiler
        self.context = compiler.context
        self.sql = PatternSql()
        self._fixed_rels: list[str] = []
        self._list_rels: list[str] = []
        self._walk_nodes: dict[int, str] = {}

    def compile(self, paths: list[b.BoundPath]) -> PatternSql:
        for path in paths:
            self._path(path)
        if not all(path.mode == "walk" for path in paths):  # walk: MATCH REPEATABLE ELEMENTS
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
        self.sql.conditions.extend(self._element_conditions(self.compiler, "node", node, id_sql))
        if not fresh:
            self.sql.conditions.append(f"({id_sql}) IS NOT NULL")

    def _element_conditions(self, compiler: ExpressionCompiler, entity: str,
                            element: b.BoundNode | b.BoundRelationship, id_sql: str) -> list[str]:
        """Labels (types), the property map and the inline WHERE of a node or relationship pattern."""
        conditions = []
        labels = element.labels if isinstance(element, b.BoundNode) else element.types
        if labels is not None:
            column = compiler.entity_column(entity, id_sql, "labels" if entity == "node" else "type")
            conditions.append(compiler.label_predicate(labels, column, relationship=entity != "node"))
        if element.properties is not None:
            conditions.extend(self._property_conditions(entity, id_sql, element.properties, compiler))
        if element.where is not None:
            conditions.append(f"coalesce({compiler.boolean(element.where)}, false)")
        return conditions

    def _property_conditions(self, entity: str, id_sql: str, properties: b.BoundExpression,
                             compiler: ExpressionCompiler | None = None) -> list[str]:
        """`{k: v}` in a pattern: each property must equal its value (null never matches)."""
        if isinstance(properties, b.BMap):
            entries = list(properties.entries)
        elif properties.type.is_record:
            entries = [(key, b.BProperty(properties, key, type=value_type, span=properties.span))
                       for key, value_type in properties.type.fields or ()]
        else:
            raise UnsupportedFeature("a pattern's property map whose keys are only known at run time",
                                     properties.span)
        compiler = compiler or self.compiler
        conditions = []
        for key, value in entries:
            column = self.context.catalog.column(entity, key)
            if column is None:
                conditions.append("false")
                continue
            column_type = self.context.catalog.column_type(entity, key) or t.ANY
            stored = compiler.entity_column(entity, id_sql, column)
            equal = equality_sql((stored, column_type), (compiler.compile(value), value.type))
            # Every pattern condition is a conjunct of a WHERE, where null filters a row as false does; a
            # bare `=` lets DuckDB plan a hash join where `coalesce(=, false)` forced a nested loop.
            conditions.append(f"({equal})")
        return conditions

    def _relationship(self, relationship: b.BoundRelationship, left: str, right_node: b.BoundNode) -> str:
        if relationship.length is not None:
            return self._walk(relationship, left, right_node)
        existing = self.context.variable_sql(relationship.variable)
        if existing is None and self._free(right_node):
            return self._hop_to_free_node(relationship, left, right_node)
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
        return self._bind_relationship(relationship, alias)

    def _free(self, node: b.BoundNode) -> bool:
        """A node pattern that only says "some node": anonymous, new, no label, property or WHERE. Reached by a
        hop it needs no join, as every relationship's ends exist (not so mid-statement after a DELETE)."""
        return (node.variable.anonymous and node.labels is None and node.properties is None and node.where is None
                and self.context.variable_sql(node.variable) is None and not self.context.tombstones)

    def _hop_to_free_node(self, relationship: b.BoundRelationship, left: str, right_node: b.BoundNode) -> str:
        """A hop to a free node: the node is the relationship's other end column."""
        alias = self.context.fresh("r")
        if relationship.direction == "both":
            self.sql.from_items.append(f"{REL_BOTH_DIRECTIONS} AS {alias}")
            near, far = "_a", "_b"
        else:
            self.sql.from_items.append(f"rels AS {alias}")
            near, far = ("src", "dst") if relationship.direction == "right" else ("dst", "src")
        self.sql.conditions.append(f"{alias}.{near} = {left}")
        self.context.bind_variable(right_node.variable, f"{alias}.{far}")
        return self._bind_relationship(relationship, alias)

    def _bind_relationship(self, relationship: b.BoundRelationship, alias: str) -> str:
        """Bind a new relationship pattern joined as `alias`: its variable, order key, output and filters."""
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
        self.sql.conditions.extend(self._element_conditions(self.compiler, "relationship", relationship, id_sql))

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
            f" UNION ALL SELECT start, finish, rels, nodes FROM (SELECT w.start, r.{end_col} AS finish,"
            f" list_append(w.rels, r.id) AS rels, list_append(w.nodes, r.{end_col}) AS nodes,"
            f" count(*) OVER () AS __frontier FROM walk AS w JOIN {source} AS r ON r.{start_col} = w.finish"
            f" WHERE NOT list_contains(w.rels, r.id){depth}{step_filter}) WHERE {walk_guard('__frontier')})"
            f" SELECT * FROM walk WHERE len(rels) >= {int(low)})")
        alias = self.context.fresh("w")
        self.sql.from_items.append(f"LATERAL {walk} AS {alias}")
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

    @staticmethod
    def _walk_seeds(left: str) -> str:
        """Where a walk starts: the start node of the row, the walk being LATERAL to it. DuckDB decorrelates
        that into one walk from the distinct start nodes of every row, after the rows' own filters (a start
        bound earlier, or a node of this pattern with its labels and properties): never from every node
        unless the pattern's start is every node."""
        return f"(SELECT {left} AS id WHERE {left} IS NOT NULL)"

    # -- quantified path patterns ------------------------------------------------------------------

    def _group(self, group: b.BoundGroup, left: str, right_node: b.BoundNode, mode: str) -> str:
        """A quantified path pattern: a recursive walk whose step joins the group's sub-pattern once, from
        the node the walk has reached. Each row carries the start, the node reached, the relationships and
        nodes so far (for uniqueness and the path), the iteration count and one list per group variable.
        The walk is LATERAL to the row, seeded from its start node (`_walk_seeds`)."""
        alias = self.context.fresh("g")
        cte = f"{alias}_walk"
        step_context = self.context.child()
        step_compiler = ExpressionCompiler(step_context, self.compiler.queries)
        previous = f"{alias}_p"
        lists = [f"l{index}" for index in range(len(group.group_variables))]
        columns = ["start", "finish", "rels", "nodes", "i", *lists]
        seeds = self._walk_seeds(left)
        empty = "".join(f", []::{_list_sql_type(outer)}" for _, outer in group.group_variables)
        base = f"SELECT s.id, s.id, []::BIGINT[], [s.id], 0{empty} FROM {seeds} AS s"
        step = self._group_step(group, mode, step_context, step_compiler, cte, previous, lists)
        walk = (f"(WITH RECURSIVE {cte}({', '.join(columns)}) AS ({base} UNION ALL {step})"
                f" SELECT * FROM {cte} WHERE i >= {int(group.low)})")
        self.sql.from_items.append(f"LATERAL {walk} AS {alias}")
        # The group variables are bound before the node after the group: its WHERE may read them as lists,
        # `(n)-[r]->+(m WHERE all(x IN r WHERE ...))` (Cypher manual, graph patterns, variable references).
        for (_, outer), column in zip(group.group_variables, lists, strict=True):
            self.context.bind_variable(outer, f"{alias}.{column}", hoistable=False)
        right = self._node(right_node)
        self.sql.conditions.append(f"{alias}.start = {left} AND {alias}.finish = {right}")
        for (_, outer), column in zip(group.group_variables, lists, strict=True):
            self.sql.outputs.append((outer.column, f"{alias}.{column}"))
        rels_sql = f"{alias}.rels"
        self.sql.order_keys.append(f"{rels_sql} DESC")
        self._list_rels.append(rels_sql)
        self._walk_nodes[id(group)] = f"{alias}.nodes"
        return rels_sql

    def _group_step(self, group: b.BoundGroup, mode: str, context: SelectContext, compiler: ExpressionCompiler,
                    cte: str, previous: str, lists: list[str]) -> str:
        """The recursive step: one more iteration of the group after each walk row `previous`."""
        from_items = [f"{cte} AS {previous}"]
        conditions: list[str] = []
        node_sql: list[str] = []
        new_rels: list[str] = []
        singletons: dict[int, str] = {}

        def place_node(node: b.BoundNode, sql: str) -> None:
            bound = context.variable_sql(node.variable)
            if bound is not None and id(node.variable) in singletons:
                conditions.append(f"{bound} = {sql}")  # the same variable twice in the group: one node
            else:
                context.bind_variable(node.variable, sql)
                singletons[id(node.variable)] = sql
            node_sql.append(sql)
            conditions.extend(self._element_conditions(compiler, "node", node, sql))

        place_node(group.nodes[0], f"{previous}.finish")
        for index, relationship in enumerate(group.relationships):
            rel_alias = context.fresh("r")
            near = node_sql[-1]
            if relationship.direction == "both":
                from_items.append(f"{REL_BOTH_DIRECTIONS} AS {rel_alias}")
                conditions.append(f"{rel_alias}._a = {near}")
                far = f"{rel_alias}._b"
            elif relationship.direction == "right":
                from_items.append(f"rels AS {rel_alias}")
                conditions.append(f"{rel_alias}.src = {near}")
                far = f"{rel_alias}.dst"
            else:
                from_items.append(f"rels AS {rel_alias}")
                conditions.append(f"{rel_alias}.dst = {near}")
                far = f"{rel_alias}.src"
            rel_id = f"{rel_alias}.id"
            context.bind_variable(relationship.variable, rel_id)
            context.register_entity_alias("relationship", rel_id, rel_alias)
            singletons[id(relationship.variable)] = rel_id
            conditions.extend(self._element_conditions(compiler, "relationship", relationship, rel_id))
            new_rels.append(rel_id)
            place_node(group.nodes[index + 1], far)
        if group.where is not None:
            conditions.append(f"coalesce({compiler.boolean(group.where)}, false)")
        if mode != "walk":
            for index, rel_id in enumerate(new_rels):
                conditions.append(f"NOT list_contains({previous}.rels, {rel_id})")
                conditions.extend(f"{rel_id} <> {other}" for other in new_rels[index + 1:])
        if mode == "acyclic":
            for index, sql in enumerate(node_sql[1:]):
                conditions.append(f"NOT list_contains({previous}.nodes, {sql})")
                conditions.extend(f"{sql} <> {other}" for other in node_sql[index + 2:])
        if group.high is not None:
            conditions.append(f"{previous}.i < {int(group.high)}")
        values = [f"{previous}.start", node_sql[-1], f"list_concat({previous}.rels, [{', '.join(new_rels)}])",
                  f"list_concat({previous}.nodes, [{', '.join(node_sql[1:])}])", f"{previous}.i + 1"]
        for (singleton, _), column in zip(group.group_variables, lists, strict=True):
            values.append(f"list_append({previous}.{column}, {singletons[id(singleton)]})")
        names = ["start", "finish", "rels", "nodes", "i", *lists]
        selected = ", ".join(f"{value} AS {name}" for value, name in zip(values, names, strict=True))
        joins = " CROSS JOIN ".join(from_items)
        where = " AND ".join(f"({condition})" for condition in conditions) or "true"
        return (f"SELECT {', '.join(names)} FROM (SELECT {selected}, count(*) OVER () AS __frontier"
                f" FROM {joins}{context.join_text()} WHERE {where})"
                f" WHERE {walk_guard('__frontier')}")

    # -- paths ------------------------------------------------------------------------------------

    def _path(self, path: b.BoundPath) -> None:
        node_ids = [self._node(path.nodes[0], scanned=True)]
        rel_items: list[tuple[str, bool]] = []
        node_lists: list[str] = [f"[{node_ids[0]}]"]
        for index, link in enumerate(path.relationships):
            right_node = path.nodes[index + 1]
            if isinstance(link, b.BoundGroup):
                rel_sql, is_list = self._group(link, node_ids[-1], right_node, path.mode), True
            else:
                rel_sql = self._relationship(link, node_ids[-1], right_node)
                is_list = link.length is not None
            node_ids.append(self.context.variable_sql(right_node.variable) or "")
            rel_items.append((rel_sql, is_list))
            node_lists.append(f"({self._walk_nodes[id(link)]})[2:]" if is_list else f"[{node_ids[-1]}]")
        rels = [sql if is_list else f"[{sql}]" for sql, is_list in rel_items]
        nodes_sql = _concat_lists(node_lists)
        rels_sql = _concat_lists(rels) if rels else "[]::BIGINT[]"
        if path.variable is not None:
            value = f"struct_pack(nodes := {nodes_sql}, rels := {rels_sql})"
            self.context.bind_variable(path.variable, value, hoistable=False)
            self.sql.outputs.append((path.variable.column, value))
        if path.mode == "acyclic":
            self.sql.conditions.append(f"len(list_distinct({nodes_sql})) = len({nodes_sql})")
        if path.where is not None:
            self.sql.conditions.append(f"coalesce({self.compiler.boolean(path.where)}, false)")
        selector = path.selector
        if selector is not None:
            if selector.function is not None:  # as with dbms.cypher.forbid_shortestpath_common_nodes = false
                self.sql.conditions.append(f"NOT ({node_ids[0]} = {node_ids[-1]} AND len({rels_sql}) > 0)")
            self.sql.selection = Selection(selector.kind, selector.k, node_ids[0], node_ids[-1], f"len({rels_sql})")

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



def _list_sql_type(variable: object) -> str:
    """Group variables hold ids: a list of node or relationship ids."""
    return "BIGINT[]"
