"""pytest plugin (entry point `pytest11: cookbook`): every cell of every page is a test item.

    pytest                       collects the pages (ini `cookbook_pages`, default cookbook/**/*.md): an item
                                 per cell, `cookbook/01-agent-memory.md::recall`
    pytest -k recall             runs the cells before `recall` silently, then checks it
    pytest -n auto               (pytest-xdist) keeps each page on one worker
    pytest --splits 3 --group 1  (pytest-split) runs a third of the pages, each whole, by recorded durations
    pytest --force-regen         refreshes the page snapshots (ini `cookbook_snapshots`, default snapshots/);
                                 `cookbook run --update PAGE` writes a page's snapshot with its recorded blocks

A thin adapter: `runner.run.run_cells` runs a page's cells in order on one database and checks each against
its recorded block, and an item fails with that check's text, the diff `cookbook run` prints. An engine
error fails its cell and skips the rest of the page. Each item then checks its cell's full result against
the page's snapshot (`runner.snapshot`), the pytest-regressions way: `--force-regen` rewrites it. A page
whose snapshot is missing (or lacks cells) fails once, on its first such item, naming the command that
records it (ADR-0069).

Nothing heavy is imported until a page is collected: this module loads in every pytest run of an
environment where cookbook is installed.
"""

from __future__ import annotations

import json
import re
import tempfile
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import pytest

from runner.snapshot_files import (
    DEFAULT_PAGES,
    DEFAULT_SNAPSHOTS,
    PAGES_INI,
    SNAPSHOTS_INI,
    matching_pages,
    page_name,
    shown_path,
    snapshot_file,
)

if TYPE_CHECKING:
    import engine
    from runner.page import Cell, Page
    from runner.run import CellOutcome

PAGES = pytest.StashKey[dict[Path, Path]]()
SHARD_PAGES = pytest.StashKey[list["CellItem"]]()


class CookbookPageWarning(UserWarning):
    """A page's warning (an unknown info-string key, say): the page still runs."""


class PageErrors(Exception):
    """The errors that keep a page from running, one `FILE:LINE: message` a line."""


