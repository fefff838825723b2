"""The SQL macros of the vector functions (ADR-0066), apart from their SQL generation so that the composition
root can register them (engine/plugins/macros.py) before anything of the compiler is imported: the in-memory
host creates every runtime macro once, when it is made (engine/host.py).

`VECTOR_MACROS` check and coerce the coordinates `vector()` is given and sum 32-bit floats coordinate by
coordinate for the distances; `SIMILARITY_MACROS` are Neo4j's vector-2.0 similarities.
"""

from __future__ import annotations

from engine.sqlgen.runtime import error_sql

NUMBER = r"[+-]?(?:[0-9]+(?:[.][0-9]*)?|[.][0-9]+)(?:[eE][+-]?[0-9]+)?"
TEXT_VECTOR = rf"\s*\[\s*{NUMBER}(?:\s*,\s*{NUMBER})*\s*\]\s*"
"""The text of a vector: comma-separated numbers, decimal or scientific, in square brackets."""

VECTOR_MACROS: list[tuple[str, str]] = [
    # -- vector(): the coordinates as VARIANTs, checked -------------------------------------------------
    ("cy_vec_number(x)",
     "CASE WHEN regexp_full_match(x, '[+-]?[0-9]+') AND TRY_CAST(x AS BIGINT) IS NOT NULL"
     " THEN TRY_CAST(x AS BIGINT)::VARIANT ELSE TRY_CAST(x AS DOUBLE)::VARIANT END"),
    ("cy_vec_parse(s)",
     f"CASE WHEN regexp_full_match(s, '{TEXT_VECTOR}') THEN list_transform(string_split("
     "regexp_extract(s, '\\[(.*)\\]', 1), ','), lambda x: cy_vec_number(trim(x))) ELSE "
     + error_sql("TypeError", "InvalidArgumentValue",
              "'vector() expects comma-separated numbers in square brackets, got ''' || s || ''''")
     + " END"),
    ("cy_vec_items(v)",
     "CASE cy_kind(v) WHEN 5 THEN TRY_CAST(v AS VARIANT[]) WHEN 4 THEN cy_vec_parse(TRY_CAST(v AS VARCHAR)) ELSE "
     + error_sql("TypeError", "InvalidArgumentType",
              "'vector() expects a STRING or a LIST<INTEGER | FLOAT>, got ' || cy_type_name(v)")
     + " END"),
    ("cy_vec_check(items, d)",
     "CASE WHEN len(items) <> d THEN "
     + error_sql("TypeError", "InvalidArgumentValue",
              "'vector() was given ' || len(items) || ' coordinates for a vector of dimension ' || d")
     + " WHEN list_bool_or(list_transform(items, lambda e: e IS NULL OR cy_kind(e) = 0)) THEN "
     + error_sql("TypeError", "InvalidArgumentValue", "'a vector''s coordinates cannot be null'")
     + " WHEN list_bool_or(list_transform(items, lambda e: cy_kind(e) NOT IN (2, 3))) THEN "
     + error_sql("TypeError", "InvalidArgumentType", "'a vector''s coordinates are INTEGER or FLOAT values, not '"
              " || list_filter(list_transform(items, lambda e: cy_type_name(e)), lambda n: n NOT IN"
              " ('INTEGER', 'FLOAT'))[1]")
     + " WHEN list_bool_or(list_transform(items, lambda e: cy_kind(e) = 3 AND NOT isfinite(TRY_CAST(e AS DOUBLE))))"
     " THEN " + error_sql("ArgumentError", "InvalidArgumentValue",
                       "'a vector''s coordinates cannot be NaN or Infinity'")
     + " ELSE items END"),
    # Integer coordinates: integers as they are, floats truncated; out of the type's range an overflow.
    ("cy_vec_integers(items, lo, hi)",
     "list_transform(items, lambda e: CASE WHEN cy_kind(e) = 2 THEN CASE WHEN TRY_CAST(e AS BIGINT) BETWEEN lo AND hi"
     " THEN TRY_CAST(e AS BIGINT) ELSE NULL END ELSE CASE WHEN trunc(TRY_CAST(e AS DOUBLE)) >= lo::DOUBLE AND"
     " trunc(TRY_CAST(e AS DOUBLE)) < hi::DOUBLE + 1 THEN TRY_CAST(trunc(TRY_CAST(e AS DOUBLE)) AS BIGINT)"
     " ELSE NULL END END)"),
    ("cy_vec_fitted(items, coordinates, name)",
     "CASE WHEN list_count(coordinates) < len(coordinates) THEN "
     + error_sql("ArithmeticError", "IntegerOverflow",
              "'the coordinate ' || list_filter(list_zip(items, coordinates), lambda p: p[2] IS NULL)[1][1]::VARCHAR"
              " || ' does not fit the vector coordinate type ' || name")
     + " ELSE coordinates END"),
    ("cy_vec_float32(items)",
     "list_transform(items, lambda e: CASE WHEN cy_kind(e) = 2 THEN TRY_CAST(TRY_CAST(e AS BIGINT) AS FLOAT)"
     " ELSE TRY_CAST(TRY_CAST(e AS DOUBLE) AS FLOAT) END::DOUBLE)"),
    # a float beyond FLOAT32's range (about 3.4e38) casts to null: it does not fit
    ("cy_vec_float32_fitted(items, coordinates)",
     "CASE WHEN list_count(coordinates) < len(coordinates) THEN "
     + error_sql("ArgumentError", "InvalidArgumentValue",
                 "'the coordinate ' || list_filter(list_zip(items, coordinates), lambda p: p[2] IS NULL)[1][1]::VARCHAR"
                 " || ' does not fit the vector coordinate type FLOAT32'")
     + " ELSE coordinates END"),
    ("cy_vec_float64(items)", "list_transform(items, lambda e: TRY_CAST(e AS DOUBLE))"),
    # -- distances in 32-bit floats, summed in order -----------------------------------------------------
    ("cy_vec_sum(l)", "list_reduce(l, lambda s, x: (s + x)::FLOAT)"),
    ("cy_vec_differences(a, b)", "list_transform(list_zip(a, b), lambda p: (p[1] - p[2])::FLOAT)"),
    ("cy_vec_products(a, b)", "list_transform(list_zip(a, b), lambda p: (p[1] * p[2])::FLOAT)"),
    ("cy_vec_squares(a)", "list_transform(a, lambda x: (x * x)::FLOAT)"),
    ("cy_vec_cosine(a, b)",
     "(cy_vec_sum(cy_vec_products(a, b))::DOUBLE"
     " / sqrt(cy_vec_sum(cy_vec_squares(a))::DOUBLE * cy_vec_sum(cy_vec_squares(b))::DOUBLE))::FLOAT"),
    ("cy_vec_pair(a, b)",
     "CASE WHEN a IS NULL OR b IS NULL THEN NULL WHEN cy_vector_dimension(a) <> cy_vector_dimension(b) THEN "
     + error_sql("ArgumentError", "InvalidArgumentValue",
              "'the vectors have different dimensions, ' || cy_vector_dimension(a) || ' and ' ||"
              " cy_vector_dimension(b)")
     + " ELSE struct_pack(x := cy_vector_doubles(a), y := cy_vector_doubles(b)) END"),
]
"""The vector functions' runtime macros, registered by the composition root (engine/plugins/macros.py)."""

