"""Temporal values in SQL (ADR-0014): SQL builders, and the `cy_t_*` macros made from them.

Every temporal type is a STRUCT (`engine.temporal.PAYLOAD_FIELDS`); in a VARIANT it sits under its
reserved key (`\\x01date`, ...). The builders here take SQL text and return SQL text. They assume their
inputs are cheap to repeat (column names, struct fields, constants) and bind anything costlier once with
`let`, because DuckDB substitutes macro arguments textually; `call()` invokes a macro the same way.

Calendar arithmetic works on epoch days with integer floor division (`fdiv`, `fmod`: no floating point, no
overflow for ±10^9 years); calendar fields come from DuckDB's DATE functions on the day shifted into
1970-2369 by whole 400-year Gregorian cycles (146,097 days, a whole number of weeks), so they hold for any
year. Named zones go through ICU's `timezone()` on whole seconds.

"Parts" are the common currency between types: local epoch day `d`, local nanosecond of the day `t`,
offset seconds `o` and zone name `z`, each NULL when the type has none (`cy_t_parts(v)` makes them from a
VARIANT; `parts_of()` from a typed STRUCT).
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import temporal
from engine.quoting import sql_identifier, sql_string
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.sql import Term, term_field
from engine.storage.encoding import tag_key
from engine.values import Date, DateTime

NANOS = 1_000_000_000
DAY = 86_400
DAY_NANOS = DAY * NANOS
MONTH_SECONDS = 2_629_746  # Neo4j's average month, for ordering durations
EPOCH_DAY_0000 = -719_528  # 0000-01-01, Neo4j's default date in map construction

KIND_CODES = {"DATE": 10, "LOCAL TIME": 11, "ZONED TIME": 12, "LOCAL DATETIME": 13, "ZONED DATETIME": 14,
              "DURATION": 15}
INSTANT_KINDS = ("DATE", "LOCAL TIME", "ZONED TIME", "LOCAL DATETIME", "ZONED DATETIME")
TYPE_NAMES = {"DATE": "Date", "LOCAL TIME": "LocalTime", "ZONED TIME": "Time", "LOCAL DATETIME": "LocalDateTime",
              "ZONED DATETIME": "DateTime", "DURATION": "Duration"}
PARTS_TYPE = "STRUCT(k BIGINT, d BIGINT, t BIGINT, o BIGINT, z VARCHAR)"


def payload_type(kind: str) -> str:
    return temporal.payload_sql_type(kind)


# -- binding -----------------------------------------------------------------------------------------

_NAMES = itertools.count()


def cheap(sql: str) -> bool:
    """Whether `sql` is repeated where it is named rather than bound once: a `Term`."""
    return isinstance(sql, Term)


class Flow:
    """Values computed once, in stages: `{f0: ..}` then `list_transform([prev], lambda tlN: {.., f3: ..})[1]`
    and so on, the result last. DuckDB binds a lambda nested in another lambda's body once per enclosing
    level (time doubles with each), but one in a list argument only once, so a chain of bindings must run
    along the arguments: `let` inside another `let`'s body adds a stage to the enclosing flow instead of
    nesting. Stages carry forward only the fields read later."""

    def __init__(self) -> None:
        self.param = f"tl{next(_NAMES)}"
        self.stages: list[list[tuple[str, str]]] = []
        self.count = 0

    def bind(self, values: Sequence[str]) -> list[str]:
        stage, names = [], []
        for value in values:
            if cheap(value):
                names.append(value)
                continue
            name = f"f{self.count}"
            self.count += 1
            stage.append((name, value))
            names.append(Term(f"{self.param}.{name}"))
        if stage:
            self.stages.append(stage)
        return names

    def render(self, result: str) -> str:
        """Each stage carries every field bound before it: which of them a later stage reads is known only
        from its SQL text, and no decision here reads SQL text (ADR-0072)."""
        p = self.param
        defined: list[str] = []
        sql = ""
        for stage in self.stages:
            fields = [f"'{name}': {p}.{name}" for name in defined] + [f"'{name}': {value}" for name, value in stage]
            struct = "{" + ", ".join(fields) + "}"
            sql = struct if not defined else f"list_transform([{sql}], lambda {p}: {struct})[1]"
            defined += [name for name, _ in stage]
        return f"list_transform([{sql}], lambda {p}: {result})[1]"


_FLOWS: list[Flow | None] = []


class isolated:
    """Within it, `let` starts flows of its own: for SQL compiled elsewhere (an argument expression), whose
    DuckDB lambdas a binding must not be hoisted out of."""

    def __enter__(self) -> None:
        _FLOWS.append(None)

    def __exit__(self, *exc: object) -> None:
        _FLOWS.pop()


def let(values: Sequence[str], body: Callable[..., str]) -> str:
    """`body(*names)` with each value that is not cheap evaluated once (DuckDB expands macro arguments
    textually, so a repeated costly argument is costly each time). See `Flow`."""
    if _FLOWS and _FLOWS[-1] is not None:
        return body(*_FLOWS[-1].bind(values))
    if all(cheap(value) for value in values):
        return body(*values)
    flow = Flow()
    names = flow.bind(values)
    _FLOWS.append(flow)
    try:
        result = body(*names)
    finally:
        _FLOWS.pop()
    return flow.render(result)


def over(value: str, body: Callable[[str], str]) -> str:
    """`body(name)` with `value` as a lambda's own parameter. For wide STRUCTs (a `regexp_extract` with many
    groups): read through the STRUCT a `let` wraps values in, each field read copies the whole value."""
    name = Term(f"tl{next(_NAMES)}")
    with isolated():
        inner = body(name)
    return f"list_transform([{value}], lambda {name}: {inner})[1]"


def call(macro: str, *arguments: str) -> str:
    return let(arguments, lambda *names: f"{macro}({', '.join(names)})")


def fail(message_sql: str, kind: str = "ArgumentError", detail: str = "InvalidArgumentValue") -> str:
    return error_sql(kind, detail, message_sql)


# -- integers and the calendar --------------------------------------------------------------------------

def fdiv(a: str, b: int, *, huge: bool = False) -> str:
    """Floor division by a positive constant, exact: shift into the positive range, divide, shift back."""
    shift = (10**37 if huge else 4 * 10**18) // b
    return f"((({a}) + {shift * b}) // {b} - {shift})"


def fmod(a: str, b: int, *, huge: bool = False) -> str:
    shift = (10**37 if huge else 4 * 10**18) // b
    return f"((({a}) + {shift * b}) % {b})"


def shifted_date(z: str) -> str:
    """A DuckDB DATE with the same month, day and weekday as epoch day `z`, 400·k years from it."""
    return f"(DATE '1970-01-01' + ({fmod(z, 146097)})::INTEGER)"


def year_of(z: str) -> str:
    return f"(year({shifted_date(z)}) + 400 * ({fdiv(z, 146097)}))"


def month_of(z: str) -> str:
    return f"month({shifted_date(z)})"


def day_of(z: str) -> str:
    return f"day({shifted_date(z)})"


def day_of_year(z: str) -> str:
    return f"dayofyear({shifted_date(z)})"


def quarter_of(z: str) -> str:
    return f"quarter({shifted_date(z)})"


def weekday_of(z: str) -> str:
    """ISO day of the week, Monday 1 (1970-01-01 was a Thursday)."""
    return f"({fmod(f'{z} + 3', 7)} + 1)"


def week_of(z: str) -> str:
    return f"week({shifted_date(z)})"


def week_year_of(z: str) -> str:
    return f"(isoyear({shifted_date(z)}) + 400 * ({fdiv(z, 146097)}))"


def day_of_quarter(z: str) -> str:
    date = shifted_date(z)
    return f"(({date} - date_trunc('quarter', {date})::DATE) + 1)"


def days(y: str, m: str, d: str) -> str:
    """Epoch day of a proleptic Gregorian date (unchecked); `y` and `m` are repeated."""
    yy = f"({y} - ({m} <= 2)::BIGINT)"
    return (f"({fdiv(yy, 400)} * 146097 + {fmod(yy, 400)} * 365 + {fmod(yy, 400)} // 4"
            f" - {fmod(yy, 400)} // 100 + (153 * (({m} + 9) % 12) + 2) // 5 + ({d}) - 719469)")


def leap(y: str) -> str:
    return f"(({y}) % 4 = 0 AND (({y}) % 100 <> 0 OR ({y}) % 400 = 0))"


def month_length(y: str, m: str) -> str:
    return (f"CASE WHEN {m} = 2 THEN CASE WHEN {leap(y)} THEN 29 ELSE 28 END"
            f" WHEN {m} IN (4, 6, 9, 11) THEN 30 ELSE 31 END")


def week_one(y: str) -> str:
    """Epoch day of the Monday of ISO week 1 of week-based year `y`."""
    return let([days(y, "1", "4")], lambda jan4: f"({jan4} - {weekday_of(jan4)} + 1)")


def weeks_in(y: str) -> str:
    return week_of(days(y, "12", "28"))


def hours(t: str) -> str:
    return f"(({t}) // {3600 * NANOS})"


def minutes(t: str) -> str:
    return f"((({t}) // {60 * NANOS}) % 60)"


def seconds(t: str) -> str:
    return f"((({t}) // {NANOS}) % 60)"


def nanos(t: str) -> str:
    return f"(({t}) % {NANOS})"


# -- values: parts, construction, resolution -------------------------------------------------------------

@dataclass(frozen=True)
class Parts:
    """A temporal instant broken down: SQL for the local day, local nanosecond of the day, offset and zone
    (`NULL` where the type has none); `s`/`n` the UTC instant when it is at hand; `kind` when static."""

    d: str = Term("NULL::BIGINT")
    t: str = Term("NULL::BIGINT")
    o: str = Term("NULL::BIGINT")
    z: str = Term("NULL::VARCHAR")
    s: str | None = None
    n: str | None = None
    kind: str | None = None


field = term_field


def dot(value: str, name: str) -> str:
    return term_field(value, name, parenthesized=False)


def parts_of(value: str, kind: str) -> Parts:
    """Parts of a typed temporal STRUCT `value` (cheap SQL, repeated)."""
    if kind == "DATE":
        return Parts(d=field(value, "d"), kind=kind)
    if kind == "LOCAL TIME":
        return Parts(t=field(value, "n"), kind=kind)
    if kind == "ZONED TIME":
        return Parts(t=f"({field(value, 'n')} + {field(value, 'o')} * {NANOS})", o=field(value, "o"), kind=kind)
    if kind == "LOCAL DATETIME":
        local = field(value, "e")
        return Parts(d=fdiv(local, DAY), t=f"({fmod(local, DAY)} * {NANOS} + {field(value, 'n')})", kind=kind)
    if kind == "ZONED DATETIME":
        local = f"({field(value, 'e')} + {field(value, 'o')})"
        return Parts(d=fdiv(local, DAY), t=f"({fmod(local, DAY)} * {NANOS} + {field(value, 'n')})",
                     o=field(value, "o"), z=f"nullif({field(value, 'z')}, '')", s=field(value, "e"),
                     n=field(value, "n"), kind=kind)
    raise ValueError(kind)


def parts_struct(parts: Parts, code: str) -> str:
    return (f"struct_pack(k := ({code})::BIGINT, d := ({parts.d})::BIGINT, t := ({parts.t})::BIGINT,"
            f" o := ({parts.o})::BIGINT, z := ({parts.z})::VARCHAR)")


def dynamic_parts(p: str) -> Parts:
    """Parts of a `cy_t_parts` STRUCT `p` (cheap SQL)."""
    return Parts(d=field(p, "d"), t=field(p, "t"), o=field(p, "o"), z=field(p, "z"))


def payload(v: str, kind: str) -> str:
    """The typed STRUCT inside VARIANT `v` (NULL when `v` holds something else)."""
    return f"TRY_CAST(variant_extract({v}, {sql_string(tag_key(kind))}) AS {payload_type(kind)})"


def wrap(value: str, kind: str) -> str:
    """A typed temporal STRUCT as a VARIANT (`value` repeated)."""
    return (f"CASE WHEN ({value}) IS NULL THEN NULL ELSE"
            f" struct_pack({sql_identifier(tag_key(kind))} := {value})::VARIANT END")


def make_date(d: str) -> str:
    return f"struct_pack(d := ({d})::BIGINT)"


def make_local_time(t: str) -> str:
    return f"struct_pack(n := ({t})::BIGINT)"


def make_time(t: str, o: str) -> str:
    """From the local nanosecond of the day and the offset."""
    return let([o], lambda o: f"struct_pack(n := (({t}) - {o} * {NANOS})::BIGINT, o := ({o})::BIGINT)")


def make_local_datetime(d: str, t: str) -> str:
    return let([t], lambda t: f"struct_pack(e := (({d}) * {DAY} + {t} // {NANOS})::BIGINT,"
                              f" n := ({t} % {NANOS})::BIGINT)")


def local_datetime(e: str, n: str) -> str:
    """A LOCAL DATETIME from local epoch seconds and nanoseconds."""
    return f"struct_pack(e := ({e})::BIGINT, n := ({n})::BIGINT)"


def make_datetime(s: str, n: str, o: str, z: str) -> str:
    return (f"struct_pack(e := ({s})::BIGINT, n := ({n})::BIGINT, o := ({o})::BIGINT,"
            f" z := coalesce({z}, '')::VARCHAR)")


def make_duration(m: str, d: str, s: str, n: str) -> str:
    """A duration from months, days, seconds and any nanoseconds (normalised into 0..10^9)."""
    return let([n], lambda n: f"struct_pack(m := ({m})::BIGINT, d := ({d})::BIGINT,"
                              f" s := (({s}) + {fdiv(n, NANOS)})::BIGINT, n := ({fmod(n, NANOS)})::BIGINT)")


def zone_utc(z: str, local_seconds: str) -> str:
    """UTC seconds of a local time (whole seconds) in named zone `z`: earlier offset when ambiguous,
    moved forward by the gap when skipped (as java.time resolves)."""
    return f"(epoch_us(timezone({z}, make_timestamp(({local_seconds}) * 1000000))) // 1000000)"


def offset_at(z: str, s: str) -> str:
    """Offset seconds of named zone `z` at UTC second `s` (`s` repeated)."""
    return f"(epoch_us(timezone({z}, to_timestamp({s}))) // 1000000 - ({s}))"


def resolve(d: str, t: str, o: str, z: str) -> str:
    """A ZONED DATETIME from a local day and time in a zone: named `z`, else fixed offset `o`. In a named
    zone's gap the local time moves forward by the gap, so the offset is the one in force at the instant."""
    def body(d: str, t: str, o: str, z: str) -> str:
        return let([f"{d} * {DAY} + {t} // {NANOS}"], lambda local: let(
            [f"CASE WHEN {z} IS NULL THEN {local} - {o} ELSE {zone_utc(z, local)} END"],
            lambda s: make_datetime(s, f"{t} % {NANOS}",
                                    f"CASE WHEN {z} IS NULL THEN {o} ELSE {offset_at(z, s)} END", z)))
    return let([d, t, o, z], body)


