"""Trace blocks: read from a page, replayed through the MCP server in process, checked, and updated."""

from __future__ import annotations

import pytest

from runner.cli import main
from runner.mcp.recording import Step, check_steps, read_steps, render_steps
from runner.page import parse_page, read_page
from runner.page.model import Trace
from runner.run import PASSED, RAN, UNRECORDED, run_page
from tests.runner.helpers import COOKBOOK_PAGE, FIXTURES

TRACE_PAGE = FIXTURES / "trace.md"


def test_a_trace_block_is_a_checked_unit_named_after_its_calls():
    page = read_page(TRACE_PAGE)
    assert page.errors == [] and page.warnings == []
    assert [cell.name for cell in page.cells] == ["people", "count", "calls", "count-again"]
    trace = page.cell("calls")
    assert isinstance(trace, Trace)
    assert (trace.calls, trace.start, trace.line) == ("calls", "count", 26)
    assert trace.recorded.kind == "trace" and trace.recorded.fence is trace.fence
    assert [cell.name for cell in page.cells_through("count")] == ["people", "count"]


PAGE_ERRORS = {
    "no from": ("```trace calls=c\n```\n",
                [(1, "a `trace` block needs calls=DATA (the data block of tool calls) and from=CELL "
                     "(the cell whose database the calls start on)")]),
    "unknown cell": ("```cypher cell=slots\nRETURN 1\n```\n\n```trace calls=c from=slot\n```\n\n"
                     '```json data=c\n{"steps": [{"tool": "get_schema"}]}\n```\n',
                     [(5, "trace 'c': from=slot names no cell; did you mean 'slots'?")]),
    "unknown calls": ("```cypher cell=a\nRETURN 1\n```\n\n```trace calls=cals from=a\n```\n\n"
                      '```json data=calls\n{"steps": []}\n```\n',
                      [(5, "trace 'cals': calls=cals names no data block; did you mean 'calls'?")]),
    "no steps": ("```cypher cell=a\nRETURN 1\n```\n\n```trace calls=c from=a\n```\n\n"
                 '```json data=c\n{"calls": []}\n```\n',
                 [(8, "data block 'c' is the calls of a trace, but it has no \"steps\" list of calls")]),
    "no tool": ("```cypher cell=a\nRETURN 1\n```\n\n```trace calls=c from=a\n```\n\n"
                '```json data=c\n{"steps": [{"tool": "get_schema"}, {"arguments": {}}]}\n```\n',
                [(8, "data block 'c' is the calls of a trace, but step 2 is not an object with a \"tool\" "
                     "name")]),
    "a table after a trace": (
        "```cypher cell=a\nRETURN 1\n```\n\n```trace calls=c from=a\n```\n\n```table\n(no rows)\n```\n\n"
        "```json data=c\n{\"steps\": [{\"tool\": \"get_schema\"}]}\n```\n",
        [(8, "a `table` block records a cell's result, but there is no cell above it")]),
    "a cell named like the trace": ("```cypher cell=c\nRETURN 1\n```\n\n```trace calls=c from=c\n```\n\n"
                                    "```json data=c\n{\"steps\": [{\"tool\": \"get_schema\"}]}\n```\n",
                                    [(5, "duplicate cell name 'c': a trace runs under the name of its calls "
                                         "block, and line 1 already uses it")]),
}


@pytest.mark.parametrize(("source", "errors"), PAGE_ERRORS.values(), ids=PAGE_ERRORS.keys())
def test_trace_page_errors(source, errors):
    assert [(error.line, error.message) for error in parse_page(source).errors] == errors


def test_the_fixture_trace_passes_and_its_writes_stay_out_of_the_page():
    outcome = run_page(read_page(TRACE_PAGE))
    assert [(cell.cell.name, cell.status) for cell in outcome.cells] == [
        ("people", PASSED), ("count", PASSED), ("calls", PASSED), ("count-again", PASSED)]


def test_the_agent_memory_trace_replays_the_seeds_counters_and_rows():
    page = read_page(COOKBOOK_PAGE)
    trace = page.cell("session-2-calls")
    assert isinstance(trace, Trace) and trace.start == "slots"
    steps = read_steps(trace.recorded.text)
    assert [step.tool for step in steps] == ["read_cypher", *["write_cypher"] * 4, *["read_cypher"] * 2]
    assert [step.counters for step in steps[1:5]] == [
        {"nodes_created": 5, "relationships_created": 8, "properties_set": 14, "labels_added": 5},
        {"nodes_created": 1, "relationships_created": 3, "properties_set": 4, "labels_added": 1},
        {"nodes_created": 1, "relationships_created": 3, "properties_set": 5, "labels_added": 1},
        {"relationships_created": 2, "properties_set": 2}]
    assert steps[0].rows == [('"billing service/on-call"',), ('"orders service/database"',),
                             ('"orders service/owner"',), ('"orders service/team"',)]
    assert steps[5].rows == [("5", "3", "0", "1"), ("6", "3", "1", "0")]
    assert steps[6].columns == ["entity", "kind", "facts", "decisions", "history", "nearby"]
    outcome = run_page(page, cell="session-2-calls")
    assert [(cell.cell.name, cell.status) for cell in outcome.cells if cell.status != RAN] == [
        ("session-2-calls", PASSED)]


def cookbook(capsys, *arguments: str) -> tuple[int, str]:
    code = main(["run", *map(str, arguments)])
    return code, capsys.readouterr().out