class CellFailure(Exception):
    """A cell's failure text: the runner's diff or engine error, then any snapshot difference."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(PAGES_INI, type="linelist", default=list(DEFAULT_PAGES),
                  help="cookbook: glob patterns, relative to the rootdir, of the pages to collect as tests")
    parser.addini(SNAPSHOTS_INI, type="string", default=DEFAULT_SNAPSHOTS,
                  help="cookbook: the folder, relative to the rootdir, of the page snapshots ('' for none)")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> PageFile | None:
    pages = page_bases(parent.config)
    base = pages.get(file_path.resolve()) if pages else None
    if base is None:
        return None
    return PageFile.from_parent(parent, path=file_path, base=base)


def page_bases(config: pytest.Config) -> dict[Path, Path]:
    """Every page the `cookbook_pages` patterns match → the folder its pattern starts from (a page's
    snapshot mirrors its path below that folder)."""
    if PAGES not in config.stash:
        config.stash[PAGES] = matching_pages(config.rootpath, config.getini(PAGES_INI))
    return config.stash[PAGES]


class PageFile(pytest.File):
    """A page: its cells as items, and the one database they share, opened when the first one runs."""

    def __init__(self, *, base: Path, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.base = base
        self.page: Page | None = None
        self.snapshot: PageSnapshot | None = None
        self._connection: engine.Connection | None = None
        self._cells: Iterator[CellOutcome] | None = None
        self._outcomes: dict[str, CellOutcome] = {}

    def collect(self) -> Iterator[CellItem]:
        from runner.page import read_page

        page = read_page(shown_path(self.path))
        if page.errors:
            raise PageErrors("\n".join(map(str, page.errors)))
        for warning in page.warnings:
            warnings.warn_explicit(CookbookPageWarning(warning.message), None, str(self.path), warning.line)
        self.page = page
        folder = self.config.getini(SNAPSHOTS_INI).strip()
        if folder:
            self.snapshot = PageSnapshot(snapshot_file(self.config.rootpath, folder, self.base, self.path), self)
        for cell in page.cells:
            yield CellItem.from_parent(self, name=cell.name, cell=cell)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, PageErrors):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def outcome_of(self, cell: Cell) -> CellOutcome:
        """The cell's outcome, running the page's cells in order up to it (those before it unreported when
        they were deselected)."""
        from runner.run import run_cells

        assert self.page is not None
        while cell.name not in self._outcomes:
            if self._cells is None:
                import engine

                self._connection = engine.connect(":memory:", import_dir=str(self.page.path.parent))
                self._cells = run_cells(self.page, self._connection)
            outcome = next(self._cells)
            self._outcomes[outcome.cell.name] = outcome
        return self._outcomes[cell.name]

    def skip_reason(self, outcome: CellOutcome) -> str:
        failed = next((item for item in self._outcomes.values() if item.error is not None), None)
        if failed is None or failed.error is None:
            return outcome.failure
        return f"cell {failed.cell.name!r} failed before it: {failed.error.kind}: {failed.error.message}"

    def teardown(self) -> None:
        self._cells = None
        if self._connection is not None:
            self._connection.close()
            self._connection = None


class CellItem(pytest.Item):
    """A cell: run (after the cells before it), checked against its recorded block and its snapshot."""

    parent: PageFile

    def __init__(self, *, cell: Cell, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cell = cell

    def runtest(self) -> None:
        from runner.run import ERROR, FAILED, SKIPPED

        outcome = self.parent.outcome_of(self.cell)
        if outcome.status == SKIPPED:
            raise pytest.skip.Exception(self.parent.skip_reason(outcome), _use_item_location=True)
        if outcome.status == ERROR:
            raise CellFailure(outcome.failure)
        failures = [outcome.failure] if outcome.status == FAILED else []
        if self.parent.snapshot is not None and outcome.outcome is not None:
            difference = self.parent.snapshot.check(self, outcome)
            if difference:
                failures.append(difference)
        if failures:
            raise CellFailure("\n".join(text.rstrip("\n") + "\n" for text in failures))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CellFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        """The recorded block's line (the cell's when it has none), 0-based as pytest counts."""
        line = self.cell.recorded.line if self.cell.recorded else self.cell.line
        return self.path, line - 1, f"cell {self.name!r} in {self.path.name}"


class PageSnapshot:
    """A page's file in snapshots/, checked one cell at a time with pytest-regressions.

    Like pytest-regressions' own fixtures, a different record fails with a diff; `--force-regen` rewrites
    it (and fails), `--regen-all` rewrites it and passes. Unlike them, a missing record is not written: the
    page fails once, naming `cookbook run --update PAGE`, which records its blocks and snapshot together.
    """

    def __init__(self, path: Path, page_file: PageFile) -> None:
        self.path = path
        self.page_file = page_file
        self.config = page_file.config
        self._read: dict[str, Any] | None = None  # the file's entries, until this plugin writes it
        self._missing_reported = False

    @property
    def shown(self) -> str:
        return shown_path(self.path)

    def check(self, item: CellItem, outcome: CellOutcome) -> str | None:
        """The snapshot's difference from the cell's result as failure text, or None when they agree."""
        from runner import snapshot

        name = outcome.cell.name
        assert outcome.outcome is not None
        entry = snapshot.outcome_record(outcome.outcome)
        try:
            from pytest_regressions.common import perform_regression_check
        except ImportError:
            return (f"{self.shown}: checking cell {name!r} against its snapshot needs pytest-regressions: "
                    f"pip install 'cookbook[pytest]', or set `{SNAPSHOTS_INI} =` to check no snapshots")

        force_regen = self.config.getoption("force_regen", False)
        regen_all = self.config.getoption("regen_all", False)
        if not self.path.is_file() and not (force_regen or regen_all):
            return self.missing(item, {})
        if self.path.is_file() and not regen_all:
            try:
                recorded = self.cells(self.path)
            except ValueError:
                recorded = None  # the check below says it cannot be read
            if recorded is not None and snapshot.same_entry(recorded.get(name), entry):  # what the check finds
                return None
            if recorded is not None and name not in recorded and not force_regen:
                return self.missing(item, recorded)

        def dump(target: Path) -> None:
            self.write(target, name, entry)

        def compare(obtained: Path, expected: Path) -> None:
            __tracebackhide__ = True
            try:
                cells = self.cells(expected)
            except ValueError as error:
                raise AssertionError(f"{self.shown} cannot be read ({error}); `pytest --force-regen` "
                                     "rewrites it") from None
            if snapshot.same_entry(cells.get(name), entry):
                return
            raise AssertionError(self.difference(name, cells, entry))

        request = SimpleNamespace(config=self.config, node=SimpleNamespace(cls=None, name=item.name))
        try:
            perform_regression_check(datadir=None, original_datadir=self.path.parent, request=request,
                                     check_fn=compare, dump_fn=dump, extension=".yml", fullpath=self.path,
                                     obtained_filename=self.obtained_path(name))
        except AssertionError as error:
            return str(error)
        except pytest.fail.Exception as failure:  # written: created, or regenerated with --force-regen
            return f"{self.shown}: cell {name!r}: {failure.msg}"
        return None

    def missing(self, item: CellItem, recorded: dict[str, Any]) -> str | None:
        """The page's one failure for a snapshot that is missing or lacks cells, on the first item that finds
        it; None for the others, whose cells it names."""
        from runner.page import Trace

        if self._missing_reported:
            return None
        self._missing_reported = True
        page = self.page_file.page
        assert page is not None
        shown = shown_path(self.page_file.path)
        if recorded:
            absent = [cell.name for cell in page.cells if not isinstance(cell, Trace) and cell.name not in recorded]
            what = f"{self.shown} has no entry for {', '.join(map(repr, absent))}"
        else:
            what = f"the page has no snapshot ({self.shown})"
        return (f"{shown}:{item.cell.line}: {what}: record it with `cookbook run --update {shown}`, then commit "
                f"{self.shown} with the page\n")

    def cells(self, path: Path, *, lenient: bool = False) -> dict[str, Any]:
        """The file's entries; an unreadable file (a merge conflict in it, say) raises ValueError, or reads
        as empty when `lenient`."""
        from runner import snapshot

        if path == self.path and self._read is not None:
            return self._read
        try:
            cells = snapshot.read_entries(path)
        except ValueError:
            if lenient:
                return {}
            raise
        if path == self.path:
            self._read = cells
        return cells

    def write(self, target: Path, name: str, entry: dict[str, Any]) -> None:
        """The page's snapshot as the file has it, with `name`'s entry replaced, in page order; entries of
        cells the page no longer has are dropped."""
        from runner import snapshot

        page = self.page_file.page
        assert page is not None
        cells = snapshot.merged([cell.name for cell in page.cells], self.cells(self.path, lenient=True), {name: entry})
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(snapshot.dump_snapshot(self.page_name, cells), encoding="utf-8", newline="\n")
        if target == self.path:
            self._read = cells

    @property
    def page_name(self) -> str:
        return page_name(self.config.rootpath, self.page_file.path)

    def difference(self, name: str, cells: dict[str, Any], entry: dict[str, Any]) -> str:
        """The failure text: a diff of the snapshot file against the file with this cell's result, so
        that its line numbers are the file's."""
        import difflib

        from runner import snapshot

        page = self.page_file.page
        assert page is not None
        before = self.path.read_text(encoding="utf-8").splitlines()
        after = snapshot.dump_snapshot(self.page_name, snapshot.merged(
            [cell.name for cell in page.cells], cells, {name: snapshot.aligned(cells.get(name), entry)})).splitlines()
        changes = difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
        line = next((start for tag, start, *_ in changes if tag != "equal"), 0) + 1  # the first line that differs
        head = (f"{self.shown}:{line}: cell {name!r} differs from its snapshot (`pytest --force-regen` or "
                f"`cookbook run --update {shown_path(self.page_file.path)}` records it)\n")
        lines = difflib.unified_diff(before, after, fromfile=f"{self.shown} (snapshot)",
                                     tofile=f"cell {name!r} (actual)", lineterm="", n=2)
        return head + "\n".join(lines) + "\n"

    def obtained_path(self, name: str) -> Path:
        cache = getattr(self.config, "cache", None)
        if cache is not None:
            folder = cache.mkdir("cookbook-snapshots")
        else:  # -p no:cacheprovider
            folder = Path(tempfile.mkdtemp(prefix="cookbook-snapshots-"))
        stem = re.sub(r"\W+", "_", f"{self.path.stem}.{name}")
        return folder / f"{stem}.obtained.yml"



