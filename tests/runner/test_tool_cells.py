"""Tool cells in the page format (docs/tool-cells.md): what a page declares, and every bad declaration
reported as FILE:LINE before anything runs."""

from __future__ import annotations

import pytest

from runner.page import parse_page, read_page
from runner.run import PASSED, run_page
from tests.runner.helpers import FIXTURES, ROOT

TOOLS_PAGE = FIXTURES / "tools.md"
TEAM_PAGE = ROOT / "cookbook" / "03-team-knowledge-graph.md"
THREADLINE_TOOLS = ["activity", "connect", "cypher_readonly", "details", "draft_triage", "expand", "find_entities",
                    "impact", "rank", "trace", "who_knows"]


def test_a_page_declares_its_tools():
    page = read_page(TOOLS_PAGE)
    assert page.errors == [] and page.warnings == []
    assert sorted(page.tools) == ["add_person", "born_before", "chain", "cypher_readonly", "forget"]
    born_before = page.tools["born_before"]
    assert born_before.cell is page.cell("born-before")
    assert born_before.description == "The people born before a year, oldest first."  # the paragraph, ':' → '.'
    assert born_before.read_only and born_before.keys == ["key"]
    assert born_before.input_schema == {
        "type": "object", "additionalProperties": False, "required": ["year"],
        "properties": {"year": {"type": "integer", "description": "Only people born before this year."},
                       "limit": {"type": "integer", "minimum": 1, "default": 10}}}
    assert page.tools["chain"].description.startswith("How one person knows another")  # the block's own
    assert not page.tools["add_person"].read_only
    assert page.tools["forget"].read_only  # no "access": read, whatever the cell does
    alias = page.tools["cypher_readonly"]
    assert (alias.alias, alias.cell, alias.description) == ("read_cypher", None, "Any Cypher statement that only "
                                                                                 "reads.")


def test_the_team_graph_page_declares_threadlines_eleven_tools():
    page = read_page(TEAM_PAGE)
    assert page.errors == []
    assert sorted(page.tools) == THREADLINE_TOOLS
    cells = {name: tool.cell.name for name, tool in page.tools.items() if tool.cell is not None}
    assert cells == {"find_entities": "fulltextEntry", "details": "details", "expand": "expand",
                     "who_knows": "whoKnowsArea", "trace": "traceIssue", "connect": "connect",
                     "impact": "impactOpenPrs", "activity": "activity.AUTHORED", "rank": "pageRankReviewers",
                     "draft_triage": "triageIssue"}
    assert page.tools["cypher_readonly"].alias == "read_cypher"
    assert page.tools["trace"].description == ("From an issue to the pull request that closed it, its author, and "
                                               "the release that shipped it.")
    assert page.tools["who_knows"].description.startswith("Expertise in an area is the KNOWS edge")


def test_a_page_with_typed_calls_in_a_trace_passes():
    outcome = run_page(read_page(TOOLS_PAGE))
    assert [(cell.cell.name, cell.status) for cell in outcome.cells] == [
        ("people", PASSED), ("born-before", PASSED), ("chain", PASSED), ("add-person", PASSED),
        ("forget", PASSED), ("typed-calls", PASSED)]


CELL = "Finds people.\n\n```cypher cell=find params=find tool=find\nMATCH (p {name: $name}) RETURN p\n```\n\n"
DATA = '```json data=find\n{"name": "Ada"}\n```\n\n'
NAME = '```json tool=find\n{\n  "parameters": {\n    "name": {"type": "string"}\n  }\n}\n```\n\n'

