"""Signatures of the built-in functions: arity and the static type of the result.

The SQL for each function lives in `engine.sqlgen.functions` under the same canonical (lower-case) name;
a test checks the two tables name the same functions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import types as t
from engine.types import CypherType, Kind, is_variant

ReturnRule = Callable[[Sequence[CypherType]], CypherType]


def fixed(result: CypherType) -> ReturnRule:
    return lambda _args: result


def element_of_first(args: Sequence[CypherType]) -> CypherType:
    first = args[0] if args else t.ANY
    return (first.element or t.ANY) if first.kind is Kind.LIST else t.ANY


def _path_parts(element: CypherType) -> ReturnRule:
    """`nodes()` / `relationships()`: of a path the stored elements (ids); of a value only known at run time,
    which may be a path of virtual elements (ADR-0087), values that carry themselves."""
    def rule(arguments: Sequence[CypherType]) -> CypherType:
        return t.list_of(t.ANY if arguments and is_variant(arguments[0]) else element)
    return rule


def like_first(*kinds: Kind) -> ReturnRule:
    """The first argument's type when it is one of `kinds` (or null), else ANY: for functions whose SQL keeps
    the representation of those kinds and gives a VARIANT for a value only known at run time."""
    def rule(args: Sequence[CypherType]) -> CypherType:
        first = args[0] if args else t.ANY
        return first if first.kind in (*kinds, Kind.NULL) else t.ANY
    return rule


def end_node(args: Sequence[CypherType]) -> CypherType:
    """startNode() / endNode(): a node, but of a value only known at run time a VARIANT one, which a virtual
    relationship's virtual end can be (ADR-0071)."""
    first = args[0] if args else t.ANY
    return t.NODE if first.kind in (Kind.RELATIONSHIP, Kind.NULL) else t.ANY


NATIVE_ELEMENT_KINDS = frozenset({Kind.INTEGER, Kind.FLOAT, Kind.STRING, Kind.BOOLEAN})
"""List elements whose SQL order and equality are Cypher's within one list (the `coll.*` functions compare
such lists natively: sqlgen/collections.py)."""


def native_list(args: Sequence[CypherType]) -> CypherType:
    """The first argument's type when it is a list of one native element type, else a list of ANY (or ANY
    for a value not known to be a list)."""
    first = args[0] if args else t.ANY
    if first.kind is Kind.LIST:
        return first if first.element is not None and first.element.kind in NATIVE_ELEMENT_KINDS else t.ANY_LIST
    return t.ANY


def native_element(args: Sequence[CypherType]) -> CypherType:
    """The element type of a list of one native element type, else ANY."""
    first = args[0] if args else t.ANY
    element = first.element if first.kind is Kind.LIST else None
    return element if element is not None and element.kind in NATIVE_ELEMENT_KINDS else t.ANY


def numeric_like_first(args: Sequence[CypherType]) -> CypherType:
    first = args[0] if args else t.ANY
    return first if first.kind in (Kind.INTEGER, Kind.FLOAT) else t.ANY


def unify_arguments(args: Sequence[CypherType]) -> CypherType:
    return t.unify_all(list(args)) if args else t.NULL


@dataclass(frozen=True)
class FunctionSignature:
    name: str
    min_args: int
    max_args: int | None
    returns: ReturnRule
    accepts: tuple[frozenset[Kind] | None, ...] = ()
    """Per argument, the kinds it may have (None: any); a literal of another kind fails at compile time."""


def _temporal_signatures() -> list[tuple[str, int, int | None, ReturnRule]]:
    """`date(x)`, `date.transaction(zone)`, `date.truncate(unit[, value, fields])`, ... for each instant type,
    `datetime.fromepoch[millis]`, `duration(x)` and `duration.between/inMonths/inDays/inSeconds(a, b)`."""
    instants = {"date": t.DATE, "localtime": t.LOCAL_TIME, "time": t.ZONED_TIME,
                "localdatetime": t.LOCAL_DATETIME, "datetime": t.ZONED_DATETIME}
    entries: list[tuple[str, int, int | None, ReturnRule]] = []
    for name, result in instants.items():
        entries.append((name, 0, 1, fixed(result)))
        entries += [(f"{name}.{clock}", 0, 1, fixed(result)) for clock in ("transaction", "statement", "realtime")]
        entries.append((f"{name}.truncate", 1, 3, fixed(result)))
    entries += [("datetime.fromepoch", 2, 2, fixed(t.ZONED_DATETIME)),
                ("datetime.fromepochmillis", 1, 1, fixed(t.ZONED_DATETIME)),
                ("duration", 1, 1, fixed(t.DURATION)), ("format", 1, 2, fixed(t.STRING))]
    entries += [(f"duration.{mode}", 2, 2, fixed(t.DURATION))
                for mode in ("between", "inmonths", "indays", "inseconds")]
    return entries


