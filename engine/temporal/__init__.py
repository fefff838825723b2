"""Temporal values on the Python side: the calendar, and payloads <-> `engine.values` (ADR-0014).

SQL carries each temporal type as a STRUCT of integers (`PAYLOAD_FIELDS`); results are decoded here and
parameters encoded here, with the same proleptic Gregorian calendar the generated SQL uses, so years far
outside Python's `datetime` range round-trip.
"""

from __future__ import annotations

from typing import Any

from engine import values

NANOS = 1_000_000_000
DAY_SECONDS = 86_400

# Kind names (as `Kind.value` spells them) -> payload fields, in STRUCT order: most significant first, and
# named in alphabetical order too, because a VARIANT object compares its fields by name (ADR-0014).
PAYLOAD_FIELDS: dict[str, tuple[str, ...]] = {
    "DATE": ("d",),                       # days since 1970-01-01
    "LOCAL TIME": ("n",),                 # nanosecond of the day
    "ZONED TIME": ("n", "o"),             # nanosecond of the day in UTC (local minus offset), offset seconds
    "LOCAL DATETIME": ("e", "n"),         # local epoch seconds, nanoseconds
    "ZONED DATETIME": ("e", "n", "o", "z"),  # UTC epoch seconds, nanoseconds, offset, zone name ('' for none)
    "DURATION": ("m", "d", "s", "n"),     # months, days, seconds, nanoseconds (0..999,999,999)
}

VALUE_KINDS: dict[type, str] = {
    values.Date: "DATE", values.LocalTime: "LOCAL TIME", values.Time: "ZONED TIME",
    values.LocalDateTime: "LOCAL DATETIME", values.DateTime: "ZONED DATETIME", values.Duration: "DURATION",
}


def payload_sql_type(kind: str) -> str:
    fields = ", ".join(f"{name} {'VARCHAR' if name == 'z' else 'BIGINT'}" for name in PAYLOAD_FIELDS[kind])
    return f"STRUCT({fields})"


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (any year)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * ((month + 9) % 12) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def civil_from_days(days: int) -> tuple[int, int, int]:
    """(year, month, day) of a day number since 1970-01-01."""
    days += 719468
    era = days // 146097
    day_of_era = days - era * 146097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    shifted_month = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * shifted_month + 2) // 5 + 1
    month = shifted_month + 3 if shifted_month < 10 else shifted_month - 9
    return year_of_era + era * 400 + (month <= 2), month, day


def _clock(nanos_of_day: int) -> tuple[int, int, int, int]:
    seconds, nanos = divmod(nanos_of_day, NANOS)
    return seconds // 3600, seconds // 60 % 60, seconds % 60, nanos


def decode(kind: str, payload: dict[str, Any]) -> Any:
    """The `engine.values` object for a payload of `kind` (as fetched from DuckDB)."""
    get = {name: payload.get(name) for name in PAYLOAD_FIELDS[kind]}
    if kind == "DATE":
        return values.Date(*civil_from_days(int(get["d"])))
    if kind == "LOCAL TIME":
        return values.LocalTime(*_clock(int(get["n"])))
    if kind == "ZONED TIME":
        offset = int(get["o"])
        return values.Time(*_clock(int(get["n"]) + offset * NANOS), offset)
    if kind == "LOCAL DATETIME":
        days, second = divmod(int(get["e"]), DAY_SECONDS)
        hour, minute, second, _ = _clock(second * NANOS)
        return values.LocalDateTime(*civil_from_days(days), hour, minute, second, int(get["n"]))
    if kind == "ZONED DATETIME":
        offset = int(get["o"])
        days, second = divmod(int(get["e"]) + offset, DAY_SECONDS)
        hour, minute, second, _ = _clock(second * NANOS)
        return values.DateTime(*civil_from_days(days), hour, minute, second, int(get["n"]), offset,
                               get["z"] or None)
    if kind == "DURATION":
        return values.Duration(int(get["m"]), int(get["d"]), int(get["s"]), int(get["n"]))
    raise ValueError(f"not a temporal kind: {kind}")


def encode(value: Any) -> tuple[str, dict[str, Any]]:
    """(kind, payload) of an `engine.values` temporal object."""
    kind = VALUE_KINDS[type(value)]
    if kind == "DATE":
        return kind, {"d": days_from_civil(value.year, value.month, value.day)}
    if kind == "DURATION":
        seconds, nanos = divmod(value.seconds * NANOS + value.nanoseconds, NANOS)
        return kind, {"m": value.months, "d": value.days, "s": seconds, "n": nanos}
    clock = (value.hour * 3600 + value.minute * 60 + value.second) * NANOS + value.nanosecond
    if kind == "LOCAL TIME":
        return kind, {"n": clock}
    if kind == "ZONED TIME":
        return kind, {"n": clock - value.offset_seconds * NANOS, "o": value.offset_seconds}
    local = days_from_civil(value.year, value.month, value.day) * DAY_SECONDS + clock // NANOS
    if kind == "LOCAL DATETIME":
        return kind, {"e": local, "n": value.nanosecond}
    return kind, {"e": local - value.offset_seconds, "n": value.nanosecond, "o": value.offset_seconds,
                  "z": value.zone or ""}


_DATE_FIELDS = ("year", "quarter", "month", "week", "weekyear", "day", "ordinalday", "weekday", "dayofweek",
                "dayofquarter", "quarterday")
_TIME_FIELDS = ("hour", "minute", "second", "millisecond", "microsecond", "nanosecond")
_ZONE_FIELDS = ("timezone", "offset", "offsetminutes", "offsetseconds")
_DURATION_FIELDS = ("years", "quarters", "months", "weeks", "days", "hours", "minutes", "seconds",
                    "milliseconds", "microseconds", "nanoseconds", "quartersofyear", "monthsofquarter",
                    "monthsofyear", "daysofweek", "minutesofhour", "secondsofminute", "millisecondsofsecond",
                    "microsecondsofsecond", "nanosecondsofsecond")

COMPONENTS: dict[str, tuple[str, ...]] = {
    "DATE": _DATE_FIELDS,
    "LOCAL TIME": _TIME_FIELDS,
    "ZONED TIME": _TIME_FIELDS + _ZONE_FIELDS,
    "LOCAL DATETIME": _DATE_FIELDS + _TIME_FIELDS,
    "ZONED DATETIME": _DATE_FIELDS + _TIME_FIELDS + _ZONE_FIELDS + ("epochseconds", "epochmillis"),
    "DURATION": _DURATION_FIELDS,
}
"""Component names each kind answers to (`d.year`), lower-cased: Cypher matches them ignoring case."""

STRING_COMPONENTS = frozenset({"timezone", "offset"})


def component_kind(kind: str, key: str) -> str | None:
    """'INTEGER' or 'STRING' for a component of `kind`, None when `kind` has no such component."""
    name = key.lower()
    if name not in COMPONENTS.get(kind, ()):
        return None
    return "STRING" if name in STRING_COMPONENTS else "INTEGER"
