"""Live pages: a reader runs a page's cells, edited or not, and steps through its traces (issue 39, ADR-0090).

`LiveSession` is one open page's database and what was run on it, behind one entry, `handle(request)`,
whose requests and responses are JSON-ready dicts. Nothing here speaks HTTP or starts a thread, so the same
session serves the local preview (`runner/live_endpoint.py`, started by the MkDocs plugin for `mkdocs
serve`) and a page in the browser under Pyodide.
"""

from runner.live.session import OPERATIONS, LiveSession

__all__ = ["OPERATIONS", "LiveSession"]