TRIGONOMETRIC = ("sin", "cos", "tan", "cot", "asin", "acos", "atan", "degrees", "radians", "haversin")
"""The functions of one number in radians (or degrees) that give a float."""


def _signatures() -> dict[str, FunctionSignature]:
    entries: list[tuple[str, int, int | None, ReturnRule]] = [
        # strings
        ("tolower", 1, 1, fixed(t.STRING)), ("toupper", 1, 1, fixed(t.STRING)),
        ("lower", 1, 1, fixed(t.STRING)), ("upper", 1, 1, fixed(t.STRING)),
        ("trim", 1, 1, fixed(t.STRING)), ("ltrim", 1, 2, fixed(t.STRING)), ("rtrim", 1, 2, fixed(t.STRING)),
        ("btrim", 1, 2, fixed(t.STRING)), ("normalize", 1, 2, fixed(t.STRING)),
        ("replace", 3, 3, fixed(t.STRING)), ("substring", 2, 3, fixed(t.STRING)),
        ("left", 2, 2, fixed(t.STRING)), ("right", 2, 2, fixed(t.STRING)),
        ("split", 2, 2, fixed(t.list_of(t.STRING, null_free=True))),
        ("reverse", 1, 1, like_first(Kind.STRING, Kind.LIST)),
        ("tostring", 1, 1, fixed(t.STRING)), ("tostringornull", 1, 1, fixed(t.STRING)),
        # numbers
        ("tointeger", 1, 1, fixed(t.INTEGER)), ("tointegerornull", 1, 1, fixed(t.INTEGER)),
        ("tofloat", 1, 1, fixed(t.FLOAT)), ("tofloatornull", 1, 1, fixed(t.FLOAT)),
        ("toboolean", 1, 1, fixed(t.BOOLEAN)), ("tobooleanornull", 1, 1, fixed(t.BOOLEAN)),
        ("abs", 1, 1, numeric_like_first), ("sign", 1, 1, fixed(t.INTEGER)),
        ("ceil", 1, 1, fixed(t.FLOAT)), ("floor", 1, 1, fixed(t.FLOAT)), ("round", 1, 3, fixed(t.FLOAT)),
        ("sqrt", 1, 1, fixed(t.FLOAT)), ("exp", 1, 1, fixed(t.FLOAT)), ("log", 1, 1, fixed(t.FLOAT)),
        ("log10", 1, 1, fixed(t.FLOAT)), ("rand", 0, 0, fixed(t.FLOAT)),
        *((name, 1, 1, fixed(t.FLOAT)) for name in TRIGONOMETRIC), ("atan2", 2, 2, fixed(t.FLOAT)),
        ("pi", 0, 0, fixed(t.FLOAT)), ("e", 0, 0, fixed(t.FLOAT)), ("isnan", 1, 1, fixed(t.BOOLEAN)),
        ("char_length", 1, 1, fixed(t.INTEGER)), ("character_length", 1, 1, fixed(t.INTEGER)),
        ("randomuuid", 0, 0, fixed(t.STRING)), ("valuetype", 1, 1, fixed(t.STRING)),
        ("graph.names", 0, 0, fixed(t.list_of(t.STRING))), ("graph.propertiesbyname", 1, 1, fixed(t.MAP)),
        # lists and maps
        ("size", 1, 1, fixed(t.INTEGER)), ("length", 1, 1, fixed(t.INTEGER)),
        ("head", 1, 1, element_of_first), ("last", 1, 1, element_of_first), ("tail", 1, 1, like_first(Kind.LIST)),
        ("range", 2, 3, fixed(t.list_of(t.INTEGER, null_free=True))),
        ("keys", 1, 1, fixed(t.list_of(t.STRING, null_free=True))),
        ("coalesce", 1, None, unify_arguments), ("isempty", 1, 1, fixed(t.BOOLEAN)),
        ("nullif", 2, 2, lambda args: args[0]),
        # Cypher 25 collection functions (sqlgen/collections.py)
        ("coll.sort", 1, 1, native_list), ("coll.distinct", 1, 1, native_list),
        ("coll.max", 1, 1, native_element), ("coll.min", 1, 1, native_element),
        ("coll.indexof", 2, 2, fixed(t.INTEGER)), ("coll.insert", 3, 3, fixed(t.ANY_LIST)),
        ("coll.remove", 2, 2, fixed(t.ANY_LIST)), ("coll.flatten", 1, 2, fixed(t.ANY_LIST)),
        # graph
        ("labels", 1, 1, fixed(t.list_of(t.STRING, null_free=True))), ("type", 1, 1, fixed(t.STRING)),
        ("id", 1, 1, fixed(t.INTEGER)), ("elementid", 1, 1, fixed(t.STRING)),
        ("properties", 1, 1, fixed(t.MAP)),
        ("startnode", 1, 1, end_node), ("endnode", 1, 1, end_node),
        ("nodes", 1, 1, _path_parts(t.NODE)), ("relationships", 1, 1, _path_parts(t.RELATIONSHIP)),
        # temporal (ADR-0014)
        ("timestamp", 0, 0, fixed(t.INTEGER)),
        *_temporal_signatures(),
        # spatial (ADR-0065)
        ("point", 1, 1, fixed(t.POINT)), ("point.distance", 2, 2, fixed(t.FLOAT)),
        ("point.withinbbox", 3, 3, fixed(t.BOOLEAN)),
    ]
    return {name: FunctionSignature(name, low, high, rule, ARGUMENT_KINDS.get(name, ()))
            for name, low, high, rule in entries}


