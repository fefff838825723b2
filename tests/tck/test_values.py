"""The TCK harness's own parts, without the engine: value notation, value comparison, side-effect diffs."""

from __future__ import annotations

import math
from typing import Any

import pytest

from engine import Date, DateTime, Duration, Node, Path, Relationship
from tests.tck.compare import compare_table, matches
from tests.tck.side_effects import compare_side_effects, diff, expected_side_effects, state_of
from tests.tck.values import (
    ExpectedNode,
    ExpectedPath,
    ExpectedRelationship,
    Hop,
    ValueSyntaxError,
    format_value,
    parse_parameter,
    parse_value,
)

# Value notation

SCALARS = [
    ("null", None),
    ("true", True),
    ("false", False),
    ("0", 0),
    ("-17", -17),
    ("4611686018427387905", 4611686018427387905),
    ("1.5", 1.5),
    ("-.5", -0.5),
    (".1e-5", 0.000001),
    ("1e10", 1e10),
    ("1E9", 1e9),
    ("-1e-305", -1e-305),
    ("1.23456789e308", 1.23456789e308),
    ("Infinity", math.inf),
    ("-Infinity", -math.inf),
    ("''", ""),
    ("'Malmö'", "Malmö"),
    ("'\\''", "'"),
    # Literals6 [5], after Gherkin's own cell unescaping: only \' and \\ are escapes, other backslashes stay.
    ("'a\\\\bcn5t\\'\"\\\\//\\\\\"\\''", "a\\bcn5t'\"\\//\\\"'"),
    ("'a\\nb'", "a\\nb"),
]


@pytest.mark.parametrize(("text", "value"), SCALARS, ids=[text for text, _ in SCALARS])
def test_scalars(text: str, value: Any) -> None:
    parsed = parse_value(text)
    assert type(parsed) is type(value)
    assert parsed == value


def test_nan() -> None:
    assert math.isnan(parse_value("NaN"))


def test_integer_and_float_stay_apart() -> None:
    assert type(parse_value("1")) is int
    assert type(parse_value("1.0")) is float


def test_lists_and_maps() -> None:
    assert parse_value("[]") == []
    assert parse_value("[1, [2, 'x'], null]") == [1, [2, "x"], None]
    assert parse_value("{}") == {}
    assert parse_value("{a: 1, b: 'foo', c: [true]}") == {"a": 1, "b": "foo", "c": [True]}
    assert parse_value("{a1B2c3e67: 1}") == {"a1B2c3e67": 1}
    assert parse_value("{``: null}") == {"": None}
    assert parse_value("  [ 1 ,2 ]  ") == [1, 2]


def test_nodes() -> None:
    assert parse_value("()") == ExpectedNode()
    assert parse_value("(:A:B {k: 'v'})") == ExpectedNode(frozenset({"A", "B"}), {"k": "v"})
    assert parse_value("({name: ''})") == ExpectedNode(frozenset(), {"name": ""})
    assert parse_value("{node1: (:A), n: 1}") == {"node1": ExpectedNode(frozenset({"A"})), "n": 1}


def test_relationships_and_lists_of_them() -> None:
    assert parse_value("[:T {k: 1}]") == ExpectedRelationship("T", {"k": 1})
    assert parse_value("[:KNOWS]") == ExpectedRelationship("KNOWS")
    assert parse_value("[[:T], [:U]]") == [ExpectedRelationship("T"), ExpectedRelationship("U")]


def test_paths() -> None:
    assert parse_value("<()>") == ExpectedPath(ExpectedNode())
    parsed = parse_value("<(:A)-[:T]->(:B)<-[:U {w: 2}]-()>")
    assert parsed == ExpectedPath(ExpectedNode(frozenset({"A"})), (
        Hop(ExpectedRelationship("T"), True, ExpectedNode(frozenset({"B"}))),
        Hop(ExpectedRelationship("U", {"w": 2}), False, ExpectedNode()),
    ))