@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """pytest-xdist's `load` (the default) and `loadgroup` modes, with a page's cells as one unit of work:
    they share a database and run in order. Every other test is scheduled as the mode would."""
    dist = config.getvalue("dist")
    if dist not in ("load", "loadgroup") or not page_bases(config):
        return None
    from xdist.scheduler import LoadGroupScheduling, LoadScopeScheduling

    root = config.rootpath.resolve()
    pages = {path.relative_to(root).as_posix() for path in page_bases(config) if path.is_relative_to(root)}

    class PageScheduling(LoadScopeScheduling if dist == "load" else LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            file = nodeid.split("::", 1)[0]
            if file in pages:
                return file
            return nodeid if dist == "load" else super()._split_scope(nodeid)

    return PageScheduling(config, log)


@dataclass(frozen=True)
class PageUnit:
    """A page as pytest-split's algorithms see one test: its node id (`str` is what they sort by)."""

    nodeid: str

    def __str__(self) -> str:
        return self.nodeid


def splitting(config: pytest.Config) -> bool:
    """Whether pytest-split chooses this run's tests (`--splits N --group I`)."""
    return bool(getattr(config.option, "splits", None) and getattr(config.option, "group", None))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-split, take the page items out of the list it splits and choose this shard's pages, each
    whole. pluggy calls `trylast` hooks in the order they were registered, so this runs after `-k` and the
    other selections and before pytest-split's own hook, which its plugin registers later (ADR-0069)."""
    if not splitting(config):
        return
    cells = [item for item in items if isinstance(item, CellItem)]
    if not cells:
        return
    items[:] = [item for item in items if not isinstance(item, CellItem)]
    kept, dropped = shard_pages(config, cells)
    config.stash[SHARD_PAGES] = kept
    if dropped:
        config.hook.pytest_deselected(items=dropped)


def shard_pages(config: pytest.Config, cells: list[CellItem]) -> tuple[list[CellItem], list[CellItem]]:
    """This shard's cells and the others': pytest-split's algorithm over pages, a page weighing the sum of
    its cells' recorded durations (a cell not recorded: their mean, or 1 s when none is)."""
    from pytest_split.algorithms import Algorithms

    pages: dict[str, list[CellItem]] = {}
    for cell in cells:
        pages.setdefault(cell.parent.nodeid, []).append(cell)
    recorded = read_durations(config.option.durations_path)
    known = [recorded[cell.nodeid] for cell in cells if cell.nodeid in recorded]
    default = sum(known) / len(known) if known else 1.0
    durations = {page: sum(recorded.get(cell.nodeid, default) for cell in members)
                 for page, members in pages.items()}
    splits, group = config.option.splits, config.option.group
    algorithm = Algorithms[config.option.splitting_algorithm].value
    chosen = algorithm(splits, [PageUnit(page) for page in pages], durations)[group - 1]
    mine = {unit.nodeid for unit in chosen.selected}
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"[cookbook] group {group}/{splits}: {len(mine)} of {len(pages)} pages, each whole "
                            f"(estimated duration: {chosen.duration:.2f}s)")
    kept = [cell for cell in cells if cell.parent.nodeid in mine]
    return kept, [cell for cell in cells if cell.parent.nodeid not in mine]


def read_durations(path: str) -> dict[str, float]:
    """pytest-split's durations file (node id → seconds; `--store-durations` writes it), or none."""
    try:
        with open(path, encoding="utf-8") as file:
            durations = json.load(file)
    except (OSError, ValueError):
        return {}
    return dict(durations) if isinstance(durations, (dict, list)) else {}


class ShardPagesBack:
    """Puts the shard's pages back after every selection, pytest-split's included (registered only while
    pytest-split splits: a module can hold one hook of a name, and the hook above is the other half)."""

    @pytest.hookimpl(wrapper=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> Any:
        result = yield
        items.extend(config.stash.get(SHARD_PAGES, []))
        return result


def pytest_configure(config: pytest.Config) -> None:
    if splitting(config):
        config.pluginmanager.register(ShardPagesBack(), "cookbook-shard-pages")
