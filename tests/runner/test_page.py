"""Reading pages: which fences are cells, data and recordings, on which line; and every page error."""

from __future__ import annotations

import pytest

from runner.page import parse_page, read_page
from runner.page.model import Trace
from tests.runner.helpers import COOKBOOK_PAGE, FIXTURES, SEED_PAGE

ERRORS = FIXTURES / "errors"


def test_agent_memory_page():
    page = read_page(COOKBOOK_PAGE)
    assert page.errors == [] and page.warnings == []
    assert [(cell.name, cell.line, cell.params) for cell in page.cells] == [
        ("schema", 87, None), ("session-1", 152, "session-1"), ("labels", 219, None),
        ("recall", 271, "question"), ("nearby", 300, "question"), ("slots", 329, None),
        ("session-2", 388, "session-2"), ("recall-again", 466, "question"), ("chains", 490, "question"),
        ("as-of", 517, "as-of"), ("recall-tool", 550, "question"), ("session-2-calls", 611, None)]
    assert [cell.name for cell in page.cells if cell.setup] == ["schema"]
    chains = page.cell("chains")
    assert (chains.recorded.kind, chains.recorded.line) == ("gram", 498)
    assert sorted(page.data) == ["as-of", "question", "session-1", "session-2", "session-2-calls"]
    assert page.data["session-1"].values["session"] == "session-1"  # defined at the end, inside <details>
    assert page.front_matter["features"][0] == "uniqueness constraints"
    assert page.title == "Long-term memory for an agent"


@pytest.mark.skipif(not SEED_PAGE.exists(), reason="the user's seed page is not beside this checkout")
def test_seed_page_has_the_same_cells_data_and_recordings():
    seed, ours = read_page(SEED_PAGE), read_page(COOKBOOK_PAGE)
    assert seed.errors == []
    cypher = [c for c in ours.cells if not isinstance(c, Trace)]  # the seed shows its trace as prose
    assert [(c.name, c.params, c.setup, c.text) for c in seed.cells] == [
        (c.name, c.params, c.setup, c.text) for c in cypher]
    assert [c.recorded.text for c in seed.cells] == [c.recorded.text for c in cypher]
    assert {name: block.values for name, block in seed.data.items()} == {
        name: block.values for name, block in ours.data.items()}


def test_fences_inside_html_blocks():
    page = read_page(FIXTURES / "details.md")
    assert page.errors == [] and page.warnings == []
    assert {name: (block.line, block.values) for name, block in page.data.items()} == {
        "numbers": (17, {"values": [1, 2, 3]}),   # no blank line after <summary>: inside the HTML block
        "more": (25, {"values": [4, 5]}),          # a blank line first: markdown-it sees the fence itself
        "tilde": (32, {"x": 1}),
    }
    assert page.cells[0].params == "numbers" and page.cells[0].recorded.line == 8


def test_brace_form():
    page = read_page(FIXTURES / "brace.md")
    assert page.errors == [] and page.warnings == []
    assert [(c.name, c.params, c.setup, c.recorded.kind if c.recorded else None) for c in page.cells] == [
        ("make", "people", True, "table"), ("list people", None, False, "table"),
        ("plain", None, False, None)]
    assert page.data["people"].values == {"names": ["Ada", "Grace"]}


def test_other_fences_are_left_alone():
    page = read_page(FIXTURES / "ignored.md")
    assert page.errors == [] and page.warnings == []
    assert [cell.name for cell in page.cells] == ["only"]
    assert page.data == {}
    assert page.front_matter == {"title": "Fences the runner leaves alone", "features": ["nothing"]}


def test_an_unknown_key_on_a_cypher_fence_is_an_error_and_other_unknown_words_warn():
    page = read_page(FIXTURES / "warnings.md")
    assert [(e.line, e.message) for e in page.errors] == [
        (3, "unknown 'parms=' in `cypher` info string; did you mean 'params'?")]
    assert [(w.line, w.message) for w in page.warnings] == [
        (3, "unknown 'setpu' in `cypher` info string; did you mean 'setup'?"),
        (7, "unknown 'daat=' in `json` info string; did you mean 'data'?"),
    ]
    assert str(page.warnings[0]).endswith("warnings.md:3: warning: unknown 'setpu' in `cypher` info string; "
                                          "did you mean 'setup'?")


def test_a_misspelled_cell_key_is_an_error_not_a_page_without_cells():
    page = parse_page("# x\n\n```cypher cel=one\nRETURN 1\n```\n\n```cypher cell=two colour=red\nRETURN 2\n```\n")
    assert [(e.line, e.message) for e in page.errors] == [
        (3, "unknown 'cel=' in `cypher` info string; did you mean 'cell'?"),
        (7, "unknown 'colour=' in `cypher` info string; a `cypher` block takes cell, params, tool, graph, "
            "setup, error")]