MALFORMED = ["", "[1, 2", "{a 1}", "'open", "(:A", "<(:A)-[:T]-(:B)>", "1 2", "nul", "[:]"]


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_cells_are_reported(text: str) -> None:
    with pytest.raises(ValueSyntaxError):
        parse_value(text)


def test_parameters_are_plain_values() -> None:
    assert parse_parameter("{name: 'Alice', address: {city: 'London'}}") == {
        "name": "Alice", "address": {"city": "London"}}
    with pytest.raises(ValueSyntaxError):
        parse_parameter("[(:A)]")


@pytest.mark.parametrize("text", [
    "null", "true", "-1", "1.5", "NaN", "'it\\'s'", "[1, 'a']", "{k: [1]}",
    "(:A:B {k: 'v'})", "[:T {k: 1}]", "<(:A)-[:T]->(:B)<-[:U]-()>",
])
def test_format_round_trips(text: str) -> None:
    parsed = parse_value(text)
    again = parse_value(format_value(parsed))
    assert again == parsed or (text == "NaN" and math.isnan(again))


# Comparison

A = Node(1, ("A",), {"name": "a"})
B = Node(2, ("B", "C"), {})
T = Relationship(10, "T", 1, 2, {"w": 1})


def test_scalar_kinds_are_distinct() -> None:
    assert matches(1, 1)
    assert not matches(1.0, 1)
    assert not matches(1, 1.0)
    assert not matches(True, 1)
    assert not matches(1, True)
    assert matches(None, None)
    assert not matches(0, None)
    assert matches(math.nan, math.nan)
    assert matches(0.1 + 0.2, 0.30000000000000004)
    assert not matches(0.1 + 0.2, 0.3)
    assert not matches("1", 1)


def test_graph_elements_match_by_content_not_id() -> None:
    assert matches(A, parse_value("(:A {name: 'a'})"))
    assert matches(B, parse_value("(:C:B)"))
    assert not matches(B, parse_value("(:B)"))
    assert not matches(A, parse_value("(:A)"))
    assert matches(T, parse_value("[:T {w: 1}]"))
    assert not matches(T, parse_value("[:U {w: 1}]"))
    assert not matches(A, parse_value("{name: 'a'}"))


def test_paths_match_direction() -> None:
    path = Path((A, B), (T,))
    assert matches(path, parse_value("<(:A {name: 'a'})-[:T {w: 1}]->(:B:C)>"))
    assert not matches(path, parse_value("<(:A {name: 'a'})<-[:T {w: 1}]-(:B:C)>"))
    reverse = Path((B, A), (T,))
    assert matches(reverse, parse_value("<(:B:C)<-[:T {w: 1}]-(:A {name: 'a'})>"))
    assert matches(Path((A,)), parse_value("<(:A {name: 'a'})>"))


def test_lists_are_ordered_unless_asked() -> None:
    expected = parse_value("[1, [2, 3], 'x']")
    assert matches([1, [2, 3], "x"], expected)
    assert not matches(["x", [3, 2], 1], expected)
    assert matches(["x", [3, 2], 1], expected, ordered_lists=False)
    assert not matches([1, 1, 2], parse_value("[1, 2, 2]"), ordered_lists=False)
    assert not matches([1, 2], parse_value("[1, 2, 2]"), ordered_lists=False)


def test_maps_match_by_keys() -> None:
    assert matches({"b": 2, "a": 1}, parse_value("{a: 1, b: 2}"))
    assert not matches({"a": 1}, parse_value("{a: 1, b: null}"))


def test_temporal_values_match_their_string_form() -> None:
    assert matches(Date(1984, 10, 11), parse_value("'1984-10-11'"))
    instant = DateTime(2015, 7, 21, 21, 40, 32, 142_000_000, 3600)
    assert matches(instant, parse_value("'2015-07-21T21:40:32.142+01:00'"))
    assert matches([Duration(seconds=13)], parse_value("['PT13S']"))
    assert not matches(Date(1984, 10, 11), parse_value("'1984-10-12'"))


