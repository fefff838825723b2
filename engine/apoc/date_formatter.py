"""APOC Core's `apoc.date.fields(text, pattern)` and `apoc.date.convertFormat(text, currentFormat, convertTo)`:
text parsed with java.time's DateTimeFormatter (strict parser, SMART resolver), then read field by field or
written with a second formatter (ADR-0084).

The pattern must be a literal: it is read here, as DateTimeFormatterBuilder.appendPattern reads it
(`temporal_format.parse_pattern`), into one regular expression whose groups are the fields the text gives,
and the fields present decide, when the statement compiles, what the SMART resolver makes of them: a date
from a year with a month and a day (the day clamped to the month's last: 31 April is 30 April) or with a
day of the year; a time from an hour (minutes and seconds 0 when absent); fields that resolve to nothing
stay as parsed. Range checks are the resolver's (month 1-12, day 1-31, hour 0-23, ...), run on the rows.
What the engine cannot resolve as Java does is refused by name: week-based fields (but a week-based year
that nothing resolves, as the documentation's `YYYY-MM-dd`), eras, clock hours without AM/PM, an hour of
24, minutes or seconds without an hour, zone names other than UTC, GMT and offsets, optional sections.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from engine import types as t
from engine.errors import CypherArgumentError, UnsupportedFeature
from engine.quoting import sql_string
from engine.semantic import bound as b
from engine.sqlgen import runtime_temporal as rt
from engine.sqlgen.expressions import ExpressionCompiler, map_of_entries, to_variant
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.runtime_temporal import DAYS, MONTHS
from engine.sqlgen.sql import let
from engine.sqlgen.temporal_format import (
    Element,
    Fields,
    Letter,
    LiteralText,
    OptionalSection,
    PatternError,
    elements_sql,
    parse_pattern,
)


@dataclass(frozen=True)
class Fraction:
    """ISO's fraction of a second: a point and 0 to 9 digits, written only when not zero."""


ISO_TIME: tuple[Element | Fraction, ...] = (
    Letter("H", 2), LiteralText(":"), Letter("m", 2), OptionalSection((LiteralText(":"), Letter("s", 2), Fraction())))  # type: ignore[arg-type]
OFFSET = Letter("X", 5)
NAMED: dict[str, tuple[Element | Fraction, ...]] = {
    "basic_iso_date": (Letter("u", 4), Letter("M", 2), Letter("d", 2), OptionalSection((Letter("X", 4),))),
    "iso_local_date": (Letter("u", 4), LiteralText("-"), Letter("M", 2), LiteralText("-"), Letter("d", 2)),
    "iso_local_time": ISO_TIME,
    "iso_ordinal_date": (Letter("u", 4), LiteralText("-"), Letter("D", 3), OptionalSection((OFFSET,))),
}
NAMED["iso_offset_date"] = (*NAMED["iso_local_date"], OFFSET)
NAMED["iso_date"] = (*NAMED["iso_local_date"], OptionalSection((OFFSET,)))
NAMED["iso_offset_time"] = (*ISO_TIME, OFFSET)
NAMED["iso_time"] = (*ISO_TIME, OptionalSection((OFFSET,)))
NAMED["iso_local_date_time"] = (*NAMED["iso_local_date"], LiteralText("T"), *ISO_TIME)
NAMED["iso_offset_date_time"] = (*NAMED["iso_local_date_time"], OFFSET)
"""java.time's ISO formatters APOC names (DateFormatUtil), as elements: those with a zone in brackets
(`iso_date_time`, `iso_zoned_date_time`), `iso_instant`, `iso_week_date` and `rfc_1123_date_time` are
refused."""

