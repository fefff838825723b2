"""Vector functions: FalkorDB's `vecf32`, `vec.cosineDistance`, `vec.euclideanDistance` and Neo4j's
`vector.similarity.cosine` / `vector.similarity.euclidean`.

A vector is a LIST<FLOAT> (SQL DOUBLE[]) or a Cypher 25 VECTOR (its coordinates as doubles); `vecf32` rounds
its elements to 32-bit floats, the precision FalkorDB keeps. FalkorDB's distances are DuckDB's list functions.
Neo4j's similarities are those of its latest vector index provider, `vector-2.0`, in 32-bit floats as the
manual says ("Floating point operations are performed with float32 arithmetic"): cosine `max((1 + u·v) / 2, 0)`
of the vectors scaled to unit length (scaled in doubles, then rounded to 32 bits), euclidean `1 / (1 + d²)`;
a vector with a coordinate that is not a finite 32-bit float, or, for cosine, of length 0, is refused.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import types as t
from engine.semantic import bound as b
from engine.sqlgen.expressions import ExpressionCompiler
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.sql import let, macro
from engine.types import Kind


def float_list(c: ExpressionCompiler, expression: b.BoundExpression, what: str) -> str:
    """SQL DOUBLE[] of a list of numbers without nulls, or of a VECTOR's coordinates; null stays null, anything
    else is a type error."""
    kind, element = expression.type.kind, expression.type.element
    if kind is Kind.NULL:
        return "NULL::DOUBLE[]"
    if kind is Kind.VECTOR:
        return macro("cy_vector_doubles", c.compile(expression))
    if kind is Kind.LIST and element is not None and element.kind is Kind.FLOAT:
        value = c.compile(expression)
    elif kind is Kind.LIST and element is not None and element.kind is Kind.INTEGER:
        value = f"CAST({c.compile(expression)} AS DOUBLE[])"
    else:
        def checked(raw: str) -> str:
            failure = error_sql("TypeError", "InvalidArgumentType", f"'{what} expects a list of numbers'")
            return (f"CASE WHEN {raw} IS NULL THEN NULL::DOUBLE[] WHEN cy_kind({raw}) = 17 THEN"
                    f" cy_vector_doubles({raw}) WHEN TRY_CAST({raw} AS DOUBLE[]) IS NULL"
                    f" THEN {failure} ELSE TRY_CAST({raw} AS DOUBLE[]) END")
        value = let([c.variant(expression)], checked)

    def no_nulls(vector: str) -> str:
        failure = error_sql("TypeError", "InvalidArgumentType", f"'{what}: a vector cannot hold null'")
        return f"CASE WHEN list_bool_or(list_transform({vector}, lambda x: x IS NULL)) THEN {failure} ELSE {vector} END"
    return let([value], no_nulls)


def _vecf32(c: ExpressionCompiler, f: b.BFunction) -> str:
    return f"CAST(CAST({float_list(c, f.arguments[0], 'vecf32()')} AS FLOAT[]) AS DOUBLE[])"


def _pair(name: str, body: Callable[[str, str], str]) -> Callable[[ExpressionCompiler, b.BFunction], str]:
    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        left, right = (float_list(c, argument, f"{name}()") for argument in f.arguments)

        def checked(a: str, z: str) -> str:
            failure = error_sql("ArgumentError", "InvalidArgumentValue",
                                f"'{name}(): the vectors have different dimensions, ' || len({a}) || ' and ' || "
                                f"len({z})")
            return (f"CASE WHEN {a} IS NULL OR {z} IS NULL THEN NULL::DOUBLE WHEN len({a}) <> len({z}) THEN {failure}"
                    f" ELSE {body(a, z)} END")
        return let([left, right], checked)
    return build


SIGNATURES = [
    ("vecf32", 1, 1, t.list_of(t.FLOAT)),
    ("vec.cosinedistance", 2, 2, t.FLOAT),
    ("vec.euclideandistance", 2, 2, t.FLOAT),
    ("vector.similarity.cosine", 2, 2, t.FLOAT),
    ("vector.similarity.euclidean", 2, 2, t.FLOAT),
]
"""(canonical name, least and most arguments, result type) for `engine.semantic.functions`."""

FUNCTIONS = {
    "vecf32": _vecf32,
    "vec.cosinedistance": _pair("vec.cosineDistance", lambda a, z: f"list_cosine_distance({a}, {z})"),
    "vec.euclideandistance": _pair("vec.euclideanDistance", lambda a, z: f"list_distance({a}, {z})"),
    "vector.similarity.cosine": _pair("vector.similarity.cosine",
                                      lambda a, z: f"cy_vec_similarity_cosine({a}, {z})::DOUBLE"),
    "vector.similarity.euclidean": _pair("vector.similarity.euclidean",
                                         lambda a, z: f"cy_vec_similarity_euclidean({a}, {z})::DOUBLE"),
}

