"""Read clauses -> one SELECT each over the binding table of the clause before.

Every binding table has `__ord` (the row order, dense from 1) and one column per variable. A clause's
SELECT reads the previous relation under a fresh alias and produces the next; the executor materializes
each at the top level (clause-at-a-time), while subqueries nest the same SELECTs, correlated on the
variables they import. `STEP_SQL` dispatches by bound clause type: MATCH, UNWIND and the CALLs here (patterns
in patterns.py), WITH and RETURN in projection.py; the relation a clause reads and produces is relation.py's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine import types as t
from engine.errors import UnsupportedFeature
from engine.plan.build import plan_subquery
from engine.plan.plan import NO_READS, Step
from engine.plan.rules.fuse_reads import is_constant
from engine.plan.rules.order_demand import PLAIN_GROUP_KINDS
from engine.plan.rules.property_reads import Reads
from engine.procedures import Procedure, ProcedureBuild
from engine.quoting import sql_identifier
from engine.semantic import bound as b
from engine.semantic.scope import Variable
from engine.sqlgen.context import Parameters, SelectContext
from engine.sqlgen.decorrelate import keyed_query
from engine.sqlgen.expressions import ExpressionCompiler, convert, equality_sql
from engine.sqlgen.functions import FUNCTIONS, range_rows
from engine.sqlgen.functions import Builder as FunctionBuilder
from engine.sqlgen.keys import group_key
from engine.sqlgen.lookup_scans import LookupScans, kept, lookup_scans
from engine.sqlgen.order import UNORDERED, OrderKey, ascending_order, composite_order
from engine.sqlgen.patterns import PatternCompiler, PatternSql
from engine.sqlgen.procedure_arguments import compiled_rows
from engine.sqlgen.projection import ProjectionCompiler
from engine.sqlgen.relation import SEED_ROW, Carried, NodeScan, Relation
from engine.sqlgen.sql import Term, select_list
from engine.sqlgen.walks import LevelSource, LevelWalk
from engine.storage.schema import Catalog
from engine.types import Kind, is_variant, sql_type


class QueryCompiler:
    functions: Mapping[str, FunctionBuilder] = FUNCTIONS
    """The SQL of each function by lower-case name, which the expression compiler looks up (sqlgen/functions.py,
    with the temporal functions and those the feature packages register)."""

    def __init__(self, catalog: Catalog, parameters: Parameters) -> None:
        self.catalog = catalog
        self.parameters = parameters
        self.aliases = [0]
        self.tombstones = False
        self.procedure_arguments: dict[int, list[tuple[Any, ...]]] = {}
        """Per procedure call (by id), the distinct values of its per-row arguments (procedure_arguments.py)."""
        self.level_walk_requests: list[LevelWalk] = []
        """The level walks the SQL compiled so far would rather join (execute/level_walks.py runs them)."""
        self.correlated_subqueries = 0
        """How many correlated subqueries the SQL compiled so far holds (a MATCH's WHERE with one filters
        the pattern's rows from outside: `match`)."""
        self.reads_fulltext = False
        """Whether the SQL compiled reads a full-text index (its tables must first see the statement's
        writes: `StatementChanges.sync`)."""
        self.reads: Reads = NO_READS
        """What later clauses read off the variables MATCH clauses bind (the plan's `reads`): a MATCH carries
        those properties and labels along (`Carried`)."""
        self._steps: list[Step] = []
        """The plan steps being compiled, outermost first: the top-level clause's, then those of the
        subqueries inside it."""

    @property
    def ordered(self) -> bool:
        """Whether a clause after the top-level clause compiled now reads the order of its rows; when not,
        the clause numbers its rows with a constant (plan/rules/order_demand.py)."""
        return self._steps[0].ordered if self._steps else True

    @property
    def step(self) -> Step:
        """The plan step of the clause compiled now (innermost)."""
        return self._steps[-1]

    @property
    def single_path_walks(self) -> frozenset[int]:
        """The walks under the top-level clause that hold one partial path per start (walk_branching.py)."""
        return self._steps[0].single_path_walks if self._steps else frozenset()

    @property
    def implied_labels(self) -> dict[int, frozenset[str]]:
        """Per node pattern under the top-level clause, the labels its test leaves out (plan/rules/end_labels.py)."""
        return self._steps[0].implied_labels if self._steps else {}

    @property
    def loop_free(self) -> frozenset[int]:
        """The relationship patterns under the top-level clause that match no self-loop (plan/rules/end_labels.py)."""
        return self._steps[0].loop_free if self._steps else frozenset()

    def prepared_rows(self, clause: b.BCallProcedure) -> str:
        """The rows of a procedure call the executor prepared (`Procedure.prepare`): only a top-level one."""
        rows = self._steps[0].prepared.get(id(clause)) if self._steps else None
        if rows is None:
            raise UnsupportedFeature(f"{clause.procedure.name} inside a subquery (call it at the top level of "
                                     "the statement)", clause.span)
        return rows

    def level_walk_table(self, relationship: b.BoundRelationship) -> str | None:
        """The table of paths the executor's level walk of `relationship` found, if it ran one."""
        return self._steps[0].level_walks.get(id(relationship)) if self._steps else None

    # -- contexts --------------------------------------------------------------------------------

    def row_order(self, outer: SelectContext | None, relation: Relation, alias: str, keys: list[OrderKey]) -> str:
        """The `__ord` of a clause's rows over `relation` (read as `alias`): a composite of the input's
        `__ord` and `keys`, or of `keys` alone when the input's is constant and not an outer row's (a
        shallower key: DuckDB compares nested rows field by field), or where no clause after a top-level
        clause reads the order, the input's `__ord` as it is. A plain column, not a constant: DuckDB does
        not reorder joins below a projection that computes a value (measured: 40% more time)."""
        if not self.order_read(outer):
            return f"{alias}.__ord"
        if relation.constant_order and keys and (outer is None or outer.detached):
            # not over a correlated seed: DuckDB 2.0 fails to bind a LATERAL whose seed no column reads
            return composite_order(keys)
        return composite_order([OrderKey(f"{alias}.__ord"), *keys])

    def order_read(self, outer: SelectContext | None) -> bool:
        """Whether the order of the rows the clause compiled now makes is read: where a later clause reads it
        (`ordered`); under an outer row, unless the subquery's plan says its step's is not (COUNT, EXISTS)."""
        if outer is not None:
            return not self._steps or self.step.ordered
        return self.ordered

    def alias(self, prefix: str = "b") -> str:
        self.aliases[0] += 1
        return f"{prefix}{self.aliases[0]}"

    def context_for(self, relation: Relation, alias: str, outer: SelectContext | None = None) -> SelectContext:
        context = outer.child() if outer is not None else SelectContext(self.catalog, self.parameters)
        context.counter = self.aliases
        context.tombstones = self.tombstones
        for variable in relation.variables:
            context.bind_variable(variable, Term(f"{alias}.{variable.column}"))
        if not self.tombstones:  # after a DELETE, a read must tell a deleted element: no shortcuts
            for carried in relation.carried:
                context.carried[(carried.entity, f"{alias}.{carried.variable.column}", carried.column)] = \
                    Term(f"{alias}.{carried.name}")
        return context

    def carry(self, variables: list[Variable], context: SelectContext) -> tuple[list[str], list[Carried]]:
        """SELECT items carrying the wanted property columns (and labels) of new entity `variables` whose
        table row this SELECT joins, and what they carry."""
        items, carried = [], []
        for variable in variables:
            entity = {Kind.NODE: "node", Kind.RELATIONSHIP: "relationship"}.get(variable.type.kind)
            if entity is None:
                continue
            columns = [self.catalog.column(entity, key) for key in sorted(self.reads.properties.get(variable.name, ()))]
            if entity == "node" and variable.name in self.reads.labels:
                columns.append("labels")
            id_sql = context.variable_sql(variable)
            if not columns or id_sql is None:
                continue
            row = context.entity_aliases.get((entity, id_sql))
            if row is None:
                continue
            for column in columns:
                if column is not None:
                    item = Carried(variable, entity, column)
                    items.append(f"{row}.{column} AS {item.name}")
                    carried.append(item)
        return items, carried

    # -- clauses ---------------------------------------------------------------------------------

    def read_clause(self, step: Step, relation: Relation, outer: SelectContext | None = None) -> Relation:
        """The SELECT of a read clause over `relation`, as its plan step says."""
        clause = step.clause
        handler = STEP_SQL.get(type(clause))
        if handler is None:
            raise UnsupportedFeature(f"{type(clause).__name__[1:]} inside a read-only subquery", clause.span)
        self._steps.append(step)
        try:
            if step.distinct_input is not None:
                relation = self.distinct_input(relation, step.distinct_input, ordered=self.ordered or outer is not None)
            return handler(self, clause, relation, outer)
        finally:
            self._steps.pop()

    def distinct_input(self, relation: Relation, read: frozenset[int], *, ordered: bool) -> Relation:
        """The distinct rows of `relation`'s variables in `read`, each with its first row's order (if
        `ordered`: anything after reads the order), where that can be fewer rows: some node or value
        variable is dropped (repeated rows come from several of those leading to one kept row; a dropped
        relationship alone repeats a row only between parallel ones), and every kept variable groups
        exactly in SQL. Otherwise `relation` itself."""
        kept = [v for v in relation.variables if id(v) in read]
        dropped = [v for v in relation.variables if id(v) not in read]
        if not kept or not any(v.type.kind is not Kind.RELATIONSHIP and v.type.kind is not Kind.PATH
                               for v in dropped):
            return relation
        if not all(v.type.kind in PLAIN_GROUP_KINDS and not is_variant(v.type) for v in kept):
            return relation
        alias = self.alias()
        keys = [f"{alias}.{v.column}" for v in kept]
        carried = relation.carried_for(kept)
        items = keys + [f"any_value({alias}.{c.name}) AS {c.name}" for c in carried]
        order = f"min({alias}.__ord)" if ordered else UNORDERED
        return Relation(f"(SELECT {select_list(items)}{order} AS __ord FROM {relation.sql} AS {alias}"
                        f" GROUP BY {', '.join(keys)})", kept, carried)

    def match(self, clause: b.BMatch, relation: Relation, outer: SelectContext | None) -> Relation:
        legacy = [path for path in clause.paths if path.selector is not None and path.selector.function is not None]
        if legacy and len(clause.paths) > 1:
            # `MATCH (a {..}), (b {..}), p = shortestPath((a)-[*]-(b))`: the node patterns (the only other ones
            # the binder allows here) first, then the shortest path per row, the MATCH's WHERE its pre-filter
            others = [path for path in clause.paths if path not in legacy]
            relation = self.match(b.BMatch(others, None, False, span=clause.span), relation, outer)
            return self.match(b.BMatch(legacy, clause.where, False, span=clause.span), relation, outer)
        alias = self.alias()
        context = self.context_for(relation, alias, outer)
        compiler = ExpressionCompiler(context, self)
        new_variables = _new_variables(clause.paths, relation.variables)
        selector = next((path.selector for path in clause.paths if path.selector is not None), None)
        if clause.optional or selector is not None:
            # A path selector ranks the pattern's matches per input row before the MATCH's WHERE filters them
            # (a post-filter), except for shortestPath() / allShortestPaths(), whose WHERE is a pre-filter.
            post_filter = clause.where if selector is not None and selector.function is None else None
            if post_filter is not None and clause.optional:
                raise UnsupportedFeature("OPTIONAL MATCH with a path selector and a WHERE", clause.span)
            levels = self._level_source(relation, alias, outer)
            # a selector's input rows are read twice, as the rows and as the starts of their matches: once
            # (shortestPath between 100 pairs on the social graph: 9.2 -> 7.9 ms for the MATCH's SELECT)
            prefix, rows = "", relation
            if selector is not None and not relation.table and (outer is None or outer.detached):
                rows = Relation(self.alias("w"), relation.variables, relation.carried, table=True)
                prefix = f"WITH {rows.sql} AS MATERIALIZED {relation.sql} "
                context = self.context_for(rows, alias, outer)
                compiler = ExpressionCompiler(context, self)
            inner, _ = self.pattern_rows(clause.paths, rows, compiler, alias,
                                         None if post_filter is not None else clause.where, dense=False,
                                         levels=levels)
            outer_alias, match_alias = self.alias(), self.alias("m")
            columns = [f"{outer_alias}.{v.column}" for v in relation.variables]
            columns += [f"{match_alias}.{v.column}" for v in new_variables]
            join = "LEFT JOIN" if clause.optional else "JOIN"
            select = (f"{prefix}SELECT {select_list(columns)}"
                      f"{ascending_order(f'{outer_alias}.__ord', f'{match_alias}.__k')}"
                      f" AS __ord FROM {rows.sql} AS {outer_alias} {join} ({inner}) AS {match_alias}"
                      f" ON {match_alias}.__parent = {outer_alias}.__ord")
            matched = Relation(f"({select})", relation.variables + new_variables)
            return self._filter(matched, post_filter, outer) if post_filter is not None else matched
        bound, correlated = len(self.parameters.values), self.correlated_subqueries
        matched = self._matches(clause, relation, outer, new_variables, (alias, context, compiler), clause.where)
        if clause.where is None or self.correlated_subqueries == correlated:
            return matched
        # DuckDB plans a correlated subquery of a WHERE over the unjoined product of the FROM items, the
        # pattern's join conditions filtering above it (5 nodes: over 20 s); filtered from outside, the
        # subquery reads the pattern's matches instead
        self.parameters.truncate(bound)
        alias = self.alias()
        context = self.context_for(relation, alias, outer)
        matched = self._matches(clause, relation, outer, new_variables,
                                (alias, context, ExpressionCompiler(context, self)), None)
        return self._filter(matched, clause.where, outer)

    def _matches(self, clause: b.BMatch, relation: Relation, outer: SelectContext | None,
                 new_variables: list[Variable], first: tuple[str, SelectContext, ExpressionCompiler],
                 where: b.BoundExpression | None) -> Relation:
        """The rows of `relation` joined to their matches of the MATCH's pattern satisfying `where`: one
        SELECT per combination of the variable-length relationships' lengths (`chain_lengths`), the first
        with the `first` alias, context and compiler."""
        alias, context, compiler = first
        scans = self._lookup_scans(relation, alias, outer)
        prefix, tables = "", {}
        if scans is not None:
            (prefix, relation, tables), compiler = (scans[0].prefix, scans[0].rows, scans[0].tables), scans[1]
            context = compiler.context
        selects, carried, scan = [], [], None
        for number, chains in enumerate(chain_lengths(clause.paths)):
            if number:  # each length's SELECT has its own aliases and joins
                alias = self.alias()
                context = self.context_for(relation, alias, outer)
                compiler = ExpressionCompiler(context, self)
            pattern, from_items, condition = self._pattern(clause.paths, relation, compiler, where, chains=chains,
                                                           tables=tables)
            columns = [f"{alias}.{v.column}" for v in relation.variables] + relation.carried_columns(alias)
            columns += [f"{sql} AS {column}" for column, sql in pattern.outputs]
            carry_items, carried = self.carry(new_variables, context)
            order = self.row_order(outer, relation, alias, pattern.order_keys)
            selects.append(f"SELECT {select_list(columns + carry_items)}{order} AS __ord"
                           f" FROM {relation.sql} AS {alias}{from_items}{context.join_text()} WHERE {condition}")
            scan = None if number else self._node_scan(clause.paths, relation, pattern, context, condition)
        return Relation(f"({prefix}{' UNION ALL '.join(selects)})", relation.variables + new_variables,
                        relation.carried + carried, scan=scan)

    @staticmethod
    def _node_scan(paths: list[b.BoundPath], relation: Relation, pattern: PatternSql, context: SelectContext,
                   condition: str) -> NodeScan | None:
        """A pattern's matches as rows of `nodes` satisfying `condition` (`Relation.scan`): one node pattern,
        from the seed row (so the condition reads no input column), with no join and no selection."""
        if relation.sql != SEED_ROW or pattern.scan is None or pattern.selection is not None or context.joins:
            return None
        return NodeScan(paths[0].nodes[0].variable, pattern.scan, condition)

    def scan_context(self, scan: NodeScan) -> SelectContext:
        """A context over the scanned row itself (`Relation.scan`): the node variable is its id, and the node's
        properties and labels are its columns, read with no join."""
        context = SelectContext(self.catalog, self.parameters)
        context.counter = self.aliases
        context.tombstones = self.tombstones
        context.bind_variable(scan.variable, Term(f"{scan.alias}.id"))
        context.register_entity_alias("node", Term(f"{scan.alias}.id"), scan.alias)
        return context

    def _lookup_scans(self, relation: Relation, alias: str,
                      outer: SelectContext | None) -> tuple[LookupScans, ExpressionCompiler] | None:
        """The one scan of the node table per key lookup of the MATCH compiled now (ADR-0107), if it has
        any: not in a correlated subquery, whose rows a WITH cannot materialize."""
        lookups = kept(self.step.key_lookups, self.catalog) if outer is None or outer.detached else []
        if not lookups:
            return None
        bound = len(self.parameters.values)
        scans = lookup_scans(lookups, relation, alias,
                             lambda rows: ExpressionCompiler(self.context_for(rows, alias, outer), self), self.alias)
        if scans is None:
            self.parameters.truncate(bound)
        return scans

    def _level_source(self, relation: Relation, alias: str, outer: SelectContext | None) -> LevelSource | None:
        """`relation` as rows a level walk can read before the MATCH's SELECT runs: settled rows (a table) of
        a top-level clause."""
        if outer is not None or not relation.table:
            return None
        return LevelSource(relation.sql, alias, frozenset(id(variable) for variable in relation.variables))

    def _pattern(self, paths: list[b.BoundPath], relation: Relation, compiler: ExpressionCompiler,
                 where: b.BoundExpression | None, levels: LevelSource | None = None,
                 chains: dict[int, int] | None = None,
                 tables: dict[int, str] | None = None) -> tuple[PatternSql, str, str]:
        # the WHERE is the legacy shortest-path functions' pre-filter (PatternCompiler.compile's pre_filter)
        pattern = PatternCompiler(compiler, levels, chains, tables).compile(paths, pre_filter=where)
        conditions = list(pattern.conditions)
        if where is not None:
            conditions.append(compiler.boolean(where))
        condition = " AND ".join(f"({c})" for c in conditions) if conditions else "true"
        from_items = "".join(f" CROSS JOIN {item}" for item in pattern.from_items)
        return pattern, from_items, condition

    def pattern_rows(self, paths: list[b.BoundPath], relation: Relation, compiler: ExpressionCompiler,
                     alias: str, where: b.BoundExpression | None = None, *, dense: bool = True,
                     levels: LevelSource | None = None) -> tuple[str, NodeScan | None]:
        """SELECT of every match of `paths` per input row: `__parent` (the row's __ord), the new
        variables' columns and `__k`, an order among one row's matches: dense integers from 1 for writers
        that number rows with it (MERGE), else a composite key (no sort); and the matches as a scan of
        `nodes`, where they are one (`Relation.scan`)."""
        pattern, from_items, condition = self._pattern(paths, relation, compiler, where, levels)
        outputs = "".join(f"{sql} AS {column}, " for column, sql in pattern.outputs)
        if dense:
            order = f"row_number() OVER (ORDER BY {', '.join(key.order_by for key in pattern.order_keys) or '1'})"
        else:
            order = composite_order(pattern.order_keys) if pattern.order_keys else "1"
        select = (f"SELECT {alias}.__ord AS __parent, {outputs}{order} AS __k"
                  f" FROM {relation.sql} AS {alias}{from_items}{compiler.context.join_text()} WHERE {condition}"
                  f"{pattern.qualify(f'{alias}.__ord')}")
        return select, self._node_scan(paths, relation, pattern, compiler.context, condition)

    def _filter(self, relation: Relation, where: b.BoundExpression, outer: SelectContext | None) -> Relation:
        """The rows of `relation` that satisfy `where`, in their order."""
        alias = self.alias()
        context = self.context_for(relation, alias, outer)
        condition = ExpressionCompiler(context, self).boolean(where)
        columns = [f"{alias}.{v.column}" for v in relation.variables] + relation.carried_columns(alias)
        select = (f"SELECT {select_list(columns)}{alias}.__ord AS __ord"
                  f" FROM {relation.sql} AS {alias}{context.join_text()} WHERE {condition}")
        return Relation(f"({select})", relation.variables, relation.carried)

    def unwind(self, clause: b.BUnwind, relation: Relation, outer: SelectContext | None) -> Relation:
        alias = self.alias()
        context = self.context_for(relation, alias, outer)
        compiler = ExpressionCompiler(context, self)
        expression = clause.expression
        if _is_range(expression):
            list_sql = ""  # streamed by `range_rows`, never built
        elif expression.type.kind is Kind.LIST:
            list_sql = compiler.compile(expression)
        elif expression.type.kind is Kind.NULL:
            list_sql = "[]::VARIANT[]"
        elif is_variant(expression.type):
            list_sql = f"cy_unwind_list({compiler.compile(expression)})"
        else:
            list_sql = f"[{compiler.compile(expression)}]"
        columns = [f"{alias}.{v.column}" for v in relation.variables] + relation.carried_columns(alias)
        # Where no later clause reads the rows' order, the elements need no position (ADR-0098: DuckDB's
        # generate_subscripts and the subquery it needs cost ~10% of a short read).
        positioned = self.order_read(outer)
        if expression.type.kind is Kind.LIST and _row_read(expression):
            # A list read from the row: unnested in the SELECT list, which DuckDB plans and runs at about
            # half the cost of a correlated LATERAL join; reading it twice costs nothing and gives the same.
            columns.append(f"{alias}.__x AS {clause.variable.column}")
            position = f", generate_subscripts({list_sql}, 1) AS __i" if positioned else ""
            source = (f"(SELECT {alias}.*, unnest({list_sql}) AS __x{position}"
                      f" FROM {relation.sql} AS {alias}{context.join_text()})")
            order = self.row_order(outer, relation, alias, [OrderKey(f"{alias}.__i")])
            select = f"SELECT {select_list(columns)}{order} AS __ord FROM {source} AS {alias}"
        else:  # computed once per row (or once, for a parameter or literal: not correlated at all)
            unnest_alias = self.alias("u")
            columns.append(f"{unnest_alias}.x AS {clause.variable.column}")
            order = self.row_order(outer, relation, alias, [OrderKey(f"{unnest_alias}.i")])
            elements = (range_rows(compiler, expression) if _is_range(expression) else
                        f"SELECT unnest(l) AS x, generate_subscripts(l, 1) AS i FROM (SELECT {list_sql} AS l)"
                        if positioned else f"SELECT unnest({list_sql}) AS x")
            select = (f"SELECT {select_list(columns)}{order} AS __ord FROM {relation.sql} AS {alias}"
                      f"{context.join_text()}, LATERAL ({elements}) AS {unnest_alias}")
        return Relation(f"({select})", [*relation.variables, clause.variable], relation.carried)

    def load_csv(self, clause: b.BLoadCsv, relation: Relation, outer: SelectContext | None) -> Relation:
        """LOAD CSV: each input row joined to every line of the file, in the file's order. The file is read by
        DuckDB's CSV reader, every field as text (an empty one null); its path is the url resolved under the
        connection's import directory (`cy_csv_path`)."""
        alias, lines = self.alias(), self.alias("csv")
        context = self.context_for(relation, alias, outer)
        url = ExpressionCompiler(context, self).compile(clause.url)
        delimiter = self.parameters.text(clause.terminator)
        row = "(c)::VARIANT" if clause.headers else "[*COLUMNS(*)]"
        first_line = 2 if clause.headers else 1  # the header is line 1 (the manual, linenumber())
        source = (f"(SELECT {row} AS row, row_number() OVER () AS i FROM read_csv(cy_csv_path({url}),"
                  f" header = {'true' if clause.headers else 'false'}, all_varchar = true, delim = {delimiter},"
                  f" quote = '\"', escape = '\"', skip = 0, null_padding = true) AS c)")
        columns = [f"{alias}.{v.column}" for v in relation.variables] + relation.carried_columns(alias)
        columns.append(f"{lines}.row AS {clause.variable.column}")
        columns.append(f"{lines}.i + {first_line - 1} AS {clause.line_number.column}")
        # file(): the path in the import directory, as the manual's example prints it ('/artists.csv'), never
        # the machine's path to that directory
        columns.append(f"substr({url}, 8) AS {clause.file.column}")
        order = self.row_order(outer, relation, alias, [OrderKey(f"{lines}.i")])
        select = (f"SELECT {select_list(columns)}{order} AS __ord FROM {relation.sql} AS {alias}"
                  f"{context.join_text()}, {source} AS {lines}")
        return Relation(f"({select})", [*relation.variables, clause.variable, clause.line_number, clause.file],
                        relation.carried)

    def projection(self, clause: b.BProjection, relation: Relation, outer: SelectContext | None) -> Relation:
        return ProjectionCompiler(self, clause, relation, outer).compile()

    def call_subquery(self, clause: b.BCallSubquery, relation: Relation, outer: SelectContext | None) -> Relation:
        if clause.query.updating:
            raise UnsupportedFeature("a writing CALL subquery here", clause.span)
        alias = self.alias()
        context = self.context_for(relation, alias, outer)
        inner = self.compile_query(clause.query, self.seed(clause.imports, context), context)
        sub = self.alias("s")
        columns = [f"{alias}.{v.column}" for v in relation.variables] + [f"{sub}.{v.column}" for v in clause.returns]
        join = "LEFT JOIN LATERAL" if clause.optional else "CROSS JOIN LATERAL"
        on = " ON true" if clause.optional else ""
        select = (f"SELECT {select_list(columns)}{ascending_order(f'{alias}.__ord', f'{sub}.__ord')} AS __ord"
                  f" FROM {relation.sql} AS {alias} {join} {inner.sql} AS {sub}{on}")
        if not clause.returns:
            select = f"SELECT {alias}.* FROM {relation.sql} AS {alias}"
        return Relation(f"({select})", relation.variables + list(clause.returns))

    def call_procedure(self, clause: b.BCallProcedure, relation: Relation, outer: SelectContext | None) -> Relation:
        """Every input row joined with the procedure rows its arguments select, in table order."""
        procedure = clause.procedure
        if not procedure.outputs and not procedure.built_in:  # a void procedure: the rows stay as they were
            return relation
        alias = self.alias()
        context = self.context_for(relation, alias, outer)
        compiler = ExpressionCompiler(context, self)
        rows_alias = self.alias("p")
        conditions: list[str] = []
        if procedure.compile is not None:
            rows, conditions = compiled_rows(self, clause, compiler, rows_alias)
        elif procedure.build is not None:
            rows = procedure.build(ProcedureBuild(procedure, tuple(clause.arguments), compiler, clause.span))
        elif procedure.prepare is not None:
            rows = self.prepared_rows(clause)
        elif procedure.sql is not None:
            arguments = [compiler.compile_as(argument, field.type)
                         for argument, field in zip(clause.arguments, procedure.inputs, strict=True)]
            rows = procedure.sql(*arguments)
        else:
            rows = self._procedure_table(procedure)
        if not procedure.built_in:
            for argument, field in zip(clause.arguments, procedure.inputs, strict=True):
                stored = (f"{rows_alias}.{sql_identifier(field.name)}", field.type)
                equal = equality_sql(stored, (compiler.compile(argument), argument.type))
                conditions.append(f"coalesce({equal}, {stored[0]} IS NULL AND ({compiler.compile(argument)}) IS NULL)")
        columns = [f"{alias}.{v.column}" for v in relation.variables]
        columns += [f"{rows_alias}.{sql_identifier(name)} AS {variable.column}" for name, variable in clause.yields]
        where = " AND ".join(conditions) or "true"
        select = (f"SELECT {select_list(columns)}{ascending_order(f'{alias}.__ord', f'{rows_alias}.__i')} AS __ord"
                  f" FROM {relation.sql} AS {alias}{context.join_text()} CROSS JOIN LATERAL"
                  f" (SELECT * FROM {rows} AS q WHERE true) AS {rows_alias} WHERE {where}")
        result = Relation(f"({select})", relation.variables + [variable for _, variable in clause.yields])
        if clause.where is None:
            return result
        filter_alias = self.alias()
        filter_context = self.context_for(result, filter_alias, outer)
        condition = ExpressionCompiler(filter_context, self).boolean(clause.where)
        return Relation(f"(SELECT * FROM {result.sql} AS {filter_alias}{filter_context.join_text()}"
                        f" WHERE {condition})", result.variables)

    def _procedure_table(self, procedure: Procedure) -> str:
        """A table-backed procedure's rows as a relation with typed columns and `__i`, the row order."""
        fields = [*procedure.inputs, *procedure.outputs]
        if not procedure.rows:
            columns = ", ".join(f"NULL::{sql_type(f.type)} AS {sql_identifier(f.name)}" for f in fields)
            return f"(SELECT {columns}{', ' if columns else ''}0 AS __i WHERE false)"
        rows = [{f.name: row.get(f.name) for f in fields} for row in procedure.rows]
        value = self.parameters.bind(rows, t.list_of(t.record([(f.name, f.type) for f in fields])))
        return (f"(SELECT unnest(l, recursive := true), generate_subscripts(l, 1) AS __i"
                f" FROM (SELECT {value} AS l))")

    # -- whole queries -----------------------------------------------------------------------------

    def seed(self, imports: tuple[Variable, ...], outer: SelectContext) -> Relation:
        """A one-row relation holding the outer row's imported variables (correlated on it)."""
        columns = ["1::BIGINT AS __ord"] + [f"{outer.variable_sql(v)} AS {v.column}" for v in imports]
        return Relation(f"(SELECT {', '.join(columns)})", list(imports), constant_order=True)

    def compile_query(self, query: b.BoundQuery, seed: Relation, outer: SelectContext | None, *,
                      counted: bool = True, final: bool = False, ordered: bool = True) -> Relation:
        """A subquery's SELECT. `counted`: whether the rows' number is read (not for EXISTS, which only asks
        whether there is one); `final`: its rows go straight to a COLLECT's list, ordered by
        `Relation.order`; `ordered`: whether their order is read (not for COUNT and EXISTS)."""
        final = final and len(query.parts) == 1
        parts = [self.compile_single(part, seed, outer, counted=counted, final=final, ordered=ordered)
                 for part in query.parts]
        if len(parts) == 1:
            return parts[0]
        return Relation(f"({union_select(query, parts)})", list(query.output))

    def compile_single(self, query: b.BoundSingleQuery, seed: Relation, outer: SelectContext | None, *,
                       counted: bool = True, final: bool = False, ordered: bool = True) -> Relation:
        relation = seed
        for step in plan_subquery(query, counted=counted, final=final, ordered=ordered):
            relation = self.read_clause(step, relation, outer)
        return relation

    def subquery_sql(self, node: b.BSubquery, outer: SelectContext) -> str:
        decorrelated = self._subquery_for_all_rows(node, outer)
        if decorrelated is not None:
            return decorrelated
        self.correlated_subqueries += 1
        relation = self.compile_query(node.query, self.seed(node.imports, outer), outer,
                                      counted=node.kind != "exists", final=node.kind == "collect",
                                      ordered=node.kind == "collect")
        if node.kind == "exists":
            return f"EXISTS (SELECT 1 FROM {relation.sql})"
        if node.kind == "count":
            return f"(SELECT count(*) FROM {relation.sql})"
        column = node.query.output[0].column
        element = node.type.element or t.ANY
        return (f"coalesce((SELECT list({column} ORDER BY {relation.order}) FROM {relation.sql}),"
                f" []::{sql_type(element)}[])")


    def _subquery_for_all_rows(self, node: b.BSubquery, outer: SelectContext) -> str | None:
        """The subquery run once over every outer row of a projection (decorrelate.py): its rows, grouped
        by the imported values, LEFT JOINed to the projection's rows; None when it must stay correlated."""
        shared = outer.shared
        if shared is None or any(outer.variable_sql(k) != f"{shared.alias}.{k.column}" for k in node.imports):
            return None
        query = keyed_query(node.query, node.imports)
        if query is None:
            return None
        keys = [k.column for k in node.imports]
        seed = Relation(shared.distinct_keys(tuple(keys), self.alias("k")), list(node.imports), constant_order=True)
        detached = SelectContext(self.catalog, self.parameters, detached=True)
        detached.counter = self.aliases
        relation = self.compile_query(query, seed, detached, counted=node.kind != "exists",
                                      final=node.kind == "collect", ordered=node.kind == "collect")
        group = ", ".join(keys)
        alias = self.alias("c")
        if node.kind == "exists":
            # a null key's group joins too: test a column every group row has
            rows, value = f"SELECT DISTINCT {group}, true AS __hit", f"({alias}.__hit IS NOT NULL)"
        elif node.kind == "count":
            rows, value = f"SELECT {group}, count(*) AS __n", f"coalesce({alias}.__n, 0)"
        else:
            column = node.query.output[0].column
            element = node.type.element or t.ANY
            rows = f"SELECT {group}, list({column} ORDER BY {relation.order}) AS __v"
            value = f"coalesce({alias}.__v, []::{sql_type(element)}[])"
        group_by = "" if node.kind == "exists" else f" GROUP BY {group}"
        on = " AND ".join(f"{alias}.{k} IS NOT DISTINCT FROM {shared.alias}.{k}" for k in keys)
        outer.joins.append(f"LEFT JOIN ({rows} FROM {relation.sql}{group_by}) AS {alias} ON {on}")
        return value


def union_select(query: b.BoundQuery, relations: list[Relation], partition: str | None = None) -> str:
    """The parts of a UNION, in order, renamed to the first part's columns (deduplicated unless ALL).
    With `partition` (a column every part carries: the outer row of a CALL subquery run for all outer
    rows at once), each partition is its own UNION: rows are ordered and deduplicated within it."""
    output = query.output
    carried = [partition] if partition else []
    selects = []
    for index, (part, relation) in enumerate(zip(query.parts, relations, strict=True)):
        # each part's values in the representation of the query's column type (a VARIANT where kinds differ)
        columns = "".join(f"{convert(v.column, v.type, target.type)} AS {target.column}, "
                          for v, target in zip(part.output, output, strict=True))
        # each part's order as dense integers: the parts' composite keys differ in type
        selects.append(f"SELECT {select_list(carried)}{columns}{index} AS __part,"
                       f" row_number() OVER (ORDER BY __ord) AS __part_ord FROM {relation.sql}")
    union = " UNION ALL ".join(selects)
    names = select_list(carried + [v.column for v in output])
    order = ", ".join([*carried, "__part", "__part_ord"])
    select = f"SELECT {names}row_number() OVER (ORDER BY {order}) AS __ord FROM ({union})"
    if all(query.union_all):
        return select
    keys = "".join(f", {group_key(v.column, v.type)} AS __d{i}" for i, v in enumerate(output))
    distinct = ", ".join([*carried, *(f"__d{i}" for i in range(len(output)))]) or "1"
    return (f"SELECT {names}row_number() OVER (ORDER BY {order}) AS __ord FROM (SELECT *{keys}"
            f" FROM ({union})) QUALIFY row_number() OVER (PARTITION BY {distinct} ORDER BY __part, __part_ord) = 1")




CHAIN_MAX = 3
"""A variable-length relationship with an upper bound up to this compiles as joins, one SELECT per length
(ADR-0037): a plain join of three relationships costs DuckDB half what the recursive walk does."""
CHAIN_SELECTS = 8
"""The most SELECTs a MATCH is cut into (one per combination of its hops' lengths)."""


def chain_lengths(paths: list[b.BoundPath]) -> list[dict[int, int]]:
    """The lengths a MATCH without a path selector compiles its short variable-length hops to: one mapping
    (hop id -> length) per SELECT, or one empty mapping (the walks as they are). A hop is a new
    variable-length relationship, or a quantified relationship of a trail (`-[:T]->{1,3}`: one anonymous
    relationship between anonymous nodes, its map reading no variable), bounded by CHAIN_MAX."""
    hops = [(link, bounds) for path in paths for link in path.relationships
            if (bounds := _short_hop(link, path.mode)) is not None]
    variants: list[dict[int, int]] = [{}]
    for hop, (low, high) in hops:
        variants = [{**variant, id(hop): length} for variant in variants for length in range(low, high + 1)]
    return variants if 0 < len(variants) <= CHAIN_SELECTS else [{}]


def _short_hop(link: b.BoundRelationship | b.BoundGroup, mode: str) -> tuple[int, int] | None:
    """The length bounds of a hop `chain_lengths` may join, else None."""
    if isinstance(link, b.BoundRelationship):
        if link.length is None or not link.is_new or link.length[1] is None or link.length[1] > CHAIN_MAX:
            return None
        return link.length[0], link.length[1]
    plain = (mode == "trail" and len(link.relationships) == 1 and link.where is None and not link.group_variables
             and link.high is not None and link.high <= CHAIN_MAX
             and all(node.variable.anonymous and node.labels is None and node.properties is None
                     and node.where is None for node in link.nodes)
             and link.relationships[0].variable.anonymous and link.relationships[0].where is None
             and not _reads_variables(link.relationships[0].properties))
    return (link.low, link.high) if plain else None


def _reads_variables(expression: b.BoundExpression | None) -> bool:
    """Whether a property map reads a variable (`{w: a.w}`): joined hops compile it apart from the rows, so
    such a quantified relationship takes the walk, whose step reads the row."""
    return expression is not None and any(isinstance(node, b.BVariable) for node in b.walk(expression))


def _new_variables(paths: list[b.BoundPath], existing: list[Variable]) -> list[Variable]:
    known = {id(v) for v in existing}
    result: list[Variable] = []
    for path in paths:
        elements: list[Variable] = [n.variable for n in path.nodes]
        for link in path.relationships:
            if isinstance(link, b.BoundGroup):
                elements.extend(outer for _, outer in link.group_variables)
            else:
                elements.append(link.variable)
        if path.variable is not None:
            elements.append(path.variable)
        for variable in elements:
            if not variable.anonymous and id(variable) not in known:
                known.add(id(variable))
                result.append(variable)
    return result


StepHandler = Callable[[QueryCompiler, b.BoundClause, Relation, SelectContext | None], Relation]
STEP_SQL: dict[type, StepHandler] = {
    b.BMatch: QueryCompiler.match,
    b.BUnwind: QueryCompiler.unwind,
    b.BLoadCsv: QueryCompiler.load_csv,
    b.BProjection: QueryCompiler.projection,
    b.BCallSubquery: QueryCompiler.call_subquery,
    b.BCallProcedure: QueryCompiler.call_procedure,
}


def _is_range(expression: b.BoundExpression) -> bool:
    """Whether UNWIND's list is a call of range() over literals and parameters, whose rows `range_rows` streams
    without building the list."""
    return (isinstance(expression, b.BFunction) and expression.name == "range"
            and all(is_constant(argument) for argument in expression.arguments))


def _row_read(expression: b.BoundExpression) -> bool:
    """Whether `expression` only reads a value of the row: a variable, or a property or constant index of
    one. Such a value is cheap and the same however often it is evaluated (no function, no subquery)."""
    if isinstance(expression, b.BVariable):
        return True
    if isinstance(expression, b.BProperty):
        return _row_read(expression.subject)
    if isinstance(expression, b.BIndex):
        return isinstance(expression.index, b.BLiteral) and _row_read(expression.subject)
    return False
