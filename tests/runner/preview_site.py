"""Building the preview site in tests, and what its browser test needs besides the project: Debian's
chromium (never a browser download: the test drives /usr/bin/chromium).

`site_copy` lays out mkdocs.yml, the pages and their snapshots in a folder as a fresh clone has them, and
`mkdocs_build` builds it with the `mkdocs` command, as an author would. Mermaid's script is the copy the
package ships (ADR-0070), so the site needs no network.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.runner.helpers import COOKBOOK_PAGE, ROOT

LABELS_ROW = '| "Entity"   | 8     |'
TAMPERED_ROW = '| "Entity"   | 9     |'
"""One recorded value of the agent-memory page (the `labels` table), and the same row tampered with."""


def site_copy(folder: Path) -> Path:
    """mkdocs.yml, the pages and their snapshots under `folder`, as a fresh clone has them."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "mkdocs.yml", folder / "mkdocs.yml")
    shutil.copytree(ROOT / "cookbook", folder / "cookbook")
    shutil.copytree(ROOT / "snapshots", folder / "snapshots")
    return folder


def tamper(folder: Path) -> Path:
    """Change one recorded value of the agent-memory page under `folder`: 9 entities instead of 8."""
    page = folder / "cookbook" / COOKBOOK_PAGE.name
    source = page.read_text(encoding="utf-8")
    assert source.count(LABELS_ROW) == 1, "the labels table of the agent-memory page changed"
    page.write_text(source.replace(LABELS_ROW, TAMPERED_ROW), encoding="utf-8")
    return page


def mkdocs_build(folder: Path, *arguments: str, **environment: str) -> subprocess.CompletedProcess[str]:
    """`mkdocs build` of the site in `folder` into `folder/site`; snapshot mode unless COOKBOOK_LIVE says
    otherwise."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("COOKBOOK_")}
    env.update(NO_MKDOCS_2_WARNING="1", **environment)  # the first: no banner about MkDocs 2 in the output
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "-f", str(folder / "mkdocs.yml"),
                           "-d", str(folder / "site"), *arguments],
                          capture_output=True, text=True, env=env, timeout=300, check=False)


CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium() -> str | None:
    """Debian's chromium, when it is installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def headless_chromium() -> Iterator[Any]:
    """Debian's chromium, headless, driven by Playwright, for the length of the block."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), headless=True, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()
