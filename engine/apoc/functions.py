"""APOC Core functions that are a Cypher expression over their arguments, registered as function macros
(`semantic.function_macros`): the binder expands a call into its expression, so each runs with
the engine's own semantics, set-based like any expression. Their behaviour is APOC's documented one (the
examples of the APOC documentation are `tests/conformance/apoc-functions.md`).
"""

from __future__ import annotations

from collections.abc import Callable

from engine import types as t
from engine.errors import UnsupportedFeature
from engine.semantic import bound as b
from engine.semantic.function_macros import FunctionMacro, parse_macros
from engine.sqlgen.expressions import ExpressionCompiler, convert, map_of_entries
from engine.sqlgen.runtime import error_sql
from engine.sqlgen.sql import let

_NON_NULL = "[`__v` IN __a0 WHERE `__v` IS NOT NULL]"
_PATH = "[__a0, 0, ''][0]"
_TO_LIST = ("CASE WHEN __a0 IS NULL THEN null WHEN __a0 IS :: LIST<ANY> THEN __a0 WHEN __a0 IS :: PATH THEN"
            f" [`__i` IN range(0, 2 * length({_PATH})) | CASE WHEN `__i` % 2 = 0 THEN nodes({_PATH})[`__i` / 2]"
            f" ELSE relationships({_PATH})[`__i` / 2] END] ELSE [__a0] END")
"""APOC's list of a value (`ConvertUtils.convertToList`): a list as it is, a path as its nodes and relationships
in order (a path is an `Iterable` of its elements), anything else a list of that one value. The path branch
reads the argument as `_PATH`, the first of a list of mixed types and so typed ANY: every branch of a CASE is
bound, and `length()` of an argument known to be a list would be a type error where the guard rules the
branch out."""

_TYPES_MATCH = ("coalesce(__a1, '') = '' OR any(`__t` IN split(__a1, '|') WHERE"
                " trim(replace(replace(replace(`__t`, '<', ''), '>', ''), ':', '')) IN ['', type(`__r`)] AND"
                " CASE WHEN `__t` CONTAINS '<' THEN endNode(`__r`) = __a0 WHEN `__t` CONTAINS '>'"
                " THEN startNode(`__r`) = __a0 ELSE true END)")
"""APOC's rel-direction-pattern `[<]TYPE[>]|...` (RelationshipTypeAndDirections) over relationship `__r` of
node `__a0`: an empty pattern, or an entry without a type, takes every type."""

