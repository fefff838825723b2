"""Cypher 25's `format(value[, pattern])` (Neo4j 2025.09; Cypher Manual › Functions › Temporal › Format
functions): a temporal value as its ISO string, or as a string a pattern describes (ADR-0082).

The pattern of an instant follows Java's DateTimeFormatter (English, the manual's examples: a week starts on
Sunday and its first week is the one holding January 1st); that of a duration follows the manual's table of
component groups. The pattern must be known when the statement compiles (a literal or a parameter): it is
parsed here, as DateTimeFormatterBuilder.appendPattern parses it, into elements, and each element becomes
SQL over the value's fields (epoch day, nanosecond of the day, offset, zone), concatenated. A letter the
value's type has no field for is Java's "Unsupported field" error, on the rows that bring such a value; what
the engine cannot write as Java does (zone names of a region, periods of the day, ...) is refused by name.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.errors import CypherArgumentError, CypherTypeError, UnsupportedFeature
from engine.quoting import sql_string
from engine.semantic import bound as b
from engine.semantic.unknown import UNKNOWN
from engine.sqlgen import runtime_temporal as rt
from engine.sqlgen.expressions import ExpressionCompiler
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.runtime_temporal import DAYS, MONTHS, NANOS, Parts, let, padded_number
from engine.sqlgen.temporal_arithmetic import INSTANTS, compiled, variant_of
from engine.types import Kind, is_variant

# -- the pattern ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LiteralText:
    text: str


@dataclass(frozen=True)
class Letter:
    letter: str
    count: int
    pad: int = 0
    """Java's `padNext`: the field's text left-padded with spaces to this width (0: none)."""


@dataclass(frozen=True)
class OptionalSection:
    elements: tuple[Element, ...]


Element = LiteralText | Letter | OptionalSection

INSTANT_LETTERS = "GuyDMLdgQqYwWEecFaBhKkHmsSAnNVvzOXxZ"
"""The letters DateTimeFormatter knows (`p`, the pad, aside); any other is an unknown pattern letter."""


class PatternError(ValueError):
    """Java's IllegalArgumentException for a pattern it cannot build a formatter from."""


def parse_pattern(pattern: str) -> tuple[Element, ...]:
    """`pattern` as DateTimeFormatterBuilder.appendPattern reads it: runs of a letter, quoted text (`''` a
    quote), optional sections `[...]`, `p` runs padding the next letter run, other characters as written."""
    stack: list[list[Element]] = [[]]
    pos = 0
    while pos < len(pattern):
        cur = pattern[pos]
        if cur.isascii() and cur.isalpha():
            count = _run(pattern, pos)
            pos += count
            pad = 0
            if cur == "p":
                if pos < len(pattern) and pattern[pos].isascii() and pattern[pos].isalpha():
                    pad, cur = count, pattern[pos]
                    count = _run(pattern, pos)
                    pos += count
                if pad == 0:
                    raise PatternError(f"Pad letter 'p' must be followed by valid pad pattern: {pattern}")
            if cur not in INSTANT_LETTERS:
                raise PatternError(f"Unknown pattern letter: {cur}")
            stack[-1].append(Letter(cur, count, pad))
        elif cur == "'":
            end = pos + 1
            while True:
                end = pattern.find("'", end)
                if end < 0:
                    raise PatternError(f"Pattern ends with an incomplete string literal: {pattern}")
                if end + 1 < len(pattern) and pattern[end + 1] == "'":
                    end += 2
                    continue
                break
            text = pattern[pos + 1:end]
            stack[-1].append(LiteralText("'" if text == "" else text.replace("''", "'")))
            pos = end + 1
        elif cur == "[":
            stack.append([])
            pos += 1
        elif cur == "]":
            if len(stack) == 1:
                raise PatternError("Pattern invalid as it contains ] without previous [")
            inner = tuple(stack.pop())
            stack[-1].append(OptionalSection(inner))
            pos += 1
        elif cur in "{}#":
            raise PatternError(f"Pattern includes reserved character: '{cur}'")
        else:
            stack[-1].append(LiteralText(cur))
            pos += 1
    while len(stack) > 1:  # an unclosed section ends with the pattern (DateTimeFormatterBuilder.toFormatter)
        inner = tuple(stack.pop())
        stack[-1].append(OptionalSection(inner))
    return tuple(stack[0])


