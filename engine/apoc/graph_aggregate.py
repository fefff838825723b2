"""`apoc.agg.graph(element)`: the distinct nodes and relationships of a group's values, as
`{nodes: [...], relationships: [...]}` (`apoc.agg.Graph`). APOC takes a node, a relationship (and its two
ends), a path (its nodes and relationships), and looks inside lists and maps for more; anything else adds
nothing.

Each row's value gives three id lists (nodes, a path's relationships, plain relationships) and the group
gathers them with `list`; the ends of the plain relationships are one subquery over the store per group.
A value only known at run time is looked into through its JSON text, where every element the engine keeps
in a VARIANT is a tagged object (`storage.encoding`), so lists and maps at any depth need no recursion. A
virtual element there is refused: the engine cannot keep it in the id lists.

APOC returns its hash sets' order, which is the ids' order while they are smaller than the set's table;
the engine sorts by id.
"""

from __future__ import annotations

from engine import types as t
from engine.semantic import bound as b
from engine.semantic.functions import ReturnRule, fixed
from engine.sqlgen.expressions import map_of_entries, to_variant
from engine.sqlgen.projection import AggregateSql
from engine.sqlgen.runtime import error_sql
from engine.types import Kind, is_variant

NO_IDS = "[]::BIGINT[]"
_JSON_TAG = '"\\\\u0001'
"""How the tag of an element starts in a VARIANT's JSON text, written as a regular expression: `"\\u0001`."""


def _tagged_ids(text: str, tag: str) -> str:
    """The ids of the elements tagged `tag` in JSON `text`."""
    return (f"list_transform(regexp_extract_all({text}, '{_JSON_TAG}{tag}\":(-?[0-9]+)', 1),"
            " lambda x: x::BIGINT)")


def _path_ids(text: str, field: int) -> str:
    """The node (`field` 1) or relationship (2) ids of the paths in JSON `text`."""
    pattern = _JSON_TAG + 'path":\\{"nodes":\\[([0-9,]*)\\],"rels":\\[([0-9,]*)\\]'
    lists = f"regexp_extract_all({text}, '{pattern}', {field})"
    return (f"flatten(list_transform({lists}, lambda l: list_transform(list_filter(string_split(l, ','),"
            " lambda x: x <> ''), lambda x: x::BIGINT)))")


def _row_ids(column: str, argument_type: t.CypherType) -> tuple[str, str, str]:
    """(node ids, path relationship ids, plain relationship ids) of one row's value, as BIGINT[]."""
    kind = argument_type.kind
    element = argument_type.element.kind if kind is Kind.LIST and argument_type.element is not None else None
    if kind is Kind.NODE:
        return f"[{column}]", NO_IDS, NO_IDS
    if kind is Kind.RELATIONSHIP:
        return NO_IDS, NO_IDS, f"[{column}]"
    if kind is Kind.PATH:
        return f"{column}.nodes", f"{column}.rels", NO_IDS
    if element is Kind.NODE:
        return column, NO_IDS, NO_IDS
    if element is Kind.RELATIONSHIP:
        return NO_IDS, NO_IDS, column
    if element is Kind.PATH:
        return (f"flatten(list_transform({column}, lambda p: p.nodes))",
                f"flatten(list_transform({column}, lambda p: p.rels))", NO_IDS)
    if not (is_variant(argument_type) or kind in (Kind.LIST, Kind.MAP)):
        return NO_IDS, NO_IDS, NO_IDS  # APOC adds nothing for a value that holds no element
    text = f"({to_variant(column, argument_type)})::JSON::VARCHAR"
    virtual = error_sql("UnsupportedFeature", "VirtualElement",
                        "'apoc.agg.graph() of a virtual node or relationship'")
    nodes = (f"CASE WHEN regexp_matches({text}, '{_JSON_TAG}v(node|rel)\"') THEN {virtual}"
             f" ELSE list_concat({_tagged_ids(text, 'node')}, {_path_ids(text, 1)}) END")
    return nodes, _path_ids(text, 2), _tagged_ids(text, "rel")


def _graph(aggregate: b.BAggregate, columns: list[str], distinct: str) -> str:
    column = columns[0]
    argument_type = aggregate.argument.type if aggregate.argument is not None else t.ANY

    def gathered(ids: str) -> str:
        return f"coalesce(flatten(list({ids}) FILTER (WHERE {column} IS NOT NULL{distinct})), {NO_IDS})"
    nodes, path_rels, plain_rels = (gathered(ids) for ids in _row_ids(column, argument_type))
    ends = f"coalesce((SELECT flatten(list([src, dst])) FROM rels WHERE list_contains({plain_rels}, id)), {NO_IDS})"
    node_ids = f"list_sort(list_distinct(list_concat({nodes}, {ends})))"
    rel_ids = f"list_sort(list_distinct(list_concat({path_rels}, {plain_rels})))"
    return map_of_entries(f"[{{'key': 'nodes', 'value': {to_variant(node_ids, t.list_of(t.NODE))}}},"
                          f" {{'key': 'relationships', 'value': {to_variant(rel_ids, t.list_of(t.RELATIONSHIP))}}}]")


BINDINGS: list[tuple[str, int, int, ReturnRule, bool]] = [("apoc.agg.graph", 1, 1, fixed(t.MAP), False)]
"""(lower-case name, least and most arguments, result type rule, whether the rows' order matters)."""

AGGREGATES = {"apoc.agg.graph": AggregateSql((), _graph)}
