"""Lucene's `PorterStemmer` (the `english` analyzer's last filter) as DuckDB macros, so index terms are
stemmed set-based in SQL and query terms by the same SQL.

Lucene's class is Martin Porter's C implementation: six steps over a buffer `b[0..k]`, `j` the end of the
stem the last successful `ends(suffix)` left. Here the word is a string and each step a macro returning the
new word. `cv` is the word's consonant/vowel pattern (`cons(i)`: a, e, i, o, u are vowels, `y` is a vowel
after a consonant, everything else, digits included, is a consonant), so `m()`, the number of
vowel-consonant sequences in the stem, is the number of `vc` pairs in the stem's prefix of `cv`. Each step
tries its suffixes in Lucene's order and stops at the first the word ends with, whether or not its measure
condition then holds, as Lucene's `switch` statements do. Words of one or two characters are kept.
"""

from __future__ import annotations

from engine.quoting import sql_string

# step 3 (Porter's step 2) and step 4 (Porter's step 3): suffix -> replacement, when m(stem) > 0
_STEP3 = [("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
          ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"), ("ization", "ize"),
          ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"),
          ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"), ("logi", "log")]
_STEP4 = [("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""),
          ("ness", "")]
# step 5 (Porter's step 4): suffixes removed when m(stem) > 1; `ion` only after s or t
_STEP5 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism",
          "ate", "iti", "ous", "ive", "ize"]


def _let(value: str, name: str, body: str) -> str:
    """`body` with `name` bound to `value`, which is written (and evaluated) once."""
    return f"list_transform([{value}], lambda {name}: {body})[1]"


def _m(length: str) -> str:
    """m() over the first `length` characters (the stem), from `cv`."""
    return f"len(regexp_extract_all(substr(cv, 1, {length}), 'vc'))"


def _ends(suffix: str) -> str:
    return f"suffix(w, {sql_string(suffix)})"


def _cvc(position: str) -> str:
    """cvc(i) for the 1-based position `position`: consonant-vowel-consonant ending there, the last not w, x, y."""
    return (f"({position} >= 3 AND substr(cv, {position} - 2, 3) = 'cvc'"
            f" AND w[{position}] NOT IN ('w', 'x', 'y'))")


def _doublec(position: str) -> str:
    return f"({position} >= 2 AND w[{position}] = w[{position} - 1] AND cv[{position}] = 'c')"


def _suffix_rules(rules: list[tuple[str, str]], minimum: int) -> str:
    """The first suffix of `rules` the word ends with, replaced when m(stem) > `minimum`."""
    cases = " ".join(
        f"WHEN {_ends(suffix)} THEN CASE WHEN {_m(f'length(w) - {len(suffix)}')} > {minimum}"
        f" THEN left(w, length(w) - {len(suffix)}) || {sql_string(replacement)} ELSE w END"
        for suffix, replacement in rules)
    return f"CASE {cases} ELSE w END"


def _with_cv(body: str) -> str:
    """A step over the word `x`: `body` sees it as `w` and its pattern as `cv`."""
    return _let("x", "w", _let("ft_porter_cv(w)", "cv", body))


_STEP1_PLURAL = ("CASE WHEN NOT suffix(w, 's') THEN w WHEN suffix(w, 'sses') THEN left(w, length(w) - 2)"
                 " WHEN suffix(w, 'ies') THEN left(w, length(w) - 3) || 'i'"
                 " WHEN w[length(w) - 1] <> 's' THEN left(w, length(w) - 1) ELSE w END")

# -ed / -ing removed (the stem `s` has a vowel), then the stem's ending repaired.
_STEP1_REPAIR = (f"CASE WHEN suffix(w, 'at') OR suffix(w, 'bl') OR suffix(w, 'iz') THEN w || 'e'"
                 f" WHEN {_doublec('length(w)')} THEN CASE WHEN right(w, 1) IN ('l', 's', 'z') THEN w"
                 f" ELSE left(w, length(w) - 1) END"
                 f" WHEN {_m('length(w)')} = 1 AND {_cvc('length(w)')} THEN w || 'e' ELSE w END")

_STEP1_SUFFIX = (f"CASE WHEN suffix(w, 'eed') THEN CASE WHEN {_m('length(w) - 3')} > 0 THEN left(w, length(w) - 1)"
                 f" ELSE w END"
                 f" WHEN suffix(w, 'ed') THEN CASE WHEN contains(substr(cv, 1, length(w) - 2), 'v')"
                 f" THEN ft_porter_repair(left(w, length(w) - 2)) ELSE w END"
                 f" WHEN suffix(w, 'ing') THEN CASE WHEN contains(substr(cv, 1, length(w) - 3), 'v')"
                 f" THEN ft_porter_repair(left(w, length(w) - 3)) ELSE w END ELSE w END")

_STEP2 = ("CASE WHEN suffix(w, 'y') AND contains(substr(cv, 1, length(w) - 1), 'v')"
          " THEN left(w, length(w) - 1) || 'i' ELSE w END")

_STEP5_CASES = " ".join(
    f"WHEN {_ends(suffix)} THEN "
    + (f"CASE WHEN length(w) > 3 AND w[length(w) - 3] IN ('s', 't') AND {_m('length(w) - 3')} > 1"
       f" THEN left(w, length(w) - 3) ELSE w END" if suffix == "ion" else
       f"CASE WHEN {_m(f'length(w) - {len(suffix)}')} > 1 THEN left(w, length(w) - {len(suffix)}) ELSE w END")
    for suffix in _STEP5)

# -e removed when m > 1, or m = 1 and not cvc before it; then -ll to -l when m > 1 (m of the word as it
# entered the step, as Lucene's `j` still says)
_DROP_E = (f"CASE WHEN suffix(w, 'e') AND ({_m('length(w)')} > 1 OR ({_m('length(w)')} = 1"
           f" AND NOT {_cvc('length(w) - 1')})) THEN left(w, length(w) - 1) ELSE w END")
_STEP6 = _let(_DROP_E, "y", f"CASE WHEN suffix(y, 'l') AND length(y) >= 2 AND y[length(y) - 1] = 'l'"
                            f" AND cv[length(y)] = 'c' AND {_m('length(w)')} > 1"
                            f" THEN left(y, length(y) - 1) ELSE y END")

MACROS: list[tuple[str, str]] = [
    # cons(i) for each character, as a string of c and v
    ("ft_porter_cv(w)",
     "list_reduce(string_split(w, ''), lambda acc, ch: acc || CASE WHEN ch IN ('a', 'e', 'i', 'o', 'u') THEN 'v'"
     " WHEN ch = 'y' THEN CASE WHEN acc = '' OR right(acc, 1) = 'v' THEN 'c' ELSE 'v' END ELSE 'c' END, '')"),
    ("ft_porter_repair(x)", _with_cv(_STEP1_REPAIR)),
    ("ft_porter_plural(x)", _let("x", "w", _STEP1_PLURAL)),
    ("ft_porter_step1(x)", _with_cv(_STEP1_SUFFIX)),
    ("ft_porter_step2(x)", _with_cv(_STEP2)),
    ("ft_porter_step3(x)", _with_cv(f"CASE WHEN length(w) < 2 THEN w ELSE {_suffix_rules(_STEP3, 0)} END")),
    ("ft_porter_step4(x)", _with_cv(_suffix_rules(_STEP4, 0))),
    ("ft_porter_step5(x)", _with_cv(f"CASE WHEN length(w) < 2 THEN w {_STEP5_CASES} ELSE w END")),
    ("ft_porter_step6(x)", _with_cv(_STEP6)),
    # the stem of a word (words of one or two characters are kept)
    ("ft_porter(word)",
     "CASE WHEN length(word) <= 2 THEN word ELSE ft_porter_step6(ft_porter_step5(ft_porter_step4("
     "ft_porter_step3(ft_porter_step2(ft_porter_step1(ft_porter_plural(word))))))) END"),
]
