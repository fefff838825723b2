"""Temporal functions, components, operators and conversions: bound expressions -> SQL (ADR-0014).

Static types choose the SQL: `date({year: 1984, week: 10})` knows its keys and value types when the query
compiles, so it becomes straight-line SQL for exactly those fields; `d.year` on a `DATE` reads the STRUCT.
Values of unknown type (a property, `ANY`) go through `cy_t_parts` and the `cy_t_*` macros at run time.
The SQL builders live in `runtime_temporal`; this module decides which to use and binds their inputs.

Construction from maps follows Neo4j's builder: a base (a selected `date`/`time`/`datetime`, an epoch, or
0000-01-01T00:00), then fields in the order year, quarter, month, week, ordinalDay, dayOfQuarter,
dayOfWeek, day, hour, minute, second, sub-second, each keeping what it does not name (java.time's `with`),
then the time zone: converted (same instant) when the base had one, else attached (same local time).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine import types as t
from engine.errors import CypherArgumentError
from engine.quoting import sql_string
from engine.semantic import bound as b
from engine.semantic.unknown import UNKNOWN
from engine.sqlgen import runtime_temporal as rt
from engine.sqlgen.expressions import EXPRESSION_SQL, ExpressionCompiler
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.runtime_temporal import (
    DAY_NANOS,
    EPOCH_DAY_0000,
    NANOS,
    Parts,
    call,
    fail,
    let,
)
from engine.sqlgen.sql import Term
from engine.sqlgen.temporal_arithmetic import INSTANTS, compiled, number_of, type_error, variant_of
from engine.temporal import PAYLOAD_FIELDS
from engine.types import CypherType, Kind, is_variant

Builder = Callable[[ExpressionCompiler, b.BFunction], str]


@dataclass(eq=False)
class SqlValue(b.BoundExpression):
    """SQL already written (a field of a map argument), typed, so the compiler's helpers accept it."""

    sql: str


EXPRESSION_SQL[SqlValue] = lambda compiler, node: node.sql  # type: ignore[assignment,attr-defined]


# -- compiling arguments -------------------------------------------------------------------------------------
# Argument SQL is compiled outside any binding flow (`runtime_temporal.isolated`): it may hold lambdas of its own.

def _string(c: ExpressionCompiler, expression: b.BoundExpression) -> str:
    with rt.isolated():
        return c.string(expression)


def _integer(c: ExpressionCompiler, expression: b.BoundExpression) -> str:
    with rt.isolated():
        return c.integer(expression)



KIND_OF_FUNCTION = {"date": "DATE", "localtime": "LOCAL TIME", "time": "ZONED TIME",
                    "localdatetime": "LOCAL DATETIME", "datetime": "ZONED DATETIME", "duration": "DURATION"}
SQL_NULL = {kind: f"NULL::{rt.payload_type(kind)}" for kind in rt.KIND_CODES}


# -- conversions between the STRUCT and VARIANT forms ----------------------------------------------------

# -- parts of any expression ---------------------------------------------------------------------------------

def with_parts(c: ExpressionCompiler, expression: b.BoundExpression, body: Callable[[Parts, str], str]) -> str:
    """`body(parts, null_test)` for a temporal instant (typed or dynamic); `null_test` is SQL true when the
    value is null. A dynamic value that is not a temporal instant yields NULL parts; callers check `k`."""
    kind = expression.type.kind
    if kind in INSTANTS:
        return let([compiled(c, expression)], lambda x: body(rt.parts_of(x, kind.value), f"{x} IS NULL"))
    return let([variant_of(c, expression)], lambda v: let([f"cy_t_parts({v})"], lambda p: body(
        rt.dynamic_parts(p), f"{v} IS NULL")))


def _require(condition: str, message: str, value: str) -> str:
    """`value` unless SQL `condition` holds, then a runtime error."""
    return f"CASE WHEN {condition} THEN {fail(sql_string(message))} ELSE {value} END"


# -- selecting one temporal type from another ---------------------------------------------------------------

def select(parts: Parts, target: str) -> str:
    """The `target` value a temporal instant converts to (`date(datetime)`, `time(localtime)`, ...)."""
    if target == "DATE":
        return _require(f"{parts.d} IS NULL", "cannot get a date from this value", rt.make_date(parts.d))
    if target == "LOCAL TIME":
        return _require(f"{parts.t} IS NULL", "cannot get a time from this value", rt.make_local_time(parts.t))
    if target == "ZONED TIME":
        return _require(f"{parts.t} IS NULL", "cannot get a time from this value",
                        rt.make_time(parts.t, f"coalesce({parts.o}, 0)"))
    missing = f"{parts.d} IS NULL OR {parts.t} IS NULL"
    if target == "LOCAL DATETIME":
        return _require(missing, "cannot get a local date time from this value",
                        rt.make_local_datetime(parts.d, parts.t))
    if parts.s is not None:
        return rt.make_datetime(parts.s, parts.n or Term("0"), parts.o, parts.z)
    return _require(missing, "cannot get a date time from this value",
                    rt.resolve(parts.d, parts.t, f"coalesce({parts.o}, 0)", parts.z))


def _known_values(argument: b.BoundExpression) -> Sequence[Any] | None:
    """Every value `argument` takes, when the query's text and parameters fix them: a literal, a parameter,
    what an UNWIND of one yields, or a key of the maps it yields (`UNWIND $messages AS msg ...
    datetime(msg.at)`)."""
    if isinstance(argument, b.BLiteral | b.BParameter):
        return (argument.value,)
    if isinstance(argument, b.BVariable) and argument.variable.unwound is not None:
        return list(argument.variable.unwound.value)
    if (isinstance(argument, b.BProperty) and isinstance(argument.subject, b.BVariable)
            and argument.subject.variable.unwound is not None):
        items = argument.subject.variable.unwound.value
        if all(isinstance(item, Mapping) for item in items):
            return [item.get(argument.key) for item in items]
    return None


def _known_string(c: ExpressionCompiler, argument: b.BoundExpression, target: str) -> str | None:
    """`target(argument)` of a literal or parameter string, converted as the query compiles: bound in its
    stored form, for a parameter as a value derived from its own (a compiled statement run again with
    another string converts that one)."""
    derive = functools.partial(rt.known_string_value, target=target)
    if isinstance(argument, b.BParameter):
        return c.context.parameters.derived(argument.name, argument.given, derive, rt.payload_type(target))
    known = derive(argument.value) if isinstance(argument, b.BLiteral) else None
    return None if known is None else c.context.parameters.struct(known, rt.payload_type(target))


def convert(c: ExpressionCompiler, argument: b.BoundExpression, target: str) -> str:
    """`date(x)` and friends for one argument: a string, a map, a temporal value or null."""
    kind = argument.type.kind
    if kind is Kind.NULL:
        return SQL_NULL[target]
    if kind is Kind.STRING:
        known = _known_string(c, argument, target)
        if known is not None:
            return known
        text = compiled(c, argument)
        values = _known_values(argument)
        fast = None if values is None else rt.known_strings_parse(values, text, target)
        return fast or parse(text, target)
    if argument.type.is_record or isinstance(argument, b.BMap):
        return from_map(c, argument, target)
    if kind is Kind.MAP:
        shapes = _known_shapes(argument) or []
        return let([variant_of(c, argument)], lambda v: by_shape(c, v, shapes, target, argument.span))
    if target == "DURATION":
        if kind is Kind.DURATION:
            return compiled(c, argument)
        if _checked_per_row(argument):
            return let([variant_of(c, argument)], lambda v: (
                f"CASE cy_kind({v}) WHEN 0 THEN NULL WHEN 15 THEN {rt.payload(v, 'DURATION')}"
                f" WHEN 4 THEN cy_t_parse_duration(TRY_CAST({v} AS VARCHAR))"
                f" WHEN 6 THEN {by_shape(c, v, _known_shapes(argument) or [], target, argument.span)} ELSE "
                + error_sql("TypeError", "InvalidArgumentType", "'duration() expects a string or a map'") + " END"))
        raise type_error(f"duration() cannot convert {argument.type!r}", argument.span)
    if kind.value == target:
        return compiled(c, argument)
    if kind in INSTANTS:
        return with_parts(c, argument, lambda parts, null: (
            f"CASE WHEN {null} THEN NULL ELSE {select(parts, target)} END"))
    if not _checked_per_row(argument):
        raise type_error(f"{target.lower()}() cannot convert {argument.type!r}", argument.span)
    shapes = _known_shapes(argument) or []
    return let([variant_of(c, argument)], lambda v: (
        f"CASE cy_kind({v}) WHEN 0 THEN NULL WHEN 4 THEN {parse(f'TRY_CAST({v} AS VARCHAR)', target)}"
        f" WHEN 6 THEN {by_shape(c, v, shapes, target, argument.span)}"
        + " ELSE " + let([f"cy_t_parts({v})"], lambda p: (
            f"CASE WHEN {p} IS NULL THEN " + error_sql(
                "TypeError", "InvalidArgumentType", f"'cannot construct a {target.lower()} from ' || cy_type_name({v})")
            + f" ELSE {select(rt.dynamic_parts(p), target)} END")) + " END"))


