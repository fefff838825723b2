"""Tool cells: a page's cells marked `tool=NAME`, and their `json tool=NAME` blocks, → ToolDeclarations.

A recipe page already holds named, parameterised, tested Cypher with prose around it, which is what an
agent's tool is; this module reads what a page says about its tools and checks it before anything runs
(docs/tool-cells.md, ADR-0067). Each block is checked against runner/schemas/tool.schema.json with
jsonschema, each problem reported at the line of the key at fault. What one block cannot say alone is
checked here: a block whose tool no cell is, two cells as one tool, a tool with no description, a name
the server's own tools have, and the cell's own `params=` data block, which must be a valid call of the
tool it declares (the cell's recorded result is then what that call returns).
"""

from __future__ import annotations

import difflib
import json
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from markdown_it import MarkdownIt

from runner.errors import PageError
from runner.page.json_lines import line_of
from runner.page.model import Cell, DataBlock, Page, ToolBlock, ToolDeclaration, Trace

if TYPE_CHECKING:
    import jsonschema

SERVER_TOOLS = ("read_cypher", "write_cypher", "get_schema")
"""The tools `cookbook serve` always has: a page's tool may be an alias of one, never take its name."""


@cache
def tool_schema() -> dict[str, Any]:
    """The JSON Schema of a `json tool=NAME` block (runner/schemas/tool.schema.json)."""
    text = resources.files("runner").joinpath("schemas/tool.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


@cache
def _validators() -> tuple[jsonschema.Validator, jsonschema.Validator]:
    """The block's validator and the tool name's. jsonschema loads only for a page with tools: it takes a
    good part of a short run's start-up time."""
    import jsonschema

    schema = tool_schema()
    return jsonschema.Draft202012Validator(schema), jsonschema.Draft202012Validator(schema["$defs"]["name"])


def declare_tools(page: Page, lines: list[str], unread: set[str] | frozenset[str] = frozenset()) -> None:
    """Fill `page.tools` from its tool cells and tool blocks; each problem goes to `page.errors`. `unread`
    are tools whose block could not be read (reported already): their cells are left undeclared."""
    if not page.tool_blocks and not any(cell.tool for cell in page.cells):
        return
    reader = _ToolReader(page, lines)
    cells = {name: cell for name, cell in reader.tool_cells().items() if name not in unread}
    valid_blocks = {name: block for name, block in page.tool_blocks.items() if reader.block_is_valid(block)}
    for name, block in page.tool_blocks.items():
        if name not in cells and "alias" not in block.values:
            reader.unclaimed(block, cells)
    for name, cell in cells.items():
        reader.declare_cell(name, cell, page.tool_blocks.get(name), name in valid_blocks)
    for name, block in valid_blocks.items():
        if "alias" in block.values:
            reader.declare_alias(name, block, cells.get(name))


class _ToolReader:
    """The checks, each appending a PageError at the line at fault."""

    def __init__(self, page: Page, lines: list[str]) -> None:
        self.page = page
        self.lines = lines

    def error(self, line: int, message: str) -> None:
        self.page.errors.append(PageError(self.page.path, line, message))

    def tool_cells(self) -> dict[str, Cell]:
        """Tool name → its cell, the first where two cells claim one name."""
        cells: dict[str, Cell] = {}
        for cell in self.page.cells:
            if cell.tool is None or isinstance(cell, Trace):
                continue
            if not self.name_is_valid(cell.tool, cell.line):
                continue
            if cell.tool in cells:
                first = cells[cell.tool]
                self.error(cell.line, f"cell {cell.name!r}: tool={cell.tool} is already cell {first.name!r} "
                                      f"(line {first.line}); a tool is one cell")
            elif cell.expects_error:
                self.error(cell.line, f"cell {cell.name!r} is marked `error`: a cell that must fail cannot be "
                                      "a tool")
            else:
                cells[cell.tool] = cell
        return cells

    def name_is_valid(self, name: str, line: int) -> bool:
        if name in SERVER_TOOLS:
            self.error(line, f"tool={name}: the server has its own {name}; give the tool another name (a "
                             f"`json tool=NAME` block with \"alias\": \"{name}\" serves {name} as NAME)")
            return False
        problem = next(iter(_validators()[1].iter_errors(name)), None)
        if problem is not None:
            self.error(line, f"tool={name}: {problem.message} (a tool's name is letters, digits, '_', '-' "
                             "and '.', at most 64)")
            return False
        return True

    def block_is_valid(self, block: ToolBlock) -> bool:
        """Check a block against the schema; False (with its errors reported) when it breaks it."""
        if not self.name_is_valid(block.name, block.line):
            return False
        problems = schema_problems(_validators()[0], block.values)
        for path, message in problems:
            self.error(self.line_in(block, path), f"tool block {block.name!r}: {message}")
        return not problems

    def line_in(self, block: DataBlock, path: list[str | int]) -> int:
        found = line_of(block.fence.content, path)
        return block.fence.content_line + found if found is not None else block.line

    def unclaimed(self, block: ToolBlock, cells: dict[str, Cell]) -> None:
        hint = difflib.get_close_matches(block.name, list(cells), n=1)
        suggestion = f"; did you mean {hint[0]!r}?" if hint else ""
        self.error(block.line, f"tool block {block.name!r} declares a tool no cell is: mark its cell "
                               f"`tool={block.name}`, or make it an \"alias\" of {', '.join(SERVER_TOOLS)}"
                               f"{suggestion}")

    def declare_cell(self, name: str, cell: Cell, block: ToolBlock | None, valid: bool) -> None:
        if block is not None and not valid:
            return
        values = block.values if block is not None else {}
        if "alias" in values:
            return  # reported by declare_alias
        description = values.get("description") or paragraph_before(self.lines, cell.line)
        if not description:
            self.error(cell.line, f"tool {name!r} has no description: write a paragraph just before cell "
                                  f"{cell.name!r}, or \"description\" in a `json tool={name}` block")
            return
        declaration = ToolDeclaration(name=name, description=description, line=cell.line, cell=cell,
                                      access=values.get("access", "read"),
                                      parameters=dict(values.get("parameters", {})), keys=list(values.get("keys", [])))
        if self.example_is_a_call(declaration, cell):
            self.page.tools[name] = declaration

    def example_is_a_call(self, declaration: ToolDeclaration, cell: Cell) -> bool:
        """The cell's `params=` data block, its recorded example, must be a valid call of its tool."""
        data = self.page.data.get(cell.params) if cell.params else None
        if data is None:
            return True
        validator = type(_validators()[0])(declaration.input_schema)
        problems = schema_problems(validator, data.values)
        for path, message in problems:
            self.error(self.line_in(data, path), f"data block {data.name!r}, the parameters of cell "
                                                 f"{cell.name!r}, is not a valid call of tool "
                                                 f"{declaration.name!r}: {message}")
        return not problems

    def declare_alias(self, name: str, block: ToolBlock, cell: Cell | None) -> None:
        if cell is not None:
            self.error(cell.line, f"cell {cell.name!r}: tool={name} is an alias of {block.values['alias']} "
                                  f"(line {block.line}), which runs no cell")
            return
        self.page.tools[name] = ToolDeclaration(name=name, description=block.values.get("description", ""),
                                                line=block.line, alias=block.values["alias"])


def schema_problems(validator: jsonschema.Validator, instance: Any) -> list[tuple[list[str | int], str]]:
    """Each place `instance` breaks the validator's schema, once, with the clearest message jsonschema has
    for it: (the path to the key at fault, the message)."""
    import jsonschema

    by_place: dict[tuple[Any, ...], list[jsonschema.ValidationError]] = {}
    for error in validator.iter_errors(instance):
        path = list(error.absolute_path)
        if "propertyNames" in error.absolute_schema_path:  # the key itself is at fault: point at it
            path.append(error.instance)
        elif error.validator == "additionalProperties" and isinstance(error.instance, dict):
            path.extend(sorted(str(key) for key in error.instance if key not in error.schema.get("properties", {}))[:1])
        by_place.setdefault(tuple(path), []).append(error)
    problems = []
    for place, errors in sorted(by_place.items(), key=lambda item: [str(part) for part in item[0]]):
        best = jsonschema.exceptions.best_match(errors)
        assert best is not None
        problems.append((list(place), _message(list(place), best)))
    return problems


def _message(path: list[str | int], error: jsonschema.ValidationError) -> str:
    """The error's message, after the path to the value at fault, with what jsonschema knows beside it."""
    if error.absolute_schema_path and error.absolute_schema_path[0] == "then":  # the alias's exclusions
        return (f"{error.instance!r} does not go with \"alias\": an alias serves the server's tool as it is, "
                "with only its description its own")
    message = error.message
    if error.validator == "additionalProperties" and error.schema is tool_schema():
        known = list(error.schema["properties"])
        hint = difflib.get_close_matches(str(path[-1]), known, n=1) if path else []
        message += f"; did you mean {hint[0]!r}?" if hint else f"; a tool block takes {', '.join(known)}"
        path = path[:-1]
    elif error.validator == "additionalProperties":
        path = path[:-1]
    elif error.context:
        reasons = dict.fromkeys(child.message for child in error.context)
        message += f" ({'; '.join(reasons)})"
    where = ".".join(str(part) for part in path)
    return f"{where}: {message}" if where else message


def paragraph_before(lines: list[str], line: int) -> str | None:
    """The paragraph that ends just before the fence at 1-based `line` (blank lines may stand between), as
    one line of Markdown; a closing ':' that introduced the cell becomes '.'. None when anything else (a
    heading, another block) comes first."""
    tokens = _tokens("\n".join(lines))
    start = line - 1
    best = None
    for index, token in enumerate(tokens):
        if (token.type == "paragraph_open" and token.map and token.map[1] <= start
                and all(not text.strip() for text in lines[token.map[1]:start])):
            best = tokens[index + 1].content
    if best is None:
        return None
    text = " ".join(part.strip() for part in best.splitlines()).strip()
    return text[:-1].rstrip() + "." if text.endswith(":") else text


@lru_cache(maxsize=2)
def _tokens(text: str) -> list[Any]:
    """The page's markdown-it tokens, parsed once for all its tool cells."""
    return MarkdownIt("commonmark").parse(text)
