"""`--update`'s rewrite: only recorded blocks change, byte for byte everything else stays (CRLF too)."""

from __future__ import annotations

import shutil

import pytest

from runner.page import parse_page, read_page
from runner.run import ERROR, SKIPPED, CellError, CellOutcome, PageOutcome, check
from runner.update import apply_edits, edits_for, split_with_endings, update_page
from tests.runner.helpers import FIXTURES
from tests.runner.results import small_results


def outcome_for(page, results=None) -> PageOutcome:
    results = results or small_results()
    return PageOutcome(page, [check(page, cell, results[cell.name]) for cell in page.cells])


def tamper(text: str, newline: str = "\n") -> str:
    tampered = text.replace(f'| "Grace" | 1906 |{newline}', f'| "Grace" | 1066 |{newline}', 1)
    tampered = tampered.replace("relationships created: 2, properties set: 1", "relationships created: 5", 1)
    tampered = tampered.replace('born: 1912, name: "Alan"', 'born: 1912, name: "Alan Turing"', 1)
    assert tampered.count("1066") == 1 and "Alan Turing" in tampered and tampered != text
    return tampered


@pytest.mark.parametrize("name", ["small.md", "crlf.md"])
def test_update_restores_a_tampered_page_byte_for_byte(tmp_path, name):
    original = (FIXTURES / name).read_bytes()
    newline = "\r\n" if name == "crlf.md" else "\n"
    copy = tmp_path / name
    copy.write_bytes(tamper(original.decode(), newline).encode())
    page = read_page(copy)
    outcome = outcome_for(page)
    assert [c.cell.name for c in outcome.cells if c.status == "failed"] == ["knows", "by-birth", "path"]
    edits = update_page(outcome)
    assert [edit.cell.name for edit in edits] == ["knows", "by-birth", "path"]
    assert copy.read_bytes() == original


def test_nothing_to_update_leaves_the_file_alone(tmp_path):
    copy = tmp_path / "small.md"
    shutil.copy(FIXTURES / "small.md", copy)
    before = copy.stat().st_mtime_ns
    assert update_page(outcome_for(read_page(copy))) == []
    assert copy.stat().st_mtime_ns == before


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_missing_block_is_added_after_its_cell(newline):
    original = (FIXTURES / "small.md").read_text().replace("\n", newline)
    recorded = f"```table{newline}| name    | born |"
    start = original.index(recorded)
    end = original.index(f"```{newline}", start + 3) + 3 + len(newline) * 2  # the block and the blank after
    without = original[:start] + original[end:]
    page = parse_page(without, "small.md")
    assert page.cell("by-birth").recorded is None
    outcome = outcome_for(page)
    assert {c.cell.name: c.status for c in outcome.cells}["by-birth"] == "unrecorded"
    assert apply_edits(page, edits_for(outcome)) == original


def test_block_added_to_a_cell_at_the_end_of_a_page_without_final_newline():
    page = parse_page("# x\n\n```cypher cell=a\nRETURN 1 AS n\n```", "p.md")
    outcome = PageOutcome(page, [check(page, page.cells[0], small_results()["by-birth"])])
    assert apply_edits(page, edits_for(outcome)) == (
        "# x\n\n```cypher cell=a\nRETURN 1 AS n\n```\n\n```table\n| name    | born |\n|---------|------|\n"
        '| "Ada"   | 1815 |\n| "Grace" | 1906 |\n| "Alan"  | 1912 |\n3 rows\n```\n')


def test_a_new_block_is_gram_for_graph_results_and_keeps_a_blank_line_before_prose():
    page = parse_page("```cypher cell=path\nMATCH p = ()-->() RETURN p\n```\nProse right after.\n", "p.md")
    outcome = PageOutcome(page, [check(page, page.cells[0], small_results()["path"])])
    text = apply_edits(page, edits_for(outcome))
    assert text.startswith("```cypher cell=path\nMATCH p = ()-->() RETURN p\n```\n\n```gram\n// 1 row\n(n0:")
    assert text.endswith("```\n\nProse right after.\n")


def test_blocks_in_a_block_quote_keep_their_prefix():
    source = ("> ```cypher cell=a\n> RETURN 1\n> ```\n>\n"
              "> ```table\n> | x |\n> |---|\n> | 1 |\n> 1 row\n> ```\n")
    page = parse_page(source, "p.md")
    outcome = PageOutcome(page, [check(page, page.cells[0], small_results()["people"])])
    assert apply_edits(page, edits_for(outcome)) == (
        "> ```cypher cell=a\n> RETURN 1\n> ```\n>\n> ```table\n"
        "> (no rows) · nodes created: 3, properties set: 6, labels added: 3\n> ```\n")


def test_errors_and_skipped_cells_are_never_recorded():
    page = read_page(FIXTURES / "small.md")
    cells = [CellOutcome(page.cells[0], ERROR, error=CellError("SyntaxError", "bad", 11)),
             *(CellOutcome(cell, SKIPPED) for cell in page.cells[1:])]
    assert edits_for(PageOutcome(page, cells)) == []


def test_split_with_endings_round_trips():
    for text in ["", "a", "a\n", "a\r\nb\rc\n\n", "\n\n"]:
        assert "".join(line + ending for line, ending in split_with_endings(text)) == text