def _known_shapes(argument: b.BoundExpression) -> list[tuple[str, ...]] | None:
    """The key sets of the maps `argument` takes, when the query's text and parameters fix them
    (`_known_values`: `UNWIND $rows AS row ... date(row.born)`); None when they are not known."""
    values = _known_values(argument)
    if values is None:
        return None
    return sorted({tuple(sorted(value)) for value in values if isinstance(value, Mapping)})


def by_shape(c: ExpressionCompiler, v: str, shapes: Sequence[tuple[str, ...]], target: str, span: Any) -> str:
    """`target` from the VARIANT map `v` whose key set is one of `shapes`, known as the query compiles: a
    branch per key set, each compiled as the map literal of those keys would be (its fields read off `v`).
    A key set that builds nothing (`{year: 1984, day: 3}`) is its error on the rows that bring it; a map of
    any other keys goes through `from_any_map`, whose every rule is a test on the row's keys."""
    parameters = c.context.parameters
    names = {key: parameters.text(key) for key in sorted({key for keys in shapes for key in keys})}
    branches = []
    for keys in shapes:  # every name is bound once, and read at least by the test of its key sets
        fields = b.BMap(tuple((key, SqlValue(f"cy_map_get({v}, {names[key]})", type=t.ANY, span=span))
                              for key in keys), type=t.MAP, span=span)
        try:
            built = from_map(c, fields, target)
        except CypherArgumentError as error:
            built = fail(sql_string(error.message), detail=error.detail or "InvalidArgumentValue")
        key_set = "[" + ", ".join(names[key] for key in keys) + "]::VARCHAR[]"
        branches.append(f"WHEN list_sort(variant_keys({v})) = {key_set} THEN {built}")
    return f"CASE WHEN cy_kind({v}) = 0 THEN NULL {' '.join(branches)} ELSE {from_any_map(c, v, target)} END"


def _checked_per_row(argument: b.BoundExpression) -> bool:
    """Whether an argument of a type the function does not take is checked on the rows that bring a value:
    its type is only known at run time, or was read off stored data (ADR-0053); else the query text fixes
    it, and that is a compile-time error."""
    return is_variant(argument.type) or b.observed(argument)


PARSERS = {"DATE": "cy_t_parse_date", "LOCAL TIME": "cy_t_parse_localtime", "ZONED TIME": "cy_t_parse_time",
           "LOCAL DATETIME": "cy_t_parse_localdatetime", "ZONED DATETIME": "cy_t_parse_datetime",
           "DURATION": "cy_t_parse_duration"}


def parse(text: str, target: str) -> str:
    return call(PARSERS[target], text)


# -- now --------------------------------------------------------------------------------------------------

def now(target: str, zone: str | None = None) -> str:
    """The statement's clock as `target`, in UTC or in zone string SQL `zone`."""
    seconds, nanos = rt.now_instant()
    if zone is None:
        instant = rt.make_datetime(seconds, nanos, Term("0"), Term("NULL"))
    else:
        instant = let([zone], lambda z: rt.zone_spec(z, lambda o, name: rt.at_instant(seconds, nanos, o, name)))
    if target == "ZONED DATETIME":
        return instant
    return let([instant], lambda x: select(rt.parts_of(x, "ZONED DATETIME"), target))


# -- construction from a map ----------------------------------------------------------------------------------

DATE_FIELDS = ("year", "quarter", "month", "week", "ordinalday", "dayofquarter", "dayofweek", "day")
TIME_FIELDS = ("hour", "minute", "second")
SUBSECOND_FIELDS = ("millisecond", "microsecond", "nanosecond")
ALIASES = {"weekday": "dayofweek", "quarterday": "dayofquarter"}
ALLOWED = {
    "DATE": {"date", *DATE_FIELDS},
    "LOCAL TIME": {"time", *TIME_FIELDS, *SUBSECOND_FIELDS},
    "ZONED TIME": {"time", "timezone", *TIME_FIELDS, *SUBSECOND_FIELDS},
    "LOCAL DATETIME": {"date", "time", "datetime", *DATE_FIELDS, *TIME_FIELDS, *SUBSECOND_FIELDS},
    "ZONED DATETIME": {"date", "time", "datetime", "timezone", "epochseconds", "epochmillis", *DATE_FIELDS,
                       *TIME_FIELDS, *SUBSECOND_FIELDS},
}
DURATION_FIELDS = ("years", "months", "weeks", "days", "hours", "minutes", "seconds", "milliseconds",
                   "microseconds", "nanoseconds")
DATE_ORDERS = (("year", "month", "day"), ("year", "week", "dayofweek"), ("year", "quarter", "dayofquarter"))
"""Calendar, week and quarter dates, largest component first."""
COMPLETE_DATES = (*DATE_ORDERS, ("year", "ordinalday"))
TIME_ORDER = ("hour", "minute", "second", "subsecond")


@dataclass(frozen=True)
class Field:
    sql: str
    expression: b.BoundExpression


@dataclass(frozen=True)
class State:
    """A value under construction: local day and nanosecond of the day, the zone it came with (fixed offset
    `o`, or name `z`), and SQL true when its source had a zone (so a new zone converts rather than attaches)."""

    d: str = Term(str(EPOCH_DAY_0000))
    t: str = Term("0")
    o: str = Term("NULL::BIGINT")
    z: str = Term("NULL::VARCHAR")
    zoned: str = "false"


def map_entries(c: ExpressionCompiler, argument: b.BoundExpression,
                body: Callable[[dict[str, b.BoundExpression], str | None], str]) -> str:
    """`body(fields by lower-case key, null test)` for a map literal or a map of known keys."""
    if isinstance(argument, b.BMap):
        fields: dict[str, b.BoundExpression] = {}
        for key, value in argument.entries:
            name = ALIASES.get(key.lower(), key.lower())
            if name in fields:
                raise CypherArgumentError(f"field `{key}` given twice", argument.span, detail="InvalidArgumentValue")
            fields[name] = value
        return body(fields, None)

    def from_record(value: str) -> str:
        fields = {}
        for key, field_type in argument.type.fields or ():
            name = ALIASES.get(key.lower(), key.lower())
            fields[name] = SqlValue(f"struct_extract({value}, {sql_string(key)})", type=field_type,
                                    span=argument.span)
        return body(fields, f"{value} IS NULL")
    return let([compiled(c, argument)], from_record)


def from_map(c: ExpressionCompiler, argument: b.BoundExpression, target: str) -> str:
    return _complete(_from_map(c, argument, target), target)


def _complete(sql: str, target: str) -> str:
    """`sql` refused when a null component left a value with a null payload field: such a value is none
    (no payload field of a temporal value is ever null, which null tests rely on, ADR-0047)."""
    message = sql_string(f"A null component cannot build a {target.lower()} value")

    def checked(v: str) -> str:
        holes = " OR ".join(f"struct_extract({v}, '{name}') IS NULL" for name in PAYLOAD_FIELDS[target])
        return f"CASE WHEN ({v}) IS NOT NULL AND ({holes}) THEN {fail(message)} ELSE {v} END"
    return let([sql], checked)


