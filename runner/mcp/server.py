"""`cookbook serve`: the graph's tools as an MCP server, on the official SDK.

    read_cypher(statement, parameters?)   → {columns, rows, counters}; refuses statements that write
    write_cypher(statement, parameters?)  → {counters, rows: []}
    get_schema()                          → labels, relationship types, property keys, indexes, constraints

Each result is sent twice, as MCP recommends for structured output: as `structuredContent` (checked
against the tool's `outputSchema`) and as the same JSON in a text block, for clients that only read
text. A failing statement comes back as a tool error (`isError: true`) whose text is the engine's
message with its position, so the model can correct the statement; the server keeps running.

With `--tools PAGE...` the server also offers the tools those pages declare (docs/tool-cells.md): each is
listed with the input schema its page gives and the output schema of `TypedOutput`, and runs its cell
(`page_tools.py`); an alias is one of the three above under the name the page gives it.

Over stdio (the default) stdout carries only protocol messages; logs go to stderr. `--http` serves
Streamable HTTP at `/mcp`, on 127.0.0.1 unless told otherwise.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import anyio
import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from mcp_types import Tool as ListedTool
from pydantic import BaseModel, Field

from runner.mcp.http_security import BearerToken, check_exposure, transport_security
from runner.mcp.page_tools import OUTPUT_SCHEMA, PageTools
from runner.mcp.sizing import Caps
from runner.mcp.stdio_guard import serve_stdio
from runner.mcp.tools import CypherTools, ToolFailure
from runner.page.model import ToolDeclaration
from runner.serving.lifetime import watch
from runner.serving.pool import open_connections

NAME = "cookbook"
DEFAULT_TIMEOUT = 30.0
"""Seconds a statement may run by default: an agent's runaway query fails as a tool error it can correct,
instead of holding the graph (`--timeout 0` for no limit)."""
INSTRUCTIONS = (
    "A property graph you query with Cypher. Call get_schema first to see its labels, relationship types "
    "and property keys. Use read_cypher for statements that only read (it refuses any that write) and "
    "write_cypher for statements that create, merge, set, remove or delete. Pass values as parameters "
    "($name in the statement, the value under `parameters`) rather than pasting them into the text. EXPLAIN "
    "before a statement shows its plan without running it; PROFILE runs it and adds each step's rows and time. "
    "Results are capped in rows and bytes: a truncated one says so and how to get the rest (a cursor), but "
    "asking only for what you need (WHERE, LIMIT, aggregates) is cheaper than paging."
)

Statement = Annotated[str, Field(description="One Cypher statement (no trailing statements after ';').")]
GraphName = Annotated[str | None,
                      Field(description="The named graph of the database to run on (SHOW DATABASES lists them); "
                                        "default: the server's.")]
Parameters = Annotated[dict[str, Any] | None,
                       Field(description="Values for the statement's $parameters, by name.")]
CursorArgument = Annotated[str | None,
                           Field(description="The `cursor` of a truncated result, to get the rows after it: send "
                                             "it with the same statement and parameters.")]
FullValues = Annotated[bool, Field(description="Send long strings, lists and vectors whole instead of cut "
                                               "with a marker (fewer rows then fit in a result).")]


class ReadOutput(BaseModel):
    columns: list[str] = Field(description="The statement's columns, in RETURN order.")
    rows: list[dict[str, Any]] = Field(description="One object per row, keyed by column. Nodes are "
                                       "{id, labels, properties}, relationships {id, type, start, end, "
                                       "properties}, paths {nodes, relationships}; temporals ISO-8601.")
    counters: dict[str, int] = Field(description="Update counters; all zero for a read.")
    plan: list[dict[str, Any]] | None = Field(default=None, description="With PROFILE before the statement: "
                                              "each step of its plan, with the rows it gave and its time.")
    truncated: bool = Field(description="Whether the statement has more rows than `rows` holds (a result holds "
                            "at most the server's max rows and max bytes); `message` then says what to do.")
    returned: int = Field(description="How many rows `rows` holds.")
    message: str | None = Field(default=None, description="When truncated: which rows were sent and what to do.")
    cursor: str | None = Field(default=None, description="When truncated and the rows after can be had exactly: "
                               "pass it back with the same statement and parameters for the next rows.")


class WriteOutput(BaseModel):
    counters: dict[str, int] = Field(description="What the statement changed: nodes_created, "
                                     "relationships_created, properties_set, labels_added, …")
    rows: list[dict[str, Any]] = Field(description="Always empty: use read_cypher to read.")


class SchemaOutput(BaseModel):
    labels: list[str]
    relationship_types: list[str]
    node_properties: dict[str, list[str]] = Field(description="Property keys seen per node label.")
    relationship_properties: dict[str, list[str]] = Field(description="Property keys per relationship type.")
    indexes: list[dict[str, Any]]
    constraints: list[dict[str, Any]]
    truncated: bool = Field(description="Whether a list was cut to fit the server's caps.")
    message: str | None = Field(default=None, description="When truncated: how to read the rest.")


ReadResult = Annotated[CallToolResult, ReadOutput]
WriteResult = Annotated[CallToolResult, WriteOutput]
SchemaResult = Annotated[CallToolResult, SchemaOutput]
"""A tool builds its CallToolResult itself (to send errors as text); the model names the output schema."""


class CookbookServer(MCPServer):
    """The SDK's server, plus the tools pages declare. Their input schemas are the pages' JSON Schemas, not
    a Python signature, so they are listed and called here, beside the SDK's own tool table; everything
    else (the protocol, transports, errors raised by a handler) stays the SDK's."""

    def __init__(self, page_tools: PageTools | None) -> None:
        super().__init__(NAME, instructions=INSTRUCTIONS, log_level="WARNING")
        self.page_tools = page_tools
        self.cell_tools = page_tools.cell_tools if page_tools is not None else {}

    async def list_tools(self) -> list[ListedTool]:
        return [*await super().list_tools(), *(listed_tool(tool) for tool in self.cell_tools.values())]

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None) -> Any:
        if name not in self.cell_tools:
            return await super().call_tool(name, arguments, context)
        page_tools = self.page_tools
        assert page_tools is not None
        return await in_worker(page_tools.tools, lambda: page_tools.call(name, arguments))


