"""APOC Core's JSON functions (`apoc.convert.Json`): toJson and toSortedJsonMap write what Jackson writes for
APOC (no spaces; floats as Java's Double.toString; NaN and the infinities as strings; temporal values as their
java.time text; a node as {id, type, labels, properties}, a relationship with its start and end nodes), and
fromJsonMap / fromJsonList read JSON into Cypher maps and lists.

Two things differ from APOC, by choice: a map's keys are written sorted (APOC writes them in a
java.util.HashMap's order, which follows the keys' hash codes and promises nothing), and JSON is read
strictly (Jackson, as APOC configures it, also takes single quotes, unquoted names and comments: those are an
error here). A JSON path may be `$`, or `$` followed by `.name` and `[index]` steps; deep scans, wildcards,
filters and path options are refused, naming them.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import types as t
from engine.apoc.binding import bind
from engine.apoc.macros import MAX_JSON_DEPTH as MAX_DEPTH
from engine.apoc.macros import refused as _refused
from engine.errors import UnsupportedFeature
from engine.semantic import bound as b
from engine.sqlgen.expressions import ExpressionCompiler
from engine.sqlgen.runtime import error_sql
from engine.types import Kind


def _text(sql: str) -> str:
    return f"{{'k': 0, 't': {sql}, 'v': NULL::VARIANT}}"


def _item(sql: str) -> str:
    return f"{{'k': 1, 't': NULL::VARCHAR, 'v': {sql}}}"


def entries_items(entries: str) -> str:
    """The items (see `json_items`) of a map whose `{key, value}` entries are given in the order to write."""
    key = _text("CASE WHEN i = 1 THEN '' ELSE ',' END || cy_apoc_json_string(e.key) || ':'")
    opening, closing = _text("'{'"), _text("'}'")
    return (f"list_concat([{opening}], flatten(list_transform({entries}, lambda e, i: [{key}, {_item('e.value')}])),"
            f" [{closing}])")


def json_text(value: str) -> str:
    """The JSON text of a VARIANT value (`json_items`)."""
    return json_items(f"[{_item(value)}]")


def json_items(items: str) -> str:
    """The JSON text of a list of items, text or a value to write. Each round replaces the items holding a
    list or map by its brackets, separators, keys and children, so that after MAX_DEPTH rounds only scalars
    are left (a value nested deeper is refused). The rounds follow one another, none inside another's
    lambda: DuckDB binds a lambda in a lambda many times over."""
    text, item = _text, _item
    for depth in range(MAX_DEPTH):
        e, x = f"j{depth}", f"c{depth}"
        v = f"{e}.v"
        is_list = f"cy_kind({v}) = 5"
        comma = text("','")
        key = text(f"CASE WHEN i = 1 THEN '' ELSE ',' END || cy_apoc_json_string({x}) || ':'")
        elements = (f"flatten(list_transform(TRY_CAST({v} AS VARIANT[]), lambda {x}, i:"
                    f" CASE WHEN i = 1 THEN [{item(x)}] ELSE [{comma}, {item(x)}] END))")
        entries = f"flatten(list_transform(cy_map_keys({v}), lambda {x}, i: [{key}, {item(f'cy_map_get({v}, {x})')}]))"
        opening = text(f"CASE WHEN {is_list} THEN '[' ELSE '{{' END")
        closing = text(f"CASE WHEN {is_list} THEN ']' ELSE '}}' END")
        expanded = f"list_concat([{opening}], CASE WHEN {is_list} THEN {elements} ELSE {entries} END, [{closing}])"
        items = (f"flatten(list_transform({items}, lambda {e}: CASE WHEN {e}.k = 1 AND cy_kind({v}) IN (5, 6)"
                 f" THEN {expanded} ELSE [{e}] END))")
    deeper = _refused(f"lists and maps nested more than {MAX_DEPTH} deep")
    return bind(items, lambda written: (
        f"CASE WHEN len(list_filter({written}, lambda e: e.k = 1 AND cy_kind(e.v) IN (5, 6))) > 0 THEN {deeper}"
        f" ELSE array_to_string(list_transform({written}, lambda e: CASE WHEN e.k = 0 THEN e.t"
        " ELSE cy_apoc_json_scalar(e.v) END), '') END"))


def _entity_json(c: ExpressionCompiler, entity: str, id_sql: str) -> str:
    """A node's or relationship's JSON as APOC writes it (its id as a string; labels sorted; properties only
    when there are some)."""
    entries = c.entity_entries(entity, id_sql)
    properties = bind(entries, lambda found: (
        f"CASE WHEN len({found}) = 0 THEN '' ELSE ',\"properties\":' || {json_items(entries_items(found))} END"))
    if entity == "node":
        labels = c.entity_column("node", id_sql, "labels")
        head = (f"'{{\"id\":\"' || ({id_sql})::VARCHAR || '\",\"type\":\"node\"' || CASE WHEN len({labels}) = 0"
                f" THEN '' ELSE ',\"labels\":[' || array_to_string(list_transform(list_sort({labels}), lambda l:"
                " cy_apoc_json_string(l)), ',') || ']' END")
    else:
        kind = c.entity_column("relationship", id_sql, "type")
        start = _entity_json(c, "node", c.entity_column("relationship", id_sql, "src"))
        end = _entity_json(c, "node", c.entity_column("relationship", id_sql, "dst"))
        head = (f"'{{\"id\":\"' || ({id_sql})::VARCHAR || '\",\"type\":\"relationship\",\"label\":' ||"
                f" cy_apoc_json_string({kind}) || ',\"start\":' || {start} || ',\"end\":' || {end}")
    return f"CASE WHEN ({id_sql}) IS NULL THEN 'null' ELSE {head} || {properties} || '}}' END"


def _holds_elements(cypher_type: t.CypherType) -> bool:
    if cypher_type.kind in (Kind.NODE, Kind.RELATIONSHIP, Kind.PATH):
        return True
    if cypher_type.kind is Kind.LIST and cypher_type.element is not None:
        return _holds_elements(cypher_type.element)
    return any(_holds_elements(field) for _, field in cypher_type.fields or ())


def _to_json(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.convert.toJson(value): a node or relationship given as such is written with its labels or type
    and properties; inside a list or map, or as a path, the engine cannot read its data there and refuses."""
    value = f.arguments[0]
    kind = value.type.kind
    if kind in (Kind.NODE, Kind.RELATIONSHIP):
        return _entity_json(c, "node" if kind is Kind.NODE else "relationship", c.compile(value))
    if _holds_elements(value.type):
        raise UnsupportedFeature("apoc.convert.toJson() of a path, or of nodes or relationships inside a list or map",
                                 value.span)
    return bind(c.variant(value), json_text)