ELASTIC = {
    "basic_date": "yyyyMMdd", "basic_date_time": "yyyyMMdd'T'HHmmss.SSSZ",
    "basic_date_time_no_millis": "yyyyMMdd'T'HHmmssZ", "basic_ordinal_date": "yyyyDDD",
    "basic_ordinal_date_time": "yyyyDDD'T'HHmmss.SSSZ", "basic_ordinal_date_time_no_millis": "yyyyDDD'T'HHmmssZ",
    "basic_time": "HHmmss.SSSZ", "basic_time_no_millis": "HHmmssZ", "basic_t_time": "'T'HHmmss.SSSZ",
    "basic_t_time_no_millis": "'T'HHmmssZ", "basic_week_date": "xxxx'W'wwe",
    "basic_week_date_time": "xxxx'W'wwe'T'HHmmss.SSSZ", "basic_week_date_time_no_millis": "xxxx'W'wwe'T'HHmmssZ",
    "date": "yyyy-MM-dd", "date_hour": "yyyy-MM-dd'T'HH", "date_hour_minute": "yyyy-MM-dd'T'HH:mm",
    "date_hour_minute_second": "yyyy-MM-dd'T'HH:mm:ss",
    "date_hour_minute_second_fraction": "yyyy-MM-dd'T'HH:mm:ss.SSS",
    "date_hour_minute_second_millis": "yyyy-MM-dd'T'HH:mm:ss.SSS", "date_time": "yyyy-MM-dd'T'HH:mm:ss.SSSZZ",
    "date_time_no_millis": "yyy-MM-dd'T'HH:mm:ssZZ", "hour": "HH", "hour_minute": "HH:mm",
    "hour_minute_second": "HH:mm:ss", "hour_minute_second_fraction": "HH:mm:ss.SSS",
    "hour_minute_second_millis": "HH:mm:ss.SSS", "ordinal_date": "yyyy-DDD",
    "ordinal_date_time": "yyyy-DDD'T'HH:mm:ss.SSSZZ", "ordinal_date_time_no_millis": "yyyy-DDD'T'HH:mm:ssZZ",
    "time": "HH:mm:ss.SSSZZ", "time_no_millis": "HH:mm:ssZZ", "t_time": "'T'HH:mm:ss.SSSZZ",
    "t_time_no_millis": "'T'HH:mm:ssZZ", "week_date": "xxxx-'W'ww-e", "week_date_time": "xxxx-'W'ww-e'T'HH:mm:ss.SSSZZ",
    "week_date_time_no_millis": "xxxx-'W'ww-e'T'HH:mm:ssZZ", "weekyear": "xxxx", "weekyear_week": "xxxx-'W'ww",
    "weekyear_week_day": "xxxx-'W'ww-e", "year": "yyyy", "year_month": "yyyy-MM", "year_month_day": "yyyy-MM-dd",
}
"""Elasticsearch's format names APOC maps to DateTimeFormatter patterns (DateFormatUtil.ELASTIC_PATTERNS)."""

OUTPUT_ONLY = {"iso_date_time": (*NAMED["iso_local_date_time"], OptionalSection((OFFSET,)))}
"""ISO_DATE_TIME writes a zone in brackets only for a region, which no parse here gives; it reads one."""

REFUSED_NAMED = ("iso_zoned_date_time", "iso_instant", "iso_week_date", "rfc_1123_date_time")


class Refused(Exception):
    """What the engine cannot parse as Java does; reported as UnsupportedFeature at the format argument."""


def elements_of(format_text: str, *, output: bool = False) -> tuple[Element | Fraction, ...]:
    """DateFormatUtil.getOrCreate: a named ISO formatter, an Elasticsearch name, else a pattern."""
    lower = format_text.lower()
    if lower in OUTPUT_ONLY:
        if not output:
            raise Refused(f"the date format {lower} to parse (it reads a zone in brackets)")
        return OUTPUT_ONLY[lower]
    if lower in REFUSED_NAMED:
        raise Refused(f"the date format {lower} (a zone in brackets, an instant, week-based fields or"
                                 " English RFC 1123 text, which the engine does not parse)")
    if lower in NAMED:
        return NAMED[lower]
    return parse_pattern(ELASTIC.get(lower, format_text))


# -- the pattern as a regular expression ----------------------------------------------------------------------

@dataclass
class Plan:
    """What a pattern parses: the regular expression, its groups' names in order, and how to read them."""

    regex: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    reduced_year: bool = False
    era_year: bool = False
    optional: set[str] = field(default_factory=set)

    def group(self, name: str, expression: str, letter: str) -> None:
        if name in self.groups:
            raise Refused(f"a date pattern giving the field of pattern letter {letter} twice")
        self.groups.append(name)
        self.regex.append(f"({expression})")

    def has(self, *names: str) -> bool:
        return any(name in self.groups for name in names)