def listed_tool(tool: ToolDeclaration) -> ListedTool:
    """How `tools/list` shows a page's tool: its page's description and input schema, the typed output."""
    return ListedTool(name=tool.name, description=tool.description, input_schema=tool.input_schema,
                      output_schema=OUTPUT_SCHEMA, annotations=declared_hints(tool))


def declared_hints(tool: ToolDeclaration) -> ToolAnnotations:
    if tool.read_only:
        return ToolAnnotations(title=tool.name, read_only_hint=True, open_world_hint=False)
    return ToolAnnotations(title=tool.name, read_only_hint=False, destructive_hint=True, idempotent_hint=False,
                           open_world_hint=False)


def read_description(caps: Caps) -> str:
    """read_cypher's description: what it does, and the caps a model must plan for."""
    return (
        "Run one Cypher statement that only reads, and return its rows. A statement that would write (CREATE, "
        "MERGE, SET, REMOVE, DELETE, FOREACH, or one inside CALL { }) is refused and changes nothing: send it "
        f"with write_cypher. A result holds at most {caps.max_rows} rows and about {caps.max_bytes // 1024} KB: "
        "beyond that it has `truncated: true`, a `message`, and usually a `cursor`; pass the cursor back with "
        "the same statement and parameters to get the next rows (valid until the graph is written). Prefer "
        "asking for what you need (WHERE, LIMIT, aggregates, only the properties you need) to paging. Strings "
        f"over {caps.max_text} characters and lists over {caps.max_items} items are cut with a marker, vectors "
        "shown by their dimension; full_values: true sends them whole.")


def build_server(tools: CypherTools, page_tools: PageTools | None = None) -> MCPServer:
    """An MCP server whose tools run on `tools`' connection, with the tools of `page_tools` beside the
    three. It does not own or close the connection."""
    server = CookbookServer(page_tools)

    async def read_cypher(statement: Statement, parameters: Parameters = None, graph: GraphName = None,
                          cursor: CursorArgument = None, full_values: FullValues = False) -> ReadResult:
        return await in_worker(tools, lambda: tools.read_cypher(statement, parameters, graph, cursor, full_values))

    read_cypher.__doc__ = read_description(tools.caps)

    async def write_cypher(statement: Statement, parameters: Parameters = None, graph: GraphName = None) -> WriteResult:
        """Run one Cypher statement that writes (CREATE, MERGE, SET, REMOVE, DELETE, schema commands), as
        one transaction, and return its update counters. Rows it returns are not sent back."""
        return await in_worker(tools, lambda: tools.write_cypher(statement, parameters, graph))

    async def get_schema(graph: GraphName = None) -> SchemaResult:
        """The graph's labels, relationship types, property keys per label and per type, indexes and
        constraints. Lists longer than the server's row cap are cut, with `truncated: true`."""
        return await in_worker(tools, lambda: tools.get_schema(graph))

    functions = {function.__name__: function for function in (read_cypher, write_cypher, get_schema)}
    for name, function in functions.items():
        server.add_tool(function, annotations=TOOL_HINTS[name])
    for alias in (page_tools.declarations.values() if page_tools is not None else ()):
        if alias.alias is not None:
            server.add_tool(functions[alias.alias], name=alias.name, description=alias.description or None,
                            annotations=TOOL_HINTS[alias.alias])
    return server


