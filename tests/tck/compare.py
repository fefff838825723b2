"""Engine values against expected TCK values, compared as values, never as text.

The rules are tck-api's (`CypherValue` equality):
- integers and floats are distinct kinds (`1` never equals `1.0`), and booleans are not integers;
- floats are equal as Python floats, with NaN equal to NaN. No tolerance: every float the TCK expects is
  exact or the nearest double of what the query computes (checked over all scenarios: sqrt(12.96) == 3.6,
  literals such as 3985764.3405892687 parse to the same double as the written 3985764.3405892686);
- nodes match on their set of labels and their properties, relationships on type and properties; ids never;
- paths match node by node and hop by hop, including each hop's direction;
- lists are ordered, unless the step says "ignoring element order for lists" (then every list, at any
  depth, is a multiset); maps match on their keys;
- temporal values: the TCK writes them as strings ('2015-07-21T21:40:32.142+01:00'), so an engine temporal
  value matches an expected string equal to its `str()`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import engine
from engine.values import TEMPORAL_TYPES
from tests.tck.values import ExpectedNode, ExpectedPath, ExpectedRelationship, format_value

Matcher = Callable[[Any, Any, bool], bool]


def matches(actual: Any, expected: Any, ordered_lists: bool = True) -> bool:
    """Whether one engine value is the expected value; dispatch on the expected value's exact type."""
    matcher = MATCHERS.get(type(expected))
    if matcher is None:
        raise TypeError(f"no rule to compare with an expected {type(expected).__name__}")
    return matcher(actual, expected, ordered_lists)


def _exact_type(kind: type) -> Matcher:
    """Scalars: same Python type (so True is not 1 and 1 is not 1.0) and equal."""
    return lambda actual, expected, _: type(actual) is kind and actual == expected


def _float(actual: Any, expected: float, _: bool) -> bool:
    if type(actual) is not float:
        return False
    return actual == expected or (math.isnan(actual) and math.isnan(expected))


def _string(actual: Any, expected: str, _: bool) -> bool:
    if isinstance(actual, TEMPORAL_TYPES):
        return str(actual) == expected
    return type(actual) is str and actual == expected


def _list(actual: Any, expected: list[Any], ordered_lists: bool) -> bool:
    if not isinstance(actual, list | tuple) or len(actual) != len(expected):
        return False
    if ordered_lists:
        return all(matches(item, want, ordered_lists) for item, want in zip(actual, expected, strict=True))
    missing, extra = match_multiset(list(actual), expected, lambda a, e: matches(a, e, ordered_lists))
    return not missing and not extra


def _map(actual: Any, expected: dict[str, Any], ordered_lists: bool) -> bool:
    return (isinstance(actual, dict) and actual.keys() == expected.keys()
            and all(matches(actual[key], want, ordered_lists) for key, want in expected.items()))


def _node(actual: Any, expected: ExpectedNode, ordered_lists: bool) -> bool:
    return (isinstance(actual, engine.Node) and frozenset(actual.labels) == expected.labels
            and _map(actual.properties, expected.properties, ordered_lists))


def _relationship(actual: Any, expected: ExpectedRelationship, ordered_lists: bool) -> bool:
    return (isinstance(actual, engine.Relationship) and actual.type == expected.type
            and _map(actual.properties, expected.properties, ordered_lists))


def _path(actual: Any, expected: ExpectedPath, ordered_lists: bool) -> bool:
    if not isinstance(actual, engine.Path) or len(actual.relationships) != len(expected.hops):
        return False
    if not _node(actual.nodes[0], expected.start, ordered_lists):
        return False
    for here, relationship, there, hop in zip(
            actual.nodes[:-1], actual.relationships, actual.nodes[1:], expected.hops, strict=True):
        ends = (here.id, there.id) if hop.forward else (there.id, here.id)
        if (relationship.start, relationship.end) != ends:
            return False
        if not (_relationship(relationship, hop.relationship, ordered_lists)
                and _node(there, hop.node, ordered_lists)):
            return False
    return True


MATCHERS: dict[type, Matcher] = {
    type(None): lambda actual, _expected, _ordered: actual is None,
    bool: _exact_type(bool),
    int: _exact_type(int),
    float: _float,
    str: _string,
    list: _list,
    dict: _map,
    ExpectedNode: _node,
    ExpectedRelationship: _relationship,
    ExpectedPath: _path,
}


def match_multiset(actual: list[Any], expected: Sequence[Any],
                   same: Callable[[Any, Any], bool]) -> tuple[list[Any], list[Any]]:
    """Pair items regardless of order → (expected items left unmatched, actual items left over).

    Greedy pairing is exact here: matching is equality of canonical forms (labels-and-properties for nodes,
    `str()` for temporals), so two actual items that match one expected item match the same expected items.
    """
    left = list(actual)
    missing: list[Any] = []
    for want in expected:
        index = next((i for i, item in enumerate(left) if same(item, want)), None)
        if index is None:
            missing.append(want)
        else:
            del left[index]
    return missing, left


def _row_matches(ordered_lists: bool) -> Callable[[Sequence[Any], Sequence[Any]], bool]:
    return lambda row, want: len(row) == len(want) and all(
        matches(value, cell, ordered_lists) for value, cell in zip(row, want, strict=True))


def _row_text(row: Sequence[Any]) -> str:
    return "| " + " | ".join(format_value(value) for value in row) + " |"


def _table_text(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(columns) + " |", *(_row_text(row) for row in rows)]
    return "\n".join("    " + line for line in lines)


def compare_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], header: Sequence[str],
                  expected: Sequence[Sequence[Any]], *,
                  ordered_rows: bool, ordered_lists: bool) -> str | None:
    """None when the result is the expected table, else a readable account of the difference."""
    if list(columns) != list(header):
        return (f"columns differ: expected {list(header)}, got {list(columns)}\n"
                f"  got:\n{_table_text(columns, rows)}")
    same = _row_matches(ordered_lists)
    if ordered_rows:
        pairs = zip(rows, expected, strict=False)
        if len(rows) == len(expected) and all(same(row, want) for row, want in pairs):
            return None
        return (f"rows differ (in order):\n  expected:\n{_table_text(header, expected)}\n"
                f"  got:\n{_table_text(columns, rows)}")
    missing, extra = match_multiset(list(rows), expected, same)
    if not missing and not extra:
        return None
    parts = [f"rows differ (in any order): {len(missing)} of {len(expected)} expected rows not returned, "
             f"{len(extra)} of {len(rows)} returned rows not expected"]
    if missing:
        parts.append(f"  expected but not returned:\n{_table_text(header, missing)}")
    if extra:
        parts.append(f"  returned but not expected:\n{_table_text(columns, extra)}")
    return "\n".join(parts)
