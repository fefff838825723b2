"""Graph patterns -> joins over the node and relationship tables.

A new node is a join of `nodes`; a relationship hop a join of `rels` (both directions through a UNION
when undirected); a variable-length hop a recursive walk that carries the relationships it used so none
repeats (trail semantics). A quantified path pattern is a recursive walk too, whose step is the group's own
sub-pattern joined once per iteration, carrying one list per group variable (ADR-0016). Each walk is a
LATERAL join seeded by the start node of the row it extends (walks.py, ADR-0026). Relationship variables
of one MATCH are pairwise distinct, unless the MATCH is REPEATABLE ELEMENTS. A path selector (SHORTEST k,
ANY k, ...) ranks each pattern's matches by length per input row and pair of end nodes
(`PatternSql.qualify`); for one path, or one length group, over one variable-length hop the walk itself
expands breadth first and keeps only those (`walks.frontier_walk`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from engine import types as t
from engine.errors import UnsupportedFeature
from engine.plan.rules.end_labels import remaining
from engine.semantic import bound as b
from engine.semantic.scope import Variable
from engine.sqlgen.context import Parameters, SelectContext
from engine.sqlgen.expressions import ExpressionCompiler, entity_id_of, equality_sql
from engine.sqlgen.order import OrderKey
from engine.sqlgen.walks import Hop, LevelSource, LevelWalk, Walk, frontier_walk, trail_walk
from engine.syntax import ast
from engine.types import Kind

REL_BOTH_DIRECTIONS = ("(SELECT *, src AS _a, dst AS _b FROM rels UNION ALL "
                       "SELECT *, dst AS _a, src AS _b FROM rels WHERE src <> dst)")

HOP_COLUMNS = {"right": ("rels", "src", "dst"), "left": ("rels", "dst", "src"),
               "both": (REL_BOTH_DIRECTIONS, "_a", "_b")}
"""Per direction: the relationships a hop reads, the column it leaves from and the one it arrives at."""


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
    order_keys: list[OrderKey] = field(default_factory=list)
    """Row order among one input row's matches, as Neo4j expands: node scans by id, and a node's
    relationships newest first (ADR-0007)."""
    outputs: list[tuple[str, str]] = field(default_factory=list)
    selection: Selection | None = None
    scan: str | None = None
    """The alias of the one FROM item where the pattern is a plain scan of `nodes` (one node, no hop)."""

    def qualify(self, row_key: str) -> str:
        """` QUALIFY ...` keeping the selected paths, partitioned by `row_key` (the input row) too."""
        selection = self.selection
        if selection is None:
            return ""
        partition = f"{row_key}, {selection.start}, {selection.end}"
        if selection.kind == "groups":
            return f" QUALIFY dense_rank() OVER (PARTITION BY {partition} ORDER BY {selection.length}) <= {selection.k}"
        order = ", ".join([selection.length, *(key.order_by for key in self.order_keys)])
        return f" QUALIFY row_number() OVER (PARTITION BY {partition} ORDER BY {order}) <= {selection.k}"


@dataclass(frozen=True)
class Condition:
    """A condition of a pattern, and the aliases of the SELECT's entity joins it reads (`reads`)."""

    sql: str
    reads: frozenset[str] = frozenset()


@dataclass
class FromItem:
    """One FROM item of a pattern, and the conditions that are complete once it is joined."""

    table: str
    alias: str
    lateral: bool = False
    """A walk (or a bound relationship list) that reads the items before it."""
    conditions: list[Condition] = field(default_factory=list)

    def sql(self, own_conditions: list[Condition]) -> str:
        """The item as FROM text, filtering itself by `own_conditions` (a LATERAL subquery) if any."""
        if not own_conditions:
            return f"{'LATERAL ' if self.lateral else ''}{self.table} AS {self.alias}"
        where = " AND ".join(f"({condition.sql})" for condition in own_conditions)
        return f"LATERAL (SELECT {self.alias}.* FROM {self.table} AS {self.alias} WHERE {where}) AS {self.alias}"


@dataclass
class Frontier:
    """How a selective path's walk expands breadth first (walks.frontier_walk)."""

    every_tie: bool
    closed: bool
    start: Variable
    """The path's first node (a level walk needs it bound by the MATCH's input rows)."""
    any_path: bool = False
    """Whether any of the paths the selector may keep will do, because nothing reads which one was kept
    (only its length, or whether there is one): the walk then skips the tie order and keeps no path, only
    its length (execute/level_walks.py). Nor does the MATCH compare the path's relationships with another's: a
    selective path is the only pattern of its MATCH (the binder rejects company), and a level walk's hop is
    a variable-length relationship, which takes no ACYCLIC mode that would compare its nodes."""


class _NotGiven:
    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = _NotGiven()
"""`compile(pre_filter=)` when the caller does not say whether the MATCH's WHERE is a pre-filter."""


