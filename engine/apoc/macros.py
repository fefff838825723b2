"""The runtime macros of the APOC functions (commons-text's Jaro-Winkler, APOC's Sørensen-Dice, Jackson's JSON
text), registered by the composition root (engine/plugins/macros.py). This module imports no part of the
compiler, so that the in-memory host can build the macros ahead of time (engine/host.py, ADR-0027)."""

from __future__ import annotations

from engine.sqlgen.runtime import error_sql

MAX_JSON_DEPTH = 8
"""How deep apoc.convert.toJson writes lists and maps inside one another."""

CONTROL_ESCAPES = {8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r"}


JAVA_WHITESPACE = r"[ \t\n\x0B\f\r]"
"""Java's `\\s`."""


def java_trim(text: str) -> str:
    """Java's String.trim(): characters up to U+0020 removed at both ends."""
    return f"regexp_replace({text}, '^[\\x00-\\x20]+|[\\x00-\\x20]+$', '', 'g')"


def refused(what: str) -> str:
    """SQL refusing to write `what` as JSON (UnsupportedFeature)."""
    return error_sql("UnsupportedFeature", "Unsupported", f"'apoc.convert.toJson() of {what}'")


def jaro_winkler_macros() -> list[tuple[str, str]]:
    """commons-text's JaroWinklerSimilarity as macros (DuckDB's jaro_winkler_similarity halves the
    transpositions with an integer division, commons-text does not). `cy_apoc_jw_match(mx, mn)` matches each
    character of the shorter string to the first unmatched equal one of the longer within the window, as a
    STRUCT of the longer's matched flags and, per character of the shorter, the position matched (-1: none)."""
    window = "greatest(length(mx) // 2 - 1, 0)"
    step = (f"list_transform([(list_filter(range(greatest(mi - {window}, 0), least(mi + {window} + 1, length(mx))),"
            " lambda xi: NOT acc.flags[xi + 1] AND substr(mx, xi + 1, 1) = substr(mn, mi + 1, 1)))[1]], lambda hit:"
            " {'flags': CASE WHEN hit IS NULL THEN acc.flags ELSE list_transform(acc.flags, lambda g, i: g OR"
            " i - 1 = hit) END, 'idx': list_append(acc.idx, coalesce(hit, -1))})[1]")
    match = (f"list_reduce(range(0, length(mn)), lambda acc, mi: {step}, {{'flags': list_transform(range(0,"
             " length(mx)), lambda x: false), 'idx': []::BIGINT[]})")
    score = "(m / length(l) + m / length(r) + (m - half / 2) / m) / 3"
    return [
        ("cy_apoc_jw_match(mx, mn)", match),
        ("cy_apoc_jw_half(mx, mn, a)",
         "len(list_filter(list_zip([substr(mn, i + 1, 1) FOR i IN range(0, length(mn)) IF a.idx[i + 1] <> -1],"
         " [substr(mx, i + 1, 1) FOR i IN range(0, length(mx)) IF a.flags[i + 1]]), lambda p: p[1] <> p[2]))"),
        ("cy_apoc_jw_prefix(l, r)",
         "coalesce(list_position(list_transform(range(0, least(4, length(l), length(r))), lambda i:"
         " substr(l, i + 1, 1) = substr(r, i + 1, 1)), false) - 1, least(4, length(l), length(r)))"),
        ("cy_apoc_jw_score(l, r, m, half, p)",
         f"CASE WHEN m = 0 THEN 0.0 WHEN {score} < 0.7 THEN {score} ELSE {score} + (0.1 * p) * (1.0 - {score}) END"),
        ("cy_apoc_jw_scored(l, r, mx, mn, a)",
         "cy_apoc_jw_score(l, r, len(list_filter(a.idx, lambda x: x <> -1))::DOUBLE,"
         " cy_apoc_jw_half(mx, mn, a)::DOUBLE, cy_apoc_jw_prefix(l, r))"),
        ("cy_apoc_jw_similarity(l, r)",
         "CASE WHEN l IS NULL OR r IS NULL THEN NULL WHEN l = r THEN 1.0 ELSE list_transform([CASE WHEN"
         " length(l) > length(r) THEN {'mx': l, 'mn': r} ELSE {'mx': r, 'mn': l} END], lambda s:"
         " cy_apoc_jw_scored(l, r, s.mx, s.mn, cy_apoc_jw_match(s.mx, s.mn)))[1] END"),
    ]


def dice_macros() -> list[tuple[str, str]]:
    """APOC's SorensenDiceCoefficient: the words of each text (trimmed, upper-cased, split at whitespace),
    their character bigrams, and twice the bigrams the two share (as multisets) over all of them."""
    words = f"string_split_regex(cy_upper({java_trim('x')}), '{JAVA_WHITESPACE}+')"
    return [
        ("cy_apoc_words(x)", words),
        ("cy_apoc_bigrams(w)",
         "flatten(list_transform(w, lambda v: list_transform(range(1, length(v)), lambda i: substr(v, i, 2))))"),
        ("cy_apoc_shared(b1, b2)",
         "coalesce(list_sum(list_transform(list_distinct(b1), lambda x: least(len(list_filter(b1, lambda y: y = x)),"
         " len(list_filter(b2, lambda y: y = x))))), 0)"),
        ("cy_apoc_dice_of(b1, b2)", "2.0 * cy_apoc_shared(b1, b2) / (len(b1) + len(b2))"),
        ("cy_apoc_dice(a, b)",
         "CASE WHEN a IS NULL OR b IS NULL THEN NULL WHEN a = b OR cy_apoc_words(a) = cy_apoc_words(b) THEN 1.0"
         " ELSE cy_apoc_dice_of(cy_apoc_bigrams(cy_apoc_words(a)), cy_apoc_bigrams(cy_apoc_words(b))) END"),
    ]


def json_macros() -> list[tuple[str, str]]:
    """`cy_apoc_json_string(s)`: a JSON string as Jackson escapes it (quote, backslash, control characters);
    `cy_apoc_json_scalar(v)`; `cy_apoc_json_0(v)` ... the value at each depth, a list's or map's children
    written once by the next level (`cy_apoc_json_join` puts them together)."""
    short = " ".join(f"WHEN {code} THEN '{text}'" for code, text in CONTROL_ESCAPES.items())
    control = (f"array_to_string(list_transform(string_split(replace(replace(s, '\\', '\\\\'), '\"', '\\\"'), ''),"
               f" lambda ch: CASE WHEN unicode(ch) >= 32 THEN ch ELSE CASE unicode(ch) {short}"
               " ELSE '\\u00' || upper(lpad(to_hex(unicode(ch)), 2, '0')) END END), '')")
    fraction = "regexp_extract(t, '^([^.]*)(?:[.]([0-9]+))?(.*)$', ['pre', 'frac', 'post'])"
    macros = [
        ("cy_apoc_json_string(s)",
         f"'\"' || CASE WHEN regexp_matches(s, '[\\x00-\\x1f]') THEN {control}"
         " ELSE replace(replace(s, '\\', '\\\\'), '\"', '\\\"') END || '\"'"),
        # java.time's toString: a fraction in groups of three digits, and no seconds when they and it are zero
        ("cy_apoc_java_time_parts(p)",
         "CASE WHEN p.frac = '' THEN regexp_replace(p.pre,"
         " '(T[0-9]{2}:[0-9]{2}|^[0-9]{2}:[0-9]{2}):00([Z+\\-\\[].*)?$', '\\1\\2')"
         " ELSE p.pre || '.' || rpad(p.frac, ((length(p.frac) + 2) // 3 * 3)::INTEGER, '0') END"
         " || p.post"),
        ("cy_apoc_java_time(t)", f"list_transform([{fraction}], lambda p: cy_apoc_java_time_parts(p))[1]"),
        ("cy_apoc_json_scalar(v)",
         "CASE WHEN v IS NULL OR cy_kind(v) = 0 THEN 'null'"
         " WHEN cy_kind(v) = 1 THEN CASE WHEN TRY_CAST(v AS BOOLEAN) THEN 'true' ELSE 'false' END"
         " WHEN cy_kind(v) = 2 THEN TRY_CAST(v AS BIGINT)::VARCHAR"
         " WHEN cy_kind(v) = 3 THEN CASE WHEN isnan(TRY_CAST(v AS DOUBLE)) THEN '\"NaN\"'"
         " WHEN isinf(TRY_CAST(v AS DOUBLE)) THEN CASE WHEN TRY_CAST(v AS DOUBLE) > 0 THEN '\"Infinity\"'"
         " ELSE '\"-Infinity\"' END ELSE cy_float_to_string(TRY_CAST(v AS DOUBLE)) END"
         " WHEN cy_kind(v) = 4 THEN cy_apoc_json_string(TRY_CAST(v AS VARCHAR))"
         " WHEN cy_kind(v) BETWEEN 10 AND 14 THEN list_transform([cy_t_to_string(v)], lambda t:"
         " cy_apoc_json_string(cy_apoc_java_time(t)))[1]"
         " WHEN cy_kind(v) = 15 THEN " + refused("a duration")
         + " WHEN cy_kind(v) = 16 THEN " + refused("a point")
         + " ELSE " + refused("a node, relationship or path inside a list or map") + " END"),
    ]
    return macros


MACROS = jaro_winkler_macros() + dice_macros() + json_macros()
"""Every macro of this module."""