def _run(pattern: str, pos: int) -> int:
    end = pos
    while end < len(pattern) and pattern[end] == pattern[pos]:
        end += 1
    return end - pos


# -- SQL for instants ------------------------------------------------------------------------------------------

class Unavailable(Exception):
    """The value's type has no field for a letter (Java's UnsupportedTemporalTypeException)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def _text_list(names: tuple[str, ...] | list[str], index: str) -> str:
    return f"[{', '.join(sql_string(n) for n in names)}][{index}]"


ERAS = {1: ("BC", "AD"), 4: ("Before Christ", "Anno Domini"), 5: ("B", "A")}
QUARTERS_FULL = ("1st quarter", "2nd quarter", "3rd quarter", "4th quarter")
TEXT_STYLES = {1: "short", 2: "short", 3: "short", 4: "full", 5: "narrow"}


def _text(names: tuple[str, ...], count: int, index: str) -> str:
    """Java's text of a month or a day: SHORT (1-3 letters), FULL (4), NARROW (5)."""
    style = TEXT_STYLES[count]
    shown = tuple(n[:3] for n in names) if style == "short" else names if style == "full" else tuple(
        n[0] for n in names)
    return _text_list(shown, index)


def number(value: str, count: int, style: str = "normal") -> str:
    """A number field as Java's NumberPrinterParser writes it with minimum width `count`: `normal` a minus
    for a negative value only; `exceeds` a plus too when the value has more digits than the width."""
    if style == "exceeds":
        return let([value], lambda v: (
            f"CASE WHEN {v} < 0 THEN '-' || {padded_number(f'abs({v})', str(count))}"
            f" WHEN length({v}::VARCHAR) > {count} THEN '+' || {v}::VARCHAR"
            f" ELSE {padded_number(v, str(count))} END"))
    return let([value], lambda v: (
        f"CASE WHEN {v} < 0 THEN '-' ELSE '' END || {padded_number(f'abs({v})', str(count))}"))


def _two_digits(value: str) -> str:
    return rt.pad2(value)


def _too_many(letter: str) -> PatternError:
    return PatternError(f"Too many pattern letters: {letter}")


def _year(value: str, count: int) -> str:
    """u, y and Y: two letters the last two digits; fewer than four a minus only; four and more `exceeds`."""
    if count == 2:
        return _two_digits(f"abs({value}) % 100")
    return number(value, count, "normal" if count < 4 else "exceeds")


def offset_id(o: str, kind: int, zero: str) -> str:
    """Java's OffsetIdPrinterParser for pattern PATTERNS[kind] ('+HH', '+HHmm', '+HH:mm', '+HHMM', '+HH:MM',
    '+HHMMss', '+HH:MM:ss'): minutes when the pattern always has them or they are not zero, seconds likewise;
    `zero` when the offset (or what is written of it) is zero."""
    colon = ":" if kind in (2, 4, 6) else ""
    minutes_shown = "TRUE" if 3 <= kind <= 8 else "FALSE" if kind == 0 else f"(abs({o}) // 60 % 60 > 0)"
    seconds_shown = f"({minutes_shown} AND abs({o}) % 60 > 0)" if kind >= 5 else "FALSE"
    hours = f"lpad((abs({o}) // 3600 % 100)::VARCHAR, 2, '0')"
    written = (f"abs({o}) // 3600 % 100 + CASE WHEN {minutes_shown} THEN abs({o}) // 60 % 60 ELSE 0 END"
               f" + CASE WHEN {seconds_shown} THEN abs({o}) % 60 ELSE 0 END")
    text = (f"CASE WHEN {o} < 0 THEN '-' ELSE '+' END || {hours}"
            f" || CASE WHEN {minutes_shown} THEN '{colon}' || {_two_digits(f'abs({o}) // 60 % 60')} ELSE '' END"
            f" || CASE WHEN {seconds_shown} THEN '{colon}' || {_two_digits(f'abs({o}) % 60')} ELSE '' END")
    return f"CASE WHEN {o} = 0 OR ({written}) = 0 THEN {sql_string(zero)} ELSE {text} END"


