"""`--update`: rewrite recorded blocks in place, changing no other byte of the page.

A recorded block whose content differs from the result gets the new content between its own fence lines;
a cell with no recorded block gets one right after it, separated by a blank line. Every line written uses
the line ending of the fence it belongs to, so a CRLF page stays CRLF. Cells that failed with an error,
or were skipped, are never recorded. A cell marked `error` gets the error it raised as its `error` block;
when it raised none, its block is left as it is (the page, not the update, has to change).

`update_snapshot` then writes the page's snapshot (`snapshots/PAGE.yml`, where pytest checks it), so that a
page recorded with `--update` passes its first pytest run once both files are committed (ADR-0069).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from runner import snapshot
from runner.page.model import Cell, Page, Trace
from runner.run import PageOutcome
from runner.snapshot_files import layout_for, page_name

LINE = re.compile(r"([^\r\n]*)(\r\n|\r|\n|$)")


@dataclass
class Edit:
    """New content for a cell's recorded block (`kind` is used when the block has to be added)."""

    cell: Cell
    kind: str
    content: str


def edits_for(outcome: PageOutcome) -> list[Edit]:
    """The blocks that differ from the results, and the missing ones; nothing for errors or skips, nor for
    a cell marked `error` that raised none."""
    edits = []
    for cell_outcome in outcome.cells:
        if cell_outcome.updatable:
            kind = cell_outcome.block_kind or "table"
            edits.append(Edit(cell_outcome.cell, kind, cell_outcome.actual))
    return edits


def split_with_endings(text: str) -> list[tuple[str, str]]:
    """(line, ending) pairs; joining them gives `text` back exactly. Line i is the page's line i + 1."""
    pairs = []
    position = 0
    while True:
        match = LINE.match(text, position)
        assert match is not None
        pairs.append((match[1], match[2]))
        position = match.end()
        if not match[2]:
            return pairs


def apply_edits(page: Page, edits: list[Edit]) -> str:
    """The page's source with the edits made. Edits are applied bottom-up so line numbers stay valid."""
    lines = split_with_endings(page.source)
    default_ending = next((ending for _, ending in lines if ending), "\n")
    for edit in sorted(edits, key=lambda e: e.cell.line, reverse=True):
        recorded = edit.cell.recorded
        if recorded is not None:
            fence = recorded.fence
            ending = lines[fence.line - 1][1] or default_ending
            new = [(fence.prefix + text, ending) for text in _content_lines(edit.content)]
            if fence.closed:
                lines[fence.line:fence.end_line - 1] = new
            else:
                lines[fence.line:fence.end_line] = [*new, (fence.prefix + fence.marker, ending)]
            continue
        fence = edit.cell.fence
        if not fence.closed:
            continue  # a cell running to the end of the page has no "after"
        closing_index = fence.end_line - 1
        text, ending = lines[closing_index]
        ending = ending or lines[fence.line - 1][1] or default_ending
        lines[closing_index] = (text, ending)
        block = [("", ending), (fence.prefix + fence.marker + edit.kind, ending),
                 *((fence.prefix + text, ending) for text in _content_lines(edit.content)),
                 (fence.prefix + fence.marker, ending)]
        after = closing_index + 1
        if after < len(lines) and lines[after][0].strip():
            block.append(("", ending))  # keep a blank line between the new block and what follows
        lines[after:after] = block
    return "".join(text + ending for text, ending in lines)


def _content_lines(content: str) -> list[str]:
    return content.split("\n")[:-1] if content.endswith("\n") else content.split("\n")


class CannotUpdate(Exception):
    """The page could not be written; it is as it was."""


def update_page(outcome: PageOutcome) -> list[Edit]:
    """Write the page's updated recordings to its file. Returns the edits made (none: file untouched)."""
    edits = edits_for(outcome)
    if edits:
        text = apply_edits(outcome.page, edits)
        write_atomically(Path(outcome.page.path), text.encode("utf-8"))
    return edits


def update_snapshot(outcome: PageOutcome) -> Path | None:
    """Write the page's snapshot with the results of the cells that ran, keeping the entries of the others
    (a cell after an engine error); returns the file when its entries changed, None when they did not or
    the page has no snapshot (pytest does not collect it, or `cookbook_snapshots` is empty)."""
    page_path = Path(outcome.page.path)
    layout = layout_for(page_path)
    path = layout.snapshot_of(page_path)
    if path is None:
        return None
    try:
        recorded = snapshot.read_entries(path)
    except ValueError:  # none yet, or unreadable: written anew
        recorded = {}
    new = {item.cell.name: snapshot.outcome_record(item.outcome) for item in outcome.cells
           if item.outcome is not None}
    names = [cell.name for cell in outcome.page.cells if not isinstance(cell, Trace)]
    name = page_name(layout.rootdir, page_path)
    text = snapshot.dump_snapshot(name, snapshot.merged(names, recorded, new))
    if path.is_file() and text == snapshot.dump_snapshot(name, snapshot.merged(names, recorded, {})):
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    except OSError as error:
        raise CannotUpdate(f"cannot write the snapshot {path}: {error.strerror or error}") from error
    return path


def write_atomically(path: Path, data: bytes) -> None:
    """Replace `path`'s content with `data` whole or not at all: a temporary file beside it (same mode),
    synced, renamed over it, and the directory synced. Writing in place left a page cut mid-table when the
    disk filled. Any failure leaves the page as it was and raises CannotUpdate with the reason."""
    temporary: str | None = None
    target = Path(os.path.realpath(path))  # through a symlink to its page: a rename would replace the link
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
        _check_writable(target, mode)
        descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
        temporary = None
    except OSError as error:
        raise CannotUpdate(f"cannot update {path}: {error.strerror or error}; the page is unchanged") from error
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
    _sync_directory(target.parent)


def _check_writable(path: Path, mode: int) -> None:
    """Refuse a page its owner made read-only, as writing it in place did: a rename needs only the directory
    to be writable, and root may write anything, so neither would say no on its own."""
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))


def _sync_directory(directory: Path) -> None:
    """Make the rename durable. The page already has its new content here, so a file system that cannot
    sync a directory is no reason to report the update as failed."""
    with contextlib.suppress(OSError):
        descriptor = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