class PatternCompiler:
    def __init__(self, compiler: ExpressionCompiler, levels: LevelSource | None = None,
                 chains: dict[int, int] | None = None, tables: dict[int, str] | None = None) -> None:
        self.compiler = compiler
        self.context = compiler.context
        self.levels = levels
        """The MATCH's settled input rows, when a shortest path between two of their nodes may run as a level
        walk."""
        self.chains = chains or {}
        """Per variable-length relationship (by id), the one length it matches here, as a chain of joins:
        the MATCH is one SELECT per length, unioned (generator.QueryCompiler.match, `chain_lengths`)."""
        self.tables = tables or {}
        """Per node pattern (by id), the nodes it joins instead of `nodes`: the candidates one scan found for
        several patterns, a subset holding every node the pattern accepts (sqlgen/lookup_scans.py, ADR-0107)."""
        self.sql = PatternSql()
        self.pre_filter: b.BoundExpression | _NotGiven | None = NOT_GIVEN
        self._items: list[FromItem] = []
        self._where: list[str] = []
        self._fixed_rels: list[str] = []
        self._list_rels: list[str] = []
        self._walk_nodes: dict[int, str] = {}
        self._never_equal: set[frozenset[str]] = set()
        """Pairs of relationship ids that cannot be equal (`_may_repeat`): their uniqueness check is left out."""

    def compile(self, paths: list[b.BoundPath],
                pre_filter: b.BoundExpression | _NotGiven | None = NOT_GIVEN) -> PatternSql:
        """`pre_filter` is the MATCH's WHERE where it filters paths before a selector ranks them (the legacy
        shortestPath() / allShortestPaths()), or None where it does not: a legacy shortest path expands
        breadth first only once that is known."""
        self.pre_filter = pre_filter
        for path in paths:
            self._path(path)
        if not all(path.mode == "walk" for path in paths):  # walk: MATCH REPEATABLE ELEMENTS
            self._uniqueness()
        self._render()
        return self.sql

    # -- FROM items and conditions ----------------------------------------------------------------

    def _item(self, table: str, prefix: str, *, lateral: bool = False) -> str:
        alias = self.context.fresh(prefix)
        self._items.append(FromItem(table, alias, lateral))
        return alias

    def _condition(self, condition: str, reads: frozenset[str] = frozenset()) -> None:
        """A condition, kept with the last item joined so far (every condition is complete by then); `reads`
        the entity joins it reads, for one compiled from an expression (`_compiled_conditions`)."""
        if self._items:
            self._items[-1].conditions.append(Condition(condition, reads))
        else:
            self._where.append(condition)

    def _compiled_conditions(self, conditions: Iterable[str]) -> None:
        """Conditions compiled from expressions as they are iterated (a generator), each kept with the entity
        joins its compilation read."""
        iterator = iter(conditions)
        while True:
            with self.context.tracking_entity_reads() as reads:
                condition = next(iterator, None)
            if condition is None:
                return
            self._condition(condition, frozenset(reads))

    def _render(self) -> None:
        """The FROM items and the WHERE. A LATERAL walk is seeded with the distinct start nodes of the rows
        before it, but DuckDB only filters those rows first when their join conditions are part of them, not
        of the WHERE (the walk's windows and counts keep it from pushing them down): so every item before a
        walk filters itself, but by no condition that reads an entity join the SELECT adds after the items."""
        last_walk = max((index for index, item in enumerate(self._items) if item.lateral), default=-1)
        joined = {alias for alias in self.context.entity_aliases.values()
                  if alias not in {item.alias for item in self._items}}
        for index, item in enumerate(self._items):
            own = [condition for condition in item.conditions if not condition.reads & joined] \
                if index < last_walk else []
            self.sql.from_items.append(item.sql(own))
            self._where.extend(condition.sql for condition in item.conditions if condition not in own)
        self.sql.conditions = self._where
        if len(self._items) == 1 and self._items[0].table == "nodes" and not self._items[0].lateral:
            self.sql.scan = self._items[0].alias

    # -- elements ---------------------------------------------------------------------------------

    def _bound_id(self, variable: Variable, entity: str) -> str | None:
        """The id of the node or relationship an already bound variable holds (None when it is not bound). A
        variable typed otherwise (a value only known at run time, or of a type read off data) is checked on
        each row: a value that is no such element is a type error, as Neo4j's run time raises."""
        sql = self.context.variable_sql(variable)
        return None if sql is None else entity_id_of(sql, variable.type, entity)

    def _node(self, node: b.BoundNode, *, scanned: bool = False) -> str:
        """A node pattern; `scanned` when it starts a path (its id orders rows), not reached by a hop."""
        existing = self._bound_id(node.variable, "node")
        if existing is not None:
            id_sql = existing
        else:
            alias = self._item(self.tables.get(id(node), "nodes"), "n")
            id_sql = f"{alias}.id"
            self.context.bind_variable(node.variable, id_sql)
            self.context.register_entity_alias("node", id_sql, alias)
            if scanned:
                self.sql.order_keys.append(OrderKey(id_sql))
            if not node.variable.anonymous:
                self.sql.outputs.append((node.variable.column, id_sql))
        self._node_conditions(node, id_sql, fresh=existing is None)
        return id_sql

    def _node_conditions(self, node: b.BoundNode, id_sql: str, *, fresh: bool) -> None:
        self._compiled_conditions(self._element_conditions(self.compiler, "node", node, id_sql))
        if not fresh:
            self._condition(f"({id_sql}) IS NOT NULL")

    def _element_conditions(self, compiler: ExpressionCompiler, entity: str,
                            element: b.BoundNode | b.BoundRelationship, id_sql: str) -> Iterator[str]:
        """Labels (types), the property map and the inline WHERE of a node or relationship pattern, each
        compiled as it is asked for."""
        labels = self._tested_labels(element) if isinstance(element, b.BoundNode) else element.types
        if labels is not None:
            column = compiler.entity_column(entity, id_sql, "labels" if entity == "node" else "type")
            yield compiler.label_predicate(labels, column, relationship=entity != "node")
        if element.properties is not None:
            yield from self._property_conditions(entity, id_sql, element.properties, compiler)
        if element.where is not None:
            yield f"coalesce({compiler.boolean(element.where)}, false)"

    def _tested_labels(self, node: b.BoundNode) -> ast.LabelExpression | None:
        """The node pattern's labels less those every relationship reaching it carries at that end
        (plan/rules/end_labels.py, ADR-0092)."""
        implied = self.compiler.queries.implied_labels.get(id(node))
        return node.labels if implied is None else remaining(node.labels, implied)

    def _property_conditions(self, entity: str, id_sql: str, properties: b.BoundExpression,
                             compiler: ExpressionCompiler | None = None) -> Iterator[str]:
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
        for key, value in entries:
            column = self.context.catalog.column(entity, key)
            if column is None:
                yield "false"
                continue
            column_type = self.context.catalog.column_type(entity, key) or t.ANY
            stored = compiler.entity_column(entity, id_sql, column)
            equal = equality_sql((stored, column_type), (compiler.compile(value), value.type))
            # Every pattern condition is a conjunct of a WHERE, where null filters a row as false does; a
            # bare `=` lets DuckDB plan a hash join where `coalesce(=, false)` forced a nested loop.
            yield f"({equal})"

    def _relationship(self, relationship: b.BoundRelationship, left: str, right_node: b.BoundNode,
                      keep_nodes: bool, frontier: Frontier | None) -> str:
        if relationship.length is not None:
            return self._walk(relationship, left, right_node, keep_nodes, frontier)
        existing = self._bound_id(relationship.variable, "relationship")
        if existing is None and self._free(right_node):
            return self._hop_to_free_node(relationship, left, right_node)
        right = self._node(right_node)
        if existing is not None:
            self._fixed_rels.append(existing)  # a bound relationship in the pattern counts for uniqueness
            src = self.compiler.entity_column("relationship", existing, "src")
            dst = self.compiler.entity_column("relationship", existing, "dst")
            self._condition(self._endpoint_condition(relationship.direction, src, dst, left, right))
            self._relationship_filters(relationship, existing)
            return existing
        if relationship.direction == "both":
            alias = self._item(REL_BOTH_DIRECTIONS, "r")
            self._condition(f"{alias}._a = {left} AND {alias}._b = {right}")
        else:
            alias = self._item("rels", "r")
            src, dst = (left, right) if relationship.direction == "right" else (right, left)
            self._condition(f"{alias}.src = {src} AND {alias}.dst = {dst}")
        return self._bind_relationship(relationship, alias)

    def _free(self, node: b.BoundNode) -> bool:
        """A node pattern that only says "some node": new, no label, property or WHERE, and anonymous or
        named with nothing in the statement reading its properties or labels (which the MATCH would carry).
        Reached by a hop it needs no join, as every relationship's ends exist (not so mid-statement after a
        DELETE); a later read of its properties joins the node table then (`SelectContext.entity_row`)."""
        if (self._tested_labels(node) is not None or node.properties is not None or node.where is not None
                or self.context.variable_sql(node.variable) is not None or self.context.tombstones):
            return False
        queries = self.compiler.queries
        name = node.variable.name
        return node.variable.anonymous or (name not in queries.reads.properties and name not in queries.reads.labels)

    def _hop_to_free_node(self, relationship: b.BoundRelationship, left: str, right_node: b.BoundNode) -> str:
        """A hop to a free node: the node is the relationship's other end column."""
        source, near, far = HOP_COLUMNS[relationship.direction]
        alias = self._item(source, "r")
        self._condition(f"{alias}.{near} = {left}")
        self._free_node(right_node, f"{alias}.{far}")
        return self._bind_relationship(relationship, alias)

    def _free_node(self, node: b.BoundNode, id_sql: str) -> None:
        """Bind a free node (`_free`) to the column of the relationship end it is."""
        self.context.bind_variable(node.variable, id_sql)
        if not node.variable.anonymous:
            self.sql.outputs.append((node.variable.column, id_sql))

    def _end_node(self, node: b.BoundNode, end: str) -> None:
        """The node a walk or a chain of hops ends at, whose id is `end`: a free node is that column, any other
        is joined or bound and must equal it."""
        if self._free(node):
            self._free_node(node, end)
        else:
            self._condition(f"{end} = {self._node(node)}")

    def _bind_relationship(self, relationship: b.BoundRelationship, alias: str) -> str:
        """Bind a new relationship pattern joined as `alias`: its variable, order key, output and filters."""
        id_sql = f"{alias}.id"
        self.context.bind_variable(relationship.variable, id_sql)
        self.context.register_entity_alias("relationship", id_sql, alias)
        self.sql.order_keys.append(OrderKey(id_sql, descending=True))
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
        self._compiled_conditions(self._element_conditions(self.compiler, "relationship", relationship, id_sql))

    def _chain(self, relationship: b.BoundRelationship, rels_sql: str, left: str, right_node: b.BoundNode) -> str:
        """A variable-length hop whose relationships are already bound (a list): it matches when they
        form a chain from `left` to the right node in the hop's direction, within its length bounds."""
        if relationship.direction == "both":
            raise UnsupportedFeature("an undirected variable-length hop over a bound relationship list",
                                     relationship.span)
        low, high = relationship.length or (1, None)
        start, end = ("src", "dst") if relationship.direction == "right" else ("dst", "src")
        alias = self._item(
            f"(SELECT list(r.{start} ORDER BY u.i) AS starts, list(r.{end} ORDER BY u.i) AS ends,"
            f" count(*) AS hops, count(r.id) AS found FROM (SELECT unnest(l) AS id, generate_subscripts(l, 1) AS i"
            f" FROM (SELECT {rels_sql} AS l)) AS u LEFT JOIN rels AS r ON r.id = u.id)", "w", lateral=True)
        right = self._node(right_node)
        linked = (f"list_bool_and(list_transform(list_zip(list_slice({alias}.ends, 1, {alias}.hops - 1),"
                  f" list_slice({alias}.starts, 2, {alias}.hops)), lambda p: p[1] = p[2]))")
        conditions = [f"{alias}.found = {alias}.hops", f"len({rels_sql}) >= {int(low)}",
                      f"CASE WHEN {alias}.hops = 0 THEN {left} = {right} ELSE {alias}.starts[1] = {left}"
                      f" AND {alias}.ends[{alias}.hops] = {right} AND coalesce({linked}, true) END"]
        if high is not None:
            conditions.append(f"len({rels_sql}) <= {int(high)}")
        for condition in conditions:
            self._condition(condition)
        self._list_rels.append(rels_sql)
        self._walk_nodes[id(relationship)] = f"list_concat([{left}], {alias}.ends)"
        return rels_sql

    # -- walks ------------------------------------------------------------------------------------

    def _walk(self, relationship: b.BoundRelationship, left: str, right_node: b.BoundNode, keep_nodes: bool,
              frontier: Frontier | None) -> str:
        """A variable-length hop: a recursive walk from the start node, joined on its end node."""
        existing = self.context.variable_sql(relationship.variable)
        if existing is not None:
            return self._chain(relationship, existing, left, right_node)
        if id(relationship) in self.chains:
            return self._joined_hops(relationship, left, right_node, self.chains[id(relationship)])
        low, high = relationship.length or (1, None)
        source, near, far = HOP_COLUMNS[relationship.direction]
        depth = f" AND len(w.rels) < {int(high)}" if high is not None else ""
        node_after = far if frontier is not None and keep_nodes and relationship.direction != "both" else None
        carried = keep_nodes and node_after is None
        columns = [("finish", "BIGINT"), ("rels", "BIGINT[]")] + ([("nodes", "BIGINT[]")] if carried else [])
        seed_nodes, step_nodes = (", [s.id]", f", list_append(w.nodes, r.{far}) AS nodes") if carried else ("", "")

        found = self._level_walk(relationship, left, right_node, frontier)
        if found is not None:  # a table of paths per (start, end) pair: joined, not a LATERAL
            alias = self._item(found, "w")
            self._condition(f"{alias}.s = {left}")
        else:
            step_filter = self._walk_step_filter(relationship)

            def step(frontier_sql: str) -> str:
                return (f"SELECT r.{far} AS finish, list_append(w.rels, r.id) AS rels{step_nodes} FROM {frontier_sql}"
                        f" JOIN {source} AS r ON r.{near} = w.finish WHERE NOT list_contains(w.rels, r.id)"
                        f"{depth}{step_filter}")

            walk = Walk("walk", columns, f"SELECT s.id, []::BIGINT[]{seed_nodes} FROM (SELECT {left} AS id) AS s",
                        step, "w", "len(rels)", int(low), guarded=self._may_branch(relationship))
            alias = self._item(self._walk_sql(walk, left, right_node, frontier, node_after), "w", lateral=True)
        self._end_node(right_node, f"{alias}.finish")
        rels_sql = f"{alias}.rels"
        self.context.bind_variable(relationship.variable, rels_sql, hoistable=False)
        self.sql.order_keys.append(OrderKey(rels_sql, descending=True, list_valued=True))
        if not relationship.variable.anonymous:
            self.sql.outputs.append((relationship.variable.column, rels_sql))
        self._list_rels.append(rels_sql)
        if keep_nodes:
            self._walk_nodes[id(relationship)] = f"{alias}.nodes"
        return rels_sql

    def _joined_hops(self, relationship: b.BoundRelationship, left: str, right_node: b.BoundNode,
                     length: int) -> str:
        """A variable-length hop of exactly `length` relationships, as that many joins: what the walk yields
        of that length (the same relationship list, node list and order key), no relationship twice."""
        source, near, far = HOP_COLUMNS[relationship.direction]
        ids, nodes, reached = [], [left], left
        for _ in range(length):
            alias = self._item(source, "r")
            self._condition(f"{alias}.{near} = {reached}")
            if ids and not self._may_repeat(relationship, relationship):
                self._never_equal.add(frozenset((f"{alias}.id", ids[-1])))
            for earlier in ids:
                if frozenset((f"{alias}.id", earlier)) not in self._never_equal:
                    self._condition(f"{alias}.id <> {earlier}")
            self._compiled_conditions(self._hop_conditions(relationship, alias))
            ids.append(f"{alias}.id")
            reached = f"{alias}.{far}"
            nodes.append(reached)
        self._end_node(right_node, reached)
        rels_sql = f"[{', '.join(ids)}]" if ids else "[]::BIGINT[]"
        self.context.bind_variable(relationship.variable, rels_sql, hoistable=False)
        self.sql.order_keys.append(OrderKey(rels_sql, descending=True, list_valued=True))
        if not relationship.variable.anonymous:
            self.sql.outputs.append((relationship.variable.column, rels_sql))
        self._list_rels.append(rels_sql)
        self._walk_nodes[id(relationship)] = f"[{', '.join(nodes)}]"
        return rels_sql

    def _walk_sql(self, walk: Walk, left: str, right_node: b.BoundNode, frontier: Frontier | None,
                  node_after: str | None) -> str:
        if frontier is None:
            return trail_walk(walk)
        # the end node, when already bound (by an earlier clause or pattern), stops the walk when reached
        target = self._bound_id(right_node.variable, "node")
        return frontier_walk(walk, every_tie=frontier.every_tie, start=left, target=target, closed=frontier.closed,
                             node_after=node_after)

    def _level_walk(self, relationship: b.BoundRelationship, left: str, right_node: b.BoundNode,
                    frontier: Frontier | None) -> str | None:
        """The table of paths the level walk of this hop found (the executor ran it: `Step.level_walks`), when
        there is one. Else, when the hop keeps one path per node between two nodes of the MATCH's settled
        input rows, asks for one (`QueryCompiler.level_walk_requests`) and returns None: the recursive walk
        stands until the executor has run it."""
        found = self.compiler.queries.level_walk_table(relationship)
        if found is not None:
            return found
        target = self._bound_id(right_node.variable, "node")
        if (self.levels is None or frontier is None or frontier.every_tie or target is None
                or not self.levels.holds(frontier.start, right_node.variable)):
            return None
        own = Parameters()  # the level statements bind the step's values on their own
        step_compiler = ExpressionCompiler(SelectContext(self.context.catalog, own), self.compiler.queries)
        low, high = relationship.length or (1, None)
        source, near, far = HOP_COLUMNS[relationship.direction]
        hop = Hop(source, near, far, self._walk_step_filter(relationship, step_compiler), int(low),
                  None if high is None else int(high))
        self.compiler.queries.level_walk_requests.append(LevelWalk(
            id(relationship), hop, tuple(own.values), self.levels.table, self.levels.alias, left, target,
            frontier.closed, frontier.any_path))
        return None

    def _may_branch(self, walk: b.BoundRelationship | b.BoundGroup) -> bool:
        """Whether the walk of a variable-length hop or group can hold more than one partial path per start
        (`plan/rules/walk_branching.py` decides, from the store, which cannot)."""
        return id(walk) not in self.compiler.queries.single_path_walks

    def _walk_step_filter(self, relationship: b.BoundRelationship, compiler: ExpressionCompiler | None = None) -> str:
        """The hop's conditions on its relationship `r`, each as ` AND condition`, for a walk's step."""
        return "".join(f" AND {part}" for part in self._hop_conditions(relationship, "r", compiler))

    def _hop_conditions(self, relationship: b.BoundRelationship, alias: str,
                        compiler: ExpressionCompiler | None = None) -> list[str]:
        """The conditions a variable-length hop puts on each of its relationships, joined as `alias`: its
        types and property map (whose values read no variable)."""
        compiler = compiler or self.compiler
        parts = []
        if relationship.types is not None:
            parts.append(compiler.label_predicate(relationship.types, f"{alias}.type", relationship=True))
        if relationship.properties is not None:
            if not isinstance(relationship.properties, b.BMap):
                raise UnsupportedFeature("a parameter map on a variable-length relationship",
                                         relationship.span)
            for key, value in relationship.properties.entries:
                column = self.context.catalog.column("relationship", key)
                if column is None:
                    parts.append("false")
                    continue
                if self.compiler.context.variables and any(isinstance(node, b.BVariable) for node in b.walk(value)):
                    raise UnsupportedFeature("variable-length relationship properties that read variables",
                                             relationship.span)
                column_type = self.context.catalog.column_type("relationship", key) or t.ANY
                equal = equality_sql((f"{alias}.{column}", column_type), (compiler.compile(value), value.type))
                parts.append(f"coalesce({equal}, false)")
        return parts

    # -- quantified path patterns ------------------------------------------------------------------

    def _group(self, group: b.BoundGroup, left: str, right_node: b.BoundNode, mode: str, keep_nodes: bool,
               frontier: Frontier | None) -> str:
        """A quantified path pattern: a recursive walk whose step joins the group's sub-pattern once, from
        the node the walk has reached. Each row carries the node reached, the relationships and (for the
        path, or ACYCLIC) the nodes so far, the iteration count and one list per group variable. The
        group's predicates may read variables from outside it: the walk is a LATERAL join."""
        if id(group) in self.chains:  # a plain quantified relationship, `-[:T]->{1,3}`: as `-[:T*1..3]->`
            hop = group.relationships[0]
            rels_sql = self._joined_hops(hop, left, right_node, self.chains[id(group)])
            self._walk_nodes[id(group)] = self._walk_nodes[id(hop)]
            return rels_sql
        alias = self.context.fresh("g")
        cte = f"{alias}_walk"
        step_context = self.context.child()
        step_compiler = ExpressionCompiler(step_context, self.compiler.queries)
        previous = f"{alias}_p"
        lists = [f"l{index}" for index in range(len(group.group_variables))]
        node_after = None
        if frontier is not None:
            # breadth first, paths never repeat a node; a directed hop's nodes are read back at the end
            mode = "trail" if mode == "acyclic" else mode
            direction = group.relationships[0].direction
            node_after = HOP_COLUMNS[direction][2] if keep_nodes and direction != "both" else None
        carried = (keep_nodes or mode == "acyclic") and node_after is None
        columns = [("finish", "BIGINT"), ("rels", "BIGINT[]")]
        columns += [("nodes", "BIGINT[]")] if carried else []
        columns += [("i", "INTEGER"), *((name, "BIGINT[]") for name in lists)]
        empty = "".join(f", []::{_list_sql_type(outer)}" for _, outer in group.group_variables)
        seed = f"SELECT s.id, []::BIGINT[]{', [s.id]' if carried else ''}, 0{empty} FROM (SELECT {left} AS id) AS s"
        step = self._group_step(group, mode, step_context, step_compiler, previous, lists, carried)
        walk = Walk(cte, columns, seed, step, previous, "i", int(group.low),
                    guarded=self._may_branch(group))
        self._items.append(FromItem(self._walk_sql(walk, left, right_node, frontier, node_after), alias,
                                    lateral=True))
        # The group variables are bound before the node after the group: its WHERE may read them as lists,
        # `(n)-[r]->+(m WHERE all(x IN r WHERE ...))` (Cypher manual, graph patterns, variable references).
        for (_, outer), column in zip(group.group_variables, lists, strict=True):
            self.context.bind_variable(outer, f"{alias}.{column}", hoistable=False)
        right = self._node(right_node)
        self._condition(f"{alias}.finish = {right}")
        for (_, outer), column in zip(group.group_variables, lists, strict=True):
            self.sql.outputs.append((outer.column, f"{alias}.{column}"))
        rels_sql = f"{alias}.rels"
        self.sql.order_keys.append(OrderKey(rels_sql, descending=True, list_valued=True))
        self._list_rels.append(rels_sql)
        if keep_nodes:
            self._walk_nodes[id(group)] = f"{alias}.nodes"
        return rels_sql

    def _group_step(self, group: b.BoundGroup, mode: str, context: SelectContext, compiler: ExpressionCompiler,
                    previous: str, lists: list[str], keep_nodes: bool) -> Callable[[str], str]:
        """The recursive step: one more iteration of the group after each walk row `previous`."""
        from_items: list[str] = []
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
            source, near, far = HOP_COLUMNS[relationship.direction]
            from_items.append(f"{source} AS {rel_alias}")
            conditions.append(f"{rel_alias}.{near} = {node_sql[-1]}")
            rel_id = f"{rel_alias}.id"
            context.bind_variable(relationship.variable, rel_id)
            context.register_entity_alias("relationship", rel_id, rel_alias)
            singletons[id(relationship.variable)] = rel_id
            conditions.extend(self._element_conditions(compiler, "relationship", relationship, rel_id))
            new_rels.append(rel_id)
            place_node(group.nodes[index + 1], f"{rel_alias}.{far}")
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
        values = [("finish", node_sql[-1]), ("rels", f"list_concat({previous}.rels, [{', '.join(new_rels)}])")]
        if keep_nodes:
            values.append(("nodes", f"list_concat({previous}.nodes, [{', '.join(node_sql[1:])}])"))
        values.append(("i", f"{previous}.i + 1"))
        for (singleton, _), column in zip(group.group_variables, lists, strict=True):
            values.append((column, f"list_append({previous}.{column}, {singletons[id(singleton)]})"))
        selected = ", ".join(f"{value} AS {name}" for name, value in values)
        where = " AND ".join(f"({condition})" for condition in conditions) or "true"
        joins = "".join(f" CROSS JOIN {item}" for item in from_items)

        def step(frontier_sql: str) -> str:
            return f"SELECT {selected} FROM {frontier_sql}{joins}{context.join_text()} WHERE {where}"

        return step

    # -- paths ------------------------------------------------------------------------------------

    def _path(self, path: b.BoundPath) -> None:
        keep_nodes = path.variable is not None or path.mode == "acyclic"
        frontier = self._frontier(path)
        free_start = self._starts_free(path)
        node_ids = [] if free_start else [self._node(path.nodes[0], scanned=True)]
        rel_items: list[tuple[str, bool]] = []
        for index, link in enumerate(path.relationships):
            right_node = path.nodes[index + 1]
            if free_start and index == 0:
                assert isinstance(link, b.BoundRelationship)
                rel_sql, is_list = self._hop_from_free_start(link, path.nodes[0], right_node, node_ids), False
            elif isinstance(link, b.BoundGroup):
                rel_sql, is_list = self._group(link, node_ids[-1], right_node, path.mode, keep_nodes, frontier), True
            else:
                rel_sql = self._relationship(link, node_ids[-1], right_node, keep_nodes, frontier)
                is_list = link.length is not None
            node_ids.append(self._bound_id(right_node.variable, "node") or "")
            rel_items.append((rel_sql, is_list))
            if index and not rel_items[-2][1] and not is_list and rel_items[-2][0] != rel_sql and \
                    not self._may_repeat(path.relationships[index - 1], link):
                self._never_equal.add(frozenset((rel_items[-2][0], rel_sql)))
        rels = [sql if is_list else f"[{sql}]" for sql, is_list in rel_items]
        rels_sql = _concat_lists(rels) if rels else "[]::BIGINT[]"
        if keep_nodes:
            node_lists = [f"[{node_ids[0]}]"]
            for link, node_id, (_, is_list) in zip(path.relationships, node_ids[1:], rel_items, strict=True):
                node_lists.append(f"({self._walk_nodes[id(link)]})[2:]" if is_list else f"[{node_id}]")
            nodes_sql = _concat_lists(node_lists)
            if path.variable is not None:
                value = f"struct_pack(nodes := {nodes_sql}, rels := {rels_sql})"
                self.context.bind_variable(path.variable, value, hoistable=False)
                self.sql.outputs.append((path.variable.column, value))
            if path.mode == "acyclic":
                self._condition(f"len(list_distinct({nodes_sql})) = len({nodes_sql})")
        if path.where is not None:
            self._compiled_conditions(f"coalesce({self.compiler.boolean(where)}, false)" for where in [path.where])
        selector = path.selector
        if selector is not None:
            if selector.function is not None:  # as with dbms.cypher.forbid_shortestpath_common_nodes = false
                self._condition(f"NOT ({node_ids[0]} = {node_ids[-1]} AND len({rels_sql}) > 0)")
            ends = [self._partition_key(node, node_id) for node, node_id in
                    ((path.nodes[0], node_ids[0]), (path.nodes[-1], node_ids[-1]))]
            self.sql.selection = Selection(selector.kind, selector.k, *ends, f"len({rels_sql})")

    def _may_repeat(self, first: b.BoundRelationship | b.BoundGroup,
                    second: b.BoundRelationship | b.BoundGroup) -> bool:
        """Whether a relationship `second` matches, leaving the node a relationship `first` matched reached, may
        be that one, the two hops one after the other (single hops, or two of one chain): only a self-loop can
        be both when they run one way (`r1.dst = r2.src`), so not where either's types have none (ADR-0098)."""
        if not (isinstance(first, b.BoundRelationship) and isinstance(second, b.BoundRelationship)):
            return True
        loop_free = self.compiler.queries.loop_free
        return first.direction != second.direction or first.direction == "both" or \
            (id(first) not in loop_free and id(second) not in loop_free)

    def _starts_free(self, path: b.BoundPath) -> bool:
        """Whether the path's first node is free (`_free`) and left by a single hop of a new relationship: the
        relationship table is then scanned first and the node is its end column, with no node join."""
        first = path.relationships[0] if path.relationships else None
        return (isinstance(first, b.BoundRelationship) and first.length is None and path.selector is None
                and self.context.variable_sql(first.variable) is None and self._free(path.nodes[0]))

    def _hop_from_free_start(self, relationship: b.BoundRelationship, start: b.BoundNode, right_node: b.BoundNode,
                             node_ids: list[str]) -> str:
        """The first hop of a path whose first node is free (`_starts_free`): the node's id, the end column it
        leaves from, is appended to `node_ids` and orders rows as a scanned node's id would."""
        source, near, far = HOP_COLUMNS[relationship.direction]
        alias = self._item(source, "r")
        left = f"{alias}.{near}"
        self._free_node(start, left)
        self.sql.order_keys.append(OrderKey(left))
        node_ids.append(left)
        self._end_node(right_node, f"{alias}.{far}")
        return self._bind_relationship(relationship, alias)

    def _partition_key(self, node: b.BoundNode, id_sql: str) -> str:
        """An end node's id as a key of the selector's partition: a bound variable not typed as a node keys by
        its value, as DuckDB refuses the run-time check of its id (`_bound_id`, volatile) in PARTITION BY;
        the pattern's conditions make that check."""
        if node.variable.type.kind is not Kind.NODE:
            return self.context.variable_sql(node.variable) or id_sql
        return id_sql

    def _frontier(self, path: b.BoundPath) -> Frontier | None:
        """Breadth first expansion, when it finds exactly the paths the selector keeps: one path, or one
        length group, over a single variable-length hop or one-relationship group that may start at length
        0 or 1, with no predicate on the whole path (ADR-0026)."""
        selector = path.selector
        if selector is None or selector.k != 1 or len(path.relationships) != 1 or path.where is not None:
            return None
        link = path.relationships[0]
        if isinstance(link, b.BoundGroup):
            if len(link.relationships) != 1 or link.low > 1:
                return None
            direction, unique = link.relationships[0].direction, path.mode != "walk"
        else:
            if link.length is None or link.length[0] > 1 or self.context.variable_sql(link.variable) is not None:
                return None
            direction, unique = link.direction, True
        if selector.function is not None:
            if not self._pre_filter_reads_no_path(path):
                return None
            closed = False  # shortestPath() never returns a path whose two ends are the same node
        elif path.mode == "acyclic":
            closed = False
        elif direction == "both" and unique:
            return None  # the shortest closed trail is not the first one a breadth-first search finds
        else:
            closed = True
        return Frontier(every_tie=selector.kind == "groups", closed=closed, start=path.nodes[0].variable,
                        any_path=self._shape_unread(path))

    def _shape_unread(self, path: b.BoundPath) -> bool:
        """Whether the statement reads neither the path nor its relationships as values (a single hop's
        path: its inner nodes are not named)."""
        read = self.compiler.queries.reads.values
        if read is None:
            return False
        link = path.relationships[0]
        variables = [path.variable, *([outer for _, outer in link.group_variables] if isinstance(link, b.BoundGroup)
                                      else [link.variable])]
        return not any(variable is not None and not variable.anonymous and variable.name in read
                       for variable in variables)

    def _pre_filter_reads_no_path(self, path: b.BoundPath) -> bool:
        """Whether the MATCH's WHERE, a pre-filter of the legacy functions, is known to read neither the
        path nor its relationships: it then keeps or drops all paths between two nodes alike."""
        if isinstance(self.pre_filter, _NotGiven):
            return False
        if self.pre_filter is None:
            return True
        link = path.relationships[0]
        path_variables = {id(variable) for variable in (path.variable, getattr(link, "variable", None)) if variable}
        if isinstance(link, b.BoundGroup):
            path_variables |= {id(outer) for _, outer in link.group_variables}
        return not b.reads_any(self.pre_filter, path_variables)

    def _uniqueness(self) -> None:
        fixed, lists = self._fixed_rels, self._list_rels
        for i, first in enumerate(fixed):
            for second in fixed[i + 1:]:
                if frozenset((first, second)) not in self._never_equal:
                    self._condition(f"{first} <> {second}")
            for rel_list in lists:
                self._condition(f"NOT list_contains({rel_list}, {first})")
        for i, first in enumerate(lists):
            for second in lists[i + 1:]:
                self._condition(f"NOT list_has_any({first}, {second})")


def _concat_lists(lists: list[str]) -> str:
    result = lists[0]
    for item in lists[1:]:
        result = f"list_concat({result}, {item})"
    return result


def _list_sql_type(variable: object) -> str:
    """Group variables hold ids: a list of node or relationship ids."""
    return "BIGINT[]"
