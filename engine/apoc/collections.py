"""APOC Core's `apoc.coll.*` functions that need SQL of their own (`apoc.coll.Coll`): combinations in APOC's
order, sorting lists of maps by their keys (stable, as Java's Collections.sort), binary search in a sorted
list, the standard deviation as commons-math computes it, shuffles and random picks (`random()` per element:
a page checks what they promise, a size and where each element comes from, never a recording, ADR-0076), and
text sorted by a locale's collation (ICU's, where Java's Collator and ICU order the text alike)."""

from __future__ import annotations

from collections.abc import Callable

from engine import types as t
from engine.apoc.binding import bind
from engine.errors import UnsupportedFeature
from engine.quoting import sql_string
from engine.semantic import bound as b
from engine.sqlgen.expressions import ExpressionCompiler, convert
from engine.sqlgen.runtime import error_sql


def _values(c: ExpressionCompiler, argument: b.BoundExpression) -> str:
    """A list argument as VARIANT[] (null stays null)."""
    items, element = c.list_value(argument)
    return convert(items, t.list_of(element), t.ANY_LIST)


def _combinations(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.coll.combinations(coll, minSelect, maxSelect = minSelect): every selection of minSelect to maxSelect
    elements, in the order of APOC's lexicographic iterator (by the last index, then the one before...);
    [] when the sizes are out of range."""
    low = c.integer(f.arguments[1])
    high = c.integer(f.arguments[2]) if len(f.arguments) > 2 else "-1"

    def body(values: str, lo: str, hi: str) -> str:
        chosen = (f"list_reduce(range(0, size), lambda acc, step: flatten(list_transform(acc, lambda s:"
                  f" list_transform(range(coalesce(s[-1] + 1, 0), len({values})), lambda i: list_append(s, i)))),"
                  " [[]::BIGINT[]])")
        by_size = (f"list_transform(list_sort(list_transform({chosen}, lambda s: {{'key': list_reverse(s), 's': s}})),"
                   f" lambda x: list_transform(x.s, lambda i: {values}[i + 1]))")
        top = f"CASE WHEN {hi} = -1 THEN {lo} ELSE {hi} END"
        return (f"CASE WHEN {values} IS NULL OR len({values}) = 0 OR {lo} < 1 OR {lo} > len({values})"
                f" OR {lo} > {top} OR {top} > len({values}) THEN []::VARIANT[] ELSE list_transform(flatten("
                f"list_transform(range({lo}, {top} + 1), lambda size: {by_size})), lambda x: x::VARIANT) END")
    return bind(_values(c, f.arguments[0]), lambda v: bind(low, lambda lo: bind(high, lambda hi: body(v, lo, hi))))


def _compare(a: str, b_: str, name: str) -> str:
    """APOC's comparison of two property values: null first, then Cypher's order within one kind (numbers
    across integers and floats); values it would compare by their text, or not at all, are refused."""
    refused = error_sql("UnsupportedFeature", "Unsupported",
                        f"'{name}() comparing ' || cy_type_name({a}) || ' with ' || cy_type_name({b_})")
    return (f"CASE WHEN {a} IS NULL AND {b_} IS NULL THEN 0 WHEN {a} IS NULL THEN -1 WHEN {b_} IS NULL THEN 1"
            f" WHEN cy_kind({a}) IN (5, 6) OR cy_kind({b_}) IN (5, 6) THEN {refused}"
            f" ELSE coalesce(cy_cmp_scalar({a}, {b_}), {refused}) END")


def sorted_by(values: str, keys: str, name: str) -> str:
    """`values` (VARIANT[] of maps) sorted stably by `keys`: a list of {name, ascending} (descending unless
    ascending), each element's position the number of elements before it in that order."""
    def comparison(i: str, j: str) -> str:
        order = _compare(f"cy_map_get({values}[{i}], key.name)", f"cy_map_get({values}[{j}], key.name)", name)
        codes = f"list_transform({keys}, lambda key: ({order}) * CASE WHEN key.ascending THEN 1 ELSE -1 END)"
        return f"coalesce(list_filter({codes}, lambda d: d <> 0)[1], 0)"
    position = (f"len(list_filter(range(1, len({values}) + 1), lambda j: list_transform([{comparison('j', 'i')}],"
                " lambda d: d < 0 OR (d = 0 AND j < i))[1]))")
    return (f"list_transform(list_sort(list_transform(range(1, len({values}) + 1), lambda i: {{'p': {position},"
            f" 'i': i}})), lambda s: {values}[s.i])")


def _field(spec: str) -> str:
    """{name, ascending} of an APOC sort field: '^name' ascending, 'name' descending."""
    ascending = f"left({spec}, 1) = '^'"
    return f"{{'name': CASE WHEN {ascending} THEN substr({spec}, 2) ELSE {spec} END, 'ascending': {ascending}}}"


def _sort_maps(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.coll.sortMaps(coll, prop): by the property, descending ('^prop': ascending); [] for null."""
    return bind(_values(c, f.arguments[0]), lambda v: bind(c.string(f.arguments[1]), lambda p: (
        f"CASE WHEN {v} IS NULL OR len({v}) = 0 THEN []::VARIANT[] ELSE"
        f" {sorted_by(v, '[' + _field(p) + ']', 'apoc.coll.sortMaps')} END")))


def _sort_multi(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.coll.sortMulti(coll, orderFields = [], limit = -1, skip = 0): by each field in turn, descending
    ('^field': ascending), then `skip` elements left out and at most `limit` kept."""
    fields = (_values(c, f.arguments[1]) if len(f.arguments) > 1 else "[]::VARIANT[]")
    limit = c.integer(f.arguments[2]) if len(f.arguments) > 2 else "-1"
    skip = c.integer(f.arguments[3]) if len(f.arguments) > 3 else "0"

    def body(v: str, keys: str, n: str, k: str) -> str:
        ordered = f"CASE WHEN len({keys}) = 0 THEN {v} ELSE {sorted_by(v, keys, 'apoc.coll.sortMulti')} END"
        return bind(ordered, lambda o: (
            f"CASE WHEN {k} > 0 AND {n} <> -1 THEN {o}[{k} + 1:{k} + {n}] WHEN {k} > 0 THEN {o}[{k} + 1:]"
            f" WHEN {n} <> -1 THEN {o}[1:{n}] ELSE {o} END"))
    return bind(_values(c, f.arguments[0]), lambda v: bind(
        f"list_transform(coalesce({fields}, []::VARIANT[]), lambda x: {_field('cy_string(x)')})",
        lambda keys: bind(limit, lambda n: bind(skip, lambda k: (
            f"CASE WHEN {v} IS NULL THEN NULL ELSE {body(v, keys, n, k)} END")))))


def _binary_search(values: str, key: str, name: str) -> str:
    """Java's Collections.binarySearch found the key: halving [low, high] by comparing the middle element
    (as APOC does, on a list it is told is sorted; an unsorted one may hide the key, as there)."""
    refused = error_sql("UnsupportedFeature", "Unsupported",
                        f"'{name}() comparing ' || cy_type_name(m) || ' with ' || cy_type_name({key})")
    middle = f"{values}[(st.low + st.high) // 2 + 1]"
    step = (f"CASE WHEN st.found OR st.low > st.high THEN st ELSE list_transform([{middle}], lambda m:"
            f" list_transform([coalesce(cy_cmp_scalar(m, {key}), {refused})], lambda d: CASE WHEN d < 0 THEN"
            " {'low': (st.low + st.high) // 2 + 1, 'high': st.high, 'found': false} WHEN d > 0 THEN {'low': st.low,"
            " 'high': (st.low + st.high) // 2 - 1, 'found': false} ELSE {'low': st.low, 'high': st.high,"
            " 'found': true} END)[1])[1] END")
    return (f"list_reduce(range(0, 64), lambda st, x: {step}, {{'low': 0::BIGINT, 'high': len({values}) - 1,"
            " 'found': false}).found")


def _contains_sorted(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.coll.containsSorted(coll, value): false for a null or empty list."""
    name = "apoc.coll.containsSorted"
    return bind(_values(c, f.arguments[0]), lambda v: bind(c.variant(f.arguments[1]), lambda k: (
        f"CASE WHEN {v} IS NULL OR len({v}) = 0 THEN false WHEN {k} IS NULL THEN "
        + error_sql("ArgumentError", "InvalidArgumentValue", f"'{name}() of a null value'")
        + f" ELSE {_binary_search(v, k, name)} END")))


def _contains_all_sorted(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.coll.containsAllSorted(coll, values): every value found by binary search; false for nulls."""
    name = "apoc.coll.containsAllSorted"
    return bind(_values(c, f.arguments[0]), lambda v: bind(_values(c, f.arguments[1]), lambda ks: (
        f"CASE WHEN {v} IS NULL OR {ks} IS NULL THEN false WHEN len({v}) = 0 THEN len({ks}) = 0 ELSE"
        f" list_bool_and(list_transform({ks}, lambda k: {_binary_search(v, 'k', name)})) END")))


def _stdev(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.coll.stdev(list, isBiasCorrected = true): commons-math's two-pass standard deviation (the mean
    corrected by the mean deviation), sample or population; an integer when it is whole; null for an
    empty list."""
    corrected = c.boolean(f.arguments[1]) if len(f.arguments) > 1 else "true"

    def body(v: str, sample: str) -> str:
        total = f"list_reduce({v}, lambda a, x: a + x, 0.0::DOUBLE)"
        mean = bind(f"{total} / len({v})", lambda xbar: (
            f"{xbar} + list_reduce({v}, lambda a, x: a + (x - {xbar}), 0.0::DOUBLE) / len({v})"))

        def variance(m: str) -> str:
            accum = f"list_reduce({v}, lambda a, x: a + (x - {m}) * (x - {m}), 0.0::DOUBLE)"
            accum2 = f"list_reduce({v}, lambda a, x: a + (x - {m}), 0.0::DOUBLE)"
            return (f"CASE WHEN len({v}) = 1 THEN 0.0 ELSE ({accum} - ({accum2} * {accum2} / len({v})))"
                    f" / CASE WHEN {sample} THEN len({v}) - 1.0 ELSE len({v}) END END")
        deviation = bind(mean, lambda m: f"sqrt({variance(m)})")
        return bind(deviation, lambda d: (
            f"CASE WHEN {d} = trunc({d}) AND abs({d}) < 9.2e18 THEN {d}::BIGINT::VARIANT ELSE {d}::VARIANT END"))
    numbers = f"list_transform({_values(c, f.arguments[0])}, lambda x: cy_number(x))"
    return bind(numbers, lambda v: bind(corrected, lambda s: (
        f"CASE WHEN {v} IS NULL OR len({v}) = 0 THEN NULL ELSE {body(v, s)} END")))


def shuffled(values: str) -> str:
    """`values` (a list) in a random order: its positions sorted by a random key each."""
    return (f"list_transform(list_sort(list_transform(range(1, len({values}) + 1), lambda i: {{'r': random(),"
            f" 'i': i}})), lambda s: {values}[s.i])")


def _shuffle(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.coll.shuffle(coll): [] for null."""
    return bind(_values(c, f.arguments[0]), lambda v: (
        f"CASE WHEN {v} IS NULL THEN []::VARIANT[] ELSE {shuffled(v)} END"))


def _random_items(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.coll.randomItems(coll, itemCount, allowRepick = false): itemCount elements, each picked at random
    among all (repick) or among those not yet picked; without repick, at most the whole list, shuffled."""
    repick = c.boolean(f.arguments[2]) if len(f.arguments) > 2 else "false"

    def body(v: str, n: str, again: str) -> str:
        picks = f"list_transform(range(0, {n}), lambda k: {v}[(floor(random() * len({v})))::BIGINT + 1])"
        return (f"CASE WHEN {v} IS NULL OR len({v}) = 0 OR {n} IS NULL OR {n} <= 0 THEN []::VARIANT[]"
                f" WHEN {again} THEN {picks} ELSE {shuffled(v)}[1:{n}] END")
    return bind(_values(c, f.arguments[0]), lambda v: bind(c.integer(f.arguments[1]), lambda n: bind(
        f"coalesce({repick}, false)", lambda again: body(v, n, again))))


COLLATIONS: dict[str, tuple[str, str, str]] = {
    **dict.fromkeys(("en", "en-us", "en-gb", "de", "de-de"), ("en", "^[A-Za-z0-9]*$", "ASCII letters and digits")),
    **dict.fromkeys(("ru", "ru-ru"), ("ru", "^[\u0400-\u045F0-9]*$", "Cyrillic letters and digits")),
}
"""Language tag (lower case) → ICU's collation, the text it sorts and that text's name. Java's Collator has its
own rules, not ICU's: it makes spaces, punctuation and symbols ignorable where ICU weighs them, sorts letters
such as æ as accented a where ICU reads ae, and French accents backwards; over these letters and digits the two
order alike (a letter, then its accents, then its case, lower case first)."""


def _sort_text(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.coll.sortText(coll, conf = {}): by ICU's collation for `conf.locale` (a language tag known when
    the statement compiles; none: English, the engine's locale, ADR-0076); [] for null."""
    locale = "en"
    if len(f.arguments) > 1:
        conf = f.arguments[1]
        given = dict(conf.entries).get("locale") if isinstance(conf, b.BMap) else None
        if conf.type.kind is not t.Kind.NULL and not isinstance(conf, b.BMap):
            raise UnsupportedFeature("apoc.coll.sortText() with a config that is not a map literal", conf.span)
        if given is not None:
            if not (isinstance(given, b.BLiteral) and isinstance(given.value, str)):
                raise UnsupportedFeature("apoc.coll.sortText() with a locale that is not a string literal",
                                         given.span)
            locale = given.value.strip() or "en"
    tag = locale.lower().replace("_", "-")
    known = COLLATIONS.get(tag)
    if known is None:
        raise UnsupportedFeature(f"apoc.coll.sortText() with the locale {locale!r} (the engine sorts as Java"
                                 f" does for {', '.join(sorted(COLLATIONS))} only)", f.span)
    collation, letters, what = known
    refused = error_sql("UnsupportedFeature", "Unsupported",
                        f"'apoc.coll.sortText() of ' || cy_string(x) || ' in locale {tag}: text other than"
                        f" {what}, which Java''s Collator may order otherwise than ICU'")

    def checked(values: str) -> str:
        wrong_type = error_sql("TypeError", "InvalidArgumentType",
                               "'apoc.coll.sortText() expects a list of strings, got an element of type ' ||"
                               " cy_type_name(x)")
        null = error_sql("ArgumentError", "InvalidArgumentValue", "'apoc.coll.sortText() of a list holding null'")
        return (f"list_transform({values}, lambda x: CASE WHEN x IS NULL OR cy_kind(x) = 0 THEN {null}"
                f" WHEN cy_kind(x) <> 4 THEN {wrong_type} WHEN regexp_matches(cy_string(x), {sql_string(letters)})"
                f" THEN cy_string(x) ELSE {refused} END)")
    return bind(_values(c, f.arguments[0]), lambda v: bind(checked(v), lambda s: (
        f"CASE WHEN {v} IS NULL OR len({v}) = 0 THEN []::VARIANT[] ELSE list_transform(list_sort("
        f"list_transform(range(1, len({s}) + 1), lambda i: {{'k': icu_sort_key({s}[i], {sql_string(collation)}),"
        f" 'i': i}})), lambda e: {s}[e.i]::VARIANT) END")))


SIGNATURES = [
    ("apoc.coll.shuffle", 1, 1, t.ANY_LIST), ("apoc.coll.randomitems", 2, 3, t.ANY_LIST),
    ("apoc.coll.sorttext", 1, 2, t.ANY_LIST),
    ("apoc.coll.combinations", 2, 3, t.ANY_LIST), ("apoc.coll.sortmaps", 2, 2, t.ANY_LIST),
    ("apoc.coll.sortmulti", 1, 4, t.ANY_LIST), ("apoc.coll.containssorted", 2, 2, t.BOOLEAN),
    ("apoc.coll.containsallsorted", 2, 2, t.BOOLEAN), ("apoc.coll.stdev", 1, 2, t.ANY),
]
"""(lower-case name, least and most arguments, result type)."""

FUNCTIONS: dict[str, Callable[[ExpressionCompiler, b.BFunction], str]] = {
    "apoc.coll.combinations": _combinations, "apoc.coll.sortmaps": _sort_maps, "apoc.coll.sortmulti": _sort_multi,
    "apoc.coll.containssorted": _contains_sorted, "apoc.coll.containsallsorted": _contains_all_sorted,
    "apoc.coll.stdev": _stdev, "apoc.coll.shuffle": _shuffle, "apoc.coll.randomitems": _random_items,
    "apoc.coll.sorttext": _sort_text,
}
