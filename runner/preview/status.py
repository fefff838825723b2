"""Each cell's status for the preview: passing, drifted, errored, not run (or not recorded), and for a
trace in snapshot mode, recorded.

Two sources, one per mode:

- **snapshots** (the default): no Cypher runs. `snapshots/PAGE.yml` holds every cell's full result from
  the last recorded run (`docs/snapshots.md`). Each entry is rendered in its cell's recorded block kind
  and compared with the block on the page, exactly as `cookbook run` compares a fresh result
  (`runner.run.check`): equal is *passing*, different is *drifted*, with the runner's diff. A cell with
  no entry is *not run* (the last run stopped before it, or the cell is newer than the snapshot); a
  cell with no recorded block is *not recorded*. A trace has no snapshot entry: it is *recorded*, its
  steps shown as they ran when the page was recorded, and replayed by `cookbook run`, pytest and live mode.
  An engine error leaves no entry, so *errored* shows in live mode only; the error a cell marked `error`
  raised as it expected is its entry, checked against its `error` block like any result.
- **live**: the page runs at build time (`runner.run.run_page`), traces replayed too. Outcomes are
  cached by a key made of the page's path and text and of the runner's and engine's code, in memory
  (so `mkdocs serve` re-runs only the page being edited) and, optionally, as JSON files in a folder.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from runner.page.model import Page, Trace
from runner.render import block_kind_for, render

PASSING, DRIFTED, ERRORED, NOT_RUN, NOT_RECORDED = "passing", "drifted", "errored", "not run", "not recorded"
RECORDED = "recorded"
STATES = (PASSING, DRIFTED, ERRORED, RECORDED, NOT_RUN, NOT_RECORDED)
"""The words a cell's badge shows. Drifted and errored cells are warnings of the build."""
TRACE_RECORDED = ("each step ran when the page was recorded. Live: `cookbook run` and pytest replay every "
                  "call through `cookbook serve`'s tools and check its result, and so does this preview in "
                  "live mode (`COOKBOOK_LIVE=true mkdocs serve`)")
"""Why a trace shows its recording in snapshot mode, and where it runs: the seed page's own words for it."""

CACHE_FORMAT = 1


@dataclass
class CellStatus:
    """What the preview shows about one cell beside its recorded block.

    `detail` is the diff of a drifted cell, the error of an errored one, or why a cell was not run.
    `result` is the result as block text of kind `result_kind`, kept for a cell with no recorded block.
    """

    name: str
    state: str
    detail: str = ""
    result: str | None = None
    result_kind: str | None = None

    @property
    def css(self) -> str:
        return self.state.replace(" ", "-")


