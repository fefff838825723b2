"""APOC Core's `apoc.date.*` functions: epoch timestamps in a time unit (ms, s, m, h, d) formatted and parsed
with Java's SimpleDateFormat patterns, converted between units, and read field by field (`apoc.date.Date`).

`apoc.date.format` tokenizes its pattern as it runs (any pattern expression), each token written by its own
SQL: numbers padded to the letters' count, English month and day names, AM/PM, RFC 822 and ISO 8601 offsets.
`apoc.date.parse` turns its pattern, which must be known when the statement compiles (a literal or a
parameter), into a regular expression whose named groups are the fields; the fields are added to 1970-01-01
as SimpleDateFormat's lenient calendar adds them (month 13 is January of the next year). What the engine
cannot do as Java does is refused, naming it, never answered differently: pattern letters for week-based
years, weeks and time zone names (but UTC's), a two-digit year to parse, a local time that a time zone's
transition skips or repeats, and instants before 1582-10-15 (Java's calendar is Julian there).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import types as t
from engine.apoc.binding import bind
from engine.errors import UnsupportedFeature
from engine.quoting import sql_string
from engine.semantic import bound as b
from engine.sqlgen.expressions import ExpressionCompiler
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.runtime_temporal import DAYS, MONTHS, fdiv, fmod, offset_at, padded_number, zone_spec, zone_utc
from engine.sqlgen.sql import Term, let

DEFAULT_FORMAT = "yyyy-MM-dd HH:mm:ss"
MAX_LONG = 9223372036854775807
GREGORIAN_START_MS = -12219292800000
"""1582-10-15T00:00:00Z: before it Java's GregorianCalendar counts days in the Julian calendar."""

UNIT_MILLIS = {**dict.fromkeys(("ms", "milli", "millis", "milliseconds"), 1),
               **dict.fromkeys(("s", "second", "seconds"), 1000),
               **dict.fromkeys(("m", "minute", "minutes"), 60_000),
               **dict.fromkeys(("h", "hour", "hours"), 3_600_000),
               **dict.fromkeys(("d", "day", "days"), 86_400_000)}
"""APOC's time units (DateUtils.unit) in milliseconds."""

PATTERN_LETTERS = "GyYMLwWDdFEuaHkKhmsSzZX"
"""The letters SimpleDateFormat knows; any other letter outside quotes is an illegal pattern character."""

def _fail(message_sql: str, detail: str = "InvalidArgumentValue") -> str:
    return error_sql("ArgumentError", detail, message_sql)


def _unsupported(message: str) -> str:
    return error_sql("UnsupportedFeature", "Unsupported", message)


def unit_millis(unit: str) -> str:
    """The milliseconds of one `unit` (a SQL string; null is milliseconds, as APOC's DateUtils.unit has it)."""
    entries = ", ".join(f"'{name}': {millis}" for name, millis in UNIT_MILLIS.items())
    return let([unit], lambda u: (
        f"CASE WHEN {u} IS NULL THEN 1::BIGINT ELSE coalesce(MAP {{{entries}}}[lower({u})]::BIGINT, "
        + _fail(f"'The unit: ' || {u} || ' is not correct'") + ") END"))


def convert_units(value: str, source: str, target: str) -> str:
    """Java's TimeUnit conversion of `value` from the unit of `source` milliseconds to that of `target`: to a
    finer unit multiplied, saturating at the longs' bounds; to a coarser one divided, truncated toward zero."""
    def body(v: str, f: str, to: str) -> str:
        ratio = f"({f} // {to})"
        over = f"({MAX_LONG} // {ratio})"
        return (f"CASE WHEN {f} >= {to} THEN CASE WHEN {v} > {over} THEN {MAX_LONG}::BIGINT"
                f" WHEN {v} < -{over} THEN (-{MAX_LONG} - 1)::BIGINT ELSE {v} * {ratio} END"
                f" ELSE {v} // ({to} // {f}) END")
    return let([value, source, target], body)


def _pattern(c: ExpressionCompiler, f: b.BFunction, index: int) -> str:
    """The format argument, SimpleDateFormat's default pattern when it is missing, null or empty."""
    if len(f.arguments) <= index:
        return c.context.parameters.text(DEFAULT_FORMAT)
    return let([c.string(f.arguments[index])], lambda p: (
        f"CASE WHEN {p} IS NULL OR {p} = '' THEN {c.context.parameters.text(DEFAULT_FORMAT)} ELSE {p} END"))