def test_crlf_page_reads_like_its_lf_twin():
    crlf = read_page(FIXTURES / "crlf.md")
    assert b"\r\n" in (FIXTURES / "crlf.md").read_bytes()
    lf = parse_page(crlf.source.replace("\r\n", "\n"), crlf.path)
    assert crlf.errors == lf.errors == []
    assert [(c.name, c.line, c.text, c.recorded.line, c.recorded.text) for c in crlf.cells] == [
        (c.name, c.line, c.text, c.recorded.line, c.recorded.text) for c in lf.cells]
    assert "\r" not in crlf.cells[0].text
    assert crlf.data["people"].values == lf.data["people"].values


@pytest.mark.parametrize(("name", "line", "message"), [
    ("duplicate-cell", 7, "duplicate cell name 'a' (first defined at line 3)"),
    ("duplicate-data", 7, "duplicate data block name 'd' (first defined at line 3)"),
    ("unknown-params", 7, "cell 'a': params=peeple names no data block; did you mean 'people'?"),
    ("invalid-json", 7, "invalid JSON in data block 'broken': Expecting ',' delimiter (column 3)"),
    ("not-an-object", 3, "data block 'list' must be a JSON object whose keys are parameters, not an array"),
    ("orphan", 5, "a `table` block records a cell's result, but there is no cell above it"),
    ("two-recordings", 14, "cell 'a' already has its recorded block at line 7"),
    ("front-matter-field", 3, "front matter: unknown field 'levle'; did you mean 'level'?"),
    ("front-matter-type", 4, "front matter: field 'features': 'just one string' is not of type 'array'"),
    ("front-matter-yaml", 3, "front matter is not valid YAML: expected ',' or ']', but got '<stream end>'"),
])
def test_page_errors(name, line, message):
    path = ERRORS / f"{name}.md"
    page = read_page(path)
    assert [(error.line, error.message) for error in page.errors] == [(line, message)]
    assert str(page.errors[0]) == f"{path}:{line}: {message}"


def test_front_matter_needs_a_title_and_valid_values():
    page = parse_page("---\nlevel: Expert\n---\n# x\n")
    assert [(e.line, e.message) for e in page.errors] == [
        (1, "front matter: 'title' is a required property"),
        (2, "front matter: field 'level': 'Expert' is not one of ['Beginner', 'Intermediate', 'Advanced']")]


@pytest.mark.parametrize("data", [
    {"title": "t"}, {"title": "t", "level": "Advanced", "features": ["a", "b"]}, {}, {"title": ""},
    {"title": 1}, {"title": "t", "levle": "Advanced"}, {"title": "t", None: "x"}, {"title": "t", "level": "Expert"},
    {"title": "t", "level": True}, {"title": "t", "features": ["a", "a"]}, {"title": "t", "features": "a"},
    {"title": "t", "features": [""]}, {"title": "t", "features": [1, 1.0]}, [], "t",
])
def test_the_plain_front_matter_check_never_passes_what_jsonschema_rejects(data):
    import jsonschema

    from runner.page.front_matter import page_schema, plainly_valid
    errors = list(jsonschema.Draft202012Validator(page_schema()).iter_errors(data))
    assert not (plainly_valid(data, page_schema()) and errors)
    assert plainly_valid(data, page_schema()) == (not errors)


def test_front_matter_is_optional_and_a_lone_rule_is_not_front_matter():
    assert parse_page("# Title\n").front_matter == {}
    assert parse_page("---\n# Title\n").errors == []


def test_an_unclosed_fence_in_html_is_an_error_and_nothing_after_it_is_read():
    page = parse_page("<details>\n```json data=a\n{\"a\":\n\n1}\n```\n</details>\n\n"
                      "```cypher cell=x params=a\nRETURN 1\n```\n")
    assert [(e.line, e.message.split(":")[0]) for e in page.errors] == [(2, "this `json` fence is never closed")]
    assert page.cells == []


def test_a_fence_that_swallows_a_cell_is_an_error_but_a_recipe_shown_in_a_longer_fence_is_not():
    page = parse_page("# x\n\n```python\nprint(1)\n\n```cypher cell=a\nRETURN 1\n```\n\n"
                      "```cypher cell=b\nRETURN 2\n```\n")
    assert [(e.line, e.message.split(":")[0]) for e in page.errors] == [
        (3, "this `python` fence is not closed before the `cypher` fence at line 6, which it reads as its content")]
    shown = parse_page("````markdown\n```cypher cell=a\nRETURN 1\n```\n````\n\n```cypher cell=b\nRETURN 2\n```\n")
    assert shown.errors == [] and [cell.name for cell in shown.cells] == ["b"]


def test_invalid_json_is_the_one_error_and_the_blocks_naming_it_add_none():
    page = parse_page("# x\n\n```cypher cell=a params=d\nRETURN $a\n```\n\n```trace calls=c from=a\n```\n\n"
                      "```json data=d\n{\"a\": 1,\n \"b\": }\n```\n\n```json data=c\n[1]\n```\n\n"
                      "```json data=d\n{}\n```\n")
    assert [(e.line, e.message) for e in page.errors] == [
        (12, "invalid JSON in data block 'd': Expecting value (column 7)"),
        (15, "data block 'c' must be a JSON object whose keys are parameters, not an array"),
        (19, "duplicate data block name 'd' (first defined at line 10)")]