def localized_offset(o: str, full: bool) -> str:
    """Java's LocalizedOffsetIdPrinterParser in English: 'GMT', then the signed offset: FULL 'GMT+01:00', SHORT
    'GMT+1' (minutes and seconds only when not zero)."""
    h, m, s = f"(abs({o}) // 3600 % 100)", f"(abs({o}) // 60 % 60)", f"(abs({o}) % 60)"
    seconds = f"CASE WHEN {s} <> 0 THEN ':' || {_two_digits(s)} ELSE '' END"
    if full:
        tail = f"{_two_digits(h)} || ':' || {_two_digits(m)} || {seconds}"
    else:
        tail = f"{h}::VARCHAR || CASE WHEN {m} <> 0 OR {s} <> 0 THEN ':' || {_two_digits(m)} || {seconds} ELSE '' END"
    return f"'GMT' || CASE WHEN {o} = 0 THEN '' ELSE CASE WHEN {o} < 0 THEN '-' ELSE '+' END || {tail} END"


@dataclass(frozen=True)
class Fields:
    """What one instant kind has, as SQL: local epoch day, local nanosecond of the day, offset seconds, zone
    name (None where the kind has none)."""

    kind: str
    d: str | None
    t: str | None
    o: str | None
    z: str | None


def _date(f: Fields, what: str) -> str:
    if f.d is None:
        raise Unavailable(what)
    return f.d


def _time(f: Fields, what: str) -> str:
    if f.t is None:
        raise Unavailable(what)
    return f.t


def _offset(f: Fields, what: str) -> str:
    if f.o is None:
        raise Unavailable(what)
    return f.o


def _zone_id(f: Fields, what: str) -> str:
    """The zone id (a region, or the offset's id): a ZonedDateTime's, never an OffsetTime's (Java's strict
    zoneId query)."""
    if f.z is None or f.o is None:
        raise Unavailable(what)
    return f"coalesce({f.z}, {rt.offset_text(f.o)})"


def _sunday_day(d: str) -> str:
    """Day of the week counted from Sunday (1) to Saturday (7)."""
    return f"({rt.weekday_of(d)} % 7 + 1)"


def _week_saturday(d: str) -> str:
    """The Saturday ending the Sunday-started week of day `d`: its year is the week-based year."""
    return f"({d} - {rt.weekday_of(d)} % 7 + 6)"


def letter_sql(letter: str, count: int, f: Fields) -> str:
    """SQL for one run of a pattern letter over the fields of an instant. PatternError for counts Java
    refuses, Unavailable when the kind lacks the field, UnsupportedFeature for what the engine cannot write."""
    builder = LETTERS[letter]
    return builder(count, f)


def _numeric(what: str, most: int, part: Callable[[Fields, str], str], value: Callable[[str], str],
             letter: str) -> Callable[[int, Fields], str]:
    """A number field: one letter the minimum digits, more the width (at most `most` letters)."""
    def build(count: int, f: Fields) -> str:
        if count > most:
            raise _too_many(letter)
        return number(value(part(f, what)), count)
    return build


def _number_text(what: str, part: Callable[[Fields, str], str], value: Callable[[str], str],
                 text: Callable[[int, str], str], letter: str) -> Callable[[int, Fields], str]:
    """A number/text field: one or two letters the number, three to five the text."""
    def build(count: int, f: Fields) -> str:
        if count > 5:
            raise _too_many(letter)
        v = value(part(f, what))
        return number(v, count) if count <= 2 else text(count, v)
    return build


def _era(count: int, f: Fields) -> str:
    if count > 5:
        raise _too_many("G")
    names = ERAS[1 if count <= 3 else count]
    return _text_list(names, f"({rt.year_of(_date(f, 'era'))} > 0)::INTEGER + 1")


def _proleptic_year(count: int, f: Fields) -> str:
    return _year(rt.year_of(_date(f, "year")), count)


def _year_of_era(count: int, f: Fields) -> str:
    return let([rt.year_of(_date(f, "year-of-era"))], lambda y: _year(f"CASE WHEN {y} > 0 THEN {y} ELSE 1 - {y} END",
                                                                    count))


