"""Temporal values (ADR-0014) beyond what the TCK pins: the Python-side calendar and codecs, temporal
parameters, typed property columns widening, errors instead of wrong values, zones and DST."""

from __future__ import annotations

import random

import pytest

import engine
from engine import Date, DateTime, Duration, LocalDateTime, LocalTime, Time, temporal
from engine.errors import CypherError


@pytest.fixture
def db():
    with engine.connect() as connection:
        yield connection


def one(db, statement: str, **params):
    rows = list(db.execute(statement, params))
    assert len(rows) == 1
    row = rows[0]
    values = list(row.values()) if isinstance(row, dict) else list(row)
    return values[0] if len(values) == 1 else values


def test_calendar_round_trips_over_the_whole_year_range():
    rng = random.Random(7)
    days = [0, -1, 1, -719528, 2932896, -365243219162, 365241780471] + [
        rng.randint(-400_000_000_000, 400_000_000_000) for _ in range(2000)]
    for day in days:
        assert temporal.days_from_civil(*temporal.civil_from_days(day)) == day
    assert temporal.civil_from_days(-719528) == (0, 1, 1)
    assert temporal.days_from_civil(-999_999_999, 1, 1) == -365243219162


@pytest.mark.parametrize("value", [
    Date(1984, 10, 11), Date(-999_999_999, 1, 1), LocalTime(12, 31, 14, 645876123),
    Time(12, 31, 14, 1, -3600), LocalDateTime(1, 1, 1, 1, 1, 1, 1), DateTime(1984, 10, 11, 12, 0, 0, 5, 3600),
    DateTime(2017, 8, 8, 12, 31, 14, 0, 7200, "Europe/Stockholm"), Duration(149, -14, 58390, 2),
])
def test_codec_round_trips(value):
    kind, payload = temporal.encode(value)
    assert temporal.decode(kind, payload) == value


@pytest.mark.parametrize(("value", "text"), [
    (Date(1984, 10, 11), "1984-10-11"), (LocalTime(12, 31, 14, 645876123), "12:31:14.645876123"),
    (Time(12, 31, 14, 1, -3600), "12:31:14.000000001-01:00"),
    (LocalDateTime(1984, 10, 11, 12, 31), "1984-10-11T12:31:00"),  # toString() always writes the seconds
    (DateTime(2017, 8, 8, 12, 31, 14, 0, 7200, "Europe/Stockholm"), "2017-08-08T12:31:14+02:00[Europe/Stockholm]"),
    (Duration(149, -14, 58390, 2), "P12Y5M-14DT16H13M10.000000002S"),
])
def test_parameters_come_back_as_themselves_typed_in_lists_and_in_maps(db, value, text):
    assert one(db, "RETURN $v AS v", v=value) == value
    assert one(db, "RETURN [$v, 1] AS v", v=value) == [value, 1]
    assert one(db, "RETURN $m.v AS v", m={"v": value, "w": "x"}) == value
    assert one(db, "RETURN toString($v) AS v", v=value) == text


def test_components_of_parameters_and_stored_values(db):
    assert one(db, "RETURN $d.year, $d.week, $d.weekDay", d=Date(1984, 1, 1)) == [1984, 52, 7]
    db.execute("CREATE (:T {at: $at})", {"at": DateTime(1984, 11, 11, 12, 31, 14, 645876123, 3600, "Europe/Stockholm")})
    assert one(db, "MATCH (t:T) RETURN t.at.epochMillis, t.at.timezone") == [469020674645, "Europe/Stockholm"]


def test_a_typed_temporal_column_widens_to_variant_keeping_its_values(db):
    db.execute("CREATE (:P {v: date('2015-07-21')})")
    db.execute("CREATE (:P {v: duration('P1D')})")
    db.execute("CREATE (:P {v: 'text'})")
    rows = [row[0] if not isinstance(row, dict) else next(iter(row.values()))
            for row in db.execute("MATCH (p:P) RETURN p.v ORDER BY p.v")]
    assert rows == [Date(2015, 7, 21), Duration(days=1), "text"]


