"""The Python values a query returns: graph elements, paths and temporal values.

Scalars come back as plain Python values (None, bool, int, float, str, list, dict). Graph elements and
temporal values get small frozen classes of their own so callers can tell them apart from maps and strings.
`java_double_text` writes a float as Cypher's toString() does, for whoever shows values as text.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any


@dataclass(frozen=True, eq=False)
class Node:
    """A node: its internal id, labels in the order they were added, and its properties."""

    id: int
    labels: tuple[str, ...] = ()
    properties: dict[str, Any] = field(default_factory=dict)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and (self.id, self.labels, self.properties) == (
            other.id, other.labels, other.properties)

    def __hash__(self) -> int:
        return hash(("node", self.id))


@dataclass(frozen=True, eq=False)
class Relationship:
    """A relationship: id, type, the ids of its start and end nodes, and its properties."""

    id: int
    type: str
    start: int
    end: int
    properties: dict[str, Any] = field(default_factory=dict)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Relationship) and (
            self.id, self.type, self.start, self.end, self.properties) == (
            other.id, other.type, other.start, other.end, other.properties)

    def __hash__(self) -> int:
        return hash(("relationship", self.id))


@dataclass(frozen=True)
class Path:
    """A path: n nodes and n-1 relationships, in walking order (a relationship may point either way)."""

    nodes: tuple[Node, ...]
    relationships: tuple[Relationship, ...] = ()

    def __post_init__(self) -> None:
        if len(self.nodes) != len(self.relationships) + 1:
            raise ValueError("a path has one node more than it has relationships")


def _fraction(nanosecond: int) -> str:
    """`.123` / `.123456789`: nanoseconds without trailing zeros, or nothing."""
    if not nanosecond:
        return ""
    return "." + f"{nanosecond:09d}".rstrip("0")


def _offset_text(seconds: int) -> str:
    if seconds == 0:
        return "Z"
    sign = "+" if seconds > 0 else "-"
    seconds = abs(seconds)
    text = f"{sign}{seconds // 3600:02d}:{seconds // 60 % 60:02d}"
    return text + (f":{seconds % 60:02d}" if seconds % 60 else "")


def _year_text(year: int) -> str:
    """ISO-8601 as Java prints it: four digits, a sign before longer years, `-0044` for 45 BC."""
    if 0 <= year <= 9999:
        return f"{year:04d}"
    return f"{'+' if year > 0 else '-'}{abs(year)}" if abs(year) > 9999 else f"-{abs(year):04d}"


@dataclass(frozen=True, order=True)
class Date:
    year: int
    month: int
    day: int

    def __str__(self) -> str:
        return f"{_year_text(self.year)}-{self.month:02d}-{self.day:02d}"


@dataclass(frozen=True, order=True)
class LocalTime:
    hour: int
    minute: int
    second: int = 0
    nanosecond: int = 0

    def __str__(self) -> str:
        text = f"{self.hour:02d}:{self.minute:02d}"
        if self.second or self.nanosecond:
            text += f":{self.second:02d}{_fraction(self.nanosecond)}"
        return text


@dataclass(frozen=True)
class Time:
    """A time of day with a UTC offset."""

    hour: int
    minute: int
    second: int = 0
    nanosecond: int = 0
    offset_seconds: int = 0

    def __str__(self) -> str:
        return str(LocalTime(self.hour, self.minute, self.second, self.nanosecond)) + _offset_text(
            self.offset_seconds)


@dataclass(frozen=True, order=True)
class LocalDateTime:
    year: int
    month: int
    day: int
    hour: int = 0
    minute: int = 0
    second: int = 0
    nanosecond: int = 0

    def __str__(self) -> str:
        time = LocalTime(self.hour, self.minute, self.second, self.nanosecond)
        return f"{Date(self.year, self.month, self.day)}T{time}"


@dataclass(frozen=True)
class DateTime:
    """An instant with the offset (and, when given, the named zone) it was written in."""

    year: int
    month: int
    day: int
    hour: int = 0
    minute: int = 0
    second: int = 0
    nanosecond: int = 0
    offset_seconds: int = 0
    zone: str | None = None

    def local(self) -> LocalDateTime:
        return LocalDateTime(self.year, self.month, self.day, self.hour, self.minute, self.second,
                             self.nanosecond)

    def __str__(self) -> str:
        text = str(self.local()) + _offset_text(self.offset_seconds)
        return text + (f"[{self.zone}]" if self.zone else "")


@dataclass(frozen=True)
class Duration:
    """Months, days, seconds and nanoseconds, kept apart as Cypher keeps them."""

    months: int = 0
    days: int = 0
    seconds: int = 0
    nanoseconds: int = 0

    def __str__(self) -> str:
        years, months = divmod(self.months, 12) if self.months >= 0 else (
            -(-self.months // 12), -(-self.months % 12))
        text = "P"
        if years:
            text += f"{years}Y"
        if months:
            text += f"{months}M"
        if self.days:
            text += f"{self.days}D"
        total_nanos = self.seconds * 1_000_000_000 + self.nanoseconds
        if total_nanos:
            text += "T"
            sign = "-" if total_nanos < 0 else ""
            total_nanos = abs(total_nanos)
            hours, rest = divmod(total_nanos, 3_600_000_000_000)
            minutes, rest = divmod(rest, 60_000_000_000)
            seconds, nanos = divmod(rest, 1_000_000_000)
            if hours:
                text += f"{sign}{hours}H"
            if minutes:
                text += f"{sign}{minutes}M"
            if seconds or nanos:
                text += f"{sign}{seconds}{_fraction(nanos)}S"
        return text if text != "P" else "PT0S"


TEMPORAL_TYPES = (Date, LocalTime, Time, LocalDateTime, DateTime, Duration)


VECTOR_COORDINATE_TYPES = ("INTEGER8", "INTEGER16", "INTEGER32", "INTEGER", "FLOAT32", "FLOAT")
"""The coordinate types of a VECTOR by their default names (Cypher manual, Values and types, Vectors), in the
order of their ranges: the integer types of 8 to 64 bits, then the float types of 32 and 64 bits."""

INTEGER_COORDINATE_BITS = {"INTEGER8": 8, "INTEGER16": 16, "INTEGER32": 32, "INTEGER": 64}
MAX_VECTOR_DIMENSION = 4096


@dataclass(frozen=True)
class Vector:
    """A Cypher 25 VECTOR: its coordinate type (a default name of `VECTOR_COORDINATE_TYPES`) and its
    coordinates, ints for the integer types and floats for the float types (a FLOAT32 coordinate is the
    float the 32-bit one widens to). Its dimension is the number of coordinates."""

    coordinate_type: str
    coordinates: tuple[int | float, ...]

    def __post_init__(self) -> None:
        if self.coordinate_type not in VECTOR_COORDINATE_TYPES:
            raise ValueError(f"not a vector coordinate type: {self.coordinate_type!r}")
        bits = INTEGER_COORDINATE_BITS.get(self.coordinate_type)
        if bits is not None:
            coordinates: tuple[int | float, ...] = tuple(int(c) for c in self.coordinates)
            if any(not -(2 ** (bits - 1)) <= c < 2 ** (bits - 1) for c in coordinates):
                raise ValueError(f"a coordinate does not fit {self.coordinate_type}")
        else:
            rounded = float32 if self.coordinate_type == "FLOAT32" else float
            coordinates = tuple(rounded(float(c)) for c in self.coordinates)
            if not all(map(math.isfinite, coordinates)):
                raise ValueError(f"a coordinate is not a finite {self.coordinate_type}")
        if not 1 <= len(coordinates) <= MAX_VECTOR_DIMENSION:
            raise ValueError(f"a vector has 1 to {MAX_VECTOR_DIMENSION} coordinates, not {len(coordinates)}")
        object.__setattr__(self, "coordinates", coordinates)

    @property
    def dimension(self) -> int:
        return len(self.coordinates)

    def __str__(self) -> str:
        """The form of Neo4j's result tables: `vector([1, 2, 3], 3, INTEGER NOT NULL)`."""
        if self.coordinate_type in INTEGER_COORDINATE_BITS:
            texts = [str(c) for c in self.coordinates]
        elif self.coordinate_type == "FLOAT32":
            texts = [java_float_text(float(c)) for c in self.coordinates]
        else:
            texts = [java_double_text(float(c)) for c in self.coordinates]
        return f"vector([{', '.join(texts)}], {self.dimension}, {self.coordinate_type} NOT NULL)"


