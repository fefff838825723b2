"""Where a page's snapshot file is: one answer for the pytest plugin and for `cookbook run --update`.

pytest collects the pages its configuration's `cookbook_pages` patterns match, relative to its rootdir, and
keeps each one's snapshot under `cookbook_snapshots`, at the page's path below the part of its pattern before
the first wildcard (`cookbook/**/*.md` → `cookbook/`; `cookbook/sub/a.md` → `snapshots/sub/a.yml`).

The plugin has pytest's configuration. The command line has none, so `layout_for(page)` finds the file
pytest would read for that page given as an argument: the nearest folder, from the page's own upward, with
one of pytest's configuration files, tried in pytest's order; that folder is the rootdir. With none, a
`pyproject.toml` without pytest settings, then a `setup.py`, marks the rootdir, else the folder shared by
the current one and the page's (the page's own when they share only the file system's root). A page the
patterns do not match is one pytest does not collect: it has no snapshot.
"""

from __future__ import annotations

import configparser
import os
import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PAGES_INI = "cookbook_pages"
SNAPSHOTS_INI = "cookbook_snapshots"
DEFAULT_PAGES = ("cookbook/**/*.md",)
DEFAULT_SNAPSHOTS = "snapshots"
GLOB_CHARACTERS = re.compile(r"[*?\[]")


def pattern_base(rootdir: Path, pattern: str) -> Path:
    """The folder a `cookbook_pages` pattern starts from: its parts before the first wildcard (a pattern
    without wildcards names one page, whose folder is the base)."""
    parts = Path(pattern).parts
    fixed = next((index for index, part in enumerate(parts) if GLOB_CHARACTERS.search(part)), len(parts) - 1)
    return rootdir.joinpath(*parts[:fixed]).resolve()


def matching_pages(rootdir: Path, patterns: Iterable[str]) -> dict[Path, Path]:
    """Every page the patterns match (resolved) → the folder its first matching pattern starts from."""
    pages: dict[Path, Path] = {}
    for pattern in patterns:
        base = pattern_base(rootdir, pattern)
        for path in sorted(rootdir.glob(pattern)):
            if path.is_file():
                pages.setdefault(path.resolve(), base)
    return pages


def snapshot_file(rootdir: Path, folder: str, base: Path, page: Path) -> Path:
    """`snapshots/sub/a.yml` for `cookbook/sub/a.md` under the base `cookbook/`."""
    return rootdir / folder / page.resolve().relative_to(base).with_suffix(".yml")


def page_name(rootdir: Path, page: Path) -> str:
    """The page's path from the rootdir, with `/`, as its snapshot file names it."""
    return page.resolve().relative_to(rootdir.resolve()).as_posix()


@dataclass(frozen=True)
class Layout:
    """pytest's view of a project's pages: its rootdir and the two settings, and whether a configuration
    file gave them."""

    rootdir: Path
    patterns: tuple[str, ...] = DEFAULT_PAGES
    snapshots: str = DEFAULT_SNAPSHOTS
    config_file: Path | None = None

    def snapshot_of(self, page: Path) -> Path | None:
        """The page's snapshot file; None when snapshots are off or pytest would not collect the page."""
        if not self.snapshots:
            return None
        base = matching_pages(self.rootdir, self.patterns).get(page.resolve())
        return None if base is None else snapshot_file(self.rootdir, self.snapshots, base, page)


def _toml(path: Path) -> dict[str, Any]:
    with path.open("rb") as file:
        return tomllib.load(file)


def _ini(path: Path, section: str) -> dict[str, Any] | None:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(path, encoding="utf-8")
    return dict(parser[section]) if parser.has_section(section) else None


def _pyproject(path: Path) -> dict[str, Any] | None:
    tool = _toml(path).get("tool", {}).get("pytest")
    if not isinstance(tool, dict):
        return None
    return tool.get("ini_options", tool)  # [tool.pytest.ini_options], or pytest 9's [tool.pytest]


CONFIG_READERS: dict[str, Callable[[Path], dict[str, Any] | None]] = {
    "pytest.toml": lambda path: _toml(path).get("pytest", {}),
    ".pytest.toml": lambda path: _toml(path).get("pytest", {}),
    "pytest.ini": lambda path: _ini(path, "pytest") or {},
    ".pytest.ini": lambda path: _ini(path, "pytest") or {},
    "pyproject.toml": _pyproject,
    "tox.ini": lambda path: _ini(path, "pytest"),
    "setup.cfg": lambda path: _ini(path, "tool:pytest"),
}
"""pytest's configuration files in its order of precedence → their pytest settings (None: none there)."""


def _lines(value: Any) -> tuple[str, ...]:
    """A `linelist` setting: a TOML list, or INI text with one entry a line."""
    items = value if isinstance(value, list) else str(value).splitlines()
    return tuple(str(item).strip() for item in items if str(item).strip())


def layout_for(page: Path) -> Layout:
    """The layout pytest would use with `page` as its argument (see the module docstring)."""
    folder = page.resolve().parent
    for directory in (folder, *folder.parents):
        for name, read in CONFIG_READERS.items():
            path = directory / name
            settings = read(path) if path.is_file() else None
            if settings is not None:
                return Layout(directory,
                              _lines(settings[PAGES_INI]) if PAGES_INI in settings else DEFAULT_PAGES,
                              str(settings.get(SNAPSHOTS_INI, DEFAULT_SNAPSHOTS)).strip(), path)
    for marker in ("pyproject.toml", "setup.py"):
        found = next((directory for directory in (folder, *folder.parents) if (directory / marker).is_file()), None)
        if found is not None:
            return Layout(found)
    shared = Path(os.path.commonpath([Path.cwd().resolve(), folder]))
    return Layout(folder if shared == Path(shared.anchor) else shared)


def shown_path(path: Path) -> str:
    """`path` as the user's shell sees it: relative to the current folder when that is shorter."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive
        return str(path)
    return relative if len(relative) < len(str(path)) else str(path)
