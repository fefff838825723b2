"""Reading a page: Markdown → cells, data blocks, recorded blocks and tool declarations, each with its
1-based line."""

from runner.page.markdown import BLOCK_KINDS, parse_page, read_page
from runner.page.model import Cell, DataBlock, Fence, Page, RecordedBlock, ToolBlock, ToolDeclaration, Trace

__all__ = ["BLOCK_KINDS", "Cell", "DataBlock", "Fence", "Page", "RecordedBlock", "ToolBlock", "ToolDeclaration",
           "Trace", "parse_page", "read_page"]
