"""Markdown source → Page: markdown-it-py finds the fences, BLOCK_KINDS says what each one is.

markdown-it numbers lines from 0 with an exclusive end (`token.map`); this module converts them to the
1-based lines used everywhere else, once, in `_fence_from_token`. Fences that markdown-it leaves inside
an HTML block (a `<details>` with no blank line before the fence) are found by `_fences_in_html`.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from runner.errors import PageError, PageWarning
from runner.page.front_matter import find_front_matter, read_front_matter
from runner.page.info_string import InfoString, parse_info_string
from runner.page.model import Cell, DataBlock, Fence, Page, RecordedBlock, ToolBlock, Trace
from runner.page.tools import declare_tools

LINE_BREAK = re.compile(r"\r\n|\r|\n")
FENCE_OPEN = re.compile(r"^(?P<indent> {0,3})(?P<marker>`{3,}|~{3,})(?P<info>.*)$")


def split_lines(text: str) -> list[str]:
    """Lines without their endings, split the way Markdown splits them (LF, CRLF or CR)."""
    return LINE_BREAK.split(text)


def read_page(path: str | Path) -> Page:
    """Read and parse the page at `path`. Problems end up in `page.errors`, never raised."""
    path = Path(path)
    data = path.read_bytes()
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        page = Page(path=path, source=data.decode("utf-8", errors="replace"))
        page.errors.append(PageError(path, line, f"the page is not UTF-8 text ({error.reason})"))
        return page
    return parse_page(source, path)


def parse_page(source: str, path: str | Path = "<page>") -> Page:
    """Parse Markdown text into a Page: front matter, cells, data blocks and recorded blocks."""
    path = Path(path)
    page = Page(path=path, source=source)
    lines = split_lines(source.removeprefix("\ufeff"))
    page.front_matter, errors = read_front_matter(path, lines)
    page.errors.extend(errors)
    found = find_front_matter(lines)
    if found:  # blank the front matter so markdown-it's line numbers stay those of the file
        lines = [""] * (found[1] + 1) + lines[found[1] + 1:]
    reader = _PageReader(page, lines)
    for fence in find_fences(lines):
        reader.add(fence)
    reader.finish()
    page.errors.sort(key=lambda error: error.line)
    page.warnings.sort(key=lambda warning: warning.line)
    return page


def find_fences(lines: list[str]) -> list[Fence]:
    """Every fenced code block of the document, in page order, including those inside HTML blocks."""
    tokens = MarkdownIt("commonmark").parse("\n".join(lines))
    fences: list[Fence] = []
    for token in tokens:
        if token.type == "fence" and token.map:
            fences.append(_fence_from_token(token.info, token.content, token.markup, token.map, lines))
        elif token.type == "html_block" and token.map:
            fences.extend(_fences_in_html(lines, token.map[0], token.map[1]))
    return sorted(fences, key=lambda fence: fence.line)


def _fence_from_token(info: str, content: str, markup: str, line_map: list[int], lines: list[str]) -> Fence:
    start, end = line_map  # 0-based, end exclusive
    last = lines[end - 1] if end - 1 < len(lines) else ""
    closing = re.match(rf"^(?P<prefix>[ \t>]*){re.escape(markup[0])}{{{len(markup)},}}[ \t]*$", last)
    closed = end - 1 > start and closing is not None
    prefix = closing["prefix"] if closed and closing else _prefix_of(lines[start], markup)
    return Fence(info=info.strip(), content=content, line=start + 1, end_line=end, closed=closed,
                 prefix=prefix, marker=markup)


def _prefix_of(opening: str, markup: str) -> str:
    index = opening.find(markup)
    return re.sub(r"[^>\s]", " ", opening[:index]) if index > 0 else ""


def _fences_in_html(lines: list[str], start: int, end: int) -> list[Fence]:
    """Fences markdown-it kept inside an HTML block's raw text, found line by line as CommonMark would."""
    fences = []
    index = start
    while index < end:
        opening = FENCE_OPEN.match(lines[index])
        if not opening or (opening["marker"][0] == "`" and "`" in opening["info"]):
            index += 1
            continue
        marker, indent = opening["marker"], len(opening["indent"])
        closing = re.compile(rf"^ {{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$")
        close_at = next((i for i in range(index + 1, end) if closing.match(lines[i])), None)
        last = close_at if close_at is not None else end  # a blank line ended the HTML block first
        content = "".join(_strip_indent(line, indent) + "\n" for line in lines[index + 1:last])
        fences.append(Fence(info=opening["info"].strip(), content=content, line=index + 1,
                            end_line=last + 1 if close_at is not None else last, closed=close_at is not None,
                            prefix="", marker=marker))
        index = last + 1
    return fences