PLAIN_EXPONENTS = range(-3, 7)
"""Decimal exponents Java writes in plain notation: 1e-3 <= |x| < 1e7 (`0.001`, `1234567.0`); others get `1.0E7`."""

TWO_DIGIT_LIMIT = 1e-321
"""Below this the decimals that round to one double (an interval 2^-1074 wide) can hold two decimals of at most
two digits, and when the shortest has one digit Java takes the nearest of at most two: Double.MIN_VALUE is
`4.9E-324` where the shortest is 5e-324. Above it, Java's digits are the shortest round-trip ones (Python's repr,
DuckDB's cast)."""


def java_double_text(x: float) -> str:
    """`x` as Java's Double.toString (JDK 19+) writes it, which is what Neo4j's toString() and string concatenation
    give: `1.0E20`, `1.0E-5`, `1.23456789E8`, `0.001`, `1234567.0`, `-0.0`, `NaN`, `Infinity`. The SQL runtime
    (`cy_float_to_string`) computes the same text; a test holds the two together."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    sign = "-" if math.copysign(1.0, x) < 0 else ""
    if x == 0:
        return sign + "0.0"
    return sign + _java_notation(*_java_digits(abs(x)))


def _java_notation(digits: str, exponent: int) -> str:
    """Significant `digits` times 10^`exponent` (`'15', 20` is 1.5e20) in Java's notation, at least one digit after
    the point."""
    if exponent not in PLAIN_EXPONENTS:
        return f"{digits[0]}.{digits[1:] or '0'}E{exponent}"
    if exponent < 0:
        return "0." + "0" * (-exponent - 1) + digits
    return f"{digits[:exponent + 1].ljust(exponent + 1, '0')}.{digits[exponent + 1:] or '0'}"


def _shortest_digits(x: float) -> tuple[str, int]:
    """The shortest decimal that reads back as `x` > 0, nearest to it among those (repr's), as digits and exponent."""
    _, digits, exponent = Decimal(repr(x)).normalize().as_tuple()
    text = "".join(map(str, digits))
    return text, int(exponent) + len(text) - 1


def _java_digits(x: float) -> tuple[str, int]:
    """Java's digits for `x` > 0: the shortest, but of one digit only when no two-digit decimal is nearer `x`
    (`TWO_DIGIT_LIMIT`); that nearer one is then `x` rounded to two digits, exactly."""
    digits, exponent = _shortest_digits(x)
    if len(digits) > 1 or x >= TWO_DIGIT_LIMIT:
        return digits, exponent
    exact = Fraction(x)
    decade = exponent if exact >= Fraction(10) ** exponent else exponent - 1
    nearest = str(round(exact / Fraction(10) ** (decade - 1)))
    return nearest.rstrip("0"), decade + len(nearest) - 2


def java_subnormal_texts() -> dict[float, str]:
    """The positive doubles whose Java digits are not their shortest ones, with their text: eight subnormals
    below `TWO_DIGIT_LIMIT`, 4.9E-324 first. The SQL runtime looks these up rather than compute them."""
    smallest = math.ulp(0.0)
    doubles = (n * smallest for n in range(1, math.ceil(TWO_DIGIT_LIMIT / smallest)))
    return {x: java_double_text(x) for x in doubles if _java_digits(x) != _shortest_digits(x)}


def float32(x: float) -> float:
    """The double a 32-bit float nearest `x` widens to (infinite beyond the 32-bit range)."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def java_float_text(x: float) -> str:
    """A 32-bit float (given as the double it widens to) as Java's Float.toString writes it: the shortest
    digits that read back as the same 32-bit float, in the notation of `java_double_text` (`1.05`, not the
    widened double's `1.0499999523162842`)."""
    if math.isnan(x) or math.isinf(x) or x == 0:
        return java_double_text(x)
    sign = "-" if x < 0 else ""
    magnitude = abs(x)
    for precision in range(1, 10):
        digits = f"{magnitude:.{precision - 1}e}"
        if float32(float(digits)) == magnitude:
            if precision == 1:  # Java takes the nearest of the two-digit ones then (`1.4E-45`, not `1.0E-45`)
                nearest = f"{magnitude:.1e}"
                digits = nearest if float32(float(nearest)) == magnitude else digits
            mantissa, exponent = digits.split("e")
            return sign + _java_notation(mantissa.replace(".", "").rstrip("0") or "0", int(exponent))
    return java_double_text(x)
POINT_CRS: dict[int, tuple[str, int, bool]] = {
    7203: ("cartesian", 2, False), 9157: ("cartesian-3d", 3, False),
    4326: ("wgs-84", 2, True), 4979: ("wgs-84-3d", 3, True),
}
"""The four coordinate reference systems of Cypher's POINT type, by SRID: name, dimensions, geographic."""

POINT_COMPONENTS: dict[str, str] = {
    "x": "FLOAT", "y": "FLOAT", "z": "FLOAT", "longitude": "FLOAT", "latitude": "FLOAT", "height": "FLOAT",
    "crs": "STRING", "srid": "INTEGER",
}
"""A point's components (`p.x`, `p.crs`, ...), lower-cased as Cypher matches them, and their types."""


@dataclass(frozen=True)
class Point:
    """A spatial point (ADR-0065): the SRID of its coordinate reference system and its 2 or 3 coordinates (`z`
    is None for a 2D point). For a geographic point `x` is the longitude, `y` the latitude, `z` the height."""

    srid: int
    x: float
    y: float
    z: float | None = None

    def __post_init__(self) -> None:
        if not all(math.isfinite(value) for value in (self.x, self.y, self.z or 0.0)):
            raise ValueError("a point's coordinates are finite")
        if self.srid not in POINT_CRS:
            raise ValueError(f"unknown coordinate reference system: code={self.srid}")
        if (self.z is not None) != (POINT_CRS[self.srid][1] == 3):
            raise ValueError(f"a {self.crs} point has {POINT_CRS[self.srid][1]} coordinates")

    @property
    def crs(self) -> str:
        return POINT_CRS[self.srid][0]

    def __str__(self) -> str:
        """Cypher's toString(): `point({x: 1.0, y: 2.0, crs: 'cartesian'})`."""
        coordinates = [self.x, self.y] if self.z is None else [self.x, self.y, self.z]
        parts = ", ".join(f"{name}: {java_double_text(float(value))}"
                          for name, value in zip("xyz", coordinates, strict=False))
        return f"point({{{parts}, crs: '{self.crs}'}})"
