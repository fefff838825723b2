"""APOC Core's `apoc.map.*` functions that read a map's keys at run time (`apoc.map.Maps`): get, mget,
sortedProperties, flatten and unflatten, over the `{key, value}` entries of a VARIANT map. flatten walks nested
maps level by level up to `MAX_DEPTH` (deeper ones are refused), as the runtime's recursive macros do;
unflatten writes the nested map's JSON in one pass over the sorted key paths."""

from __future__ import annotations

from collections.abc import Callable

from engine import types as t
from engine.apoc.binding import bind
from engine.semantic import bound as b
from engine.sqlgen.expressions import ExpressionCompiler, convert, map_of_entries
from engine.sqlgen.runtime import error_sql

MAX_DEPTH = 8
"""How deep apoc.map.flatten goes into nested maps."""


def _map(c: ExpressionCompiler, argument: b.BoundExpression, name: str) -> str:
    """A map argument as a VARIANT map (null stays null; anything else is a type error on its row)."""
    return bind(c.variant(argument), lambda v: (
        f"CASE WHEN {v} IS NULL OR cy_kind({v}) = 6 THEN {v} ELSE "
        + error_sql("TypeError", "InvalidArgumentType", f"'{name}() expects a map, got ' || cy_type_name({v})")
        + " END"))


def entries_of(value: str) -> str:
    """The `{key, value}` entries of a VARIANT map, by key."""
    return f"list_transform(cy_map_keys({value}), lambda k: {{'key': k, 'value': cy_map_get({value}, k)}})"


def _lookup(m: str, key: str, default: str, fail: str) -> str:
    """apoc.map.get's value: the key's value if the map has the key (even null), else the default; no default
    and `fail` is an error listing the keys."""
    missing = error_sql("ArgumentError", "InvalidArgumentValue",
                        f"'Key ' || {key} || ' is not of one of the existing keys [' || "
                        f"array_to_string(cy_map_keys({m}), ', ') || ']'")
    return (f"CASE WHEN list_contains(variant_keys({m}), {key}) THEN cy_map_get({m}, {key})"
            f" WHEN {fail} AND {default} IS NULL THEN {missing} ELSE {default} END")


