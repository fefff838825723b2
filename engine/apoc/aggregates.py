"""APOC Core's aggregating functions (`apoc.agg.*`) as SQL aggregates over the rows of each group, registered
by the composition root (`semantic.functions.register_aggregates` for the binder, `sqlgen.projection.
register_aggregates` for the SQL). Their behaviour is APOC's own (`apoc.agg.CollAggregation`, `Median`,
`Percentiles`, `Statistics`, `Product`, `MaxAndMinItems`): nulls are skipped, first / last / nth / slice /
maxItems / minItems follow the rows' order, and a number argument that is no number is a type error.

APOC reads percentiles, mean and stdev off an HdrHistogram; the engine computes them exactly (nearest rank,
arithmetic mean, population standard deviation). The two agree for integers below 2048, where the histogram
is exact; beyond, APOC's are approximations to 3 significant digits (5 for floats), which docs/CYPHER25.md
states. As the histogram does, a negative value is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine import types as t
from engine.semantic import bound as b
from engine.semantic.functions import ReturnRule, fixed
from engine.sqlgen.expressions import ExpressionCompiler, convert, map_of_entries, to_variant
from engine.sqlgen.keys import sort_key_parts
from engine.sqlgen.projection import AggregateSql, numbers
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.sql import let
from engine.types import Kind, is_variant, sql_type

DEFAULT_PERCENTILES = (0.5, 0.75, 0.9, 0.95, 0.99)
"""The percentiles apoc.agg.percentiles and apoc.agg.statistics give when none are named."""
UNREAD_PERCENTILES = (0.5, 0.75, 0.9, 0.95, 0.9, 0.99)
"""The percentiles of an aggregate that saw no row: its field's initial value (APOC's tests show six nulls)."""


def _integer(c: ExpressionCompiler, argument: b.BoundExpression) -> str:
    return c.integer(argument)


def _numbers_list(c: ExpressionCompiler, argument: b.BoundExpression) -> str:
    """A list of percentiles as DOUBLE[] (an element that is no number is a type error on its row)."""
    items, element = c.list_value(argument)
    values = convert(items, t.list_of(element), t.ANY_LIST)
    return f"list_transform({values}, lambda p: cy_number(p))"


def _constant(aggregate: b.BAggregate, column: str, what: str) -> str:
    """The one value `column` takes over the group: an argument such as nth's offset is the same on every row
    (APOC reads it row by row; a value that changes between rows is refused rather than guessed at)."""
    varying = error_sql("UnsupportedFeature", "Unsupported",
                        f"'{_spelled(aggregate.name)}() with {what} that differs between rows'")
    return f"CASE WHEN min({column}) IS DISTINCT FROM max({column}) THEN {varying} ELSE min({column}) END"


def _spelled(name: str) -> str:
    return "apoc.agg." + {"maxitems": "maxItems", "minitems": "minItems"}.get(name[len("apoc.agg."):],
                                                                            name[len("apoc.agg."):])


def _present(column: str, distinct: str) -> str:
    return f" FILTER (WHERE {column} IS NOT NULL{distinct})"


def _values_in_order(aggregate: b.BAggregate, column: str, distinct: str) -> str:
    """The group's non-null values in row order, as a list in the argument's representation."""
    return f"list({column} ORDER BY __ord){_present(column, distinct)}"


def _first(aggregate: b.BAggregate, columns: list[str], distinct: str) -> str:
    return f"arg_min({columns[0]}, __ord){_present(columns[0], distinct)}"


def _last(aggregate: b.BAggregate, columns: list[str], distinct: str) -> str:
    return f"arg_max({columns[0]}, __ord){_present(columns[0], distinct)}"


def _nth(aggregate: b.BAggregate, columns: list[str], distinct: str) -> str:
    """The value at the offset among the group's non-null values (0 the first), -1 the last."""
    offset = _constant(aggregate, columns[1], "an offset")
    values = _values_in_order(aggregate, columns[0], distinct)
    return let([offset], lambda at: (
        f"CASE WHEN {at} = -1 THEN ({values})[-1] WHEN {at} < 0 THEN NULL ELSE ({values})[{at} + 1] END"))


def _slice(aggregate: b.BAggregate, columns: list[str], distinct: str) -> str:
    """The group's non-null values from `from` (0 the first), `length` of them (-1: all the rest)."""
    start = _constant(aggregate, columns[1], "a start") if len(columns) > 1 else "0"
    length = _constant(aggregate, columns[2], "a length") if len(columns) > 2 else "-1"
    element = aggregate.type.element or t.ANY
    values = f"coalesce({_values_in_order(aggregate, columns[0], distinct)}, []::{sql_type(element)}[])"
    return let([start, length], lambda f, n: (
        f"CASE WHEN {f} IS NULL OR {n} IS NULL THEN NULL ELSE list_filter({values},"
        f" lambda x, i: i - 1 >= {f} AND ({n} = -1 OR i - 1 < {f} + {n})) END"))