def _week_year(count: int, f: Fields) -> str:
    return _year(rt.year_of(_week_saturday(_date(f, "week-based-year"))), count)


def _day_of_year(count: int, f: Fields) -> str:
    if count > 3:
        raise _too_many("D")
    return number(rt.day_of_year(_date(f, "day-of-year")), count)


def _quarter_text(count: int, q: str) -> str:
    if count == 3:
        return f"'Q' || {q}::VARCHAR"
    return _text_list(QUARTERS_FULL, q) if count == 4 else f"{q}::VARCHAR"


def _weekday_text(count: int, f: Fields, letter: str) -> str:
    """E, and e or c from three letters: the day's name, SHORT, FULL or NARROW."""
    if count > 5:
        raise _too_many(letter)
    return _text(DAYS, count, rt.weekday_of(_date(f, "day-of-week")))


def _day_name(count: int, f: Fields) -> str:
    return _weekday_text(count, f, "E")


def _localized_day(count: int, f: Fields) -> str:
    """e: the day of the week counted from Sunday, one or two letters a number, three to five the text."""
    if count <= 2:
        return number(_sunday_day(_date(f, "localized day-of-week")), count)
    return _weekday_text(count, f, "e")


def _standalone_day(count: int, f: Fields) -> str:
    """c: the manual allows one letter (the number); Java writes three to five as text, two are invalid."""
    if count == 2:
        raise PatternError('Invalid pattern "cc"')
    if count > 1:
        raise UnsupportedFeature(f"format() with pattern letter c {count} times (the manual allows one)")
    return number(_sunday_day(_date(f, "localized day-of-week")), 1)


def _week_of_year(count: int, f: Fields) -> str:
    if count > 2:
        raise _too_many("w")
    saturday = _week_saturday(_date(f, "week-of-week-based-year"))
    return number(f"(({rt.day_of_year(saturday)} - 1) // 7 + 1)", count)


def _week_of_month(count: int, f: Fields) -> str:
    if count > 1:
        raise _too_many("W")
    d = _date(f, "week-of-month")
    first = f"({d} - {rt.day_of(d)} + 1)"
    return number(f"(({rt.day_of(d)} - 1 + {rt.weekday_of(first)} % 7) // 7 + 1)", 1)


def _am_pm(count: int, f: Fields) -> str:
    if count > 1:
        raise _too_many("a")
    return f"CASE WHEN {rt.hours(_time(f, 'am-pm-of-day'))} < 12 THEN 'AM' ELSE 'PM' END"


def _period(count: int, f: Fields) -> str:
    raise UnsupportedFeature("format() with pattern letter B (a period of the day, which depends on the locale's "
                             "day periods)")


def _fraction(count: int, f: Fields) -> str:
    if count > 9:
        raise PatternError("Minimum width must be from 0 to 9 inclusive but was " + str(count))
    return f"left(lpad({rt.nanos(_time(f, 'fraction-of-second'))}::VARCHAR, 9, '0'), {count})"


def _unpadded(what: str, part: Callable[[Fields, str], str], value: Callable[[str], str],
              style: str = "normal") -> Callable[[int, Fields], str]:
    """A number field of any width (A, n, N, g)."""
    def build(count: int, f: Fields) -> str:
        if count > 19:
            raise _too_many(what)
        return number(value(part(f, what)), count, style)
    return build


def _zone_id_letter(count: int, f: Fields) -> str:
    if count != 2:
        raise PatternError("Pattern letter count must be 2: V")
    return _zone_id(f, "time-zone ID")


def _zone_name(letter: str) -> Callable[[int, Fields], str]:
    """z and v: a zone that is an offset writes its id; a region's display name is refused."""
    def build(count: int, f: Fields) -> str:
        if letter == "v" and count not in (1, 4):
            raise PatternError("Wrong number of pattern letters: v")
        if letter == "z" and count > 4:
            raise _too_many("z")
        zone = _zone_id(f, "time-zone name")
        refused = error_sql("UnsupportedFeature", "Unsupported", sql_string(
            f"format() with pattern letter {letter} (the display name of time zone ") + f" || {f.z} || ')'")
        return f"CASE WHEN {f.z} IS NULL THEN {zone} ELSE {refused} END"
    return build


