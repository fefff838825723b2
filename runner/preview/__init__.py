"""The author's preview of a page, for a site generator to show: every block the page owns rendered as
HTML, each cell with its status.

`status` finds the statuses (from `snapshots/`, or from a run, cached by page content), `document` turns
a page and its statuses into Markdown with HTML blocks, `tables` and `graph` render `table` and `gram`
blocks, `index` lists the recipes. `assets/` holds the stylesheet and the script that draws mermaid
diagrams. Nothing here knows MkDocs: `runner/mkdocs_plugin.py` is the adapter.
"""

from pathlib import Path

from runner.preview.document import preview_markdown
from runner.preview.index import Recipe, index_markdown
from runner.preview.status import (
    DRIFTED,
    ERRORED,
    NOT_RECORDED,
    NOT_RUN,
    PASSING,
    CellStatus,
    LiveRuns,
    PageStatus,
    from_run,
    from_snapshot,
    snapshot_path,
)

ASSETS = Path(__file__).parent / "assets"
"""preview.css and preview.js, which a site serves beside its pages."""

__all__ = ["ASSETS", "DRIFTED", "ERRORED", "NOT_RECORDED", "NOT_RUN", "PASSING", "CellStatus", "LiveRuns",
           "PageStatus", "Recipe", "from_run", "from_snapshot", "index_markdown", "preview_markdown",
           "snapshot_path"]
