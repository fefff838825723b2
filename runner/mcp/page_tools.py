"""What a page's tool does when called, without MCP: arguments checked, its cell run, the result gathered.

The arguments are checked against the tool's input schema with jsonschema before anything runs, and a bad
one is refused with the schema's message, so the model can correct the call. Parameters the call leaves
out take their schema's `default`. The cell runs as `cookbook run` runs it (its statements in order, each
a transaction), read-only for a tool declared `read`: the engine refuses a statement that writes, as it
does for `read_cypher`, and nothing is changed. The result is the last statement's rows, the keys of the
nodes it holds, the relationships it traversed, the counters and the Cypher that ran (`TypedOutput`).
`server.py` adapts this to MCP; ADR-0067.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import jsonschema
from pydantic import BaseModel, Field

import engine
from runner.errors import PageError
from runner.mcp.result_graph import gather, keys_of, relationships_of
from runner.mcp.sizing import Pager, Request
from runner.mcp.tools import CypherTools, ToolFailure, counters_of
from runner.mcp.values import JsonValue
from runner.page.model import Page, ToolDeclaration
from runner.page.tools import SERVER_TOOLS


class RelationshipSeen(BaseModel):
    id: int = Field(description="The relationship's internal id.")
    type: str
    start: str = Field(description="The key of the node it starts at.")
    end: str = Field(description="The key of the node it ends at.")


class TypedOutput(BaseModel):
    """What every page tool returns."""

    columns: list[str] = Field(description="The columns of the cell's last statement, in RETURN order.")
    rows: list[dict[str, Any]] = Field(description="One object per row, keyed by column, as read_cypher's.")
    keys: list[str] = Field(description="The keys of the nodes the result holds (and of the tool's key "
                            "columns), sorted: what an answer may cite.")
    relationships: list[RelationshipSeen] = Field(description="The relationships the result holds, in its "
                                                  "paths or as values, by id.")
    cypher: str = Field(description="The Cypher that ran: the cell's text.")
    counters: dict[str, int] = Field(description="Update counters, summed over the cell's statements.")
    truncated: bool = Field(description="Whether rows were left out: a result holds at most the server's "
                            "max rows and max bytes; `message` then says what to do.")
    returned: int = Field(description="How many rows `rows` holds.")
    message: str | None = Field(default=None, description="When truncated: what was left out and what to do.")


OUTPUT_SCHEMA: dict[str, Any] = TypedOutput.model_json_schema()


@dataclass
class PageTools:
    """The tools pages declare, run on `tools`' connections. Aliases (`"alias": "read_cypher"`) are the
    server's own tools under another name: `server.py` registers them, this class only runs cells."""

    tools: CypherTools
    declarations: Mapping[str, ToolDeclaration]

    @property
    def cell_tools(self) -> dict[str, ToolDeclaration]:
        return {name: tool for name, tool in self.declarations.items() if tool.cell is not None}

    def call(self, name: str, arguments: Mapping[str, Any] | None) -> dict[str, JsonValue]:
        """Run tool `name` with `arguments`; a refused or failing call raises ToolFailure."""
        tool = self.declarations[name]
        assert tool.cell is not None
        parameters = checked_arguments(tool, dict(arguments or {}))
        hint = (f"{name} is declared read-only, and its cell writes: nothing was changed. The page that "
                "declares it must say \"access\": \"write\" for it to run.")
        request = Request(name, None, full_values=False)
        results = self.tools.run_cell(tool.cell.text, parameters, read_only=tool.read_only,
                                      hints={engine.ReadOnlyViolation: hint}, graph=tool.cell.graph,
                                      window=request.window(self.tools.caps))
        last = results[-1]
        columns = list(last.columns)
        page = Pager(self.tools.caps).page(request, columns, last, pages=False)
        seen = gather(columns, last.rows[:len(page.rows)], tool.keys)
        return {"columns": columns, "rows": list(page.rows), "keys": keys_of(seen),
                "relationships": relationships_of(seen), "cypher": tool.cell.text, "counters": summed(results),
                **page.fields()}


def checked_arguments(tool: ToolDeclaration, arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments with the defaults of those left out, once they meet the tool's input schema."""
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(tool.input_schema).iter_errors(arguments))
    if error is not None:
        where = ".".join(str(part) for part in error.absolute_path)
        at = f"argument {where!r} of {tool.name}" if where else f"the arguments of {tool.name}"
        raise ToolFailure(f"ArgumentError: {error.message} ({at})\n{tool.name} takes {signature(tool)}.")
    defaults = {name: schema["default"] for name, schema in tool.parameters.items() if "default" in schema}
    return {**defaults, **arguments}


def signature(tool: ToolDeclaration) -> str:
    """`key (string), limit (integer, optional)`: the parameters as the model can read them in an error."""
    if not tool.parameters:
        return "no arguments"
    def kind(schema: dict[str, Any]) -> str:
        types = schema.get("type")
        return " or ".join(types) if isinstance(types, list) else str(types)

    return ", ".join(f"{name} ({kind(schema)}{'' if 'default' not in schema else ', optional'})"
                     for name, schema in tool.parameters.items())


def summed(results: Iterable[engine.Result]) -> dict[str, int]:
    """Every counter, summed over the statements, as a cell's counters are."""
    totals = dict.fromkeys(engine.COUNTER_NAMES, 0)
    for result in results:
        for name, count in counters_of(result).items():
            totals[name] += count
    return totals


def declarations_of(pages: Iterable[Page]) -> dict[str, ToolDeclaration]:
    """The tools of several pages, by name. Raises the PageErrors that keep them from being served: a page's
    own errors, or a name two pages give."""
    found: dict[str, tuple[Page, ToolDeclaration]] = {}
    errors: list[PageError] = []
    for page in pages:
        errors.extend(page.errors)
        if not page.tools and not page.errors:
            errors.append(PageError(page.path, 1, "the page declares no tools (mark a cell `tool=NAME`: "
                                                  "docs/tool-cells.md)"))
        for name, tool in page.tools.items():
            if name in found:
                first_page, first = found[name]
                errors.append(PageError(page.path, tool.line, f"tool {name!r} is also declared at "
                                                              f"{first_page.path}:{first.line}"))
            else:
                found[name] = (page, tool)
    if errors:
        raise ToolPagesError(errors)
    assert not set(found) & set(SERVER_TOOLS)
    return {name: tool for name, (_, tool) in found.items()}


class ToolPagesError(Exception):
    """The `--tools` pages cannot be served; `errors` are their FILE:LINE problems."""

    def __init__(self, errors: list[PageError]) -> None:
        super().__init__("\n".join(map(str, errors)))
        self.errors = errors