NAMES_RE = {"month": "|".join([*MONTHS, *(m[:3] for m in MONTHS)]), "day": "|".join([*DAYS, *(d[:3] for d in DAYS)])}
VARIABLE = "[0-9]{1,19}"
NUMBERS = {"d": ("day", 2), "H": ("hour", 2), "h": ("h12", 2), "m": ("minute", 2), "s": ("second", 2)}
"""Numeric letters of one or two digits: one letter a variable width, two a fixed one."""
OFFSETS = {("X", 1): "Z|[+-][0-9]{2}(?:[0-9]{2})?", ("X", 2): "Z|[+-][0-9]{4}", ("X", 3): "Z|[+-][0-9]{2}:[0-9]{2}",
           ("X", 4): "Z|[+-][0-9]{4}(?:[0-9]{2})?", ("X", 5): "Z|[+-][0-9]{2}:[0-9]{2}(?::[0-9]{2})?",
           ("Z", 1): "[+-][0-9]{4}", ("Z", 2): "[+-][0-9]{4}", ("Z", 3): "[+-][0-9]{4}",
           ("Z", 5): "Z|[+-][0-9]{2}:[0-9]{2}(?::[0-9]{2})?"}
OFFSETS.update({("x", count): regex.removeprefix("Z|") for (letter, count), regex in OFFSETS.items() if letter == "X"})
"""Offset letters: the text DateTimeFormatter's strict parser takes ('Z' for zero where the letter has it)."""
REFUSED = {"G": "an era", "Q": "a quarter", "q": "a quarter", "w": "a week of the week-based year",
           "W": "a week of the month", "e": "a localized day of the week", "c": "a localized day of the week",
           "F": "an aligned week of the month", "k": "a clock hour of the day", "K": "an hour of AM/PM",
           "B": "a period of the day", "A": "a milli of the day", "n": "a nano of the second",
           "N": "a nano of the day", "g": "a modified Julian day", "V": "a zone id", "v": "a generic zone name",
           "O": "a localized offset"}


def _width(element: Element | Fraction) -> int | None:
    """The fixed width of a numeric element, None for a variable one, -1 for what is not a number."""
    if not isinstance(element, Letter):
        return -1
    if element.letter in "yuY":
        return None if element.count in (1, 3) else max(element.count, 2)
    if (element.letter in "ML" and element.count >= 3) or element.letter not in "dHhmsDSML":
        return -1
    if element.letter == "S":
        return element.count
    if element.letter == "D":
        return element.count if element.count == 3 else None
    return None if element.count == 1 else 2


def plan_of(elements: tuple[Element | Fraction, ...], what: str) -> Plan:
    """The regular expression of a pattern's elements; UnsupportedFeature or PatternError naming what the
    engine cannot parse as Java does."""
    plan = Plan()
    _add(plan, elements, what, optional=False)
    plan.regex.insert(0, "^")
    plan.regex.append("$")
    return plan


def _add(plan: Plan, elements: tuple[Element | Fraction, ...], what: str, *, optional: bool) -> None:
    for index, element in enumerate(elements):
        if isinstance(element, LiteralText):
            plan.regex.append(re.escape(element.text))
        elif isinstance(element, Fraction):
            plan.regex.append(r"(?:\.")
            plan.group("fraction", "[0-9]{0,9}", "S")
            plan.regex.append(")?")
            plan.optional.add("fraction")
        elif isinstance(element, OptionalSection):
            inner = [e for e in element.elements if isinstance(e, Letter)]
            if not optional and all(e.letter in "sXxZ" for e in inner):
                before = len(plan.groups)
                plan.regex.append("(?:")
                _add(plan, element.elements, what, optional=True)
                plan.regex.append(")?")
                plan.optional.update(plan.groups[before:])
            else:
                raise Refused(f"{what} with an optional section [...] of a pattern")
        else:
            if element.pad:
                raise Refused(f"{what} with pattern letter p (pad)")
            following = elements[index + 1] if index + 1 < len(elements) else None
            if _width(element) is None and following is not None and _width(following) is None:
                raise Refused(f"{what} with pattern letters {element.letter} and {following.letter}"  # type: ignore[union-attr]
                                         " of variable widths side by side")
            _letter(plan, element, what)