@pytest.mark.parametrize("statement", [
    "RETURN date('2015-02-29')",
    "RETURN date('not a date')",
    "RETURN date({year: 2015, month: 13})",
    "RETURN time('25:00')",
    "RETURN datetime('2015-07-21T21:40:32.142+02:00[Europe/London]')",
    "RETURN localtime('12:00+01:00')",
    "RETURN duration('P1.5Y2M')",
    "RETURN date({year: 2017, week: 53})",
])
def test_invalid_values_raise_rather_than_answer(db, statement):
    with pytest.raises(CypherError):
        list(db.execute(statement))


@pytest.mark.parametrize("statement", [
    "RETURN date({year: null})",
    "RETURN date({year: 2020, month: $none}) IS NULL",
    "RETURN localtime({hour: 1, minute: null})",
    "RETURN time({hour: 1, timezone: null})",
    "RETURN localdatetime({year: 2020, month: 1, day: 1, hour: null})",
    "RETURN datetime({epochSeconds: null})",
    "RETURN duration({days: 1, seconds: $none})",
    "RETURN date.truncate('year', date('2020-05-05'), {day: null})",
])
def test_a_null_component_in_a_map_is_an_error_not_a_broken_value(db, statement):
    with pytest.raises(CypherError, match="A null component cannot build"):
        list(db.execute(statement, {"none": None}))


@pytest.mark.parametrize("value", [
    Date(2020, 1, 2), LocalTime(0, 0), Time(0, 0, 0, 0, 0), LocalDateTime(1970, 1, 1), DateTime(1970, 1, 1),
    Duration(), Duration(days=-3)])
def test_null_tests_of_stored_temporal_values_of_each_type(db, value):
    """A typed temporal column is tested for null by its first payload field (ADR-0047)."""
    db.execute("UNWIND [0, 1] AS i CREATE (:T {i: i, v: CASE i WHEN 0 THEN $v END})", {"v": value})
    rows = db.execute("MATCH (t:T) RETURN t.i, t.v IS NULL, t.v IS NOT NULL ORDER BY t.i").fetchall()
    assert rows == [(0, False, True), (1, True, False)]
    assert one(db, "MATCH (t:T) WHERE t.v IS NULL RETURN t.i") == 1


def test_named_zones_daylight_saving_and_local_mean_time(db):
    spring = "datetime('2017-03-26T01:30[Europe/Stockholm]') + duration('PT1H')"
    assert str(one(db, f"RETURN {spring}")) == "2017-03-26T03:30+02:00[Europe/Stockholm]"
    skipped = "datetime({year: 2017, month: 3, day: 26, hour: 2, minute: 30, timezone: 'Europe/Stockholm'})"
    assert str(one(db, f"RETURN {skipped}")) == "2017-03-26T03:30+02:00[Europe/Stockholm]"
    day_later = "datetime('2017-10-28T12:00[Europe/Stockholm]') + duration('P1D')"
    assert str(one(db, f"RETURN {day_later}")) == "2017-10-29T12:00+01:00[Europe/Stockholm]"
    assert str(one(db, "RETURN datetime('1818-07-21T21:40[Europe/Stockholm]')")) == (
        "1818-07-21T21:40+00:53:28[Europe/Stockholm]")


def test_order_equality_and_grouping_of_mixed_temporal_values(db):
    values = ("[datetime('2015-07-21T21:40+01:00'), datetime('2015-07-21T20:40Z'), date('2015-01-01'),"
              " localtime('10:00'), time('12:00+01:00'), time('11:30Z'), duration('PT25H'), duration('P1D')]")
    ordered = [str(v) for v in one(db, f"UNWIND {values} AS v WITH v ORDER BY v RETURN collect(v)")]
    assert ordered == ["2015-07-21T20:40Z", "2015-07-21T21:40+01:00", "2015-01-01", "12:00+01:00", "11:30Z",
                       "10:00", "P1D", "PT25H"]
    assert one(db, "RETURN datetime('2015-07-21T21:40+01:00') = datetime('2015-07-21T20:40Z')") is False
    assert one(db, "RETURN datetime('2015-07-21T21:40+01:00') < datetime('2015-07-21T20:41Z')") is True
    assert one(db, "RETURN duration('P1D') < duration('PT25H')") is None
    assert one(db, "UNWIND [date('2015-01-01'), date('2015-01-01'), localtime('10:00')] AS v"
                   " RETURN count(DISTINCT v)") == 2