def _doubles(column: str, argument_type: t.CypherType) -> str:
    """The value as a DOUBLE when it is a number, else NULL (apoc.agg.median skips what is no number)."""
    if argument_type.kind in (Kind.INTEGER, Kind.FLOAT):
        return f"({column})::DOUBLE"
    if is_variant(argument_type):
        value = to_variant(column, argument_type)
        return f"CASE WHEN cy_kind({value}) IN (2, 3) THEN TRY_CAST({value} AS DOUBLE) END"
    return "NULL::DOUBLE"


def _median(aggregate: b.BAggregate, columns: list[str], distinct: str) -> str:
    """The middle of the sorted numbers, or the mean of the two middle ones (APOC's `(a + b) / 2`)."""
    value = _doubles(columns[0], _argument_type(aggregate))
    sorted_values = f"list_sort(list({value}){_present(value, distinct)})"
    return let([sorted_values], lambda s: (
        f"CASE WHEN {s} IS NULL THEN NULL WHEN len({s}) % 2 = 1 THEN {s}[len({s}) // 2 + 1]"
        f" ELSE ({s}[len({s}) // 2] + {s}[len({s}) // 2 + 1]) / 2 END"))


def _argument_type(aggregate: b.BAggregate) -> t.CypherType:
    return aggregate.argument.type if aggregate.argument is not None else t.ANY


def _recorded(aggregate: b.BAggregate, column: str) -> tuple[str, str]:
    """The numbers a histogram records (APOC's percentiles and statistics): (the value as a DOUBLE, whether it
    is an integer). Something that is no number is a type error, and so is a negative number, which the
    histogram cannot record."""
    argument_type = _argument_type(aggregate)
    value = numbers(aggregate, column, argument_type)
    negative = error_sql("ArgumentError", "NumberOutOfRange",
                         f"'{_spelled(aggregate.name)}() records no negative value (APOC''s histogram), got '"
                         f" || ({value})::VARCHAR")
    checked = f"CASE WHEN ({value}) < 0 THEN {negative} ELSE {value} END"
    if argument_type.kind is Kind.INTEGER:
        integer = "true"
    elif argument_type.kind is Kind.FLOAT:
        integer = "false"
    else:
        integer = f"cy_kind({to_variant(column, argument_type)}) = 2"
    return checked, integer


def _rank_values(aggregate: b.BAggregate, columns: list[str], distinct: str) -> tuple[str, str, str]:
    """(sorted non-null values as DOUBLE[], whether all are integers, the percentiles as DOUBLE[])."""
    value, integer = _recorded(aggregate, columns[0])
    values = f"list_sort(list({value}){_present(columns[0], distinct)})"
    integers = f"coalesce(bool_and({integer}){_present(columns[0], distinct)}, true)"
    given = (_constant(aggregate, columns[1], "percentiles") if len(columns) > 1
             else "[" + ", ".join(f"{p}::DOUBLE" for p in DEFAULT_PERCENTILES) + "]")
    # over no rows APOC's aggregate never reads its argument and keeps its field's first value, which names
    # 0.9 twice: six percentiles
    unread = "[" + ", ".join(f"{p}::DOUBLE" for p in UNREAD_PERCENTILES) + "]"
    return values, integers, f"CASE WHEN count(*) = 0 THEN {unread} ELSE {given} END"


def _at_percentile(values: str, p: str) -> str:
    """The value at percentile p of sorted `values` (0 to 1): nearest rank, counted as APOC's HdrHistogram
    counts it, `(long) (p * 100 / 100 * n + 0.5)` kept between 1 and n."""
    rank = f"least(len({values}), greatest(1, trunc(((({p}) * 100.0) / 100.0) * len({values}) + 0.5)::BIGINT))"
    return f"CASE WHEN {p} IS NULL OR len({values}) = 0 THEN NULL ELSE {values}[{rank}] END"


