"""Cypher 25's VECTOR functions: `vector()`, `vector_dimension_count()`, `vector_distance()`, `vector_norm()`,
and the list conversions of a vector (ADR-0066).

A VECTOR travels as a tagged VARIANT (`cy_vector_*` macros of `engine.sqlgen.runtime`). `vector()` checks and
coerces its coordinates in one expression per row: the dimension (1 to 4096, and the value's length), no null,
NaN or Infinity, and each coordinate made of the coordinate type, an integer truncated from a float and out of
range an ArithmeticError, a FLOAT32 rounded to 32 bits (Cypher manual, Values and types, Vectors, Type
coercion). The distances are the manual's formulas in 32-bit floats, summed coordinate by coordinate as Java's
scalar loop does ("Floating point operations are performed with float32 arithmetic"); `HAMMING` counts the
coordinates that differ.

The coordinate type and the metric are keywords (`KEYWORDS`): the binder takes them as the string of their
default name, so the SQL of a call is fixed when the statement compiles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine import types as t
from engine.errors import CypherArgumentError, CypherSyntaxError
from engine.semantic import bound as b
from engine.semantic.functions import KeywordArgument
from engine.semantic.type_predicates import COORDINATE_TYPES, MAX_VECTOR_DIMENSION
from engine.sqlgen.expressions import ExpressionCompiler
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.sql import let, macro
from engine.types import CypherType, Kind
from engine.values import INTEGER_COORDINATE_BITS

METRICS = ("EUCLIDEAN", "EUCLIDEAN_SQUARED", "MANHATTAN", "COSINE", "DOT", "HAMMING")
NORM_METRICS = ("EUCLIDEAN", "MANHATTAN")



DISTANCES: dict[str, Callable[[str, str], str]] = {
    "EUCLIDEAN": lambda a, b: f"sqrt(cy_vec_sum(cy_vec_squares(cy_vec_differences({a}, {b})))::DOUBLE)::FLOAT",
    "EUCLIDEAN_SQUARED": lambda a, b: f"cy_vec_sum(cy_vec_squares(cy_vec_differences({a}, {b})))",
    "MANHATTAN": lambda a, b: f"cy_vec_sum(list_transform(cy_vec_differences({a}, {b}), lambda x: abs(x)))",
    "COSINE": lambda a, b: f"(1::FLOAT - cy_vec_cosine({a}, {b}))::FLOAT",
    "DOT": lambda a, b: f"(-cy_vec_sum(cy_vec_products({a}, {b})))::FLOAT",
}
"""`vector_distance()`'s metrics other than HAMMING, of two FLOAT[] (Vector functions, Supported
vectorDistanceMetric algorithms)."""

NORMS: dict[str, Callable[[str], str]] = {
    "EUCLIDEAN": lambda a: f"sqrt(cy_vec_sum(cy_vec_squares({a}))::DOUBLE)::FLOAT",
    "MANHATTAN": lambda a: f"cy_vec_sum(list_transform({a}, lambda x: abs(x)))",
}


def vector_sql(c: ExpressionCompiler, expression: b.BoundExpression) -> str:
    """SQL of a VECTOR argument: as it is when its type is VECTOR, checked at run time when only then known
    (a value of another type is refused as the query compiles: `accepts` of the signature)."""
    kind = expression.type.kind
    if kind is Kind.VECTOR:
        return c.compile(expression)
    if kind is Kind.NULL:
        return "NULL::VARIANT"
    return macro("cy_vector", c.variant(expression))


def _keyword(f: b.BFunction, index: int) -> str:
    argument = f.arguments[index]
    assert isinstance(argument, b.BLiteral) and isinstance(argument.value, str)  # the binder made it so
    return argument.value


def _vector(c: ExpressionCompiler, f: b.BFunction) -> str:
    value, dimension = f.arguments[0], f.arguments[1]
    coordinate = _keyword(f, 2)
    element = value.type.element if value.type.kind is Kind.LIST else None
    if element is not None and element.kind not in (Kind.INTEGER, Kind.FLOAT, Kind.ANY, Kind.NULL):
        raise CypherSyntaxError(f"type mismatch: vector() expects a LIST<INTEGER | FLOAT>, got {value.type!r}",
                                value.span, detail="InvalidArgumentType")
    if isinstance(dimension, b.BLiteral) and isinstance(dimension.value, int) and \
            not 1 <= dimension.value <= MAX_VECTOR_DIMENSION:
        raise CypherArgumentError(f"a vector's dimension is from 1 to {MAX_VECTOR_DIMENSION}, not {dimension.value}",
                                  dimension.span, detail="NumberOutOfRange")
    name = c.context.parameters.text(coordinate)

    def build(v: str, d: str) -> str:
        out_of_range = error_sql("ArgumentError", "NumberOutOfRange",
                                 f"'a vector''s dimension is from 1 to {MAX_VECTOR_DIMENSION}, not ' || {d}")
        items = f"cy_vec_check(cy_vec_items({v}), {d})"
        bits = INTEGER_COORDINATE_BITS.get(coordinate)
        if bits is not None:
            low, high = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
            coordinates = let([items], lambda i: (
                f"cy_vec_fitted({i}, cy_vec_integers({i}, {low}, {high}), {name})"))
        elif coordinate == "FLOAT32":
            coordinates = let([items], lambda i: f"cy_vec_float32_fitted({i}, cy_vec_float32({i}))")
        else:
            coordinates = f"cy_vec_float64({items})"
        return (f"CASE WHEN {v} IS NULL OR cy_kind({v}) = 0 OR {d} IS NULL THEN NULL::VARIANT"
                f" WHEN {d} < 1 OR {d} > {MAX_VECTOR_DIMENSION} THEN {out_of_range}"
                f" ELSE cy_vector_of({name}, {coordinates}) END")
    return let([c.variant(value), c.integer(dimension)], build)


def _dimension_count(c: ExpressionCompiler, f: b.BFunction) -> str:
    return macro("cy_vector_dimension", vector_sql(c, f.arguments[0]))


def _distance(c: ExpressionCompiler, f: b.BFunction) -> str:
    metric = _keyword(f, 2)

    def build(pair: str) -> str:
        if metric == "HAMMING":
            distance = f"len(list_filter(list_zip({pair}.x, {pair}.y), lambda p: p[1] <> p[2]))"
        else:
            distance = DISTANCES[metric](f"{pair}.x::FLOAT[]", f"{pair}.y::FLOAT[]")
        return f"CASE WHEN {pair} IS NULL THEN NULL::DOUBLE ELSE ({distance})::DOUBLE END"
    pair = macro("cy_vec_pair", vector_sql(c, f.arguments[0]), vector_sql(c, f.arguments[1]))
    return let([pair], build)


def _norm(c: ExpressionCompiler, f: b.BFunction) -> str:
    metric = _keyword(f, 1)
    return let([vector_sql(c, f.arguments[0])], lambda v: (
        f"CASE WHEN {v} IS NULL THEN NULL::DOUBLE"
        f" ELSE ({NORMS[metric](f'cy_vector_doubles({v})::FLOAT[]')})::DOUBLE END"))


def _coordinates(c: ExpressionCompiler, f: b.BFunction) -> str:
    """A vector's coordinates as a list, anything else as it is: what `toIntegerList()` and `toFloatList()`
    convert ("You can convert vectors into lists via the functions toIntegerList() and toFloatList()")."""
    argument = f.arguments[0]
    kind = argument.type.kind
    if kind is Kind.VECTOR:
        return f"{macro('cy_vector_values', c.compile(argument))}::VARIANT[]"
    if kind is not Kind.ANY and not t.is_variant(argument.type):
        return c.compile(argument)
    return let([c.compile(argument)], lambda v: (
        f"CASE WHEN cy_kind({v}) = 17 THEN cy_vector_values({v}) ELSE {v} END"))


def _coordinates_type(args: Sequence[CypherType]) -> CypherType:
    first = args[0]
    if first.kind is Kind.VECTOR:
        return t.ANY_LIST
    return first if first.kind is not Kind.ANY and not t.is_variant(first) else t.ANY


COORDINATES = "\x01vector coordinates"
"""The function toIntegerList() and toFloatList() read their list through: a name no query can spell."""

VECTOR_KINDS = frozenset({Kind.VECTOR})

SIGNATURES = [
    ("vector", 3, 3, t.VECTOR, (frozenset({Kind.STRING, Kind.LIST}), frozenset({Kind.INTEGER}), None)),
    ("vector_dimension_count", 1, 1, t.INTEGER, (VECTOR_KINDS,)),
    ("vector_distance", 3, 3, t.FLOAT, (VECTOR_KINDS, VECTOR_KINDS, None)),
    ("vector_norm", 2, 2, t.FLOAT, (VECTOR_KINDS, None)),
    (COORDINATES, 1, 1, _coordinates_type),
]
"""(name, least and most arguments, result type or rule, the kinds each argument accepts)."""

FUNCTIONS = {
    "vector": _vector,
    "vector_dimension_count": _dimension_count,
    "vector_distance": _distance,
    "vector_norm": _norm,
    COORDINATES: _coordinates,
}

KEYWORDS = {
    "vector": KeywordArgument(2, dict(COORDINATE_TYPES), "a coordinate type"),
    "vector_distance": KeywordArgument(2, {metric: metric for metric in METRICS}, "a vector distance metric"),
    "vector_norm": KeywordArgument(1, {metric: metric for metric in NORM_METRICS}, "a vector distance metric"),
}
"""The coordinate type of `vector()` and the metric of `vector_distance()` and `vector_norm()` are keywords."""

LIST_CONVERSIONS = {
    f"to{kind}list": (1, None, f"CASE WHEN __a0 IS NULL THEN null ELSE [`__x` IN `{COORDINATES}`(__a0)[0..] |"
                               f" to{kind}OrNull(`__x`)] END")
    for kind in ("integer", "float")
}
"""toIntegerList() and toFloatList() of a vector convert its coordinates (Values and types, Vectors), of a
list its elements as before (engine.semantic.function_macros.LIST_CONVERSIONS)."""