def _strip_indent(line: str, indent: int) -> str:
    removable = len(line) - len(line.lstrip(" "))
    return line[min(indent, removable):]


@dataclass(frozen=True)
class BlockKind:
    """What a fence's first info-string word means: the keys and bare flags it takes, and its reader.

    `strict`: an unknown `key=value` is a page error, not a warning. So it is on a `cypher` fence, where a
    misspelled key (`cel=x`) would otherwise leave a cell out of the run without a word.
    """

    keys: tuple[str, ...]
    flags: tuple[str, ...]
    read: Callable[[_PageReader, Fence, InfoString], None]
    strict: bool = False


class _PageReader:
    """Turns fences, in page order, into the page's cells, data blocks and recorded blocks."""

    def __init__(self, page: Page, lines: list[str]) -> None:
        self.page = page
        self.lines = lines
        self.current: Cell | None = None
        self.unread_tools: set[str] = set()
        """Tools whose block could not be read: no declaration is made up for them without it."""
        self.unread_data: dict[str, int] = {}
        """Data blocks that could not be read (invalid JSON, not an object) → their line. Their error is the
        cause: a `params=` or `calls=` naming one gets no second error saying the block is missing."""
        self.cut_short = False
        """An unclosed fence ended the reading: what follows it is not the page its author wrote."""

    def error(self, line: int, message: str) -> None:
        self.page.errors.append(PageError(self.page.path, line, message))

    def warn(self, line: int, message: str) -> None:
        self.page.warnings.append(PageWarning(self.page.path, line, message))

    def add(self, fence: Fence) -> None:
        if self.cut_short:
            return
        info = parse_info_string(fence.info)
        kind = BLOCK_KINDS.get(info.language)
        swallowed = _swallowed(fence)
        if swallowed or (kind is not None and not fence.closed):
            self._unclosed(fence, info.language, swallowed)
            return
        if kind is None:
            return  # mermaid, python, ...: not ours
        for problem in info.problems:
            self.warn(fence.line, f"info string {fence.info!r}: {problem}")
        self._check_words(fence, info, kind)
        kind.read(self, fence, info)

    def _unclosed(self, fence: Fence, language: str, swallowed: tuple[int, str] | None) -> None:
        """A fence of ours never closed, or any fence whose content holds the opening of one of ours: its
        content runs on into the prose or over the next blocks, so reading it, or anything after it, would
        mislead (prose run as Cypher, a cell left out)."""
        what = f"`{language}` fence" if language else "fence"
        if swallowed:
            line, inner = swallowed
            problem = f"is not closed before the `{inner}` fence at line {line}, which it reads as its content"
        else:
            problem = "is never closed"
        self.error(fence.line, f"this {what} {problem}: end it with a line of {fence.marker} (inside HTML "
                               "such as <details>, also leave a blank line before the fence)")
        self.cut_short = True

    def _check_words(self, fence: Fence, info: InfoString, kind: BlockKind) -> None:
        known = [*kind.keys, *kind.flags]
        for word, spelled, report in [
                *((key, f"{key}=", self.error if kind.strict else self.warn)
                  for key in info.attributes if key not in kind.keys),
                *((flag, flag, self.warn) for flag in info.flags if flag not in kind.flags)]:
            hint = difflib.get_close_matches(word, known, n=1)
            suggestion = f"; did you mean {hint[0]!r}?" if hint else (
                f"; a `{info.language}` block takes {', '.join(known)}" if known else "")
            report(fence.line, f"unknown {spelled!r} in `{info.language}` info string{suggestion}")

    def read_cell(self, fence: Fence, info: InfoString) -> None:
        name = info.attributes.get("cell")
        if name is None:
            if "params" in info.attributes or "setup" in info.flags or "error" in info.flags:
                self.warn(fence.line, "a `cypher` block with params=, setup or error but no cell=NAME is not run")
            elif "tool" in info.attributes:
                self.warn(fence.line, "a `cypher` block with tool= but no cell=NAME is no tool: a tool is a cell")
            return
        if not name:
            self.error(fence.line, "cell= needs a name")
            return
        earlier = self.page.cell(name)
        if earlier:
            self.error(fence.line, f"duplicate cell name {name!r} (first defined at line {earlier.line})")
        tool = info.attributes.get("tool")
        if tool == "":
            self.error(fence.line, "tool= needs a name")
        graph = info.attributes.get("graph")
        if graph == "":
            self.error(fence.line, "graph= needs a name")
        cell = Cell(name=name, fence=fence, params=info.attributes.get("params"), setup="setup" in info.flags,
                    expects_error="error" in info.flags, tool=tool or None, graph=graph or None)
        self.current = cell
        if not earlier:
            self.page.cells.append(cell)

    def read_data(self, fence: Fence, info: InfoString) -> None:
        name = info.attributes.get("data")
        if "tool" in info.attributes:
            if name is not None:
                self.error(fence.line, "a `json` block is data=NAME or tool=NAME, not both")
            else:
                self.read_tool_block(fence, info.attributes["tool"])
            return
        if name is None:
            return  # plain JSON
        if not name:
            self.error(fence.line, "data= needs a name")
            return
        first = self.page.data[name].line if name in self.page.data else self.unread_data.get(name)
        if first is not None:
            self.error(fence.line, f"duplicate data block name {name!r} (first defined at line {first})")
            return
        values = self._json_object(fence, f"data block {name!r}", "a JSON object whose keys are parameters")
        if values is None:
            self.unread_data[name] = fence.line
        else:
            self.page.data[name] = DataBlock(name=name, values=values, fence=fence)

    def read_tool_block(self, fence: Fence, name: str) -> None:
        """A ```` ```json tool=NAME ```` block: checked against the tool schema once the page is read."""
        if not name:
            self.error(fence.line, "tool= needs a name")
            return
        if name in self.page.tool_blocks:
            first = self.page.tool_blocks[name].line
            self.error(fence.line, f"duplicate tool block {name!r} (first defined at line {first})")
            return
        values = self._json_object(fence, f"tool block {name!r}", "a JSON object declaring the tool")
        if values is None:
            self.unread_tools.add(name)
        else:
            self.page.tool_blocks[name] = ToolBlock(name=name, values=values, fence=fence)

    def _json_object(self, fence: Fence, what: str, expected: str) -> dict[str, Any] | None:
        try:
            values = json.loads(fence.content)
        except json.JSONDecodeError as error:
            self.error(fence.content_line + error.lineno - 1,
                       f"invalid JSON in {what}: {error.msg} (column {error.colno})")
            return None
        if not isinstance(values, dict):
            self.error(fence.line, f"{what} must be {expected}, not {_json_kind(values)}")
            return None
        return values

    def read_recorded(self, fence: Fence, info: InfoString) -> None:
        kind = info.language
        if self.current is None:
            self.error(fence.line, f"a `{kind}` block records a cell's result, but there is no cell above it")
            return
        if self.current.recorded is not None:
            self.error(fence.line, f"cell {self.current.name!r} already has its recorded block at line "
                                   f"{self.current.recorded.line}")
            return
        if kind == "error" and not self.current.expects_error:
            self.error(fence.line, f"an `error` block records the error of a cell marked `error`, and cell "
                                   f"{self.current.name!r} is not (write `cypher cell={self.current.name} error`)")
            return
        if kind != "error" and self.current.expects_error:
            self.error(fence.line, f"cell {self.current.name!r} is marked `error`: its recording is an `error` "
                                   f"block, not a `{kind}` block")
            return
        self.current.recorded = RecordedBlock(kind=kind, fence=fence)

    def read_trace(self, fence: Fence, info: InfoString) -> None:
        self.current = None  # a `table` after a trace has no cell to record
        calls, start = info.attributes.get("calls"), info.attributes.get("from")
        if not calls or not start:
            self.error(fence.line, "a `trace` block needs calls=DATA (the data block of tool calls) and "
                                   "from=CELL (the cell whose database the calls start on)")
            return
        earlier = self.page.cell(calls)
        if earlier:
            self.error(fence.line, f"duplicate cell name {calls!r}: a trace runs under the name of its calls "
                                   f"block, and line {earlier.line} already uses it")
            return
        self.page.cells.append(Trace(name=calls, fence=fence, recorded=RecordedBlock("trace", fence),
                                     calls=calls, start=start))

    def finish(self) -> None:
        if self.cut_short:
            return  # the blocks a cell or trace names may be past the unclosed fence: no errors follow from it
        for trace in (cell for cell in self.page.cells if isinstance(cell, Trace)):
            self._check_trace(trace)
        for cell in self.page.cells:
            if cell.params is not None and cell.params not in self.page.data and cell.params not in self.unread_data:
                hint = difflib.get_close_matches(cell.params, list(self.page.data), n=1)
                suggestion = f"; did you mean {hint[0]!r}?" if hint else ""
                self.error(cell.line,
                           f"cell {cell.name!r}: params={cell.params} names no data block{suggestion}")
        declare_tools(self.page, self.lines, self.unread_tools)

    def _check_trace(self, trace: Trace) -> None:
        if not self.page.cells_through(trace.start):
            names = [cell.name for cell in self.page.cells if not isinstance(cell, Trace)]
            hint = difflib.get_close_matches(trace.start, names, n=1)
            suggestion = f"; did you mean {hint[0]!r}?" if hint else ""
            self.error(trace.line, f"trace {trace.name!r}: from={trace.start} names no cell{suggestion}")
        data = self.page.data.get(trace.calls)
        if trace.calls in self.unread_data:
            return
        if data is None:
            hint = difflib.get_close_matches(trace.calls, list(self.page.data), n=1)
            suggestion = f"; did you mean {hint[0]!r}?" if hint else ""
            self.error(trace.line,
                       f"trace {trace.name!r}: calls={trace.calls} names no data block{suggestion}")
            return
        problem = calls_problem(data.values)
        if problem:
            self.error(data.line, f"data block {data.name!r} is the calls of a trace, but {problem}")


