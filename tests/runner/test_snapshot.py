"""Snapshot records: every value type survives a round trip, and the seed page's file rebuilds its blocks."""

from __future__ import annotations

import math

import pytest

import engine
from runner.check import check_cell
from runner.render import render
from runner.result import CellResult
from runner.snapshot import cell_record, cell_result, dump_snapshot, load_snapshot, read_snapshot, same_entry
from tests.runner.helpers import COOKBOOK_PAGE, ROOT, agent_memory_page

PARIS = engine.DateTime(2026, 3, 2, 9, 0, 0, 0, 3600, "Europe/Paris")
ADA = engine.Node(0, ("Person", "Admin"), {"name": "Ada", "born": 1815, "weird key": "yes", "d": "2026-03-02",
                                           "at": PARIS})
GRACE = engine.Node(1, (), {})
KNOWS = engine.Relationship(7, "KNOWS", 0, 1, {"since": 1950.0})

VALUES = [
    None, True, False, 0, -12, 2**62, 2.0, -0.0, 0.1, 1e16, 1.5e-7, math.inf, -math.inf,
    "", "null", "1", "yes", "2026-03-02", "a\nb\"c\\d\te\x01", "ünïcode ✓", "[1, 2]", "{a: 1}", "!node x",
    [], [1, "x", [2.0, None]], {}, {"b": 2.0, "a": [1, "x"], "": {"nested": True}},
    ADA, GRACE, KNOWS, engine.Path((ADA, GRACE), (KNOWS,)), engine.Path((GRACE,)),
    engine.Date(2026, 3, 2), engine.Date(-12345, 1, 1), engine.Date(10000, 12, 31),
    engine.LocalTime(9, 0), engine.LocalTime(23, 59, 59, 999999999),
    engine.Time(9, 0, 0, 500, -5400), engine.Time(0, 0, 0, 0, 0),
    engine.LocalDateTime(2026, 3, 2, 9, 0, 0, 123000000),
    engine.DateTime(2026, 3, 2, 9, 0), engine.DateTime(1, 1, 1, 0, 0, 1, 1, -3661),
    engine.Duration(), engine.Duration(14, 3, 3725, 0), engine.Duration(-14, -3, -1, 500000000),
    engine.Duration(0, 0, 0, 1),
    engine.Vector("INTEGER8", (1, -2)), engine.Vector("FLOAT32", (0.1, 3.5)), engine.Vector("FLOAT", (1e-5,)),
    engine.Point(7203, 1, 2), engine.Point(9157, -1.5, 0, 1e20), engine.Point(4326, 12.5, 55.6),
    engine.Point(4979, 1, 2, 3), [engine.Point(7203, 0, 0)],
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_every_value_type_round_trips_and_renders_the_same(value):
    result = CellResult(["value"], [(value,)], {"nodes_created": 1}, ordered=False)
    document = read_snapshot(dump_snapshot("page.md", {"cell": cell_record(result)}))
    back = cell_result(document["cells"]["cell"])
    assert render(back, "table") == render(result, "table")
    assert same_entry(document["cells"]["cell"], cell_record(result))
    if not (isinstance(value, float) and math.isnan(value)):
        assert back.rows == result.rows


def test_nan_round_trips():
    result = CellResult(["x"], [(math.nan,)])
    back = cell_result(read_snapshot(dump_snapshot("p.md", {"c": cell_record(result)}))["cells"]["c"])
    assert math.isnan(back.rows[0][0])
    assert same_entry(cell_record(back), cell_record(result))


def test_unordered_rows_compare_as_a_multiset_and_ordered_rows_in_order():
    rows = [(1, "a"), (2, "b"), (2, "b")]
    unordered = cell_record(CellResult(["n", "s"], rows))
    assert same_entry(unordered, cell_record(CellResult(["n", "s"], rows[::-1])))
    assert not same_entry(unordered, cell_record(CellResult(["n", "s"], rows[:2])))
    ordered = cell_record(CellResult(["n", "s"], rows, ordered=True))
    assert not same_entry(ordered, cell_record(CellResult(["n", "s"], rows[::-1], ordered=True)))
    assert not same_entry(unordered, ordered)
    assert not same_entry(None, unordered)


def test_counters_and_columns_are_part_of_the_record():
    base = cell_record(CellResult(["n"], [], {"nodes_created": 2}))
    assert not same_entry(base, cell_record(CellResult(["n"], [], {"nodes_created": 3})))
    assert not same_entry(base, cell_record(CellResult(["m"], [], {"nodes_created": 2})))
    assert same_entry(base, cell_record(CellResult(["n"], [], {"nodes_created": 2, "labels_added": 0})))


def test_a_value_of_an_unknown_type_is_an_error():
    with pytest.raises(TypeError, match="no snapshot form for a value of type object"):
        cell_record(CellResult(["x"], [(object(),)]))


def test_a_file_of_another_format_is_refused():
    with pytest.raises(ValueError, match="snapshot format 2"):
        read_snapshot("format: 2\ncells: {}\n")


def test_the_agent_memory_snapshot_rebuilds_every_recorded_block_of_the_page():
    """What a preview shows from snapshots/ without running anything matches what the page recorded."""
    snapshot = ROOT / "snapshots" / "01-agent-memory.yml"
    results = load_snapshot(snapshot)
    page = agent_memory_page()
    assert read_snapshot(snapshot.read_text())["page"] == COOKBOOK_PAGE.relative_to(ROOT).as_posix()
    checked = [cell for cell in page.cells if cell.name in results and cell.recorded]
    assert [cell.name for cell in checked] == [name for name in results if page.cell(name).recorded]
    assert len(checked) >= 11
    for cell in checked:
        outcome = check_cell(cell.recorded, results[cell.name])
        assert outcome.equal, (cell.name, outcome.reasons)