def _from_map(c: ExpressionCompiler, argument: b.BoundExpression, target: str) -> str:
    if target == "DURATION":
        return map_entries(c, argument, lambda fields, null: _null_guard(null, _duration_from_map(c, fields, argument)))

    def build(fields: dict[str, b.BoundExpression], null: str | None) -> str:
        _refuse_empty(fields, target, argument)
        if set(fields) == {"timezone"}:
            return _null_guard(null, now(target, _string(c, fields["timezone"])))
        unknown = set(fields) - ALLOWED[target]
        if unknown:
            raise CypherArgumentError(f"{target.lower()}() has no field `{sorted(unknown)[0]}`", argument.span,
                                      detail="InvalidArgumentValue")
        _check_components(set(fields), target, argument.span)
        return _null_guard(null, _build(c, fields, target, argument))
    return map_entries(c, argument, build)


def _check_components(keys: set[str], target: str, span: Any) -> None:
    """Neo4j's rules for which components a map may give (its builder's `checkAssignments`), the manual's
    "If `month` is omitted, `day` must also be omitted" and "specifying `year`, `month`, `day` and `minute`
    is not permitted": without a selected `date`, a calendar, week or quarter date names its components
    largest first; without a selected `time`, so do hour, minute, second and the sub-second ones; and a
    date-time with time components needs a whole date. A selected `datetime` or epoch lifts every rule."""
    if keys & {"datetime", "epochseconds", "epochmillis"}:
        return
    if "date" not in keys:
        for order in DATE_ORDERS:
            if keys & set(order[1:]):
                _in_order(order, keys, span)
    time_keys = keys & {*TIME_FIELDS, *SUBSECOND_FIELDS}
    if time_keys and "time" not in keys:
        _in_order(TIME_ORDER, keys | ({"subsecond"} if keys & set(SUBSECOND_FIELDS) else set()), span)
    if target in ("LOCAL DATETIME", "ZONED DATETIME") and (time_keys or "time" in keys) and "date" not in keys:
        chosen = next((order for order in COMPLETE_DATES if keys & set(order[1:])), ("year", "month"))
        missing = next((name for name in chosen if name not in keys), None)
        if missing is not None:
            raise CypherArgumentError(f"{_FIELD_NAMES.get(missing, missing)} must be specified", span,
                                      detail="InvalidArgumentValue")


_FIELD_NAMES = {"dayofweek": "dayOfWeek", "dayofquarter": "dayOfQuarter", "ordinalday": "ordinalDay"}


def _in_order(order: Sequence[str], keys: set[str], span: Any) -> None:
    """Neo4j's `assertDefinedInOrder`: the first of `order` is given, and none after a missing one."""
    if order[0] not in keys:
        raise CypherArgumentError(f"{order[0]} must be specified", span, detail="InvalidArgumentValue")
    missing = next((name for name in order if name not in keys), None)
    given_after = [name for name in order[order.index(missing) + 1:] if name in keys] if missing else []
    if given_after:
        raise CypherArgumentError(
            f"{_FIELD_NAMES.get(given_after[0], given_after[0])} cannot be specified without "
            f"{_FIELD_NAMES.get(missing, missing)}", span, detail="InvalidArgumentValue")


def _refuse_empty(fields: dict[str, b.BoundExpression], target: str, argument: b.BoundExpression) -> None:
    """An empty map builds nothing: "`date({})` is invalid", "`duration()` and `duration({})` are invalid"
    (the manual's considerations; `date()` is the current date)."""
    if not fields:
        name = next(function for function, kind in KIND_OF_FUNCTION.items() if kind == target)
        raise CypherArgumentError(f"{name}() needs at least one component: {name}({{}}) is invalid", argument.span,
                                  detail="InvalidArgumentValue")


def _null_guard(null: str | None, sql: str) -> str:
    return sql if null is None else f"CASE WHEN {null} THEN NULL ELSE {sql} END"


def _duration_from_map(c: ExpressionCompiler, fields: dict[str, b.BoundExpression], argument: b.BoundExpression) -> str:
    _refuse_empty(fields, "DURATION", argument)
    unknown = set(fields) - set(DURATION_FIELDS)
    if unknown:
        raise CypherArgumentError(f"duration() has no field `{sorted(unknown)[0]}`", argument.span,
                                  detail="InvalidArgumentValue")

    def value(name: str) -> str:
        return number_of(c, fields[name]) if name in fields else Term("0")
    months = f"{value('years')} * 12 + {value('months')}"
    days = f"{value('weeks')} * 7 + {value('days')}"
    seconds = f"{value('hours')} * 3600 + {value('minutes')} * 60 + {value('seconds')}"
    nanos = f"{value('milliseconds')} * 1000000 + {value('microseconds')} * 1000 + {value('nanoseconds')}"
    return rt.approximate(months, days, seconds, nanos)


def _build(c: ExpressionCompiler, fields: dict[str, b.BoundExpression], target: str,
           argument: b.BoundExpression) -> str:
    selectors = [key for key in ("datetime", "date", "time", "epochseconds", "epochmillis") if key in fields]
    if "datetime" in fields and len(selectors) > 1:
        raise CypherArgumentError("datetime cannot be selected together with date, time or an epoch",
                                  argument.span, detail="InvalidArgumentValue")
    if "epochseconds" in fields and "epochmillis" in fields:
        raise CypherArgumentError("epochSeconds cannot be selected together with epochMillis", argument.span,
                                  detail="InvalidArgumentValue")
    timezone = _string(c, fields["timezone"]) if "timezone" in fields else None

    def finish(state: State) -> str:
        state = _assign_fields(c, state, fields, after_week_start=bool(
            "week" in fields and not {"date", "datetime", "epochseconds", "epochmillis"} & set(fields)),
            from_default=not selectors)
        converts = "true" if {"epochseconds", "epochmillis"} & set(fields) else (
            state.zoned if {"time", "datetime"} & set(fields) else "false")
        return _finish(state, target, timezone, converts)

    if "datetime" in fields:
        return with_parts(c, fields["datetime"], lambda parts, null: _guarded_source(
            null, parts, "datetime", finish(State(parts.d, parts.t, parts.o, parts.z, f"{parts.o} IS NOT NULL")),
            need_date=True, need_time=True))
    if "epochseconds" in fields or "epochmillis" in fields:
        return _from_epoch(c, fields, timezone, finish)
    if "date" in fields or "time" in fields:
        def with_time(date_parts: Parts | None, date_null: str | None) -> str:
            def build(time_parts: Parts | None, time_null: str | None) -> str:
                state = State()
                if date_parts is not None:
                    state = replace(state, d=date_parts.d)
                if time_parts is not None:
                    state = replace(state, t=time_parts.t, o=time_parts.o, z=time_parts.z,
                                    zoned=f"{time_parts.o} IS NOT NULL")
                sql = finish(state)
                if time_parts is not None:
                    sql = _guarded_source(time_null, time_parts, "time", sql, need_date=False, need_time=True)
                if date_parts is not None:
                    sql = _guarded_source(date_null, date_parts, "date", sql, need_date=True, need_time=False)
                return sql
            if "time" in fields:
                return with_parts(c, fields["time"], build)
            return build(None, None)
        if "date" in fields:
            return with_parts(c, fields["date"], with_time)
        return with_time(None, None)
    return finish(State())


def _guarded_source(null: str | None, parts: Parts, name: str, sql: str, *, need_date: bool, need_time: bool) -> str:
    """`sql` for a selected source, null when it is null, an error when it lacks the part selected."""
    missing = [f"{parts.d} IS NULL"] * need_date + [f"{parts.t} IS NULL"] * need_time
    return (f"CASE WHEN {null} THEN NULL WHEN {' OR '.join(missing)} THEN "
            + fail(sql_string(f"cannot select {name} from this value")) + f" ELSE {sql} END")