def _offset_o(count: int, f: Fields) -> str:
    if count not in (1, 4):
        raise PatternError("Pattern letter count must be 1 or 4: O")
    return localized_offset(_offset(f, "localized zone-offset"), count == 4)


def _offset_x(letter: str) -> Callable[[int, Fields], str]:
    def build(count: int, f: Fields) -> str:
        if count > 5:
            raise _too_many(letter)
        kind = count + (0 if count == 1 else 1)
        zero = "Z" if letter == "X" else "+00" if count == 1 else "+0000" if count % 2 == 0 else "+00:00"
        return offset_id(_offset(f, "zone-offset"), kind, zero)
    return build


def _offset_z(count: int, f: Fields) -> str:
    o = _offset(f, "zone-offset")
    if count < 4:
        return offset_id(o, 3, "+0000")
    if count == 4:
        return localized_offset(o, True)
    if count == 5:
        return offset_id(o, 6, "Z")
    raise _too_many("Z")


def _month_text(count: int, m: str) -> str:
    return _text(MONTHS, count, m)


def _time_field(what: str, most: int, value: Callable[[str], str], letter: str) -> Callable[[int, Fields], str]:
    return _numeric(what, most, _time, value, letter)


LETTERS: dict[str, Callable[[int, Fields], str]] = {
    "G": _era, "u": _proleptic_year, "y": _year_of_era, "Y": _week_year, "D": _day_of_year,
    "M": _number_text("month-of-year", _date, rt.month_of, _month_text, "M"),
    "L": _number_text("month-of-year", _date, rt.month_of, _month_text, "L"),
    "d": _numeric("day-of-month", 2, _date, rt.day_of, "d"),
    "g": _unpadded("modified-julian-day", _date, lambda d: f"({d} + 40587)"),
    "Q": _number_text("quarter-of-year", _date, rt.quarter_of, _quarter_text, "Q"),
    "q": _number_text("quarter-of-year", _date, rt.quarter_of, _quarter_text, "q"),
    "w": _week_of_year, "W": _week_of_month, "E": _day_name, "e": _localized_day, "c": _standalone_day,
    "F": _numeric("aligned-week-of-month", 1, _date, lambda d: f"(({rt.day_of(d)} - 1) // 7 + 1)", "F"),
    "a": _am_pm, "B": _period,
    "h": _time_field("clock-hour-of-am-pm", 2, lambda t: f"(({rt.hours(t)} + 11) % 12 + 1)", "h"),
    "K": _time_field("hour-of-am-pm", 2, lambda t: f"({rt.hours(t)} % 12)", "K"),
    "k": _time_field("clock-hour-of-day", 2, lambda t: f"(({rt.hours(t)} + 23) % 24 + 1)", "k"),
    "H": _time_field("hour-of-day", 2, rt.hours, "H"),
    "m": _time_field("minute-of-hour", 2, rt.minutes, "m"),
    "s": _time_field("second-of-minute", 2, rt.seconds, "s"),
    "S": _fraction,
    "A": _unpadded("milli-of-day", _time, lambda t: f"(({t}) // 1000000)", "plain"),
    "n": _unpadded("nano-of-second", _time, rt.nanos, "plain"),
    "N": _unpadded("nano-of-day", _time, lambda t: f"({t})", "plain"),
    "V": _zone_id_letter, "v": _zone_name("v"), "z": _zone_name("z"), "O": _offset_o,
    "X": _offset_x("X"), "x": _offset_x("x"), "Z": _offset_z,
}
"""Each letter of DateTimeFormatter's pattern: (count, the kind's fields) -> SQL."""


def _padded(sql: str, width: int) -> str:
    """Java's padNext: spaces before the text up to `width`; a longer text is its error."""
    def body(v: str) -> str:
        too_long = error_sql("ArgumentError", "InvalidArgumentValue", f"'Cannot print as output of ' ||"
                             f" length({v}) || ' characters exceeds pad width of {width}'")
        return f"CASE WHEN length({v}) > {width} THEN {too_long} ELSE lpad({v}, {width}, ' ') END"
    return let([sql], body)


