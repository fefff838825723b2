"""Replay a page's trace: its calls sent by an MCP client to the real server, in this process.

The trace gets a database of its own: a fresh in-memory one on which the page's cells, from the first
through the trace's `from` cell, run again in order. That is the database as those cells left it,
without copying the page's (which may by now hold what later cells wrote), and the replay's writes
never reach the page's own database. The engine is deterministic, so ids and counters are the ones
the page's run saw at that cell.

The client is the SDK's `Client` over its in-memory JSON-RPC transport (`mode="legacy"`: initialize,
then `tools/call` requests), so each call goes through the same handlers, argument validation and
result conversion as over stdio. The server has the tools the page itself declares (docs/tool-cells.md)
beside the three, as `cookbook serve --tools PAGE` would, so a trace can record typed tool calls.
"""

from __future__ import annotations

from typing import Any

import anyio
from mcp import Client
from mcp_types import CallToolResult

import engine
from runner.check.compare import Check
from runner.mcp.page_tools import PageTools
from runner.mcp.recording import Step, check_steps, step_from_result
from runner.mcp.server import build_server
from runner.mcp.tools import CypherTools
from runner.page.model import Page, Trace


class TraceError(Exception):
    """The trace could not be replayed at all (a cell it builds on failed); not a step's tool error."""


def check_trace(page: Page, trace: Trace) -> Check:
    """Replay `trace` and compare each step with its recording (the trace block's content)."""
    assert trace.recorded is not None  # a trace records into its own block
    return check_steps(trace.recorded.text, replay_trace(page, trace))


def replay_trace(page: Page, trace: Trace) -> list[Step]:
    """Each call's result, in order, on the database the cells through `trace.start` build."""
    steps = page.data[trace.calls].values["steps"]
    with engine.connect(":memory:") as connection:
        build_database(page, trace, connection)
        tools = CypherTools(connection)
        return anyio.run(replay_calls, tools, steps, PageTools(tools, page.tools) if page.tools else None)


def build_database(page: Page, trace: Trace, connection: engine.Connection) -> None:
    for cell in page.cells_through(trace.start):
        try:
            connection.execute_script(cell.text, page.params_for(cell), graph=cell.graph)
        except Exception as error:
            if cell.expects_error and isinstance(error, engine.CypherError):
                continue  # it was meant to raise
            raise TraceError(f"cell {cell.name!r}, run again to build the trace's database, failed: "
                             f"{error}") from error


async def replay_calls(tools: CypherTools, steps: list[dict[str, Any]],
                       page_tools: PageTools | None = None) -> list[Step]:
    """Send each step's call to a server on `tools` (and `page_tools`), one after another, and keep what
    came back."""
    results = []
    async with Client(build_server(tools, page_tools), mode="legacy") as client:
        for step in steps:
            tools.last_ordered = False
            result = await client.call_tool(step["tool"], step.get("arguments") or {})
            results.append(step_from_call(step["tool"], result, ordered=tools.last_ordered))
    return results


def step_from_call(tool: str, result: CallToolResult, *, ordered: bool) -> Step:
    if result.is_error:
        text = "\n".join(block.text for block in result.content if block.type == "text")
        return step_from_result(tool, None, text, ordered=ordered)
    return step_from_result(tool, result.structured_content, None, ordered=ordered)