def _from_epoch(c: ExpressionCompiler, fields: dict[str, b.BoundExpression], timezone: str | None,
                finish: Callable[[State], str]) -> str:
    if "epochseconds" in fields:
        instant = [_integer(c, fields["epochseconds"]), Term("0")]
    else:
        millis = _integer(c, fields["epochmillis"])
        instant = [rt.fdiv(millis, 1000), f"{rt.fmod(millis, 1000)} * 1000000"]

    def body(s: str, n: str, o: str, z: str) -> str:
        return let([rt.at_instant(s, n, o, z)], lambda x: (
            lambda parts: finish(State(parts.d, parts.t, parts.o, parts.z, "true")))(rt.parts_of(x, "ZONED DATETIME")))
    if timezone is None:
        return let(instant, lambda s, n: body(s, n, Term("0"), Term("NULL::VARCHAR")))
    return let([*instant, timezone], lambda s, n, tz: rt.zone_spec(tz, lambda o, z: body(s, n, o, z)))


CALENDAR_FORMS: dict[frozenset[str], Callable[[list[str]], str]] = {
    frozenset({"year"}): lambda v: rt.days(v[0], Term("1"), Term("1")),
    frozenset({"year", "month"}): lambda v: call("cy_t_days", v[0], v[1], Term("1")),
    frozenset({"year", "month", "day"}): lambda v: call("cy_t_days", *v),
    frozenset({"year", "week"}): lambda v: call("cy_t_week_date", v[0], v[1], Term("1")),
    frozenset({"year", "week", "dayofweek"}): lambda v: call("cy_t_week_date", *v),
    frozenset({"year", "ordinalday"}): lambda v: call("cy_t_ordinal_date", *v),
    frozenset({"year", "quarter"}): lambda v: call("cy_t_quarter_date", v[0], v[1], Term("1")),
    frozenset({"year", "quarter", "dayofquarter"}): lambda v: call("cy_t_quarter_date", *v),
}
FORM_ORDER = ("year", "month", "week", "ordinalday", "quarter", "day", "dayofweek", "dayofquarter")


def _assign_fields(c: ExpressionCompiler, state: State, fields: dict[str, b.BoundExpression], *,
                   after_week_start: bool, from_default: bool = False) -> State:
    """The fields of a map laid over `state`, in Neo4j's order, each as java.time's `with` does. From the
    default base, the usual calendar forms (year-month-day, week date, ordinal, quarter) and a clock given
    outright are computed directly, which is what the field-by-field route would give."""
    d, t = state.d, state.t
    date_fields = frozenset(name for name in DATE_FIELDS if name in fields)
    if from_default and date_fields in CALENDAR_FORMS:
        values = [_integer(c, fields[name]) for name in FORM_ORDER if name in date_fields]
        d = CALENDAR_FORMS[date_fields](values)
        fields = {name: value for name, value in fields.items() if name not in date_fields}
        after_week_start = False
    if from_default and t == "0":
        clock = [(name, _integer(c, fields[name])) for name in TIME_FIELDS if name in fields]
        if clock:
            t = let([value for _, value in clock], lambda *values: _clock_of(dict(zip(
                [name for name, _ in clock], values, strict=True))))
            fields = {name: value for name, value in fields.items() if name not in TIME_FIELDS}
    if after_week_start:
        year = _integer(c, fields["year"]) if "year" in fields else Term("0")
        d = rt.week_one(year)
    for name in DATE_FIELDS:
        if name in fields:
            if name == "year" and "week" in fields:
                d = let([d, _integer(c, fields[name])], _with_week_year)
            else:
                d = let([d, _integer(c, fields[name])], DATE_SETTERS[name])
    for name in TIME_FIELDS:
        if name in fields:
            d_t = let([t, _integer(c, fields[name])], TIME_SETTERS[name])
            t = d_t
    present = [name for name in SUBSECOND_FIELDS if name in fields]
    if present:
        values = [_integer(c, fields[name]) if name in fields else Term("NULL::BIGINT")
                  for name in SUBSECOND_FIELDS]
        t = let([t, *values], _with_subsecond)
    return replace(state, d=d, t=t)


def _clock_of(values: dict[str, str]) -> str:
    """Nanosecond of the day from hour, minute and second values (validated)."""
    limits = {"hour": (23, "HourOfDay", 3600 * NANOS), "minute": (59, "MinuteOfHour", 60 * NANOS),
              "second": (59, "SecondOfMinute", NANOS)}
    checks = " ".join(f"WHEN {value} < 0 OR {value} > {limits[name][0]} THEN {_invalid(limits[name][1], value)}"
                      for name, value in values.items())
    total = " + ".join(f"{value} * {limits[name][2]}" for name, value in values.items())
    return f"CASE {checks} ELSE {total} END"


def _invalid(what: str, value: str) -> str:
    return fail(f"'Invalid value for {what}: ' || {value}")


def _civil(d: str, body: Callable[[str, str, str], str]) -> str:
    return let([rt.year_of(d), rt.month_of(d), rt.day_of(d)], body)


def _with_year(d: str, v: str) -> str:
    return _civil(d, lambda y, m, dd: rt.days(v, m, f"least({dd}, {rt.month_length(v, m)})"))


def _with_week_year(d: str, v: str) -> str:
    return let([rt.week_of(d), rt.weekday_of(d)], lambda w, dow: (
        f"{rt.week_one(v)} + (CASE WHEN {w} = 53 AND {rt.weeks_in(v)} = 52 THEN 52 ELSE {w} END - 1) * 7"
        f" + {dow} - 1"))


def _with_quarter(d: str, v: str) -> str:
    return _civil(d, lambda y, m, dd: let([f"{m} + ({v} - {rt.quarter_of(d)}) * 3"], lambda nm: (
        f"CASE WHEN {v} < 1 OR {v} > 4 THEN {_invalid('QuarterOfYear', v)}"
        f" ELSE {rt.days(y, nm, f'least({dd}, {rt.month_length(y, nm)})')} END")))


def _with_month(d: str, v: str) -> str:
    return _civil(d, lambda y, m, dd: (
        f"CASE WHEN {v} < 1 OR {v} > 12 THEN {_invalid('MonthOfYear', v)}"
        f" ELSE {rt.days(y, v, f'least({dd}, {rt.month_length(y, v)})')} END"))


def _with_week(d: str, v: str) -> str:
    return (f"CASE WHEN {v} < 1 OR {v} > {rt.weeks_in(rt.week_year_of(d))} THEN {_invalid('WeekOfWeekBasedYear', v)}"
            f" ELSE {d} + ({v} - {rt.week_of(d)}) * 7 END")


def _with_ordinal_day(d: str, v: str) -> str:
    return let([rt.year_of(d)], lambda y: (
        f"CASE WHEN {v} < 1 OR {v} > CASE WHEN {rt.leap(y)} THEN 366 ELSE 365 END THEN {_invalid('DayOfYear', v)}"
        f" ELSE {rt.days(y, '1', '1')} + {v} - 1 END"))


def _with_day_of_quarter(d: str, v: str) -> str:
    return let([rt.day_of_quarter(d)], lambda doq: (
        f"CASE WHEN {v} < 1 OR {v} > 92 THEN {_invalid('DayOfQuarter', v)} ELSE {d} + ({v} - {doq}) END"))


def _with_day_of_week(d: str, v: str) -> str:
    return (f"CASE WHEN {v} < 1 OR {v} > 7 THEN {_invalid('DayOfWeek', v)}"
            f" ELSE {d} + ({v} - {rt.weekday_of(d)}) END")


def _with_day(d: str, v: str) -> str:
    return _civil(d, lambda y, m, dd: (
        f"CASE WHEN {v} < 1 OR {v} > {rt.month_length(y, m)} THEN {_invalid('DayOfMonth', v)}"
        f" ELSE {rt.days(y, m, v)} END"))


DATE_SETTERS: dict[str, Callable[[str, str], str]] = {
    "year": _with_year, "quarter": _with_quarter, "month": _with_month, "week": _with_week,
    "ordinalday": _with_ordinal_day, "dayofquarter": _with_day_of_quarter, "dayofweek": _with_day_of_week,
    "day": _with_day,
}


def _time_setter(unit: int, modulo: int, limit: int, what: str) -> Callable[[str, str], str]:
    def setter(t: str, v: str) -> str:
        current = f"({t} // {unit} % {modulo})"
        return (f"CASE WHEN {v} < 0 OR {v} > {limit} THEN {_invalid(what, v)}"
                f" ELSE {t} + ({v} - {current}) * {unit} END")
    return setter