def _to_sorted_json_map(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.convert.toSortedJsonMap(map, ignoreCase = true): the map's JSON, its keys in order, case ignored
    unless asked (two keys equal but for case are refused: APOC's TreeMap keeps one of them)."""
    ignore_case = c.boolean(f.arguments[1]) if len(f.arguments) > 1 else "true"
    collision = error_sql("UnsupportedFeature", "Unsupported",
                          "'apoc.convert.toSortedJsonMap() of keys equal but for case'")

    def ordered_entries(m: str) -> str:
        order = f"CASE WHEN {ignore_case} THEN lower(k) ELSE k END"
        return (f"list_transform(list_sort(list_transform(cy_map_keys({m}), lambda k: {{'o': {order}, 'k': k}})),"
                f" lambda s: {{'key': s.k, 'value': cy_map_get({m}, s.k)}})")
    return bind(c.variant(f.arguments[0]), lambda m: bind(ordered_entries(m), lambda ordered: (
        f"CASE WHEN {m} IS NULL THEN 'null' WHEN cy_kind({m}) <> 6 THEN "
        + error_sql("TypeError", "InvalidArgumentType",
                    f"'apoc.convert.toSortedJsonMap() expects a map, got ' || cy_type_name({m})")
        + f" WHEN {ignore_case} AND len(list_distinct(list_transform(cy_map_keys({m}), lambda k: lower(k))))"
        f" < len(cy_map_keys({m})) THEN {collision} ELSE {json_items(entries_items(ordered))} END")))


PATH_RE = r"^\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[[0-9]+\])*$"
"""The JSON paths the engine reads: `$` and `.name` / `[index]` steps."""


def _read_json(c: ExpressionCompiler, f: b.BFunction, structure: str) -> str:
    """apoc.convert.fromJsonMap / fromJsonList(json, path = '', pathOptions = null): the JSON (or the value at
    the path, null when the path leads nowhere) read as a map (a list); anything else is an error, as is an
    integer beyond the longs (Jackson reads it as a BigInteger, which Neo4j refuses)."""
    name = "apoc.convert.fromJsonMap" if structure == "OBJECT" else "apoc.convert.fromJsonList"
    if len(f.arguments) > 2 and not (isinstance(f.arguments[2], b.BLiteral) and f.arguments[2].value is None):
        raise UnsupportedFeature(f"{name}() with path options", f.arguments[2].span)
    text = c.string(f.arguments[0])
    path = c.string(f.arguments[1]) if len(f.arguments) > 1 else "''"
    java = "java.util.LinkedHashMap" if structure == "OBJECT" else "java.util.ArrayList"

    def body(s: str, p: str) -> str:
        full = f"CASE WHEN coalesce({p}, '') = '' THEN '$' WHEN left({p}, 1) = '$' THEN {p} ELSE '$.' || {p} END"
        return bind(full, lambda q: bind(
            f"CASE WHEN NOT json_valid({s}) OR NOT regexp_matches({q}, '{PATH_RE}') THEN NULL::JSON WHEN {q} = '$'"
            f" THEN {s}::JSON ELSE json_extract({s}::JSON, {q}) END", lambda found: read(s, q, found)))

    def read(s: str, q: str, found: str) -> str:
        unsupported = error_sql("UnsupportedFeature", "Unsupported",
                                f"'{name}() with the JSON path ' || {q} || ' (only $, .name and [index] steps)'")
        big = error_sql("ArgumentError", "InvalidArgumentValue",
                        f"'{name}(): a JSON integer beyond the range of a long'")
        strings = f"regexp_replace({s}, '\"(?:[^\"\\\\]|\\\\.)*\"', '\"\"', 'g')"
        beyond = (f"len(list_filter(regexp_extract_all({strings}, '(-?[0-9]{{19,}})(?:[^0-9.eE]|$)', 1),"
                  " lambda n: TRY_CAST(n AS BIGINT) IS NULL)) > 0")
        mismatch = error_sql("ArgumentError", "InvalidArgumentValue",
                             f"'{name}(): Cannot deserialize instance of `{java}` out of ' || json_type({found})"
                             " || ' token'")
        return (f"CASE WHEN {s} IS NULL THEN NULL WHEN NOT regexp_matches({q}, '{PATH_RE}') THEN {unsupported}"
                f" WHEN NOT json_valid({s}) THEN " + error_sql(
                    "ArgumentError", "InvalidArgumentValue", f"'{name}(): the text is no JSON: ' || {s}")
                + f" WHEN {beyond} THEN {big} WHEN {found} IS NULL OR json_type({found}) = 'NULL' THEN NULL"
                f" WHEN json_type({found}) <> '{structure}' THEN {mismatch}"
                f" ELSE CAST({found} AS VARIANT){'' if structure == 'OBJECT' else '::VARIANT[]'} END")
    return bind(text, lambda s: bind(path, lambda p: body(s, p)))


SIGNATURES = [
    ("apoc.convert.tojson", 1, 1, t.STRING), ("apoc.convert.tosortedjsonmap", 1, 2, t.STRING),
    ("apoc.convert.fromjsonmap", 1, 3, t.MAP), ("apoc.convert.fromjsonlist", 1, 3, t.ANY_LIST),
]
"""(lower-case name, least and most arguments, result type)."""

FUNCTIONS: dict[str, Callable[[ExpressionCompiler, b.BFunction], str]] = {
    "apoc.convert.tojson": _to_json, "apoc.convert.tosortedjsonmap": _to_sorted_json_map,
    "apoc.convert.fromjsonmap": lambda c, f: _read_json(c, f, "OBJECT"),
    "apoc.convert.fromjsonlist": lambda c, f: _read_json(c, f, "ARRAY"),
}
