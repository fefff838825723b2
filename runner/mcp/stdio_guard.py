"""`cookbook serve` over stdio, answering every request: one nested too deeply gets a JSON-RPC error.

The SDK's stdio transport parses each line with pydantic, whose JSON parser refuses nesting past about
200 levels; the failure never becomes a response, so a client that sent a parameter nested 200 deep waited
for ever (issue 32). Here each line's depth is measured first, by a scan of its brackets outside strings
(no recursion), and a line deeper than MESSAGE_DEPTH is answered at once with an Invalid Request error
carrying the request's id, read from the line's top level. Lines within the bound go to the SDK as before;
a parameter nested deeper than the engine takes (100 levels) still gets the engine's ParameterTooDeep.

The transport is the SDK's own (`stdio_server`), given the streams: fd 0 and 1 are claimed as the SDK
claims them (the wire on private duplicates, fd 0 on the null device, fd 1 on stderr), so nothing else in
the process can read the wire or write stray bytes into it.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from io import TextIOWrapper
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server

MESSAGE_DEPTH = 120
"""The deepest nesting of arrays and objects a message may have: the engine's 100 levels of parameter
(engine.limits.PARAMETER_DEPTH) inside the request's own five."""
INVALID_REQUEST = -32600
TOP_LEVEL_ID = re.compile(r'"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|null)')


def depth_and_top(line: str) -> tuple[int, str]:
    """How deep `line`'s arrays and objects nest, and its text at depth 1 (the top-level object's members,
    nested values left out), in one pass without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    top: list[str] = []
    for char in line:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
        if depth == 1 or (depth == 0 and char in "]}"):
            top.append(char)
    return deepest, "".join(top)


def refusal(line: str) -> str | None:
    """The JSON-RPC error line answering `line`, when it nests deeper than MESSAGE_DEPTH; None otherwise."""
    deepest, top = depth_and_top(line)
    if deepest <= MESSAGE_DEPTH:
        return None
    found = TOP_LEVEL_ID.search(top)
    ident: Any = json.loads(found[1]) if found else None
    message = (f"Invalid Request: the message nests arrays and objects {deepest} levels deep; at most "
               f"{MESSAGE_DEPTH} are accepted (a parameter may nest 100 levels)")
    return json.dumps({"jsonrpc": "2.0", "id": ident, "error": {"code": INVALID_REQUEST, "message": message}})


class Wire:
    """The wire's two ends as the SDK's transport uses them: lines read, and lines written whole (a refusal
    written here never lands inside a line the SDK writes)."""

    def __init__(self, reader: TextIOWrapper, writer: TextIOWrapper) -> None:
        self._reader = anyio.wrap_file(reader)
        self._writer = writer
        self._lock = threading.Lock()

    async def write(self, text: str) -> None:
        await anyio.to_thread.run_sync(self._write, text)

    def _write(self, text: str) -> None:
        with self._lock:
            self._writer.write(text)
            self._writer.flush()

    async def flush(self) -> None:
        """Each write is flushed with it."""

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        async for line in self._reader:
            answer = refusal(line)
            if answer is None:
                yield line
            else:
                await self.write(answer + "\n")


@contextmanager
def claimed(fd: int, mode: str, replacement: int) -> Iterator[Any]:
    """A private duplicate of `fd` opened in `mode`, with `fd` pointing at `replacement` until the block ends."""
    private = os.dup(fd)
    os.dup2(replacement, fd)
    os.close(replacement)
    try:
        yield os.fdopen(private, mode, closefd=False)
    finally:
        os.dup2(private, fd)
        os.close(private)


@asynccontextmanager
async def guarded_stdio() -> AsyncIterator[tuple[Any, Any]]:
    """The SDK's stdio transport on the claimed wire, with too-deep lines answered before it parses them."""
    with claimed(0, "rb", os.open(os.devnull, os.O_RDONLY)) as wire_in, claimed(1, "wb", os.dup(2)) as wire_out:
        wire = Wire(TextIOWrapper(wire_in, encoding="utf-8", errors="replace"),
                    TextIOWrapper(wire_out, encoding="utf-8"))
        async with stdio_server(wire, wire) as streams:  # type: ignore[arg-type]
            yield streams


async def serve_stdio(server: MCPServer) -> None:
    """`server.run("stdio")`, on the guarded transport. The SDK's MCPServer has no public way to run on given
    streams, so its low-level server (whose `run` is public) is reached through `_lowlevel_server`."""
    lowlevel = server._lowlevel_server
    async with guarded_stdio() as (read_stream, write_stream):
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