TIME_SETTERS = {
    "hour": _time_setter(3600 * NANOS, 24, 23, "HourOfDay"),
    "minute": _time_setter(60 * NANOS, 60, 59, "MinuteOfHour"),
    "second": _time_setter(NANOS, 60, 59, "SecondOfMinute"),
}


def _with_subsecond(t: str, ms: str, us: str, ns: str) -> str:
    ms_max = "999"
    us_max = f"CASE WHEN {ms} IS NULL THEN 999999 ELSE 999 END"
    ns_max = f"CASE WHEN {ms} IS NULL AND {us} IS NULL THEN 999999999 ELSE 999 END"
    total = f"coalesce({ms}, 0) * 1000000 + coalesce({us}, 0) * 1000 + coalesce({ns}, 0)"
    return (f"CASE WHEN {ms} < 0 OR {ms} > {ms_max} THEN {_invalid('MilliOfSecond', ms)}"
            f" WHEN {us} < 0 OR {us} > {us_max} THEN {_invalid('MicroOfSecond', us)}"
            f" WHEN {ns} < 0 OR {ns} > {ns_max} THEN {_invalid('NanoOfSecond', ns)}"
            f" ELSE {t} - {rt.nanos(t)} + {total} END")


def _finish(state: State, target: str, timezone: str | None, converts: str) -> str:
    """The `target` value of a finished state, with the map's `timezone` (string SQL) if it had one."""
    if target == "DATE":
        return rt.make_date(state.d)
    if target == "LOCAL TIME":
        return rt.make_local_time(state.t)
    if target == "LOCAL DATETIME":
        return rt.make_local_datetime(state.d, state.t)
    if target == "ZONED TIME":
        base_offset = f"coalesce({state.o}, 0)"
        if timezone is None:
            return rt.make_time(state.t, base_offset)

        def with_zone(fixed: str, name: str) -> str:
            seconds, _ = rt.now_instant()
            offset = f"coalesce({fixed}, {rt.offset_at(name, seconds)})"
            return let([state.t, offset], lambda local, o: rt.make_time(
                f"CASE WHEN {converts} THEN {rt.fmod(f'{local} - {base_offset} * {NANOS} + {o} * {NANOS}', DAY_NANOS)}"
                f" ELSE {local} END", o))
        return let([timezone], lambda tz: rt.zone_spec(tz, with_zone))
    # ZONED DATETIME
    if timezone is None:
        return rt.resolve(state.d, state.t, f"coalesce({state.o}, 0)", state.z)

    def with_zone(tz: str) -> str:
        def body(o: str, z: str, d: str, t: str) -> str:
            same_local = rt.resolve(d, t, o, z)
            if converts == "false":
                return same_local
            same_instant = let([rt.resolve(d, t, f"coalesce({state.o}, {o})",
                                           f"CASE WHEN {state.o} IS NULL THEN {z} ELSE {state.z} END")],
                               lambda x: rt.at_instant(rt.dot(x, "e"), rt.dot(x, "n"), o, z))
            if converts == "true":
                return same_instant
            return f"CASE WHEN {converts} THEN {same_instant} ELSE {same_local} END"
        return rt.zone_spec(tz, lambda o, z: let([state.d, state.t], lambda d, t: body(o, z, d, t)))
    return let([timezone], with_zone)


# -- construction from a map whose keys only the row knows (ADR-0087) ---------------------------------------

@dataclass(frozen=True)
class RowKeys:
    """Reads of the VARIANT map `v` by Neo4j's field names: `raw` its keys (SQL list), `names` the same keys
    lower-cased with their aliases resolved, in the same order."""

    v: str
    raw: str
    names: str

    def has(self, name: str) -> str:
        if name == "subsecond":
            return "(" + " OR ".join(self.has(field) for field in SUBSECOND_FIELDS) + ")"
        return f"list_contains({self.names}, {sql_string(name)})"

    def any(self, names: Sequence[str]) -> str:
        return "(" + " OR ".join(self.has(name) for name in names) + ")"

    def value(self, name: str) -> SqlValue:
        return SqlValue(f"cy_map_get({self.v}, {self.raw}[list_position({self.names}, {sql_string(name)})])",
                        type=t.ANY, span=None)


def from_any_map(c: ExpressionCompiler, v: str, target: str) -> str:
    """`target` from the VARIANT map `v` of any keys: Neo4j's builder with each of its choices (which
    fields, which base, which checks) a test on the row's own keys rather than on the statement's text, so
    one SQL expression serves every key set (`date(properties(n))`). The rules are those of `_from_map`."""
    aliases = " ".join(f"WHEN {sql_string(alias)} THEN {sql_string(name)}" for alias, name in ALIASES.items())
    with rt.isolated():  # bound where it stands: a caller's CASE may give it only the rows that hold a map
        return let([f"variant_keys({v})"], lambda raw: let(
            [f"list_transform({raw}, lambda k: CASE lower(k) {aliases} ELSE lower(k) END)"],
            lambda names: _complete(_any_map_checked(c, RowKeys(v, raw, names), target), target)))


def _any_map_checked(c: ExpressionCompiler, keys: RowKeys, target: str) -> str:
    name = next(function for function, kind in KIND_OF_FUNCTION.items() if kind == target)
    allowed = set(DURATION_FIELDS) if target == "DURATION" else ALLOWED[target]
    allowed_sql = "[" + ", ".join(sql_string(key) for key in sorted(allowed)) + "]"
    twice = f"list_filter({keys.raw}, lambda k, i: list_position({keys.names}, {keys.names}[i]) < i)[1]"
    unknown = f"list_sort(list_filter({keys.names}, lambda k: NOT list_contains({allowed_sql}, k)))[1]"
    whens = [
        (f"len(list_distinct({keys.names})) < len({keys.names})", fail(f"'field `' || {twice} || '` given twice'")),
        (f"len({keys.names}) = 0",
         fail(sql_string(f"{name}() needs at least one component: {name}({{}}) is invalid"))),
    ]
    if target == "DURATION":
        whens.append((f"{unknown} IS NOT NULL", fail(f"'duration() has no field `' || {unknown} || '`'")))
        with rt.isolated():
            return _cases(whens, _duration_from_any_map(c, keys))
    whens += [
        (f"{keys.names} = ['timezone']", now(target, _string(c, keys.value("timezone")))),
        (f"{unknown} IS NOT NULL", fail(f"'{target.lower()}() has no field `' || {unknown} || '`'")),
    ]
    whens.append((f"{_component_message(keys, target)} IS NOT NULL", fail(_component_message(keys, target))))
    whens.append((f"{keys.has('datetime')} AND {keys.any(('date', 'time', 'epochseconds', 'epochmillis'))}",
                  fail("'datetime cannot be selected together with date, time or an epoch'")))
    whens.append((f"{keys.has('epochseconds')} AND {keys.has('epochmillis')}",
                  fail("'epochSeconds cannot be selected together with epochMillis'")))
    with rt.isolated():  # the builder's bindings inside the ELSE: they run only on rows the checks pass
        return _cases(whens, _build_any(c, keys, target))


def _cases(whens: Sequence[tuple[str, str]], otherwise: str) -> str:
    return "CASE " + " ".join(f"WHEN {test} THEN {value}" for test, value in whens) + f" ELSE {otherwise} END"


def _component_message(keys: RowKeys, target: str) -> str:
    """`_check_components` as SQL: its first message for the row's keys, or NULL."""
    messages = [f"CASE WHEN NOT {keys.has('date')} AND {keys.any(order[1:])} THEN {_in_order_sql(order, keys)} END"
                for order in DATE_ORDERS]
    time_keys = keys.any((*TIME_FIELDS, *SUBSECOND_FIELDS))
    messages.append(f"CASE WHEN {time_keys} AND NOT {keys.has('time')} THEN {_in_order_sql(TIME_ORDER, keys)} END")
    if target in ("LOCAL DATETIME", "ZONED DATETIME"):
        chosen = " ".join(f"WHEN {keys.any(order[1:])} THEN {_missing_sql(order, keys)}" for order in COMPLETE_DATES)
        messages.append(f"CASE WHEN ({time_keys} OR {keys.has('time')}) AND NOT {keys.has('date')} THEN"
                        f" CASE {chosen} ELSE {_missing_sql(('year', 'month'), keys)} END END")
    lifted = keys.any(("datetime", "epochseconds", "epochmillis"))
    return f"CASE WHEN NOT {lifted} THEN coalesce({', '.join(messages)}) END"