def test_unknown_time_zones_are_argument_errors(db):
    with pytest.raises(CypherError) as raised:
        list(db.execute("RETURN datetime({year: 2015, timezone: 'Mars/Olympus'})"))
    assert raised.value.kind == "ArgumentError" and "Mars/Olympus" in raised.value.message


def test_sum_and_avg_of_durations(db):
    sums = one(db, "UNWIND [duration('P1D'), duration('PT1H'), null] AS d RETURN sum(d), avg(d)")
    assert sums == [Duration(days=1, seconds=3600), Duration(seconds=45000)]
    assert one(db, "UNWIND [] AS d WITH duration(d) AS d RETURN sum(d), avg(d)") == [0, None]
    with pytest.raises(CypherError):
        list(db.execute("RETURN duration('P1D') / 0"))


# -- strings known as the query compiles ------------------------------------------------------------------
# A literal, a parameter or the maps of an UNWIND of one that all take the ISO fast path are parsed by it
# alone (the general parser costs DuckDB 20-30 ms to bind); anything else still meets the general parser.

KNOWN_STRINGS = [
    ("2024-03-01T10:15:30.5+01:00", DateTime(2024, 3, 1, 10, 15, 30, 500000000, 3600)),
    ("2024-02-29T23:59Z", DateTime(2024, 2, 29, 23, 59, 0, 0, 0)),
    ("2024-03-01T10:15[Europe/Stockholm]", DateTime(2024, 3, 1, 10, 15, 0, 0, 3600, "Europe/Stockholm")),
    ("2024W09", DateTime(2024, 2, 26, 0, 0, 0, 0, 0)),
]


@pytest.mark.parametrize(("text", "expected"), KNOWN_STRINGS)
def test_datetime_of_a_parameter_a_literal_and_unwound_rows(db, text, expected):
    assert one(db, "RETURN datetime($t) AS d", t=text) == expected
    assert one(db, f"RETURN datetime('{text}') AS d") == expected
    rows = [{"at": text}, {"at": None}, {"at": "2020-01-01T00:00Z"}]
    got = [row[0] for row in db.execute("UNWIND $rows AS r RETURN datetime(r.at) AS d", {"rows": rows})]
    assert got == [expected, None, DateTime(2020, 1, 1, 0, 0, 0, 0, 0)]


def test_known_strings_that_take_the_fast_path_skip_the_general_parser(db):
    rows = [{"at": "2024-03-01T10:15:30Z"}, {"at": None}]
    for statement, params in [("RETURN datetime($t) AS d, date($day) AS e",
                               {"t": "2024-03-01T10:15Z", "day": "2024-03-01"}),
                              ("UNWIND $rows AS r RETURN datetime(r.at) AS d", {"rows": rows})]:
        _, trace = db.explain(statement, params)
        assert not any("cy_t_parse" in sql for sql, _ in trace), statement
    _, trace = db.explain("RETURN datetime($t) AS d", {"t": "2024-03-01T10:15[Europe/Stockholm]"})
    assert any("cy_t_parse_datetime" in sql for sql, _ in trace)


@pytest.mark.parametrize("statement", ["RETURN datetime('2023-02-29T10:00Z') AS d", "RETURN date('2023-02-29') AS d"])
def test_a_known_string_with_an_impossible_date_is_still_an_error(db, statement):
    with pytest.raises(CypherError, match="29"):
        one(db, statement)


ISO_STRINGS = ["2024-03-01T10:15Z", "2024-03-01T10:15:30Z", "1999-12-31T23:59:59.999999999-05:30",
               "2024-02-29T00:00:00.1+14:00", "0001-01-01T00:00Z", "9999-12-31T23:59:59.5+00:00",
               "1969-07-20T20:17:40.05-00:30"]


def test_a_known_string_is_bound_as_the_value_it_parses_to(db):
    """datetime($t) and date('...') of one known string bind the stored value the compiler computed: the
    SQL has no parse left in it for DuckDB to bind."""
    _, trace = db.explain("RETURN datetime($t) AS d, date('2024-03-01') AS e", {"t": "2024-03-01T10:15:30.5+01:00"})
    (sql, values), = trace
    assert "TRY_CAST" not in sql and "regexp" not in sql
    assert {"e": 1709284530, "n": 500_000_000, "o": 3600, "z": ""} in values and {"d": 19783} in values