@dataclass
class PageStatus:
    """The cells' statuses of one page and where they came from (`source`, said in the page's card)."""

    cells: dict[str, CellStatus]
    source: str
    errors: list[str]

    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(STATES, 0)
        for status in self.cells.values():
            counts[status.state] += 1
        return {state: count for state, count in counts.items() if count}

    def problems(self) -> list[CellStatus]:
        return [status for status in self.cells.values() if status.state in (DRIFTED, ERRORED)]

    def as_dict(self) -> dict[str, Any]:
        return {"format": CACHE_FORMAT, "source": self.source, "errors": self.errors,
                "cells": [asdict(status) for status in self.cells.values()]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PageStatus:
        cells = [CellStatus(**item) for item in data["cells"]]
        return cls({status.name: status for status in cells}, data["source"], list(data["errors"]))


def snapshot_path(page_path: Path, pages: Path, snapshots: Path) -> Path:
    """`cookbook/01-agent-memory.md` → `snapshots/01-agent-memory.yml`: the page's path below its pages
    folder, under the snapshots folder, as the pytest plugin lays them out."""
    return snapshots / page_path.resolve().relative_to(pages.resolve()).with_suffix(".yml")


def from_snapshot(page: Page, snapshot: Path, *, shown: str | None = None) -> PageStatus:
    """The page's statuses from its snapshot file (see the module docstring). `shown` names the file in
    the texts the preview shows."""
    from runner.run import FAILED, PASSED, check
    from runner.snapshot import load_snapshot

    shown = shown or str(snapshot)
    if page.errors:
        return _page_errors(page, f"the page, which has errors (no snapshot was read: {shown})")
    results: dict[str, Any] = {}
    errors: list[str] = []
    if snapshot.is_file():
        try:
            results = load_snapshot(snapshot)
        except (ValueError, KeyError, TypeError) as error:  # a merge conflict in it, an older format
            errors.append(f"{shown} cannot be read: {error}")
        except Exception as error:  # YAML errors come from the loader
            errors.append(f"{shown} cannot be read: {type(error).__name__}: {error}")
    cells: dict[str, CellStatus] = {}
    for cell in page.cells:
        if isinstance(cell, Trace):
            cells[cell.name] = CellStatus(cell.name, RECORDED, TRACE_RECORDED)
            continue
        result = results.get(cell.name)
        if result is None:
            why = "no snapshot file" if not snapshot.is_file() and not errors else f"no entry in {shown}"
            cells[cell.name] = CellStatus(cell.name, NOT_RUN, f"{why}: the last run did not reach this cell, "
                                          "or the cell is newer than the snapshot (`pytest --force-regen`)")
            continue
        outcome = check(page, cell, result)
        if outcome.status == PASSED:
            cells[cell.name] = CellStatus(cell.name, PASSING)
        elif outcome.status == FAILED:
            cells[cell.name] = CellStatus(cell.name, DRIFTED, outcome.failure)
        else:
            kind = block_kind_for(result)
            cells[cell.name] = CellStatus(cell.name, NOT_RECORDED, "", render(result, kind), kind)
    return PageStatus(cells, f"the last recorded run, {shown}", errors)


def from_run(page: Page) -> PageStatus:
    """The page's statuses from running it now."""
    from runner.run import ERROR, FAILED, PASSED, SKIPPED, UNRECORDED, run_page

    if page.errors:
        return _page_errors(page, "a run at build time, which the page's errors kept from starting")
    outcome = run_page(page)
    cells: dict[str, CellStatus] = {}
    for item in outcome.cells:
        name = item.cell.name
        if item.status == PASSED:
            cells[name] = CellStatus(name, PASSING)
        elif item.status == FAILED:
            cells[name] = CellStatus(name, DRIFTED, item.failure)
        elif item.status == ERROR:
            cells[name] = CellStatus(name, ERRORED, item.failure)
        elif item.status == SKIPPED:
            cells[name] = CellStatus(name, NOT_RUN, item.failure)
        elif item.status == UNRECORDED:
            cells[name] = CellStatus(name, NOT_RECORDED, "", item.actual, item.block_kind)
    return PageStatus(cells, "a run at build time", [str(error) for error in outcome.errors])


def _page_errors(page: Page, source: str) -> PageStatus:
    cells = {cell.name: CellStatus(cell.name, NOT_RUN, "the page has errors, so no cell ran")
             for cell in page.cells}
    return PageStatus(cells, source, [str(error) for error in page.errors])


class LiveRuns:
    """Live statuses, cached by page content: a page whose text (and the code that runs it) is unchanged
    is not run again. `folder`, when given, keeps the cache across processes as one JSON file a key."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self.memory: dict[str, PageStatus] = {}
        self.runs = 0
        """How many pages this cache has run (the rest came from the cache): for the tests."""

    def statuses(self, page: Page) -> PageStatus:
        key = cache_key(page)
        if key in self.memory:
            return self.memory[key]
        status = self._read(key)
        if status is None:
            status = from_run(page)
            self.runs += 1
            self._write(key, status)
        self.memory[key] = status
        return status

    def _file(self, key: str) -> Path | None:
        return self.folder / f"{key}.json" if self.folder is not None else None

    def _read(self, key: str) -> PageStatus | None:
        file = self._file(key)
        if file is None or not file.is_file():
            return None
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
            return PageStatus.from_dict(data) if data.get("format") == CACHE_FORMAT else None
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _write(self, key: str, status: PageStatus) -> None:
        file = self._file(key)
        if file is None:
            return
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(json.dumps(status.as_dict(), ensure_ascii=False), encoding="utf-8")
        except OSError:  # a read-only checkout: the memory cache still works
            pass


def cache_key(page: Page) -> str:
    digest = hashlib.sha256()
    for part in (f"format {CACHE_FORMAT}", str(page.path), page.source, code_fingerprint()):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def code_fingerprint() -> str:
    """Names, sizes and modification times of the engine's and runner's source files: an edit to either
    changes live results, so it changes every cache key."""
    import engine
    import runner

    parts = []
    for package in (engine, runner):
        root = Path(package.__file__).parent
        for file in sorted(root.rglob("*.py")):
            stat = file.stat()
            parts.append(f"{file.relative_to(root.parent).as_posix()}:{stat.st_size}:{stat.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()