def at_instant(s: str, n: str, o: str, z: str) -> str:
    """A ZONED DATETIME at UTC second `s` in a zone: named `z` (offset looked up), else offset `o`."""
    return let([s, o, z], lambda s, o, z: make_datetime(
        s, n, f"CASE WHEN {z} IS NULL THEN {o} ELSE {offset_at(z, s)} END", z))


def zone_spec(text: str, body: Callable[[str, str], str]) -> str:
    """`body(fixed offset, zone name)` for a time zone string `text` (cheap): an offset such as '+01:00'
    gives the offset and a NULL name, an IANA name a NULL offset and the name (`zone_name`)."""
    return let([call("cy_t_offset", text)], lambda offset: body(
        offset, f"CASE WHEN {offset} IS NULL THEN {zone_name(text)} END"))


def zone_name(text: str) -> str:
    """A zone name as Neo4j reads it: a space stands for `_` (`'America/Los Angeles'`, the manual's spelling,
    is `America/Los_Angeles`); otherwise kept as written."""
    return f"replace({text}, ' ', '_')"


def now_instant() -> tuple[str, str]:
    """(seconds, nanoseconds) of the statement's clock."""
    micros = "epoch_us(now())"
    return fdiv(micros, 1_000_000), f"{fmod(micros, 1_000_000)} * 1000"