def _letter(plan: Plan, element: Letter, what: str) -> None:
    letter, count = element.letter, element.count
    if letter in REFUSED:
        raise Refused(f"{what} with pattern letter {letter} ({REFUSED[letter]})")
    width = _width(element)
    digits = VARIABLE if width is None else f"[0-9]{{{width}}}"
    if letter in "yu":
        plan.reduced_year = count == 2
        plan.era_year = letter == "y"
        plan.group("year", "[0-9]{1,19}" if count == 1 else "[0-9]{3,19}" if count == 3 else digits, letter)
    elif letter == "Y":
        if count not in (2, 4):
            raise Refused(f"{what} with pattern letter Y {count} times (a week-based year)")
        plan.regex.append(digits)  # nothing resolves a week-based year without its weeks: it is read, unused
    elif letter in "ML":
        if count > 5:
            raise PatternError(f"Too many pattern letters: {letter}")
        if count >= 3 and (letter == "L" or count == 5):
            raise Refused(f"{what} with pattern letter {letter} {count} times (a stand-alone or narrow"
                                     " month name)")
        if count >= 3:
            names = MONTHS if count == 4 else tuple(m[:3] for m in MONTHS)
            plan.group("mname", "|".join(names), letter)
        else:
            plan.group("month", digits, letter)
    elif letter in NUMBERS:
        name, most = NUMBERS[letter]
        if count > most:
            raise PatternError(f"Too many pattern letters: {letter}")
        plan.group(name, digits, letter)
    elif letter == "D":
        if count > 3:
            raise PatternError(f"Too many pattern letters: {letter}")
        plan.group("doy", "[0-9]{2,3}" if count == 2 else digits, letter)
    elif letter == "S":
        plan.group("fraction", digits, letter)
    elif letter == "E":
        if count > 4:
            raise Refused(f"{what} with pattern letter E 5 times (a narrow day name)")
        names = DAYS if count == 4 else tuple(d[:3] for d in DAYS)
        plan.group("dname", "|".join(names), letter)
    elif letter == "a":
        if count > 1:
            raise PatternError("Too many pattern letters: a")
        plan.group("ampm", "AM|PM", letter)
    elif (letter, count) in OFFSETS:
        plan.group("offset", OFFSETS[letter, count], letter)
    elif letter in "XxZ":
        raise Refused(f"{what} with pattern letter {letter} {count} times")
    elif letter == "z":
        if count > 4:
            raise PatternError("Too many pattern letters: z")
        plan.group("zone", "[+-][0-9]{2}:[0-9]{2}(?::[0-9]{2})?|[A-Za-z][A-Za-z0-9/_+:-]*", letter)
    else:
        raise Refused(f"{what} with pattern letter {letter}")


def check_resolvable(plan: Plan, what: str) -> None:
    """Refuse combinations the SMART resolver leaves unresolved in ways the engine does not model."""
    if plan.has("h12") != plan.has("ampm"):
        raise Refused(f"{what} with a clock hour (h) without AM/PM (a) or AM/PM without it")
    if plan.has("minute", "second", "fraction") and not plan.has("hour", "h12"):
        raise Refused(f"{what} with minutes or seconds but no hour (Java's resolver keeps them unchecked)")
    if (plan.has("second", "fraction") and not plan.has("minute")) or (
            plan.has("fraction") and not plan.has("second")):
        raise Refused(f"{what} with seconds or a fraction but no minutes or seconds (Java's resolver"
                                 " keeps them unresolved)")
    if plan.has("doy") and plan.has("month", "mname", "day"):
        raise Refused(f"{what} with a day of the year and a month or day")
    if plan.has("hour") and plan.has("h12"):
        raise Refused(f"{what} with both H and h")


# -- resolving on the rows -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Resolved:
    """SQL of what a parse resolves to, None where the pattern does not give it: epoch day, nanosecond of the
    day, offset seconds, zone text; and the fields left as parsed (year, month, day, weekday)."""

    day: str | None
    time: str | None
    offset: str | None
    zone: str | None
    raw: dict[str, str]
    checks: list[tuple[str, str]]
    """(condition, message SQL) pairs: the resolver's errors, tested in order."""


def _parse_error(text: str, tail: str) -> str:
    """DateTimeParseException for `text` (SQL): its message, `tail` (SQL) after the quoted text."""
    return error_sql("ArgumentError", "InvalidArgumentValue", "'Text ''' || " + text + " || ''' ' || " + tail)


def _invalid(field_name: str, low: int, high: int, value: str, text: str) -> str:
    return _parse_error(text, sql_string(f"could not be parsed: Invalid value for {field_name} (valid values {low}"
                                         f" - {high}): ") + f" || ({value})::VARCHAR")


