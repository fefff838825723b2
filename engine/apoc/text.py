"""APOC Core's `apoc.text.*` functions that need SQL of their own (`apoc.text.Strings`,
`SorensenDiceCoefficient`): searching, case conversions, encodings, similarity measures, regular expression
groups and Java's String.format. Each follows APOC's Java code; the helpers `java_trim` and the macros below
give the Java behaviours SQL lacks (String.trim, commons-text's Jaro-Winkler, URLEncoder)."""

from __future__ import annotations

import re
from collections.abc import Callable
from re import _constants as sre_constants  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any, TypeVar

from engine import types as t
from engine.apoc.binding import bind
from engine.apoc.macros import java_trim
from engine.errors import UnsupportedFeature
from engine.semantic import bound as b
from engine.sqlgen.expressions import ExpressionCompiler, convert
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.sql import let, macro

Planned = TypeVar("Planned")


def _fail(message_sql: str) -> str:
    return error_sql("ArgumentError", "InvalidArgumentValue", message_sql)


def _strings(c: ExpressionCompiler, f: b.BFunction, count: int = 2) -> list[str]:
    """The first `count` arguments as strings."""
    return [c.string(argument) for argument in f.arguments[:count]]


def _integer_or(c: ExpressionCompiler, f: b.BFunction, index: int, default: int) -> str:
    return c.integer(f.arguments[index]) if len(f.arguments) > index else f"{default}::BIGINT"


# -- searching ----------------------------------------------------------------------------------------------

def _index_from(text: str, lookup: str, start: str) -> str:
    """Java's text.indexOf(lookup, start): the first position at or after `start` (clamped to 0; an empty
    lookup is found at min(start, length)), -1 when there is none."""
    def body(s: str, k: str, f: str) -> str:
        position = f"strpos(substr({s}, {f} + 1), {k})"
        return (f"CASE WHEN {k} = '' THEN CASE WHEN {f} <= length({s}) THEN {f} ELSE -1 END"
                f" WHEN {position} = 0 THEN -1 ELSE {position} + {f} - 1 END")
    return let([text, lookup, f"greatest({start}, 0)"], body)