def test_drift_names_the_step_and_update_rewrites_only_the_trace(capsys, tmp_path):
    copy = tmp_path / "trace.md"
    original = TRACE_PAGE.read_bytes()
    copy.write_bytes(original.replace(b"properties_set: 2, labels", b"properties_set: 3, labels", 1)
                     .replace(b'| "Grace" |\n| "Ada"   |', b'| "Grace" |\n| "Bob"   |'))
    code, out = cookbook(capsys, copy)
    assert code == 1
    assert f"{copy}:26: cell 'calls' drifted from its recording\n" in out
    assert "  step 1 (read_cypher): rows differ (as a multiset: the last statement has no ORDER BY)\n" in out
    assert "  step 2 (write_cypher): properties set: recorded 3, actual 2\n" in out
    assert '-| "Bob"   |\n+| "Ada"   |' in out  # unordered rows shown in the recording's order
    assert "3 passed, 1 failed" in out
    assert cookbook(capsys, copy, "--update")[0] == 0
    # --update writes unordered rows in the engine's order, as it does for a table block
    engine_order = b'| "Ada"   |\n| "Grace" |\n| "Alan"  |'
    assert copy.read_bytes() == original.replace(b'| "Grace" |\n| "Ada"   |\n| "Alan"  |', engine_order)
    assert cookbook(capsys, copy)[0] == 0


def test_an_empty_trace_is_unrecorded_and_update_fills_it_in(capsys, tmp_path):
    copy = tmp_path / "trace.md"
    original = TRACE_PAGE.read_text()
    start = original.index("```trace calls=calls from=count\n") + len("```trace calls=calls from=count\n")
    end = original.index("```", start)
    copy.write_text(original[:start] + original[end:])
    assert run_page(read_page(copy), cell="calls").cells[-1].status == UNRECORDED
    code, out = cookbook(capsys, copy, "--update")
    assert code == 0 and f"{copy}:26: updated the trace block of cell 'calls'" in out
    assert cookbook(capsys, copy)[0] == 0
    assert read_steps(read_page(copy).cell("calls").recorded.text)[1].counters == {
        "nodes_created": 1, "properties_set": 2, "labels_added": 1}


def test_a_cell_target_skips_traces_it_does_not_need():
    outcome = run_page(read_page(TRACE_PAGE), cell="count-again")
    assert [(cell.cell.name, cell.status) for cell in outcome.cells] == [
        ("people", RAN), ("count", RAN), ("count-again", PASSED)]


STEPS = [
    Step("read_cypher", ["name", "p"], [('"a|b"', '{"id": 1}'), ('"c"', "null")], 2, ordered=True),
    Step("write_cypher", None, [], 0, {"nodes_created": 2, "labels_added": 2}),
    Step("read_cypher", None, [], 0),
    Step("read_cypher", error="SyntaxError: bad (line 1, column 3)\n  RETURN\n    ^"),
]


def test_a_recording_reads_back_as_what_was_rendered():
    text = render_steps(STEPS)
    assert text.splitlines()[:6] == [
        "// step 1 of 4: read_cypher", '| name  | p         |', "|-------|-----------|",
        '| "a|b" | {"id": 1} |', '| "c"   | null      |', "2 rows"]
    assert "// step 2 of 4: write_cypher\n(no rows) · nodes_created: 2, labels_added: 2\n" in text
    read = read_steps(text)
    assert [(s.tool, s.columns, s.rows, s.count, s.counters, s.error) for s in read] == [
        (s.tool, s.columns, s.rows, s.count, s.counters, s.error) for s in STEPS]
    assert check_steps(text, STEPS).equal


@pytest.mark.parametrize(("text", "reason"), [
    ("stray\n// step 1 of 1: read_cypher\n(no rows)\n", "'stray' comes before the first"),
    ("// step 1 of 1: read_cypher\n| x |\n", "is not a footer"),
    ("// step 1 of 1: read_cypher\n", "the read_cypher step shows no result"),
])
def test_an_unreadable_recording_is_a_drift_that_update_rewrites(text, reason):
    check = check_steps(text, STEPS)
    assert not check.equal and reason in check.reasons[0]
    assert check.actual == render_steps(STEPS)


TYPED = Step("chain", ["p"], [('{"nodes": []}',)], 1, seen={
    "keys": '["person:ada", "person:grace"]',
    "relationships": '[{"end": "person:grace", "id": 0, "start": "person:ada", "type": "KNOWS"}]'})


def test_a_typed_steps_keys_and_relationships_are_recorded_and_compared():
    text = render_steps([TYPED])
    assert text.splitlines()[-3:] == [
        "1 row", 'keys: ["person:ada", "person:grace"]',
        'relationships: [{"end": "person:grace", "id": 0, "start": "person:ada", "type": "KNOWS"}]']
    assert read_steps(text)[0].seen == TYPED.seen
    assert check_steps(text.replace('["person:ada", "person:grace"]', '["person:ada","person:grace"]'), [TYPED]).equal
    drifted = check_steps(text.replace('"person:grace"]', '"person:alan"]'), [TYPED])
    assert drifted.reasons == ["step 1 (chain): the keys differ"]
    assert "relationships differ" in check_steps(text.replace("KNOWS", "LIKES"), [TYPED]).reasons[0]
    assert check_steps(text.replace("keys: [", "keys: {"), [TYPED]).reasons[0].startswith(
        "the recorded trace cannot be read: the keys line is not JSON")
