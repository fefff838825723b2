"""The author's preview of a page, for a site generator to show: every block the page owns rendered as
HTML, each cell with its status.

`status` finds the statuses (from `snapshots/`, or from a run, cached by page content), `document` turns
a page and its statuses into Markdown with HTML blocks, `tables` and `graph` render `table` and `gram`
blocks, `index` lists the recipes. `assets/` holds the stylesheet, the script that draws mermaid
diagrams, and mermaid itself (MERMAID_VERSION, vendored with its licence: ADR-0070). Nothing here knows
MkDocs: `runner/mkdocs_plugin.py` is the adapter.
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
    RECORDED,
    CellStatus,
    LiveRuns,
    PageStatus,
    from_run,
    from_snapshot,
    snapshot_path,
)

ASSETS = Path(__file__).parent / "assets"
"""preview.css and preview.js, which a site serves beside its pages, and mermaid's script."""
MERMAID = ASSETS / "mermaid.min.js"
MERMAID_LICENSE = ASSETS / "mermaid.LICENSE"
MERMAID_VERSION = "11.12.2"
"""The release of mermaid's npm package whose `dist/mermaid.min.js` and `LICENSE` are MERMAID and
MERMAID_LICENSE: shipped so that a preview draws its diagrams offline."""

__all__ = ["ASSETS", "DRIFTED", "ERRORED", "MERMAID", "MERMAID_LICENSE", "MERMAID_VERSION", "NOT_RECORDED",
           "NOT_RUN", "PASSING", "RECORDED", "CellStatus", "LiveRuns", "PageStatus", "Recipe", "from_run",
           "from_snapshot", "index_markdown", "preview_markdown", "snapshot_path"]
