"""SQL for the built-in scalar functions: canonical name -> builder. Signatures are in
`engine.semantic.functions`; a test keeps the two tables in step."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine import types as t
from engine.errors import CypherSyntaxError
from engine.quoting import sql_string
from engine.semantic import bound as b
from engine.sqlgen import spatial, spatial_values, temporal
from engine.sqlgen.collections import FUNCTIONS as COLLECTION_FUNCTIONS
from engine.sqlgen.expressions import ExpressionCompiler, convert, map_of_entries
from engine.sqlgen.runtime import LIST_CAP, error_sql, list_too_long, normal_form_function
from engine.sqlgen.sql import Term, let, macro
from engine.sqlgen.temporal_format import FUNCTIONS as TEMPORAL_FORMAT_FUNCTIONS
from engine.storage.encoding import VIRTUAL_PATH_TAG
from engine.types import TEMPORAL_KINDS, Kind, is_variant

Builder = Callable[[ExpressionCompiler, b.BFunction], str]


def by_kind(c: ExpressionCompiler, argument: b.BoundExpression, branches: dict[int, Callable[[str], str]],
            message: str, *, or_null: bool = False) -> str:
    """A function of a value whose type is only known at run time: one SQL branch per kind code (see
    `storage.encoding.KIND_CODES`), null for null, and InvalidArgumentValue for every other kind (null instead
    with `or_null`, for the `...OrNull` conversions)."""
    def build(value: str) -> str:
        whens = "".join(f" WHEN {code} THEN {branch(value)}" for code, branch in branches.items())
        failure = "NULL" if or_null else \
            error_sql("TypeError", "InvalidArgumentValue", f"'{message}, got ' || cy_type_name({value})")
        return f"CASE cy_kind({value}){whens} WHEN 0 THEN NULL ELSE {failure} END"
    return let([c.variant(argument)], build)


def as_text(value: str) -> str:
    return f"TRY_CAST({value} AS VARCHAR)"


def as_list(value: str) -> str:
    return f"TRY_CAST({value} AS VARIANT[])"


def _case_mapping(sql_macro: str, convert: Callable[[str], str]) -> Builder:
    """toLower() / toUpper(): the runtime macro (Java's full case mapping, `runtime._case_macros`), or, of a
    string literal or parameter, the mapping done as the statement compiles (Python's str.lower / str.upper
    are Java's Locale.ROOT ones, final sigma included) and bound: DuckDB folds no call of the macro, so
    `toLower($q) CONTAINS e.key` ran it on every row (100k nodes: 8.8 ms, 4.4 bound). A parameter's is a
    value derived from its own, so a compiled statement run again with another string maps that one."""
    def derive(value: Any) -> str | None:
        return convert(value) if isinstance(value, str) else None

    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        argument = f.arguments[0]
        if isinstance(argument, b.BParameter) and isinstance(argument.given, str):
            derived = c.context.parameters.derived(argument.name, argument.given, derive, "VARCHAR")
            if derived is not None:
                return derived
        if isinstance(argument, b.BLiteral) and isinstance(argument.value, str):
            return c.context.parameters.text(convert(argument.value))
        return macro(sql_macro, c.string(argument))
    return build


def _size(c: ExpressionCompiler, f: b.BFunction) -> str:
    argument = f.arguments[0]
    kind = argument.type.kind
    if kind is Kind.STRING:
        return f"length({c.compile(argument)})"
    if kind is Kind.LIST:
        return f"len({c.compile(argument)})"
    if kind is Kind.NULL:
        return Term("NULL::BIGINT")
    if kind is Kind.VECTOR:  # a vector's size is its dimension (Cypher manual, Vector functions)
        return macro("cy_vector_dimension", c.compile(argument))
    return by_kind(c, argument, {4: lambda v: f"length({as_text(v)})", 5: lambda v: f"len({as_list(v)})",
                                 17: lambda v: f"cy_vector_dimension({v})"},
                   "size() expects a string, a list or a vector")

def _length(c: ExpressionCompiler, f: b.BFunction) -> str:
    argument = f.arguments[0]
    if argument.type.kind is Kind.PATH:
        return f"len(({c.compile(argument)}).rels)"
    if argument.type.kind in (Kind.STRING, Kind.LIST):
        return _size(c, f)
    tag = sql_string(VIRTUAL_PATH_TAG)
    return let([c.variant(argument)], lambda value: (
        f"CASE WHEN variant_extract({value}, {tag}) IS NOT NULL THEN"
        f" len(TRY_CAST(variant_extract(variant_extract({value}, {tag}), 'rels') AS VARIANT[]))"
        f" ELSE len((cy_path_value({value})).rels) END"))


def _element_column(entity: str, column: str, virtual: Callable[[str], str]) -> Builder:
    """A function reading `column` of a node or relationship (`entity`): of a value only known at run time,
    a virtual element's from its payload (`virtual`, ADR-0071), a stored one's from its table."""
    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        argument = f.arguments[0]
        if is_variant(argument.type):
            return c.variant_element(c.compile(argument), entity, column, virtual)
        return c.entity_column(entity, c.entity_id(argument, entity), column)
    return build


def _virtual_id(v: str) -> str:
    return f"variant_extract(cy_virtual({v}), 'id')::BIGINT"


def _id(c: ExpressionCompiler, f: b.BFunction) -> str:
    argument = f.arguments[0]
    if argument.type.kind in (Kind.NODE, Kind.RELATIONSHIP):
        return c.compile(argument)
    return by_kind(c, argument, {7: lambda v: f"coalesce(cy_try_node_id({v}), {_virtual_id(v)})",
                                 8: lambda v: f"coalesce(cy_try_rel_id({v}), {_virtual_id(v)})"},
                   "id() expects a node or a relationship")

def _element_id(c: ExpressionCompiler, f: b.BFunction) -> str:
    """`n:ID` / `r:ID`; a virtual element's is its id alone, as Neo4j's and APOC's are (ADR-0071)."""
    argument = f.arguments[0]
    if argument.type.kind in (Kind.NODE, Kind.RELATIONSHIP):
        prefix = "'r:'" if argument.type.kind is Kind.RELATIONSHIP else "'n:'"
        return f"({prefix} || ({c.compile(argument)})::VARCHAR)"
    return by_kind(c, argument, {
        7: lambda v: f"coalesce('n:' || cy_try_node_id({v})::VARCHAR, {_virtual_id(v)}::VARCHAR)",
        8: lambda v: f"coalesce('r:' || cy_try_rel_id({v})::VARCHAR, {_virtual_id(v)}::VARCHAR)"},
        "elementId() expects a node or a relationship")


def _endpoint(column: str, end: str) -> Builder:
    """startNode() / endNode(): of a value only known at run time a VARIANT node, a virtual relationship's end
    being in its payload (ADR-0071)."""
    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        argument = f.arguments[0]
        if not is_variant(argument.type):
            return c.entity_column("relationship", c.entity_id(argument, "relationship"), column)
        return c.variant_element(c.compile(argument), "relationship", column,
                                 lambda payload: f"variant_extract({payload}, '{end}')",
                                 stored=lambda read: f"cy_node({read})")
    return build


def _keys(c: ExpressionCompiler, f: b.BFunction) -> str:
    argument = f.arguments[0]
    kind = argument.type.kind
    if kind in (Kind.NODE, Kind.RELATIONSHIP):
        entity = "node" if kind is Kind.NODE else "relationship"
        id_sql = c.compile(argument)
        columns = sorted(c.context.catalog.columns[entity].items())
        if not columns:
            return f"CASE WHEN ({id_sql}) IS NULL THEN NULL ELSE []::VARCHAR[] END"
        names = ", ".join(f"CASE WHEN {c.entity_column(entity, id_sql, column)} IS NOT NULL"
                          f" THEN {c.context.parameters.text(key)} END" for key, column in columns)
        return f"CASE WHEN ({id_sql}) IS NULL THEN NULL ELSE list_filter([{names}], lambda k: k IS NOT NULL) END"
    if argument.type.is_record:
        keys = ", ".join(c.context.parameters.text(key) for key, _ in argument.type.fields or ())
        return f"CASE WHEN ({c.compile(argument)}) IS NULL THEN NULL ELSE [{keys}]::VARCHAR[] END"
    def virtual_keys(v: str) -> str:  # a node or relationship only known at run time: a virtual one's (ADR-0071)
        return (f"CASE WHEN cy_virtual({v}) IS NOT NULL THEN cy_map_keys(variant_extract(cy_virtual({v}),"
                " 'properties')) ELSE " + error_sql("UnsupportedFeature", "Unsupported", "'keys() of a stored node"
                                                    " or relationship whose type is only known at run time'") + " END")
    return by_kind(c, argument, {6: lambda v: f"cy_map_keys({v})", 7: virtual_keys, 8: virtual_keys},
                   "keys() expects a map, node or relationship")

def _properties(c: ExpressionCompiler, f: b.BFunction) -> str:
    if f.arguments[0].type.kind is Kind.NULL:
        return Term("NULL::VARIANT")
    return c.compile(b.BEntityProperties(f.arguments[0], type=f.type, span=f.span))


def _coalesce(c: ExpressionCompiler, f: b.BFunction) -> str:
    return "coalesce(" + ", ".join(c.compile_as(argument, f.type) for argument in f.arguments) + ")"


def _head(c: ExpressionCompiler, f: b.BFunction) -> str:
    list_sql, element = c.list_value(f.arguments[0])
    return convert(f"({list_sql})[1]", element, f.type)


def _last(c: ExpressionCompiler, f: b.BFunction) -> str:
    list_sql, element = c.list_value(f.arguments[0])
    return convert(f"({list_sql})[-1]", element, f.type)


def _tail(c: ExpressionCompiler, f: b.BFunction) -> str:
    list_sql, _ = c.list_value(f.arguments[0])
    result = f"({list_sql})[2:]"
    return result if f.type.kind is Kind.LIST else f"({result})::VARIANT"


def _range(c: ExpressionCompiler, f: b.BFunction) -> str:
    start, end = (c.integer(argument) for argument in f.arguments[:2])
    step = c.integer(f.arguments[2]) if len(f.arguments) > 2 else "1"
    too_long = list_too_long(f"(({end})::HUGEINT - ({start})) // ({step}) + 1", "range()")
    # the cap is checked inside range()'s argument: DuckDB folds a constant range() before a CASE around it
    # could choose another branch, and would build the whole list first
    capped_end = f"CASE WHEN (({end})::HUGEINT - ({start})) // ({step}) + 1 > {LIST_CAP} THEN {too_long} ELSE {end} END"
    return (f"CASE WHEN ({step}) = 0 THEN "
            + error_sql("ArgumentError", "NumberOutOfRange", "'range() step must not be zero'")
            + f" WHEN ({step}) > 0 THEN range({start}, ({capped_end}) + 1, {step})"
            f" ELSE range({start}, ({capped_end}) - 1, {step}) END")


def range_rows(c: ExpressionCompiler, f: b.BFunction) -> str:
    """`UNWIND range(start, end[, step])`'s rows, for arguments that are literals or parameters, as a SELECT of
    `x` and its 1-based position `i` from DuckDB's generate_series table function: no list is built, so a long
    range streams (the statement's timeout and memory limit reach it chunk by chunk) where `_range` would
    build every element first. generate_series includes its end, as range() does, with no end + 1 to overflow
    at the largest integer. (Arguments read off a row would make DuckDB build the list: `_range` then.)"""
    start, end = (c.integer(argument) for argument in f.arguments[:2])
    step = c.integer(f.arguments[2]) if len(f.arguments) > 2 else "1"
    checked_step = (f"CASE WHEN ({step}) = 0 THEN "
                    + error_sql("ArgumentError", "NumberOutOfRange", "'range() step must not be zero'")
                    + f" ELSE {step} END")
    return (f"SELECT r.x, (r.x::HUGEINT - ({start})) // ({step}) + 1 AS i"
            f" FROM generate_series({start}, {end}, {checked_step}) AS r(x)")


def _split(c: ExpressionCompiler, f: b.BFunction) -> str:
    """split(s, delimiter) or split(s, [delimiters]): a list splits around a match of any of them."""
    text, delimiters = f.arguments
    if delimiters.type.kind is Kind.LIST:
        items, _ = c.list_value(delimiters)
        pattern = f"array_to_string(list_transform({items}, lambda cy_d: regexp_escape(cy_d::VARCHAR)), '|')"
        return f"string_split_regex({c.string(text)}, {pattern})"
    # DuckDB splits around a null delimiter as around none; Cypher's split(s, null) is null. A string split by
    # itself is two empty strings, '' by '' too (Neo4j's StringValue.split), where DuckDB gives [] for ''.
    return let([c.string(text), c.string(delimiters)], lambda value, delimiter: (
        f"CASE WHEN {delimiter} IS NULL THEN NULL WHEN {value} = {delimiter} THEN ['', '']"
        f" ELSE string_split({value}, {delimiter}) END"))


def _reverse(c: ExpressionCompiler, f: b.BFunction) -> str:
    argument = f.arguments[0]
    if argument.type.kind is Kind.STRING:
        return f"reverse({c.compile(argument)})"
    if argument.type.kind is Kind.LIST:
        return f"list_reverse({c.compile(argument)})"
    return by_kind(c, argument, {4: lambda v: f"reverse({as_text(v)})::VARIANT",
                                 5: lambda v: f"list_reverse({as_list(v)})::VARIANT"},
                   "reverse() expects a string or a list")

def _replace(c: ExpressionCompiler, f: b.BFunction) -> str:
    """replace(s, search, replacement) as Java's String.replace: an empty search matches before every character
    and at the end ('ab' -> '-a-b-', '' -> '-'), where DuckDB's replace leaves the string as it is. The empty
    pattern does that in regexp_replace, whose replacement text reads a backslash as an escape: doubled."""
    return let([c.string(argument) for argument in f.arguments], lambda text, search, replacement: (
        f"CASE WHEN {search} = '' THEN regexp_replace({text}, '', replace({replacement}, '\\', '\\\\'), 'g')"
        f" ELSE replace({text}, {search}, {replacement}) END"))


def _substring(c: ExpressionCompiler, f: b.BFunction) -> str:
    """substring(s, start[, length]): null for a null string; a null or negative start or length is an error
    (Cypher manual, String functions, substring()), as for left() and right()."""
    def checked(name: str, value: str) -> str:
        return (f" WHEN {value} IS NULL THEN "
                + error_sql("TypeError", "InvalidArgumentValue", f"'the {name} given to substring() must not be null'")
                + f" WHEN {value} < 0 THEN "
                + error_sql("ArgumentError", "NegativeIntegerArgument",
                            f"'the {name} given to substring() must not be negative, got ' || {value}"))
    values = [c.string(f.arguments[0]), c.integer(f.arguments[1])]
    if len(f.arguments) > 2:
        values.append(c.integer(f.arguments[2]))
    return let(values, lambda text, start, length=None: (
        f"CASE WHEN {text} IS NULL THEN NULL{checked('start', start)}"
        + (checked("length", length) + f" ELSE substring({text}, ({start}) + 1, {length}) END" if length else
           f" ELSE substring({text}, ({start}) + 1) END")))


def _prefix(sql_function: str) -> Builder:
    """left() / right(): null for a null string; a null or negative length is an error (Cypher manual,
    String functions: "If `length` is not a positive INTEGER, an error is raised")."""
    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        name = f"{sql_function}()"
        return let([c.string(f.arguments[0]), c.integer(f.arguments[1])], lambda text, length: (
            f"CASE WHEN {text} IS NULL THEN NULL WHEN {length} IS NULL THEN "
            + error_sql("TypeError", "InvalidArgumentValue", f"'the length given to {name} must not be null'")
            + f" WHEN {length} < 0 THEN "
            + error_sql("ArgumentError", "NegativeIntegerArgument",
                        f"'the length given to {name} must not be negative, got ' || {length}")
            + f" ELSE {sql_function}({text}, {length}) END"))
    return build


def _trim(sql_function: str) -> Builder:
    """trim() and friends: Java's whitespace by default, or the characters of the second argument."""
    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        characters = c.string(f.arguments[1]) if len(f.arguments) > 1 else "cy_whitespace()"
        return f"{sql_function}({c.string(f.arguments[0])}, {characters})"
    return build


def _normalize(c: ExpressionCompiler, f: b.BFunction) -> str:
    """normalize(s[, form]): the binder makes the form, a keyword, a string literal; NFC by default."""
    form = f.arguments[1].value if len(f.arguments) > 1 else "NFC"
    return f"{normal_form_function(form)}({c.string(f.arguments[0])})"


def _to_string(c: ExpressionCompiler, f: b.BFunction) -> str:
    argument = f.arguments[0]
    if argument.type.kind is Kind.STRING:
        return c.compile(argument)
    if argument.type.kind is Kind.FLOAT:
        return f"cy_float_to_string({c.compile(argument)})"
    if argument.type.kind in TEMPORAL_KINDS:
        return temporal.to_string(c, argument)
    if argument.type.kind is Kind.POINT:
        return spatial_values.to_string(c.compile(argument))
    # toStringOrNull(): null for the kinds toString() refuses (lists, maps, nodes, relationships, paths).
    or_null = " WHEN cy_kind({0}) BETWEEN 5 AND 9 THEN NULL" if f.name == "tostringornull" else ""
    return let([c.variant(argument)], lambda value: (
        f"CASE{or_null.format(value)} WHEN cy_kind({value}) BETWEEN 10 AND 15 THEN cy_t_to_string({value})"
        f" WHEN cy_kind({value}) = {spatial_values.CODE} THEN {spatial_values.to_string(spatial_values.payload(value))}"
        f" ELSE cy_to_string({value}) END"))


def _string_to_integer(text: str) -> str:
    """Integer digits convert exactly; other numerals truncate toward zero ('1.7' -> 1); anything else null."""
    return (f"CASE WHEN regexp_full_match(trim({text}), '[+-]?[0-9]+') THEN TRY_CAST(trim({text}) AS BIGINT)"
            f" ELSE trunc(TRY_CAST({text} AS DOUBLE))::BIGINT END")


def _to_integer(c: ExpressionCompiler, f: b.BFunction) -> str:
    argument = f.arguments[0]
    if argument.type.kind is Kind.INTEGER:
        return c.compile(argument)
    if argument.type.kind is Kind.FLOAT:
        return f"trunc({c.compile(argument)})::BIGINT"
    if argument.type.kind is Kind.STRING:
        return let([c.compile(argument)], _string_to_integer)
    # Booleans convert too: true is 1, false is 0 (Cypher manual, Scalar functions, toInteger()).
    return by_kind(c, argument, {1: lambda v: f"(CASE WHEN TRY_CAST({v} AS BOOLEAN) THEN 1 ELSE 0 END)::BIGINT",
                                 2: lambda v: f"TRY_CAST({v} AS BIGINT)",
                                 3: lambda v: f"trunc(TRY_CAST({v} AS DOUBLE))::BIGINT",
                                 4: lambda v: _string_to_integer(as_text(v))},
                   "toInteger() cannot convert this value", or_null=f.name == "tointegerornull")

def _to_float(c: ExpressionCompiler, f: b.BFunction) -> str:
    argument = f.arguments[0]
    if argument.type.kind in (Kind.INTEGER, Kind.FLOAT):
        return f"({c.compile(argument)})::DOUBLE"
    if argument.type.kind is Kind.STRING:
        return f"TRY_CAST({c.compile(argument)} AS DOUBLE)"
    return by_kind(c, argument, {2: lambda v: f"TRY_CAST({v} AS DOUBLE)", 3: lambda v: f"TRY_CAST({v} AS DOUBLE)",
                                 4: lambda v: f"TRY_CAST({as_text(v)} AS DOUBLE)"},
                   "toFloat() cannot convert this value", or_null=f.name == "tofloatornull")

def _to_boolean(c: ExpressionCompiler, f: b.BFunction) -> str:
    argument = f.arguments[0]
    if argument.type.kind is Kind.BOOLEAN:
        return c.compile(argument)
    return by_kind(c, argument, {
        1: lambda v: f"TRY_CAST({v} AS BOOLEAN)",
        4: lambda v: f"CASE lower(trim({as_text(v)})) WHEN 'true' THEN true WHEN 'false' THEN false END",
        2: lambda v: f"TRY_CAST({v} AS BIGINT) <> 0"}, "toBoolean() cannot convert this value",
        or_null=f.name == "tobooleanornull")

def _numeric(sql_function: str, *, keep_integer: bool = False) -> Builder:
    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        argument = f.arguments[0]
        if keep_integer and argument.type.kind is Kind.INTEGER:
            return f"{sql_function}({c.compile(argument)})"
        if keep_integer and is_variant(f.type):
            return let([c.variant(argument)], lambda value: (
                f"CASE cy_kind({value}) WHEN 2 THEN {sql_function}(TRY_CAST({value} AS BIGINT))::VARIANT"
                f" ELSE {sql_function}(cy_number({value}))::VARIANT END"))
        return f"{sql_function}({c.number(argument)})"
    return build


def _unit_domain(sql_function: str) -> Builder:
    """asin / acos: NaN outside [-1, 1], as Java's Math gives (DuckDB raises there)."""
    return lambda c, f: let([c.number(f.arguments[0])], lambda x: (
        f"CASE WHEN {x} BETWEEN -1 AND 1 THEN {sql_function}({x}) WHEN {x} IS NULL THEN NULL"
        f" ELSE 'NaN'::DOUBLE END"))


VALUE_TYPE_ORDER = ("BOOLEAN", "STRING", "INTEGER", "FLOAT", "DATE", "LOCAL TIME", "ZONED TIME", "LOCAL DATETIME",
                    "ZONED DATETIME", "DURATION", "POINT", "NODE", "RELATIONSHIP", "MAP", "LIST", "PATH")
"""The order of types in a normalized union (Cypher manual, Values and types, Ordering of types)."""


def _value_type(c: ExpressionCompiler, f: b.BFunction) -> str:
    """valueType(): the value's type as Cypher writes types (`INTEGER NOT NULL`, `NULL`, `LIST<STRING NOT NULL>
    NOT NULL`, `VECTOR<INTEGER8 NOT NULL>(3) NOT NULL`); a list is named by its elements' types, a normalized
    union in the manual's order of types when there are several (`LIST<STRING NOT NULL | INTEGER NOT NULL> NOT
    NULL`), `NOTHING` when empty, each without `NOT NULL` when it holds nulls. A list of lists is refused
    rather than named differently."""
    unsupported = error_sql("UnsupportedFeature", "Unsupported", "'valueType() of a list of lists'")
    order = "[" + ", ".join(f"'{name}'" for name in VALUE_TYPE_ORDER) + "]"

    def name(value: str) -> str:
        items = f"{value}::VARIANT[]"
        present = f"list_filter({items}, lambda x: x IS NOT NULL)"
        kinds = f"list_distinct(list_transform({present}, lambda x: cy_full_type_name(x)))"
        nulls = f"list_count({items}) < len({items})"
        suffix = f"CASE WHEN {nulls} THEN '' ELSE ' NOT NULL' END"

        def element(kinds: str) -> str:
            # sorted by the type's place in the manual's order (a VECTOR after them all), each named as it is
            ordered = (f"list_transform(list_sort(list_transform({kinds}, lambda k: struct_pack(p := coalesce("
                       f"list_position({order}, k), {len(VALUE_TYPE_ORDER) + 1}), k := k))), lambda s: s.k)")
            union = f"array_to_string(list_transform({ordered}, lambda k: k || {suffix}), ' | ')"
            return (f"CASE WHEN len({kinds}) = 0 THEN CASE WHEN {nulls} THEN 'NULL' ELSE 'NOTHING' END"
                    f" WHEN list_contains({kinds}, 'LIST') THEN {unsupported} ELSE {union} END")
        # the elements' type names bound once: each copy of them binds `cy_full_type_name` in a lambda again
        return (f"CASE WHEN {value} IS NULL THEN 'NULL' WHEN cy_kind({value}) = 5 THEN 'LIST<' ||"
                f" {let([kinds], element)} || '> NOT NULL' ELSE cy_full_type_name({value}) || ' NOT NULL' END")

    return let([c.variant(f.arguments[0])], name)


def _sign(c: ExpressionCompiler, f: b.BFunction) -> str:
    return f"sign({c.number(f.arguments[0])})::BIGINT"


def _round(c: ExpressionCompiler, f: b.BFunction) -> str:
    """round(x[, precision[, mode]]) as Neo4j computes it (Cypher manual, Mathematical functions - numeric):
    Java's Math.round without a mode and at precision 0, else BigDecimal rounding in `mode` (HALF_UP by
    default) of x's decimal digits; null if any argument is null."""
    value = c.number(f.arguments[0])
    if len(f.arguments) == 1:
        return macro("cy_round_math", value)
    argument = f.arguments[1]
    precision = c.integer(argument) if argument.type.kind in (Kind.INTEGER, Kind.NULL) else \
        f"trunc({c.number(argument)})::BIGINT"
    if len(f.arguments) == 2:
        return let([value, precision], lambda x, p: (
            f"CASE WHEN {p} = 0 THEN cy_round_math({x}) ELSE cy_round({x}, {p}, 'HALF_UP') END"))
    return macro("cy_round", value, precision, c.string(f.arguments[2]))


def _is_empty(c: ExpressionCompiler, f: b.BFunction) -> str:
    argument = f.arguments[0]
    if argument.type.kind is Kind.STRING:
        return f"(length({c.compile(argument)}) = 0)"
    if argument.type.kind is Kind.LIST:
        return f"(len({c.compile(argument)}) = 0)"
    return by_kind(c, argument, {4: lambda v: f"length({as_text(v)}) = 0", 5: lambda v: f"len({as_list(v)}) = 0",
                                 6: lambda v: f"len(cy_map_keys({v})) = 0"},
                   "isEmpty() expects a string, list or map")

def _null_if(c: ExpressionCompiler, f: b.BFunction) -> str:
    first, second = f.arguments
    equal = c.compile(b.BOperator("=", (first, second), type=t.BOOLEAN, span=f.span))
    return f"CASE WHEN {equal} THEN NULL ELSE {c.compile_as(first, f.type)} END"


def _path_part(field: str, wrap: str) -> Builder:
    """`nodes()` (`field` nodes) or `relationships()` (rels): of a PATH its ids; of a value only known at run
    time its elements as values (`wrap` makes one of an id), a virtual path's as it carries them (ADR-0087)."""
    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        argument = f.arguments[0]
        if not is_variant(argument.type):
            path = (c.compile(argument) if argument.type.kind is Kind.PATH
                    else "NULL::STRUCT(nodes BIGINT[], rels BIGINT[])")
            return f"({path}).{field}"
        tag = sql_string(VIRTUAL_PATH_TAG)
        return let([c.variant(argument)], lambda v: (
            f"CASE WHEN variant_extract({v}, {tag}) IS NOT NULL THEN"
            f" TRY_CAST(variant_extract(variant_extract({v}, {tag}), '{field}') AS VARIANT[])"
            f" ELSE list_transform((cy_path_value({v})).{field}, lambda i: {wrap}(i)) END"))
    return build


_nodes = _path_part("nodes", "cy_node")
_relationships = _path_part("rels", "cy_rel")


def _map_merge(c: ExpressionCompiler, f: b.BFunction) -> str:
    """`n {.*, k: v}`: the entity's (or map's) entries with the literal ones laid over them. A literal entry
    whose value is null stays, as the key with null (a JSON merge patch would remove it)."""
    base, extra = f.arguments
    laid = dict(extra.entries) if isinstance(extra, b.BMap) else {}
    keys = [c.context.parameters.text(key) for key in laid]
    kept = c.entries(base) if not keys else let([c.entries(base)], lambda entries: (
        f"list_filter({entries}, lambda e: NOT list_contains([{', '.join(keys)}], e.key))"))
    if not laid:
        return map_of_entries(kept)
    over = ", ".join(f"{{'key': {key}, 'value': {c.variant(value)}}}" for key, value in zip(keys, laid.values(),
                                                                                      strict=True))
    return map_of_entries(f"list_concat({kept}, [{over}])")


def _graph_function(c: ExpressionCompiler, f: b.BFunction) -> str:
    """graph.names() and graph.propertiesByName(): Neo4j answers them on a composite database only, and a graph
    of this engine is a standard database (ADR-0068), so the call is Neo4j's own error there (GQL 42N72)."""
    name = {"graph.propertiesbyname": "graph.propertiesByName"}.get(f.name, f.name)
    raise CypherSyntaxError(f"{name}(): calling graph functions is only supported on composite databases; this"
                            " database is a standard one (SHOW DATABASES lists the graphs)", f.span, detail="42N72")


FUNCTIONS: dict[str, Builder] = {
    "graph.names": _graph_function, "graph.propertiesbyname": _graph_function,
    "tolower": _case_mapping("cy_lower", str.lower),
    "toupper": _case_mapping("cy_upper", str.upper),
    "lower": _case_mapping("cy_lower", str.lower),
    "upper": _case_mapping("cy_upper", str.upper),
    "trim": _trim("trim"),
    "ltrim": _trim("ltrim"),
    "rtrim": _trim("rtrim"),
    "btrim": _trim("trim"),
    "normalize": _normalize,
    "replace": _replace,
    "substring": _substring,
    "left": _prefix("left"),
    "right": _prefix("right"),
    "split": _split,
    "reverse": _reverse,
    "tostring": _to_string,
    "tostringornull": _to_string,
    "tointeger": _to_integer,
    "tointegerornull": _to_integer,
    "tofloat": _to_float,
    "tofloatornull": _to_float,
    "toboolean": _to_boolean,
    "tobooleanornull": _to_boolean,
    "abs": _numeric("abs", keep_integer=True),
    "sign": _sign,
    "ceil": _numeric("ceil"),
    "floor": _numeric("floor"),
    "round": _round,
    "sqrt": _numeric("sqrt"),
    "exp": _numeric("exp"),
    "log": _numeric("ln"),
    "log10": _numeric("log10"),
    "sin": _numeric("sin"), "cos": _numeric("cos"), "tan": _numeric("tan"), "cot": _numeric("cot"),
    "atan": _numeric("atan"), "asin": _unit_domain("asin"), "acos": _unit_domain("acos"),
    "atan2": lambda c, f: f"atan2({c.number(f.arguments[0])}, {c.number(f.arguments[1])})",
    "degrees": _numeric("degrees"), "radians": _numeric("radians"),
    "haversin": lambda c, f: let([c.number(f.arguments[0])], lambda x: f"((1 - cos({x})) / 2)"),
    "pi": lambda c, f: "pi()", "e": lambda c, f: "exp(1)",
    "isnan": lambda c, f: f"isnan({c.number(f.arguments[0])})",
    "char_length": lambda c, f: f"length({c.string(f.arguments[0])})",
    "character_length": lambda c, f: f"length({c.string(f.arguments[0])})",
    "randomuuid": lambda c, f: "uuid()::VARCHAR",
    "valuetype": _value_type,
    "rand": lambda c, f: "random()",
    "size": _size,
    "length": _length,
    "head": _head,
    "last": _last,
    "tail": _tail,
    "range": _range,
    "keys": _keys,
    "coalesce": _coalesce,
    "isempty": _is_empty,
    "nullif": _null_if,
    "labels": _element_column("node", "labels", lambda payload: f"variant_extract({payload}, 'labels')::VARCHAR[]"),
    "type": _element_column("relationship", "type", lambda payload: f"variant_extract({payload}, 'type')::VARCHAR"),
    "id": _id,
    "elementid": _element_id,
    "properties": _properties,
    "startnode": _endpoint("src", "start"),
    "endnode": _endpoint("dst", "end"),
    "nodes": _nodes,
    "relationships": _relationships,
    "map_merge": _map_merge,
    **temporal.FUNCTIONS,  # date(), datetime.truncate(), duration.between(), ... (ADR-0014)
    **TEMPORAL_FORMAT_FUNCTIONS,  # format(value[, pattern]) (ADR-0082)
    **spatial.FUNCTIONS,  # point(), point.distance(), point.withinBBox() (ADR-0065)
    **COLLECTION_FUNCTIONS,
}


def register_functions(builders: Mapping[str, Builder]) -> None:
    """SQL for the functions a feature package adds (vecf32(), vec.cosineDistance(), ..., ADR-0025), by
    lower-case name; registered by the composition root (engine/plugins)."""
    FUNCTIONS.update(builders)