DEFINITIONS: dict[str, tuple[int, int | None, str]] = {
    # apoc.coll: lists
    "apoc.coll.sum": (1, None, f"CASE WHEN size(__a0) = 0 THEN null"
                               f" ELSE reduce(`__s` = 0.0, `__x` IN {_NON_NULL} | `__s` + `__x`) END"),
    "apoc.coll.avg": (1, None, f"CASE WHEN size({_NON_NULL}) = 0 THEN null"
                               f" ELSE reduce(`__s` = 0.0, `__x` IN {_NON_NULL} | `__s` + `__x`)"
                               f" / size({_NON_NULL}) END"),
    "apoc.coll.max": (1, None, "coll.max(__a0)"),
    "apoc.coll.min": (1, None, "coll.min(__a0)"),
    "apoc.coll.sort": (1, None, "coll.sort(__a0)"),
    "apoc.coll.toset": (1, None, "coll.distinct(__a0)"),
    "apoc.coll.reverse": (1, None, "reverse(__a0)"),
    "apoc.coll.indexof": (2, None, "coll.indexOf(__a0, __a1)"),
    "apoc.coll.contains": (2, None, "any(`__x` IN __a0 WHERE `__x` = __a1)"),
    "apoc.coll.containsall": (2, None, "all(`__y` IN __a1 WHERE any(`__x` IN __a0 WHERE `__x` = `__y`))"),
    "apoc.coll.flatten": (1, 2, "CASE WHEN coalesce(__a1, false) THEN coll.flatten(__a0, 32)"
                                " ELSE coll.flatten(__a0) END"),
    "apoc.coll.union": (2, None, "coll.distinct(__a0 + __a1)"),
    "apoc.coll.unionall": (2, None, "__a0 + __a1"),
    "apoc.coll.intersection": (2, None, "coll.distinct([`__x` IN __a0 WHERE `__x` IN __a1])"),
    "apoc.coll.subtract": (2, None, "coll.distinct([`__x` IN __a0 WHERE NOT `__x` IN __a1])"),
    "apoc.coll.removeall": (2, None, "[`__x` IN __a0 WHERE NOT `__x` IN __a1]"),
    "apoc.coll.occurrences": (2, None, "size([`__x` IN __a0 WHERE `__x` = __a1])"),
    "apoc.coll.zip": (2, None, "[`__i` IN range(0, size(__a0) - 1) | [__a0[`__i`], __a1[`__i`]]]"),
    "apoc.coll.pairs": (1, None, "[`__i` IN range(0, size(__a0) - 1) | [__a0[`__i`], __a0[`__i` + 1]]]"),
    "apoc.coll.pairsmin": (1, None, "[`__i` IN range(0, size(__a0) - 2) | [__a0[`__i`], __a0[`__i` + 1]]]"),
    "apoc.coll.partition": (2, None, "[`__i` IN range(0, size(__a0) - 1, __a1) | __a0[`__i`..`__i` + __a1]]"),
    "apoc.coll.duplicates": (1, None, "coll.distinct([`__x` IN __a0 WHERE size([`__y` IN __a0 WHERE `__y` = `__x`])"
                                      " > 1])"),
    "apoc.coll.duplicateswithcount": (1, None, "[`__x` IN coll.distinct(__a0) WHERE size([`__y` IN __a0 WHERE"
                                               " `__y` = `__x`]) > 1 | {item: `__x`, count: size([`__y` IN __a0"
                                               " WHERE `__y` = `__x`])}]"),
    "apoc.coll.frequencies": (1, None, "[`__x` IN coll.distinct(__a0) | {item: `__x`, count: size([`__y` IN __a0"
                                       " WHERE `__y` = `__x`])}]"),
    "apoc.coll.different": (1, None, "size(coll.distinct(__a0)) = size(__a0)"),
    "apoc.coll.dropduplicateneighbors": (1, None, "[`__i` IN range(0, size(__a0) - 1) WHERE `__i` = 0 OR"
                                                  " __a0[`__i`] <> __a0[`__i` - 1] | __a0[`__i`]]"),
    "apoc.coll.fill": (2, None, "[`__i` IN range(1, __a1) | __a0]"),
    "apoc.coll.remove": (2, 3, "__a0[..__a1] + __a0[__a1 + coalesce(__a2, 1)..]"),
    "apoc.coll.insert": (3, None, "coll.insert(__a0, __a1, __a2)"),
    "apoc.coll.insertall": (3, None, "__a0[..__a1] + __a2 + __a0[__a1..]"),
    "apoc.coll.set": (3, None, "__a0[..__a1] + [__a2] + __a0[__a1 + 1..]"),
    "apoc.coll.isequalcollection": (2, None, "coll.sort(__a0) = coll.sort(__a1)"),
    "apoc.coll.sumlongs": (1, None, f"reduce(`__s` = 0, `__x` IN {_NON_NULL} | `__s` + toInteger(`__x`))"),
    "apoc.coll.randomitem": (1, None, "__a0[toInteger(rand() * size(__a0))]"),
    # APOC's order (Coll.compare, stable: equal values keep their places; descending unless the key starts
    # with '^') of each node's property, read row by row in a subquery (not inside a list expression)
    "apoc.coll.sortnodes": (2, None, "CASE WHEN __a0 IS NULL OR size(__a0) = 0 THEN [] ELSE [`__m` IN"
                                     " apoc.coll.sortMulti(COLLECT { UNWIND range(0, size(__a0) - 1) AS `__i`"
                                     " RETURN {v: __a0[`__i`][CASE WHEN __a1 STARTS WITH '^' THEN substring(__a1, 1)"
                                     " ELSE __a1 END], i: `__i`} }, [CASE WHEN __a1 STARTS WITH '^' THEN '^v'"
                                     " ELSE 'v' END, '^i']) | __a0[`__m`.i]] END"),
    # apoc.text: strings
    "apoc.text.join": (2, None, "CASE WHEN __a0 IS NULL THEN null WHEN size(__a0) = 0 THEN ''"
                                " ELSE reduce(`__s` = toString(head(__a0)), `__x` IN tail(__a0) |"
                                " `__s` + __a1 + toString(`__x`)) END"),
    # APOC's compareCleaned: false (not null) when either text is null
    "apoc.text.comparecleaned": (2, None, "CASE WHEN __a0 IS NULL OR __a1 IS NULL THEN false"
                                          " ELSE apoc.text.clean(__a0) = apoc.text.clean(__a1) END"),
    "apoc.text.capitalize": (1, None, "toUpper(left(__a0, 1)) + substring(__a0, 1)"),
    "apoc.text.decapitalize": (1, None, "toLower(left(__a0, 1)) + substring(__a0, 1)"),
    "apoc.text.lpad": (2, 3, "CASE WHEN size(__a0) >= __a1 THEN __a0 ELSE reduce(`__s` = '', `__i` IN"
                             " range(1, __a1 - size(__a0)) | `__s` + coalesce(__a2, ' ')) + __a0 END"),
    "apoc.text.rpad": (2, 3, "CASE WHEN size(__a0) >= __a1 THEN __a0 ELSE __a0 + reduce(`__s` = '', `__i` IN"
                             " range(1, __a1 - size(__a0)) | `__s` + coalesce(__a2, ' ')) END"),
    "apoc.text.repeat": (2, None, "reduce(`__s` = '', `__i` IN range(1, __a1) | `__s` + __a0)"),
    # elements and values
    "apoc.node.labels": (1, None, "labels(__a0)"),
    "apoc.node.id": (1, None, "id(__a0)"),
    "apoc.rel.type": (1, None, "type(__a0)"),
    "apoc.rel.id": (1, None, "id(__a0)"),
    "apoc.rel.startnode": (1, None, "startNode(__a0)"),
    "apoc.rel.endnode": (1, None, "endNode(__a0)"),
    "apoc.any.properties": (1, 2, "CASE WHEN __a1 IS NULL THEN properties(__a0) ELSE apoc.map.fromPairs("
                                  "[`__k` IN __a1 WHERE `__k` IN keys(__a0) | [`__k`, __a0[`__k`]]]) END"),
    "apoc.convert.tolist": (1, None, _TO_LIST),
    "apoc.convert.toset": (1, None, f"coll.distinct({_TO_LIST})"),
    "apoc.convert.tointlist": (1, None, "toIntegerList(__a0)"),
    "apoc.convert.tostringlist": (1, None, "toStringList(__a0)"),
    "apoc.convert.tobooleanlist": (1, None, "toBooleanList(__a0)"),
    "apoc.math.maxlong": (0, None, "9223372036854775807"),
    "apoc.math.minlong": (0, None, "-9223372036854775807 - 1"),
    "apoc.math.maxint": (0, None, "2147483647"),
    "apoc.math.minint": (0, None, "-2147483648"),
    "apoc.any.property": (2, None, "__a0[__a1]"),
    "apoc.convert.tostring": (1, None, "toString(__a0)"),
    "apoc.convert.tointeger": (1, None, "toInteger(__a0)"),
    "apoc.convert.tofloat": (1, None, "toFloat(__a0)"),
    "apoc.convert.toboolean": (1, None, "toBoolean(__a0)"),
    "apoc.date.currenttimestamp": (0, None, "timestamp()"),
    "apoc.date.systemtimezone": (0, None, "'UTC'"),  # the engine's zone, as its other defaults (ADR-0076)
    "apoc.create.uuid": (0, None, "randomUUID()"),
    "apoc.node.degree": (1, 2, "COUNT { (__a0)-[`__r`]-() WHERE any(`__p` IN split(coalesce(__a1, ''), '|') WHERE"
                               " trim(replace(replace(`__p`, '>', ''), '<', '')) IN ['', type(`__r`)] AND"
                               " CASE WHEN `__p` ENDS WITH '>' THEN startNode(`__r`) = __a0"
                               " WHEN `__p` STARTS WITH '<' THEN endNode(`__r`) = __a0 ELSE true END) }"),
    "apoc.label.exists": (2, None, "__a0:$(__a1)"),
    # APOC Core's further functions (docs/CYPHER25.md lists them)
    "apoc.math.round": (1, 3, "round(toFloat(__a0), coalesce(__a1, 0), coalesce(__a2, 'HALF_UP'))"),
    "apoc.math.maxbyte": (0, None, "127"),
    "apoc.math.minbyte": (0, None, "-128"),
    "apoc.math.maxdouble": (0, None, "1.7976931348623157E308"),
    "apoc.math.mindouble": (0, None, "4.9E-324"),
    "apoc.math.sigmoid": (1, None, "1.0 / (1.0 + exp(-__a0))"),
    "apoc.math.sigmoidprime": (1, None, "(1.0 / (1.0 + exp(-__a0))) * (1 - 1.0 / (1.0 + exp(-__a0)))"),
    "apoc.node.relationship.exists": (1, 2, f"CASE WHEN __a0 IS NULL THEN null ELSE EXISTS {{ (__a0)-[`__r`]-()"
                                            f" WHERE {_TYPES_MATCH} }} END"),
    "apoc.node.relationship.types": (1, 2, f"CASE WHEN __a0 IS NULL THEN null ELSE coll.distinct([`__p` IN"
                                           f" coll.sort([(__a0)-[`__r`]-() WHERE {_TYPES_MATCH} | [id(`__r`),"
                                           " type(`__r`)]]) | `__p`[1]]) END"),
    "apoc.node.degree.in": (1, 2, "COUNT { (__a0)<-[`__r`]-() WHERE coalesce(__a1, '') = '' OR type(`__r`) = __a1 }"),
    "apoc.node.degree.out": (1, 2, "COUNT { (__a0)-[`__r`]->() WHERE coalesce(__a1, '') = '' OR type(`__r`) = __a1 }"),
    "apoc.nodes.connected": (2, 3, "CASE WHEN __a0 IS NULL OR __a1 IS NULL THEN false WHEN __a0 = __a1 THEN true"
                                   " ELSE EXISTS { (__a0)-[`__r`]-(__a1) WHERE "
                                   + _TYPES_MATCH.replace("__a1", "__a2") + " } END"),
    "apoc.text.distance": (2, None, "apoc.text.levenshteinDistance(__a0, __a1)"),
    "apoc.text.levenshteinsimilarity": (2, None, "CASE WHEN __a0 IS NULL OR __a1 IS NULL THEN null"
                                                 " WHEN size(__a0) = 0 AND size(__a1) = 0 THEN 1.0"
                                                 " ELSE toFloat(coll.max([size(__a0), size(__a1)])"
                                                 " - apoc.text.levenshteinDistance(__a0, __a1))"
                                                 " / coll.max([size(__a0), size(__a1)]) END"),
    "apoc.text.fuzzymatch": (2, None, "CASE WHEN __a0 IS NULL OR __a1 IS NULL THEN null"
                                      " ELSE apoc.text.levenshteinDistance(__a0, __a1) <= CASE WHEN size(__a0) < 3"
                                      " THEN 0 WHEN size(__a0) < 5 THEN 1 ELSE 2 END END"),
    "apoc.text.regreplace": (3, None, "apoc.text.replace(__a0, __a1, __a2)"),
    "apoc.map.setentry": (3, None, "apoc.map.setKey(__a0, __a1, __a2)"),
    # the nodes of a label by the text of a property (Java's toString: a later node of the same text wins)
    "apoc.map.fromnodes": (2, None, "apoc.map.fromPairs(COLLECT { MATCH (`__n`:$(__a0)) WHERE `__n`[__a1] IS NOT"
                                    " NULL RETURN [toString(`__n`[__a1]), `__n`] ORDER BY id(`__n`) })"),
    "apoc.map.setpairs": (2, None, "apoc.map.merge(__a0, apoc.map.fromPairs(__a1))"),
    "apoc.map.setlists": (3, None, "apoc.map.merge(__a0, apoc.map.fromLists(__a1, __a2))"),
    "apoc.map.fromvalues": (1, None, "CASE WHEN __a0 IS NULL THEN {} ELSE apoc.map.fromPairs([`__i` IN"
                                     " range(0, size(__a0) - 1, 2) | [__a0[`__i`], __a0[`__i` + 1]]]) END"),
    "apoc.map.setvalues": (2, None, "apoc.map.merge(__a0, apoc.map.fromValues(__a1))"),
    "apoc.map.values": (2, 3, "CASE WHEN __a1 IS NULL OR size(__a1) = 0 THEN [] ELSE [`__k` IN __a1 WHERE"
                              " coalesce(__a2, false) OR `__k` IN keys(__a0) | __a0[`__k`]] END"),
    "apoc.map.mergelist": (1, None, "CASE WHEN __a0 IS NULL THEN null ELSE reduce(`__m` = {}, `__x` IN __a0 |"
                                    " apoc.map.merge(`__m`, `__x`)) END"),
    "apoc.map.groupby": (2, None, "CASE WHEN __a0 IS NULL THEN null ELSE apoc.map.fromPairs([`__i` IN"
                                  " range(0, size(__a0) - 1) WHERE __a0[`__i`][__a1] IS NOT NULL AND NOT any(`__j` IN"
                                  " range(`__i` + 1, size(__a0) - 1) WHERE toString(__a0[`__j`][__a1]) ="
                                  " toString(__a0[`__i`][__a1])) | [toString(__a0[`__i`][__a1]), __a0[`__i`]]]) END"),
    "apoc.map.groupbymulti": (2, None, "CASE WHEN __a0 IS NULL THEN null ELSE apoc.map.fromPairs([`__k` IN"
                                       " coll.distinct([`__x` IN __a0 WHERE `__x`[__a1] IS NOT NULL |"
                                       " toString(`__x`[__a1])]) | [`__k`, [`__x` IN __a0 WHERE"
                                       " toString(`__x`[__a1]) = `__k`]]]) END"),
    "apoc.map.clean": (3, None, "apoc.map.fromPairs([`__k` IN keys(__a0) WHERE NOT `__k` IN __a1 AND"
                                " __a0[`__k`] IS NOT NULL AND NOT any(`__v` IN __a2 WHERE `__v` = __a0[`__k`] AND"
                                " valueType(`__v`) = valueType(__a0[`__k`])) AND NOT ((__a0[`__k`] IS :: INTEGER OR"
                                " __a0[`__k`] IS :: FLOAT OR __a0[`__k`] IS :: BOOLEAN) AND"
                                " toString(__a0[`__k`]) IN __a2) | [`__k`, __a0[`__k`]]])"),
    "apoc.coll.containsduplicates": (1, None, "CASE WHEN __a0 IS NULL THEN false"
                                              " ELSE size(coll.distinct(__a0)) < size(__a0) END"),
    "apoc.coll.disjunction": (2, None, "CASE WHEN __a0 IS NULL THEN __a1 WHEN __a1 IS NULL THEN __a0"
                                       " ELSE coll.distinct([`__x` IN __a0 WHERE NOT `__x` IN __a1]"
                                       " + [`__x` IN __a1 WHERE NOT `__x` IN __a0]) END"),
    "apoc.coll.frequenciesasmap": (1, None, "CASE WHEN __a0 IS NULL THEN {} ELSE apoc.map.fromPairs([`__x` IN"
                                            " coll.distinct(__a0) | [toString(`__x`), size([`__y` IN __a0 WHERE"
                                            " `__y` = `__x`])]]) END"),
    "apoc.coll.pairwithoffset": (2, None, "CASE WHEN __a0 IS NULL THEN null ELSE [`__i` IN range(0, size(__a0) - 1)"
                                          " | [__a0[`__i`], CASE WHEN `__i` + __a1 >= 0 THEN __a0[`__i` + __a1]"
                                          " END]] END"),
    "apoc.coll.runningtotal": (1, None, "CASE WHEN __a0 IS NULL OR size(__a0) = 0 THEN null ELSE [`__s` IN"
                                        " [`__i` IN range(0, size(__a0) - 1) | reduce(`__t` = 0.0, `__x` IN"
                                        " __a0[0..`__i` + 1] | `__t` + `__x`)] | CASE WHEN `__s` ="
                                        " toInteger(`__s`) THEN toInteger(`__s`) ELSE `__s` END] END"),
}
"""Lower-case name → (least arguments, most arguments (None: the least), the body)."""


