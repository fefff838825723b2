"""MkDocs plugin (entry point `mkdocs.plugins: cookbook`): the cookbook's pages as a site for authors.

A thin adapter over `runner.preview`. For each page it reads the page, finds its cells' statuses and
hands MkDocs the page with every block of ours rendered as HTML; it adds an index page made from the
pages' front matter (unless the docs folder has its own `index.md`), and the preview's stylesheet and
scripts, mermaid's included (ADR-0070): the site loads nothing from another host, so `mkdocs serve`
works offline. A drifted or errored cell is logged as a warning naming the cell, with the diff or the
error, so `mkdocs build --strict` (or `strict: true` in mkdocs.yml) fails on it. With `portability`, each
cell also says which other databases gave its recorded result, from the page's recorded matrix there
(`cookbook run PAGE --target URI ... --matrix FOLDER/PAGE.md` writes it; docs/portability.md).

    plugins:
      - cookbook:
          live: false          # true: run the pages at build time (cached by page content)
          snapshots: snapshots # where the last run's results are (snapshot mode), from mkdocs.yml's folder
          cache: .cache/cookbook-preview   # live mode's cache on disk ('' for memory only)
          mermaid: bundled     # the copy shipped with the package; or a local file (copied into the
                               # site), or a URL (then the preview needs a network to draw diagrams)
          portability: ''      # the folder of the pages' portability matrices (PAGE.json), e.g.
                               # docs/portability; '' for none
          live_pages: true     # `mkdocs serve` only: Run, Step and Play all on the pages (ADR-0090)
          live_timeout: 30     # seconds a statement run from a page may take (0: no limit)
          live_memory_limit: '' # DuckDB's memory limit for those, e.g. 1GB ('': the engine's default)

Live pages: when it serves (never when it builds), the plugin starts `runner.live_endpoint` on loopback and
writes its address and token into each page, where assets/live.js talks to it and preview.js puts the
buttons on the cells and traces.
"""

from __future__ import annotations

import os
import time
from html import escape
from pathlib import Path
from typing import Any

from mkdocs.config import config_options as option
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page as MkDocsPage

from runner.live_endpoint import LiveEndpoint, LiveSessions
from runner.matrix_files import matrix_path
from runner.page import parse_page
from runner.page.front_matter import find_front_matter, read_front_matter
from runner.page.markdown import split_lines
from runner.preview import (
    ASSETS,
    MERMAID,
    MERMAID_LICENSE,
    LiveRuns,
    PageStatus,
    Recipe,
    from_snapshot,
    index_markdown,
    preview_markdown,
    snapshot_path,
)
from runner.preview.portability import PagePortability, from_matrix

BUNDLED = "bundled"
ASSET_FOLDER = "assets/cookbook"
SCRIPTS = ("live.js", "preview.js")
"""The preview's scripts, in loading order: live.js sets up the backend preview.js's buttons call."""
log = get_plugin_logger("cookbook")


class CookbookConfig(Config):
    live = option.Type(bool, default=False)
    snapshots = option.Type(str, default="snapshots")
    cache = option.Type(str, default=".cache/cookbook-preview")
    mermaid = option.Type(str, default=BUNDLED)
    index = option.Type(bool, default=True)
    portability = option.Type(str, default="")
    live_pages = option.Type(bool, default=True)
    live_timeout = option.Type((int, float), default=30.0)
    live_memory_limit = option.Type(str, default="")


