"""The static type a parameter's value gets: lists are typed by their items' distinct shapes."""

from __future__ import annotations

import pytest

from engine.semantic.types import type_of_value


@pytest.mark.parametrize(("value", "expected"), [
    (None, "NULL"), (True, "BOOLEAN"), (2**63 - 1, "INTEGER"), (2**63, "ANY"), (float("nan"), "ANY"), ({}, "MAP"),
    ([], "LIST<NULL>"), ([1, None, 3], "LIST<INTEGER>"), ([1, "x"], "LIST<ANY>"), ((1.5, 2.5), "LIST<FLOAT>"),
    ([{"a": 1}, {"a": None}, {"a": 2}], "LIST<MAP{a: INTEGER}>"), ([{"a": 1}, {"a": 2.5}], "LIST<MAP{a: ANY}>"),
    ([{"a": 1}, {"b": 1}], "LIST<MAP>"), ([{"a": 1, "A": 2}], "LIST<MAP>"),
    ([{"a": [1]}, {"a": []}, {"a": [None, 2]}], "LIST<MAP{a: LIST<INTEGER>}>"),
    ([[1], [[2]]], "LIST<LIST<ANY>>"),
    ([{"k": f"k{i}", "n": i} for i in range(1000)], "LIST<MAP{k: STRING, n: INTEGER}>"),
])
def test_type_of_value(value, expected):
    assert repr(type_of_value(value)) == expected