DECLARATION_ERRORS = {
    "an unknown field": (
        CELL + DATA
        + '```json tool=find\n{\n  "parameters": {"name": {"type": "string"}},\n  "acess": "read"\n}\n```\n',
        [(14, "tool block 'find': Additional properties are not allowed ('acess' was unexpected); did you mean "
              "'access'?")]),
    "a type JSON Schema lacks": (
        CELL + DATA + '```json tool=find\n{\n  "parameters": {\n    "name": {"type": "text"}\n  }\n}\n```\n',
        [(14, "tool block 'find': parameters.name.type: 'text' is not valid under any of the given schemas "
              "('text' is not one of ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']; "
              "'text' is not of type 'array')")]),
    "a parameter with no type": (
        CELL + DATA + '```json tool=find\n{\n  "parameters": {\n    "name": {"minLength": 1}\n  }\n}\n```\n',
        [(14, "tool block 'find': parameters.name: 'type' is a required property")]),
    "a parameter name Cypher cannot take": (
        CELL + DATA + '```json tool=find\n{\n  "parameters": {\n    "name": {"type": "string"},\n'
                      '    "first name": {"type": "string"}\n  }\n}\n```\n',
        [(15, "tool block 'find': parameters.first name: 'first name' does not match "
              "'^[A-Za-z_][A-Za-z0-9_]*$'")]),
    "an access that is neither read nor write": (
        CELL + DATA + '```json tool=find\n{"access": "readonly", "parameters": {"name": {"type": "string"}}}\n```\n',
        [(12, "tool block 'find': access: 'readonly' is not one of ['read', 'write']")]),
    "an alias with parameters": (
        '```json tool=cypher_readonly\n{\n  "alias": "read_cypher",\n  "parameters": {}\n}\n```\n',
        [(4, "tool block 'cypher_readonly': 'parameters' does not go with \"alias\": an alias serves the server's "
             "tool as it is, with only its description its own")]),
    "an alias of no server tool": (
        '```json tool=cypher_readonly\n{"alias": "run_cypher"}\n```\n',
        [(2, "tool block 'cypher_readonly': alias: 'run_cypher' is not one of ['read_cypher', 'write_cypher', "
             "'get_schema']")]),
    "a cell marked as an alias": (
        CELL.replace("tool=find", "tool=cypher_readonly") + DATA
        + '```json tool=cypher_readonly\n{"alias": "read_cypher"}\n```\n',
        [(3, "cell 'find': tool=cypher_readonly is an alias of read_cypher (line 11), which runs no cell")]),
    "a block no cell is": (
        CELL + DATA + NAME.replace("tool=find", "tool=fnd"),
        [(8, "data block 'find', the parameters of cell 'find', is not a valid call of tool 'find': "
             "Additional properties are not allowed ('name' was unexpected)"),
         (11, "tool block 'fnd' declares a tool no cell is: mark its cell `tool=fnd`, or make it an \"alias\" of "
              "read_cypher, write_cypher, get_schema; did you mean 'find'?")]),
    "two cells as one tool": (
        CELL + DATA + NAME + CELL.replace("cell=find", "cell=find-again").replace("Finds people.", "Again."),
        [(21, "cell 'find-again': tool=find is already cell 'find' (line 3); a tool is one cell")]),
    "no description": (
        "# Title\n\n```cypher cell=all tool=everyone\nMATCH (p) RETURN p\n```\n",
        [(3, "tool 'everyone' has no description: write a paragraph just before cell 'all', or \"description\" "
             "in a `json tool=everyone` block")]),
    "a table between the prose and the cell": (
        "The people.\n\n```table\n(no rows)\n```\n\n```cypher cell=all tool=everyone\nMATCH (p) RETURN p\n```\n",
        [(3, "a `table` block records a cell's result, but there is no cell above it"),
         (7, "tool 'everyone' has no description: write a paragraph just before cell 'all', or \"description\" "
             "in a `json tool=everyone` block")]),
    "the name of a server tool": (
        "Reads.\n\n```cypher cell=all tool=read_cypher\nMATCH (p) RETURN p\n```\n",
        [(3, "tool=read_cypher: the server has its own read_cypher; give the tool another name (a `json "
             "tool=NAME` block with \"alias\": \"read_cypher\" serves read_cypher as NAME)")]),
    "a name MCP does not allow": (
        "Reads.\n\n```cypher cell=all tool='who knows'\nMATCH (p) RETURN p\n```\n",
        [(3, "tool=who knows: 'who knows' does not match '^[A-Za-z0-9_.-]{1,64}$' (a tool's name is letters, "
             "digits, '_', '-' and '.', at most 64)")]),
    "an error cell": (
        "Fails.\n\n```cypher cell=bad error tool=bad\nRETURN 1 +\n```\n",
        [(3, "cell 'bad' is marked `error`: a cell that must fail cannot be a tool")]),
    "an example that is no valid call": (
        CELL + '```json data=find\n{\n  "name": 7\n}\n```\n\n' + NAME,
        [(9, "data block 'find', the parameters of cell 'find', is not a valid call of tool 'find': "
             "name: 7 is not of type 'string'")]),
    "an example missing a required parameter": (
        CELL + '```json data=find\n{}\n```\n\n' + NAME.replace('"string"}', '"string"}, "limit": {"type": "integer"}'),
        [(7, "data block 'find', the parameters of cell 'find', is not a valid call of tool 'find': 'name' is a "
             "required property")]),
    "invalid JSON": (
        CELL + DATA + '```json tool=find\n{"parameters": }\n```\n',
        [(12, "invalid JSON in tool block 'find': Expecting value (column 16)")]),
    "a block that is no object": (
        CELL + DATA + '```json tool=find\n["name"]\n```\n',
        [(11, "tool block 'find' must be a JSON object declaring the tool, not an array")]),
    "data and tool at once": (
        '```json data=x tool=x\n{}\n```\n', [(1, "a `json` block is data=NAME or tool=NAME, not both")]),
    "a duplicate block": (
        CELL + DATA + NAME + NAME, [(19, "duplicate tool block 'find' (first defined at line 11)")]),
    "tool= with no name": ('Reads.\n\n```cypher cell=all tool=""\nRETURN 1\n```\n', [(3, "tool= needs a name")]),
}


@pytest.mark.parametrize(("source", "errors"), DECLARATION_ERRORS.values(), ids=DECLARATION_ERRORS.keys())
def test_declaration_errors_name_their_line(source, errors):
    page = parse_page(source, "page.md")
    assert [(error.line, error.message) for error in page.errors] == errors
    assert all(str(error).startswith(f"page.md:{error.line}: ") for error in page.errors)


def test_a_valid_declaration_reads_without_errors():
    page = parse_page(CELL + DATA + NAME, "page.md")
    assert page.errors == [] and list(page.tools) == ["find"]
    assert page.tools["find"].description == "Finds people."


def test_a_tool_with_no_cell_name_is_a_warning():
    page = parse_page("```cypher tool=x\nRETURN 1\n```\n")
    assert [warning.message for warning in page.warnings] == [
        "a `cypher` block with tool= but no cell=NAME is no tool: a tool is a cell"]
