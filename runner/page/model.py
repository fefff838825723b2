"""What a page is made of once read: cells, data blocks and recorded blocks, each with its 1-based line.

Lines are those of the Markdown source, counted from 1, the way editors show them. A fenced block's
`line` is its opening fence; its content starts on `line + 1` (`content_line`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.errors import PageError, PageWarning


@dataclass
class Fence:
    """A fenced code block as found in the source, whatever its kind.

    `end_line` is the closing fence's line, or the last line of the block when the fence is never closed
    (`closed` is then False). `prefix` is what stands before the fence marker on a content line (`> ` in a
    block quote, spaces in a list item); the update step re-applies it to lines it writes. `marker` is the
    opening fence's run of backticks or tildes.
    """

    info: str
    content: str
    line: int
    end_line: int
    closed: bool = True
    prefix: str = ""
    marker: str = "```"

    @property
    def content_line(self) -> int:
        return self.line + 1


@dataclass
class DataBlock:
    """A ```` ```json data=NAME ```` block: a JSON object whose keys are query parameters."""

    name: str
    values: dict[str, Any]
    fence: Fence

    @property
    def line(self) -> int:
        return self.fence.line


@dataclass
class ToolBlock(DataBlock):
    """A ```` ```json tool=NAME ```` block: the declaration of tool NAME (its description, access,
    parameters, key columns, or the server tool it is an alias of), checked against
    runner/schemas/tool.schema.json."""


@dataclass
class RecordedBlock:
    """A ```` ```table ````, ```` ```gram ```` or ```` ```error ```` block: the recorded result of the cell
    above it (an `error` block records the error a cell marked `error` raises)."""

    kind: str
    fence: Fence

    @property
    def line(self) -> int:
        return self.fence.line

    @property
    def text(self) -> str:
        return self.fence.content


@dataclass
class Cell:
    """A ```` ```cypher cell=NAME ```` block: one or more `;`-separated statements, run in page order.

    `expects_error` is the bare word `error` in its info string: the cell passes when it raises the
    error its ```` ```error ```` block records (docs/error-cells.md). `tool` is its `tool=NAME`: the cell
    is also the MCP tool NAME (docs/tool-cells.md). `graph` is its `graph=NAME`: the named graph of the
    database its statements run on (ADR-0068); None, the default graph.
    """

    name: str
    fence: Fence
    params: str | None = None
    setup: bool = False
    expects_error: bool = False
    recorded: RecordedBlock | None = None
    tool: str | None = None
    graph: str | None = None

    @property
    def line(self) -> int:
        return self.fence.line

    @property
    def text(self) -> str:
        return self.fence.content

    @property
    def content_line(self) -> int:
        return self.fence.content_line


@dataclass
class Trace(Cell):
    """A ```` ```trace calls=DATA from=CELL ```` block: the tool calls of data block DATA, replayed through
    the MCP server on the database as the cells up to CELL left it.

    It runs and is checked in page order like a cell, under the name of its calls block, but it never
    touches the page's database. Its own content is its recording (`recorded` is the trace's fence), so
    `--update` writes it in place.
    """

    calls: str = ""
    start: str = ""


@dataclass
class ToolDeclaration:
    """A tool a page offers: the cell marked `tool=NAME` (None for an alias) with what its `json tool=NAME`
    block declares, or what the page implies where the block is silent.

    `parameters` maps each parameter name to its JSON Schema; one with a `default` may be left out of a
    call. `line` is where the tool is declared, for errors: its cell's line, or its block's for an alias.
    """

    name: str
    description: str
    line: int
    cell: Cell | None = None
    access: str = "read"
    parameters: dict[str, dict[str, Any]] = field(default_factory=dict)
    keys: list[str] = field(default_factory=list)
    alias: str | None = None

    @property
    def read_only(self) -> bool:
        return self.access == "read"

    @property
    def input_schema(self) -> dict[str, Any]:
        """The MCP `inputSchema`: an object of the declared parameters, nothing else; those without a
        default are required."""
        return {"type": "object", "properties": self.parameters,
                "required": [name for name, schema in self.parameters.items() if "default" not in schema],
                "additionalProperties": False}


@dataclass
class Page:
    """A parsed page. `errors` are the problems that keep it from running; `warnings` do not.

    `source` is the file's exact text (line endings included): the update step edits it, nothing else.
    """

    path: Path
    source: str
    front_matter: dict[str, Any] = field(default_factory=dict)
    cells: list[Cell] = field(default_factory=list)
    data: dict[str, DataBlock] = field(default_factory=dict)
    tool_blocks: dict[str, ToolBlock] = field(default_factory=dict)
    tools: dict[str, ToolDeclaration] = field(default_factory=dict)
    errors: list[PageError] = field(default_factory=list)
    warnings: list[PageWarning] = field(default_factory=list)

    @property
    def title(self) -> str:
        return str(self.front_matter.get("title") or self.path.stem)

    def cell(self, name: str) -> Cell | None:
        return next((cell for cell in self.cells if cell.name == name), None)

    def cells_through(self, name: str) -> list[Cell]:
        """The Cypher cells from the first through `name`, in page order (traces left out)."""
        cells = [cell for cell in self.cells if not isinstance(cell, Trace)]
        names = [cell.name for cell in cells]
        return cells[:names.index(name) + 1] if name in names else []

    def params_for(self, cell: Cell) -> dict[str, Any] | None:
        return self.data[cell.params].values if cell.params else None