def _mean_and_deviation(values: str) -> tuple[str, str]:
    """The mean and the population standard deviation of sorted `values` as HdrHistogram computes them: over
    the distinct values in ascending order, each weighted by its count (`value * count` summed, then
    `(deviation * deviation) * count`), so that the floats come out as APOC's do."""
    starts = f"list_filter(range(1, len({values}) + 1), lambda i: i = 1 OR {values}[i] <> {values}[i - 1])"
    runs = (f"list_transform({starts}, lambda s, k: {{'x': {values}[s], 'n': (coalesce({starts}[k + 1],"
            f" len({values}) + 1) - s)::DOUBLE}})")

    def mean_of(r: str) -> str:
        total = f"list_reduce(list_transform({r}, lambda x: x.x * x.n), lambda a, b: a + b, 0.0::DOUBLE)"
        return f"CASE WHEN len({values}) = 0 THEN 0.0 ELSE {total} / len({values}) END"

    def deviation_of(r: str) -> str:
        return let([mean_of(r)], lambda m: (
            f"CASE WHEN len({values}) = 0 THEN 0.0 ELSE sqrt(list_reduce(list_transform({r}, lambda x:"
            f" ((x.x - {m}) * (x.x - {m})) * x.n), lambda a, b: a + b, 0.0::DOUBLE) / len({values})) END"))
    return let([runs], mean_of), let([runs], deviation_of)


def _number_value(double: str, integers: str) -> str:
    """A recorded number as a VARIANT: an integer while every value recorded was one (APOC's histogram of
    longs), else a float."""
    return f"CASE WHEN {integers} THEN TRY_CAST({double} AS BIGINT)::VARIANT ELSE ({double})::VARIANT END"


def _percentiles(aggregate: b.BAggregate, columns: list[str], distinct: str) -> str:
    values, integers, wanted = _rank_values(aggregate, columns, distinct)
    return let([f"coalesce({values}, []::DOUBLE[])", integers, wanted], lambda v, i, w: (
        f"CASE WHEN {w} IS NULL THEN NULL ELSE list_transform({w}, lambda p: "
        f"{_number_value(_at_percentile(v, 'p'), i)}) END"))


def _statistics(aggregate: b.BAggregate, columns: list[str], distinct: str) -> str:
    """{min, minNonZero, max, total, mean, stdev} and one entry per percentile, keyed by the percentile as
    Java writes a double ('0.5'); over no values min and max are null, mean and stdev 0.0, minNonZero the
    largest long as a float (the empty histogram's) and there are no percentile entries."""
    values, integers, wanted = _rank_values(aggregate, columns, distinct)
    original = to_variant(columns[0], _argument_type(aggregate))
    double, _ = _recorded(aggregate, columns[0])
    present = _present(columns[0], distinct)
    minimum = f"arg_min({original}, {double}){present}"
    maximum = f"arg_max({original}, {double}){present}"

    def build(v: str, i: str, w: str) -> str:
        mean, deviation = _mean_and_deviation(v)
        fixed_entries = [
            ("min", minimum), ("max", maximum),
            ("minNonZero", f"coalesce(min({double}) FILTER (WHERE {double} > 0{distinct}),"
                           " 9223372036854775807::DOUBLE)::VARIANT"),
            ("total", f"len({v})::BIGINT::VARIANT"),
            ("mean", f"({mean})::VARIANT"),
            ("stdev", f"({deviation})::VARIANT"),
        ]
        entries = ", ".join(f"{{'key': '{key}', 'value': {sql}}}" for key, sql in fixed_entries)
        percentile_entries = (f"CASE WHEN len({v}) = 0 OR {w} IS NULL THEN [] ELSE list_transform(list_filter({w},"
                              f" lambda p: p IS NOT NULL), lambda p: {{'key': cy_float_to_string(p), 'value':"
                              f" {_number_value(_at_percentile(v, 'p'), i)}}}) END")
        return map_of_entries(f"list_concat([{entries}], {percentile_entries})")
    return let([f"coalesce({values}, []::DOUBLE[])", integers, wanted], build)


def _product(aggregate: b.BAggregate, columns: list[str], distinct: str) -> str:
    """The product of the numbers in row order: the integers' exactly (overflow is an error, as Java's
    multiplyExact), the floats' apart; 0.0 over no numbers, the floats' product when the integers' is 1, the
    integers' when the floats' is 1.0, else the two multiplied (APOC's ProductFunction)."""
    argument_type = _argument_type(aggregate)
    column = columns[0]
    value = numbers(aggregate, column, argument_type)
    if argument_type.kind is Kind.INTEGER:
        integer, double = column, "NULL::DOUBLE"
    elif argument_type.kind is Kind.FLOAT:
        integer, double = "NULL::BIGINT", column
    else:
        variant = to_variant(column, argument_type)
        integer = f"CASE WHEN cy_kind({variant}) = 2 THEN TRY_CAST({variant} AS BIGINT) END"
        double = f"CASE WHEN cy_kind({variant}) = 3 THEN TRY_CAST({variant} AS DOUBLE) END"
    integers = (f"list_reduce(coalesce(list({integer} ORDER BY __ord) FILTER (WHERE {integer} IS NOT NULL{distinct}),"
                " []::BIGINT[]), lambda a, x: a * x, 1::BIGINT)")
    doubles = (f"list_reduce(coalesce(list({double} ORDER BY __ord) FILTER (WHERE {double} IS NOT NULL{distinct}),"
               " []::DOUBLE[]), lambda a, x: a * x, 1.0::DOUBLE)")
    count = f"count({value}){_present(column, distinct)}"
    return let([count, integers, doubles], lambda n, i, d: (
        f"CASE WHEN {n} = 0 THEN 0.0::DOUBLE::VARIANT WHEN {i} = 1 THEN {d}::VARIANT"
        f" WHEN {d} = 1.0 THEN {i}::VARIANT ELSE ({d} * {i})::VARIANT END"))


