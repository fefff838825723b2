"""The cookbook runner: pages in, checked results out.

The stages, one module each: `page` reads a Markdown page into cells, data blocks and recorded blocks;
`run` executes a page's cells on a fresh engine database; `render` turns a cell's result into `table` or
`gram` text; `check` compares that with the recording and writes the diff; `update` rewrites recorded
blocks in place; `report_html` writes a report. `cli` (the `cookbook` command) is a thin adapter over
them, as the pytest and MkDocs plugins will be.
"""

from runner.errors import PageError, PageWarning

__all__ = ["PageError", "PageWarning"]