def _index_of(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.text.indexOf(text, lookup, from = 0, to = -1): null for a null text, -1 for a null lookup; `to`
    (unless -1 or past the end) cuts the text first."""
    text, lookup = _strings(c, f)[:2]
    start, end = _integer_or(c, f, 2, 0), _integer_or(c, f, 3, -1)
    return let([text, lookup, start, end], lambda s, k, a, z: (
        f"CASE WHEN {s} IS NULL THEN NULL WHEN {k} IS NULL THEN -1 WHEN {z} = -1 OR {z} > length({s}) THEN"
        f" {_index_from(s, k, a)} WHEN {z} <= {a} THEN -1 ELSE {_index_from(f'left({s}, {z}::BIGINT)', k, a)} END"))


def _indexes_of(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.text.indexesOf(text, lookup, from = 0, to = -1): every position from `from` before `to` where
    the lookup starts (overlapping ones too); [] for a null lookup."""
    text, lookup = _strings(c, f)[:2]
    start, end = _integer_or(c, f, 2, 0), _integer_or(c, f, 3, -1)
    return let([text, lookup, start, end], lambda s, k, a, z: (
        f"CASE WHEN {s} IS NULL THEN NULL WHEN {k} IS NULL THEN []::BIGINT[] ELSE list_filter(range(greatest({a}, 0),"
        f" least(CASE WHEN {z} = -1 THEN length({s}) ELSE {z} END, length({s}) + 1)), lambda i:"
        f" substr({s}, i + 1, length({k})) = {k} AND i + length({k}) <= length({s})) END"))


# -- case conversions ----------------------------------------------------------------------------------------

def _capitalized(part: str) -> str:
    return f"cy_upper(left({part}, 1)) || substr({part}, 2)"


def camel_case(text: str) -> str:
    """APOC's camelCase: everything but letters and digits (and `_`) is a space; the words lower-cased,
    capitalized and joined; the first character lower-cased."""
    def body(s: str) -> str:
        words = f"string_split_regex(regexp_replace({s}, '[^\\p{{L}}0-9]|_', ' ', 'g'), ' +')"
        joined = f"array_to_string(list_transform({words}, lambda w: {_capitalized('cy_lower(w)')}), '')"
        return let([joined], lambda j: f"cy_lower(left({j}, 1)) || substr({j}, 2)")
    return let([text], body)


def _camel_case(c: ExpressionCompiler, f: b.BFunction) -> str:
    return camel_case(c.string(f.arguments[0]))


def _upper_camel_case(c: ExpressionCompiler, f: b.BFunction) -> str:
    return let([camel_case(c.string(f.arguments[0]))], _capitalized)


def _split_before(text: str, characters: str) -> str:
    """Java's text.split("(?=[chars])"): the parts before each character of the class `characters` (a
    leading empty part dropped)."""
    marked = f"regexp_replace({text}, '({characters})', chr(0) || '\\1', 'g')"
    return f"list_filter(string_split({marked}, chr(0)), lambda p, i: i > 1 OR p <> '')"


def _snake_case(c: ExpressionCompiler, f: b.BFunction) -> str:
    """APOC's snakeCase: an all upper-case SNAKE_CASE text is lower-cased with spaces for `_`; then split
    before each character that is no lower-case letter or digit, the trimmed non-empty parts lower-cased and
    joined by '-', '--' made '-'."""
    def body(s: str) -> str:
        source = (f"CASE WHEN regexp_full_match({s}, '[\\p{{Lu}}0-9_]+') THEN replace(cy_lower({s}), '_', ' ')"
                  f" ELSE {s} END")
        pieces = _split_before(source, "[^\\p{Ll}0-9]")
        parts = f"list_filter(list_transform({pieces}, lambda p: {java_trim('p')}), lambda p: p <> '')"
        joined = f"cy_lower(array_to_string(list_transform({parts}, lambda p: cy_lower(p)), '-'))"
        return f"regexp_replace({joined}, '--', '-', 'g')"
    return let([c.string(f.arguments[0])], body)


def _to_upper_case(c: ExpressionCompiler, f: b.BFunction) -> str:
    """APOC's toUpperCase: split before each character that is no a-z or 0-9, each part trimmed, upper-cased
    and stripped of all but A-Z and 0-9, the non-empty ones joined by '_'."""
    def body(s: str) -> str:
        parts = (f"list_filter(list_transform({_split_before(s, '[^a-z0-9]')}, lambda p:"
                 f" regexp_replace(cy_upper({java_trim('p')}), '[^A-Z0-9]+', '', 'g')), lambda p: p <> '')")
        return f"array_to_string({parts}, '_')"
    return let([c.string(f.arguments[0])], body)


def _words(sql: Callable[[str], str]) -> Callable[[ExpressionCompiler, b.BFunction], str]:
    """capitalizeAll / decapitalizeAll: each space-separated word changed, joined by spaces, trimmed."""
    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        return let([c.string(f.arguments[0])], lambda s: java_trim(
            f"array_to_string(list_transform(string_split({s}, ' '), lambda w: {sql('w')}), ' ')"))
    return build


def _swap_case(c: ExpressionCompiler, f: b.BFunction) -> str:
    """commons-lang's swapCase: upper-case characters lower-cased, lower-case (and title-case) ones upper-cased."""
    return let([c.string(f.arguments[0])], lambda s: (
        f"array_to_string(list_transform(string_split({s}, ''), lambda ch: CASE WHEN regexp_matches(ch, '\\p{{Lu}}')"
        " THEN lower(ch) WHEN regexp_matches(ch, '[\\p{Ll}\\p{Lt}]') THEN upper(ch) ELSE ch END), '')"))


def _slug(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.text.slug(text, delimiter = '-'): trimmed, each run of characters other than letters, digits and
    `_` replaced by the delimiter."""
    text = c.string(f.arguments[0])
    delimiter = c.string(f.arguments[1]) if len(f.arguments) > 1 else "'-'"
    return let([text, delimiter], lambda s, d: (
        f"CASE WHEN {s} IS NULL OR {d} IS NULL THEN NULL ELSE regexp_replace({java_trim(s)}, '[^\\p{{L}}0-9_]+',"
        f" replace({d}, '\\', '\\\\'), 'g') END"))


# -- encodings -----------------------------------------------------------------------------------------------

def _base64(url: bool, decode: bool) -> Callable[[ExpressionCompiler, b.BFunction], str]:
    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        text = c.string(f.arguments[0])
        if not decode:
            encoded = f"to_base64(encode({text}))"
            return f"replace(replace({encoded}, '+', '-'), '/', '_')" if url else encoded
        source = f"replace(replace({text}, '-', '+'), '_', '/')" if url else text
        return f"decode(from_base64({source}))"
    return build


def _url_encode(c: ExpressionCompiler, f: b.BFunction) -> str:
    """Java's URLEncoder (UTF-8): letters, digits and `.-*_` stay, a space is '+', any other character its
    UTF-8 bytes as %XX."""
    return let([c.string(f.arguments[0])], lambda s: (
        f"array_to_string(list_transform(string_split({s}, ''), lambda ch: CASE WHEN regexp_matches(ch,"
        " '^[A-Za-z0-9.*_-]$') THEN ch WHEN ch = ' ' THEN '+' ELSE regexp_replace(hex(encode(ch)), '(..)', '%\\1',"
        " 'g') END), '')"))


def _url_decode(c: ExpressionCompiler, f: b.BFunction) -> str:
    """Java's URLDecoder (UTF-8): '+' is a space, %XX a byte; a '%' without two hex digits is an error."""
    return let([c.string(f.arguments[0])], lambda s: (
        f"CASE WHEN regexp_matches({s}, '%([^0-9A-Fa-f]|.[^0-9A-Fa-f]|.?$)') THEN "
        + _fail(f"'URLDecoder: Illegal hex characters in escape (%) pattern: ' || {s}")
        + f" ELSE url_decode(replace({s}, '+', ' ')) END"))


# -- similarity ---------------------------------------------------------------------------------------------

def _sorensen_dice(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.text.sorensenDiceSimilarity(text1, text2, languageTag = 'en'): the tag only changes upper-casing
    for Turkish, Azerbaijani and Lithuanian, which are refused."""
    first, second = (c.string(argument) for argument in f.arguments[:2])
    result = macro("cy_apoc_dice", first, second)
    if len(f.arguments) < 3:
        return result
    refused = error_sql("UnsupportedFeature", "Unsupported",
                        "'apoc.text.sorensenDiceSimilarity() with language tag ' || tag || ' (its upper case differs"
                        " from the root locale''s)'")
    return let([c.string(f.arguments[2])], lambda tag: (
        f"CASE WHEN {tag} IS NULL THEN NULL WHEN lower(split_part(replace({tag}, '_', '-'), '-', 1)) IN ('tr', 'az',"
        f" 'lt') THEN {refused.replace('tag', tag)} ELSE {result} END"))


def _jaro_winkler(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.text.jaroWinklerDistance: 1 - commons-text's Jaro-Winkler similarity."""
    return f"(1.0 - {macro('cy_apoc_jw_similarity', *_strings(c, f))})"


# -- regular expression groups -------------------------------------------------------------------------------

def regex_groups(pattern: str) -> int:
    """How many groups `pattern` has; ValueError when one of them may not take part in a match (Java gives
    null for it, a regular expression of the engine an empty string, which cannot be told apart)."""
    try:  # Python reads no \\p{...} class (RE2 does): any character stands in for one
        parsed = sre_parse.parse(re.sub(r"\\[pP](?:\{\w+\}|\w)", "x", pattern))
    except (sre_constants.error, re.error) as error:
        raise ValueError(f"apoc.text.regexGroups() with a pattern it cannot read: {error}") from None

    def walk(items: Any, optional: bool) -> None:
        for op, value in items:
            if op is sre_constants.SUBPATTERN:
                if optional and value[0] is not None:
                    raise ValueError("apoc.text.regexGroups() with a group that may not take part in a match (Java "
                                     "gives null for it, the engine's regular expressions an empty string)")
                walk(value[-1], optional)
            elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
                walk(value[2], optional or value[0] == 0)
            elif op is sre_constants.BRANCH:
                for branch in value[1]:
                    walk(branch, True)
            elif op in (sre_constants.ASSERT, sre_constants.ASSERT_NOT):
                walk(value[1], True)
    walk(parsed, False)
    return parsed.state.groups - 1


def _planned_text(c: ExpressionCompiler, expression: b.BoundExpression, what: str,
                  plan: Callable[[str], Planned]) -> tuple[str, Planned]:
    """SQL for a string the statement gives (a literal or a parameter) and `plan` of it, made when the statement
    compiles (`plan` raises ValueError for one the engine does not run). A parameter's later value (the
    statement run again from the cache) is read only where it plans the same, else as null."""
    given = expression.value if isinstance(expression, b.BLiteral) else expression.given \
        if isinstance(expression, b.BParameter) else None
    if not isinstance(given, str):
        raise UnsupportedFeature(f"{what} that is not a literal or a parameter string", expression.span)
    try:
        planned = plan(given)
    except ValueError as error:
        raise UnsupportedFeature(str(error), expression.span) from None
    if not isinstance(expression, b.BParameter):
        return c.context.parameters.text(given), planned

    def derive(value: Any) -> str | None:
        try:
            return value if isinstance(value, str) and plan(value) == planned else None
        except ValueError:
            return None
    return c.context.parameters.derived(expression.name, given, derive, "VARCHAR") or "NULL::VARCHAR", planned


def _regex_groups(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.text.regexGroups(text, regex): per match, the match and its groups; [] for a null text or regex.
    The regex must be known when the statement compiles (its groups shape the SQL)."""
    text, pattern = f.arguments
    if isinstance(pattern, b.BLiteral) and pattern.value is None:
        return "[]::VARCHAR[][]"
    regex, count = _planned_text(c, pattern, "apoc.text.regexGroups() with a regex", regex_groups)
    def body(s: str) -> str:
        columns = ", ".join(f"regexp_extract_all({s}, {regex}, {index})" for index in range(count + 1))
        return (f"CASE WHEN {s} IS NULL THEN []::VARCHAR[][] ELSE list_transform(list_zip({columns}), lambda m:"
                f" [{', '.join(f'm[{index + 1}]' for index in range(count + 1))}]) END")
    return let([c.string(text)], body)


# -- Java's String.format -------------------------------------------------------------------------------------

FORMAT_RE = re.compile(r"%(?:(\d+)\$)?([-#+ 0,(<]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])")


def format_plan(text: str) -> list[tuple[str, Any]]:
    """Java's format string as parts: ('text', literal) or ('spec', (argument index, flags, width, precision,
    conversion)); ValueError for what the engine does not write as Java does."""
    parts: list[tuple[str, Any]] = []
    position, ordinary = 0, 0
    for found in FORMAT_RE.finditer(text):
        if found.start() > position:
            parts.append(("text", text[position:found.start()]))
        position = found.end()
        index, flags, width, precision, conversion = found.groups()
        if conversion == "%":
            parts.append(("text", "%"))
            continue
        if conversion == "n":
            parts.append(("text", "\n"))
            continue
        if conversion not in "sSdfbBxX" or "<" in flags or "#" in flags or "(" in flags or \
                ("," in flags and conversion not in "df") or ("0" in flags and conversion not in "dfxX"):
            raise ValueError(f"apoc.text.format() with the format specifier {found.group(0)!r}")
        if precision is not None and conversion in "dxX":
            raise ValueError(f"IllegalFormatPrecisionException: {precision}")
        if index is None:
            argument = ordinary
            ordinary += 1
        else:
            argument = int(index) - 1
        parts.append(("spec", (argument, flags, int(width) if width else 0,
                               int(precision) if precision is not None else None, conversion)))
    if "%" in text[position:]:
        raise ValueError(f"apoc.text.format() with the format specifier {text[position:]!r}")
    if position < len(text):
        parts.append(("text", text[position:]))
    return parts


def _conversion_error(conversion: str, value: str) -> str:
    return _fail(f"'IllegalFormatConversionException: {conversion} != ' || cy_type_name({value})")


def _grouped(digits: str) -> str:
    """Digits with ',' between each group of three, from the right."""
    return f"regexp_replace(reverse(regexp_replace(reverse({digits}), '([0-9]{{3}})', '\\1,', 'g')), '^,', '')"


def _spec_sql(spec: tuple[int, str, int, int | None, str], values: str) -> str:
    argument, flags, width, precision, conversion = spec
    v = f"{values}[{argument + 1}]"
    missing = _fail(f"'MissingFormatArgumentException: Format specifier ''%{conversion}'''")
    sign = "'+'" if "+" in flags else "' '" if " " in flags else "''"
    if conversion in "sS":
        text = (f"CASE WHEN {v} IS NULL THEN 'null' WHEN cy_kind({v}) = 3 THEN cy_float_to_string(TRY_CAST({v} AS"
                f" DOUBLE)) WHEN cy_kind({v}) IN (1, 2, 4) THEN cy_to_string({v}) ELSE "
                + error_sql("UnsupportedFeature", "Unsupported",
                            f"'apoc.text.format() %{conversion} of a ' || cy_type_name({v})") + " END")
        if precision is not None:
            text = f"left({text}, {precision})"
        if conversion == "S":
            text = f"cy_upper({text})"
    elif conversion in "bB":
        text = f"CASE WHEN {v} IS NULL THEN 'false' WHEN cy_kind({v}) = 1 THEN cy_to_string({v}) ELSE 'true' END"
        if conversion == "B":
            text = f"upper({text})"
    elif conversion == "d":
        number = f"TRY_CAST({v} AS BIGINT)"
        digits = f"abs({number}::HUGEINT)::VARCHAR"
        if "," in flags:
            digits = _grouped(digits)
        signed = f"CASE WHEN {number} < 0 THEN '-' ELSE {sign} END"
        if "0" in flags and width:
            digits = f"lpad({digits}, greatest({width} - length({signed}), length({digits}))::INTEGER, '0')"
        text = (f"CASE WHEN {v} IS NULL THEN 'null' WHEN cy_kind({v}) <> 2 THEN {_conversion_error('d', v)}"
                f" ELSE {signed} || {digits} END")
    elif conversion == "f":
        places = 6 if precision is None else precision
        number = f"TRY_CAST({v} AS DOUBLE)"
        rounded = f"abs(cy_round({number}, {places}, 'HALF_UP'))"
        digits = f"printf('%.{places}f', {rounded})"
        if "," in flags:
            whole = f"split_part({digits}, '.', 1)"
            digits = _grouped(whole) + (f" || '.' || split_part({digits}, '.', 2)" if places else "")
        signed = f"CASE WHEN signbit({number}) THEN '-' ELSE {sign} END"
        if "0" in flags and width:
            digits = f"lpad({digits}, greatest({width} - length({signed}), length({digits}))::INTEGER, '0')"
        text = (f"CASE WHEN {v} IS NULL THEN 'null' WHEN cy_kind({v}) <> 3 THEN {_conversion_error('f', v)}"
                f" WHEN isnan({number}) THEN 'NaN' WHEN isinf({number}) THEN CASE WHEN {number} > 0 THEN {sign}"
                f" || 'Infinity' ELSE '-Infinity' END ELSE {signed} || {digits} END")
    else:  # x, X: Long.toHexString, two's complement for a negative number
        text = (f"CASE WHEN {v} IS NULL THEN 'null' WHEN cy_kind({v}) <> 2 THEN {_conversion_error(conversion, v)}"
                f" ELSE {'lower' if conversion == 'x' else 'upper'}(ltrim(hex(TRY_CAST({v} AS BIGINT)), '0')) END")
        text = f"CASE WHEN {text} = '' THEN '0' ELSE {text} END"
        if "0" in flags and width:
            text = f"lpad({text}, greatest({width}, length({text}))::INTEGER, '0')"
    if width:
        pad = "rpad" if "-" in flags else "lpad"
        text = let([text], lambda x: f"CASE WHEN length({x}) >= {width} THEN {x} ELSE {pad}({x}, {width}, ' ') END")
    return f"CASE WHEN len({values}) < {argument + 1} THEN {missing} ELSE {text} END"


def _text_format(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.text.format(text, params, language = 'en'): Java's String.format of %s, %S, %d, %f, %b, %B, %x,
    %X, %n and %% (flags -, 0, +, space and ','; width; precision), the text known when the statement
    compiles. A null text gives null, null params the text as it is."""
    text = f.arguments[0]
    if isinstance(text, b.BLiteral) and text.value is None:
        return "NULL::VARCHAR"
    template, parts = _planned_text(c, text, "apoc.text.format() with a format", format_plan)
    if len(f.arguments) > 2:
        language = f.arguments[2]
        tag = language.value if isinstance(language, b.BLiteral) else None
        if not (isinstance(tag, str) and re.fullmatch(r"(?i)en(?:[-_].*)?", tag)):
            raise UnsupportedFeature("apoc.text.format() with a language other than English", language.span)
    items, element = c.list_value(f.arguments[1])
    values = convert(items, t.list_of(element), t.ANY_LIST)

    def body(vs: str) -> str:
        pieces = [c.context.parameters.text(value) if kind == "text" else _spec_sql(value, vs)
                  for kind, value in parts]
        joined = " || ".join(pieces) if pieces else "''"
        return f"CASE WHEN {vs} IS NULL THEN {template} ELSE {joined} END"
    return bind(values, body)


RANGES = (("A-Z", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"), ("a-z", "abcdefghijklmnopqrstuvwxyz"), ("0-9", "0123456789"))
"""apoc.text.random's shorthands in its `valid` text, replaced in this order (each the literal three characters)."""


def _random(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.text.random(length, valid = 'A-Za-z0-9'): `length` characters each drawn from `valid` (random() per
    character; a page checks the length and the characters, ADR-0076)."""
    valid = c.string(f.arguments[1]) if len(f.arguments) > 1 else "'A-Za-z0-9'"
    for shorthand, letters in RANGES:
        valid = f"replace({valid}, '{shorthand}', '{letters}')"

    def body(n: str, chars: str) -> str:
        empty = _fail("'apoc.text.random() with no valid characters'")
        return (f"CASE WHEN {n} IS NULL OR {chars} IS NULL THEN "
                + error_sql("TypeError", "InvalidArgumentType", "'apoc.text.random() needs a length and a text'")
                + f" WHEN {n} <= 0 THEN '' WHEN length({chars}) = 0 THEN {empty} ELSE array_to_string(list_transform("
                f"range(0, {n}), lambda k: substr({chars}, (floor(random() * length({chars})))::BIGINT + 1, 1)),"
                " '') END")
    return bind(c.integer(f.arguments[0]), lambda n: bind(valid, lambda chars: body(n, chars)))


SIGNATURES = [
    ("apoc.text.random", 1, 2, t.STRING),
    ("apoc.text.indexof", 2, 4, t.INTEGER), ("apoc.text.indexesof", 2, 4, t.list_of(t.INTEGER)),
    ("apoc.text.camelcase", 1, 1, t.STRING), ("apoc.text.uppercamelcase", 1, 1, t.STRING),
    ("apoc.text.snakecase", 1, 1, t.STRING), ("apoc.text.touppercase", 1, 1, t.STRING),
    ("apoc.text.capitalizeall", 1, 1, t.STRING), ("apoc.text.decapitalizeall", 1, 1, t.STRING),
    ("apoc.text.swapcase", 1, 1, t.STRING), ("apoc.text.slug", 1, 2, t.STRING),
    ("apoc.text.base64encode", 1, 1, t.STRING), ("apoc.text.base64decode", 1, 1, t.STRING),
    ("apoc.text.base64urlencode", 1, 1, t.STRING), ("apoc.text.base64urldecode", 1, 1, t.STRING),
    ("apoc.text.urlencode", 1, 1, t.STRING), ("apoc.text.urldecode", 1, 1, t.STRING),
    ("apoc.text.sorensendicesimilarity", 2, 3, t.FLOAT), ("apoc.text.jarowinklerdistance", 2, 2, t.FLOAT),
    ("apoc.text.regexgroups", 2, 2, t.list_of(t.list_of(t.STRING))), ("apoc.text.format", 2, 3, t.STRING),
]
"""(lower-case name, least and most arguments, result type)."""

FUNCTIONS: dict[str, Callable[[ExpressionCompiler, b.BFunction], str]] = {
    "apoc.text.indexof": _index_of, "apoc.text.indexesof": _indexes_of, "apoc.text.random": _random,
    "apoc.text.camelcase": _camel_case, "apoc.text.uppercamelcase": _upper_camel_case,
    "apoc.text.snakecase": _snake_case, "apoc.text.touppercase": _to_upper_case,
    "apoc.text.capitalizeall": _words(_capitalized),
    "apoc.text.decapitalizeall": _words(lambda w: f"cy_lower(left({w}, 1)) || substr({w}, 2)"),
    "apoc.text.swapcase": _swap_case, "apoc.text.slug": _slug,
    "apoc.text.base64encode": _base64(url=False, decode=False),
    "apoc.text.base64decode": _base64(url=False, decode=True),
    "apoc.text.base64urlencode": _base64(url=True, decode=False),
    "apoc.text.base64urldecode": _base64(url=True, decode=True),
    "apoc.text.urlencode": _url_encode, "apoc.text.urldecode": _url_decode,
    "apoc.text.sorensendicesimilarity": _sorensen_dice, "apoc.text.jarowinklerdistance": _jaro_winkler,
    "apoc.text.regexgroups": _regex_groups, "apoc.text.format": _text_format,
}