def elements_sql(elements: tuple[Element, ...], f: Fields, *, optional: bool) -> list[str]:
    """SQL texts of the elements, in order. In an optional section a field the kind lacks drops the section
    (Unavailable goes up); at the top it is the error Java raises, when a value of the kind is formatted."""
    parts: list[str] = []
    for element in elements:
        if isinstance(element, LiteralText):
            parts.append(sql_string(element.text))
        elif isinstance(element, OptionalSection):
            with contextlib.suppress(Unavailable):
                parts.extend(elements_sql(element.elements, f, optional=True))
        else:
            try:
                sql = letter_sql(element.letter, element.count, f)
            except Unavailable as missing:
                if optional:
                    raise
                # typed: DuckDB folds `error(...) || text` to NULL without raising
                sql = "(" + error_sql("ArgumentError", "InvalidArgumentValue", sql_string(
                    f"format(): pattern letter {element.letter} ({missing.what}) cannot be applied to a"
                    f" {f.kind} value: Unsupported field")) + ")::VARCHAR"
            parts.append(_padded(sql, element.pad) if element.pad else sql)
    return parts


def instant_text(elements: tuple[Element, ...], value: str, kind: str) -> str:
    """The pattern's text of a typed instant STRUCT `value` of `kind` (`value` cheap)."""
    p: Parts = rt.parts_of(value, kind)
    has_date = kind in ("DATE", "LOCAL DATETIME", "ZONED DATETIME")
    has_time = kind != "DATE"
    zoned = kind in ("ZONED TIME", "ZONED DATETIME")

    def body(d: str, t: str) -> str:
        fields = Fields(kind, d if has_date else None, t if has_time else None, p.o if zoned else None,
                        p.z if kind == "ZONED DATETIME" else None)
        parts = elements_sql(elements, fields, optional=False)
        return " || ".join(parts) if parts else "''"
    return let([p.d if has_date else "NULL::BIGINT", p.t if has_time else "NULL::BIGINT"], body)


# -- durations -------------------------------------------------------------------------------------------------

DURATION_UNITS = {**dict.fromkeys("yYu", "years"), **dict.fromkeys("qQ", "quarters"),
                  **dict.fromkeys("ML", "months"), **dict.fromkeys("wW", "weeks"), **dict.fromkeys("dD", "days"),
                  **dict.fromkeys("hHkK", "hours"), "m": "minutes", "s": "seconds", "A": "milliseconds",
                  "N": "nanoseconds"}
"""The manual's duration characters and the unit each writes (Months, Days and Seconds groups)."""
GROUPS = {"months": ("years", 12, "quarters", 3, "months", 1), "days": ("weeks", 7, "days", 1),
          "seconds": ("hours", 3600 * NANOS, "minutes", 60 * NANOS, "seconds", NANOS, "milliseconds", 1_000_000,
                      "nanoseconds", 1)}
"""Each component group, largest unit first, with its size in the group's base (months, days, nanoseconds)."""


def duration_text(elements: tuple[Element, ...], value: str) -> str:
    """The pattern's text of a duration STRUCT `value` (cheap). Within a group the largest unit the pattern
    names takes all of the group's amount, each smaller one what the larger leave."""
    letters = [e for e in elements if isinstance(e, Letter)]
    for element in elements:
        if isinstance(element, OptionalSection):
            raise UnsupportedFeature("format() of a duration with an optional section [...]")
    for element in letters:
        if element.pad:
            raise UnsupportedFeature("format() of a duration with pattern letter p (pad)")
        if element.letter in "nS":
            raise UnsupportedFeature(f"format() of a duration with pattern letter {element.letter} (a fraction of"
                                     " a second, which the manual does not define for durations)")
    used = {DURATION_UNITS[e.letter] for e in letters if e.letter in DURATION_UNITS}
    if {"milliseconds", "nanoseconds"} <= used:
        raise UnsupportedFeature("format() of a duration with both A (milliseconds) and N (nanoseconds)")
    totals = {"months": rt.field(value, "m"), "days": rt.field(value, "d"),
              "seconds": f"(({rt.field(value, 's')})::HUGEINT * {NANOS} + {rt.field(value, 'n')})"}
    amounts: dict[str, str] = {}
    for group, layout in GROUPS.items():
        rest = totals[group]
        for unit, size in zip(layout[::2], layout[1::2], strict=True):
            if unit in used:
                amounts[unit] = f"(({rest}) // {size})" if size > 1 else f"({rest})"
                rest = f"(({rest}) % {size})" if size > 1 else "0"
    parts = []
    for element in elements:
        if isinstance(element, LiteralText):
            parts.append(sql_string(element.text))
            continue
        assert isinstance(element, Letter)
        unit = DURATION_UNITS.get(element.letter)
        if unit is None:
            parts.append(error_sql("ArgumentError", "InvalidArgumentValue", sql_string(
                f"format(): pattern letter {element.letter} cannot be applied to a DURATION value: Unsupported"
                " field")))
            continue
        negative = error_sql("UnsupportedFeature", "Unsupported", sql_string(
            f"format() of a duration whose {unit} are negative"))
        width = str(element.count)
        parts.append(let([f"({amounts[unit]})::BIGINT"], lambda v, negative=negative, width=width: (
            f"CASE WHEN {v} < 0 THEN {negative} ELSE {padded_number(v, width)} END")))
    return " || ".join(parts) if parts else "''"


