"""Reading a page: Markdown → cells, data blocks and recorded blocks, each with its 1-based line."""

from runner.page.markdown import BLOCK_KINDS, parse_page, read_page
from runner.page.model import Cell, DataBlock, Fence, Page, RecordedBlock, Trace

__all__ = ["BLOCK_KINDS", "Cell", "DataBlock", "Fence", "Page", "RecordedBlock", "Trace", "parse_page",
           "read_page"]
