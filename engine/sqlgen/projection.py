"""WITH and RETURN: projected items, aggregation (grouping keys, DISTINCT aggregates), DISTINCT, ORDER BY,
SKIP and LIMIT, and a WITH's WHERE, over the relation before them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import types as t
from engine.errors import UnsupportedFeature
from engine.plan.rules.order_demand import PLAIN_GROUP_KINDS, group_order_demanded, input_demanded
from engine.semantic import bound as b
from engine.semantic.scope import Variable
from engine.sqlgen import runtime_temporal as rt
from engine.sqlgen.context import SelectContext
from engine.sqlgen.decorrelate import SharedRows
from engine.sqlgen.expressions import ExpressionCompiler, to_variant
from engine.sqlgen.keys import group_key, keys_itself, sort_key_parts, sorts_itself, unchanged
from engine.sqlgen.order import UNORDERED
from engine.sqlgen.relation import Carried, Relation
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.sql import Term, select_list
from engine.sqlgen.temporal_values import duration_aggregate
from engine.types import Kind, is_variant, sql_type

if TYPE_CHECKING:
    from engine.sqlgen.generator import QueryCompiler


class ProjectionCompiler:
    """WITH / RETURN: items (grouped when aggregating), DISTINCT, ORDER BY, SKIP, LIMIT, then WHERE."""

    def __init__(self, queries: QueryCompiler, clause: b.BProjection, relation: Relation,
                 outer: SelectContext | None) -> None:
        self.queries = queries
        self.clause = clause
        self.relation = relation
        self.outer = outer
        # Without aggregation or DISTINCT, ORDER BY and WITH ... WHERE may read the variables from before
        # the projection: carry them along until those steps are done.
        self.new_variables = [item.variable for item in clause.items]
        projected = {id(v) for v in self.new_variables}  # a subquery's key is carried as an item (decorrelate.py)
        self.carried = [v for v in relation.variables if id(v) not in projected] if (
            not clause.aggregating and not clause.distinct and (clause.order_by or clause.where)) else []

    def compile(self) -> Relation:
        clause = self.clause
        current = self._aggregated_items() if clause.aggregating else self._plain_items()
        one_row = current.one_row  # DISTINCT, ORDER BY, SKIP, LIMIT and WHERE below add no row
        if clause.distinct and self._distinct_without_order():
            # no order to keep and every value its own key: plain SELECT DISTINCT, no window
            columns = ", ".join(v.column for v in current.variables)
            current = Relation(f"(SELECT DISTINCT {columns}, {UNORDERED} AS __ord FROM {current.sql})",
                               current.variables)
        elif clause.distinct:
            current = _first_per_key(self.queries, current, [item.variable for item in clause.items])
        current = self._order_and_page(current)
        if clause.where is not None:
            alias = self.queries.alias()
            context = self.queries.context_for(current, alias, self.outer)
            condition = ExpressionCompiler(context, self.queries).boolean(clause.where)
            current = Relation(
                f"(SELECT {select_list([f'{alias}.{v.column}' for v in self.new_variables])}"
                f"{alias}.__ord AS __ord FROM {current.sql} AS {alias}"
                f"{context.join_text()} WHERE {condition})", self.new_variables)
        return Relation(current.sql, self.new_variables, current.carried_for(self.new_variables), current.order,
                        table=current.table, one_row=one_row)

    def _numbers_rows(self, context: SelectContext, alias: str) -> bool:
        """Whether the items make virtual elements, whose ids read the rows' numbers (ADR-0074): then the rows
        read, numbered in their order as column `__vrow`, are the context's `row_number`. Not in a correlated
        subquery, whose rows would be numbered per outer row (making one there is refused)."""
        if not b.makes_virtual(self.clause.items) or not (self.outer is None or self.outer.detached):
            return False
        context.row_number = f"{alias}.__vrow"
        return True

    def _distinct_without_order(self) -> bool:
        """Whether DISTINCT may keep any row of each set of equal ones: nothing reads their order, and each
        value is its own grouping key."""
        clause = self.clause
        return bool(clause.items) and self.outer is None and not input_demanded(clause, self.queries.ordered) \
            and all(item.variable.type.kind in PLAIN_GROUP_KINDS for item in clause.items)

    def _plain_items(self) -> Relation:
        alias = self.queries.alias()
        context = self.queries.context_for(self.relation, alias, self.outer)
        source, table = self.relation.sql, self.relation.table
        if self._numbers_rows(context, alias):
            source, table = f"(SELECT *, {ROW_NUMBER} AS __vrow FROM {source})", False
        if self.outer is None or self.outer.detached:  # the rows are not correlated: subqueries may share them
            shared_source = source if table else self.queries.alias("w")
            context.shared = SharedRows(shared_source, alias)
        compiler = ExpressionCompiler(context, self.queries)
        items = [f"{compiler.compile(item.expression)} AS {item.variable.column}" for item in self.clause.items]
        prefix = ""
        if context.shared is not None and context.shared.used:
            ctes = context.shared.ctes()
            if context.shared.source != source:
                ctes.insert(0, f"{context.shared.source} AS MATERIALIZED {source}")
                source = context.shared.source
            prefix = f"WITH {', '.join(ctes)} "
        carried = [f"{alias}.{v.column}" for v in self.carried] + self.relation.carried_columns(alias, self.carried)
        entity_columns = self.relation.carried_for(self.carried)
        for item in self.clause.items:  # `WITH n`, `WITH n AS m`: the new variable carries what n carried
            if isinstance(item.expression, b.BVariable):
                for old in self.relation.carried_for([item.expression.variable]):
                    renamed = Carried(item.variable, old.entity, old.column)
                    items.append(f"{alias}.{old.name} AS {renamed.name}")
                    entity_columns.append(renamed)
        select = (f"{prefix}SELECT {select_list(carried + items)}{alias}.__ord AS __ord"
                  f" FROM {source} AS {alias}{context.join_text()}")
        return Relation(f"({select})", self.carried + self.new_variables, entity_columns)

    def _aggregated_items(self) -> Relation:
        clause = self.clause
        alias = self.queries.alias()
        context = self.queries.context_for(self.relation, alias, self.outer)
        compiler = ExpressionCompiler(context, self.queries)
        grouping = [item for item in clause.items if not b.aggregates_in(item.expression)]
        aggregates = b.aggregates_in([item.expression for item in clause.items])
        inputs: list[str] = [f"{alias}.__ord AS __ord"]
        group_columns: list[str] = []
        for index, item in enumerate(grouping):
            inputs.append(f"{compiler.compile(item.expression)} AS g{index}")
            group_columns.append(f"g{index}")
        for index, aggregate in enumerate(aggregates):
            if aggregate.argument is not None:
                inputs.append(f"{compiler.compile(aggregate.argument)} AS a{index}")
            added = AGGREGATE_SQL.get(aggregate.name)
            if added is not None:
                inputs += [f"{added.extra[min(j, len(added.extra) - 1)](compiler, extra)} AS a{index}_{j}"
                           for j, extra in enumerate(aggregate.extra)]
        group_keys = [group_key(f"g{index}", item.expression.type) for index, item in enumerate(grouping)]
        percentiles = {}
        for index, aggregate in enumerate(aggregates):
            if aggregate.name in AGGREGATE_SQL:
                continue
            if aggregate.extra and isinstance(aggregate.extra[0], b.BLiteral | b.BParameter):
                percentiles[index] = compiler.compile(aggregate.extra[0])
            elif aggregate.extra:
                # A percentile that varies by row: check its range (Neo4j's error), refuse the rest.
                inputs.append(f"{compiler.number(aggregate.extra[0])} AS p{index}")
                percentiles[index] = VARYING_PERCENTILE
        layer0 = f"(SELECT {', '.join(inputs)} FROM {self.relation.sql} AS {alias}{context.join_text()})"
        # count(DISTINCT x) of a value that is its own key is SQL's; the other DISTINCT aggregates flag
        # each value's first row (collect keeps that row's place)
        plain_counts = {index for index, aggregate in enumerate(aggregates) if aggregate.name == "count"
                        and aggregate.distinct and aggregate.argument is not None
                        and keys_itself(aggregate.argument.type)}
        distinct = [(index, aggregate) for index, aggregate in enumerate(aggregates)
                    if aggregate.distinct and aggregate.argument is not None and index not in plain_counts]
        if distinct:
            keyed = "".join(f", {key} AS gk{i}" for i, key in enumerate(group_keys))
            keyed += "".join(f", {group_key(f'a{index}', aggregate.argument.type)} AS ak{index}"
                             for index, aggregate in distinct)
            group_columns = [f"gk{i}" for i in range(len(group_keys))]
            flags = "".join(
                f", row_number() OVER (PARTITION BY {', '.join([*group_columns, f'ak{index}'])}"
                f" ORDER BY __ord) = 1 AS d{index}" for index, _ in distinct)
            layer0 = f"(SELECT *{flags} FROM (SELECT *{keyed} FROM {layer0}))"
        outputs = [f"g{index}" if keys_itself(item.expression.type) else f"arg_min(g{index}, __ord) AS g{index}"
                   for index, item in enumerate(grouping)]
        outputs += [f"count(DISTINCT a{index}) AS a{index}" if index in plain_counts else
                    f"{_aggregate_sql(aggregate, index, percentiles.get(index, '0.5'))} AS a{index}"
                    for index, aggregate in enumerate(aggregates)]
        ordered = self.outer is not None or group_order_demanded(clause, self.queries.ordered) \
            or b.makes_virtual(clause.items)  # its virtual elements' ids follow the groups' order
        outputs.append("min(__ord) AS __ord" if ordered else f"{UNORDERED} AS __ord")
        group_by = f" GROUP BY {', '.join(group_keys)}" if group_keys else ""
        layer1 = f"(SELECT {', '.join(outputs)} FROM {layer0}{group_by})"
        if not group_keys:
            layer1 = f"(SELECT * REPLACE (1::BIGINT AS __ord) FROM {layer1})"
        final_alias = self.queries.alias()
        final_context = SelectContext(self.queries.catalog, self.queries.parameters)
        final_context.counter = self.queries.aliases
        if self._numbers_rows(final_context, final_alias):
            layer1 = f"(SELECT *, {ROW_NUMBER} AS __vrow FROM {layer1})"
        final_context.aggregates = {id(aggregate): f"{final_alias}.a{index}"
                                    for index, aggregate in enumerate(aggregates)}
        for index, item in enumerate(grouping):
            final_context.bind_variable(item.variable, Term(f"{final_alias}.g{index}"))
        final_compiler = ExpressionCompiler(final_context, self.queries)
        columns = []
        grouping_index = {id(item): index for index, item in enumerate(grouping)}
        for item in clause.items:
            if id(item) in grouping_index:
                columns.append(f"{final_alias}.g{grouping_index[id(item)]} AS {item.variable.column}")
            else:
                columns.append(f"{final_compiler.compile(item.expression)} AS {item.variable.column}")
        select = (f"SELECT {select_list(columns)}{final_alias}.__ord AS __ord FROM {layer1} AS {final_alias}"
                  f"{final_context.join_text()}")
        return Relation(f"({select})", [item.variable for item in clause.items], one_row=not group_keys)

    def _order_and_page(self, relation: Relation) -> Relation:
        clause = self.clause
        if not clause.order_by and clause.skip is None and clause.limit is None:
            return relation
        alias = self.queries.alias()
        context = self.queries.context_for(relation, alias, self.outer)
        compiler = ExpressionCompiler(context, self.queries)
        parts = [sort_key_parts(compiler.compile(item.expression), item.expression.type) for item in clause.order_by]
        new_variables = relation.variables
        carried = relation.carried_columns(alias)
        # NULLS FIRST / LAST as written: a flag of its own, as a cy_key sorts null among the other values
        nulls = [f"({value}) IS NULL AS __z{i}" for i, ((value, _), item) in enumerate(zip(parts, clause.order_by,
                                                                                        strict=True))
                 if item.nulls_first is not None]
        keyed = (f"(SELECT {select_list([f'{alias}.{v.column}' for v in new_variables] + carried)}"
                 f"{select_list([f'{value} AS __s{i}' for i, (value, _) in enumerate(parts)] + nulls)}"
                 f"{alias}.__ord AS __ord FROM {relation.sql} AS {alias}{context.join_text()})")
        keys = [f"{key(f'__s{i}')} AS __s{i}" for i, (_, key) in enumerate(parts) if key is not unchanged]
        if keys:  # taken above the values (`sort_key_parts`), below the window that orders by them
            keyed = f"(SELECT * REPLACE ({', '.join(keys)}) FROM {keyed})"
        directions = [f"{'DESC' if item.descending else 'ASC'} NULLS {'FIRST' if item.nulls_sort_first else 'LAST'}"
                      for item in clause.order_by]
        order = ", ".join([*[(f"__z{i} {'DESC' if item.nulls_first else 'ASC'}, " if item.nulls_first is not None
                               else "") + f"__s{i} {d}"
                              for i, (d, item) in enumerate(zip(directions, clause.order_by, strict=True))], "__ord"])
        if self._top_rows_apply(relation):
            terms: list[tuple[str, str]] = []
            for i, (d, item) in enumerate(zip(directions, clause.order_by, strict=True)):
                if item.nulls_first is not None:
                    terms.append((f"__z{i}", f"{'DESC' if item.nulls_first else 'ASC'} NULLS LAST"))
                terms.append((f"__s{i}", d))
            return self._top_rows(keyed, relation, compiler, [*terms, ("__ord", "ASC NULLS LAST")])
        paging = ""
        if clause.limit is not None:
            paging += f" LIMIT {compiler.integer(clause.limit)}"
        if clause.skip is not None:
            paging += f" OFFSET {compiler.integer(clause.skip)}"
        if paging:  # the rows SKIP / LIMIT keep first (a top-n, not a full sort), then their numbers
            keyed = f"(SELECT * FROM {keyed} ORDER BY {order}{paging})"
        if self.queries.step.final:
            return Relation(keyed, new_variables, relation.carried, order=order)
        columns = [v.column for v in new_variables] + [c.name for c in relation.carried]
        inner = f"(SELECT {select_list(columns)}row_number() OVER (ORDER BY {order}) AS __ord FROM {keyed})"
        return Relation(inner, new_variables, relation.carried)

    def _top_rows_apply(self, relation: Relation) -> bool:
        """Whether the first rows LIMIT keeps (after SKIP) are taken by `_top_rows`: under an outer row, with
        a LIMIT and SKIP written as literals whose sum arg_min takes (1 to TOP_ROWS_MAX - 1). A parameter's
        value may change while the compiled SQL is kept (statement_cache.py), so it keeps ORDER BY ... LIMIT."""
        clause = self.clause
        if self.outer is None or self.outer.detached or not isinstance(clause.limit, b.BLiteral):
            return False
        if clause.skip is not None and not isinstance(clause.skip, b.BLiteral):
            return False
        rows = clause.limit.value + (clause.skip.value if clause.skip is not None else 0)
        return 0 < rows < TOP_ROWS_MAX and bool(relation.variables or relation.carried)

    def _top_rows(self, keyed: str, relation: Relation, compiler: ExpressionCompiler,
                  terms: list[tuple[str, str]]) -> Relation:
        """The rows SKIP and LIMIT keep of `keyed`, numbered in their order, as one aggregate: the
        `skip + limit` first rows by a sort key of the ORDER BY's terms and `__ord` (`create_sort_key` orders
        as ORDER BY does), kept by `arg_min` in that order. Under an outer row DuckDB runs a LIMIT as a window
        partitioned by the outer row, and the rows' numbers as another; the aggregate costs it less
        (ADR-0112). No input row gives a null list, which unnests to no row, as the LIMIT keeps none."""
        clause = self.clause
        columns = [v.column for v in relation.variables] + [c.name for c in relation.carried]
        count = compiler.integer(clause.limit)
        skip = compiler.integer(clause.skip) if clause.skip is not None else None
        if skip is not None:
            count = f"{count} + {skip}"
        pack = ", ".join(f"{column} := {column}" for column in columns)
        key = ", ".join(f"{term}, '{modifiers}'" for term, modifiers in terms)
        top = f"arg_min(struct_pack({pack}), create_sort_key({key}), {count})"
        rows = (f"(SELECT unnest(__top) AS __r, generate_subscripts(__top, 1) AS __ord"
                f" FROM (SELECT {top} AS __top FROM {keyed}))")
        kept = f" WHERE __ord > {skip}" if skip is not None else ""
        select = f"(SELECT {select_list([f'__r.{column} AS {column}' for column in columns])}__ord FROM {rows}{kept})"
        return Relation(select, relation.variables, relation.carried)


def _first_per_key(queries: QueryCompiler, relation: Relation, variables: list[Variable]) -> Relation:
    """The first row (by __ord) of each group of equal keys of `variables`; keys are computed below the
    window because DuckDB refuses volatile expressions (the runtime's error branches) inside OVER(). When
    every value is its own key, a GROUP BY with min(), a third cheaper than the window (which DuckDB plans
    as an arg_min carrying every column)."""
    columns = [v.column for v in relation.variables]
    if all(keys_itself(v.type) for v in variables) and list(map(id, variables)) == list(map(id, relation.variables)):
        return Relation(f"(SELECT {select_list(columns)}min(__ord) AS __ord FROM {relation.sql} GROUP BY ALL)",
                        relation.variables)
    keys = [group_key(v.column, v.type) for v in variables]
    alias = queries.alias()
    key_columns = select_list([f"{key} AS __d{i}" for i, key in enumerate(keys)])
    partition = ", ".join(f"__d{i}" for i in range(len(keys))) or "1"
    columns = ", ".join([*(v.column for v in relation.variables), "__ord"])
    return Relation(f"(SELECT {columns} FROM (SELECT {alias}.*, {key_columns}1 AS __one FROM {relation.sql}"
                    f" AS {alias}) QUALIFY row_number() OVER (PARTITION BY {partition} ORDER BY __ord) = 1)",
                    relation.variables)


TOP_ROWS_MAX = 1_000_000
"""DuckDB's arg_min takes fewer rows than this."""

ROW_NUMBER = "row_number() OVER (ORDER BY __ord)"
"""The rows' numbers in their order, which the ids of the virtual elements they make read (ADR-0074)."""

VARYING_PERCENTILE = "<varying>"

InputSql = Callable[[ExpressionCompiler, b.BoundExpression], str]


@dataclass(frozen=True)
class AggregateSql:
    """The SQL of an aggregate a feature package adds (APOC's). The first argument is column `a<i>` in its own
    representation; each further one is compiled per row by its converter in `extra` (the last converter
    serves any further arguments), as column `a<i>_<j>`. `build(aggregate, columns, distinct)` is the
    aggregate over those columns; `distinct` is ` AND d<i>` under DISTINCT (a row counts when it holds its
    value's first occurrence), else empty. The input rows carry `__ord`, their order, when the aggregate is
    order sensitive (`semantic.functions.register_aggregates`)."""

    extra: tuple[InputSql, ...]
    build: Callable[[b.BAggregate, list[str], str], str]


AGGREGATE_SQL: dict[str, AggregateSql] = {}
"""The aggregates feature packages add, by lower-case name (`register_aggregates`)."""


def register_aggregates(entries: Mapping[str, AggregateSql]) -> None:
    """SQL for the aggregates a feature package adds; registered by the composition root (engine/plugins)."""
    AGGREGATE_SQL.update(entries)


def _aggregate_sql(aggregate: b.BAggregate, index: int, percentile: str = "0.5") -> str:
    """SQL of one aggregate over layer-0 column a<index> (d<index>: first occurrence, for DISTINCT)."""
    column = f"a{index}"
    argument_type = aggregate.argument.type if aggregate.argument is not None else t.ANY
    distinct = f" AND d{index}" if aggregate.distinct else ""
    name = aggregate.name
    added = AGGREGATE_SQL.get(name)
    if added is not None:
        return added.build(aggregate, [column, *(f"{column}_{j}" for j in range(len(aggregate.extra)))], distinct)
    if name == "count":
        if aggregate.argument is None:
            return "count(*)"
        return f"count(*) FILTER (WHERE {column} IS NOT NULL{distinct})"
    if name == "collect":
        element = aggregate.type.element or t.ANY
        return (f"coalesce(list({column} ORDER BY __ord) FILTER (WHERE {column} IS NOT NULL{distinct}),"
                f" []::{sql_type(element)}[])")
    filter_clause = f" FILTER (WHERE {column} IS NOT NULL{distinct})"
    kind = argument_type.kind
    if kind is Kind.DURATION and name in ("sum", "avg"):
        return duration_aggregate(name, column, filter_clause)
    if name == "sum":
        numeric = _sum(aggregate, column, argument_type, distinct, filter_clause)
        return numeric if kind is Kind.INTEGER or kind is Kind.FLOAT else \
            _numbers_or_durations(aggregate, column, argument_type, distinct, filter_clause, numeric)
    if name == "avg":
        numeric = f"avg({numbers(aggregate, column, argument_type)}){filter_clause}"
        return numeric if kind is Kind.INTEGER or kind is Kind.FLOAT else _numbers_or_durations(
            aggregate, column, argument_type, distinct, filter_clause, f"({numeric})::VARIANT")
    if name in ("min", "max"):
        # Cypher's order across types (ORDER BY's): the value with the least or greatest sort key
        if sorts_itself(argument_type):
            return f"{name}({column}){filter_clause}"
        value, key = sort_key_parts(column, argument_type)
        return f"arg_{name}({column}, {key(value)}){filter_clause}"
    if name in ("stdev", "stdevp"):
        function = "stddev_samp" if name == "stdev" else "stddev_pop"
        return f"coalesce({function}({numbers(aggregate, column, argument_type)}){filter_clause}, 0.0)"
    if name in ("percentilecont", "percentiledisc"):
        value = numbers(aggregate, column, argument_type)
        function = "quantile_cont" if name == "percentilecont" else "quantile_disc"
        if percentile == VARYING_PERCENTILE:
            out_of_range = error_sql("ArgumentError", "NumberOutOfRange",
                                     f"'{aggregate.name}() needs a percentile between 0.0 and 1.0'")
            varying = error_sql("UnsupportedFeature", "Unsupported",
                                f"'{aggregate.name}() with a percentile that differs between rows'")
            return (f"CAST(CASE WHEN max(p{index}) > 1 OR min(p{index}) < 0 THEN {out_of_range}"
                    f" ELSE {varying} END AS {sql_type(aggregate.type)})")
        if name == "percentiledisc" and is_variant(aggregate.type):
            # the value picked, an integer or a float as it was: ordered by value, integers kept beside
            variant = to_variant(column, argument_type)
            integer = f"CASE WHEN cy_kind({variant}) = 2 THEN TRY_CAST({variant} AS BIGINT) END"
            picked = f"quantile_disc(struct_pack(d := {value}, i := {integer}), {percentile}){filter_clause}"
            return f"coalesce(({picked}).i::VARIANT, ({picked}).d::VARIANT)"
        return f"{function}({value}, {percentile}){filter_clause}"
    raise UnsupportedFeature(f"aggregate {name}()", aggregate.span)


AGGREGATE_NAMES = {"stdev": "stDev", "stdevp": "stDevP", "percentilecont": "percentileCont",
                   "percentiledisc": "percentileDisc"}
"""How Cypher spells the aggregates whose canonical name is not their lower-case spelling, for messages."""


def numbers(aggregate: b.BAggregate, column: str, argument_type: t.CypherType) -> str:
    """The aggregate's input as SQL numbers: a column of numbers as it is; any other value, whose type the
    query text leaves open, checked row by row: a value that is no number is a TypeError naming the function
    (sum() and avg() of durations known as such when the statement compiles are `duration_aggregate`'s)."""
    if argument_type.kind in (Kind.INTEGER, Kind.FLOAT):
        return column
    value = to_variant(column, argument_type)
    name = AGGREGATE_NAMES.get(aggregate.name, aggregate.name)
    durations = aggregate.name in ("sum", "avg")
    failure = error_sql("TypeError", "InvalidArgumentType", f"'{name}() expects numbers"
                        f"{' or durations' if durations else ''}, got ' || cy_type_name({value})")
    return (f"CASE WHEN cy_kind({value}) IN (2, 3) THEN TRY_CAST({value} AS DOUBLE)"
            f" WHEN cy_kind({value}) = 0 THEN NULL"
            f"{f' WHEN cy_kind({value}) = {DURATION_KIND} THEN NULL' if durations else ''} ELSE {failure} END")


DURATION_KIND = 15
"""`cy_kind()` of a DURATION held in a VARIANT."""


def _numbers_or_durations(aggregate: b.BAggregate, column: str, argument_type: t.CypherType, distinct: str,
                          filter_clause: str, numeric: str) -> str:
    """sum() or avg() over values whose type only the rows tell (a property that is a duration on some nodes):
    `numeric` (a VARIANT, durations read as null) when no duration is among them, the durations' own sum or
    average when only durations are, and Neo4j's TypeError when numbers and durations are mixed."""
    value = to_variant(column, argument_type)
    durations = f"count(*) FILTER (WHERE cy_kind({value}) = {DURATION_KIND}{distinct})"
    numbers = f"count(*) FILTER (WHERE cy_kind({value}) IN (2, 3){distinct})"
    name = aggregate.name
    total = duration_aggregate(name, rt.payload(value, "DURATION"), filter_clause)
    if name == "avg":
        total = rt.wrap(total, "DURATION")
    mixed = error_sql("TypeError", "InvalidArgumentType", f"'{name}() cannot mix numbers and durations'")
    return (f"CASE WHEN {durations} = 0 THEN {numeric} WHEN {numbers} = 0 THEN {total} ELSE {mixed} END")


def _sum(aggregate: b.BAggregate, column: str, argument_type: t.CypherType, distinct: str,
         filter_clause: str) -> str:
    """sum(): integers add up to an integer, and to a float once a float is among them; no values at all sum to
    the integer 0, whatever the argument's type (Neo4j's sum starts from it)."""
    if argument_type.kind is Kind.INTEGER:
        return f"coalesce(sum({column}){filter_clause}, 0)::BIGINT"
    if argument_type.kind is Kind.FLOAT:
        return f"coalesce((sum({column}){filter_clause})::VARIANT, 0::BIGINT::VARIANT)"
    value = to_variant(column, argument_type)
    floats = f"count(*) FILTER (WHERE cy_kind({value}) = 3{distinct})"
    integers = f"CASE WHEN cy_kind({value}) = 2 THEN TRY_CAST({value} AS BIGINT) END"
    return (f"CASE WHEN {floats} > 0 THEN (sum({numbers(aggregate, column, argument_type)}){filter_clause})::VARIANT"
            f" ELSE coalesce(sum({integers}){filter_clause}, 0)::BIGINT::VARIANT END")
