"""Floats as text: toString(), toStringOrNull() and string concatenation write a float as Neo4j does, with
Java's Double.toString (JDK 19+): the shortest digits that read back as the double, plain notation with at
least one digit after the point when 1e-3 <= |x| < 1e7, else `d.dddE<exp>`. The SQL runtime computes the
text set-based; `engine.java_double_text` is the same rule in Python (the runner's renderer uses it), and
the two are held together over doubles of every magnitude."""

from __future__ import annotations

import math
import random
import struct

import pytest

import engine
from engine import java_double_text

JAVA_TEXTS = [
    (1e20, "1.0E20"), (1e-5, "1.0E-5"), (123456789.0, "1.23456789E8"), (1e7, "1.0E7"), (0.001, "0.001"),
    (1234567.0, "1234567.0"), (-0.0, "-0.0"), (0.0, "0.0"), (1.0, "1.0"), (-2.5, "-2.5"), (100.0, "100.0"),
    (0.1 + 0.2, "0.30000000000000004"), (1e16, "1.0E16"), (1.5e300, "1.5E300"), (-1.0e-9, "-1.0E-9"),
    (0.00012, "1.2E-4"), (12345678.9, "1.23456789E7"), (9999999.999999998, "9999999.999999998"),
    (math.nextafter(0.001, 0), "9.999999999999998E-4"), (2e23, "2.0E23"),
    (1.7976931348623157e308, "1.7976931348623157E308"), (2.2250738585072014e-308, "2.2250738585072014E-308"),
    # Below 1e-321 a one-digit shortest form gives way to a nearer two-digit decimal (Double.MIN_VALUE).
    (5e-324, "4.9E-324"), (1e-323, "9.9E-324"), (-1e-322, "-9.9E-323"), (1.5e-323, "1.5E-323"),
    (math.nan, "NaN"), (math.inf, "Infinity"), (-math.inf, "-Infinity"),
]


def _rows(query: str, parameters: dict | None = None) -> list[tuple]:
    with engine.connect(":memory:") as db:
        return db.execute(query, parameters or {}).fetchall()


@pytest.mark.parametrize(("number", "text"), JAVA_TEXTS)
def test_java_double_text(number: float, text: str) -> None:
    assert java_double_text(number) == text


@pytest.mark.parametrize(("query", "text"), [
    ("RETURN toString(1e20)", "1.0E20"),
    ("RETURN toString(1e-5)", "1.0E-5"),
    ("RETURN toString(123456789.0)", "1.23456789E8"),
    ("RETURN toString(0.001)", "0.001"),
    ("RETURN toString(1234567.0)", "1234567.0"),
    ("RETURN toString(1.0E7)", "1.0E7"),
    ("RETURN toString(-0.0)", "-0.0"),
    ("RETURN toStringOrNull(1e7)", "1.0E7"),
    ("RETURN 'x' + 1e7", "x1.0E7"),
    ("RETURN 1e7 + 'x'", "1.0E7x"),
    ("RETURN toString(1e-4) || 'x'", "1.0E-4x"),
    ("WITH [1e20, 'a'] AS mixed RETURN toString(mixed[0])", "1.0E20"),
    ("WITH [1e20, 'a'] AS mixed RETURN mixed[1] + mixed[0]", "a1.0E20"),
    ("WITH [1e20, 'a'] AS mixed RETURN mixed[0] + mixed[1]", "1.0E20a"),
    ("WITH [1e20, 'a'] AS mixed RETURN toStringOrNull(mixed[0])", "1.0E20"),
    ("CREATE (n {f: 1e10}) RETURN 'f=' + n.f", "f=1.0E10"),
    ("RETURN toString(0.0 / 0.0) + toString(1.0 / 0.0)", "NaNInfinity"),
])
def test_floats_become_java_text(query: str, text: str) -> None:
    assert _rows(query) == [(text,)]


def test_a_null_float_stays_null() -> None:
    assert _rows("UNWIND [1e7, null] AS f RETURN toString(f), 'a' + f, toStringOrNull(f)") == [
        ("1.0E7", "a1.0E7", "1.0E7"), (None, None, None)]


def test_to_string_of_a_list_is_refused() -> None:
    with pytest.raises(engine.CypherError):
        _rows("WITH [[1e20], 'a'] AS mixed RETURN toString(mixed[0])")
    assert _rows("WITH [[1e20], 'a'] AS mixed RETURN toStringOrNull(mixed[0])") == [(None,)]


def _doubles() -> list[float]:
    """Doubles of every magnitude: random bit patterns and random values per decade, the powers of ten and
    their neighbours, the plain-notation boundaries 1e-3 and 1e7, integral values, subnormals, the extremes.
    Finite only: a list parameter cannot hold NaN or infinities (they are tested one by one above)."""
    rng = random.Random(20240601)
    numbers = [struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0] for _ in range(4000)]
    numbers += [rng.random() * 10.0 ** rng.randint(-330, 307) for _ in range(4000)]
    numbers += [float(rng.randint(-10 ** rng.randint(1, 18), 10 ** 18)) for _ in range(1000)]
    for exponent in range(-324, 309):
        power = float(f"1e{exponent}")
        numbers += [power, math.nextafter(power, 0.0), math.nextafter(power, math.inf)]
    for boundary in (1e-3, 1e7, 1e-4, 1e16):
        below = above = boundary
        for _ in range(5):
            below, above = math.nextafter(below, 0.0), math.nextafter(above, math.inf)
            numbers += [below, above]
    smallest = math.ulp(0.0)
    numbers += [n * smallest for n in range(1, 2100)]
    numbers += [2.2250738585072014e-308, math.nextafter(2.2250738585072014e-308, 0.0), 1.7976931348623157e308]
    numbers += [0.0, -0.0]
    return [number for number in numbers + [-number for number in numbers] if math.isfinite(number)]


def _bits(number: float) -> bytes:
    return struct.pack("<d", number)


def test_sql_and_python_write_every_double_alike() -> None:
    numbers = _doubles()
    rows = _rows("UNWIND $numbers AS x RETURN x, toString(x)", {"numbers": numbers})
    assert [_bits(x) for x, _ in rows] == [_bits(number) for number in numbers]
    wrong = [(x, text, java_double_text(x)) for x, text in rows if text != java_double_text(x)]
    assert wrong == []


def test_concatenation_of_values_of_unknown_type_writes_doubles_alike() -> None:
    numbers = _doubles()[::7]
    rows = _rows("UNWIND $values AS x RETURN x, '' + x, x + ''", {"values": ["s", *numbers]})
    wrong = [(x, before, after) for x, before, after in rows[1:]
             if not before == after == java_double_text(x)]
    assert (len(rows), wrong) == (len(numbers) + 1, [])