TOOL_HINTS: dict[str, ToolAnnotations] = {
    "read_cypher": ToolAnnotations(title="Read the graph", read_only_hint=True, open_world_hint=False),
    "write_cypher": ToolAnnotations(title="Write to the graph", read_only_hint=False, destructive_hint=True,
                                    idempotent_hint=False, open_world_hint=False),
    "get_schema": ToolAnnotations(title="Describe the graph", read_only_hint=True, open_world_hint=False),
}
"""Tool name → the hints a host shows or acts on (a read-only tool may run without asking)."""


async def in_worker(tools: CypherTools, call: Any) -> CallToolResult:
    """`tool_result(call)` in a worker thread. When the request is cancelled (`notifications/cancelled`, or
    the client goes), the call's statement is interrupted: it rolls back and its connection is free again."""
    thread: list[int] = []

    def work() -> CallToolResult:
        thread.append(threading.get_ident())
        return tool_result(call)

    try:
        return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
    except anyio.get_cancelled_exc_class():
        assert tools.connections is not None
        if thread:
            tools.connections.interrupt(thread[0])
        raise


def tool_result(call: Any) -> CallToolResult:
    """The tool's map as structured content plus a JSON text block, or a tool error with its text."""
    try:
        payload = call()
    except ToolFailure as failure:
        return CallToolResult(content=[TextContent(type="text", text=str(failure))], is_error=True)
    text = json.dumps(payload, ensure_ascii=False)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=payload)


def serve(database: str, *, http: bool = False, host: str = "127.0.0.1", port: int = 8000,
          timeout: float | None = DEFAULT_TIMEOUT, memory_limit: str | None = None, token: str | None = None,
          allowed_hosts: Sequence[str] = (), declarations: Mapping[str, ToolDeclaration] | None = None,
          graph: str = "neo4j", import_dir: str | None = None, caps: Caps | None = None) -> None:
    """Serve the graph in `database` (a file, created if missing, or ':memory:') until the client goes, or
    SIGINT / SIGTERM (lifetime.py). A statement running longer than `timeout` seconds (None: no limit)
    fails as a tool error; `memory_limit` is the engine's (default: its own). Over HTTP beyond loopback,
    `token` and `allowed_hosts` are required (http_security.py). `declarations` are the pages' tools to
    serve beside the three (`page_tools.declarations_of`). `graph`: the named graph of the database the
    tools run on when a call names none (ADR-0068). `import_dir`: the folder LOAD CSV reads (ADR-0064). `caps`:
    the rows and bytes one result holds (sizing.py, ADR-0088)."""
    if http:
        check_exposure(host, token, allowed_hosts)
    watcher = watch(stdio=not http)
    connections = watcher.connection = open_connections(database, timeout=timeout, memory_limit=memory_limit,
                                                        graph=graph, import_dir=import_dir)
    try:
        tools = CypherTools(connections.first, connections, caps=caps or Caps())
        server = build_server(tools, PageTools(tools, declarations) if declarations else None)
        if http:
            serve_http(server, host, port, token, allowed_hosts)
        else:
            anyio.run(serve_stdio, server)
    finally:
        connections.close_all()


def serve_http(server: MCPServer, host: str, port: int, token: str | None, allowed_hosts: Sequence[str]) -> None:
    """Streamable HTTP at /mcp with the Host/Origin check, behind the bearer token when there is one."""
    import uvicorn

    app: Any = server.streamable_http_app(transport_security=transport_security(host, port, allowed_hosts),
                                          host=host)
    if token:
        app = BearerToken(app, token)
    uvicorn.run(app, host=host, port=port, log_level="warning")