def _in_order_sql(order: Sequence[str], keys: RowKeys) -> str:
    """`_in_order` as SQL: its message for the row's keys, or NULL."""
    whens = [f"WHEN NOT {keys.has(order[0])} THEN {sql_string(f'{order[0]} must be specified')}"]
    for i in range(1, len(order)):
        for j in range(i + 1, len(order)):
            tests = [keys.has(name) for name in order[1:i]] + [f"NOT {keys.has(order[i])}"]
            tests += [f"NOT {keys.has(name)}" for name in order[i + 1:j]] + [keys.has(order[j])]
            message = (f"{_FIELD_NAMES.get(order[j], order[j])} cannot be specified without "
                       f"{_FIELD_NAMES.get(order[i], order[i])}")
            whens.append(f"WHEN {' AND '.join(tests)} THEN {sql_string(message)}")
    return f"CASE {' '.join(whens)} END"


def _missing_sql(order: Sequence[str], keys: RowKeys) -> str:
    whens = " ".join(f"WHEN NOT {keys.has(name)} THEN {sql_string(f'{_FIELD_NAMES.get(name, name)} must be specified')}"
                     for name in order)
    return f"CASE {whens} END"


def _duration_from_any_map(c: ExpressionCompiler, keys: RowKeys) -> str:
    def value(name: str) -> str:
        return f"CASE WHEN {keys.has(name)} THEN {number_of(c, keys.value(name))} ELSE 0 END"
    return let([value(name) for name in DURATION_FIELDS], lambda *v: rt.approximate(
        f"{v[0]} * 12 + {v[1]}", f"{v[2]} * 7 + {v[3]}", f"{v[4]} * 3600 + {v[5]} * 60 + {v[6]}",
        f"{v[7]} * 1000000 + {v[8]} * 1000 + {v[9]}"))


SOURCES = ("datetime", "date", "time")
"""The selected values a map may start from, besides an epoch, in the order `_build` takes them."""


def _build_any(c: ExpressionCompiler, keys: RowKeys, target: str) -> str:
    """`_build` with each choice a test on the row's keys: every source the target takes is read (NULL
    parts when absent), the base is the first present, the fields are laid over it where present."""
    sources = [name for name in SOURCES if name in ALLOWED[target]]
    timezone = _string(c, keys.value("timezone")) if "timezone" in ALLOWED[target] else None

    def read(i: int, found: dict[str, tuple[Parts, str]]) -> str:
        if i < len(sources):
            return with_parts(c, keys.value(sources[i]), lambda parts, null: read(i + 1, {**found, sources[i]: (
                parts, null)}))
        if "epochseconds" in ALLOWED[target]:
            return _epoch_any(c, keys, timezone, lambda parts: _laid_over(c, keys, target, timezone, {
                **found, "epoch": (parts, "false")}))
        return _laid_over(c, keys, target, timezone, found)
    return read(0, {})


def _epoch_any(c: ExpressionCompiler, keys: RowKeys, timezone: str | None, body: Callable[[Parts], str]) -> str:
    """Parts of the instant `epochSeconds` or `epochMillis` gives, in the map's time zone when it has one."""
    seconds, millis = _integer(c, keys.value("epochseconds")), _integer(c, keys.value("epochmillis"))
    has_seconds = keys.has("epochseconds")
    instant = [f"CASE WHEN {has_seconds} THEN {seconds} ELSE {rt.fdiv(millis, 1000)} END",
               f"CASE WHEN {has_seconds} THEN 0 ELSE {rt.fmod(millis, 1000)} * 1000000 END"]

    def at(s: str, n: str) -> str:
        utc = rt.at_instant(s, n, Term("0"), Term("NULL::VARCHAR"))
        if timezone is None:
            return utc
        return let([timezone], lambda tz: f"CASE WHEN {keys.has('timezone')} THEN "
                   + rt.zone_spec(tz, lambda o, z: rt.at_instant(s, n, o, z)) + f" ELSE {utc} END")
    return let(instant, lambda s, n: let([at(s, n)], lambda x: body(rt.parts_of(x, "ZONED DATETIME"))))


def _laid_over(c: ExpressionCompiler, keys: RowKeys, target: str, timezone: str | None,
               found: dict[str, tuple[Parts, str]]) -> str:
    has = keys.has
    epoch = keys.any(("epochseconds", "epochmillis"))
    present = {"datetime": has("datetime"), "epoch": epoch, "date": has("date"), "time": has("time")}

    def first(field: str, names: Sequence[str], default: str) -> str:
        whens = " ".join(f"WHEN {present[name]} THEN {getattr(found[name][0], field)}"
                         for name in names if name in found)
        return f"CASE {whens} ELSE {default} END" if whens else default
    base = [first("d", ("datetime", "epoch", "date"), str(EPOCH_DAY_0000)),
            first("t", ("datetime", "epoch", "time"), "0"),
            first("o", ("datetime", "epoch", "time"), "NULL::BIGINT"),
            first("z", ("datetime", "epoch", "time"), "NULL::VARCHAR"),
            "CASE " + " ".join(f"WHEN {present[name]} THEN {test}" for name, test in (
                ("datetime", f"{found['datetime'][0].o} IS NOT NULL" if "datetime" in found else "false"),
                ("epoch", "true"), ("time", f"{found['time'][0].o} IS NOT NULL" if "time" in found else "false")))
            + " ELSE false END"]

    def finish(d: str, t_: str, o: str, z: str, zoned: str) -> str:
        week_start = f"{has('week')} AND NOT {keys.any(('date', 'datetime', 'epochseconds', 'epochmillis'))}"
        year = f"CASE WHEN {has('year')} THEN {_integer(c, keys.value('year'))} ELSE 0 END"
        d = let([d, year], lambda d, y: f"CASE WHEN {week_start} THEN {rt.week_one(y)} ELSE {d} END")
        for name in DATE_FIELDS:
            def set_date(d: str, v: str, name: str = name) -> str:
                setter = DATE_SETTERS[name](d, v)
                if name == "year":
                    setter = f"CASE WHEN {has('week')} THEN {_with_week_year(d, v)} ELSE {setter} END"
                return f"CASE WHEN {has(name)} THEN {setter} ELSE {d} END"
            d = let([d, _integer(c, keys.value(name))], set_date)
        for name in TIME_FIELDS:
            t_ = let([t_, _integer(c, keys.value(name))], lambda t_, v, name=name: (
                f"CASE WHEN {has(name)} THEN {TIME_SETTERS[name](t_, v)} ELSE {t_} END"))
        t_ = let([t_, *(_integer(c, keys.value(name)) for name in SUBSECOND_FIELDS)], lambda t_, *v: (
            f"CASE WHEN {has('subsecond')} THEN {_with_subsecond(t_, *v)} ELSE {t_} END"))
        return let([d, t_], lambda d, t_: _finished_any(keys, State(d, t_, o, z, zoned), target, timezone))
    return _sources_guarded(keys, found, let(base, finish))


def _finished_any(keys: RowKeys, state: State, target: str, timezone: str | None) -> str:
    if timezone is None:
        return _finish(state, target, None, state.zoned)
    return (f"CASE WHEN {keys.has('timezone')} THEN {_finish(state, target, timezone, state.zoned)}"
            f" ELSE {_finish(state, target, None, state.zoned)} END")