def resolve(plan: Plan, g: str, text: str) -> Resolved:
    """The SMART resolver over the groups `g` (a STRUCT of the regex's groups, cheap) of `text`."""
    checks: list[tuple[str, str]] = []
    raw: dict[str, str] = {}

    def _number(g: str, name: str) -> str:  # a field the pattern lacks is 0 (minutes, seconds of an hour)
        return f"coalesce(TRY_CAST(nullif({g}.{name}, '') AS BIGINT), 0)" if plan.has(name) else "0"
    year = None
    if plan.has("year"):
        year = _number(g, "year")
        if plan.reduced_year:
            year = f"(2000 + {year})"
        elif plan.era_year:
            checks.append((f"{year} < 1", _invalid("YearOfEra", 1, 999999999, year, text)))
    month = None
    if plan.has("mname"):
        names = "[" + ", ".join(sql_string(m) for m in MONTHS) + "]"
        month = f"list_position(list_transform({names}, lambda x: left(x, length({g}.mname))), {g}.mname)"
    elif plan.has("month"):
        month = _number(g, "month")
    day_of_month = _number(g, "day") if plan.has("day") else None
    epoch_day = None
    if year is not None and month is not None and day_of_month is not None:
        checks.append((f"NOT ({month} BETWEEN 1 AND 12)", _invalid("MonthOfYear", 1, 12, month, text)))
        checks.append((f"NOT ({day_of_month} BETWEEN 1 AND 31)", _invalid("DayOfMonth", 1, 31, day_of_month, text)))
        epoch_day = rt.days(year, month, f"least({day_of_month}, {rt.month_length(year, month)})")
    elif year is not None and plan.has("doy"):
        doy = _number(g, "doy")
        checks.append((f"NOT ({doy} BETWEEN 1 AND 366)", _invalid("DayOfYear", 1, 366, doy, text)))
        leap_error = _parse_error(text, "'could not be parsed: Invalid date ''DayOfYear 366'' as ''' || "
                                  + year + "::VARCHAR || ''' is not a leap year'")
        checks.append((f"{doy} = 366 AND NOT {rt.leap(year)}", leap_error))
        epoch_day = f"({rt.days(year, '1', '1')} + {doy} - 1)"
    else:
        raw.update({k: v for k, v in (("years", year), ("months", month), ("days", day_of_month)) if v is not None})
    if plan.has("dname"):
        names = "[" + ", ".join(sql_string(d) for d in DAYS) + "]"
        weekday = f"list_position(list_transform({names}, lambda x: left(x, length({g}.dname))), {g}.dname)"
        if epoch_day is not None:
            checks.append((f"{rt.weekday_of(epoch_day)} <> {weekday}", _parse_error(text, sql_string(
                "could not be parsed: Conflict found: Field DayOfWeek differs from the date"))))
        else:
            raw["weekdays"] = weekday
    time = None
    if plan.has("hour", "h12"):
        if plan.has("hour"):
            hour = _number(g, "hour")
            checks.append((f"{hour} = 24", error_sql("UnsupportedFeature", "Unsupported", sql_string(
                "an hour of 24 (Java's SMART resolver makes it midnight of the next day)"))))
            checks.append((f"{hour} > 23", _invalid("HourOfDay", 0, 23, hour, text)))
        else:
            h12 = _number(g, "h12")
            checks.append((f"{h12} > 12", _invalid("ClockHourOfAmPm", 1, 12, h12, text)))
            hour = f"({h12} % 12 + CASE {g}.ampm WHEN 'PM' THEN 12 ELSE 0 END)"
        minute, second = _number(g, "minute"), _number(g, "second")
        checks.append((f"{minute} > 59", _invalid("MinuteOfHour", 0, 59, minute, text)))
        checks.append((f"{second} > 59", _invalid("SecondOfMinute", 0, 59, second, text)))
        nanos = f"coalesce(TRY_CAST(rpad(nullif({g}.fraction, ''), 9, '0') AS BIGINT), 0)" \
            if plan.has("fraction") else "0"
        time = f"((({hour}) * 3600 + {minute} * 60 + {second}) * {rt.NANOS} + {nanos})"
    offset = None
    if plan.has("offset"):
        offset = _offset_seconds(f"{g}.offset")
    zone = f"{g}.zone" if plan.has("zone") else None
    return Resolved(epoch_day, time, offset, zone, raw, checks)


