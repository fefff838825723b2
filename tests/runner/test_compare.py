"""The comparator: structures, not text; ordered or multiset; counters key by key; the diff it prints."""

from __future__ import annotations

import engine
from runner.check import check_cell, unified_diff
from runner.page import parse_page, read_page
from runner.result import CellResult
from runner.run import FAILED, PASSED, check
from tests.runner.helpers import FIXTURES
from tests.runner.results import ADA, small_results


def recorded(kind: str, text: str):
    page = parse_page(f"```cypher cell=c\nRETURN 1\n```\n\n```{kind}\n{text}```\n")
    assert page.errors == []
    return page.cells[0].recorded


def test_every_cell_of_the_small_page_matches():
    page = read_page(FIXTURES / "small.md")
    results = small_results()
    for cell in page.cells:
        outcome = check_cell(cell.recorded, results[cell.name])
        assert outcome.equal, (cell.name, outcome.reasons)


def test_row_order_matters_only_with_order_by():
    block = recorded("table", '| name    |\n|---------|\n| "Alan"  |\n| "Ada"   |\n| "Grace" |\n3 rows\n')
    rows = [("Ada",), ("Grace",), ("Alan",)]
    assert check_cell(block, CellResult(["name"], rows, ordered=False)).equal
    ordered = check_cell(block, CellResult(["name"], rows, ordered=True))
    assert not ordered.equal
    assert ordered.reasons == ["rows differ (in order: the last statement ends in ORDER BY)"]


def test_multiset_counts_duplicates():
    block = recorded("table", "| n |\n|---|\n| 1 |\n| 1 |\n| 2 |\n3 rows\n")
    assert check_cell(block, CellResult(["n"], [(2,), (1,), (1,)])).equal
    outcome = check_cell(block, CellResult(["n"], [(2,), (2,), (1,)]))
    assert outcome.reasons == ["rows differ (as a multiset: the last statement has no ORDER BY)"]


def test_counters_key_by_key():
    block = recorded("table", "(no rows) · nodes created: 20, properties set: 67\n")
    outcome = check_cell(block, CellResult([], [], {"nodes_created": 19, "properties_set": 67,
                                                    "labels_added": 1}))
    assert outcome.reasons == ["nodes created: recorded 20, actual 19", "labels added: recorded 0, actual 1"]


def test_columns_are_compared():
    block = recorded("table", "| a |\n|---|\n| 1 |\n1 row\n")
    outcome = check_cell(block, CellResult(["b"], [(1,)]))
    assert outcome.reasons == ["columns differ: recorded ['a'], actual ['b']"]


def test_padding_does_not_matter_and_bars_inside_values_do_no_harm():
    block = recorded("table", '| x | `a|b` |\n|---|---|\n| "p|q" | [1] |\n1 row\n')
    assert check_cell(block, CellResult(["x", "`a|b`"], [("p|q", [1])])).equal
    aligned = recorded("table", '| [x IN l | x] |\n|--------------|\n| "a|b"        |\n1 row\n')
    assert check_cell(aligned, CellResult(["[x IN l | x]"], [("a|b",)])).equal


def test_gram_rows_compare_as_a_multiset_with_references_expanded():
    first = engine.Path((ADA, engine.Node(1)), (engine.Relationship(0, "R", 0, 1),))
    second = engine.Path((ADA, engine.Node(2)), (engine.Relationship(1, "R", 0, 2),))
    block = recorded("gram", '// 2 rows\n(n0:Person {born: 1815, name: "Ada"})-[r0:R]->(n1)\n'
                             "(n0)-[r1:R]->(n2)\n")
    assert check_cell(block, CellResult(["p"], [(first,), (second,)])).equal
    swapped = check_cell(block, CellResult(["p"], [(second,), (first,)]))
    assert swapped.equal
    assert swapped.actual.splitlines()[1] == '(n0:Person {born: 1815, name: "Ada"})-[r1:R]->(n2)'
    assert not check_cell(block, CellResult(["p"], [(second,), (first,)], ordered=True)).equal


def test_gram_property_change_is_drift():
    page = read_page(FIXTURES / "small.md")
    result = small_results()["path"]
    result.rows[0][0].nodes[0].properties["born"] = 1816
    assert check_cell(page.cell("path").recorded, result).reasons == [
        "rows differ (as a multiset: the last statement has no ORDER BY)"]


def test_an_unreadable_recording_is_drift():
    outcome = check_cell(recorded("table", "| a |\n| 1 |\n1 row\n"), CellResult(["a"], [(1,)]))
    assert not outcome.equal
    assert outcome.reasons[0].startswith("the recorded table block cannot be read: the second line")


def test_diff_shows_unordered_rows_in_the_recorded_order():
    block = recorded("table", '| name    |\n|---------|\n| "Alan"  |\n| "Ada"   |\n| "Grace" |\n3 rows\n')
    outcome = check_cell(block, CellResult(["name"], [("Ada",), ("Grace",), ("Ann",)]))
    assert outcome.shown.splitlines()[2:5] == ['| "Ann"   |', '| "Ada"   |', '| "Grace" |']
    assert outcome.actual.splitlines()[2:5] == ['| "Ada"   |', '| "Grace" |', '| "Ann"   |']


def test_drift_failure_text_has_file_line_and_page_line_hunks():
    page = read_page(FIXTURES / "small.md")
    result = small_results()["by-birth"]
    result.rows[1] = ("Grace", 1907)
    outcome = check(page, page.cell("by-birth"), result)
    assert outcome.status == FAILED
    path = FIXTURES / "small.md"
    assert outcome.failure.splitlines() == [
        f"{path}:37: cell 'by-birth' drifted from its recording",
        "  rows differ (in order: the last statement ends in ORDER BY)",
        f"--- {path}:37 (recorded)",
        "+++ cell 'by-birth' (actual)",
        "@@ -39,5 +39,5 @@",  # page lines: the rule line is line 39, Grace's row line 41
        " |---------|------|",
        ' | "Ada"   | 1815 |',
        '-| "Grace" | 1906 |',
        '+| "Grace" | 1907 |',
        ' | "Alan"  | 1912 |',
        " 3 rows",
    ]
    assert check(page, page.cell("by-birth"), small_results()["by-birth"]).status == PASSED


def test_unified_diff_of_identical_text_is_empty():
    assert unified_diff("a\n", "a\n", path="p.md", line=3, cell="c") == "\n"