# -- strings -----------------------------------------------------------------------------------------------

DATE_RE = (r"(?i)^(?:([0-9]{4})(?:([0-9]{2})([0-9]{2})?|W([0-9]{2})([0-9])?|Q([0-9])([0-9]{2})?|([0-9]{3}))"
           r"|([0-9]{4}|[+-][0-9]{1,9})(?:-([0-9]{1,2})(?:-([0-9]{1,2}))?|-W([0-9]{1,2})(?:-([0-9]))?"
           r"|-Q([0-9])(?:-([0-9]{1,2}))?|-([0-9]{3}))?)$")
TIME_RE = (r"(?i)^(?:([0-9]{1,2}):([0-9]{1,2})(?::([0-9]{1,2})(?:[.,]([0-9]{1,9}))?)?"
           r"|([0-9]{2})(?:([0-9]{2})(?:([0-9]{2})(?:[.,]([0-9]{1,9}))?)?)?)"
           r"(Z|[+-][0-9]{2}(?::?[0-9]{2}(?::?[0-9]{2})?)?)?(?:\[([^\]]+)\])?$")
OFFSET_RE = r"(?i)^(?:(Z)|([+-])([0-9]{2})(?::?([0-9]{2})(?::?([0-9]{2}))?)?)$"
DATETIME_RE = r"(?i)^([^T]*)(?:T(.*))?$"
_NUMBER = r"([-+]?[0-9]+(?:[.,][0-9]+)?)"
DURATION_RE = (rf"(?i)^([-+]?)P(?:{_NUMBER}Y)?(?:{_NUMBER}M)?(?:{_NUMBER}W)?(?:{_NUMBER}D)?"
               rf"(?:(T)(?:{_NUMBER}H)?(?:{_NUMBER}M)?(?:([-+]?[0-9]+)(?:[.,]([0-9]{{1,9}}))?S)?)?$")
DURATION_DATE_RE = (r"(?i)^([-+]?)P(?:([0-9]{4})(?:-([0-9]{2})-([0-9]{2})|([0-9]{2})([0-9]{2})))?"
                    r"(?:T(?:([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:[.,]([0-9]{1,9}))?)?"
                    r"|([0-9]{2})(?:([0-9]{2})(?:([0-9]{2})(?:[.,]([0-9]{1,9}))?)?)?))?$")


def extract(text: str, pattern: str, groups: int) -> str:
    names = ", ".join(f"'g{index}'" for index in range(1, groups + 1))
    return f"regexp_extract({text}, {sql_string(pattern)}, [{names}])"


def group(g: str, *indexes: int) -> str:
    """The first non-empty of some capture groups, NULL when none matched."""
    return "coalesce(" + ", ".join(f"nullif({g}.g{index}, '')" for index in indexes) + ")"


def number(text: str) -> str:
    return f"TRY_CAST({text} AS BIGINT)"


def fraction_nanos(text: str) -> str:
    return f"coalesce(TRY_CAST(rpad({text}, 9, '0') AS BIGINT), 0)"


def parse_failure(what: str, text: str) -> str:
    return fail(f"'Text cannot be parsed to a {what}: ' || {text}", "ArgumentError", "InvalidArgumentValue")


def _checked_days_body(y: str, m: str, d: str) -> str:
    return (f"CASE WHEN {m} < 1 OR {m} > 12 THEN " + fail(f"'Invalid value for MonthOfYear: ' || {m}")
            + f" WHEN {d} < 1 OR {d} > {month_length(y, m)} THEN " + fail(f"'Invalid value for DayOfMonth: ' || {d}")
            + f" ELSE {days(y, m, d)} END")


def _week_date_body(y: str, w: str, dow: str) -> str:
    """Week `w`, day `dow` of ISO week-based year `y`. Everything comes from the epoch day of 4 January, so
    `days` appears once (DuckDB binds every copy): 28 December, whose week says whether the year has 53
    weeks, is 358 or 359 days later."""
    return let([days(y, "1", "4")], lambda jan4: (
        f"CASE WHEN {w} < 1 OR {w} > {week_of(f'{jan4} + 358 + CASE WHEN {leap(y)} THEN 1 ELSE 0 END')} THEN "
        + fail(f"'Year ' || {y} || ' does not contain week ' || {w}")
        + f" WHEN {dow} < 1 OR {dow} > 7 THEN " + fail(f"'Invalid value for DayOfWeek: ' || {dow}")
        + f" ELSE {jan4} - {weekday_of(jan4)} + 1 + ({w} - 1) * 7 + {dow} - 1 END"))


def _quarter_date_body(y: str, q: str, doq: str) -> str:
    length = f"CASE WHEN {q} = 1 THEN CASE WHEN {leap(y)} THEN 91 ELSE 90 END WHEN {q} = 2 THEN 91 ELSE 92 END"
    return (f"CASE WHEN {q} < 1 OR {q} > 4 THEN " + fail(f"'Invalid value for QuarterOfYear: ' || {q}")
            + f" WHEN {doq} < 1 OR {doq} > {length} THEN "
            + fail(f"'Invalid value for DayOfQuarter: ' || {doq}")
            + f" ELSE {days(y, f'(({q}) - 1) * 3 + 1', '1')} + {doq} - 1 END")


def _ordinal_date_body(y: str, doy: str) -> str:
    return (f"CASE WHEN {doy} < 1 OR {doy} > CASE WHEN {leap(y)} THEN 366 ELSE 365 END THEN "
            + fail(f"'Invalid value for DayOfYear: ' || {doy}") + f" ELSE {days(y, '1', '1')} + {doy} - 1 END")