def calls_problem(values: dict[str, Any]) -> str | None:
    """What is wrong with a calls data block, or None: it must be `{"steps": [{"tool": NAME,
    "arguments": {…}}, …]}`, each step optionally with a `note`."""
    steps = values.get("steps")
    if not isinstance(steps, list) or not steps:
        return 'it has no "steps" list of calls'
    for number, step in enumerate(steps, start=1):
        if not isinstance(step, dict) or not isinstance(step.get("tool"), str):
            return f'step {number} is not an object with a "tool" name'
        if not isinstance(step.get("arguments", {}), dict):
            return f'the "arguments" of step {number} are not an object'
    return None


def _swallowed(fence: Fence) -> tuple[int, str] | None:
    """The line and language of a fence of ours opened inside `fence`'s content, or None. Only an opening
    that would have closed `fence` but for its info string counts: a recipe shown in a longer fence
    (```` ````markdown ```` around ```` ```cypher ````) is content as its author meant."""
    for number, line in enumerate(split_lines(fence.content), start=fence.content_line):
        opening = FENCE_OPEN.match(line)
        if (opening and opening["marker"][0] == fence.marker[0] and len(opening["marker"]) >= len(fence.marker)
                and parse_info_string(opening["info"]).language in BLOCK_KINDS):
            return number, parse_info_string(opening["info"]).language
    return None


def _json_kind(value: object) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number",
            type(None): "null"}.get(type(value), type(value).__name__)


BLOCK_KINDS: dict[str, BlockKind] = {
    "cypher": BlockKind(keys=("cell", "params", "tool", "graph"), flags=("setup", "error"), read=_PageReader.read_cell,
                        strict=True),
    "json": BlockKind(keys=("data", "tool"), flags=(), read=_PageReader.read_data),
    "table": BlockKind(keys=(), flags=(), read=_PageReader.read_recorded),
    "gram": BlockKind(keys=(), flags=(), read=_PageReader.read_recorded),
    "error": BlockKind(keys=(), flags=(), read=_PageReader.read_recorded),
    "trace": BlockKind(keys=("calls", "from"), flags=(), read=_PageReader.read_trace),
}
"""Info-string language word → the kind of block. Fences of any other language are left alone."""
