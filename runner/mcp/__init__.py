"""The graph's tools over MCP, and the replay of recorded tool-call traces in pages.

    values.py     engine values → JSON (nodes, relationships, paths as maps; temporals as ISO strings)
    tools.py      read_cypher / write_cypher / get_schema on one connection, without MCP
    page_tools.py the tools pages declare (docs/tool-cells.md): arguments checked, cell run, typed result
    sizing.py     results sized for a model: row and byte caps, shortened values, cursors (ADR-0088)
    result_graph.py  the node keys and relationships a result holds, for a typed tool's result
    server.py     those tools as an MCP server on the official SDK: `cookbook serve [--tools PAGE...]`
    recording.py  a trace block's recording: render, read back, compare
    trace.py      replay a page's trace through the server, in process, on its own database

The connections they run on (opening the file, one connection per call in flight, how the server ends)
are runner/serving's, which the Bolt server (runner/bolt) shares.

Nothing here imports the MCP SDK at package import: `cookbook run` pays for it only on a page with a
trace.
"""