def _extreme_items(function: str) -> Callable[[b.BAggregate, list[str], str], str]:
    """apoc.agg.maxItems / minItems(item, value, groupLimit = -1): {items, value}, the greatest (least) value
    by Cypher's order and the items of the rows that have it, in row order, at most groupLimit of them (a
    negative limit: all); rows whose item or value is null are skipped."""
    def build(aggregate: b.BAggregate, columns: list[str], distinct: str) -> str:
        item, value = columns[0], columns[1]
        item_type = _argument_type(aggregate)
        value_type = aggregate.extra[0].type
        key_value, key = sort_key_parts(value, value_type)
        limit = _constant(aggregate, columns[2], "a group limit") if len(columns) > 2 else "-1"
        pairs = (f"list(struct_pack(k := {key(key_value)}, i := {item}, v := {value}) ORDER BY __ord)"
                 f" FILTER (WHERE {item} IS NOT NULL AND {value} IS NOT NULL{distinct})")
        items_type = t.list_of(item_type if item_type.kind is not Kind.NULL else t.ANY)

        def result(p: str, n: str) -> str:
            best = f"list_{function}(list_transform({p}, lambda x: x.k))"
            chosen = f"list_filter({p}, lambda x: x.k = {best})"
            items = f"list_transform({chosen}, lambda x: x.i)"
            limited = f"CASE WHEN {n} < 0 THEN {items} ELSE ({items})[1:{n}] END"
            found = to_variant(f"coalesce({limited}, []::{sql_type(items_type)})", items_type)
            top = to_variant(f"({chosen})[1].v", value_type)
            return map_of_entries(f"[{{'key': 'items', 'value': {found}}}, {{'key': 'value', 'value': {top}}}]")
        return let([pairs, limit], result)
    return build


def _list_of_argument(args: Sequence[t.CypherType]) -> t.CypherType:
    return t.list_of(args[0] if args and args[0].kind is not Kind.NULL else t.ANY)


def _percentiles_type(args: Sequence[t.CypherType]) -> t.CypherType:
    kind = args[0].kind if args else Kind.ANY
    return t.list_of(t.INTEGER) if kind is Kind.INTEGER else t.list_of(t.FLOAT) if kind is Kind.FLOAT else t.ANY_LIST


def _like_argument(args: Sequence[t.CypherType]) -> t.CypherType:
    return args[0]


BINDINGS: list[tuple[str, int, int, ReturnRule, bool]] = [
    ("apoc.agg.first", 1, 1, _like_argument, True),
    ("apoc.agg.last", 1, 1, _like_argument, True),
    ("apoc.agg.nth", 2, 2, _like_argument, True),
    ("apoc.agg.slice", 1, 3, _list_of_argument, True),
    ("apoc.agg.median", 1, 1, fixed(t.FLOAT), False),
    ("apoc.agg.percentiles", 1, 2, _percentiles_type, False),
    ("apoc.agg.statistics", 1, 2, fixed(t.MAP), False),
    ("apoc.agg.product", 1, 1, fixed(t.ANY), True),
    ("apoc.agg.maxitems", 2, 3, fixed(t.MAP), True),
    ("apoc.agg.minitems", 2, 3, fixed(t.MAP), True),
]
"""(lower-case name, least and most arguments, result type rule, whether the rows' order matters)."""

AGGREGATES: dict[str, AggregateSql] = {
    "apoc.agg.first": AggregateSql((), _first),
    "apoc.agg.last": AggregateSql((), _last),
    "apoc.agg.nth": AggregateSql((_integer,), _nth),
    "apoc.agg.slice": AggregateSql((_integer,), _slice),
    "apoc.agg.median": AggregateSql((), _median),
    "apoc.agg.percentiles": AggregateSql((_numbers_list,), _percentiles),
    "apoc.agg.statistics": AggregateSql((_numbers_list,), _statistics),
    "apoc.agg.product": AggregateSql((), _product),
    "apoc.agg.maxitems": AggregateSql((lambda c, e: c.compile(e), _integer), _extreme_items("max")),
    "apoc.agg.minitems": AggregateSql((lambda c, e: c.compile(e), _integer), _extreme_items("min")),
}
"""The SQL of each aggregate of `BINDINGS`."""