def macros() -> dict[str, FunctionMacro]:
    """The function macros of `DEFINITIONS`."""
    return parse_macros(DEFINITIONS)


# -- apoc.map: maps whose keys come from the data, compiled to SQL over `{key, value}` entries ----------------

def _entries(c: ExpressionCompiler, argument: b.BoundExpression) -> str:
    """A map's (or element's) entries, [] for null."""
    return f"coalesce({c.entries(argument)}, [])"


def _without(entries: str, keys: str) -> str:
    """`entries` but those whose key is in `keys` (VARCHAR[])."""
    return f"list_filter({entries}, lambda x: NOT list_contains({keys}, x.key))"


def _merge(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.map.merge(a, b): a's entries, b's replacing those of the same key."""
    return let([_entries(c, f.arguments[0]), _entries(c, f.arguments[1])], lambda first, second: map_of_entries(
        f"list_concat({_without(first, f'list_transform({second}, lambda y: y.key)')}, {second})"))


def _set_key(c: ExpressionCompiler, f: b.BFunction) -> str:
    subject, key, value = f.arguments
    return let([_entries(c, subject), c.string(key), c.variant(value)], lambda entries, name, item: map_of_entries(
        f"list_concat({_without(entries, f'[{name}]')}, [{{'key': {name}, 'value': {item}}}])"))


def _flat_only(f: b.BFunction) -> None:
    """removeKey / removeKeys take a config whose `recursive: true` also removes the keys from nested maps;
    the engine removes them from the top level only, so it refuses that config rather than answer so."""
    if len(f.arguments) < 3:
        return
    config = f.arguments[2]
    recursive = dict(config.entries).get("recursive") if isinstance(config, b.BMap) else config
    flat = recursive is None or (isinstance(recursive, b.BLiteral) and recursive.value in (False, None))
    if not (config.type.kind is t.Kind.NULL or flat):
        raise UnsupportedFeature(f"{f.name}() with a config other than {{recursive: false}} (nested maps)", f.span)


def _remove_key(c: ExpressionCompiler, f: b.BFunction) -> str:
    _flat_only(f)
    return let([_entries(c, f.arguments[0]), c.string(f.arguments[1])], lambda entries, name: map_of_entries(
        _without(entries, f"[{name}]")))


def _strings(c: ExpressionCompiler, argument: b.BoundExpression) -> str:
    """A list argument as VARCHAR[] (its elements' text)."""
    items, element = c.list_value(argument)
    return f"list_transform({convert(items, t.list_of(element), t.ANY_LIST)}, lambda x: x::VARCHAR)"


def _remove_keys(c: ExpressionCompiler, f: b.BFunction) -> str:
    _flat_only(f)
    return let([_entries(c, f.arguments[0]), _strings(c, f.arguments[1])], lambda entries, names: map_of_entries(
        _without(entries, names)))


def _submap(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.map.submap(map, keys, defaults = null, fail = true): the entries of `keys`; a key the map lacks
    takes the default at its position, or, without defaults, is an error (null when `fail` is false)."""
    subject, keys = f.arguments[:2]
    defaults = f.arguments[2] if len(f.arguments) > 2 else None
    fail = c.boolean(f.arguments[3]) if len(f.arguments) > 3 else "true"
    given = "(NULL::VARIANT[])"
    if defaults is not None and defaults.type.kind is not t.Kind.NULL:
        items, element = c.list_value(defaults)
        given = f"({convert(items, t.list_of(element), t.ANY_LIST)})"

    def build(entries: str, names: str, values: str, failing: str) -> str:
        present = f"list_transform({entries}, lambda x: x.key)"
        missing = f"list_filter(range(1, len({names}) + 1), lambda i: NOT list_contains({present}, {names}[i]))"
        refused = error_sql("ArgumentError", "InvalidArgumentValue",
                            f"'Key ' || {names}[{missing}[1]] || ' is not of one of the existing keys ['"
                            f" || array_to_string({present}, ', ') || ']'")
        defaulted = f"list_transform({missing}, lambda i: {{'key': {names}[i], 'value': {values}[i]}})"
        found = f"list_filter({entries}, lambda x: list_contains({names}, x.key))"
        return (f"CASE WHEN len({missing}) > 0 AND coalesce(len({values}), 0) = 0 AND {failing} THEN {refused}"
                f" ELSE {map_of_entries(f'list_concat({found}, {defaulted})')} END")

    return let([_entries(c, subject), _strings(c, keys), given, fail], build)


def _from_pairs(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.map.fromPairs([[key, value], ...])."""
    items, element = c.list_value(f.arguments[0])
    pairs = convert(items, t.list_of(element), t.ANY_LIST)
    return let([pairs], lambda values: map_of_entries(
        f"list_transform({values}, lambda p: {{'key': cy_list(p)[1]::VARCHAR, 'value': cy_list(p)[2]}})"))


def _from_lists(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.map.fromLists(keys, values): the i-th key to the i-th value."""
    items, element = c.list_value(f.arguments[1])
    values = convert(items, t.list_of(element), t.ANY_LIST)
    return let([_strings(c, f.arguments[0]), values], lambda names, found: map_of_entries(
        f"list_transform(range(1, len({names}) + 1), lambda i: {{'key': {names}[i], 'value': {found}[i]}})"))


def _digest(sql_function: str) -> Callable[[ExpressionCompiler, b.BFunction], str]:
    """apoc.util.md5 / sha1 / sha256 of a list of values: the hex digest of their text, joined."""
    def build(c: ExpressionCompiler, f: b.BFunction) -> str:
        items, element = c.list_value(f.arguments[0])
        values = convert(items, t.list_of(element), t.ANY_LIST)
        return f"{sql_function}(array_to_string(list_transform({values}, lambda x: x::VARCHAR), ''))"
    return build


def _text_clean(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.text.clean: lower case, letters and digits only."""
    return f"regexp_replace(lower({c.string(f.arguments[0])}), '[^\\p{{L}}\\p{{N}}]', '', 'g')"


def _text_split(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.text.split(text, regex): the parts between matches of the regular expression."""
    return f"string_split_regex({c.string(f.arguments[0])}, {c.string(f.arguments[1])})"


def _text_replace(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.text.replace(text, regex, replacement): every match replaced; `$1` in the replacement (Java's group
    reference) is the first group."""
    text, pattern, replacement = (c.string(argument) for argument in f.arguments)
    groups = f"regexp_replace({replacement}, '\\$([0-9])', '\\\\\\1', 'g')"
    return f"regexp_replace({text}, {pattern}, {groups}, 'g')"


def _hamming_distance(c: ExpressionCompiler, f: b.BFunction) -> str:
    """apoc.text.hammingDistance(text1, text2): strings of different lengths are an argument error, as APOC's
    "CharSequences must have the same length" (DuckDB's own refusal would surface as an internal error)."""
    return let([c.string(argument) for argument in f.arguments], lambda first, second: (
        f"CASE WHEN length({first}) <> length({second}) THEN "
        + error_sql("ArgumentError", "InvalidArgumentValue",
                    "'apoc.text.hammingDistance() needs strings of the same length, got lengths ' || "
                    f"length({first}) || ' and ' || length({second})")
        + f" ELSE hamming({first}, {second}) END"))


SIGNATURES = [
    ("apoc.map.merge", 2, 2, t.MAP), ("apoc.map.setkey", 3, 3, t.MAP), ("apoc.map.removekey", 2, 3, t.MAP),
    ("apoc.map.removekeys", 2, 3, t.MAP), ("apoc.map.submap", 2, 4, t.MAP), ("apoc.map.frompairs", 1, 1, t.MAP),
    ("apoc.map.fromlists", 2, 2, t.MAP), ("apoc.util.md5", 1, 1, t.STRING), ("apoc.util.sha1", 1, 1, t.STRING),
    ("apoc.util.sha256", 1, 1, t.STRING), ("apoc.text.split", 2, 2, t.list_of(t.STRING)),
    ("apoc.text.replace", 3, 3, t.STRING), ("apoc.text.clean", 1, 1, t.STRING),
    ("apoc.text.levenshteindistance", 2, 2, t.INTEGER), ("apoc.text.hammingdistance", 2, 2, t.INTEGER),
]
"""The SQL-compiled APOC functions: (lower-case name, least and most arguments, result type)."""

FUNCTIONS: dict[str, Callable[[ExpressionCompiler, b.BFunction], str]] = {
    "apoc.map.merge": _merge, "apoc.map.setkey": _set_key, "apoc.map.removekey": _remove_key,
    "apoc.map.removekeys": _remove_keys, "apoc.map.submap": _submap, "apoc.map.frompairs": _from_pairs,
    "apoc.map.fromlists": _from_lists, "apoc.util.md5": _digest("md5"), "apoc.util.sha1": _digest("sha1"),
    "apoc.util.sha256": _digest("sha256"), "apoc.text.split": _text_split, "apoc.text.replace": _text_replace,
    "apoc.text.clean": _text_clean,
    "apoc.text.levenshteindistance": lambda c, f: f"levenshtein({', '.join(map(c.string, f.arguments))})",
    "apoc.text.hammingdistance": _hamming_distance,
}