def _date_day_body(text: str) -> str:
    def fields(g: str) -> str:
        names = {"y": (1, 9), "m": (2, 10), "dd": (3, 11), "w": (4, 12), "dow": (5, 13), "q": (6, 14),
                 "doq": (7, 15), "doy": (8, 16)}
        packed = ", ".join(f"'{name}': {number(group(g, *indexes))}" for name, indexes in names.items())
        return f"{{{packed}}}"

    def decide(p: str) -> str:
        return (f"CASE WHEN {p}.y IS NULL THEN {parse_failure('Date', text)}"
                f" WHEN {p}.m IS NOT NULL THEN cy_t_days({p}.y, {p}.m, coalesce({p}.dd, 1))"
                f" WHEN {p}.w IS NOT NULL THEN cy_t_week_date({p}.y, {p}.w, coalesce({p}.dow, 1))"
                f" WHEN {p}.q IS NOT NULL THEN cy_t_quarter_date({p}.y, {p}.q, coalesce({p}.doq, 1))"
                f" WHEN {p}.doy IS NOT NULL THEN cy_t_ordinal_date({p}.y, {p}.doy)"
                f" ELSE {days(dot(p, 'y'), '1', '1')} END")
    return (f"CASE WHEN {text} IS NULL THEN NULL WHEN {_iso_date_test(text)} THEN {_iso_date(text)} ELSE "
            + let([over(extract(text, DATE_RE, 16), fields)], decide) + " END")


# Fast paths for the ISO forms most data has, tested and computed without lambdas (a CASE evaluates only
# the branch a row takes, but lambdas cost a constant factor on every row); anything else takes the
# general path, which also reports the errors.
ISO_DATE = "[0-9]{4}-[0-9]{2}-[0-9]{2}"
ISO_DATETIME = (rf"{ISO_DATE}T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{{1,9}})?)?"
                r"(Z|[+-](0[0-9]|1[0-7]):[0-5][0-9])")


def _iso_date_test(text: str) -> str:
    return f"(regexp_full_match({text}, '{ISO_DATE}') AND TRY_CAST({text} AS DATE) IS NOT NULL)"


def _iso_date(text: str) -> str:
    return f"(TRY_CAST({text} AS DATE) - DATE '1970-01-01')"


def _iso_datetime_test(text: str) -> str:
    return f"(regexp_full_match({text}, '{ISO_DATETIME}') AND TRY_CAST(left({text}, 10) AS DATE) IS NOT NULL)"


def _iso_datetime(text: str) -> str:
    """A ZONED DATETIME from an ISO string with a fixed offset, `text` matching ISO_DATETIME."""
    clock = (f"(TRY_CAST(substr({text}, 12, 2) AS BIGINT) * 3600 + TRY_CAST(substr({text}, 15, 2) AS BIGINT) * 60"
             f" + CASE WHEN substr({text}, 17, 1) = ':' THEN TRY_CAST(substr({text}, 18, 2) AS BIGINT) ELSE 0 END)")
    nanos = fraction_nanos(f"nullif(regexp_extract({text}, '\\.([0-9]+)', 1), '')")
    zone = f"right({text}, 6)"
    offset = (f"CASE WHEN right({text}, 1) = 'Z' THEN 0 ELSE (CASE WHEN left({zone}, 1) = '-' THEN -1 ELSE 1 END)"
              f" * (TRY_CAST(substr({zone}, 2, 2) AS BIGINT) * 3600"
              f" + TRY_CAST(substr({zone}, 5, 2) AS BIGINT) * 60) END")
    local = f"({_iso_date(f'left({text}, 10)')} * {DAY} + {clock})"
    return make_datetime(f"{local} - ({offset})", nanos, offset, "''")


ISO_DATETIME_FUNCTION = "cy_iso_datetime"
"""`_iso_datetime` as a vectorized Python function (execute/normal_forms.py): the same fields, computed by
pyarrow on each chunk of strings, where the SQL expression costs DuckDB 2-3 ms to bind in every statement."""


def known_strings_parse(values: Sequence[Any], text: str, target: str) -> str | None:
    """The fast path alone, when every value `text` takes is known as the query compiles (a literal, a
    parameter, the maps of an UNWIND of one) and each is null or takes it; None otherwise. DuckDB binds
    every branch of a CASE, and the general parsers cost 20-30 ms to bind in each statement naming them,
    more than the rest of a small statement; a datetime's fast path is a function (ISO_DATETIME_FUNCTION)."""
    if target == "ZONED DATETIME":
        pattern, date_of, fast = ISO_DATETIME, (lambda value: value[:10]), f"{ISO_DATETIME_FUNCTION}({text})"
    elif target == "DATE":
        pattern, date_of, fast = ISO_DATE, (lambda value: value), make_date(_iso_date(text))
    else:
        return None
    strings = [value for value in values if value is not None]
    if not all(isinstance(value, str) and re.fullmatch(pattern, value) and _is_date(date_of(value))
               for value in strings):
        return None
    return fast if len(strings) == len(values) else f"CASE WHEN {text} IS NULL THEN NULL ELSE {fast} END"


def known_string_value(value: Any, target: str) -> dict[str, int | str] | None:
    """The stored form of `datetime(value)` or `date(value)` for one string known as the query compiles,
    where `known_strings_parse`'s SQL would take the fast path (None otherwise): the value's fields, encoded
    as every bound temporal value is (`temporal.encode`). Bound as a parameter, it spares DuckDB binding
    the parse: 1-2 ms in each statement."""
    if not isinstance(value, str):
        return None
    if target == "DATE" and re.fullmatch(ISO_DATE, value) and _is_date(value):
        return temporal.encode(Date(int(value[:4]), int(value[5:7]), int(value[8:10])))[1]
    if target != "ZONED DATETIME" or not re.fullmatch(ISO_DATETIME, value) or not _is_date(value[:10]):
        return None
    fraction = re.search(r"\.([0-9]+)", value)
    zone = value[-6:]
    offset = 0 if value.endswith("Z") else (-1 if zone[0] == "-" else 1) * (int(zone[1:3]) * 3600 + int(zone[4:6]) * 60)
    return temporal.encode(DateTime(
        int(value[:4]), int(value[5:7]), int(value[8:10]), int(value[11:13]), int(value[14:16]),
        int(value[17:19]) if value[16] == ":" else 0, int(fraction.group(1).ljust(9, "0")) if fraction else 0,
        offset))[1]


def _is_date(text: str) -> bool:
    """What `TRY_CAST(text AS DATE) IS NOT NULL` says of an ISO_DATE string, or False (year 0)."""
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _time_parts_body(text: str) -> str:
    """STRUCT(t local nanosecond of the day, off offset text, zone name) of a time string."""
    def fields(g: str) -> str:
        return (f"{{'h': {number(group(g, 1, 5))}, 'm': coalesce({number(group(g, 2, 6))}, 0),"
                f" 's': coalesce({number(group(g, 3, 7))}, 0), 'f': {fraction_nanos(group(g, 4, 8))},"
                f" 'off': {group(g, 9)}, 'zone': {group(g, 10)}}}")

    def decide(p: str) -> str:
        h, m, s, f = (f"{p}.{name}" for name in ("h", "m", "s", "f"))
        return (f"CASE WHEN {h} IS NULL THEN {parse_failure('Time', text)}"
                f" WHEN {h} > 23 OR {m} > 59 OR {s} > 59 THEN " + fail(f"'Invalid time: ' || {text}")
                + f" ELSE struct_pack(t := ({h} * 3600 + {m} * 60 + {s}) * {NANOS} + {f},"
                f" off := {p}.off, zone := {zone_name(dot(p, 'zone'))}) END")
    return (f"CASE WHEN {text} IS NULL THEN NULL ELSE "
            + let([over(extract(text, TIME_RE, 10), fields)], decide) + " END")