STRING_KINDS = frozenset({Kind.STRING})
INTEGER_KINDS = frozenset({Kind.INTEGER})
NUMBER_KINDS = frozenset({Kind.INTEGER, Kind.FLOAT})
ARGUMENT_KINDS: dict[str, tuple[frozenset[Kind] | None, ...]] = {
    "properties": (frozenset({Kind.MAP, Kind.NODE, Kind.RELATIONSHIP}),),
    "keys": (frozenset({Kind.MAP, Kind.NODE, Kind.RELATIONSHIP}),),
    "labels": (frozenset({Kind.NODE}),),
    "type": (frozenset({Kind.RELATIONSHIP}),),
    "startnode": (frozenset({Kind.RELATIONSHIP}),),
    "endnode": (frozenset({Kind.RELATIONSHIP}),),
    "nodes": (frozenset({Kind.PATH}),),
    "relationships": (frozenset({Kind.PATH}),),
    "length": (frozenset({Kind.PATH}),),
    "size": (frozenset({Kind.STRING, Kind.LIST, Kind.VECTOR}),),
    "tolower": (STRING_KINDS,), "toupper": (STRING_KINDS,), "lower": (STRING_KINDS,), "upper": (STRING_KINDS,),
    "trim": (STRING_KINDS,), "ltrim": (STRING_KINDS, STRING_KINDS), "rtrim": (STRING_KINDS, STRING_KINDS),
    "btrim": (STRING_KINDS, STRING_KINDS), "normalize": (STRING_KINDS,),
    "split": (STRING_KINDS, frozenset({Kind.STRING, Kind.LIST})),
    "substring": (STRING_KINDS, INTEGER_KINDS, INTEGER_KINDS),
    "left": (STRING_KINDS, INTEGER_KINDS), "right": (STRING_KINDS, INTEGER_KINDS),
    "round": (NUMBER_KINDS, NUMBER_KINDS, STRING_KINDS), "replace": (STRING_KINDS, STRING_KINDS, STRING_KINDS),
    "head": (frozenset({Kind.LIST}),), "last": (frozenset({Kind.LIST}),), "tail": (frozenset({Kind.LIST}),),
    **{name: (frozenset({Kind.LIST}),) for name in ("coll.sort", "coll.distinct", "coll.max", "coll.min",
                                                     "coll.indexof", "coll.flatten")},
    "coll.insert": (frozenset({Kind.LIST}), INTEGER_KINDS), "coll.remove": (frozenset({Kind.LIST}), INTEGER_KINDS),
    "isempty": (frozenset({Kind.STRING, Kind.LIST, Kind.MAP}),),
    "id": (frozenset({Kind.NODE, Kind.RELATIONSHIP}),), "elementid": (frozenset({Kind.NODE, Kind.RELATIONSHIP}),),
    "reverse": (frozenset({Kind.STRING, Kind.LIST}),),
    "abs": (NUMBER_KINDS,), "sign": (NUMBER_KINDS,), "ceil": (NUMBER_KINDS,), "floor": (NUMBER_KINDS,),
    **{name: (NUMBER_KINDS,) for name in ("sin", "cos", "tan", "cot", "asin", "acos", "atan", "degrees",
                                          "radians", "haversin", "isnan", "exp", "log", "log10", "sqrt")},
    "format": (None, STRING_KINDS),
    "atan2": (NUMBER_KINDS, NUMBER_KINDS), "char_length": (STRING_KINDS,), "character_length": (STRING_KINDS,),
    # aggregates
    "sum": (NUMBER_KINDS | {Kind.DURATION},), "avg": (NUMBER_KINDS | {Kind.DURATION},),
    "stdev": (NUMBER_KINDS,), "stdevp": (NUMBER_KINDS,),
    "percentilecont": (NUMBER_KINDS, NUMBER_KINDS), "percentiledisc": (NUMBER_KINDS, NUMBER_KINDS),
    # spatial: point() takes a map (a node or relationship is one, by its properties), the others points
    "point": (frozenset({Kind.MAP, Kind.NODE, Kind.RELATIONSHIP}),),
    "point.distance": (frozenset({Kind.POINT}),) * 2, "point.withinbbox": (frozenset({Kind.POINT}),) * 3,
}