_INVALID = {
    "cosine": "'vector.similarity.cosine(): a vector must only contain finite values, and have positive and finite"
              " l2-norm'",
    "euclidean": "'vector.similarity.euclidean(): a vector must only contain finite values'",
}

SIMILARITY_MACROS: list[tuple[str, str]] = [
    # Neo4j's vector-2.0 similarities of two DOUBLE[] (ADR-0066): each vector made valid (`cy_vec_unit`,
    # `cy_vec_finite32`) or refused, then compared in 32-bit floats.
    ("cy_vec_finite32(v, message)",
     "CASE WHEN list_bool_and(list_transform(v, lambda x: isfinite(TRY_CAST(x AS FLOAT))))"
     " THEN v::FLOAT[] ELSE error('CYPHER|ArgumentError|InvalidArgumentValue|' || message) END"),
    ("cy_vec_norm_squared(v)", "list_reduce(list_transform(v, lambda x: x * x), lambda s, x: s + x)"),
    ("cy_vec_unit(v, n)",
     "CASE WHEN list_bool_and(list_transform(v, lambda x: isfinite(x))) AND n > 0 AND isfinite(n)"
     " AND list_bool_and(list_transform(v, lambda x: isfinite(TRY_CAST(x * (1.0 / sqrt(n)) AS FLOAT))))"
     " THEN list_transform(v, lambda x: (x * (1.0 / sqrt(n)))::FLOAT)"
     f" ELSE error('CYPHER|ArgumentError|InvalidArgumentValue|' || {_INVALID['cosine']}) END"),
    ("cy_vec_similarity_cosine(a, b)",
     "greatest(((1::FLOAT + cy_vec_sum(cy_vec_products(cy_vec_unit(a, cy_vec_norm_squared(a)),"
     " cy_vec_unit(b, cy_vec_norm_squared(b)))))::FLOAT / 2::FLOAT)::FLOAT, 0::FLOAT)"),
    ("cy_vec_similarity_euclidean(a, b)",
     "(1::FLOAT / (1::FLOAT + cy_vec_sum(cy_vec_squares(cy_vec_differences("
     f"cy_vec_finite32(a, {_INVALID['euclidean']}), cy_vec_finite32(b, {_INVALID['euclidean']})))))::FLOAT)::FLOAT"),
]
"""Created after `VECTOR_MACROS`, whose sums they use."""

MACROS = VECTOR_MACROS + SIMILARITY_MACROS