def _offset_body(text: str) -> str:
    """Offset seconds of an offset string ('Z', '+01', '+0100', '+01:00', '-02:05:59'); NULL otherwise."""
    def decide(g: str) -> str:
        magnitude = (f"({number(group(g, 3))} * 3600 + coalesce({number(group(g, 4))}, 0) * 60"
                     f" + coalesce({number(group(g, 5))}, 0))")
        return let([f"CASE WHEN {g}.g1 <> '' THEN 0 WHEN {g}.g2 = '-' THEN -{magnitude}"
                    f" WHEN {g}.g2 = '+' THEN {magnitude} END"], lambda o: (
            f"CASE WHEN abs({o}) > 64800 THEN " + fail(f"'Invalid offset: ' || {text}") + f" ELSE {o} END"))
    return over(extract(text, OFFSET_RE, 5), decide)


def _parse_local_time_body(text: str) -> str:
    return let([call("cy_t_time_parts", text)], lambda p: (
        f"CASE WHEN {p} IS NULL THEN NULL WHEN {p}.off IS NOT NULL OR {p}.zone IS NOT NULL THEN "
        + parse_failure("LocalTime", text) + f" ELSE {make_local_time(dot(p, 't'))} END"))


def _parse_time_body(text: str) -> str:
    return let([call("cy_t_time_parts", text)], lambda p: (
        f"CASE WHEN {p} IS NULL THEN NULL WHEN {p}.zone IS NOT NULL THEN " + parse_failure("Time", text)
        + f" ELSE {make_time(dot(p, 't'), f'coalesce(cy_t_offset({p}.off), 0)')} END"))


def _split_datetime(text: str, body: Callable[[str, str], str]) -> str:
    """`body(day, time_parts)` for a 'date[Ttime]' string."""
    return let([extract(text, DATETIME_RE, 2)], lambda g: let(
        [f"cy_t_date_day({g}.g1)",
         f"CASE WHEN {g}.g2 = '' THEN struct_pack(t := 0::BIGINT, off := NULL::VARCHAR, zone := NULL::VARCHAR)"
         f" ELSE cy_t_time_parts({g}.g2) END"], body))


def _parse_local_datetime_body(text: str) -> str:
    return f"CASE WHEN {text} IS NULL THEN NULL ELSE " + _split_datetime(text, lambda d, p: (
        f"CASE WHEN {p}.off IS NOT NULL OR {p}.zone IS NOT NULL THEN " + parse_failure("LocalDateTime", text)
        + f" ELSE {make_local_datetime(d, dot(p, 't'))} END")) + " END"


def _parse_datetime_body(text: str) -> str:
    def body(d: str, p: str) -> str:
        return let([f"cy_t_offset({p}.off)"], lambda offset: let(
            [resolve(d, dot(p, 't'), f"coalesce({offset}, 0)", dot(p, 'zone'))], lambda result: (
                f"CASE WHEN {p}.zone IS NOT NULL AND {offset} IS NOT NULL AND {offset} <> {result}.o THEN "
                + fail(f"'Timezone and offset do not match: ' || {text}") + f" ELSE {result} END")))
    return (f"CASE WHEN {text} IS NULL THEN NULL WHEN {_iso_datetime_test(text)} THEN {_iso_datetime(text)}"
            f" ELSE " + _split_datetime(text, body) + " END")


def approximate(months: str, days_: str, seconds_: str, nanos_: str) -> str:
    """A duration from DOUBLE components, carrying fractions down as Neo4j does (average month of
    365.2425/12 days, 86400-second days), truncating toward zero at each step."""
    def step_months(mo: str, da: str, se: str, na: str) -> str:
        return let([f"trunc({mo})"], lambda m: let(
            [f"{da} + (365.2425::DOUBLE / 12) * ({mo} - {m})"], lambda da2: let(
                [f"trunc({da2})"], lambda d: let(
                    [f"{se} + 86400::DOUBLE * ({da2} - {d})"], lambda se2: let(
                        [f"trunc({se2})"], lambda s: make_duration(
                            f"{m}::BIGINT", f"{d}::BIGINT", f"{s}::BIGINT",
                            f"trunc({na} + 1000000000::DOUBLE * ({se2} - {s}))::BIGINT"))))))
    return let([f"({months})::DOUBLE", f"({days_})::DOUBLE", f"({seconds_})::DOUBLE", f"({nanos_})::DOUBLE"],
               step_months)


def _parse_duration_body(text: str) -> str:
    def unit_based(g: str) -> str:
        numbers = {"y": 2, "mo": 3, "w": 4, "d": 5, "h": 7, "mi": 8}

        def value(index: int) -> str:
            return f"nullif(replace({g}.g{index}, ',', '.'), '')"
        fractional = {name: f"contains({g}.g{index}, '.') OR contains({g}.g{index}, ',')"
                      for name, index in numbers.items()}
        order = ["y", "mo", "w", "d", "h", "mi"]
        later = {name: [f"{g}.g{numbers[other]} <> ''" for other in order[position + 1:]]
                 for position, name in enumerate(order)}
        for name in ("y", "mo", "w", "d"):
            later[name].append(f"{g}.g6 <> ''")
        later["mi"].append(f"{g}.g9 <> ''")
        misplaced = " OR ".join(f"(({fractional[name]}) AND ({' OR '.join(later[name])}))" for name in order)
        any_fraction = " OR ".join(f"({fractional[name]})" for name in order)
        sign = f"CASE WHEN {g}.g1 = '-' THEN -1 ELSE 1 END"
        seconds_value = f"coalesce(TRY_CAST({g}.g9 AS BIGINT), 0)"
        sub = fraction_nanos(group(g, 10))
        signed_sub = f"CASE WHEN starts_with({g}.g9, '-') THEN -{sub} ELSE {sub} END"

        def whole(name: str) -> str:
            return f"coalesce(TRY_CAST({value(numbers[name])} AS BIGINT), 0)"

        def real(name: str) -> str:
            return f"coalesce(TRY_CAST({value(numbers[name])} AS DOUBLE), 0)"
        exact = make_duration(f"{sign} * ({whole('y')} * 12 + {whole('mo')})",
                              f"{sign} * ({whole('w')} * 7 + {whole('d')})",
                              f"{sign} * ({whole('h')} * 3600 + {whole('mi')} * 60 + {seconds_value})",
                              f"{sign} * ({signed_sub})")
        approx = approximate(f"{sign} * ({real('y')} * 12 + {real('mo')})",
                             f"{sign} * ({real('w')} * 7 + {real('d')})",
                             f"{sign} * ({real('h')} * 3600 + {real('mi')} * 60 + {seconds_value})",
                             f"{sign} * ({signed_sub})")
        empty = (f"({g}.g2 = '' AND {g}.g3 = '' AND {g}.g4 = '' AND {g}.g5 = '' AND {g}.g6 = '')"
                 f" OR ({g}.g6 <> '' AND {g}.g7 = '' AND {g}.g8 = '' AND {g}.g9 = '')")
        return (f"CASE WHEN {empty} OR {misplaced} THEN {parse_failure('Duration', text)}"
                f" WHEN {any_fraction} THEN {approx} ELSE {exact} END")

    def date_based(g: str) -> str:
        sign = f"CASE WHEN {g}.g1 = '-' THEN -1 ELSE 1 END"
        year, month, day = (f"coalesce({number(group(g, *indexes))}, 0)" for indexes in ((2,), (3, 5), (4, 6)))
        hour, minute, second = (f"coalesce({number(group(g, *indexes))}, 0)"
                                for indexes in ((7, 11), (8, 12), (9, 13)))
        sub = fraction_nanos(group(g, 10, 14))
        nothing = f"({g}.g2 = '' AND {g}.g7 = '' AND {g}.g11 = '')"
        return let([year, month, day, hour, minute, second], lambda y, mo, d, h, mi, s: (
            f"CASE WHEN {nothing} THEN {parse_failure('Duration', text)}"
            f" WHEN {mo} > 12 OR {d} > 31 OR {h} > 24 OR {mi} > 60 OR {s} > 60 THEN "
            + fail(f"'Duration field out of range: ' || {text}")
            + " ELSE " + make_duration(f"{sign} * ({y} * 12 + {mo})", f"{sign} * {d}",
                                       f"{sign} * ({h} * 3600 + {mi} * 60 + {s})", f"{sign} * {sub}") + " END"))

    return f"CASE WHEN {text} IS NULL THEN NULL ELSE " + let(
        [f"regexp_full_match({text}, {sql_string(DURATION_RE)})",
         f"regexp_full_match({text}, {sql_string(DURATION_DATE_RE)})"], lambda unit, dated: (
            f"CASE WHEN {unit} THEN {over(extract(text, DURATION_RE, 10), unit_based)}"
            f" WHEN {dated} THEN {over(extract(text, DURATION_DATE_RE, 14), date_based)}"
            f" ELSE {parse_failure('Duration', text)} END")) + " END"


