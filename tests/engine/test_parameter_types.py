"""Typing a parameter's value a column at a time gives the type the value-by-value fold gives."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import types as t
from engine.types import type_of_items, type_of_value, unify_all

scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**64), max_value=2**64),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=3))
keys = st.sampled_from(["a", "b", "A", "c"])
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.lists(inner, max_size=3).map(tuple),
    st.dictionaries(keys, inner, max_size=3)), max_leaves=12)
# rows of one shape, the common case, with values that vary per row
rows = st.lists(st.fixed_dictionaries({"a": scalars, "b": st.lists(st.text(max_size=2), max_size=3)}), max_size=6)


def reference(value):
    """The value-by-value typing `type_of_items` replaces: one type per value, unified pairwise."""
    if isinstance(value, list | tuple):
        return t.list_of(folded(value))
    if isinstance(value, dict) and value:
        return t.record([(str(k), reference(v)) for k, v in value.items()])
    return type_of_value(value)


def folded(items):
    return unify_all([reference(item) for item in items])


@settings(max_examples=400, deadline=None)
@given(st.lists(values, max_size=6))
def test_any_items_type_as_the_fold(items):
    assert type_of_items(items) == folded(items)


@settings(max_examples=200, deadline=None)
@given(rows)
def test_rows_of_one_shape_type_as_the_fold(items):
    assert type_of_items(items) == folded(items)


def test_a_batch_of_rows_is_a_list_of_records():
    batch = [{"id": i, "name": f"n{i}", "about": ["x"] if i % 2 else [], "at": None if i % 3 else "2026"}
             for i in range(100)]
    assert type_of_value(batch) == t.list_of(t.record([("id", t.INTEGER), ("name", t.STRING),
                                                       ("about", t.list_of(t.STRING)), ("at", t.STRING)]))


def test_values_the_fold_widens_stay_widened():
    assert type_of_items([1, 2**63]) is t.ANY
    assert type_of_items([1.0, math.inf]) is t.ANY
    assert type_of_items([True, 1]) is t.ANY
    assert type_of_items([{"a": 1}, {"A": 1, "a": 2}]) == t.MAP
    assert type_of_items([[1], (2,)]) == t.list_of(t.INTEGER)


def test_rows_of_maps_bind_with_their_keys_as_strings() -> None:
    """The JSON fast path for rows of plain maps is taken only when every key is a string; a map with an
    integer key reads back with the key as a string either way, and a null row stays null."""
    import engine
    db = engine.connect(":memory:")
    try:
        query = "UNWIND $rows AS r RETURN r"
        assert db.execute(query, {"rows": [{1: "x"}, {1: "y"}, None]}).fetchall() == [
            ({"1": "x"},), ({"1": "y"},), (None,)]
        assert db.execute(query, {"rows": [{"a": "x", "b": 1}, None, {"a": "y", "b": 2}]}).fetchall() == [
            ({"a": "x", "b": 1},), (None,), ({"a": "y", "b": 2},)]
    finally:
        db.close()