def _get(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.map.get(map, key, value = null, fail = true)."""
    default = c.variant(f.arguments[2]) if len(f.arguments) > 2 else "NULL::VARIANT"
    fail = c.boolean(f.arguments[3]) if len(f.arguments) > 3 else "true"
    return bind(_map(c, f.arguments[0], "apoc.map.get"), lambda m: bind(c.string(f.arguments[1]), lambda k: (
        f"CASE WHEN {m} IS NULL THEN NULL ELSE {_lookup(m, k, default, fail)} END")))


def _mget(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.map.mget(map, keys, values = null, fail = true): apoc.map.get per key, the i-th value its default."""
    keys, element = c.list_value(f.arguments[1])
    names = f"list_transform({convert(keys, t.list_of(element), t.ANY_LIST)}, lambda x: cy_string(x))"
    if len(f.arguments) > 2:
        items, item = c.list_value(f.arguments[2])
        defaults = f"coalesce({convert(items, t.list_of(item), t.ANY_LIST)}, []::VARIANT[])"
    else:
        defaults = "[]::VARIANT[]"
    fail = c.boolean(f.arguments[3]) if len(f.arguments) > 3 else "true"
    return bind(_map(c, f.arguments[0], "apoc.map.mget"), lambda m: bind(names, lambda ks: bind(defaults, lambda d: (
        f"CASE WHEN {m} IS NULL OR {ks} IS NULL THEN NULL ELSE list_transform({ks}, lambda key, i:"
        f" {_lookup(m, 'key', f'{d}[i]', fail)}) END"))))


def _sorted_properties(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.map.sortedProperties(map, ignoreCase = true): [key, value] pairs by key, case-insensitively
    unless asked (keys equal but for case keep the order of their code points)."""
    ignore_case = c.boolean(f.arguments[1]) if len(f.arguments) > 1 else "true"
    return bind(_map(c, f.arguments[0], "apoc.map.sortedProperties"), lambda m: (
        f"CASE WHEN {m} IS NULL THEN NULL ELSE list_transform(list_sort(list_transform(cy_map_keys({m}), lambda k:"
        f" {{'o': CASE WHEN {ignore_case} THEN lower(k) ELSE k END, 'k': k}})), lambda s: [s.k::VARIANT,"
        f" cy_map_get({m}, s.k)]::VARIANT) END"))


def flattened(entries: str, delimiter: str) -> str:
    """The leaf entries under `entries`, their keys the path of keys joined by the delimiter: each round
    replaces the entries holding a map by that map's entries (an empty map leaves nothing). The rounds
    follow one another, none inside another's lambda, so the SQL grows with MAX_DEPTH, not exponentially."""
    state = entries
    for depth in range(MAX_DEPTH):
        e, x = f"e{depth}", f"x{depth}"
        state = (f"flatten(list_transform({state}, lambda {e}: CASE WHEN cy_kind({e}.value) = 6 THEN"
                 f" list_transform({entries_of(f'{e}.value')}, lambda {x}: {{'key': {e}.key || {delimiter} ||"
                 f" {x}.key, 'value': {x}.value}}) ELSE [{e}] END))")
    deeper = error_sql("UnsupportedFeature", "Unsupported",
                       f"'apoc.map.flatten() of maps nested more than {MAX_DEPTH} deep'")
    return bind(state, lambda leaves: (
        f"CASE WHEN len(list_filter({leaves}, lambda e: cy_kind(e.value) = 6)) > 0 THEN {deeper} ELSE {leaves} END"))


def _flatten(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.map.flatten(map, delimiter = '.'): nested maps' entries lifted to the top, keyed by their path
    (an empty nested map leaves nothing)."""
    delimiter = c.string(f.arguments[1]) if len(f.arguments) > 1 else "'.'"
    return bind(_map(c, f.arguments[0], "apoc.map.flatten"), lambda m: bind(
        f"coalesce({delimiter}, '.')", lambda d: (
            f"CASE WHEN {m} IS NULL THEN NULL ELSE {map_of_entries(flattened(entries_of(m), d))}"
            " END")))


def unflattened_json(entries: str, delimiter: str) -> str:
    """JSON text of the nested map the `{key, value}` entries make when each key is split at every occurrence
    of the delimiter, left to right (Java's split(delimiter, 2) applied again to the rest). The entries sorted
    by their paths come grouped by every prefix, so one pass writes the braces: each entry closes the levels
    it does not share with the one before and opens its own. A key that is both a value and a map is an
    error (APOC's outcome depends on a HashMap's order)."""
    def body(paths: str) -> str:
        def lcp(a: str, b_: str) -> str:
            shortest = f"least(len({a}), len({b_}))"
            return (f"coalesce(list_position(list_transform(range(1, {shortest} + 1), lambda j: {a}[j] = {b_}[j]),"
                    f" false) - 1, {shortest})")
        conflict = error_sql("ArgumentError", "InvalidArgumentValue",
                             "'apoc.map.unflatten(): a key is both a value and a map'")
        prefixed = (f"len(list_filter({paths}, lambda a: len(list_filter({paths}, lambda c: len(c.p) > len(a.p)"
                    " AND c.p[1:len(a.p)] = a.p)) > 0)) > 0")
        opening = ("array_to_string(list_transform(e.p[start + 1:len(e.p) - 1], lambda seg: to_json(seg) || ':{'),"
                   " '') || to_json(e.p[-1]) || ':' || coalesce(e.v::JSON::VARCHAR, 'null')")
        pieces = (f"list_transform({paths}, lambda e, i: list_transform([CASE WHEN i = 1 THEN 0 ELSE"
                  f" {lcp(f'{paths}[i - 1].p', 'e.p')} END], lambda start: CASE WHEN i = 1 THEN '' ELSE"
                  f" repeat('}}', (len({paths}[i - 1].p) - 1 - start)::BIGINT) || ',' END || {opening})[1])")
        text = (f"'{{' || array_to_string({pieces}, '') || CASE WHEN len({paths}) = 0 THEN '' ELSE"
                f" repeat('}}', (len({paths}[-1].p) - 1)::BIGINT) END || '}}'")
        return f"CASE WHEN {prefixed} THEN {conflict} ELSE {text} END"
    return bind(f"list_sort(list_transform({entries}, lambda e: {{'p': string_split(e.key, {delimiter}),"
                " 'v': e.value}))", body)


def _unflatten(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.map.unflatten(map, delimiter = '.'): each key split at the delimiter, the value nested under
    the parts (a blank delimiter is '.')."""
    delimiter = c.string(f.arguments[1]) if len(f.arguments) > 1 else "'.'"
    return bind(_map(c, f.arguments[0], "apoc.map.unflatten"), lambda m: bind(
        f"CASE WHEN trim(coalesce({delimiter}, '')) = '' THEN '.' ELSE {delimiter} END", lambda d: (
            f"CASE WHEN {m} IS NULL THEN NULL ELSE CAST(CAST({unflattened_json(entries_of(m), d)} AS JSON)"
            " AS VARIANT) END")))


MAX_TREE_DEPTH = 8
"""How deep apoc.map.updateTree goes into maps inside maps (and lists of maps)."""

ENTRIES = "STRUCT(key VARCHAR, value VARIANT)[]"
TREE_NODE = f"STRUCT(p BIGINT, k VARCHAR, j BIGINT, e {ENTRIES})"
"""A map of the tree at one depth: its parent's position at the depth above, the key and the list position
(0: the value itself) it is at there, and its entries once updated."""


def java_equals(a: str, b_: str) -> str:
    """Java's equals of two values as APOC receives them: of one kind and the same text (a Long is never equal
    to a Double, in a list or map neither; NaN equals NaN, -0.0 not 0.0), or both null."""
    return (f"coalesce(cy_kind({a}), 0) = coalesce(cy_kind({b_}), 0) AND"
            f" TRY_CAST({a} AS VARCHAR) IS NOT DISTINCT FROM TRY_CAST({b_} AS VARCHAR)")


def _updated(m: str, key: str, data: str) -> str:
    """The entries of map `m` with those of the last pair of `data` whose value equals m's value at `key`
    put in (Java's putAll: a key of both takes the pair's value)."""
    found = (f"coalesce(list_filter({data}, lambda q: {java_equals('q.m', f'cy_map_get({m}, {key})')})[-1].e,"
             f" []::{ENTRIES})")
    return bind(found, lambda added: (
        f"list_concat(list_filter({entries_of(m)}, lambda x: NOT list_contains(list_transform({added},"
        f" lambda y: y.key), x.key)), {added})"))


def _children(level: str, key: str, data: str) -> str:
    """The maps one depth below those of `level`: each entry's value that is a map, and the maps in each
    entry's value that is a list, updated."""
    def node(position: str, entry: str, index: str, value: str) -> str:
        return f"{{'p': {position}, 'k': {entry}.key, 'j': {index}, 'e': {_updated(value, key, data)}}}::{TREE_NODE}"
    in_list = (f"list_filter(list_transform(cy_list(x.value), lambda y, yi: CASE WHEN cy_kind(y) = 6 THEN"
               f" [{node('pi', 'x', 'yi', 'y')}] ELSE []::{TREE_NODE}[] END), lambda z: len(z) > 0)")
    return (f"flatten(list_transform({level}, lambda n, pi: flatten(list_transform(n.e, lambda x: CASE"
            f" cy_kind(x.value) WHEN 6 THEN [{node('pi', 'x', '0', 'x.value')}] WHEN 5 THEN flatten({in_list})"
            f" ELSE []::{TREE_NODE}[] END))))")


def _rebuilt(level: str, below: str, built: str) -> str:
    """The maps of `level` (VARIANT), each entry's map (or list's map) replaced by its rebuilt form from the
    depth below (`below`, and `built`, their rebuilt values in the same order)."""
    def child(position: str, index: str) -> str:
        return (f"{built}[list_position(list_transform({below}, lambda c: c.p = {position} AND c.k = x.key AND"
                f" c.j = {index}), true)]")
    value = (f"CASE cy_kind(x.value) WHEN 6 THEN {child('pi', '0')} WHEN 5 THEN list_transform(cy_list(x.value),"
             f" lambda y, yi: CASE WHEN cy_kind(y) = 6 THEN {child('pi', 'yi')} ELSE y END)::VARIANT"
             " ELSE x.value END")
    entries = f"list_transform(n.e, lambda x: {{'key': x.key, 'value': {value}}})"
    return f"list_transform({level}, lambda n, pi: {map_of_entries(entries)})"


def _update_tree(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.map.updateTree(tree, key, data): each pair [value, map] of data adds the map to every map of the
    tree (the tree itself, maps in its values, maps in lists in its values, ...) whose `key` holds the value
    (Java's equals; the last pair of a value wins); a pair that is not [value, map, ...] is an error.
    APOC's Maps.visit recurses; here the maps are taken depth by depth (each depth's list computed from the
    one above, which is an argument, never inside a lambda of it: the SQL grows with the depth, not
    exponentially), then rebuilt from the deepest up; maps deeper than MAX_TREE_DEPTH are refused."""
    items, element = c.list_value(f.arguments[2])
    data = convert(items, t.list_of(element), t.ANY_LIST)
    wrong = error_sql("ArgumentError", "InvalidArgumentValue",
                      "'apoc.map.updateTree(): wrong data list entry (a pair [value, map] is expected)'")
    deep = error_sql("UnsupportedFeature", "NestingTooDeep",
                     f"'apoc.map.updateTree() of maps nested deeper than {MAX_TREE_DEPTH} levels'")

    def pairs(d: str) -> str:
        return (f"list_transform(coalesce({d}, []::VARIANT[]), lambda p: CASE WHEN cy_kind(p) <> 5 OR"
                f" len(cy_list(p)) < 2 OR cy_kind(cy_list(p)[2]) <> 6 THEN {wrong} ELSE {{'m': cy_list(p)[1],"
                f" 'e': {entries_of('cy_list(p)[2]')}}} END)")

    # A chain of stages, each the argument of the next (`chained`): a stage's lambda never encloses another
    # stage, so DuckDB binds each once (ADR-0077); nested `bind`s put all sixteen inside one another.
    def descend(s: str) -> str:
        return (f"{{'m': {s}.m, 'k': {s}.k, 'd': {s}.d,"
                f" 'levels': list_append({s}.levels, {_children(f'{s}.levels[-1]', f'{s}.k', f'{s}.d')})}}")

    def deepest(s: str) -> str:
        return (f"{{'m': {s}.m, 'levels': CASE WHEN len({_children(f'{s}.levels[-1]', f'{s}.k', f'{s}.d')}) > 0"
                f" THEN {deep} ELSE {s}.levels END,"
                f" 'built': [list_transform({s}.levels[-1], lambda n: {map_of_entries('n.e')})]}}")

    def up(depth: int) -> Callable[[str], str]:
        def step(s: str) -> str:
            rebuilt = _rebuilt(f"{s}.levels[{depth}]", f"{s}.levels[{depth + 1}]", f"{s}.built[1]")
            return f"{{'m': {s}.m, 'levels': {s}.levels, 'built': list_prepend({rebuilt}, {s}.built)}}"
        return step

    def top(s: str) -> str:
        return (f"{{'m': {s}.m, 'k': {s}.k, 'd': {s}.d,"
                f" 'levels': [[{{'p': 0, 'k': '', 'j': 0, 'e': {_updated(f'{s}.m', f'{s}.k', f'{s}.d')}}}"
                f"::{TREE_NODE}]]}}")
    start = (f"{{'m': {_map(c, f.arguments[0], 'apoc.map.updateTree')}, 'k': {c.string(f.arguments[1])},"
             f" 'd': {pairs(data)}}}")
    steps = [top, *([descend] * MAX_TREE_DEPTH), deepest, *(up(depth) for depth in range(MAX_TREE_DEPTH, 0, -1))]
    return chained(start, [*steps, lambda s: f"CASE WHEN {s}.m IS NULL THEN NULL ELSE {s}.built[1][1] END"])


def chained(first: str, steps: list[Callable[[str], str]]) -> str:
    """`first` through each of `steps` in turn, each step's input bound to a name and its result the argument of
    the next: the stages sit side by side in the SQL, never one inside another's lambda."""
    value = first
    for step in steps:
        value = bind(value, step)
    return value


SIGNATURES = [
    ("apoc.map.updatetree", 3, 3, t.MAP),
    ("apoc.map.get", 2, 4, t.ANY), ("apoc.map.mget", 2, 4, t.ANY_LIST),
    ("apoc.map.sortedproperties", 1, 2, t.ANY_LIST), ("apoc.map.flatten", 1, 2, t.MAP),
    ("apoc.map.unflatten", 1, 2, t.MAP),
]
"""(lower-case name, least and most arguments, result type)."""

FUNCTIONS: dict[str, Callable[[ExpressionCompiler, b.BFunction], str]] = {
    "apoc.map.get": _get, "apoc.map.mget": _mget, "apoc.map.sortedproperties": _sorted_properties,
    "apoc.map.flatten": _flatten, "apoc.map.unflatten": _unflatten, "apoc.map.updatetree": _update_tree,
}