def _sources_guarded(keys: RowKeys, found: dict[str, tuple[Parts, str]], sql: str) -> str:
    """`_guarded_source` for each source the row's map selects: null when it is null, an error when it
    lacks the part selected."""
    needs = {"datetime": ("d", "t"), "date": ("d",), "time": ("t",)}
    whens = []
    for name in ("date", "time", "datetime"):
        if name in found:
            parts, null = found[name]
            missing = " OR ".join(f"{getattr(parts, part)} IS NULL" for part in needs[name])
            whens += [f"WHEN {keys.has(name)} AND {null} THEN NULL",
                      f"WHEN {keys.has(name)} AND ({missing}) THEN "
                      + fail(sql_string(f"cannot select {name} from this value"))]
    return f"CASE {' '.join(whens)} ELSE {sql} END" if whens else sql


# -- truncation ----------------------------------------------------------------------------------------------

DATE_UNITS = ("millennium", "century", "decade", "year", "weekyear", "quarter", "month", "week", "day")
TIME_UNITS = {"hour": 3600 * NANOS, "minute": 60 * NANOS, "second": NANOS, "millisecond": 1_000_000,
              "microsecond": 1000, "nanosecond": 1}


def _truncated_day(d: str, unit: str) -> str:
    if unit in ("millennium", "century", "decade"):
        size = {"millennium": 1000, "century": 100, "decade": 10}[unit]
        return let([rt.year_of(d)], lambda y: rt.days(f"{rt.fdiv(y, size)} * {size}", Term("1"), Term("1")))
    if unit == "year":
        return let([rt.year_of(d)], lambda y: rt.days(y, Term("1"), Term("1")))
    if unit == "weekyear":
        return rt.week_one(rt.week_year_of(d))
    if unit == "quarter":
        return let([rt.year_of(d), rt.quarter_of(d)],
                   lambda y, q: rt.days(y, f"({q} - 1) * 3 + 1", Term("1")))
    if unit == "month":
        return let([rt.year_of(d), rt.month_of(d)], lambda y, m: rt.days(y, m, Term("1")))
    if unit == "week":
        return f"{d} - {rt.weekday_of(d)} + 1"
    return d


def truncate(target: str) -> Builder:
    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        unit_argument = f.arguments[0]
        given = _given_unit(unit_argument)
        if given is not None:
            return _truncate_to(c, f, given, unit_argument.span, target)
        return let([_string(c, unit_argument)], lambda unit: _truncate_per_row(c, f, unit, target))
    return build


def _given_unit(argument: b.BoundExpression) -> str | None:
    """The unit a literal or a parameter gives (a statement run again with another one compiles again); None
    for a unit read off the row. A given unit that is not a string is Neo4j's invalid call."""
    if not isinstance(argument, b.BLiteral | b.BParameter) or argument.value is UNKNOWN:
        return None
    if not isinstance(argument.value, str):
        got = t.type_name(t.type_of_value(argument.value))
        raise CypherArgumentError(f"a truncation unit must be a String, got {got}", argument.span,
                                  detail="InvalidArgumentValue")
    return argument.value


def _truncate_per_row(c: ExpressionCompiler, f: b.BFunction, unit: str, target: str) -> str:
    """Truncation to the unit string SQL `unit` of each row: a branch per unit it may be (those an UNWIND of a
    parameter gives, else every unit), each compiled as for that unit written in the statement; a unit the
    target does not take is that branch's error, on the rows that bring it."""
    known = _known_values(f.arguments[0])
    units = [name for name in (*DATE_UNITS, *TIME_UNITS)
             if known is None or name in {value.lower() for value in known if isinstance(value, str)}]
    span = f.arguments[0].span
    value = f.arguments[1] if len(f.arguments) > 1 else None
    rest = f.arguments[2:]

    def branches(v: str | None) -> str:
        call_ = f if v is None else replace(f, arguments=(f.arguments[0], SqlValue(v, type=value.type, span=value.span),
                                                          *rest))
        whens = []
        for name in units:
            try:
                built = _truncate_to(c, call_, name, span, target)
            except CypherArgumentError as error:
                built = fail(sql_string(error.message), detail=error.detail or "InvalidArgumentValue")
            whens.append(f"WHEN {sql_string(name)} THEN {built}")
        not_a_unit = fail(f"'unsupported unit for truncation: ' || {unit}")
        null_unit = fail("'a truncation unit must be a String, got NULL'")
        return (f"CASE lower({unit}) {' '.join(whens)}"
                f" ELSE CASE WHEN {unit} IS NULL THEN {null_unit} ELSE {not_a_unit} END END")
    if value is None or value.type.kind is Kind.NULL:
        return branches(None)
    return let([compiled(c, value)], branches)


def _truncate_to(c: ExpressionCompiler, f: b.BFunction, given: str, span: Any, target: str) -> str:
    """`target.truncate(given, value[, fields])` with the unit known as the query compiles."""
    unit = given.lower()
    if unit not in DATE_UNITS and unit not in TIME_UNITS:
        raise CypherArgumentError(f"unsupported unit for truncation: {given}", span, detail="InvalidArgumentValue")
    if target in ("DATE",) and unit in TIME_UNITS:
        raise CypherArgumentError(f"unit too small for truncating a date: {given}", span,
                                  detail="InvalidArgumentValue")
    if target in ("LOCAL TIME", "ZONED TIME") and unit in DATE_UNITS and unit != "day":
        raise CypherArgumentError(f"unit too large for truncating a time: {given}", span,
                                  detail="InvalidArgumentValue")
    # "If `input` is not provided, it will be set to the current date" (and time, and zone): the manual's
    # `date.truncate(unit)` is `date.truncate(unit, date())`.
    value = f.arguments[1] if len(f.arguments) > 1 else SqlValue(
        now(target), type=CypherType(Kind(target)), span=f.span)
    if value.type.kind is Kind.NULL:
        return SQL_NULL[target]
    if len(f.arguments) > 2 and f.arguments[2].type.kind is not Kind.NULL:
        def with_fields(fields: dict[str, b.BoundExpression], null: str | None) -> str:
            return _null_guard(null, _truncate(c, value, unit, target, fields))
        return _complete(map_entries(c, f.arguments[2], with_fields), target)
    return _truncate(c, value, unit, target, {})


def _truncate(c: ExpressionCompiler, value: b.BoundExpression, unit: str, target: str,
              fields: dict[str, b.BoundExpression]) -> str:
    unknown = set(fields) - ALLOWED[target]
    if unknown:
        raise CypherArgumentError(f"truncate() has no field `{sorted(unknown)[0]}`", value.span,
                                  detail="InvalidArgumentValue")
    fields = dict(fields)
    timezone = _string(c, fields.pop("timezone")) if "timezone" in fields else None

    def body(parts: Parts, null: str) -> str:
        d = Term("NULL::BIGINT") if target in ("LOCAL TIME", "ZONED TIME") else (
            parts.d if unit in TIME_UNITS else _truncated_day(parts.d, unit))
        if unit in TIME_UNITS:
            size = TIME_UNITS[unit]
            t = parts.t if size == 1 else f"{parts.t} - {parts.t} % {size}"
        else:
            t = Term("0")
        if unit in ("millisecond", "microsecond"):
            finer = [name for name in SUBSECOND_FIELDS[SUBSECOND_FIELDS.index(unit) + 1:] if name in fields]
            for name in finer:
                t = f"{t} + {_integer(c, fields.pop(name))} * {1000 if name == 'microsecond' else 1}"
        state = State(d if target not in ("LOCAL TIME", "ZONED TIME") else Term(str(EPOCH_DAY_0000)),
                      f"coalesce({t}, 0)", parts.o, parts.z, "false")
        state = _assign_fields(c, state, fields, after_week_start=False)
        missing = []
        if target in ("DATE", "LOCAL DATETIME", "ZONED DATETIME"):
            missing.append(f"{parts.d} IS NULL")
        if target in ("LOCAL TIME", "ZONED TIME") or unit in TIME_UNITS:
            missing.append(f"{parts.t} IS NULL")
        result = _finish(state, target, timezone, "false")
        return (f"CASE WHEN {null} THEN NULL WHEN {' OR '.join(missing)} THEN "
                + fail(sql_string(f"cannot truncate this value to {target.lower()}")) + f" ELSE {result} END")
    return with_parts(c, value, body)


# -- durations between instants -------------------------------------------------------------------------------