# -- dates: month arithmetic, truncation ---------------------------------------------------------------------

def _add_months_body(z: str, months: str) -> str:
    """Epoch day `z` plus `months` calendar months, the day clamped to the month's length."""
    return let([year_of(z), month_of(z), day_of(z)], lambda y, m, d: let(
        [f"{y} * 12 + {m} - 1 + ({months})"], lambda total: let(
            [fdiv(total, 12), f"{fmod(total, 12)} + 1"], lambda ny, nm: days(
                ny, nm, f"least({d}, {month_length(ny, nm)})"))))


# -- text -----------------------------------------------------------------------------------------------------

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
"""English month and day names, as Java writes them (apoc.date.format, format())."""


def padded_number(value: str, count: str) -> str:
    """A non-negative number with at least `count` digits, zero padded (SimpleDateFormat's number fields)."""
    return let([f"({value})::VARCHAR"], lambda v: (
        f"CASE WHEN length({v}) >= {count} THEN {v} ELSE lpad({v}, {count}::INTEGER, '0') END"))


def pad2(value: str) -> str:
    return f"lpad(({value})::VARCHAR, 2, '0')"


def year_text(y: str) -> str:
    return (f"CASE WHEN {y} BETWEEN 0 AND 9999 THEN lpad({y}::VARCHAR, 4, '0')"
            f" WHEN {y} BETWEEN -9999 AND -1 THEN '-' || lpad((-{y})::VARCHAR, 4, '0')"
            f" WHEN {y} > 9999 THEN '+' || {y}::VARCHAR ELSE {y}::VARCHAR END")


def fraction_text(ns: str) -> str:
    return f"CASE WHEN {ns} = 0 THEN '' ELSE '.' || rtrim(lpad({ns}::VARCHAR, 9, '0'), '0') END"


def date_text(d: str) -> str:
    return let([year_of(d)], lambda y: f"({year_text(y)} || '-' || {pad2(month_of(d))} || '-' || {pad2(day_of(d))})")


def time_text(t: str) -> str:
    """`HH:MM:SS[.fraction]`, the seconds always written: Neo4j's toString() formats a temporal value with
    Java's ISO formatters (`ISO_LOCAL_TIME` and the formatters built on it), not with `LocalTime.toString()`,
    which drops zero seconds (`12:00`). `engine.values` keep the latter, the openCypher TCK's notation."""
    return let([t], lambda t: (
        f"({pad2(hours(t))} || ':' || {pad2(minutes(t))} || ':' || {pad2(seconds(t))}"
        f" || {fraction_text(nanos(t))})"))


def offset_text(o: str) -> str:
    return let([o], lambda o: (
        f"CASE WHEN {o} = 0 THEN 'Z' ELSE CASE WHEN {o} < 0 THEN '-' ELSE '+' END"
        f" || {pad2(f'abs({o}) // 3600')} || ':' || {pad2(f'abs({o}) // 60 % 60')}"
        f" || CASE WHEN abs({o}) % 60 = 0 THEN '' ELSE ':' || {pad2(f'abs({o}) % 60')} END END"))


def _duration_text_body(v: str) -> str:
    m, d, s, n = (field(v, name) for name in ("m", "d", "s", "n"))

    def unit(amount: str, letter: str) -> str:
        return f"CASE WHEN {amount} = 0 THEN '' ELSE ({amount})::VARCHAR || '{letter}' END"

    def clock(total: str) -> str:
        return let([f"abs({total})", f"CASE WHEN {total} < 0 THEN '-' ELSE '' END"], lambda a, sign: let(
            [f"{a} // {3600 * NANOS}", f"{a} // {60 * NANOS} % 60", f"{a} // {NANOS} % 60", f"{a} % {NANOS}"],
            lambda h, mi, sec, ns: (
                f"CASE WHEN {a} = 0 THEN '' ELSE 'T'"
                f" || CASE WHEN {h} = 0 THEN '' ELSE {sign} || {h}::VARCHAR || 'H' END"
                f" || CASE WHEN {mi} = 0 THEN '' ELSE {sign} || {mi}::VARCHAR || 'M' END"
                f" || CASE WHEN {sec} = 0 AND {ns} = 0 THEN '' ELSE {sign} || {sec}::VARCHAR"
                f" || {fraction_text(ns)} || 'S' END END")))
    text = (f"'P' || {unit(f'{m} // 12', 'Y')} || {unit(f'{m} % 12', 'M')} || {unit(d, 'D')}"
            f" || {clock(f'({s})::HUGEINT * {NANOS} + {n}')}")
    return let([text], lambda t: f"CASE WHEN {t} = 'P' THEN 'PT0S' ELSE {t} END")


def to_text(value: str, kind: str) -> str:
    """Cypher's string form of a typed temporal STRUCT (`value` cheap): `str()` of `engine.values`, except
    that times always have their seconds (`time_text`)."""
    if kind == "DURATION":
        return call("cy_t_duration_text", value)
    parts = parts_of(value, kind)
    if kind == "DATE":
        return date_text(parts.d)
    if kind == "LOCAL TIME":
        return time_text(parts.t)
    if kind == "ZONED TIME":
        return f"({time_text(parts.t)} || {offset_text(parts.o)})"
    if kind == "LOCAL DATETIME":
        return let([parts.d, parts.t], lambda d, t: f"({date_text(d)} || 'T' || {time_text(t)})")
    return let([parts.d, parts.t], lambda d, t: (
        f"({date_text(d)} || 'T' || {time_text(t)} || {offset_text(parts.o)}"
        f" || CASE WHEN {parts.z} IS NULL THEN '' ELSE '[' || {parts.z} || ']' END)"))


# -- components ------------------------------------------------------------------------------------------------