def _offset_seconds(text: str) -> str:
    """Seconds of an offset's text: Z, or ±HH[[:]MM[[:]SS]]; NULL for the empty text of an absent one."""
    digits = f"replace({text}, ':', '')"
    part = lambda start: f"coalesce(TRY_CAST(nullif(substr({digits}, {start}, 2), '') AS BIGINT), 0)"  # noqa: E731
    return (f"CASE WHEN {text} = '' THEN NULL WHEN {text} = 'Z' THEN 0 ELSE (CASE WHEN left({text}, 1) = '-'"
            f" THEN -1 ELSE 1 END) * ({part(2)} * 3600 + {part(4)} * 60 + {part(6)}) END")


def _zone_display(zone: str) -> str:
    """ZoneId.getDisplayName(SHORT, ROOT) of a parsed zone: an offset's id (Z for zero), UTC and GMT."""
    offset = _offset_seconds(zone)
    refused = error_sql("UnsupportedFeature", "Unsupported", sql_string(
        "apoc.date.fields() of the time zone ") + f" || {zone} || ' (only UTC, GMT and offsets are supported)'")
    return (f"CASE WHEN {zone} IN ('UTC', 'GMT') THEN {zone} WHEN regexp_matches({zone}, '^[+-]')"
            f" THEN {rt.offset_text(offset)} ELSE {refused} END")


# -- the functions --------------------------------------------------------------------------------------------

def _literal_format(argument: b.BoundExpression, what: str, default: str | None) -> str | None:
    """The text of a literal format argument (None for null); anything else is refused."""
    if isinstance(argument, b.BLiteral) and (argument.value is None or isinstance(argument.value, str)):
        return default if argument.value in (None, "") and default is not None else argument.value
    raise UnsupportedFeature(f"{what} with a format that is not a literal string", argument.span)


def _plan(argument: b.BoundExpression | None, what: str, default: str) -> tuple[Plan, tuple]:
    text = default if argument is None else _literal_format(argument, what, default)
    span = argument.span if argument is not None else None
    try:
        elements = elements_of(text or default)
        plan = plan_of(elements, what)
        check_resolvable(plan, what)
    except PatternError as error:
        raise CypherArgumentError(str(error), span, detail="InvalidArgumentValue") from None
    except Refused as error:
        raise UnsupportedFeature(str(error), span) from None
    return plan, elements


def _parsed(c: ExpressionCompiler, text: str, plan: Plan, build: Callable[[Resolved], str]) -> str:
    """`build` of the resolved fields of `text`, or the parse error of a text the pattern does not match."""
    regex = c.context.parameters.text("".join(plan.regex))
    names = "[" + ", ".join(sql_string(name) for name in plan.groups) + "]"

    def body(s: str) -> str:
        def with_groups(g: str) -> str:
            resolved = resolve(plan, g, s)
            checks = "".join(f" WHEN {condition} THEN {error}" for condition, error in resolved.checks)
            return f"CASE{checks} ELSE {build(resolved)} END" if checks else build(resolved)
        groups = f"regexp_extract({s}, {regex}, {names})" if plan.groups else "NULL"
        unparsed = _parse_error(s, "'could not be parsed'")
        return (f"CASE WHEN NOT regexp_matches({s}, {regex}) THEN {unparsed} ELSE "
                + let([groups], with_groups) + " END")
    return let([text], body)


FIELD_KEYS = ("years", "months", "weekdays", "days", "hours", "minutes", "seconds")