def between(mode: str) -> Builder:
    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        first, second = f.arguments
        if Kind.NULL in (first.type.kind, second.type.kind):
            return SQL_NULL["DURATION"]
        for argument in (first, second):
            if argument.type.kind not in INSTANTS and not _checked_per_row(argument):
                raise type_error(f"duration.{mode}() expects temporal values, not {argument.type!r}", argument.span)
        return with_parts(c, first, lambda a, a_null: with_parts(c, second, lambda z, z_null: (
            f"CASE WHEN {a_null} OR {z_null} THEN NULL ELSE {_between(a, z, mode)} END")))
    return build


def _between(a: Parts, z: Parts, mode: str) -> str:
    """Neo4j's duration between two instants: a date-less side takes the other's date, a time-less side
    midnight, a zone-less side the other's zone; months and days counted on local date-times (the later
    one seen in the earlier one's zone), the rest in exact time."""
    def attach(a: Parts, z: Parts) -> Callable[..., str]:
        def inner(d1: str, t1: str, o1: str, z1: str, d2: str, t2: str, o2: str, z2: str) -> str:
            return _between_local(d1, t1, o1, z1, d2, t2, o2, z2, mode)
        return inner
    values = [f"coalesce({a.d}, {z.d}, 0)", f"coalesce({a.t}, 0)",
              f"coalesce({a.o}, {z.o})", f"CASE WHEN {a.o} IS NULL THEN {z.z} ELSE {a.z} END",
              f"coalesce({z.d}, {a.d}, 0)", f"coalesce({z.t}, 0)",
              f"coalesce({z.o}, {a.o})", f"CASE WHEN {z.o} IS NULL THEN {a.z} ELSE {z.z} END"]
    checks = (f"CASE WHEN ({a.t} IS NULL AND {a.d} IS NULL) OR ({z.t} IS NULL AND {z.d} IS NULL) THEN "
              + error_sql("TypeError", "InvalidArgumentType", "'duration functions expect temporal values'")
              + " ELSE ")
    return checks + let(values, attach(a, z)) + " END"


def _between_local(d1: str, t1: str, o1: str, z1: str, d2: str, t2: str, o2: str, z2: str, mode: str) -> str:
    """Both sides with day, time and (when either had one) zone; (o, z) both NULL means local."""
    def instant(d: str, t: str, o: str, z: str) -> str:
        """UTC nanoseconds (local ones for a local value) as HUGEINT."""
        return (f"CASE WHEN {o} IS NULL AND {z} IS NULL THEN ({d})::HUGEINT * {DAY_NANOS} + {t}"
                f" ELSE ({rt.resolve(d, t, f'coalesce({o}, 0)', z)}).e::HUGEINT * {NANOS} + {t} % {NANOS} END")

    def as_duration(months: str, days: str, total: str) -> str:
        return let([total], lambda n: rt.make_duration(months, days, rt.fdiv(n, NANOS, huge=True),
                                                       rt.fmod(n, NANOS, huge=True)))

    def with_second(i2: str) -> str:
        if mode == "inseconds":
            return let([instant(d1, t1, o1, z1)], lambda i1: as_duration(Term("0"), Term("0"), f"{i2} - {i1}"))
        # The second value as a local date-time in the first one's zone.
        offset = f"CASE WHEN {z1} IS NULL THEN {o1} ELSE {rt.offset_at(z1, rt.fdiv(i2, NANOS, huge=True))} END"
        local = (f"CASE WHEN {o1} IS NULL AND {z1} IS NULL THEN ({d2})::HUGEINT * {DAY_NANOS} + {t2}"
                 f" ELSE {i2} + ({offset})::HUGEINT * {NANOS} END")
        return let([local], lambda n: let([f"({rt.fdiv(n, DAY_NANOS, huge=True)})::BIGINT",
                                           f"({rt.fmod(n, DAY_NANOS, huge=True)})::BIGINT"],
                                          lambda e2, u2: counted(i2, e2, u2)))

    def counted(i2: str, e2: str, u2: str) -> str:
        if mode == "inmonths":
            return rt.make_duration(_until("months", d1, t1, e2, u2), Term("0"), Term("0"), Term("0"))
        if mode == "indays":
            return rt.make_duration(Term("0"), _until("days", d1, t1, e2, u2), Term("0"), Term("0"))
        return let([_until("months", d1, t1, e2, u2)], lambda months: let(
            [f"cy_t_add_months({d1}, {months})"], lambda moved: let(
                [_until("days", moved, t1, e2, u2)], lambda days: let(
                    [instant(f"{moved} + {days}", t1, o1, z1)], lambda i1: as_duration(
                        months, days, f"{i2} - {i1}")))))
    return let([instant(d2, t2, o2, z2)], with_second)


def _until(unit: str, e1: str, u1: str, e2: str, u2: str) -> str:
    """java.time's LocalDateTime.until in whole months or days, from (day e1, time u1) to (e2, u2)."""
    adjusted = (f"CASE WHEN {e2} > {e1} AND {u2} < {u1} THEN {e2} - 1"
                f" WHEN {e2} < {e1} AND {u2} > {u1} THEN {e2} + 1 ELSE {e2} END")
    if unit == "days":
        return f"({adjusted} - {e1})"
    return let([adjusted, e1], lambda end, start: (
        f"((({rt.year_of(end)} * 12 + {rt.month_of(end)} - 1) * 32 + {rt.day_of(end)})"
        f" - (({rt.year_of(start)} * 12 + {rt.month_of(start)} - 1) * 32 + {rt.day_of(start)})) // 32"))


# -- components, strings, operators -------------------------------------------------------------------------

def to_string(c: ExpressionCompiler, argument: b.BoundExpression) -> str:
    return let([compiled(c, argument)], lambda x: rt.to_text(x, argument.type.kind.value))


# -- the functions -----------------------------------------------------------------------------------------

def _constructor(target: str) -> Builder:
    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        if not f.arguments:
            return now(target)
        return convert(c, f.arguments[0], target)
    return build


def _clock(target: str) -> Builder:
    """`date.transaction()`, `.statement()`, `.realtime()`: now, optionally in a time zone."""
    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        if not f.arguments:
            return now(target)
        argument = f.arguments[0]
        if argument.type.kind is Kind.NULL:
            return SQL_NULL[target]
        if argument.type.is_record or isinstance(argument, b.BMap):
            return from_map(c, argument, target)
        return let([_string(c, argument)], lambda zone: (
            f"CASE WHEN {zone} IS NULL THEN NULL ELSE {now(target, zone)} END"))
    return build


def _datetime_from_epoch(c: ExpressionCompiler, f: b.BFunction) -> str:
    seconds, nanos = (_integer(c, argument) for argument in f.arguments)
    return let([seconds, nanos], lambda s, n: (
        f"CASE WHEN {s} IS NULL OR {n} IS NULL THEN NULL WHEN {n} < 0 OR {n} >= {NANOS} THEN "
        + fail(f"'Invalid nanosecond: ' || {n}") + f" ELSE {rt.make_datetime(s, n, '0', 'NULL')} END"))


def _datetime_from_epoch_millis(c: ExpressionCompiler, f: b.BFunction) -> str:
    return let([_integer(c, f.arguments[0])], lambda ms: (
        f"CASE WHEN {ms} IS NULL THEN NULL ELSE "
        + rt.make_datetime(rt.fdiv(ms, 1000), f"{rt.fmod(ms, 1000)} * 1000000", Term("0"), Term("NULL"))
        + " END"))


def _functions() -> dict[str, Builder]:
    functions: dict[str, Builder] = {}
    for name, kind in KIND_OF_FUNCTION.items():
        functions[name] = _constructor(kind)
        if kind != "DURATION":
            for clock in ("transaction", "statement", "realtime"):
                functions[f"{name}.{clock}"] = _clock(kind)
            functions[f"{name}.truncate"] = truncate(kind)
    functions["datetime.fromepoch"] = _datetime_from_epoch
    functions["datetime.fromepochmillis"] = _datetime_from_epoch_millis
    for mode in ("between", "inmonths", "indays", "inseconds"):
        functions[f"duration.{mode}"] = between(mode)
    return functions


FUNCTIONS: dict[str, Builder] = _functions()