@pytest.mark.parametrize("text", ISO_STRINGS)
def test_the_fast_path_agrees_with_the_general_parser(db, text):
    # toString($t) is not known as the query compiles, so it meets the general parser
    fast, general = db.execute("RETURN datetime($t) AS a, datetime(toString($t)) AS b", {"t": text}).fetchall()[0]
    assert fast == general
    day = text[:10]
    fast, general = db.execute("RETURN date($d) AS a, date(toString($d)) AS b", {"d": day}).fetchall()[0]
    assert fast == general


# Maps of components, each valid for every constructor that takes its keys (ADR-0087): built from a stored
# node's properties they must give what the map literal of the same keys gives.
STORED_MAPS = {
    "date": ["{year: 1984, month: 10, day: 11}", "{year: 1984, week: 10, dayOfWeek: 3}",
             "{year: 2015, weekday: 2, week: 53}", "{year: 1984, quarter: 3, dayOfQuarter: 45}",
             "{Year: 1984, ordinalDay: 202}", "{year: 1984}",
             "{date: date('1984-10-11'), day: 28}", "{date: localdatetime('1984-10-11T12:00'), week: 2}"],
    "localtime": ["{hour: 12, minute: 31, second: 14, millisecond: 123, microsecond: 456, nanosecond: 789}",
                  "{hour: 12}", "{time: localtime('12:31:14.5'), minute: 3}"],
    "time": ["{hour: 12, minute: 31, second: 14, nanosecond: 789, timezone: '+01:00'}",
             "{time: time('12:31:14+01:00'), timezone: '+05:00'}", "{time: localtime('12:31:14'), timezone: '+05:00'}"],
    "localdatetime": ["{year: 1984, month: 10, day: 11, hour: 12, minute: 31, second: 14, nanosecond: 645876123}",
                      "{year: 1984, week: 10, dayOfWeek: 3, hour: 1}",
                      "{date: date('1984-10-11'), time: localtime('12:00')}"],
    "datetime": ["{year: 1984, month: 10, day: 11, hour: 12, minute: 31, second: 14, millisecond: 645,"
                 " timezone: '+01:00'}",
                 "{year: 1984, month: 10, day: 11, hour: 12, timezone: 'Europe/Stockholm'}",
                 "{epochMillis: 424797300000, timezone: 'Europe/Stockholm'}", "{epochSeconds: 1000000000, hour: 3}",
                 "{datetime: datetime('1984-10-11T12:31:14+01:00'), timezone: 'Asia/Tokyo'}",
                 "{date: date('1984-10-11'), time: time('12:31:14+01:00'), timezone: '+05:00'}"],
    "duration": ["{years: 1, months: 2, days: 3.5, hours: 4, minutes: 5, seconds: 6.25, milliseconds: 7,"
                 " microseconds: 8, nanoseconds: 9}", "{weeks: 2, days: -1}"],
}


@pytest.mark.parametrize("function", sorted(STORED_MAPS))
def test_values_from_stored_maps_are_those_of_the_literal_maps(db, function):
    maps = STORED_MAPS[function]
    db.execute("UNWIND range(0, $n - 1) AS i CREATE (:M {i: i})", {"n": len(maps)})
    for i, literal in enumerate(maps):
        db.execute(f"MATCH (n:M {{i: {i}}}) SET n += {literal}")
    stored = [row[0] for row in db.execute(
        f"MATCH (n:M) RETURN {function}(apoc.map.removeKey(properties(n), 'i')) AS v ORDER BY n.i")]
    literals = one(db, "RETURN [" + ", ".join(f"{function}({literal})" for literal in maps) + "] AS v")
    assert stored == literals


@pytest.mark.parametrize(("literal", "message"), [
    ("{year: 1984, day: 3}", "day cannot be specified without month"),
    ("{year: 1984, month: 13}", "Invalid value for MonthOfYear: 13"),
    ("{month: 2}", "year must be specified"),
    ("{year: 1984, hour: 3}", "date() has no field `hour`"),
])
def test_a_stored_map_that_builds_nothing_is_the_error_of_its_literal(db, literal, message):
    db.execute(f"CREATE (:M {literal})")
    with pytest.raises(CypherError, match=message.replace("(", r"\(").replace(")", r"\)")):
        list(db.execute("MATCH (n:M) RETURN date(properties(n)) AS v"))