def component(value: str, kind: str, key: str) -> str:
    """Component `key` (lower-cased, valid for `kind`) of a typed temporal STRUCT `value` (cheap)."""
    if kind == "DURATION":
        m, d, s, n = (field(value, name) for name in ("m", "d", "s", "n"))
        return {
            "years": f"{m} // 12", "quarters": f"{m} // 3", "months": m, "weeks": f"{d} // 7", "days": d,
            "hours": f"{s} // 3600", "minutes": f"{s} // 60", "seconds": s,
            "milliseconds": f"{s} * 1000 + {n} // 1000000", "microseconds": f"{s} * 1000000 + {n} // 1000",
            "nanoseconds": f"{s} * {NANOS} + {n}", "quartersofyear": f"{m} // 3 % 4",
            "monthsofquarter": f"{m} % 3", "monthsofyear": f"{m} % 12", "daysofweek": f"{d} % 7",
            "minutesofhour": f"{s} // 60 % 60", "secondsofminute": f"{s} % 60",
            "millisecondsofsecond": f"{n} // 1000000", "microsecondsofsecond": f"{n} // 1000",
            "nanosecondsofsecond": n,
        }[key]
    parts = parts_of(value, kind)
    d, t, o = parts.d, parts.t, parts.o
    if key in ("year", "quarter", "month", "week", "weekyear", "day", "ordinalday", "weekday", "dayofweek",
               "dayofquarter", "quarterday"):
        return let([d], lambda d: {
            "year": year_of(d), "quarter": quarter_of(d), "month": month_of(d), "week": week_of(d),
            "weekyear": week_year_of(d), "day": day_of(d), "ordinalday": day_of_year(d),
            "weekday": weekday_of(d), "dayofweek": weekday_of(d), "dayofquarter": day_of_quarter(d),
            "quarterday": day_of_quarter(d)}[key])
    simple = {
        "hour": hours(t), "minute": minutes(t), "second": seconds(t),
        "millisecond": f"({nanos(t)} // 1000000)", "microsecond": f"({nanos(t)} // 1000)", "nanosecond": nanos(t),
        "offset": offset_text(o), "offsetminutes": f"({o} // 60)", "offsetseconds": o,
        "timezone": f"coalesce({parts.z}, {offset_text(o)})" if kind == "ZONED DATETIME" else offset_text(o),
    }
    if key in simple:
        return simple[key]
    if key == "epochseconds":
        return str(parts.s)
    if key == "epochmillis":
        return f"({parts.s} * 1000 + {parts.n} // 1000000)"
    raise ValueError(key)


# -- arithmetic ---------------------------------------------------------------------------------------------

def plus_duration(value: str, kind: str, duration: str, sign: int = 1) -> str:
    """A typed instant plus (`sign` 1) or minus (-1) a duration STRUCT, as java.time adds: months, then
    days on the local date (whole days of the seconds too, for dates), then seconds and nanoseconds on
    the clock (on the instant, for zoned date-times)."""
    m, d, s, n = (field(duration, name) for name in ("m", "d", "s", "n"))
    if sign < 0:
        m, d, s, n = f"(-{m})", f"(-{d})", f"(-{s})", f"(-{n})"
    if kind == "DATE":
        whole_days = f"({d} + ({field(duration, 's')} // {DAY}) * {sign})"
        return make_date(f"cy_t_add_months({field(value, 'd')}, {m}) + {whole_days}")
    if kind in ("LOCAL TIME", "ZONED TIME"):
        parts = parts_of(value, kind)
        clock = f"{fmod(f'{parts.t} + {fmod(s, DAY)} * {NANOS} + {n}', DAY_NANOS)}"
        return make_local_time(clock) if kind == "LOCAL TIME" else make_time(clock, parts.o)
    parts = parts_of(value, kind)
    if kind == "LOCAL DATETIME":
        return let([f"cy_t_add_months({parts.d}, {m}) + {d}", parts.t], lambda day, t: let(
            [f"{t} % {NANOS} + {n}"], lambda ns: (
                f"struct_pack(e := ({day} * {DAY} + {t} // {NANOS} + {s} + {fdiv(ns, NANOS)})::BIGINT,"
                f" n := ({fmod(ns, NANOS)})::BIGINT)")))
    # ZONED DATETIME: calendar part on the local date-time, resolved in the zone; then the clock.
    moved = let([f"cy_t_add_months({parts.d}, {m}) + {d}"], lambda day: (
        f"CASE WHEN {m} = 0 AND {d} = 0 THEN {field(value, 'e')}"
        f" ELSE ({resolve(day, parts.t, parts.o, parts.z)}).e END"))
    return let([moved, f"{field(value, 'n')} + {n}"], lambda base, ns: at_instant(
        f"{base} + {s} + {fdiv(ns, NANOS)}", fmod(ns, NANOS), parts.o, parts.z))


def duration_sum(a: str, b: str, sign: int = 1) -> str:
    op = "+" if sign > 0 else "-"
    return make_duration(*(f"{field(a, name)} {op} {field(b, name)}" for name in ("m", "d", "s")),
                         f"{field(a, 'n')} {op} {field(b, 'n')}")


def duration_times(duration: str, factor: str, *, integer: bool) -> str:
    m, d, s, n = (field(duration, name) for name in ("m", "d", "s", "n"))
    if integer:
        return let([factor], lambda f: make_duration(f"{m} * {f}", f"{d} * {f}", f"{s} * {f}", f"{n} * {f}"))
    return let([factor], lambda f: approximate(f"{m} * {f}", f"{d} * {f}", f"{s} * {f}", f"{n} * {f}"))


def duration_divided(duration: str, divisor: str) -> str:
    """A duration divided by a number. The quotient is computed with a zero divisor made NULL: bindings
    run ahead of the CASE that raises the division error, and infinities would overflow there first."""
    m, d, s, n = (field(duration, name) for name in ("m", "d", "s", "n"))
    return let([f"({divisor})::DOUBLE"], lambda x: let([f"nullif({x}, 0)"], lambda y: (
        f"CASE WHEN {x} = 0 THEN " + error_sql("ArithmeticError", "DivisionByZero", "'/ by zero'")
        + f" ELSE {approximate(f'{m} / {y}', f'{d} / {y}', f'{s} / {y}', f'{n} / {y}')} END")))


# -- order and equality -------------------------------------------------------------------------------------

def duration_key(value: str) -> str:
    """Durations order by their average length (months of 365.2425/12 days), then by components, as Neo4j
    orders them; other temporal STRUCTs already order as Cypher does, field by field."""
    m, d, s_, n = (field(value, name) for name in ("m", "d", "s", "n"))
    return (f"CASE WHEN ({value}) IS NULL THEN NULL ELSE"
            f" [{s_} + {d} * {DAY} + {m} * {MONTH_SECONDS}, {n}, {m}, {d}] END")


# -- dynamic values --------------------------------------------------------------------------------------------

def by_kind(v: str, branches: dict[str, Callable[[str], str]], default: str) -> str:
    """CASE over the temporal kind of VARIANT `v`: `branches[kind](typed payload)`."""
    whens = " ".join(f"WHEN {KIND_CODES[kind]} THEN {let([payload(v, kind)], build)}"
                     for kind, build in branches.items())
    return f"CASE cy_kind({v}) {whens} ELSE {default} END"


def _type_error(message: str) -> str:
    return error_sql("TypeError", "InvalidArgumentType", message)


def _parts_body(v: str) -> str:
    return by_kind(v, {kind: (lambda x, kind=kind: parts_struct(parts_of(x, kind), str(KIND_CODES[kind])))
                       for kind in INSTANT_KINDS}, f"NULL::{PARTS_TYPE}")


def _text_body(v: str) -> str:
    return by_kind(v, {kind: (lambda x, kind=kind: to_text(x, kind)) for kind in KIND_CODES}, "NULL::VARCHAR")


