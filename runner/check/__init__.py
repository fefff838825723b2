"""Checking a cell: its result against its recorded block, and the diff when they differ."""

from runner.check.compare import Check, check_cell, check_error
from runner.check.diff import failure_text, unified_diff

__all__ = ["Check", "check_cell", "check_error", "failure_text", "unified_diff"]