SIGNATURES: dict[str, FunctionSignature] = _signatures()

VIRTUAL_MAKERS: set[str] = set()
"""The functions (lower-case) that make a virtual node or relationship per call, each of which the binder gives
a `VirtualSite` (ADR-0074); filled by the feature packages that add them (APOC's `apoc.create.vNode`, ...)."""


def register_functions(entries: Sequence[tuple[Any, ...]]) -> None:
    """Functions a feature package adds (the vector functions): (lower-case name, least and most arguments,
    result type or rule[, the kinds each argument accepts]); registered by the composition root
    (engine/plugins)."""
    for name, low, high, result, *accepts in entries:
        rule = fixed(result) if isinstance(result, CypherType) else result
        SIGNATURES[name] = FunctionSignature(name, low, high, rule,
                                             accepts[0] if accepts else ARGUMENT_KINDS.get(name, ()))


@dataclass(frozen=True)
class KeywordArgument:
    """An argument written as a keyword, not an expression (`vector(v, 3, INT8)`, `vector_norm(v, EUCLIDEAN)`):
    the binder takes the bare name there as `names[word]`, a string literal, and refuses anything else."""

    position: int
    names: dict[str, str]
    """Each accepted word (upper case) → the canonical name the function's SQL reads."""
    what: str
    """What the argument is, for the error: `a coordinate type`."""


KEYWORD_ARGUMENTS: dict[str, KeywordArgument] = {}
"""Function (lower-case name) → its keyword argument; filled by the feature packages through the composition
root, as `register_functions` is."""

# Aggregating functions: name -> (arity, result rule from the argument type); the kinds each argument
# accepts are in ARGUMENT_KINDS.
AGGREGATES: dict[str, tuple[int, ReturnRule]] = {
    "count": (1, fixed(t.INTEGER)),
    "collect": (1, lambda args: t.list_of(args[0] if args[0].kind is not Kind.NULL else t.ANY, null_free=True)),
    # Over no rows (or only nulls) the sum is the integer 0 whatever the argument (Neo4j starts from it), so
    # only a sum of integers has one type.
    "sum": (1, lambda args: t.INTEGER if args[0].kind is Kind.INTEGER else t.ANY),
    # avg() of values whose type only the rows tell may be a duration as well as a float
    "avg": (1, lambda args: t.DURATION if args[0].kind is Kind.DURATION
            else t.FLOAT if args[0].kind in NUMBER_KINDS else t.ANY),
    "min": (1, lambda args: args[0]),
    "max": (1, lambda args: args[0]),
    "stdev": (1, fixed(t.FLOAT)),
    "stdevp": (1, fixed(t.FLOAT)),
    "percentilecont": (2, fixed(t.FLOAT)),
    "percentiledisc": (2, numeric_like_first),
}

AGGREGATE_LEAST_ARGUMENTS: dict[str, int] = {}
"""For aggregates whose trailing arguments may be left out (a feature package's): how many must be given;
the others take every one AGGREGATES names."""

ORDER_SENSITIVE_AGGREGATES: set[str] = {"collect"}
"""Aggregates whose value depends on the order of their input rows (plan/rules/order_demand.py keeps that
order for them); feature packages add theirs."""


def register_aggregates(entries: Sequence[tuple[str, int, int, ReturnRule, bool]]) -> None:
    """Aggregating functions a feature package adds (APOC's): (lower-case name, least and most arguments, the
    result rule, whether the value depends on the rows' order); registered by the composition root, which
    registers their SQL with `sqlgen.projection.register_aggregates`."""
    for name, low, high, rule, ordered in entries:
        AGGREGATES[name] = (high, rule)
        AGGREGATE_LEAST_ARGUMENTS[name] = low
        if ordered:
            ORDER_SENSITIVE_AGGREGATES.add(name)