# -- the function ------------------------------------------------------------------------------------------------

def _kind_text(elements: tuple[Element, ...] | None, value: str, kind: str) -> str:
    if elements is None:
        return rt.to_text(value, kind)
    if kind == "DURATION":
        return duration_text(elements, value)
    return instant_text(elements, value, kind)


def _elements(argument: b.BoundExpression) -> tuple[Element, ...] | None:
    """The parsed pattern of a literal or parameter argument; None for a null pattern."""
    given: Any = argument.value if isinstance(argument, b.BLiteral | b.BParameter) else UNKNOWN
    if given is UNKNOWN:
        raise UnsupportedFeature("format() with a pattern that is not a literal or a parameter", argument.span)
    if given is None:
        return None
    if not isinstance(given, str):
        raise CypherTypeError(f"format() expects a pattern String, got {given!r}", argument.span,
                              detail="InvalidArgumentType")
    try:
        return parse_pattern(given)
    except PatternError as error:
        raise CypherArgumentError(str(error), argument.span, detail="InvalidArgumentValue") from None


TEMPORAL = (*INSTANTS, Kind.DURATION)


def format_function(c: ExpressionCompiler, f: b.BFunction) -> str:
    """format(value[, pattern]): null for a null value or pattern; a value that is not temporal is a type
    error."""
    value = f.arguments[0]
    elements: tuple[Element, ...] | None = None
    if len(f.arguments) > 1:
        pattern = f.arguments[1]
        if pattern.type.kind is Kind.NULL or (isinstance(pattern, b.BLiteral | b.BParameter)
                                              and pattern.value is None):
            return "NULL::VARCHAR"
        elements = _elements(pattern)
    try:
        return _format_sql(c, value, elements)
    except PatternError as error:
        raise CypherArgumentError(str(error), f.arguments[1].span, detail="InvalidArgumentValue") from None


def _format_sql(c: ExpressionCompiler, value: b.BoundExpression, elements: tuple[Element, ...] | None) -> str:
    kind = value.type.kind
    if kind is Kind.NULL:
        return "NULL::VARCHAR"
    if kind in TEMPORAL:
        return let([compiled(c, value)], lambda x: (
            f"CASE WHEN {x} IS NULL THEN NULL ELSE {_kind_text(elements, x, kind.value)} END"))
    not_temporal = error_sql("TypeError", "InvalidArgumentType", "'format() expects a temporal value, got ' ||"
                             " cy_type_name({v})")
    if not is_variant(value.type):
        raise CypherTypeError(f"format() expects a temporal value, got {value.type}", value.span,
                              detail="InvalidArgumentType")

    def dynamic(v: str) -> str:
        branches = {kind_name: (lambda x, k=kind_name: _kind_text(elements, x, k)) for kind_name in rt.KIND_CODES}
        return (f"CASE WHEN {v} IS NULL THEN NULL ELSE "
                + rt.by_kind(v, branches, not_temporal.replace("{v}", v)) + " END")
    return let([variant_of(c, value)], dynamic)


FUNCTIONS = {"format": format_function}