def _arithmetic_body(op: str) -> Callable[[str, str], str]:
    """`a op b` for VARIANTs of which at least one is temporal, as a VARIANT."""
    def body(a: str, b: str) -> str:
        nulls = f"WHEN {a} IS NULL OR {b} IS NULL THEN NULL"
        error = _type_error(f"'cannot apply {op} to ' || cy_type_name({a}) || ' and ' || cy_type_name({b})")
        dur_b = payload(b, "DURATION")
        if op in ("+", "-"):
            sign = 1 if op == "+" else -1
            both = let([payload(a, "DURATION"), dur_b], lambda x, y: wrap(duration_sum(x, y, sign), "DURATION"))
            if op == "-":
                instant, duration = a, b
                instant_test = f"cy_kind({b}) = 15 AND cy_kind({a}) BETWEEN 10 AND 14"
            else:
                instant = f"CASE WHEN cy_kind({a}) = 15 THEN {b} ELSE {a} END"
                duration = f"CASE WHEN cy_kind({a}) = 15 THEN {a} ELSE {b} END"
                instant_test = (f"(cy_kind({b}) = 15 AND cy_kind({a}) BETWEEN 10 AND 14)"
                                f" OR (cy_kind({a}) = 15 AND cy_kind({b}) BETWEEN 10 AND 14)")
            shifted = let([instant, duration], lambda i, u: call(
                f"cy_t_instant_plus_{'add' if sign > 0 else 'sub'}", i, payload(u, "DURATION")))
            return (f"CASE {nulls} WHEN cy_kind({b}) = 15 AND cy_kind({a}) = 15 THEN {both}"
                    f" WHEN {instant_test} THEN {shifted} ELSE {error} END")
        if op == "*":
            def times(duration: str, number_: str) -> str:
                return (f"CASE WHEN cy_kind({number_}) = 2 THEN "
                        + let([payload(duration, "DURATION")], lambda x: wrap(duration_times(
                            x, f"TRY_CAST({number_} AS BIGINT)", integer=True), "DURATION"))
                        + " ELSE " + let([payload(duration, "DURATION")], lambda x: wrap(duration_times(
                            x, f"TRY_CAST({number_} AS DOUBLE)", integer=False), "DURATION")) + " END")
            return (f"CASE {nulls} WHEN cy_kind({a}) = 15 AND cy_kind({b}) IN (2, 3) THEN {times(a, b)}"
                    f" WHEN cy_kind({b}) = 15 AND cy_kind({a}) IN (2, 3) THEN {times(b, a)} ELSE {error} END")
        return (f"CASE {nulls} WHEN cy_kind({a}) = 15 AND cy_kind({b}) IN (2, 3) THEN "
                + let([payload(a, "DURATION")], lambda x: wrap(
                    duration_divided(x, f"TRY_CAST({b} AS DOUBLE)"), "DURATION"))
                + f" ELSE {error} END")
    return body


def _instant_plus_body(v: str, u: str, sign: int) -> str:
    """VARIANT temporal instant `v` plus `sign` times duration STRUCT `u`, one computation for every kind:
    what `plus_duration` does per type, on parts, then wrapped as the kind it came as."""
    m, d, s_, n = (f"(({u}).{name} * {sign})" for name in ("m", "d", "s", "n"))
    whole_days = f"((({u}).s // {DAY}) * {sign})"

    def shifted(p: str) -> str:
        return let([
            f"CASE WHEN {p}.d IS NULL THEN NULL ELSE cy_t_add_months({p}.d, {m}) + {d}"
            f" + CASE WHEN {p}.k = 10 THEN {whole_days} ELSE 0 END END",
            f"{p}.t % {NANOS} + {n}",
        ], lambda day, ns: let([
            fmod(f"{p}.t + {fmod(s_, DAY)} * {NANOS} + {n}", DAY_NANOS),
            f"{day} * {DAY} + {p}.t // {NANOS} + {s_} + {fdiv(ns, NANOS)}",
            f"CASE WHEN {m} = 0 AND {d} = 0 THEN {p}.d * {DAY} + {p}.t // {NANOS} - {p}.o"
            f" ELSE ({resolve(day, dot(p, 't'), dot(p, 'o'), dot(p, 'z'))}).e END + {s_} + {fdiv(ns, NANOS)}",
        ], lambda clock, local, utc: (
            f"CASE {p}.k WHEN 10 THEN {wrap(make_date(day), 'DATE')}"
            f" WHEN 11 THEN {wrap(make_local_time(clock), 'LOCAL TIME')}"
            f" WHEN 12 THEN {wrap(make_time(clock, dot(p, 'o')), 'ZONED TIME')}"
            f" WHEN 13 THEN {wrap(local_datetime(local, fmod(ns, NANOS)), 'LOCAL DATETIME')}"
            f" WHEN 14 THEN {wrap(at_instant(utc, fmod(ns, NANOS), dot(p, 'o'), dot(p, 'z')), 'ZONED DATETIME')} END")))
    return let([f"cy_t_parts({v})"], shifted)


def _falls_back(op: str, macro: str) -> str:
    """The macro for VARIANT `op`: temporal operands here, everything else to the general runtime macro."""
    temporal_operands = {
        "+": "cy_kind(a) BETWEEN 10 AND 15 AND cy_kind(b) BETWEEN 10 AND 15",
        "-": "cy_kind(a) BETWEEN 10 AND 15 AND cy_kind(b) BETWEEN 10 AND 15",
        "*": "(cy_kind(a) = 15 AND cy_kind(b) IN (2, 3, 15)) OR (cy_kind(b) = 15 AND cy_kind(a) IN (2, 3))",
        "/": "cy_kind(a) = 15 OR cy_kind(b) = 15",
    }[op]
    return f"CASE WHEN {temporal_operands} THEN cy_t_{macro}_temporal(a, b) ELSE cy_{macro}(a, b) END"


# -- the macros ------------------------------------------------------------------------------------------------

def _macros() -> list[tuple[str, str]]:
    macros = [
        ("cy_t_days(y, m, d)", _checked_days_body(Term("y"), Term("m"), Term("d"))),
        ("cy_t_week_date(y, w, dow)", _week_date_body(Term("y"), Term("w"), Term("dow"))),
        ("cy_t_quarter_date(y, q, doq)", _quarter_date_body(Term("y"), Term("q"), Term("doq"))),
        ("cy_t_ordinal_date(y, doy)", _ordinal_date_body(Term("y"), Term("doy"))),
        ("cy_t_add_months(z, months)", _add_months_body(Term("z"), Term("months"))),
        ("cy_t_offset(s)", _offset_body(Term("s"))),
        ("cy_t_date_day(s)", _date_day_body(Term("s"))),
        ("cy_t_time_parts(s)", _time_parts_body(Term("s"))),
        ("cy_t_parse_date(s)", f"CASE WHEN s IS NULL THEN NULL ELSE {make_date('cy_t_date_day(s)')} END"),
        ("cy_t_parse_localtime(s)", _parse_local_time_body(Term("s"))),
        ("cy_t_parse_time(s)", _parse_time_body(Term("s"))),
        ("cy_t_parse_localdatetime(s)", _parse_local_datetime_body(Term("s"))),
        ("cy_t_parse_datetime(s)", _parse_datetime_body(Term("s"))),
        ("cy_t_parse_duration(s)", _parse_duration_body(Term("s"))),
        ("cy_t_duration_text(v)", _duration_text_body(Term("v"))),
        ("cy_t_parts(v)", _parts_body(Term("v"))),
        ("cy_t_duration_key(v)", duration_key(payload("v", "DURATION"))),
        ("cy_t_to_string(v)", _text_body(Term("v"))),
    ]
    macros += [("cy_t_instant_plus_add(v, u)", _instant_plus_body(Term("v"), Term("u"), 1)),
               ("cy_t_instant_plus_sub(v, u)", _instant_plus_body(Term("v"), Term("u"), -1))]
    for op, name in (("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "div")):
        macros.append((f"cy_t_{name}_temporal(a, b)", _arithmetic_body(op)(Term("a"), Term("b"))))
        macros.append((f"cy_t_{name}(a, b)", _falls_back(op, name)))
    return macros


MACROS: list[tuple[str, str]] = _macros()
