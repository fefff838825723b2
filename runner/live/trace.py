"""A trace a reader steps through: its calls sent one at a time, as the page's run replays them all.

Each call goes through the MCP server and client the replay uses (`runner.mcp.trace.replay_calls`), so a
step shows what `cookbook serve`'s tool returns for it; the steps so far are checked against as many
recorded steps (`check_steps` with the trace's total), and the whole trace, once played, against the
whole recording as `cookbook run` checks it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import anyio

import engine
from runner.check import failure_text
from runner.check.compare import Check
from runner.mcp.page_tools import PageTools
from runner.mcp.recording import Step, check_steps, first_steps
from runner.mcp.tools import CypherTools
from runner.mcp.trace import replay_calls
from runner.page import Page, Trace


@dataclass
class TraceRun:
    """A trace in progress on its database: the calls, and the steps they gave so far."""

    page: Page
    trace: Trace
    tools: CypherTools
    page_tools: PageTools | None
    calls: list[dict[str, Any]]
    steps: list[Step] = field(default_factory=list)

    @classmethod
    def start(cls, page: Page, trace: Trace, connection: engine.Connection) -> TraceRun:
        tools = CypherTools(connection)
        return cls(page, trace, tools, PageTools(tools, page.tools) if page.tools else None,
                   list(page.data[trace.calls].values["steps"]))

    @property
    def total(self) -> int:
        return len(self.calls)

    @property
    def done(self) -> bool:
        return len(self.steps) >= self.total

    def send(self, *, every: bool) -> None:
        """Send the next call, or (`every`) all the calls not sent yet."""
        pending = self.calls[len(self.steps):]
        if pending:
            self.steps += anyio.run(replay_calls, self.tools, pending if every else pending[:1], self.page_tools)

    def check(self) -> Check:
        return check_steps(self.recorded, self.steps, None if self.done else self.total)

    def failure(self, checked: Check) -> str | None:
        """The runner's failure text for the steps so far (their part of the recording against them)."""
        if checked.equal:
            return None
        return failure_text(first_steps(self.recorded, len(self.steps)), checked.shown, path=self.page.path,
                            line=self.trace.line, cell=self.trace.name, reasons=checked.reasons)

    @property
    def recorded(self) -> str:
        return self.trace.recorded.text if self.trace.recorded is not None else ""