class CookbookPlugin(BasePlugin[CookbookConfig]):
    def __init__(self) -> None:
        self.root = Path.cwd()
        self.live: LiveRuns | None = None
        self.mermaid_file: Path | None = None
        self.serving = False
        self.endpoint: LiveEndpoint | None = None

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defined so that `mkdocs serve` keeps this plugin, its live cache and its live endpoint, from build
        to build."""
        self.serving = command == "serve"

    def on_shutdown(self) -> None:
        if self.endpoint is not None:
            self.endpoint.stop()
            self.endpoint = None

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.root = Path(config.config_file_path).parent if config.config_file_path else Path.cwd()
        if self.config.live and self.live is None:
            self.live = LiveRuns(self.root / self.config.cache if self.config.cache else None)
        if self.serving and self.config.live_pages and self.endpoint is None:
            sessions = LiveSessions(Path(config.docs_dir), timeout=self.config.live_timeout or None,
                                    memory_limit=self.config.live_memory_limit.strip() or None, root=self.root)
            self.endpoint = LiveEndpoint(sessions).start()
            log.info(f"live pages: Run, Step and Play all are served from {self.endpoint.url}")
        mermaid = self.config.mermaid.strip() or BUNDLED
        scripts = []
        self.mermaid_file = None
        if mermaid.startswith(("http://", "https://", "//")):
            scripts.append(mermaid)
        else:
            self.mermaid_file = MERMAID if mermaid == BUNDLED else (self.root / mermaid).resolve()
            if self.mermaid_file.is_file():
                scripts.append(f"{ASSET_FOLDER}/mermaid.min.js")
            else:
                log.warning(f"mermaid: no file {self.mermaid_file}; diagrams show as their source")
                self.mermaid_file = None
        scripts.extend(f"{ASSET_FOLDER}/{name}" for name in SCRIPTS)
        config.extra_javascript.extend(script for script in scripts if script not in config.extra_javascript)
        if f"{ASSET_FOLDER}/preview.css" not in config.extra_css:
            config.extra_css.append(f"{ASSET_FOLDER}/preview.css")
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        for name in ("preview.css", *SCRIPTS):
            files.append(File.generated(config, f"{ASSET_FOLDER}/{name}", abs_src_path=str(ASSETS / name)))
        if self.mermaid_file is not None:
            files.append(File.generated(config, f"{ASSET_FOLDER}/mermaid.min.js",
                                        abs_src_path=str(self.mermaid_file)))
        if self.mermaid_file == MERMAID:  # its MIT licence goes with every copy
            files.append(File.generated(config, f"{ASSET_FOLDER}/{MERMAID_LICENSE.name}",
                                        abs_src_path=str(MERMAID_LICENSE)))
        if self.config.index and files.get_file_from_path("index.md") is None:
            recipes = [Recipe(file.src_uri, _front_matter(file)) for file in files.documentation_pages()]
            files.append(File.generated(config, "index.md", content=index_markdown(recipes)))
        return files

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        snapshots = self.root / self.config.snapshots
        for folder in (snapshots, self.portability_folder()):
            if folder is not None and folder.is_dir():
                server.watch(str(folder))
        return server

    def on_page_markdown(self, markdown: str, *, page: MkDocsPage, config: MkDocsConfig, files: Files) -> str:
        file = page.file
        if file.generated_by is not None or not file.abs_src_path:
            return markdown
        shown = _shown(Path(file.abs_src_path), self.root)
        recipe = parse_page(file.content_string, shown)
        status = self.statuses(recipe, Path(file.abs_src_path), Path(config.docs_dir))
        report(status, recipe)
        portability = self.matrix(recipe, Path(file.abs_src_path), Path(config.docs_dir))
        return preview_markdown(recipe, status, portability) + self.live_element(file.src_uri)

    def live_element(self, page: str) -> str:
        """The page's id for live.js, and when the endpoint runs, its address and token."""
        served = (f' data-endpoint="{escape(self.endpoint.url)}" data-token="{escape(self.endpoint.token)}"'
                  if self.endpoint is not None else "")
        return f'\n<div class="cb-live-page" data-page="{escape(page)}"{served} hidden></div>\n'


    def portability_folder(self) -> Path | None:
        return self.root / self.config.portability if self.config.portability.strip() else None

    def matrix(self, recipe: Any, path: Path, docs: Path) -> PagePortability | None:
        """The page's recorded portability matrix, when the option names a folder and it holds one."""
        folder = self.portability_folder()
        if folder is None:
            return None
        file = matrix_path(path, docs, folder)
        portability = from_matrix(recipe, file, shown=_shown(file, self.root))
        if portability is not None:
            for error in portability.errors:
                log.warning(error)
            for stale in portability.stale:  # not a warning: a matrix takes minutes to make again
                log.info(f"{recipe.path}: the portability matrix is stale: {stale}")
        return portability

    def statuses(self, recipe: Any, path: Path, docs: Path) -> PageStatus:
        if self.live is not None:
            runs, started = self.live.runs, time.perf_counter()
            status = self.live.statuses(recipe)
            if self.live.runs > runs:
                log.info(f"ran {recipe.path} in {time.perf_counter() - started:.1f} s")
            return status
        snapshot = snapshot_path(path, docs, self.root / self.config.snapshots)
        return from_snapshot(recipe, snapshot, shown=_shown(snapshot, self.root))


def report(status: PageStatus, recipe: Any) -> None:
    """A warning per problem, so that strict builds fail on them."""
    for error in status.errors:
        log.warning(error)
    for item in status.problems():  # the runner's text: `FILE:LINE: cell 'x' drifted …` and the diff
        log.warning(item.detail.rstrip() or f"{recipe.path}: cell {item.name!r} {item.state}")


def _front_matter(file: File) -> dict[str, Any]:
    if not file.abs_src_path:
        return {}
    lines = split_lines(file.content_string)
    if find_front_matter(lines) is None:
        return {}
    fields, _errors = read_front_matter(file.src_uri, lines)  # errors show on the page itself
    return fields


def _shown(path: Path, root: Path) -> str:
    try:
        return Path(os.path.relpath(path, root)).as_posix()
    except ValueError:
        return str(path)