def test_tables_check_columns_then_rows() -> None:
    expected = [(parse_value("1"),), (parse_value("2"),)]
    assert compare_table(["x"], [(2,), (1,)], ["x"], expected, ordered_rows=False, ordered_lists=True) is None
    in_order = compare_table(["x"], [(2,), (1,)], ["x"], expected, ordered_rows=True, ordered_lists=True)
    assert in_order is not None and "in order" in in_order
    wrong_columns = compare_table(["y"], [(1,), (2,)], ["x"], expected,
                                  ordered_rows=False, ordered_lists=True)
    assert wrong_columns is not None and "columns differ" in wrong_columns
    missing = compare_table(["x"], [(1,), (3,)], ["x"], expected, ordered_rows=False, ordered_lists=True)
    assert missing is not None and "| 2 |" in missing and "| 3 |" in missing
    duplicates = compare_table(["x"], [(1,), (1,)], ["x"], expected, ordered_rows=False, ordered_lists=True)
    assert duplicates is not None


def test_tables_can_ignore_list_order() -> None:
    expected = [(parse_value("[1, 2]"),)]
    assert compare_table(["l"], [([2, 1],)], ["l"], expected, ordered_rows=False, ordered_lists=False) is None
    ordered = compare_table(["l"], [([2, 1],)], ["l"], expected, ordered_rows=False, ordered_lists=True)
    assert ordered is not None


# Side effects

def test_no_change_is_no_side_effect() -> None:
    state = state_of([A, B], [T])
    assert set(diff(state, state).values()) == {0}


def test_created_and_deleted_elements() -> None:
    before = state_of([A], [])
    after = state_of([B], [T])
    effects = diff(before, after)
    assert effects["+nodes"] == 1 and effects["-nodes"] == 1
    assert effects["+relationships"] == 1 and effects["-relationships"] == 0
    assert effects["+labels"] == 2 and effects["-labels"] == 1  # B and C appear, A is gone
    assert effects["+properties"] == 1 and effects["-properties"] == 1  # T.w added, A.name gone


def test_labels_count_names_in_the_graph() -> None:
    before = state_of([Node(1, ("A",)), Node(2, ())], [])
    after = state_of([Node(1, ("A",)), Node(2, ("A",))], [])
    assert diff(before, after)["+labels"] == 0
    assert diff(after, before)["-labels"] == 0


def test_properties_are_facts() -> None:
    before = state_of([Node(1, (), {"a": 1, "b": 1})], [])
    changed = state_of([Node(1, (), {"a": 2, "b": 1})], [])
    retyped = state_of([Node(1, (), {"a": 1.0, "b": 1})], [])
    effects = diff(before, changed)
    assert (effects["+properties"], effects["-properties"]) == (1, 1)
    assert diff(before, before)["+properties"] == 0
    assert (diff(before, retyped)["+properties"], diff(before, retyped)["-properties"]) == (1, 1)
    with_list = state_of([Node(1, (), {"l": [1, 2], "d": Date(2000, 1, 1)})], [])
    assert diff(with_list, with_list)["+properties"] == 0


def test_node_and_relationship_with_the_same_id_stay_apart() -> None:
    before = state_of([Node(5, (), {"k": 1})], [])
    after = state_of([Node(5, (), {"k": 1})], [Relationship(5, "T", 5, 5, {"k": 1})])
    assert diff(before, after)["+properties"] == 1


def test_expected_side_effect_table() -> None:
    expected = expected_side_effects((("+nodes", "1"), ("+properties", "2")))
    assert expected["+nodes"] == 1 and expected["-labels"] == 0
    actual = dict(expected, **{"+nodes": 2})
    problem = compare_side_effects(actual, expected)
    assert problem is not None and "+nodes: expected 1, got 2" in problem
    assert compare_side_effects(expected, expected) is None
    with pytest.raises(ValueError, match="not a side-effect row"):
        expected_side_effects((("+widgets", "1"),))