def _zone(c: ExpressionCompiler, f: b.BFunction, index: int) -> str:
    """The time zone argument of format and parse (a java.util.TimeZone id), UTC when missing or empty."""
    if len(f.arguments) <= index:
        return Term("'UTC'")
    return let([c.string(f.arguments[index])], lambda z: f"CASE WHEN coalesce({z}, '') = '' THEN 'UTC' ELSE {z} END")


def _unit(c: ExpressionCompiler, f: b.BFunction, index: int, default: str = "'ms'") -> str:
    return unit_millis(c.string(f.arguments[index]) if len(f.arguments) > index else default)


# -- formatting --------------------------------------------------------------------------------------------

TOKEN_RE = "'(?:[^']|'')*'|" + "|".join(f"{letter}+" for letter in
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") + "|[^A-Za-z']+"
"""A SimpleDateFormat pattern's tokens: quoted text, runs of one letter, and other text."""


def _offset_text(seconds: str, separator: str, minutes: bool = True) -> str:
    """±HH[sep MM] of an offset in seconds."""
    sign = f"CASE WHEN {seconds} < 0 THEN '-' ELSE '+' END"
    hours = f"lpad((abs({seconds}) // 3600)::VARCHAR, 2, '0')"
    tail = f" || '{separator}' || lpad((abs({seconds}) % 3600 // 60)::VARCHAR, 2, '0')" if minutes else ""
    return f"{sign} || {hours}{tail}"


def _token_text(token: str, moment: str, zone: str) -> str:
    """The text of one pattern token at `moment` (STRUCT lt local TIMESTAMP, lms local epoch ms, o offset
    seconds) in time zone `zone`."""
    lt, lms, offset = f"{moment}.lt", f"{moment}.lms", f"{moment}.o"
    n = f"length({token})"
    hour = f"hour({lt})"
    utc_name = (f"CASE WHEN {zone} IN ('UTC', 'GMT') THEN CASE WHEN {n} >= 4 THEN CASE {zone} WHEN 'UTC' THEN"
                f" 'Coordinated Universal Time' ELSE 'Greenwich Mean Time' END ELSE {zone} END ELSE "
                + _unsupported("'apoc.date.format() with pattern letter z (a time zone name) in time zone ' || "
                               f"{zone} || ': only UTC and GMT are supported'") + " END")
    iso_offset = (f"CASE WHEN {offset} = 0 THEN 'Z' WHEN {n} = 1 THEN {_offset_text(offset, '', minutes=False)}"
                  f" WHEN {n} = 2 THEN {_offset_text(offset, '')} WHEN {n} = 3 THEN {_offset_text(offset, ':')}"
                  " ELSE " + _fail("'invalid ISO 8601 format: length=' || " + n) + " END")
    branches = {
        "G": "'AD'",
        "y": f"CASE WHEN {n} = 2 THEN lpad((year({lt}) % 100)::VARCHAR, 2, '0')"
             f" ELSE {padded_number(f'year({lt})', n)} END",
        "M": f"CASE WHEN {n} >= 4 THEN monthname({lt}) WHEN {n} = 3 THEN left(monthname({lt}), 3)"
             f" ELSE {padded_number(f'month({lt})', n)} END",
        "d": padded_number(f"day({lt})", n),
        "D": padded_number(f"dayofyear({lt})", n),
        "F": padded_number(f"(day({lt}) - 1) // 7 + 1", n),
        "E": f"CASE WHEN {n} >= 4 THEN dayname({lt}) ELSE left(dayname({lt}), 3) END",
        "u": padded_number(f"isodow({lt})", n),
        "a": f"CASE WHEN {hour} < 12 THEN 'AM' ELSE 'PM' END",
        "H": padded_number(hour, n),
        "k": padded_number(f"CASE WHEN {hour} = 0 THEN 24 ELSE {hour} END", n),
        "K": padded_number(f"{hour} % 12", n),
        "h": padded_number(f"CASE WHEN {hour} % 12 = 0 THEN 12 ELSE {hour} % 12 END", n),
        "m": padded_number(f"minute({lt})", n),
        "s": padded_number(f"second({lt})", n),
        "S": padded_number(fmod(lms, 1000), n),
        "z": utc_name,
        "Z": _offset_text(offset, ""),
        "X": iso_offset,
    }
    branches["L"] = branches["M"]
    whens = "".join(f" WHEN '{letter}' THEN {sql}" for letter, sql in branches.items())
    refused = {"Y": "a week-based year", "w": "the week in the year", "W": "the week in the month"}
    refusals = "".join(
        f" WHEN '{letter}' THEN "
        + _unsupported(f"'apoc.date.format() with pattern letter {letter} ({what}, which depends on the locale)'")
        for letter, what in refused.items())
    quoted = f"CASE WHEN {token} = '''''' THEN '''' ELSE replace({token}[2:-2], '''''', '''') END"
    return (f"CASE WHEN left({token}, 1) = '''' THEN {quoted} WHEN NOT regexp_matches(left({token}, 1), '[A-Za-z]')"
            f" THEN {token} ELSE CASE left({token}, 1){whens}{refusals} ELSE "
            + _fail("'Illegal pattern character ''' || left(" + token + ", 1) || ''''") + " END END")


def format_millis(millis: str, pattern: str, zone: str) -> str:
    """SimpleDateFormat's text of epoch milliseconds `millis` by `pattern` in time zone `zone` (SQL strings)."""
    def body(ms: str, p: str, z: str) -> str:
        seconds = fdiv(ms, 1000)
        moment = let([offset_at(z, seconds)], lambda o: (
            f"struct_pack(lt := make_timestamp(({ms} + {o} * 1000) * 1000), lms := {ms} + {o} * 1000, o := {o})"))
        tokens = f"regexp_extract_all({p}, {sql_string(TOKEN_RE)})"

        def text(m: str, tk: str) -> str:
            joined = f"array_to_string(list_transform({tk}, lambda tok: {_token_text('tok', m, z)}), '')"
            unterminated = _fail("'Unterminated quote in the pattern ' || " + p)
            return f"CASE WHEN array_to_string({tk}, '') <> {p} THEN {unterminated} ELSE {joined} END"
        before = _unsupported("'apoc.date.format() of an instant before 1582-10-15 (Java''s calendar is Julian"
                              " there)'")
        return (f"CASE WHEN {ms} IS NULL OR {p} IS NULL THEN NULL WHEN {ms} < {GREGORIAN_START_MS} THEN {before}"
                f" ELSE {bind(moment, lambda m: text(m, tokens))} END")
    return let([millis, pattern, zone], body)


def _format(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.date.format(time, unit = 'ms', format = 'yyyy-MM-dd HH:mm:ss', timezone = '')."""
    millis = convert_units(c.integer(f.arguments[0]), _unit(c, f, 1), "1::BIGINT")
    return format_millis(millis, _pattern(c, f, 2), _zone(c, f, 3))


def _to_iso8601(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.date.toISO8601(time, unit = 'ms'): `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` in UTC."""
    millis = convert_units(c.integer(f.arguments[0]), _unit(c, f, 1), "1::BIGINT")
    return format_millis(millis, c.context.parameters.text("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"), Term("'UTC'"))


# -- parsing ----------------------------------------------------------------------------------------------

GROUPS = ("y", "mo", "mn", "d", "doy", "hh", "h12", "ampm", "mi", "s", "ms", "off")
"""The named groups of a parse expression: year, month number, month name, day, day of the year, hour of the
day, hour 1-12, AM/PM, minute, second, millisecond, offset."""


@dataclass(frozen=True)
class ParsePlan:
    """A SimpleDateFormat pattern as a regular expression with one group per field of `GROUPS` (a group the
    pattern lacks matches the empty string at the end), and `order`: the number of each field's group, as
    text ('3,1,2,...'), the group of GROUPS[i] the i-th."""

    regex: str
    order: str


def _refuse(letter: str, why: str) -> ValueError:
    return ValueError(f"apoc.date.parse() with pattern letter {letter} ({why})")


def parse_plan(pattern: str) -> ParsePlan:
    """The regular expression for `pattern`; ValueError naming what cannot be parsed as Java does."""
    tokens = re.findall(TOKEN_RE, pattern)
    if "".join(tokens) != pattern:
        raise ValueError(f"Unterminated quote in the pattern {pattern!r}")
    parts: list[str] = []
    seen: set[str] = set()
    found: list[str] = []
    letters = [token for token in tokens if token[0].isalpha()]
    for position, token in enumerate(tokens):
        letter, count = token[0], len(token)
        if letter == "'":
            parts.append(re.escape("'" if token == "''" else token[1:-1].replace("''", "'")))
            continue
        if not letter.isalpha():
            parts.append(re.escape(token))
            continue
        if letter not in PATTERN_LETTERS:
            raise ValueError(f"Illegal pattern character '{letter}'")
        following = tokens[position + 1] if position + 1 < len(tokens) else ""
        abutting = bool(following) and following[0] in "yMdDHhmsSkKuFwW" and not (following[0] == "M" and
                                                                                 len(following) >= 3)
        digits = f"[0-9]{{{count}}}" if abutting else "[0-9]+"
        group = {"y": "y", "M": "mo", "L": "mo", "d": "d", "D": "doy", "H": "hh", "h": "h12", "m": "mi",
                 "s": "s", "S": "ms"}.get(letter)
        if letter in "yY" and count == 2:
            raise _refuse(letter, "a two-digit year, which Java reads within 80 years before and 20 after today")
        if letter in "YwWFukKGz" or (letter == "E" and any(other[0] in "yMLdD" for other in letters[:letters.index(
                token)])):
            raise _refuse(letter, {"Y": "a week-based year", "w": "a week in the year", "W": "a week in the month",
                                   "F": "a day of the week in the month", "u": "a day number of the week",
                                   "k": "an hour 1-24", "K": "an hour 0-11", "G": "an era",
                                   "z": "a time zone name",
                                   "E": "a day name after the date, which Java's calendar resolves the date from"
                                   }[letter])
        if letter in ("M", "L") and count >= 3:
            group, expression = "mn", "|".join([*MONTHS, *(m[:3] for m in MONTHS)])
        elif letter == "E":
            parts.append("(?i:" + "|".join([*DAYS, *(d[:3] for d in DAYS)]) + ")")
            continue
        elif letter == "a":
            group, expression = "ampm", "(?i:AM|PM)"
        elif letter == "Z":
            group, expression = "off", "[+-][0-9]{4}"
        elif letter == "X":
            if count > 3:
                raise ValueError(f"invalid ISO 8601 format: length={count}")
            group, expression = "off", ("Z|[+-][0-9]{2}", "Z|[+-][0-9]{4}", "Z|[+-][0-9]{2}:[0-9]{2}")[count - 1]
        else:
            expression = digits
        assert group is not None
        if group in seen or (group == "hh" and {"h12", "ampm"} & seen) or (group in ("h12", "ampm") and "hh" in seen) \
                or (group == "doy" and {"mo", "mn", "d"} & seen) or (group in ("mo", "mn", "d") and "doy" in seen) \
                or (group in ("mo", "mn") and {"mo", "mn"} & seen):
            raise ValueError(f"apoc.date.parse() with the fields of pattern letter {letter} given twice")
        seen.add(group)
        found.append(group)
        parts.append(f"({'(?i:' + expression + ')' if group == 'mn' else expression})")
    missing = [group for group in GROUPS if group not in seen]
    numbers = {group: index for index, group in enumerate([*found, *missing], start=1)}
    return ParsePlan("^" + "".join(parts) + "()" * len(missing), ",".join(str(numbers[g]) for g in GROUPS))


def parse_millis(text: str, plan: tuple[str, str], zone: str) -> str:
    """Epoch milliseconds of `text` parsed by a `parse_plan` (SQL for its regex and order), in time zone
    `zone` unless the text names an offset; SimpleDateFormat's lenient calendar: fields added to
    1970-01-01T00:00 in turn."""
    regex, order = plan
    names = "[" + ", ".join(f"'g{index}'" for index in range(1, len(GROUPS) + 1)) + "]"
    month_names = "[" + ", ".join(f"'{m.lower()}'" for m in MONTHS) + "]"

    def number(g: str, name: str, default: int) -> str:
        return f"coalesce(TRY_CAST(nullif({g}.{name}, '') AS BIGINT), {default})"

    def body(s: str, z: str) -> str:
        def from_values(found: str) -> str:
            fields = ", ".join(f"{group} := {found}[string_split({order}, ',')[{index}]::INTEGER]"
                               for index, group in enumerate(GROUPS, start=1))
            return bind(f"struct_pack({fields})", from_groups)

        def from_groups(g: str) -> str:
            month = (f"CASE WHEN {g}.mn <> '' THEN list_position(list_transform({month_names}, lambda x:"
                     f" CASE WHEN length({g}.mn) = 3 THEN left(x, 3) ELSE x END), lower({g}.mn))"
                     f" ELSE {number(g, 'mo', 1)} END")
            hours = (f"CASE WHEN {g}.h12 <> '' OR {g}.ampm <> '' THEN {number(g, 'h12', 0)} % 12 +"
                     f" CASE WHEN upper({g}.ampm) = 'PM' THEN 12 ELSE 0 END ELSE {number(g, 'hh', 0)} END")
            days = (f"CASE WHEN {g}.doy <> '' THEN datediff('day', DATE '1970-01-01', make_date({number(g, 'y', 1970)},"
                    f" 1, 1)) + {number(g, 'doy', 1)} - 1 ELSE datediff('day', DATE '1970-01-01',"
                    f" (make_date({number(g, 'y', 1970)}, 1, 1) + to_months(({month}) - 1))::DATE)"
                    f" + {number(g, 'd', 1)} - 1 END")
            local = (f"(({days}) * 86400 + ({hours}) * 3600 + {number(g, 'mi', 0)} * 60 + {number(g, 's', 0)})"
                     f" * 1000 + {number(g, 'ms', 0)}")
            offset = (f"CASE WHEN {g}.off IN ('Z', 'z') THEN 0 ELSE (CASE WHEN left({g}.off, 1) = '-' THEN -1"
                      f" ELSE 1 END) * (TRY_CAST(substr({g}.off, 2, 2) AS BIGINT) * 3600 + coalesce(TRY_CAST("
                      f"right(replace({g}.off, ':', ''), 2) AS BIGINT) * (length(replace({g}.off, ':', '')) = 5)"
                      f"::BIGINT * 60, 0)) END")
            return let([local], lambda lms: (
                f"CASE WHEN {g}.off <> '' THEN {lms} - ({offset}) * 1000 ELSE {wall_to_utc(lms, z)} END"))
        unparseable = _fail(f"'Unparseable date: \"' || {s} || '\"'")
        # the regex stays a constant (a bound value) where it is read: DuckDB takes group names only then
        groups = bind(f"regexp_extract({s}, {regex}, {names})", lambda m: (
            "[" + ", ".join(f"{m}.g{index}" for index in range(1, len(GROUPS) + 1)) + "]"))
        return (f"CASE WHEN {s} IS NULL OR trim({s}) = '' THEN NULL WHEN NOT regexp_matches({s}, {regex}) THEN"
                f" {unparseable} ELSE {bind(groups, from_values)} END")
    return let([text, zone], body)


def wall_to_utc(local_millis: str, zone: str) -> str:
    """UTC epoch milliseconds of local epoch milliseconds in time zone `zone`; a local time a transition
    skips or repeats is refused (java.util.Calendar resolves those its own way). Around a transition the
    offsets a day before and a day after are the two in force: a local time that either maps back to is
    repeated when both do, skipped when neither does."""
    def body(lms: str) -> str:
        local = fdiv(lms, 1000)
        rest = fmod(lms, 1000)

        def check(ls: str, s1: str) -> str:
            def candidate(shift: str) -> str:
                return f"{ls} - {offset_at(zone, f'{s1} {shift} 86400')}"
            return let([candidate("-"), candidate("+")], lambda before, after: (
                f"CASE WHEN {s1} + {offset_at(zone, s1)} <> {ls} OR ({before} <> {after}"
                f" AND {before} + {offset_at(zone, before)} = {ls} AND {after} + {offset_at(zone, after)} = {ls})"
                " THEN " + _unsupported("'apoc.date.parse() of a local time that a transition of time zone ' || "
                                        + zone + " || ' skips or repeats'") + f" ELSE {s1} * 1000 + {rest} END"))
        return let([local], lambda ls: bind(zone_utc(zone, ls), lambda s1: check(ls, s1)))
    return let([local_millis], body)


def _compile_time_text(c: ExpressionCompiler, argument: b.BoundExpression, derive: Callable[[Any], Any],
                       what: str) -> str:
    """SQL for `derive(value)` of a literal or parameter argument (a value derived from a parameter is bound
    again when the statement runs with another value); anything else is refused. `derive` raises ValueError
    for a value it refuses, reported at the argument."""
    def checked(value: Any) -> Any:
        try:
            return derive(value)
        except ValueError as error:
            raise UnsupportedFeature(str(error), argument.span) from None

    if isinstance(argument, b.BLiteral):
        return c.context.parameters.text(checked(argument.value))
    if isinstance(argument, b.BParameter):
        checked(argument.given)

        def quiet(value: Any) -> Any:
            try:
                return derive(value)
            except ValueError:
                return None
        derived = c.context.parameters.derived(argument.name, argument.given, quiet, "VARCHAR")
        if derived is not None:
            return derived
    raise UnsupportedFeature(f"{what} that is not a literal or a parameter", argument.span)


def _parse_plan(c: ExpressionCompiler, f: b.BFunction, index: int) -> tuple[str, str]:
    """SQL for the regex and the group order of the pattern argument (`parse_plan`)."""
    if len(f.arguments) <= index:
        plan = parse_plan(DEFAULT_FORMAT)
        return c.context.parameters.text(plan.regex), c.context.parameters.text(plan.order)

    def plan_of(value: Any) -> ParsePlan:
        if value is not None and not isinstance(value, str):
            raise ValueError(f"apoc.date.parse() needs a pattern string, got {value!r}")
        return parse_plan(value or DEFAULT_FORMAT)
    what = "apoc.date.parse() with a pattern"
    return (_compile_time_text(c, f.arguments[index], lambda value: plan_of(value).regex, what),
            _compile_time_text(c, f.arguments[index], lambda value: plan_of(value).order, what))


def _parse(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.date.parse(time, unit = 'ms', format = 'yyyy-MM-dd HH:mm:ss', timezone = ''): in the unit,
    truncated toward zero."""
    millis = parse_millis(c.string(f.arguments[0]), _parse_plan(c, f, 2), _zone(c, f, 3))
    return convert_units(millis, "1::BIGINT", _unit(c, f, 1))


def _to_years(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.date.toYears(value, format): a number of milliseconds (its long value) in 365-day years, or a date
    string (parsed in UTC) in such years since 1970, plus 1970."""
    value = f.arguments[0]
    year = "(365.0 * 24 * 3600 * 1000)"
    utc = Term("'UTC'")
    if value.type.kind is t.Kind.INTEGER:
        return f"(({c.compile(value)}) / {year})"
    if value.type.kind is t.Kind.FLOAT:
        return f"(trunc({c.compile(value)})::BIGINT / {year})"
    if value.type.kind is t.Kind.STRING:
        return f"(1970.0 + {parse_millis(c.compile(value), _parse_plan(c, f, 1), utc)} / {year})"
    regex = _parse_plan(c, f, 1)
    return let([c.variant(value)], lambda v: (
        f"CASE cy_kind({v}) WHEN 0 THEN NULL WHEN 2 THEN TRY_CAST({v} AS BIGINT) / {year} WHEN 3 THEN"
        f" trunc(TRY_CAST({v} AS DOUBLE))::BIGINT / {year} WHEN 4 THEN 1970.0 + "
        f"{parse_millis(f'TRY_CAST({v} AS VARCHAR)', regex, utc)} / {year} ELSE "
        + error_sql("TypeError", "InvalidArgumentType", "'apoc.date.toYears() expects a number or a string, got '"
                    f" || cy_type_name({v})") + " END"))


# -- conversions and fields -------------------------------------------------------------------------------

def _from_iso8601(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.date.fromISO8601(text): java.time's Instant.parse (ISO_INSTANT: date, time with seconds, an optional
    fraction, Z or an offset) in epoch milliseconds, the fraction truncated to milliseconds."""
    pattern = (r"(?i)^([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2})(?:[.]([0-9]{1,9}))?"
               r"(Z|[+-][0-9]{2}:[0-9]{2}(?::[0-9]{2})?)$")
    return let([c.string(f.arguments[0])], lambda s: let(
        [f"regexp_extract({s}, {c.context.parameters.text(pattern)}, ['dt', 'frac', 'off'])"], lambda g: (
            f"CASE WHEN {s} IS NULL THEN NULL WHEN {g}.dt = '' THEN "
            + _fail(f"'Text ''' || {s} || ''' could not be parsed at index 0'")
            + f" ELSE epoch_ms(CAST(replace(upper({g}.dt), 'T', ' ') || '.' || rpad(left({g}.frac, 3), 3, '0')"
            f" || CASE WHEN upper({g}.off) = 'Z' THEN '+00:00' ELSE {g}.off END AS TIMESTAMPTZ)) END")))


def _add(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.date.add(time, unit, addValue, addUnit): time plus addValue converted to time's unit."""
    time, unit, value, added = f.arguments
    return let([_unit_sql(c, unit)], lambda u: (
        f"{c.integer(time)} + {convert_units(c.integer(value), _unit_sql(c, added), u)}"))


def _unit_sql(c: ExpressionCompiler, unit: b.BoundExpression) -> str:
    return unit_millis(c.string(unit))


def _convert(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.date.convert(time, unit, toUnit)."""
    time, unit, target = f.arguments
    return convert_units(c.integer(time), _unit_sql(c, unit), _unit_sql(c, target))


FIELDS = {**dict.fromkeys(("ms", "milli", "millis", "milliseconds"), "ms"),
          **dict.fromkeys(("s", "second", "seconds"), "second"),
          **dict.fromkeys(("m", "minute", "minutes"), "minute"),
          **dict.fromkeys(("h", "hour", "hours"), "hour"),
          **dict.fromkeys(("d", "day", "days"), "day"),
          **dict.fromkeys(("w", "weekday", "weekdays"), "isodow"),
          **dict.fromkeys(("month", "months"), "month"),
          **dict.fromkeys(("year", "years"), "year")}
"""apoc.date.field's units and the field each reads (ChronoField: DAY_OF_WEEK is 1 for Monday)."""


def _field(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.date.field(time, unit = 'd', timezone = 'UTC'): one field of the instant in the zone (a
    java.time ZoneId: a region or an offset such as '+01:00')."""
    time = c.integer(f.arguments[0])
    unit = c.string(f.arguments[1]) if len(f.arguments) > 1 else "'d'"
    zone = c.string(f.arguments[2]) if len(f.arguments) > 2 else Term("'UTC'")

    def body(ms: str, u: str, text: str) -> str:
        def read(fixed: str, name: str) -> str:
            seconds = fdiv(ms, 1000)
            offset = f"coalesce({fixed}, {offset_at(name, seconds)})"
            return let([f"{ms} + ({offset}) * 1000"], lambda lms: let(
                [f"make_timestamp({lms} * 1000)"], lambda lt: (
                    "CASE lower(" + u + ")" + "".join(
                        f" WHEN '{key}' THEN " + (fmod(lms, 1000) if field == "ms" else f"{field}({lt})")
                        for key, field in FIELDS.items())
                    + " ELSE " + _fail(f"'The unit: ' || {u} || ' is not correct'") + " END")))
        return (f"CASE WHEN {ms} IS NULL THEN NULL WHEN {u} IS NULL OR {text} IS NULL THEN "
                + error_sql("TypeError", "InvalidArgumentType", "'apoc.date.field() needs a unit and a time zone'")
                + f" ELSE {zone_spec(text, read)} END")
    return let([time, unit, zone], body)


SIGNATURES = [
    ("apoc.date.format", 1, 4, t.STRING), ("apoc.date.parse", 1, 4, t.INTEGER),
    ("apoc.date.toiso8601", 1, 2, t.STRING), ("apoc.date.fromiso8601", 1, 1, t.INTEGER),
    ("apoc.date.add", 4, 4, t.INTEGER), ("apoc.date.convert", 3, 3, t.INTEGER),
    ("apoc.date.field", 1, 3, t.INTEGER), ("apoc.date.toyears", 1, 2, t.FLOAT),
]
"""(lower-case name, least and most arguments, result type)."""

FUNCTIONS: dict[str, Callable[[ExpressionCompiler, b.BFunction], str]] = {
    "apoc.date.format": _format, "apoc.date.parse": _parse, "apoc.date.toiso8601": _to_iso8601,
    "apoc.date.fromiso8601": _from_iso8601, "apoc.date.add": _add, "apoc.date.convert": _convert,
    "apoc.date.field": _field, "apoc.date.toyears": _to_years,
}

