"""Shared by the runner tests: where the pages are, and the recorded blocks of the agent-memory page."""

from __future__ import annotations

from pathlib import Path

from runner.page import Page, read_page

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "pages"
COOKBOOK_PAGE = ROOT / "cookbook" / "01-agent-memory.md"
SEED_PAGE = ROOT.parent / "shared" / "seeds" / "01-agent-memory.md"
"""The user's original page, present beside a checkout (and in CI); tests that need it skip without it."""


def agent_memory_page() -> Page:
    return read_page(COOKBOOK_PAGE)


def recorded_text(page: Page, cell: str) -> str:
    found = page.cell(cell)
    assert found is not None and found.recorded is not None, cell
    return found.recorded.text