def _fields(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.date.fields(date, pattern = 'yyyy-MM-dd HH:mm:ss'): the fields the parse supports, of years,
    months, weekdays (ISO, Monday 1), days, hours, minutes, seconds and zoneid ('UTC' unless the text
    names a zone: APOC's formatter has UTC as its override zone)."""
    what = "apoc.date.fields()"
    plan, _ = _plan(f.arguments[1] if len(f.arguments) > 1 else None, what, "yyyy-MM-dd HH:mm:ss")
    if (plan.has("zone") and set(plan.groups) == {"zone"}) or plan.groups == ["offset"]:
        raise UnsupportedFeature(f"{what} with a pattern of a zone alone (APOC parses it without its UTC zone)",
                                 f.arguments[1].span)

    def build(r: Resolved) -> str:
        values: dict[str, str] = dict(r.raw)
        if r.day is not None:
            values.update(years=rt.year_of(r.day), months=rt.month_of(r.day), weekdays=rt.weekday_of(r.day),
                          days=rt.day_of(r.day))
        if r.time is not None:
            values.update(hours=rt.hours(r.time), minutes=rt.minutes(r.time), seconds=rt.seconds(r.time))
        entries = [f"{{'key': '{key}', 'value': {to_variant(f'({values[key]})::BIGINT', t.INTEGER)}}}"
                   for key in FIELD_KEYS if key in values]
        zone = _zone_display(r.zone) if r.zone is not None else "'UTC'"
        entries.append(f"{{'key': 'zoneid', 'value': {to_variant(zone, t.STRING)}}}")
        return map_of_entries("[" + ", ".join(entries) + "]")
    text = c.string(f.arguments[0])
    empty = map_of_entries("[]::STRUCT(key VARCHAR, value VARIANT)[]")
    return let([text], lambda s: f"CASE WHEN {s} IS NULL THEN {empty} ELSE {_parsed(c, s, plan, build)} END")


def _convert_format(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.date.convertFormat(temporal, currentFormat, convertTo = 'yyyy-MM-dd'): the text parsed by the
    first format (no zone of its own), written by the second; a field the parse does not give is Java's
    'Unsupported field' error."""
    what = "apoc.date.convertFormat()"
    plan, _ = _plan(f.arguments[1], what, "")
    if plan.has("zone"):
        raise UnsupportedFeature(f"{what} with pattern letter z in the current format", f.arguments[1].span)
    if plan.has("dname") and not plan.has("doy", "day"):
        raise UnsupportedFeature(f"{what} with a day name but no date", f.arguments[1].span)
    target = _literal_format(f.arguments[2], what, None) if len(f.arguments) > 2 else "yyyy-MM-dd"
    if target is None:
        return "NULL::VARCHAR"
    try:
        output = elements_of(target, output=True)
    except PatternError as error:
        raise CypherArgumentError(str(error), f.arguments[2].span, detail="InvalidArgumentValue") from None
    except Refused as error:
        raise UnsupportedFeature(str(error), f.arguments[2].span) from None

    def build(r: Resolved) -> str:
        if r.raw:
            return error_sql("UnsupportedFeature", "Unsupported", sql_string(
                f"{what} of a date the current format does not complete (its fields: {', '.join(r.raw)})"))
        fields = Fields("parsed", r.day, r.time, r.offset, None)
        try:
            parts = _output_sql(output, fields)
        except PatternError as error:
            raise CypherArgumentError(str(error), f.arguments[2].span, detail="InvalidArgumentValue") from None
        return " || ".join(parts) if parts else "''"
    text = c.string(f.arguments[0])
    return let([text], lambda s: f"CASE WHEN coalesce({s}, '') = '' THEN NULL ELSE {_parsed(c, s, plan, build)} END")


def _output_sql(elements: tuple[Element | Fraction, ...], fields: Fields) -> list[str]:
    """SQL texts of the output format's elements; an ISO time's optional seconds (with their fraction) are
    written whenever the parse gave a time, as Java's formatter writes them when the field is there."""
    parts: list[str] = []
    for element in elements:
        if isinstance(element, Fraction):
            parts.append(_fraction_sql(fields.t))
        elif isinstance(element, OptionalSection) and any(isinstance(e, Fraction) for e in element.elements):
            if fields.t is not None:
                parts.extend(_output_sql(element.elements, fields))
        else:
            parts.extend(elements_sql((element,), fields, optional=False))
    return parts


def _fraction_sql(time: str | None) -> str:
    if time is None:
        return error_sql("ArgumentError", "InvalidArgumentValue", sql_string(
            "apoc.date.convertFormat(): the fraction of a second cannot be written: Unsupported field"))
    return rt.fraction_text(rt.nanos(time))


SIGNATURES = [("apoc.date.fields", 1, 2, t.MAP), ("apoc.date.convertformat", 2, 3, t.STRING)]
"""(lower-case name, least and most arguments, result type)."""

FUNCTIONS: dict[str, Callable[[ExpressionCompiler, b.BFunction], str]] = {
    "apoc.date.fields": _fields, "apoc.date.convertformat": _convert_format,
}
